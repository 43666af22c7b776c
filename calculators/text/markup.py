"""HTML escaping for the text the calculators and charts put into markup.

Why not `html.escape`: importing the `html` package loads its table of 2,000
named entities into the browser's Python. The calculators start from a memory
snapshot of that Python (sitebuild/snapshot.py), and the table made the
snapshot 0.75 MB larger to download (7.25 MB instead of 6.50 MB gzipped, measured
when this module was removed and brought back). This does what `html.escape`
does (tests/test_calc_ui.py compares the two).
"""

from __future__ import annotations

_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(s: str, quote: bool = True) -> str:
    return s.translate(_ATTRIBUTE if quote else _TEXT)
