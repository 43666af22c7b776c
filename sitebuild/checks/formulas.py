"""Formula objects agree with their figures: what the popover shows must add up.

The popover next to a number shows its formula with the inputs' values put
in (calculators/formulas_<topic>.py, collected by calculators/formulas.py).
If the model changes a figure and the formula object no longer gives the
printed value, a reader would see arithmetic that does not add up; the build
stops instead, naming the file and line of the formula.
"""

from __future__ import annotations

import math
import pathlib
import re

from calculators.article import formulas
from .report import ERROR, Problem

def _line(text: str, fig_id: str) -> int:
    """The line that defines `fig_id`'s formula: a literal key, else an f-string key of a loop, else any mention."""
    lines = text.splitlines()
    key = re.compile(r'(^|[{,(\s])"' + re.escape(fig_id) + r'"\s*:|FORMULAS\["' + re.escape(fig_id) + r'"\]\s*=')
    for n, line in enumerate(lines, 1):
        if key.search(line):
            return n
    for n, line in enumerate(lines, 1):
        for literal in re.findall(r'FORMULAS\[f"([^"]+)"\]', line):
            pattern = "".join("(.+)" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]*\})", literal))
            match = re.fullmatch(pattern, fig_id)
            if match:  # a loop: the row of its data that names this figure, else the loop's formula
                rows = [m for m, row in enumerate(lines, 1) for g in match.groups() if f'("{g}",' in row]
                return rows[0] if rows else n
    return next((n for n, line in enumerate(lines, 1) if f'"{fig_id}"' in line), 0)


def agrees(figure, got) -> bool:
    """The formula's result prints as the figure does (its rounding), in every language's format;
    a range must agree at both ends, and a range never agrees with a single number or the reverse."""
    import dataclasses
    ends = got if isinstance(got, tuple) else (got,)
    if isinstance(figure.value, tuple) != isinstance(got, tuple) or not all(math.isfinite(v) for v in ends):
        return False
    shown = dataclasses.replace(figure, value=got)
    return all(shown.format(lang) == figure.format(lang) for lang in ("en", "de"))


def check(registry: dict, root: pathlib.Path) -> list:
    texts = {}
    out = []
    for fig_id, formula in formulas.all_formulas().items():
        rel = formulas.origin(fig_id)   # the topic module that holds this formula
        if rel not in texts:
            path = root / rel
            texts[rel] = path.read_text(encoding="utf-8") if path.exists() else ""
        line = _line(texts[rel], fig_id)
        unknown = [t.figure for t in formula.terms if t.figure and t.figure not in registry]
        if fig_id not in registry or unknown:
            names = ", ".join([fig_id] if fig_id not in registry else unknown)
            out.append(Problem(rel, line, ERROR, "formula-unknown", f"formula of {fig_id!r} names figures that do not exist: {names}"))
            continue
        value = registry[fig_id].value
        try:
            got = formula.evaluate(registry)
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError) as err:
            out.append(Problem(rel, line, ERROR, "formula-broken", f"formula of {fig_id!r} cannot be evaluated: {err}"))
            continue
        if not agrees(registry[fig_id], got):
            shown = " to ".join(f"{v:.6g}" for v in got) if isinstance(got, tuple) else f"{got:.6g}"
            out.append(Problem(rel, line, ERROR, "formula-disagrees",
                               f"formula of {fig_id!r} gives {shown} but the figure is {value!r}: the popover would show "
                               f"arithmetic that does not add up; fix the formula or the figure"))
    return out
