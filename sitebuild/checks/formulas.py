"""Formula objects agree with their figures: what the popover shows must add up.

The popover next to a number shows its formula with the inputs' values put
in (each figure's formula object, declared with it in calculators/article/topics/).
If the model changes a figure and the formula object no longer gives the
printed value, a reader would see arithmetic that does not add up; the build
stops instead, naming the file and line of the figure's declaration (the
declaration records where it stands: calculators/example/figure.py).
"""

from __future__ import annotations

import math
import pathlib

from .report import ERROR, Problem


def agrees(figure, got) -> bool:
    """The formula's result prints as the figure does (its rounding), in every language's format;
    a range must agree at both ends, and a range never agrees with a single number or the reverse."""
    ends = got if isinstance(got, tuple) else (got,)
    if isinstance(figure.value, tuple) != isinstance(got, tuple) or not all(math.isfinite(v) for v in ends):
        return False
    shown = figure.with_value(got)
    return all(shown.format(lang) == figure.format(lang) for lang in ("en", "de"))


def check(registry: dict, root: pathlib.Path) -> list:
    out = []
    for fig_id, fig in registry.items():
        formula = fig.expression
        if formula is None:
            continue
        rel, line = fig.origin
        unknown = [t.figure for t in formula.terms if t.figure and t.figure not in registry]
        if unknown:
            out.append(Problem(rel, line, ERROR, "formula-unknown",
                               f"formula of {fig_id!r} names figures that do not exist: {', '.join(unknown)}"))
            continue
        try:
            got = formula.evaluate(registry)
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError) as err:
            out.append(Problem(rel, line, ERROR, "formula-broken", f"formula of {fig_id!r} cannot be evaluated: {err}"))
            continue
        if not agrees(fig, got):
            shown = " to ".join(f"{v:.6g}" for v in got) if isinstance(got, tuple) else f"{got:.6g}"
            out.append(Problem(rel, line, ERROR, "formula-disagrees",
                               f"formula of {fig_id!r} gives {shown} but the figure is {fig.value!r}: the popover would show "
                               f"arithmetic that does not add up; fix the formula or the figure"))
    return out
