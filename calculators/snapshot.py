"""Every string the package prints, in every locale, as one flat dict.

The Pyodide parity test evaluates this in the browser's Python and in
CPython and compares the dicts: if they are equal, the calculators print
exactly what the build printed (DESIGN invariant 2).
"""

from __future__ import annotations

from . import claims, figures, fmt, ui


def snapshot() -> dict:
    out = {}
    for fig in figures.registry().values():
        for loc in fmt.LOCALES:
            out[f"figure:{fig.id}:{loc}"] = fig.format(loc)
    for res in claims.results():
        out[f"claim:{res.claim.n}:verdict"] = res.verdict
        for i, part in enumerate(res.parts):
            out[f"claim:{res.claim.n}:part{i}"] = f"{part.verdict}:{part.matched}"
    out.update(ui.snapshot())  # the calculators: defaults, a change and a rejected input, with charts
    return out
