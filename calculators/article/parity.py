"""Every string the package prints, in every locale, as one flat dict.

The Pyodide parity test evaluates this in the browser's Python and in
CPython and compares the dicts: if they are equal, the calculators print
exactly what the build printed (DESIGN invariant 2).
"""

from __future__ import annotations

from . import claims
from . import figures
from ..text import fmt
from ..text import grammar
from ..ui import evaluate as ui


def snapshot() -> dict:
    out = {}
    for fig in figures.registry().values():
        for loc in fmt.LOCALES:
            out[f"figure:{fig.id}:{loc}"] = fig.format(loc)
    for res in claims.results():
        out[f"claim:{res.claim.n}:verdict"] = res.verdict
        for i, part in enumerate(res.parts):
            out[f"claim:{res.claim.n}:part{i}"] = f"{part.verdict}:{part.matched}"
    for fig in figures.registry().values():       # the words that agree with each figure (calculators/grammar.py)
        if fig.kind in ("percent", "count", "tokens", "words") and not fig.is_range:
            it = fig.format("it")
            out[f"grammar:{fig.id}:it"] = grammar.article(it, "al")
            for loc in fmt.LOCALES:
                out[f"grammar:{fig.id}:{loc}:n"] = grammar.plural_category(fig.format(loc), loc)
    out.update(ui.snapshot())  # the calculators: defaults, a change and a rejected input, with charts
    return out
