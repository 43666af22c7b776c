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

from calculators.data import catalog
from calculators.article import figures
from calculators.example import figures as example_figures
from calculators.example import provenance as core
from calculators.example.declare import default_case
from calculators.ui.messages import N_

# Figures a calculator on the calculators page reproduces, with the state that does it
# (query parameters of calculators/, as the calculators' shared URL state writes them). The running example's
# figures say it themselves, for the page's default example (calculators/example/provenance.py).
CALCULATOR_STATE: dict = {}


def calculator_query(fig_id: str) -> str | None:
    """The calculators page's query string that reproduces `fig_id`, or None."""
    if fig_id in example_figures.ids():
        page = "decode" if fig_id in example_figures.ids("decode") else "speed"
        return core.calculator_query(fig_id, default_case(catalog.load(), page))
    if fig_id not in CALCULATOR_STATE:
        return None
    name, state = CALCULATOR_STATE[fig_id]
    return urlencode({f"{name}.{k}": v for k, v in state.items()})


def _entry(ref: str, cat: catalog.Catalog, lang: str, tr, accessed) -> dict:
    return core.entry(ref, cat, lang, tr, accessed)


# Kept per (figure, language, translator): a build's `tr` is made anew by each build (macros.py), so
# an edited locale file under `mkdocs serve` is never answered from an earlier build. Most figures
# appear on several pages and inside other figures' explanations; without these, a build spends
# about a second more (1,660 explanations in four languages, each explaining its terms again).
@functools.lru_cache(maxsize=8192)
def expression(fig_id: str, lang: str, tr) -> str | None:
    """The figure's formula with its inputs put in and its value ("80 layers × … = 327,680 B"), or None:
    the popover (at two depths) and the sources page show the same text."""
    return core.expression(figures.registry(), fig_id, lang, tr)


@functools.lru_cache(maxsize=16384)
def explain(fig_id: str, lang: str, tr, accessed, depth: int = 1) -> dict:
    """What the popover shows for one figure (terms explained `depth` more levels). The dict is shared
    by every caller: read it, do not change it."""
    return core.explain(figures.registry(), fig_id, lang, tr, depth, calculator_query,
                        expr=lambda i: expression(i, lang, tr),
                        sub=lambda i: explain(i, lang, tr, accessed, depth - 1))


basis = core.basis


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


_refs = core.refs


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
