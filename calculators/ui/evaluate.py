"""The calculators as a reader uses them: field texts in, HTML out, in the page's language.

Both sides call `evaluate`: the build for the defaults (sitebuild/widgets.py
pre-renders its output into the page) and the browser's worker after every
change (through `handle`, JSON in, JSON out). So the static page and the
browser print the same strings, and every check on what a reader types lives
here, once, in Python: parse per locale (fmt.parse_*), reject what makes no
sense with a message in the reader's language, compute, render.

Nothing here may raise on a reader's input or print NaN: a bad field yields a
message for that field and no result (the page keeps the last good one).
"""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..arch.layers import MoEMLP
from ..data import byo
from . import config_messages as byo_ui
from . import charts as calc_charts
from . import calcs
from ..data import catalog
from ..text import fmt
from ..perf import deployment as D
from ..perf import roofline as M
from .calcs import N_
from ..text.markup import escape

MAX_TOKENS = 10_000_000      # context of a custom model; catalog models stop at their own window
MAX_COUNT = 100_000          # devices, batch
MAX_STATE_TEXT = 64          # longest value taken from a shared URL


@dataclass(frozen=True)
class Field:
    name: str
    label: str            # msgid
    kind: str             # a choice kind (CHOICES) or a number kind (tokens, count, seconds)
    hi: float = 0         # largest accepted number
    custom: bool = False  # read and shown only for the custom model
    byo: bool = False     # read and shown only for the reader's own config.json


NUMBER_KINDS = ("tokens", "count", "seconds", "percent", "microseconds", "count0", "share")

_MODEL = Field("model", N_("Model"), "model")
_CONFIG = Field("config", byo_ui.FIELD_LABEL, "config", byo=True)
_DEVICE = Field("device", N_("Device"), "device")
_KV_PREC = Field("kv_precision", N_("KV precision"), "kv_precision")
_W_PREC = Field("weight_precision", N_("Weight precision"), "weight_precision")
_CONTEXT = Field("context", N_("Context length (tokens)"), "tokens", MAX_TOKENS)
_BATCH = Field("batch", N_("Batch size"), "count", MAX_COUNT)
_DEVICES = Field("devices", N_("Number of devices"), "count", MAX_COUNT)
# the deployment: the devices split into pipeline stages (tensor parallel within a stage), experts whole or split
_PP = Field("pp", N_("Pipeline stages"), "count", 10_000)
_EP = Field("ep", N_("Expert parallelism (mixture of experts only)"), "ep")
# the assumptions behind "expected": a share of peak bandwidth (0 refused, at most 100 %)
# and the latency of each message between devices (not negative)
_EFFICIENCY = Field("efficiency", N_("Achieved share of memory bandwidth (%)"), "percent", 100)
_LATENCY = Field("latency_us", N_("Latency per all-reduce (µs)"), "microseconds", 10_000)
# speculative decoding: k tokens proposed per step (0: off), each accepted with probability a (at most 100 %)
_SPEC_K = Field("spec_k", N_("Speculative decoding: tokens proposed per step (0 = off)"), "count0", 16)
_SPEC_A = Field("spec_acceptance", N_("Acceptance per proposed token (%)"), "share", 100)

FIELDS = {
    "kv_cache": (Field("model", N_("Model"), "model_custom"), _CONFIG,
                 Field("layers", N_("Layers"), "count", 1000, custom=True),
                 Field("kv_heads", N_("KV heads per layer"), "count", 1024, custom=True),
                 Field("head_dim", N_("Head dimension"), "count", 4096, custom=True),
                 _KV_PREC, _CONTEXT, _BATCH, _DEVICE),
    "decode": (_MODEL, _CONFIG, _W_PREC, _KV_PREC, _DEVICE, _DEVICES, _PP, _EP, _BATCH, _CONTEXT,
               _EFFICIENCY, _LATENCY, _SPEC_K, _SPEC_A),
    "fit": (_MODEL, _CONFIG, _W_PREC, _KV_PREC, _CONTEXT, _BATCH),
    "latency": (_MODEL, _CONFIG, _KV_PREC, _DEVICE, _DEVICES, _PP, _EP, Field("prompt", N_("Prompt tokens"), "tokens", MAX_TOKENS),
                Field("output", N_("Output tokens"), "tokens", MAX_TOKENS),
                Field("steps", N_("Agent steps"), "count", 10_000),
                Field("tool_s", N_("Tool time per step (s)"), "seconds", 86_400), _EFFICIENCY, _LATENCY, _SPEC_K, _SPEC_A),
}

TITLES = {"kv_cache": N_("KV cache calculator"), "decode": N_("Decode speed calculator"),
          "fit": N_("Fit calculator: how many devices hold the model"), "latency": N_("End-to-end latency and agent loop")}

AS_RELEASED_LABEL = N_("as released")

# Messages next to a field. {max} and {example} are filled in the reader's locale.
PARSE_MESSAGES = {
    "empty": N_("Enter a number."),
    "not_a_number": N_("Enter a number, for example {example}."),
    "negative": N_("Enter a number that is not negative."),
    "zero": N_("Enter a number greater than zero."),
    "too_large": N_("Enter at most {max}."),
    "not_integer": N_("Enter a whole number."),
    "bad_grouping": N_("Check the thousands separators: digits come in groups of three."),
}
M_CHOICE = N_("Choose one of the listed options.")
M_CONTEXT = N_("{model} reads at most {max} tokens of context.")
M_PROMPT_OUTPUT = N_("Prompt and output together exceed the {max} tokens {model} can read.")
M_DEVICES = N_("{model} does not fit on {n} × {device} with this cache: it needs at least {need}.")
M_NEVER_FITS = N_("{model} does not fit on any number of {device} split by tensor parallelism alone with this cache: the part of the KV cache each device must hold is too large. The fit calculator shows splits by layer and by request.")
M_FAILED = N_("These inputs cannot be computed.")
M_PP_LAYERS = N_("{model} has {layers} layers, so it splits into at most {layers} pipeline stages.")
M_PP_DEVICES = N_("{n} devices do not split into {pp} equal pipeline stages: the number of devices must be a multiple of the number of stages.")
M_EP_DENSE = N_("{model} has no routed experts, so there is nothing to place by expert parallelism.")
M_LAYOUT_NO_FIT = N_("{model} does not fit on {n} × {device} as {layout} with this cache: the fullest device would hold {held} of {capacity}.")
MESSAGES = tuple(PARSE_MESSAGES.values()) + (M_CHOICE, M_CONTEXT, M_PROMPT_OUTPUT, M_DEVICES, M_NEVER_FITS, M_FAILED,
                                             M_PP_LAYERS, M_PP_DEVICES, M_EP_DENSE, M_LAYOUT_NO_FIT)

# Texts the page script shows before Python runs (so they travel in the page's JSON, not through Python).
STATUS = {
    "runtime": N_("Loading the calculator: Python runtime…"),
    "package": N_("Loading the calculator: model code…"),
    "first": N_("Loading the calculator: first result…"),
}
READ_ONLY = N_("Read-only: the interactive calculator could not start here, so it shows the result for the default inputs.")
STALE = N_("Not updated: an input is invalid, so the result below is for the last valid input.")

_EXAMPLES = {"tokens": "32K", "count": 8, "seconds": 1.5, "percent": 85, "microseconds": 5, "count0": 2, "share": 80}


# ------------------------------------------------------------ choices


def options(f: Field, cat: catalog.Catalog, tr) -> list:
    """(value, shown label) of a choice field; model and device names are names, not UI strings."""
    if f.kind in ("model", "model_custom"):
        items = [(k, cat.models[k].name) for k in calcs.model_keys(cat)] + [(byo.BYO, tr(byo_ui.LABEL))]
        return items + [(calcs.CUSTOM, tr(calcs.CUSTOM_LABEL))] if f.kind == "model_custom" else items
    if f.kind == "device":
        return [(k, d.name) for k, d in cat.devices.items()]
    if f.kind == "kv_precision":
        return [(p, p.upper()) for p in calcs.KV_PRECISIONS]
    if f.kind == "ep":
        return [(k, tr(calcs.EP_LABELS[k])) for k in calcs.EP_CHOICES]
    return [(p, tr(AS_RELEASED_LABEL) if p == calcs.AS_RELEASED else p.upper()) for p in calcs.WEIGHT_PRECISIONS]


def _choice_keys(f: Field, cat: catalog.Catalog) -> list:
    return [k for k, _ in options(f, cat, lambda m: m)]


# ------------------------------------------------------------ numbers as text


def display(value, locale: str) -> str:
    """A number as an input field shows it in `locale` ("32.768" de, "0,5" it), without losing digits."""
    d = value if isinstance(value, Decimal) else Decimal(repr(value) if isinstance(value, float) else value)
    if d == d.to_integral_value():
        return fmt.format_number(int(d), locale)
    return fmt.format_number(d, locale, decimals=-d.normalize().as_tuple().exponent)


def canonical(value) -> str:
    """The language-independent text of a number for the URL ("32768", "0.5")."""
    if isinstance(value, int):
        return str(value)
    d = Decimal(repr(value)).normalize()
    return f"{d:f}" if d != d.to_integral_value() else str(int(d))


def _from_canonical(text: str, locale: str) -> str:
    """A URL value as the field shows it; anything but a plain finite number is shown as typed (and then rejected)."""
    text = str(text)[:MAX_STATE_TEXT]
    try:
        d = Decimal(text)
    except (InvalidOperation, ValueError):
        return text
    if not d.is_finite() or abs(d) >= Decimal(10) ** 15 or d.as_tuple().exponent < -12:
        return text
    return display(d, locale)


def default_texts(name: str, locale: str) -> dict:
    """What each field shows by default, in the reader's locale."""
    return texts_from_state(name, {}, locale)


def texts_from_state(name: str, state: dict, locale: str) -> dict:
    """Field texts for a shared state (canonical numbers, choice keys); missing fields take their default."""
    out = {}
    for f in FIELDS[name]:
        if f.name in state:
            value = str(state[f.name])[:byo.MAX_SHARE_CHARS if f.kind == "config" else MAX_STATE_TEXT]
            out[f.name] = _from_canonical(value, locale) if f.kind in NUMBER_KINDS else value
        else:
            default = calcs.DEFAULTS[name][f.name]
            out[f.name] = display(default, locale) if f.kind in NUMBER_KINDS else default
    return out


def _parse(f: Field, text: str, locale: str):
    if f.kind == "tokens":
        return fmt.parse_tokens(text, locale, max_value=f.hi)
    if f.kind == "count":
        return fmt.parse_number(text, locale, integer=True, allow_zero=False, max_value=f.hi)
    if f.kind == "count0":
        return fmt.parse_number(text, locale, integer=True, max_value=f.hi)
    if f.kind == "share":
        return fmt.parse_number(text, locale, max_value=f.hi, suffixes=None)
    if f.kind == "percent":   # an efficiency of 0 would make every step last forever
        return fmt.parse_number(text, locale, allow_zero=False, max_value=f.hi, suffixes=None)
    return fmt.parse_number(text, locale, max_value=f.hi, suffixes=None)


def _parse_message(f: Field, code: str, locale: str, tr) -> str:
    example = _EXAMPLES[f.kind]
    return tr(PARSE_MESSAGES[code]).format(
        max=display(int(f.hi), locale),
        example=example if isinstance(example, str) else display(example, locale))


# ------------------------------------------------------------ evaluation


def _read(name: str, texts: dict, locale: str, tr, cat) -> tuple:
    """Parse every field the calculator reads; returns (values, errors by field)."""
    values, errors = {}, {}
    custom = str(texts.get("model", "")) == calcs.CUSTOM
    own = str(texts.get("model", "")) == byo.BYO
    for f in FIELDS[name]:
        if (f.custom and not custom) or (f.byo and not own):
            values[f.name] = calcs.DEFAULTS[name][f.name]
            continue
        text = str(texts.get(f.name, ""))
        if f.kind == "config":
            values[f.name] = text   # read by _byo_errors, once the model choice is known to be valid
        elif f.kind in NUMBER_KINDS:
            try:
                values[f.name] = _parse(f, text, locale)
            except fmt.ParseError as exc:
                errors[f.name] = _parse_message(f, exc.code, locale, tr)
        elif text in _choice_keys(f, cat):
            values[f.name] = text
        else:
            errors[f.name] = tr(M_CHOICE)
    return values, errors


def _byo_errors(v: dict, locale: str, tr) -> dict:
    """The reader's config.json, when chosen: a message in the reader's language for whatever is wrong with it."""
    if v.get("model") != byo.BYO:
        return {}
    try:
        byo.model(v["config"])
    except byo.ByoError as e:
        return {"config": byo_ui.message(e, locale, tr)}
    return {}


def _context_errors(name: str, v: dict, locale: str, tr, cat) -> dict:
    """Inputs that parse but that the chosen model cannot take."""
    if v.get("model", calcs.CUSTOM) == calcs.CUSTOM:
        return {}
    m = calcs.model(dict(calcs.DEFAULTS[name], **v), cat)
    limit = dict(model=m.name, max=fmt.format_number(m.max_context, locale))
    if name == "latency":
        if v["prompt"] > m.max_context:
            return {"prompt": tr(M_CONTEXT).format(**limit)}
        if v["prompt"] + v["output"] > m.max_context:
            return {"output": tr(M_PROMPT_OUTPUT).format(**limit)}
        return {}
    if v["context"] > m.max_context:
        return {"context": tr(M_CONTEXT).format(**limit)}
    return {}


def _deploy_errors(name: str, v: dict, locale: str, tr, cat) -> dict:
    """A layout the model cannot take: more stages than layers, a device count the stages do not divide,
    expert parallelism for a model without experts."""
    if "pp" not in v:
        return {}
    m = calcs.model(dict(calcs.DEFAULTS[name], **v), cat)
    n, pp, layers = int(v["devices"]), int(v["pp"]), len(m.arch.layers)
    num = lambda x: fmt.format_number(x, locale)  # noqa: E731
    if pp > layers:
        return {"pp": tr(M_PP_LAYERS).format(model=m.name, layers=num(layers))}
    if n % pp:
        return {"pp": tr(M_PP_DEVICES).format(n=num(n), pp=num(pp))}
    if v.get("ep") == calcs.EP_ON and not any(isinstance(l.mlp, MoEMLP) for l in m.arch.layers):
        return {"ep": tr(M_EP_DENSE).format(model=m.name)}
    return {}


def _layout_errors(inputs: dict, m, d, locale: str, tr) -> dict:
    """With pipeline stages: does the fullest device of the layout hold its layers' weights and cache?"""
    dep = calcs.deployment(inputs)
    shape = D.shape_from_catalog(m, inputs["kv_precision"], calcs.weight_precision(inputs))
    held = dep.held_per_device(shape, int(inputs["context"]), int(inputs["batch"]))
    if held <= d.serving.bytes:
        return {}
    q = lambda x: fmt.format_quantity(x, "bytes", locale)  # noqa: E731
    return {"pp": tr(M_LAYOUT_NO_FIT).format(model=m.name, n=fmt.format_number(dep.devices, locale), device=d.name,
                                             layout=dep.label(), held=q(held), capacity=q(d.serving.bytes))}


def _fit_errors(name: str, v: dict, locale: str, tr, cat) -> dict:
    """The decode and latency calculators need the model and its cache on the devices given."""
    if name not in ("decode", "latency"):
        return {}
    inputs = dict(calcs.DEFAULTS[name], **v)
    if name == "latency":
        inputs.update(context=v["prompt"] + v["output"], batch=1)
    m, d, n = calcs.model(inputs, cat), cat.devices[inputs["device"]], int(inputs["devices"])
    inputs.setdefault("kv_precision", "bf16")
    if int(inputs.get("pp", 1)) > 1:   # split by layer too: the deployment model places the layers
        return _layout_errors(inputs, m, d, locale, tr)
    weights, ctx, batch = calcs.weight_precision(inputs), int(inputs["context"]), int(inputs["batch"])
    if M.fits(m, d, n, ctx, batch, inputs["kv_precision"], weights):
        return {}
    need = calcs.min_devices(inputs, cat, d)
    names = dict(model=m.name, device=d.name)
    if need is None:
        return {"devices": tr(M_NEVER_FITS).format(**names)}
    return {"devices": tr(M_DEVICES).format(n=fmt.format_number(n, locale), need=fmt.format_number(need, locale), **names)}


def result_html(result: calcs.Result, tr) -> str:
    """The result table and verdict, as the page shows them (names stay untranslated)."""
    rows = "".join(f'<tr><th scope="row">{escape(r.label if r.name else tr(r.label))}</th><td>{escape(r.text(tr))}</td></tr>'
                   for r in result.rows)
    verdict = f'<p class="calc-verdict">{escape(tr(result.verdict))}</p>' if result.verdict else ""
    # A class of its own: the theme wraps class-less tables on load, which would make the page's
    # markup differ from what Python renders (and the first result redraw it).
    return f'<table class="calc-table"><tbody>{rows}</tbody></table>{verdict}'


def evaluate(name: str, texts: dict, locale: str, tr, instance: str | None = None) -> dict:
    """Field texts -> {"ok", "errors" {field: message}, "html", "chart", "state" {field: canonical}}.

    `state` holds the fields that differ from the defaults, in canonical form,
    for the URL. With any error, ok is false and there is no result.
    """
    cat = catalog.load()
    values, errors = _read(name, texts, locale, tr, cat)
    if not errors:
        errors = (_byo_errors(values, locale, tr) or _context_errors(name, values, locale, tr, cat)
                  or _deploy_errors(name, values, locale, tr, cat) or _fit_errors(name, values, locale, tr, cat))
    if errors:
        return {"ok": False, "errors": errors, "html": "", "chart": "", "state": {}}
    inputs = dict(calcs.DEFAULTS[name], **values)
    result = calcs.CALCULATORS[name](inputs, locale, cat)
    chart = calc_charts.CHARTS[name](inputs, locale, tr, f"{instance or name}-chart", cat)
    defaults = calcs.DEFAULTS[name]
    state = {k: (canonical(v) if isinstance(v, (int, float)) else v) for k, v in values.items() if v != defaults[k]}
    if values.get("model") == byo.BYO:
        # the link carries the fields the model reads, compactly; a config too long for a link is left out
        shared = byo.compact(values["config"])
        state.pop("config", None)
        if shared:
            state["config"] = shared
        m = calcs.model(inputs, cat)
        result.rows[:0] = byo_ui.summary_rows(m, inputs.get("kv_precision", "bf16"), locale, tr, shared is not None)
    return {"ok": True, "errors": {}, "html": result_html(result, tr), "chart": chart, "state": state}


# ------------------------------------------------------------ the browser's entry point

_STRINGS: dict = {}


def browser_strings() -> list:
    """Every msgid the browser may need Python to translate: result labels, verdicts, chart texts, messages."""
    labels = {r.label for name in calcs.CALCULATORS for r in calcs.run(name, None, "en").rows if not r.name}
    return sorted(labels | set(calcs.MEMORY_ONLY_ROWS) | {calcs.EXPERT_SHARE} | set(byo_ui.STRINGS) | set(calcs.VERDICTS) | set(calc_charts.STRINGS) | set(calcs.FIT_STRINGS) | set(calcs.CEILING_ROWS) | set(calcs.EXPECTED_ROWS) | {calcs.SPEC_TOKENS, calcs.SPEC_SPEED} | set(MESSAGES))


def install_strings(strings_json: str) -> None:
    """The page's translations ({msgid: text}), sent once by the worker."""
    _STRINGS.clear()
    _STRINGS.update(json.loads(strings_json))


def _tr(msgid: str) -> str:
    return _STRINGS.get(msgid) or msgid


def handle(request_json: str) -> str:
    """One request from the page: {"calc", "instance", "locale", and "texts" or "state"} -> JSON result.

    With "state" (from a shared URL) the answer also carries the field texts
    to show. Never raises: an unexpected error becomes a generic message, and
    its traceback goes to the browser console only ("debug").
    """
    try:
        req = json.loads(request_json)
        name, locale = req["calc"], req["locale"]
        texts = texts_from_state(name, req["state"], locale) if "state" in req else req["texts"]
        out = evaluate(name, texts, locale, _tr, req.get("instance"))
        if "state" in req:
            out["texts"] = texts
    except Exception:  # noqa: BLE001 - the reader must see a message, never a traceback
        out = {"ok": False, "errors": {}, "html": "", "chart": "", "state": {},
               "failure": _tr(M_FAILED), "debug": traceback.format_exc()}
    return json.dumps(out, ensure_ascii=False)


# ------------------------------------------------------------ parity


def snapshot() -> dict:
    """Calculator outputs for the parity test: defaults, a changed input and a rejected one, per locale."""
    changes = {"kv_cache": {"context": "128K", "model": "gpt-oss-120b"}, "decode": {"batch": "64", "devices": "4"},
               "fit": {"context": "8K", "batch": "1"}, "latency": {"tool_s": "2.5", "steps": "5"}}
    ident = lambda m: m  # noqa: E731
    own = json.dumps(catalog.read_config("gpt-oss-20b.json"))   # a reader's pasted config.json
    out = {}
    for name in FIELDS:
        for loc in fmt.LOCALES:
            base = default_texts(name, loc)
            for case, texts in (("default", base), ("changed", dict(base, **changes[name])),
                                ("rejected", dict(base, batch="-1") if "batch" in base else dict(base, steps="0")),
                                ("config", dict(base, model=byo.BYO, config=own)),
                                ("bad config", dict(base, model=byo.BYO, config=own[:-40]))):
                res = evaluate(name, texts, loc, ident)
                out[f"calc:{name}:{loc}:{case}"] = json.dumps(res, ensure_ascii=False, sort_keys=True)
    return out
