"""The four calculators: typed inputs in, formatted result rows out.

The build pre-renders each calculator's default result with these functions
and the browser calls the very same ones on Pyodide, so the default strings
in the static HTML equal what the browser prints (DESIGN invariant 2).

A result is a list of rows (label msgid, formatted value) plus an optional
SVG chart; labels are English msgids that the page translates. Inputs are
already parsed numbers here; fmt.parse_* turns what a reader types into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import catalog, fmt
from . import model as M
from . import scenarios as S

CUSTOM = "custom"


def N_(msgid: str) -> str:
    """Mark a UI string for extraction (tools/messages.py); it is translated where it is shown."""
    return msgid


@dataclass
class Result:
    rows: list = field(default_factory=list)       # [(label msgid, value text)]
    verdict: str = ""                                # a short msgid ("fits", "does not fit", "memory", ...)


DEFAULTS = {
    "kv_cache": {"model": "llama-3.1-70b", "kv_precision": "bf16", "context": 32 * 1024, "batch": 1,
                 "device": "h100-sxm", "layers": 80, "kv_heads": 8, "head_dim": 128},
    "decode": {"model": "llama-3.1-70b", "weight_precision": "bf16", "device": "h100-sxm", "devices": 8,
               "batch": 1, "context": 8 * 1024, "kv_precision": "bf16"},
    "fit": {"model": "deepseek-v3", "context": 32 * 1024, "batch": 8, "kv_precision": "bf16"},
    "latency": {"model": "llama-3.1-70b", "device": "h100-sxm", "devices": S.SPEED_DEVICES, "prompt": S.SPEED_PROMPT,
                "output": S.SPEED_OUTPUT, "steps": S.AGENT_STEPS},
}


def _model(inputs: dict, cat: catalog.Catalog) -> catalog.Model:
    """The catalog model, or a custom full-attention model from the layer fields."""
    key = inputs["model"]
    if key != CUSTOM:
        return cat.models[key]
    base = cat.models["llama-3.1-70b"]
    return replace(base, key=CUSTOM, name="custom", attention="gqa", layers=int(inputs["layers"]),
                   kv_heads=int(inputs["kv_heads"]), head_dim=int(inputs["head_dim"]))


def _q(value, kind, locale, **kw):
    return fmt.format_quantity(value, kind, locale, **kw)


def kv_cache(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m = _model(inputs, cat)
    d = cat.devices[inputs["device"]]
    ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    total = M.kv_bytes(m, ctx, batch, prec)
    fits = total <= d.serving.bytes
    rows = [
        (N_("KV cache per token of context"), _q(M.kv_bytes_per_token(m, prec, context=ctx), "bytes", locale)),
        (N_("KV cache in total"), _q(total, "bytes", locale)),
        (N_("Memory of one device"), _q(d.serving.bytes, "bytes", locale)),
        (N_("Share of that memory"), fmt.format_percent(total / d.serving.bytes, locale, decimals=0)),
    ]
    return Result(rows, N_("fits on one device") if fits else N_("does not fit on one device"))


def decode(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m, d = _model(inputs, cat), cat.devices[inputs["device"]]
    prec = inputs["weight_precision"]
    step = M.decode_step(m, d, devices=int(inputs["devices"]), batch=int(inputs["batch"]),
                         context=int(inputs["context"]), kv_precision=inputs["kv_precision"],
                         weight_precision=None if prec == "catalog" else prec,
                         compute_precision="fp8" if prec in ("fp8", "fp4", "mxfp4") and "fp8" in d.peak_flops else "bf16")
    unknown = "–"
    rows = [
        (N_("Reading weights"), _q(step.weights_s, "seconds", locale)),
        (N_("Reading the KV cache"), _q(step.kv_s, "seconds", locale)),
        (N_("Arithmetic at peak"), _q(step.compute_s, "seconds", locale) if step.compute_s is not None else unknown),
        (N_("Time per step"), _q(step.time_s, "seconds", locale)),
        (N_("Speed per request"), _q(step.tokens_per_s, "tok_per_s", locale)),
        (N_("Throughput of the batch"), _q(step.aggregate_tokens_per_s, "tok_per_s", locale)),
    ]
    return Result(rows, N_("memory-bound") if step.bound == "memory" else N_("compute-bound"))


def fit(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m = _model(inputs, cat)
    ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    rows = [(N_("Weights"), _q(M.weight_bytes_stored(m), "bytes", locale)),
            (N_("KV cache"), _q(M.kv_bytes(m, ctx, batch, prec), "bytes", locale))]
    for d in cat.devices.values():
        try:
            n = M.min_devices(m, d, ctx, batch, prec, limit=10_000)
            rows.append((d.name, fmt.format_number(n, locale)))
        except M.ModelError:
            rows.append((d.name, "–"))
    return Result(rows, "")


def latency(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m, d = _model(inputs, cat), cat.devices[inputs["device"]]
    n, prompt, out, steps = int(inputs["devices"]), int(inputs["prompt"]), int(inputs["output"]), int(inputs["steps"])
    ttft = M.prefill_time(m, d, prompt, devices=n)
    speed = M.decode_step(m, d, devices=n, context=prompt + out // 2).tokens_per_s
    e2e = M.end_to_end_latency(ttft, out, speed)
    rows = [
        (N_("Time to first token"), _q(ttft, "seconds", locale)),
        (N_("Speed per request"), _q(speed, "tok_per_s", locale)),
        (N_("End-to-end latency"), _q(e2e, "seconds", locale)),
        (N_("Agent loop"), _q(M.agent_loop_time(steps, ttft, out, speed), "seconds", locale)),
    ]
    return Result(rows, "")


CALCULATORS = {"kv_cache": kv_cache, "decode": decode, "fit": fit, "latency": latency}


def run(name: str, inputs: dict | None, locale: str) -> Result:
    """Run a calculator on its defaults overlaid with `inputs`."""
    merged = dict(DEFAULTS[name])
    merged.update(inputs or {})
    return CALCULATORS[name](merged, locale)
