"""One decode step of the running example on one device (main article, section 3), and the device's numbers.

The article's thought experiment: one token, one device, weights only. The
arithmetic is compared with the device's dense BF16 peak even where the
weights are narrower and the device has a faster FP8 peak (the page says so):
the compute time is then, if anything, too long, so the comparison never
flatters the claim that decode waits on memory. A device without a published
dense BF16 peak is refused (calculators/example/example.py).
"""

from __future__ import annotations

from .declare import W, L, declarer
from .formula import F
from .terms import PARAMS_IN, PER_PARAM, bytes_term, whole

DECLARATIONS: list = []
figure = shared = declarer(DECLARATIONS, "both")   # the speed page's formulas read the model's and device's numbers too
main = declarer(DECLARATIONS, "decode")            # the main article's only

MODEL, DEVICE, BOTH = ["model"], ["device"], ["model", "device"]
TOTAL, ACTIVE = ("parameters", "params.llama70b"), (L("parameters a token multiplies with"), "params.llama70b.active")
ROW = (L("values in one embedding row"), "model.llama70b.hidden")
BW = (L("memory bandwidth"), "device.h100.bandwidth")


# ------------------------------------------------------------------ the device

@shared("device.h100.peak_bf16", "flop_per_s", W("datasheet: dense BF16 peak"), DEVICE, sig=None, decimals=0, unit="TFLOP/s")
def peak_bf16(c): return c.peak("bf16")


@figure("device.h100.peak_fp8", "flop_per_s", W("datasheet: dense FP8 peak"), DEVICE, sig=None, decimals=0, unit="TFLOP/s")
def peak_fp8(c): return c.peak("fp8")


@shared("device.h100.bandwidth", "bytes_per_s", W("datasheet: bandwidth of the memory the device serves from"), DEVICE)
def bandwidth(c): return c.d.serving.bytes_per_s


@figure("device.h100.ridge", "count", W("dense BF16 peak ÷ memory bandwidth (FLOP per byte)"), DEVICE, sig=None, decimals=0,
        expression=F("{peak} ÷ {bw}", peak=(L("BF16 peak"), "device.h100.peak_bf16"), bw=BW))
def ridge(c): return c.peak() / c.d.serving.bytes_per_s


# ------------------------------------------------------------------ the model's parameters

@figure("params.llama70b", "params", W("config.json: parameters"), MODEL)
def total(c): return c.m.total_params


@figure("model.llama70b.vocab", "count", W("config.json: vocabulary size (rows of the embedding table)"), MODEL, sig=None, decimals=0)
def vocab(c): return c.m.arch.vocab


@figure("model.llama70b.hidden", "count", W("config.json: hidden size (values in one embedding row)"), MODEL, sig=None, decimals=0)
def hidden(c): return c.m.arch.hidden


@figure("ex.params.idle", "params", W("routed experts' parameters a token does not use"), MODEL)
def idle(c):
    if not c.moe:
        return None
    return c.m.total_params - c.m.active_params - (0 if c.m.arch.tied else c.m.arch.vocab * c.m.arch.hidden)


def _active_formula(c) -> F:
    expr, terms = "{total}", dict(total=TOTAL)
    if not c.m.arch.tied:
        expr += " − {vocab} × {row}"
        terms.update(vocab=(L("rows of the embedding table"), "model.llama70b.vocab"), row=(L("values per row"), "model.llama70b.hidden"))
    if c.moe:
        expr += " − {idle}"
        terms["idle"] = (L("in the experts a token does not use"), "ex.params.idle")
    return F(expr, **terms)


@figure("params.llama70b.active", "params", W("parameters a token multiplies with: all but the input embedding table and the unchosen experts"),
        MODEL, expression=_active_formula)
def active(c): return c.m.active_params


@shared("flops.llama70b.per_token", "flop", W("2 × active parameters"), MODEL,
        expression=F("{two} × {params}", two=(L("FLOP per parameter"), 2), params=("parameters", "params.llama70b.active")))
def flops(c): return 2 * c.m.active_params


# ------------------------------------------------------------------ weights: held and read

@figure("ex.weights.bytes_per_param", "bytes", W("bits per parameter of the weights ÷ 8"), [], definition=True, sig=None, decimals=0,
        unit="B", expression=lambda c: F("{bits} ÷ {eight}", bits=(L("bits per parameter"), c.uniform_precision.bits),
                                         eight=(L("bits per byte"), 8)))
def bytes_per_param(c):
    p = c.uniform_precision
    return p.bytes if p and whole(p.bytes) else None


@figure("ex.weights.bits_per_param", "bits", W("bits per parameter of the weights, shared scales included"), [], definition=True, sig=3)
def bits_per_param(c):
    p = c.uniform_precision
    return p.bits if p and not whole(p.bytes) else None


def _by_precision(c, batch: int | None) -> dict:
    """Parameters per precision key: all stored (batch None) or read for `batch` tokens."""
    arch = c.m.arch
    params = arch.params_by_group() if batch is None else arch.read_params_by_group(batch)
    out: dict = {}
    for group, n in params.items():
        if n:
            key = c.weights or arch.precisions[group].key
            out[key] = out.get(key, 0) + n
    return out


for _key in PARAMS_IN:
    @figure(f"ex.params.stored.{_key}", "params", W("parameters the example holds in this format"), MODEL)
    def stored_in(c, k=_key): return None if c.uniform_precision else _by_precision(c, None).get(k)

    @figure(f"ex.params.read.{_key}", "params", W("parameters in this format read per token (batch 1)"), MODEL)
    def read_in(c, k=_key): return None if c.uniform_precision else _by_precision(c, 1).get(k)


def _uniform_bytes(c):
    p = c.uniform_precision
    return bytes_term(p.key, "ex.weights.bytes_per_param" if whole(p.bytes) else None, PER_PARAM)


def _sum_formula(c, stem: str, batch: int | None) -> F:
    keys = sorted(_by_precision(c, batch))
    return F(" + ".join(f"{{n{i}}} × {{b{i}}}" for i in range(len(keys))),
             **{f"n{i}": (PARAMS_IN[k], f"{stem}.{k}") for i, k in enumerate(keys)},
             **{f"b{i}": bytes_term(k, None, PER_PARAM) for i, k in enumerate(keys)})


def _stored_formula(c) -> F:
    if c.uniform_precision:
        return F("{params} × {bytes}", params=("parameters", "params.llama70b"), bytes=_uniform_bytes(c))
    return _sum_formula(c, "ex.params.stored", None)


def _read_formula(c) -> F:
    if c.uniform_precision:
        if c.m.arch.tied:
            return F("{active} × {bytes}", active=ACTIVE, bytes=_uniform_bytes(c))
        return F("({active} + {row}) × {bytes}", active=ACTIVE, row=ROW, bytes=_uniform_bytes(c))
    return _sum_formula(c, "ex.params.read", 1)


@figure("weights.llama70b.bytes", "bytes", W("parameters × bytes per parameter, each group at its precision"), MODEL,
        expression=_stored_formula)
def weights(c): return c.weights_stored


@shared("weights.llama70b.read_per_token", "bytes",
        W("bytes read per token: every tensor but the input embedding table (of which one row) and the unchosen experts"),
        MODEL, expression=_read_formula)
def read_per_token(c): return c.weights_read(1)


# ------------------------------------------------------------------ the step: compute, memory, ceilings

@figure("ex.flops.mixers", "flop", W("FLOP per token of the mixers with a fixed state (linear attention, state-space layers), at any context"),
        MODEL)
def mixers(c): return c.m.arch.attention_flops(0) or None


def _compute_formula(peak: tuple):
    def build(c) -> F:
        if c.m.arch.attention_flops(0):
            return F("({flops} + {mix}) ÷ {peak}", flops=(L("per token"), "flops.llama70b.per_token"),
                     mix=(L("in the mixers with a fixed state"), "ex.flops.mixers"), peak=peak)
        return F("{flops} ÷ {peak}", flops=(L("per token"), "flops.llama70b.per_token"), peak=peak)
    return build


@figure("step.llama70b.h100.compute_time", "seconds", W("FLOP per token ÷ dense BF16 peak"), BOTH,
        expression=_compute_formula((L("BF16 peak"), "device.h100.peak_bf16")))
def compute_time(c): return c.one.compute_s


@figure("step.llama70b.h100.compute_time_fp8", "seconds", W("FLOP per token ÷ dense FP8 peak"), BOTH,
        expression=_compute_formula((L("FP8 peak"), "device.h100.peak_fp8")))
def compute_time_fp8(c): return c.has_fp8 and c.step(1, 0, devices=1, precision="fp8").compute_s or None


@figure("step.llama70b.h100.memory_time", "seconds", W("weight bytes ÷ memory bandwidth"), BOTH,
        expression=F("{weights} ÷ {bw}", weights=(L("read per token"), "weights.llama70b.read_per_token"), bw=BW))
def memory_time(c): return c.one.weights_s


@figure("ceiling.llama70b.h100.compute", "tok_per_s", W("1 ÷ compute time (BF16 peak)"), BOTH, sig=2,
        expression=F("{one} ÷ {t}", one=(L("token"), 1), t=(L("compute time per token"), "step.llama70b.h100.compute_time")))
def ceiling_compute(c): return 1.0 / c.one.compute_s


@figure("ceiling.llama70b.h100.compute_fp8", "tok_per_s", W("1 ÷ compute time (FP8 peak)"), BOTH, sig=2,
        expression=F("{one} ÷ {t}", one=(L("token"), 1), t=(L("compute time per token"), "step.llama70b.h100.compute_time_fp8")))
def ceiling_compute_fp8(c): return c.has_fp8 and 1.0 / c.step(1, 0, devices=1, precision="fp8").compute_s or None


@figure("ceiling.llama70b.h100.memory", "tok_per_s", W("1 ÷ memory time"), BOTH, sig=3,
        expression=F("{one} ÷ {t}", one=(L("token"), 1), t=(L("memory time per token"), "step.llama70b.h100.memory_time")))
def ceiling_memory(c): return 1.0 / c.one.weights_s


@figure("ratio.llama70b.h100.memory_over_compute", "ratio", W("memory time ÷ compute time"), BOTH, sig=None, decimals=0,
        expression=F("{m} ÷ {c}", m=(L("memory time"), "step.llama70b.h100.memory_time"), c=(L("compute time"), "step.llama70b.h100.compute_time")))
def memory_over_compute(c): return c.one.weights_s / c.one.compute_s


@figure("intensity.llama70b.batch1", "count", W("FLOP per token ÷ weight bytes read per token (FLOP per byte, batch 1)"), MODEL,
        sig=None, decimals=1,
        expression=F("{flops} ÷ {weights}", flops=(L("per token"), "flops.llama70b.per_token"),
                     weights=(L("read per token"), "weights.llama70b.read_per_token")))
def intensity(c): return 2 * c.m.active_params / c.weights_read(1)


# ------------------------------------------------------------------ does it fit on one device?

@main("fit.llama70b.h100.devices", "count", W("fewest devices whose memory holds the weights"), BOTH, sig=None, decimals=0,
        expression=F("⌈{w} ÷ {mem}⌉", w=(L("of weights"), "weights.llama70b.bytes"), mem=(L("memory per device"), "device.h100.memory")))
def fit(c):
    from ..perf import roofline as M
    return M.min_devices(c.m, c.d, weight_precision=c.weights)


@main("ex.engine.usable", "percent", W("published default: share of device memory the engine lets weights and KV cache use"),
        ["engine"], decimals=0)
def usable(c): return c.d.engine.usable_fraction


@main("ex.kv.request", "bytes", W("KV cache and fixed state of one request at the example's context"), MODEL,
        expression=lambda c: None if (c.m.arch.state_bytes() or any(g.spec.max_cached_tokens for g in c.groups if g.spec.kv_bytes_per_token(c.kv)))
        else F("{per} × {ctx}", per=(L("per token"), "kv.llama70b.bytes_per_token"), ctx=(L("tokens of context"), "batch.context")))
def request(c): return c.request_bytes(c.ex.context)


@main("ex.one.room", "count", W("whole requests whose cache fits beside the weights in the engine's share of one device"),
        ["model", "device", "engine"], sig=None, decimals=0,
        expression=F("⌊({mem} × {u} − {w}) ÷ {req}⌋", mem=(L("memory per device"), "device.h100.memory"),
                     u=(L("usable"), "ex.engine.usable"), w=(L("of weights"), "weights.llama70b.bytes"),
                     req=(L("per request"), "ex.kv.request")))
def room(c):
    free = c.d.serving.bytes * c.d.engine.usable_fraction - c.weights_stored
    return None if free < 0 else int(free // c.request_bytes(c.ex.context))
