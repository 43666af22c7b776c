"""Print every figure's id and its formatted English value, one per line, sorted.

Run on two checkouts and diff the outputs to see which printed values a change
moves: `python tools/dump_figures.py > before.txt`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calculators.article import figures  # noqa: E402


def main(locale: str = "en") -> None:
    for fid, fig in sorted(figures.registry().items()):
        print(f"{fid}\t{fig.format(locale)}")


if __name__ == "__main__":
    main(*sys.argv[1:])
