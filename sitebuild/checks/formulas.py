"""Formula objects agree with their figures: what the popover shows must add up.

The popover next to a number shows its formula with the inputs' values put
in (calculators/formulas.py). If the model changes a figure and the formula
object no longer gives the printed value, a reader would see arithmetic that
does not add up; the build stops instead, naming the line of the formula.
"""

from __future__ import annotations

import math
import pathlib
import re

from calculators import formulas
from .report import ERROR, Problem

REL = "calculators/formulas.py"


def _line(text: str, fig_id: str) -> int:
    """The line that defines `fig_id`'s formula (a literal key, or the f-string of a loop)."""
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if f'"{fig_id}"' in line:
            return n
    stem = fig_id.rsplit(".", 1)[0]
    for n, line in enumerate(lines, 1):
        if re.search(r'f"' + re.escape(stem) + r"\.\{", line):
            return n
    return 0


def agrees(figure, got: float) -> bool:
    """The formula's result prints as the figure does (its rounding), in every language's format."""
    import dataclasses
    shown = dataclasses.replace(figure, value=got)
    return math.isfinite(got) and all(shown.format(lang) == figure.format(lang) for lang in ("en", "de"))


def check(registry: dict, root: pathlib.Path) -> list:
    path = root / REL
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    out = []
    for fig_id, formula in formulas.all_formulas().items():
        line = _line(text, fig_id)
        unknown = [t.figure for t in formula.terms if t.figure and t.figure not in registry]
        if fig_id not in registry or unknown:
            names = ", ".join([fig_id] if fig_id not in registry else unknown)
            out.append(Problem(REL, line, ERROR, "formula-unknown", f"formula of {fig_id!r} names figures that do not exist: {names}"))
            continue
        value = registry[fig_id].value
        try:
            got = formula.evaluate(registry)
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError) as err:
            out.append(Problem(REL, line, ERROR, "formula-broken", f"formula of {fig_id!r} cannot be evaluated: {err}"))
            continue
        if isinstance(value, tuple) or not agrees(registry[fig_id], got):
            out.append(Problem(REL, line, ERROR, "formula-disagrees",
                               f"formula of {fig_id!r} gives {got:.6g} but the figure is {value!r}: the popover would show "
                               f"arithmetic that does not add up; fix the formula or the figure"))
    return out
