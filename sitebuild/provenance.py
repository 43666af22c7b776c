"""Provenance in place: for every figure on a page, what the popover next to it shows.

Built once per page and language from the same objects the sources page
reads (the figure, its formula object, the catalog entries it reads), and
embedded in the page as JSON: the popover needs no Pyodide and no request.
Without JavaScript the figure is a link to its row on the sources page.

Per figure: the printed value; the formula in words; the formula with the
values put in, where the figure has a formula object; each input (a catalog
entry with its source, link, access date and confidence, a scenario
assumption marked as ours, or another figure, explained one level down);
and, where a calculator reproduces the figure, a link that opens it with
exactly these inputs.

A catalog entry is written once per page (`src`, keyed by its reference) and
the figures name it: many figures and their terms read the same model
config or datasheet, and repeating its title and link in each would make up
most of the page's data.
"""

from __future__ import annotations

import functools
import json
from urllib.parse import urlencode

from calculators.data import catalog, serving
from calculators.article import figures
from calculators.data import scenarios as S
from calculators.ui.messages import N_

from . import citations

# Figures a calculator on the calculators page reproduces, with the state that does it
# (query parameters of calculators/, as the calculators' shared URL state writes them).
CALCULATOR_STATE = {
    **{f"kv.llama70b.total.{ctx}": ("kv_cache", {"model": "llama-3.1-70b", "context": ctx, "batch": 1, "kv_precision": "bf16"})
       for ctx in (8192, 32768, 131072)},
    "speed.per_request": ("decode", {"model": "llama-3.1-70b", "devices": S.SPEED_DEVICES, "batch": 1, "context": S.SPEED_PROMPT,
                                     "device": "h100-sxm", "weight_precision": "bf16"}),
    **{f"batch.llama70b.per_request.{b}": ("decode", {"model": "llama-3.1-70b", "devices": S.BATCH_DEVICES, "batch": b,
                                                      "context": S.BATCH_CONTEXT, "device": "h100-sxm", "weight_precision": "bf16"})
       for b in S.BATCHES},
}


def calculator_query(fig_id: str) -> str | None:
    """The calculators page's query string that reproduces `fig_id`, or None."""
    if fig_id not in CALCULATOR_STATE:
        return None
    name, state = CALCULATOR_STATE[fig_id]
    return urlencode({f"{name}.{k}": v for k, v in state.items()})


def _record(ref: str, cat: catalog.Catalog):
    """A figure input's record: catalog.toml's, else serving.toml's (efficiency, links, engines, published measurements)."""
    section, _, key = ref.partition(".")
    found = getattr(cat, section, {}).get(key)
    if found is None:
        found = getattr(serving.load(), section)[key]
    return found


def _name(ref: str, rec, cat: catalog.Catalog, tr) -> str:
    """What a reader calls a catalog entry: its name, what a datum is, who measured what; "" where the
    entry has none of these (the popover then names it by its source's title and kind). Never the
    catalog's key ("measurements.infercom-gpt-oss-120b"): that is the sources page's business."""
    section = ref.partition(".")[0]
    worded = catalog.WORDED_NAMES.get(section) or serving.WORDED_NAMES.get(section)
    if worded:
        return tr(rec.name, worded)
    if section == "data":
        return tr(rec.what, "datum")
    if section == "measurements":
        return f"{cat.models[rec.model].name}: {tr(rec.who, 'measured-by')}"
    return getattr(rec, "name", None) or ""


def _entry(ref: str, cat: catalog.Catalog, lang: str, tr, accessed) -> dict:
    rec = _record(ref, cat)
    src = rec.src
    return {"name": _name(ref, rec, cat, tr), "title": citations.describe(src, lang, tr, with_kind=True), "url": src.url,
            "accessed": accessed(src, lang),
            "confidence": tr(src.confidence, "confidence")}


# Kept per (figure, language, translator): a build's `tr` is made anew by each build (macros.py), so
# an edited locale file under `mkdocs serve` is never answered from an earlier build. Most figures
# appear on several pages and inside other figures' explanations; without these, a build spends
# about a second more (1,660 explanations in four languages, each explaining its terms again).
@functools.lru_cache(maxsize=8192)
def expression(fig_id: str, lang: str, tr) -> str | None:
    """The figure's formula with its inputs put in and its value ("80 layers × … = 327,680 B"), or None:
    the popover (at two depths) and the sources page show the same text."""
    reg = figures.registry()
    formula = reg[fig_id].expression
    return f"{formula.substituted(reg, lang, tr)} = {reg[fig_id].format(lang)}" if formula else None


@functools.lru_cache(maxsize=16384)
def explain(fig_id: str, lang: str, tr, accessed, depth: int = 1) -> dict:
    """What the popover shows for one figure (terms explained `depth` more levels). The dict is shared
    by every caller: read it, do not change it."""
    return _explain(fig_id, lang, tr, accessed, depth)


def basis(f) -> str:
    """What a figure without catalog inputs rests on, as a UI string: a format's definition or our scenario."""
    return N_("definition, no inputs") if f.definition else N_("scenario, our assumption")


def _explain(fig_id: str, lang: str, tr, accessed, depth: int) -> dict:
    reg = figures.registry()
    f = reg[fig_id]
    out = {"value": f.format(lang), "words": tr(f.words, "formula"), "inputs": list(f.inputs)}
    if not f.inputs:
        out["assumption"] = tr(basis(f))
    formula = f.expression
    if formula:
        out["expression"] = expression(fig_id, lang, tr)
        if depth > 0:
            # The terms carry the catalog entries (one level down), so the figure's own list would repeat them.
            out["terms"] = [{"id": t.figure, **explain(t.figure, lang, tr, accessed, depth - 1)}
                            for t in formula.terms if t.figure]
            out["inputs"] = []
    query = calculator_query(fig_id)
    if query and depth > 0:  # a term's row has no calculator link
        out["calculator"] = query
    return out


# The popover's own words, translated per page.
UI = {
    "formula": N_("How it is computed"),
    "inputs": N_("Where the inputs come from"),
    "source": N_("Source"),
    "accessed": "accessed",
    "confidence": N_("confidence"),     # inside a line, after a semicolon: "…; confidence: high"
    "calculator": N_("Open in the calculator with these inputs"),
    "row": N_("This figure on the sources page"),
    "explain": N_("Show how this number is computed"),
}


def _refs(fig: dict):
    """The catalog entries a figure's explanation names, its terms' included."""
    yield from fig["inputs"]
    for term in fig.get("terms", ()):
        yield from _refs(term)


def page_json(fig_ids, lang: str, tr, accessed, urls: dict) -> str:
    """The page's provenance data as a JSON <script> (inert until the popover script reads it).

    `urls`: the sources and calculators pages relative to this page.
    """
    ids = list(dict.fromkeys(fig_ids))
    cat = catalog.load()
    refs = dict.fromkeys(ref for i in ids for ref in _refs(explain(i, lang, tr, accessed)))
    head = {"urls": urls, "ui": {k: tr(v) for k, v in UI.items()}}
    figs = ",".join(f"{_json(i)}:{_explained_json(i, lang, tr, accessed)}" for i in ids)
    src = _json({ref: _entry(ref, cat, lang, tr, accessed) for ref in refs})
    text = f'{_json(head)[:-1]},"figs":{{{figs}}},"src":{src}}}'.replace("</", "<\\/")
    return f'<script type="application/json" id="fig-provenance">{text}</script>'


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=8192)
def _explained_json(fig_id: str, lang: str, tr, accessed) -> str:
    """A figure's explanation as JSON, encoded once per language and build."""
    return _json(explain(fig_id, lang, tr, accessed))
