"""What the popover beside a figure shows, from any registry: the build's, or the reader's example's.

The build writes every figure's explanation into its page (sitebuild/provenance.py,
with its caches); after the reader changes the example, the browser replaces
the running example's explanations with these, computed from the example's
registry by the same functions: the printed value, the words, the formula
with its inputs' values put in, each term explained one level down, and the
catalog entries read (their source, link, access date and confidence; the
reader's own config.json is named as such). docs/assets/explain.js shows them.
"""

from __future__ import annotations

from urllib.parse import urlencode

from ..data import byo, catalog, serving
from ..text import dates
from ..text.marks import N_
from .figure import Figure

DEFINITION = N_("definition, no inputs")
SCENARIO = N_("scenario, our assumption")
OWN_CONFIG = N_("your config.json", "example")
OWN_CONFIG_KIND = N_("pasted on this page", "example")


def basis(f: Figure) -> str:
    """What a figure without catalog inputs rests on, as a UI string: a format's definition or our scenario."""
    return DEFINITION if f.definition else SCENARIO


def expression(reg: dict, fig_id: str, lang: str, tr) -> str | None:
    """The figure's formula with its inputs put in and its value ("80 layers × … = 327,680 B"), or None."""
    formula = reg[fig_id].expression
    return f"{formula.substituted(reg, lang, tr)} = {reg[fig_id].format(lang)}" if formula else None


def explain(reg: dict, fig_id: str, lang: str, tr, depth: int = 1, query=None, expr=None, sub=None) -> dict:
    """What the popover shows for one figure of `reg` (terms explained `depth` more levels).

    `query(fig_id)` gives the calculators page's query that reproduces the figure, or None; `expr` and
    `sub` let a caller cache the formula's text and the terms' explanations (the build does)."""
    f = reg[fig_id]
    out = {"value": f.format(lang), "words": tr(f.words, "formula"), "inputs": list(f.inputs)}
    if not f.inputs:
        out["assumption"] = tr(basis(f))
    formula = f.expression
    if formula:
        out["expression"] = (expr or (lambda i: expression(reg, i, lang, tr)))(fig_id)
        if depth > 0:
            # The terms carry the catalog entries (one level down), so the figure's own list would repeat them.
            explain_term = sub or (lambda i: explain(reg, i, lang, tr, depth - 1, query))
            out["terms"] = [{"id": t.figure, **explain_term(t.figure)} for t in formula.terms if t.figure]
            out["inputs"] = []
    q = query(fig_id) if query else None
    if q and depth > 0:  # a term's row has no calculator link
        out["calculator"] = q
    return out


def refs(fig: dict):
    """The catalog entries a figure's explanation names, its terms' included."""
    yield from fig["inputs"]
    for term in fig.get("terms", ()):
        yield from refs(term)


def record(ref: str, cat):
    """A figure input's record: catalog.toml's, else serving.toml's (efficiency, links, engines, published measurements)."""
    section, _, key = ref.partition(".")
    found = getattr(cat, section, {}).get(key)
    if found is None:
        found = getattr(serving.load(), section)[key]
    return found


def name(ref: str, rec, cat, tr) -> str:
    """What a reader calls a catalog entry: its name, what a datum is, who measured what; "" where the
    entry has none of these (the popover then names it by its source's title and kind)."""
    section = ref.partition(".")[0]
    worded = catalog.WORDED_NAMES.get(section) or serving.WORDED_NAMES.get(section)
    if worded:
        return tr(rec.name, worded)
    if section == "data":
        return tr(rec.what, "datum")
    if section == "measurements":
        return f"{cat.models[rec.model].name}: {tr(rec.who, 'measured-by')}"
    return getattr(rec, "name", None) or ""


# A document as the site names it: its title as published, with who published it and when, as each
# language writes that (the title itself is never translated; the date is the page's language). Where the
# kind of document follows, it joins the same parentheses: "Title (Infercom, 27 May 2026; article)".
_DESCRIBED = {(True, True): N_("{title} ({publisher}, {date})"), (True, False): N_("{title} ({publisher})"),
              (False, True): N_("{title} ({date})")}
_DESCRIBED_KIND = {(True, True): N_("{title} ({publisher}, {date}; {kind})"), (True, False): N_("{title} ({publisher}; {kind})"),
                   (False, True): N_("{title} ({date}; {kind})"), (False, False): N_("{title} ({kind})")}


def describe(src, lang: str, tr, with_kind: bool = False) -> str:
    """The document's title, publisher and publication date (and, `with_kind`, what kind of document it is),
    as plain text in the page's language. Where the source is this site itself (kind "this-site"), its words
    are ours and translated (msgctxt "site-source")."""
    kind = tr(src.kind, "source-kind") if with_kind else None
    if src.kind == "this-site":
        own = tr(src.source, "site-source")
        return tr(_DESCRIBED_KIND[(False, False)]).format(title=own, kind=kind) if kind else own
    key = (bool(src.publisher), bool(src.published))
    date = dates.published(src.published, lang) if src.published else ""
    if kind:
        return tr(_DESCRIBED_KIND[key]).format(title=src.source, publisher=src.publisher, date=date, kind=kind)
    if key not in _DESCRIBED:
        return src.source
    return tr(_DESCRIBED[key]).format(title=src.source, publisher=src.publisher, date=date)


def entry(ref: str, cat, lang: str, tr, accessed=None, own_model=None) -> dict:
    """A catalog entry as the popover names it (its source with the kind of document in one parenthesis);
    the reader's config.json (`own_model`) as theirs, without an access date or a confidence."""
    if ref == f"models.{byo.BYO}":
        title = tr(_DESCRIBED_KIND[(False, False)]).format(title=tr(OWN_CONFIG, "example"), kind=tr(OWN_CONFIG_KIND, "example"))
        return {"name": own_model.name if own_model else "", "title": title, "url": "", "accessed": "", "confidence": ""}
    rec = record(ref, cat)
    src = rec.src
    return {"name": name(ref, rec, cat, tr), "title": describe(src, lang, tr, with_kind=True), "url": src.url,
            "accessed": (accessed or (lambda s, l: dates.day(s.accessed, l)))(src, lang),
            "confidence": tr(src.confidence, "confidence")}


def calculator_query(fig_id: str, c) -> str | None:
    """The calculators page's query that reproduces a figure of the example `c`, or None: the KV cache at a context,
    a speed per request (the decode calculator with the example's model, devices, batch and context)."""
    ex = c.ex
    model = {"model": ex.model}
    if ex.own_config:
        shared = byo.compact(ex.config)
        if shared is None:
            return None
        model["config"] = shared
    if fig_id.startswith("kv.llama70b.total."):
        ctx = fig_id.rsplit(".", 1)[1]
        n = c.m.max_context if ctx == "131072" else int(ctx)
        return urlencode({f"kv_cache.{k}": v for k, v in dict(model, context=n, batch=1, kv_precision=ex.kv_precision).items()})
    decode = None
    if fig_id == "speed.per_request":
        decode = dict(batch=1, context=ex.context)
    elif fig_id.startswith("batch.llama70b.per_request."):
        decode = dict(batch=int(fig_id.rsplit(".", 1)[1]), context=ex.context)
    if decode is None:
        return None
    state = dict(model, devices=ex.devices, batch=decode["batch"], context=decode["context"], device=ex.device,
                 weight_precision=ex.weight_precision, kv_precision=ex.kv_precision)
    return urlencode({f"decode.{k}": v for k, v in state.items()})
