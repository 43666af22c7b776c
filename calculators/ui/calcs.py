"""The four calculators: typed inputs in, formatted result rows out.

The build pre-renders each calculator's default result with these functions
and the browser calls the very same ones on Pyodide, so the default strings
in the static HTML equal what the browser prints (DESIGN invariant 2).

A result is a list of rows (label, formatted value) plus an optional verdict.
Labels are English msgids that the page translates, except rows that name a
device (the fit calculator), which are names and stay as they are. Inputs
here are already parsed and checked; calculators/ui.py turns what a reader
types into them and says what is wrong with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..arch import precision as P
from ..data import byo
from ..data import catalog
from ..text import fmt
from ..data import serving
from ..perf import comm as K
from ..perf import deployment as D
from ..perf import fit as F
from ..perf import roofline as M
from ..data import scenarios as S
from ..perf import speculative as SP

CUSTOM = "custom"          # model key of the KV calculator's hand-entered model
AS_RELEASED = "catalog"    # weight precision: each weight group as the catalog stores it

KV_PRECISIONS = ("bf16", "fp8", "mxfp4", "fp4")
WEIGHT_PRECISIONS = (AS_RELEASED, "bf16", "fp8", "mxfp4", "fp4")
UNKNOWN = "\u2013"         # shown where the model has no answer (no published peak, does not fit)
FIT_LIMIT = 10_000         # the fit calculator stops counting devices here


def default_acceptance_percent() -> float:
    """Per-token acceptance offered with speculative decoding: the lower end of the published
    DeepSeek V3 MTP range (serving.toml), the only family with a published figure; off (k = 0) by default."""
    return round(serving.load().acceptance["deepseek-v3-mtp"].low * 100, 1)


def speculation(inputs: dict, m: catalog.Model):
    """Speculative decoding as the reader sets it, or None (k = 0). The draft is costed as one
    MTP-style module of one layer per proposal, the verify step as a plain step (memory-bound at batch 1)."""
    k = int(inputs.get("spec_k", 0))
    if k == 0:
        return None
    layers = m.arch.layers if m.arch is not None else ()
    return SP.Speculative(SP.MTPModules(1, max(len(layers), 1)), k, float(inputs["spec_acceptance"]) / 100)


def default_latency_us() -> float:
    """The default per-message latency, in µs: the published small all-reduce measurement for the link
    of the default device's platform (serving.toml; NVLink 4 for H100), 0 where none is published."""
    lat = catalog.load().devices[DEFAULT_DEVICE].link.latency_s
    return round((lat or 0.0) * 1e6, 1)


# Expert parallelism: off (each expert split over the stage's devices) or on (experts placed whole).
EP_OFF, EP_ON = "off", "on"
EP_CHOICES = (EP_OFF, EP_ON)
DEFAULT_DEVICE = "h100-sxm"


def default_efficiency_percent() -> float:
    """The decode calculator's default achieved share of bandwidth: serving.toml's published
    decode-kernel measurement (FlashMLA on H800), in percent, to the 0.1 % a reader can type."""
    from ..perf.measured import default_efficiency
    return round(default_efficiency(serving.load()) * 100, 1)


def N_(msgid: str) -> str:
    """Mark a UI string for extraction (tools/messages.py); it is translated where it is shown."""
    return msgid


CUSTOM_LABEL = N_("custom model")
EP_LABELS = {EP_OFF: N_("off"), EP_ON: N_("on")}


@dataclass(frozen=True)
class Row:
    label: str          # msgid, or a device name when `name` is true
    value: str          # the text shown; with `fill`, a msgid template filled in the reader's language
    name: bool = False
    fill: tuple = ()    # (key, text, translate) for a template value; text is translated when `translate`

    def text(self, tr) -> str:
        """The value as the page shows it: a template value translated and filled, any other as it is."""
        if not self.fill:
            return self.value
        return tr(self.value).format(**{k: tr(t) if translate else t for k, t, translate in self.fill})


@dataclass
class Result:
    rows: list = field(default_factory=list)       # [Row]
    verdict: str = ""                                # a short msgid ("fits on one device", "memory-bound", ...)


DEFAULTS = {
    "kv_cache": {"model": "llama-3.1-70b", "kv_precision": "bf16", "context": 32 * 1024, "batch": 1,
                 "device": "h100-sxm", "layers": 80, "kv_heads": 8, "head_dim": 128, "config": ""},
    "decode": {"model": "llama-3.1-70b", "weight_precision": AS_RELEASED, "device": DEFAULT_DEVICE, "devices": 8,
               "pp": 1, "ep": EP_OFF, "batch": 1, "context": 8 * 1024, "kv_precision": "bf16", "config": "",
               # published measurements (serving.toml): FlashMLA's share of bandwidth, a small NVLink all-reduce
               "efficiency": default_efficiency_percent(), "latency_us": default_latency_us(),
               "spec_k": 0, "spec_acceptance": default_acceptance_percent()},
    "fit": {"model": "deepseek-v3", "weight_precision": AS_RELEASED, "kv_precision": "bf16",
            "context": 32 * 1024, "batch": 8, "config": ""},
    "latency": {"model": "llama-3.1-70b", "config": "", "device": DEFAULT_DEVICE, "devices": S.SPEED_DEVICES, "pp": 1,
                "ep": EP_OFF, "prompt": S.SPEED_PROMPT, "output": S.SPEED_OUTPUT, "steps": S.AGENT_STEPS, "tool_s": 0.0,
                "kv_precision": "bf16", "efficiency": default_efficiency_percent(), "latency_us": default_latency_us(),
                "spec_k": 0, "spec_acceptance": default_acceptance_percent()},
}

# Verdicts, named once so that the browser's string table can list them.
V_FITS, V_NO_FIT = N_("the KV cache alone fits on one device"), N_("the KV cache alone does not fit on one device")
V_MEMORY, V_COMPUTE = N_("memory-bound"), N_("compute-bound")
V_MEMORY_NO_PEAK = N_("memory-bound (no published compute peak to compare)")
VERDICTS = (V_FITS, V_NO_FIT, V_MEMORY, V_COMPUTE, V_MEMORY_NO_PEAK)


def model_keys(cat: catalog.Catalog) -> list:
    """Catalog models whose KV cache the model can compute (the calculators' choices)."""
    return [k for k, m in cat.models.items() if m.arch is not None]


def model(inputs: dict, cat: catalog.Catalog) -> catalog.Model:
    """The catalog model, the reader's own config.json, or a custom full-attention model from the layer fields."""
    key = inputs["model"]
    if key == byo.BYO:
        return byo.model(inputs["config"])
    if key != CUSTOM:
        return cat.models[key]
    base = cat.models["llama-3.1-70b"].variant(num_hidden_layers=int(inputs["layers"]),
                                               num_key_value_heads=int(inputs["kv_heads"]),
                                               head_dim=int(inputs["head_dim"]))
    return replace(base, key=CUSTOM, name="custom")


def weight_precision(inputs: dict) -> str | None:
    """None means: every weight group at the precision the catalog stores."""
    prec = inputs.get("weight_precision", AS_RELEASED)
    return None if prec == AS_RELEASED else prec


def compute_precision(m: catalog.Model, weights: str | None, device: catalog.Device) -> str:
    """FP8 arithmetic when the bulk of the weights is 8-bit or narrower and the device has an FP8 peak."""
    prec = P.get(weights) if weights else max(m.weights, key=lambda g: g.params).precision
    return "fp8" if prec.narrow and "fp8" in device.peak_flops else "bf16"


def deployment(inputs: dict) -> D.Deployment:
    """The layout the reader chose: devices split into `pp` pipeline stages of devices / pp tensor-parallel
    devices each (ui.py refuses a count that does not divide), experts placed whole when EP is on."""
    n, pp = int(inputs["devices"]), int(inputs.get("pp", 1))
    return D.Deployment(tp=max(n // pp, 1), pp=pp, ep=inputs.get("ep", EP_OFF) == EP_ON)


def step(inputs: dict, cat: catalog.Catalog) -> M.Step:
    """The decode step the decode calculator and its chart show: the ceiling for one token.

    A token passes the pipeline stages in turn, and within a stage its tp devices stream their shares
    at once, so the per-token time is the sum of the stage times: all bytes over tp devices. Pipeline
    stages add memory, not speed; the model is therefore timed on the tensor-parallel degree."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    weights = weight_precision(inputs)
    return M.decode_step(m, d, devices=deployment(inputs).tp, batch=int(inputs["batch"]),
                         context=int(inputs["context"]), kv_precision=inputs["kv_precision"],
                         weight_precision=weights, compute_precision=compute_precision(m, weights, d))


def latency_step(inputs: dict) -> dict:
    """The latency calculator's inputs as a decode step sees them: one request, released weights,
    the cache of the prompt and half the output (the mean over the answer)."""
    prompt, out = int(inputs["prompt"]), int(inputs["output"])
    return dict(inputs, weight_precision=AS_RELEASED, batch=1, context=prompt + out // 2)


def latency_parts(inputs: dict, cat: catalog.Catalog) -> dict:
    """Seconds of one model call (TTFT, decode) and of the agent loop, with the speeds used:
    the ceiling, and the expected speed (efficiency, communication, speculative decoding) the times use."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    prompt, out, steps = int(inputs["prompt"]), int(inputs["output"]), int(inputs["steps"])
    ttft = M.prefill_time(m, d, prompt, devices=deployment(inputs).tp)   # the prompt passes the stages in turn too
    decode_inputs = latency_step(inputs)
    s = step(decode_inputs, cat)
    e = expected_step(decode_inputs, cat, s)
    speed = e.expected_tokens_per_s
    spec = speculation(inputs, m)
    if spec is not None:   # tokens per verify step over the time of k proposals and one verify step
        speed = spec.tokens_per_s(e.expected_s)
    tool = float(inputs["tool_s"])
    return {"ttft": ttft, "ceiling": s.tokens_per_s, "speed": speed, "decode": out / speed, "expected": e,
            "call": M.end_to_end_latency(ttft, out, speed),
            "tool": tool, "steps": steps, "loop": M.agent_loop_time(steps, ttft, out, speed) + steps * tool}


def min_devices(inputs: dict, cat: catalog.Catalog, device: catalog.Device) -> int | None:
    """Fewest devices holding weights and cache for these inputs; None when no count up to FIT_LIMIT does."""
    m, ctx, batch, kv_prec = model(inputs, cat), int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    # Every device keeps at least the KV cache split as far as it ever splits; when that alone fills a
    # device, no count fits, and the search below would walk all the way to FIT_LIMIT to find out.
    if M.kv_bytes_per_device(m, ctx, batch, kv_prec, FIT_LIMIT) >= device.serving.bytes:
        return None
    try:
        return M.min_devices(m, device, ctx, batch, kv_prec, weight_precision(inputs), limit=FIT_LIMIT)
    except M.ModelError:
        return None


def _q(value, kind, locale, **kw):
    return fmt.format_quantity(value, kind, locale, **kw)


def kv_cache(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m = model(inputs, cat)
    d = cat.devices[inputs["device"]]
    ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    total = M.kv_bytes(m, ctx, batch, prec)
    rows = [
        Row(N_("KV cache per token of context"), _q(M.kv_bytes_per_token(m, prec, context=ctx), "bytes", locale)),
        Row(N_("KV cache in total"), _q(total, "bytes", locale)),
        Row(N_("Memory of one device"), _q(d.serving.bytes, "bytes", locale)),
        Row(N_("Share of that memory"), fmt.format_percent(total / d.serving.bytes, locale, decimals=0)),
    ]
    return Result(rows, V_FITS if total <= d.serving.bytes else V_NO_FIT)


# Result labels that the defaults never show (the browser needs their translations all the same).
MEMORY_ONLY_ROWS = (N_("Time per step, memory only (lower bound)"), N_("Speed per request, memory only (upper bound)"),
                    N_("Throughput of the batch, memory only (upper bound)"))


EXPERT_SHARE = N_("Share of the experts the batch reads")
CEILING_ROWS = (N_("Time per step, lower bound (full bandwidth, no communication)"),
                N_("Speed per request, ceiling"), N_("Throughput of the batch, ceiling"))
EXPECTED_ROWS = (N_("Time per step, expected (efficiency and communication)"),
                 N_("Speed per request, expected"), N_("Throughput of the batch, expected"))


def expected_step(inputs: dict, cat: catalog.Catalog, s: M.Step) -> K.Step:
    """The step as served: memory at the achieved share of bandwidth, then the messages on the critical
    path, none overlapped: tensor-parallel all-reduces (two per layer), pipeline hand-offs (one per stage
    boundary), expert all-to-alls (two per MoE layer), each latency + bytes / bandwidth.
    Built on the ceiling's own bytes, so expected is never faster than the ceiling."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    shape = D.shape_from_catalog(m, inputs["kv_precision"], weight_precision(inputs))
    msgs = K.messages(shape, deployment(inputs), int(inputs["batch"]), d.link, float(inputs["latency_us"]) * 1e-6)
    bw = d.serving.bytes_per_s
    return K.Step(s.memory_s * bw, bw, float(inputs["efficiency"]) / 100, msgs, s.compute_s)


COMM = N_("{time} ({count} all-reduces of {size} each)")
# per kind of message (comm.COLLECTIVES): the value template, and the row label when several kinds add up
COMM_KINDS = {"tp-allreduce": (COMM, N_("of which tensor-parallel all-reduces")),
              "pp-handoff": (N_("{time} (hand-offs between stages: {count} × {size})"), N_("of which pipeline hand-offs")),
              "ep-all-to-all": (N_("{time} (expert all-to-alls: {count} × {size})"), N_("of which expert all-to-alls"))}
COMM_UNKNOWN = N_("not counted: the bandwidth of {link} is not published")
COMM_LABEL = N_("Communication per step")
LAYOUT_LABEL = N_("Layout")
PIPELINE_LABEL = N_("Pipeline")
PIPELINE = N_("{pp} stages in turn: each token passes every stage, so the stage times add up; stages add memory, not speed")
SPEC_TOKENS = N_("Tokens per verify step (expected)")
SPEC_SPEED = N_("Speed per request, expected, with speculative decoding")
DECODE_STRINGS = (COMM, COMM_UNKNOWN, COMM_LABEL, SPEC_TOKENS, SPEC_SPEED, LAYOUT_LABEL, PIPELINE_LABEL, PIPELINE) \
    + tuple(x for pair in COMM_KINDS.values() for x in pair)


def _message_fill(time_s: float, count: int, size: float, locale: str) -> tuple:
    return (("time", _q(time_s, "seconds", locale), False), ("count", fmt.format_number(count, locale), False),
            ("size", _q(size, "bytes", locale), False))


def _comm_rows(e: K.Step, d: catalog.Device, locale: str) -> list:
    """The step's communication: one row when one kind of message is sent, else the sum and a row per kind."""
    if e.unknown:
        return [Row(COMM_LABEL, COMM_UNKNOWN, fill=(("link", d.link.name, False),))]
    if not e.messages:
        return [Row(COMM_LABEL, _q(0.0, "seconds", locale))]
    if len(e.messages) == 1:
        m = e.messages[0]
        return [Row(COMM_LABEL, COMM_KINDS[m.what][0], fill=_message_fill(m.time_s, m.count, m.wire_bytes, locale))]
    rows = [Row(COMM_LABEL, _q(e.comm_s, "seconds", locale))]
    for m in e.messages:
        template, label = COMM_KINDS[m.what]
        rows.append(Row(label, template, fill=_message_fill(m.time_s, m.count, m.wire_bytes, locale)))
    return rows


def _layout_rows(inputs: dict, locale: str) -> list:
    """The layout as data (TP8, TP4×PP2 EP) and, with stages, what they do to a token's time."""
    dep = deployment(inputs)
    rows = [Row(LAYOUT_LABEL, dep.label())]
    if dep.pp > 1:
        rows.append(Row(PIPELINE_LABEL, PIPELINE, fill=(("pp", fmt.format_number(dep.pp, locale), False),)))
    return rows


def decode(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    s = step(inputs, cat)
    e = expected_step(inputs, cat, s)
    share = M.expert_share(model(inputs, cat), int(inputs["batch"]))
    # MoE only: each token picks k of E experts, so a batch of B reads 1 - (1 - k/E)^B of them, not k/E
    experts = [Row(EXPERT_SHARE, fmt.format_percent(share, locale, decimals=0))] if share is not None else []
    rows = _layout_rows(inputs, locale) + experts + [
        Row(N_("Reading weights"), _q(s.weights_s, "seconds", locale)),
        Row(N_("Reading the KV cache"), _q(s.kv_s, "seconds", locale)),
        Row(N_("Arithmetic at peak"), _q(s.compute_s, "seconds", locale) if s.compute_s is not None else UNKNOWN),
    ]
    ceiling = MEMORY_ONLY_ROWS if s.compute_s is None else CEILING_ROWS  # without a peak: only what memory allows
    batch = int(inputs["batch"])
    rows += [Row(label, text) for label, text in zip(ceiling, (
        _q(s.time_s, "seconds", locale), _q(s.tokens_per_s, "tok_per_s", locale),
        _q(s.aggregate_tokens_per_s, "tok_per_s", locale)))]
    rows += _comm_rows(e, cat.devices[inputs["device"]], locale)
    rows += [Row(label, text) for label, text in zip(EXPECTED_ROWS, (
        _q(e.expected_s, "seconds", locale), _q(e.expected_tokens_per_s, "tok_per_s", locale),
        _q(batch * e.expected_tokens_per_s, "tok_per_s", locale)))]
    spec = speculation(inputs, model(inputs, cat))
    if spec is not None:
        rows += [Row(SPEC_TOKENS, fmt.format_number(spec.tokens_per_step, locale, decimals=2)),
                 Row(SPEC_SPEED, _q(spec.tokens_per_s(e.expected_s), "tok_per_s", locale))]
    return Result(rows, decode_verdict(s))


def decode_verdict(s) -> str:
    """Which resource binds a step (the msgid), for the result and the chart caption alike."""
    if s.compute_s is None:
        return V_MEMORY_NO_PEAK
    return V_MEMORY if s.bound == "memory" else V_COMPUTE


# The fit calculator: per device, the scheme that fits with the fewest devices and the count as deployed.
SCHEME_NAMES = {"tp": N_("tensor parallel"), "pp": N_("pipeline, by layer"),
                "tp-pp": N_("tensor parallel × pipeline"), "dp-attention": N_("data-parallel attention")}
FIT_ONE = N_("{n}; deployed: {deployable} ({usable} of memory usable)")
FIT_NODES = N_("{n} ({scheme}: {layout}); deployed: {deployable} ({usable} of memory usable, {node} per node)")
FIT_SINGLE = N_("{n} ({scheme}: {layout}); deployed: {deployable} ({usable} of memory usable)")
FIT_NO_RESERVE = N_("{n} ({scheme}: {layout}); with only {usable} of memory usable, no layout fits")
NEVER = {F.NEVER_LATENT: N_("{dash}: one request's latent KV cache ({kv}) exceeds the memory of one device ({capacity}) and cannot be split by head"),
         F.NEVER_LAYER: N_("{dash}: one layer's KV cache for one request ({kv}) exceeds the memory of one device ({capacity})"),
         F.NEVER_LIMIT: N_("{dash}: no layout of up to {limit} devices fits")}
FIT_STRINGS = DECODE_STRINGS + tuple(SCHEME_NAMES.values()) + (FIT_ONE, FIT_NODES, FIT_SINGLE, FIT_NO_RESERVE) + tuple(NEVER.values())


def fits(inputs: dict, cat: catalog.Catalog) -> list:
    """(device, Fit) for every catalog device: each scheme's smallest layout, at full memory and at the engine reserve."""
    m, ctx, batch = model(inputs, cat), int(inputs["context"]), int(inputs["batch"])
    shape = D.shape_from_catalog(m, inputs["kv_precision"], weight_precision(inputs))
    return [(d, F.fit_device(shape, d, ctx, batch), shape) for d in cat.devices.values()]


def fit_row(d: catalog.Device, f: F.Fit, shape: D.Shape, context: int, batch: int, locale: str) -> Row:
    """One device's answer: count and scheme, and the count as deployed (engine reserve, whole nodes), or why none fits."""
    b = f.best
    if b is None:
        kind, piece = F.never_kind(shape, d.serving.bytes, context, batch)
        return Row(d.name, NEVER[kind], name=True, fill=(
            ("dash", UNKNOWN, False), ("kv", _q(piece, "bytes", locale), False),
            ("capacity", _q(d.serving.bytes, "bytes", locale), False),
            ("limit", fmt.format_number(F.LIMIT, locale), False)))
    usable = fmt.format_percent(f.usable_fraction, locale, decimals=0)
    fill = [("n", fmt.format_number(b.devices, locale), False), ("scheme", SCHEME_NAMES[b.scheme], True),
            ("layout", b.deployment.label(), False), ("usable", usable, False),
            ("node", fmt.format_number(f.node_size, locale), False)]
    if f.deployable_devices is None:
        return Row(d.name, FIT_NO_RESERVE, name=True, fill=tuple(fill))
    fill.append(("deployable", fmt.format_number(f.deployable_devices, locale), False))
    template = FIT_ONE if b.devices == 1 else FIT_NODES if f.node_size > 1 else FIT_SINGLE
    return Row(d.name, template, name=True, fill=tuple(fill))


def fit(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    m = model(inputs, cat)
    ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    rows = [Row(N_("Weights"), _q(M.weight_bytes_stored(m, weight_precision(inputs)), "bytes", locale)),
            Row(N_("KV cache"), _q(M.kv_bytes(m, ctx, batch, prec), "bytes", locale))]
    rows += [fit_row(d, f, shape, ctx, batch, locale) for d, f, shape in fits(inputs, cat)]
    return Result(rows, "")


def latency(inputs: dict, locale: str, cat: catalog.Catalog | None = None) -> Result:
    cat = cat or catalog.load()
    p = latency_parts(inputs, cat)
    spec = speculation(inputs, model(inputs, cat))
    rows = _layout_rows(inputs, locale) + [
        Row(N_("Time to first token"), _q(p["ttft"], "seconds", locale)),
        Row(CEILING_ROWS[1], _q(p["ceiling"], "tok_per_s", locale)),
    ]
    rows += _comm_rows(p["expected"], cat.devices[inputs["device"]], locale)
    rows.append(Row(SPEC_SPEED if spec is not None else EXPECTED_ROWS[1], _q(p["speed"], "tok_per_s", locale)))
    rows += [Row(N_("End-to-end latency"), _q(p["call"], "seconds", locale)),
             Row(N_("Agent loop"), _q(p["loop"], "seconds", locale))]
    return Result(rows, "")


CALCULATORS = {"kv_cache": kv_cache, "decode": decode, "fit": fit, "latency": latency}


def run(name: str, inputs: dict | None, locale: str) -> Result:
    """Run a calculator on its defaults overlaid with `inputs`."""
    merged = dict(DEFAULTS[name])
    merged.update(inputs or {})
    return CALCULATORS[name](merged, locale)
