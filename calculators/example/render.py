"""The running example re-rendered: what a page needs to show the reader's example in place.

The page script (docs/assets/calculators.js) sends, with the example control's
inputs, what the page holds of the example (`request`):

    {"page": "decode", "sources": "../sources/",       the page, and its link to the sources page
     "figs": [id, ...],                                 figures printed alone
     "groups": [[id, art, one, other, style], ...],     figures with an Italian article, a counted noun or a style
     "names": [[key, form, cap], ...],                  names in sentences (ex("device", form="einem"))
     "says": [id, ...], "charts": [name, ...]}          sentences that depend on the numbers, charts

and gets back, in the page's language, the same HTML the build would have
written for this example (`answer`), and each figure's explanation for the
popover (docs/assets/explain.js). Charts are drawn one floor up, with the
calculators' SVG helpers (calculators/ui/example.py adds them).
"""

from __future__ import annotations

from . import names, provenance, variants
from . import figures as X
from .html import figure_html
from .sentences_decode import SAYS as DECODE_SAYS
from .sentences_speed import SAYS as SPEED_SAYS

SAYS = {s.id: s for s in DECODE_SAYS + SPEED_SAYS}
MAX_ITEMS = 400            # more occurrences than any page has: a request with more is not the page's


def say_figures(sid: str, c) -> list:
    """The figures the sentence `sid` prints for the example `c`, in order (a page's figures: its explanations, the checks)."""
    reg = X.registry(c)
    return [fid for _, figs in SAYS[sid].chosen(c) for fid in figs.values() if fid in reg]


def default_say_figures(sid: str, cat) -> list:
    """The figures the sentence `sid` prints for its page's default example: what the build writes."""
    from .declare import default_case
    return say_figures(sid, default_case(cat, SAYS[sid].pages[0]))


def group_key(id: str, art: str | None, one: str | None, other: str | None, style: str | None = None) -> str:
    return "|".join((id, art or "", one or "", other or "", style or ""))


def name_key(key: str, form: str, cap: bool) -> str:
    return "|".join((key, form or "", "1" if cap else ""))


def _strings(items, size: int) -> list:
    """A request's list of ids or tuples, kept only where it has the expected shape (it comes from the page)."""
    out = []
    for item in (items or [])[:MAX_ITEMS]:
        if size == 1 and isinstance(item, str):
            out.append(item)
        elif size > 1 and isinstance(item, list) and len(item) == size and all(isinstance(x, (str, bool)) or x is None for x in item):
            out.append(item)
    return out


def answer(c, lang: str, tr, request: dict) -> dict:
    """The article's parts for the example `c` (calculators/example/case.py), as the page asked for them."""
    reg = X.registry(c)
    sources = request.get("sources") if isinstance(request.get("sources"), str) else None
    out = {"figs": {}, "groups": {}, "names": {}, "says": {}}
    shown = []
    for fid in _strings(request.get("figs"), 1):
        if fid in reg:
            out["figs"][fid] = reg[fid].format(lang)
            shown.append(fid)
    for fid, art, one, other, style in _strings(request.get("groups"), 5):
        if fid in reg and style in ("", "times", "words"):
            noun = (one, other or None) if one else None
            text = reg[fid].format(lang, style or None)
            href = None if sources is None else f"{sources}#fig-{fid}"
            out["groups"][group_key(fid, art, one, other, style)] = figure_html(fid, text, lang, art or None, noun, href,
                                                                                 style or None)
            shown.append(fid)
    for key, form, cap in _strings(request.get("names"), 3):
        if key in names.KEYS:
            out["names"][name_key(key, form, bool(cap))] = names.name(key, c, lang, tr, form or "", bool(cap))
    for sid in _strings(request.get("says"), 1):
        say = SAYS.get(sid)
        if say is not None and c.page in say.pages:
            chosen = say.chosen(c)
            out["says"][sid] = variants.inner_html(say, c, reg, lang, tr, sources, chosen)
            shown += [fid for _, figs in chosen for fid in figs.values() if fid in reg]
    out["provenance"] = explanations(c, reg, lang, tr, dict.fromkeys(shown))
    return out


def explanations(c, reg: dict, lang: str, tr, ids) -> dict:
    """{"figs": {id: explanation}, "src": {ref: entry}} for the figures shown: what the page's provenance JSON holds."""
    query = lambda fid: provenance.calculator_query(fid, c)  # noqa: E731
    memo: dict = {}

    def explain(fid: str, depth: int) -> dict:
        if (fid, depth) not in memo:
            memo[(fid, depth)] = provenance.explain(reg, fid, lang, tr, depth, query, sub=lambda i: explain(i, depth - 1))
        return memo[(fid, depth)]

    figs = {fid: explain(fid, 1) for fid in ids}
    refs = dict.fromkeys(ref for f in figs.values() for ref in provenance.refs(f))
    src = {ref: provenance.entry(ref, c.cat, lang, tr, own_model=c.m) for ref in refs}
    return {"figs": figs, "src": src}
