"""Claims in prose: `{{ claim("kv.llama70b.total.8192", about=2.7e9) }}`.

Why: a sentence sometimes needs to say "about 2.7 GB" in its own words; the
claim macro prints the figure and makes the build fail when the stated
value drifts away from what the model computes. The comparison is the fact
check's (calculators/article/claims.py: Part and check_part, same tolerance), so a
claim on a page and a claim on the fact-check page are judged alike.

The claimed value is in the figure's SI unit (bytes, seconds, tok/s); `scale`
lets prose-like numbers stand (about=2.7, scale=1e9 for "2.7 GB").
"""

from __future__ import annotations

from dataclasses import replace

from calculators.article import claims

MODES = ("about", "at_least", "at_most")


def evaluate(figure_id: str, figures: dict, *, about=None, at_least=None, at_most=None,
             scale: float = 1.0, tolerance: float | None = None) -> str | None:
    """None when the claim holds; otherwise what is wrong and what to do."""
    given = {m: v for m, v in (("about", about), ("at_least", at_least), ("at_most", at_most)) if v is not None}
    if len(given) != 1:
        return f"claim({figure_id!r}) needs exactly one of about=, at_least=, at_most= (got {', '.join(given) or 'none'})"
    if figure_id not in figures:
        return f"claim(): unknown figure id {figure_id!r}"
    mode, claimed = next(iter(given.items()))
    claimed = tuple(claimed) if isinstance(claimed, (list, tuple)) else claimed
    tol = claims.TOLERANCE if tolerance is None else tolerance
    part = claims.Part(claimed, figure_id, scale=scale, mode=mode, tolerance=tol)
    result = claims.check_part(part, figures)
    if result.verdict == "correct":
        return None
    fig = figures[figure_id]
    stated = tuple(c * scale for c in claimed) if isinstance(claimed, tuple) else claimed * scale
    said = replace(fig, value=stated).format("en")
    words = {"about": f"within {tol:.0%} of", "at_least": "at least", "at_most": "at most"}[mode]
    return (f"claim({figure_id!r}, {mode}={claimed!r}{'' if scale == 1.0 else f', scale={scale!r}'}) does not hold: "
            f"the model computes {fig.format('en')} ({_raw(fig.value)}), the claim says {words} {said} ({_raw(stated)}): "
            f"change the claimed value or the sentence")


def _raw(value) -> str:
    if isinstance(value, tuple):
        return "–".join(f"{v:.6g}" for v in value)
    return f"{value:.6g}"
