"""HTML for the calculators: labelled inputs with their defaults and the pre-rendered result.

The result rows come from calculators.calcs, the same code the browser runs,
so the static page already shows the correct default answer (pre-render,
then enhance).
"""

from __future__ import annotations

from html import escape

from calculators import calcs, catalog, fmt
from calculators.calcs import N_

# Which inputs each calculator shows, in order: (field, label msgid, kind).
FIELDS = {
    "kv_cache": [("model", N_("Model"), "model"), ("kv_precision", N_("KV precision"), "precision"),
                 ("context", N_("Context length (tokens)"), "tokens"), ("batch", N_("Batch size"), "count"),
                 ("device", N_("Device"), "device")],
    "decode": [("model", N_("Model"), "model"), ("weight_precision", N_("Weight precision"), "precision"),
               ("device", N_("Device"), "device"), ("devices", N_("Number of devices"), "count"),
               ("batch", N_("Batch size"), "count"), ("context", N_("Context length (tokens)"), "tokens")],
    "fit": [("model", N_("Model"), "model"), ("context", N_("Context length (tokens)"), "tokens"),
            ("batch", N_("Batch size"), "count")],
    "latency": [("model", N_("Model"), "model"), ("device", N_("Device"), "device"), ("devices", N_("Number of devices"), "count"),
                ("prompt", N_("Prompt tokens"), "tokens"), ("output", N_("Output tokens"), "tokens"), ("steps", N_("Agent steps"), "count")],
}

TITLES = {"kv_cache": N_("KV cache calculator"), "decode": N_("Decode speed calculator"),
          "fit": N_("Fit calculator: how many devices hold the model"), "latency": N_("End-to-end latency and agent loop")}

PRECISIONS = ("bf16", "fp8", "mxfp4", "fp4")


def _options(kind: str, current: str, tr) -> str:
    cat = catalog.load()
    if kind == "model":
        items = [(k, m.name) for k, m in cat.models.items() if m.attention != "unmodelled"]
    elif kind == "device":
        items = [(k, d.name) for k, d in cat.devices.items()]
    else:
        items = [(p, p.upper()) for p in PRECISIONS]
    return "".join(f'<option value="{escape(k)}"{" selected" if k == current else ""}>{escape(label)}</option>' for k, label in items)


def _field(calc: str, name: str, label: str, kind: str, value, lang: str, tr) -> str:
    fid = f"{calc}-{name}"
    if kind in ("model", "device", "precision"):
        control = f'<select id="{fid}" name="{name}" disabled>{_options(kind, value, tr)}</select>'
    else:
        control = f'<input id="{fid}" name="{name}" type="text" inputmode="decimal" value="{escape(fmt.format_number(value, lang))}" disabled>'
    return f'<div class="calc-field"><label for="{fid}">{escape(tr(label))}</label>{control}</div>'


def render(name: str, lang: str, tr) -> str:
    if name not in calcs.CALCULATORS:
        raise KeyError(f"calculator(): unknown calculator {name!r}; known: {', '.join(calcs.CALCULATORS)}")
    defaults = calcs.DEFAULTS[name]
    fields = "".join(_field(name, f, label, kind, defaults[f], lang, tr) for f, label, kind in FIELDS[name])
    result = calcs.run(name, None, lang)
    rows = "".join(f"<tr><th scope=\"row\">{escape(label if label in _DEVICE_NAMES else tr(label))}</th><td>{escape(v)}</td></tr>"
                   for label, v in result.rows)
    verdict = f'<p class="calc-verdict">{escape(tr(result.verdict))}</p>' if result.verdict else ""
    return (f'<div class="calc" data-calc="{name}"><p class="calc-title"><strong>{escape(tr(TITLES[name]))}</strong></p>'
            f'<form class="calc-form" onsubmit="return false">{fields}</form>'
            f'<div class="calc-result" aria-live="polite"><table>{rows}</table>{verdict}</div></div>')


# The fit calculator's rows are device names: names, not UI strings.
_DEVICE_NAMES = {d.name for d in catalog.load().devices.values()}
