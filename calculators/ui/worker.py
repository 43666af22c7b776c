"""The calculators as a reader uses them: field texts in, HTML out, in the page's language.

Both sides call `evaluate`: the build for the defaults (sitebuild/widgets.py
pre-renders its output into the page) and the browser's worker after every
change (through `handle`, JSON in, JSON out; docs/assets/calc-worker.js). So the
static page and the browser print the same strings, and every check on what a
reader types lives here and in the calculators, once, in Python.

Nothing here may raise on a reader's input or print NaN: a bad field yields a
message for that field and no result (the page keeps the last good one).
"""

from __future__ import annotations

import json
import traceback

from ..data import byo, catalog
from ..example import strings
from . import config_messages
from .calculator import Calculator, Result
from .decode import Decode
from .example import Example, SpeedExample
from .fields import InputError
from .fit import Fit
from .kv_cache import KVCache
from .latency import Latency
from .messages import FAILED
from ..text.markup import escape
from ..text.message import Plural

CALCULATORS: dict[str, Calculator] = {c.name: c for c in (KVCache(), Decode(), Fit(), Latency())}
# The running example's controls (calculators/ui/example.py): calculators to the page and the worker, kept apart from
# the four a reader uses on the calculators page (whose results are tables and charts).
CONTROLS: dict[str, Calculator] = {c.name: c for c in (Example(), SpeedExample())}
ALL: dict[str, Calculator] = {**CALCULATORS, **CONTROLS}


def default_texts(name: str, locale: str) -> dict:
    """What each field shows by default, in the reader's locale."""
    return texts_from_state(name, {}, locale)


def texts_from_state(name: str, state: dict, locale: str) -> dict:
    """Field texts for a shared state (canonical numbers, choice keys); missing fields take their default."""
    calc = ALL[name]
    out = {}
    for f in calc.fields:
        if f.name in state:
            out[f.name] = f.from_state(state[f.name], locale)
        else:
            out[f.name] = f.shown(calc.defaults[f.name], locale)
    return out


def _read(calc: Calculator, texts: dict, locale: str, tr, cat) -> tuple:
    """Read every field the calculator shows; returns (values, errors by field). A field shown only for the
    custom model or for the reader's own config.json keeps its default while the other model is chosen."""
    values, errors = {}, {}
    chosen = str(texts.get("model", ""))
    for f in calc.fields:
        if (f.custom and chosen != "custom") or (f.byo and chosen != byo.BYO):
            values[f.name] = calc.defaults[f.name]
            continue
        try:
            values[f.name] = f.read(str(texts.get(f.name, "")), locale, tr, cat)
        except InputError as err:
            errors[f.name] = err.message
    return values, errors


def _value_html(row, tr) -> str:
    """A row's value cell: the text, or a link to its source where the row has one."""
    text = escape(row.text(tr))
    return f'<a href="{escape(row.href)}" rel="noopener">{text}</a>' if row.href else text


def result_html(result: Result, tr) -> str:
    """The result table and verdict, as the page shows them (names stay untranslated); nothing for a result without rows."""
    if not result.rows and not result.verdict:
        return ""
    rows = "".join(f'<tr><th scope="row">{escape(r.heading(tr))}</th><td>{_value_html(r, tr)}</td></tr>'
                   for r in result.rows)
    verdict = f'<p class="calc-verdict">{escape(tr(result.verdict))}</p>' if result.verdict else ""
    # A class of its own: the theme wraps class-less tables on load, which would make the page's
    # markup differ from what Python renders (and the first result redraw it).
    return f'<table class="calc-table"><tbody>{rows}</tbody></table>{verdict}'


def evaluate(name: str, texts: dict, locale: str, tr, instance: str | None = None, cat=None, page: dict | None = None) -> dict:
    """Field texts -> {"ok", "errors" {field: message}, "html", "chart", "state" {field: canonical}}, and "article"
    for the example control (the running example in place, for the page's `page` request).

    `state` holds the fields that differ from the defaults, in canonical form,
    for the URL. With any error, ok is false and there is no result.
    """
    cat = cat or catalog.load()
    calc = ALL[name]
    values, errors = _read(calc, texts, locale, tr, cat)
    if not errors:
        errors = calc.check(dict(calc.defaults, **values), locale, tr, cat)
    if errors:
        return {"ok": False, "errors": errors, "html": "", "chart": "", "state": {}}
    inputs = dict(calc.defaults, **values)
    result = calc.result(inputs, locale, cat)
    chart = calc.chart(inputs, locale, tr, f"{instance or name}-chart", cat)
    state = {f.name: f.state(values[f.name]) for f in calc.fields if values[f.name] != calc.defaults[f.name]}
    if values.get("model") == byo.BYO:
        # the link carries the fields the model reads, compactly; a config too long for a link is left out
        shared = byo.compact(values["config"])
        state.pop("config", None)
        if shared:
            state["config"] = shared
        m = byo.model(values["config"])
        summary = config_messages.summary_rows(m, inputs.get("kv_precision", "bf16"), locale, tr, shared is not None)
        own = {r.label for r in result.rows}     # a row the calculator shows itself (the fixed state) is not repeated
        result.rows[:0] = [r for r in summary if r.label not in own]
    out = {"ok": True, "errors": {}, "html": result_html(result, tr), "chart": chart, "state": state}
    article = calc.page_data(inputs, locale, tr, cat, page)
    if article is not None:
        out["article"] = article
    return out


# ------------------------------------------------------------ the browser's entry point

_STRINGS: dict = {}


def install_strings(strings_json: str) -> None:
    """The page's translations ({msgid: text}), sent once by the worker."""
    _STRINGS.clear()
    _STRINGS.update(json.loads(strings_json))


def _tr(msgid, context=None):
    """The page's translation of a msgid (in its msgctxt: the running example's table keys it so,
    calculators/example/strings.py), or the forms of a Plural (the English ones where the table has none)."""
    if isinstance(msgid, Plural):   # the running example's table keys a plural with its msgctxt, the calculators' by its msgid
        forms = _STRINGS.get(strings.key(msgid.one, msgid.context)) or _STRINGS.get(msgid.one)
        return tuple(forms) if isinstance(forms, list) and forms else (msgid.one, msgid.other)
    found = _STRINGS.get(strings.key(msgid, context))
    return found if isinstance(found, str) and found else msgid


def handle(request_json: str) -> str:
    """One request from the page: {"calc", "instance", "locale", "texts" or "state", and for the example control
    "page" (what the page holds of the running example: calculators/example/render.py)} -> JSON result.

    With "state" (from a shared URL) the answer also carries the field texts
    to show. Never raises: an unexpected error becomes a generic message, and
    its traceback goes to the browser console only ("debug").
    """
    try:
        req = json.loads(request_json)
        name, locale = req["calc"], req["locale"]
        texts = texts_from_state(name, req["state"], locale) if "state" in req else req["texts"]
        out = evaluate(name, texts, locale, _tr, req.get("instance"), page=req.get("page"))
        if "state" in req:
            out["texts"] = texts
    except Exception:  # noqa: BLE001 - the reader must see a message, never a traceback
        out = {"ok": False, "errors": {}, "html": "", "chart": "", "state": {},
               "failure": _tr(FAILED), "debug": traceback.format_exc()}
    return json.dumps(out, ensure_ascii=False)
