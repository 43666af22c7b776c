"""Figures of one decode step: Llama 3.1 70B on H100, the roofline, batching and the speed page's worked example,
and the two sides of each roofline step that a formula reads (the slower one sets the pace: max(…, …))."""

from __future__ import annotations

from ...arch import precision as P
from ...data import scenarios as S
from ...perf import roofline as M
from ..figure import H100, LLAMA_70B, declarer
from ..formula import F
from .models import B2

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

L70_IN, H100_IN = [f"models.{LLAMA_70B}"], [f"devices.{H100}"]
BOTH = L70_IN + H100_IN
ACTIVE, ROW = ("parameters a token multiplies with", "params.llama70b.active"), ("values in one embedding row", "model.llama70b.hidden")
STEP_TERMS = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
                  kv=("KV cache per token", "kv.llama70b.bytes_per_token"), flops=("per token", "flops.llama70b.per_token"))


def _step70(cat, precision="bf16", **kw):
    return M.decode_step(cat.models[LLAMA_70B], cat.devices[H100], compute_precision=precision, **kw)


def _speed_step(c, batch=1, context=S.SPEED_PROMPT):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=batch, context=context)


def _ttft(c):
    return M.prefill_time(c.models[LLAMA_70B], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)


# ------------------------------------- section 3: one decode step on one GPU

@figure("flops.llama70b.per_token", "flop", "2 × active parameters", L70_IN,
        expression=F("{two} × {params}", two=("FLOP per parameter", 2), params=("parameters", "params.llama70b.active")))
def flops_per_token(c): return M.flops_per_token_weights(c.models[LLAMA_70B])


@figure("params.llama70b", "params", "catalog: parameters", L70_IN)
def llama70b_params(c): return c.models[LLAMA_70B].total_params


@figure("params.llama70b.active", "params", "parameters a token multiplies with: all but the input embedding table", L70_IN,
        expression=F("{total} − {vocab} × {row}", total=("parameters", "params.llama70b"),
                     vocab=("rows of the embedding table", "model.llama70b.vocab"), row=("values per row", "model.llama70b.hidden")))
def llama70b_active(c): return c.models[LLAMA_70B].active_params


@figure("device.h100.peak_bf16", "flop_per_s", "datasheet: dense BF16 peak", H100_IN, sig=None, decimals=0, unit="TFLOP/s")
def h100_peak_bf16(c): return c.devices[H100].peak_flops["bf16"]


@figure("device.h100.peak_fp8", "flop_per_s", "datasheet: dense FP8 peak", H100_IN, sig=None, decimals=0, unit="TFLOP/s")
def h100_peak_fp8(c): return c.devices[H100].peak_flops["fp8"]


@figure("device.h100.bandwidth", "bytes_per_s", "datasheet: HBM bandwidth", H100_IN)
def h100_bandwidth(c): return c.devices[H100].serving.bytes_per_s


@figure("device.h100.memory", "bytes", "datasheet: HBM capacity", H100_IN, sig=None, decimals=0)
def h100_memory(c): return c.devices[H100].serving.bytes


@figure("step.llama70b.h100.compute_time", "seconds", "FLOP per token ÷ dense BF16 peak", BOTH,
        expression=F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("BF16 peak", "device.h100.peak_bf16")))
def compute_time(c): return _step70(c).compute_s


@figure("step.llama70b.h100.compute_time_fp8", "seconds", "FLOP per token ÷ dense FP8 peak", BOTH,
        expression=F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("FP8 peak", "device.h100.peak_fp8")))
def compute_time_fp8(c): return _step70(c, "fp8").compute_s


@figure("weights.llama70b.bytes", "bytes", "parameters × 2 bytes (BF16)", L70_IN,
        expression=F("{params} × {bytes}", params=("parameters", "params.llama70b"), bytes=("per parameter (BF16)", "precision.bf16.bytes")))
def llama70b_weights(c): return M.weight_bytes_stored(c.models[LLAMA_70B])


@figure("weights.llama70b.read_per_token", "bytes", "bytes read per token: every tensor but the input embedding table, of which one row (BF16)",
        L70_IN, expression=F("({active} + {row}) × {bytes}", active=ACTIVE, row=ROW, bytes=("per parameter (BF16)", "precision.bf16.bytes")))
def llama70b_read(c): return M.weight_bytes_read(c.models[LLAMA_70B], 1)


@figure("step.llama70b.h100.memory_time", "seconds", "weight bytes ÷ HBM bandwidth", BOTH,
        expression=F("{weights} ÷ {bw}", weights=("read per token", "weights.llama70b.read_per_token"), bw=("HBM bandwidth", "device.h100.bandwidth")))
def memory_time(c): return _step70(c).weights_s


@figure("ceiling.llama70b.h100.compute", "tok_per_s", "1 ÷ compute time (BF16 peak)", BOTH, sig=2,
        expression=F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time")))
def ceiling_compute(c): return 1.0 / _step70(c).compute_s


@figure("ceiling.llama70b.h100.compute_fp8", "tok_per_s", "1 ÷ compute time (FP8 peak)", BOTH, sig=2,
        expression=F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time_fp8")))
def ceiling_compute_fp8(c): return 1.0 / _step70(c, "fp8").compute_s


@figure("ceiling.llama70b.h100.memory", "tok_per_s", "1 ÷ memory time", BOTH, sig=3,
        expression=F("{one} ÷ {t}", one=("token", 1), t=("memory time per token", "step.llama70b.h100.memory_time")))
def ceiling_memory(c): return _step70(c).tokens_per_s


@figure("ratio.llama70b.h100.memory_over_compute", "ratio", "memory time ÷ compute time", BOTH, sig=None, decimals=0,
        expression=F("{m} ÷ {c}", m=("memory time", "step.llama70b.h100.memory_time"), c=("compute time", "step.llama70b.h100.compute_time")))
def memory_over_compute(c):
    s = _step70(c)
    return s.weights_s / s.compute_s


@figure("fit.llama70b.h100.devices", "count", "fewest H100 whose HBM holds the BF16 weights", BOTH, sig=None, decimals=0,
        expression=F("⌈{w} ÷ {mem}⌉", w=("of weights (BF16)", "weights.llama70b.bytes"), mem=("HBM per GPU", "device.h100.memory")))
def fit_h100(c): return M.min_devices(c.models[LLAMA_70B], c.devices[H100])


# ----------------------------------------------------- section 5: batching

for _b in S.BATCHES:
    @figure(f"batch.llama70b.per_request.{_b}", "tok_per_s", "1 ÷ step time at batch B", BOTH,
            expression=F("{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", n=("GPUs", "batch.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
                         w=("read per token", "weights.llama70b.read_per_token"), b=("requests", f"batch.size.{_b}"),
                         ctx=("tokens of context each", "batch.context"), kv=("KV cache per token", "kv.llama70b.bytes_per_token")))
    def batch_per_request(c, b=_b):
        return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT).tokens_per_s

    @figure(f"batch.llama70b.aggregate.{_b}", "tok_per_s", "B ÷ step time at batch B", BOTH,
            expression=F("{b} × {speed}", b=("requests", f"batch.size.{_b}"), speed=("per request", f"batch.llama70b.per_request.{_b}")))
    def batch_aggregate(c, b=_b):
        return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.BATCH_DEVICES, batch=b,
                             context=S.BATCH_CONTEXT).aggregate_tokens_per_s

    @figure(f"batch.size.{_b}", "count", "batch size", [], sig=None, decimals=0)
    def batch_size(c, b=_b): return b


@figure("batch.devices", "count", "GPUs in the tensor-parallel group", [], sig=None, decimals=0)
def batch_devices(c): return S.BATCH_DEVICES


@figure("batch.context", "tokens", "context per request", [], sig=None, decimals=0)
def batch_context(c): return S.BATCH_CONTEXT


# ------------------------------------------- "inference speed explained" page

_SPEED = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"), w=("read per token", "weights.llama70b.read_per_token"),
              ctx=("tokens of context each", "speed.prompt"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"))
_TTFT, _OUT = ("to the first token", "speed.ttft"), ("output tokens", "speed.output")
_ALONE = ("per request", "speed.per_request")


@figure("speed.prompt", "tokens", "scenario: prompt tokens", [], sig=None, decimals=0)
def speed_prompt(c): return S.SPEED_PROMPT


@figure("speed.output", "tokens", "scenario: output tokens", [], sig=None, decimals=0)
def speed_output(c): return S.SPEED_OUTPUT


@figure("speed.ttft", "seconds", "(prompt × 2 × parameters + causal attention) ÷ (GPUs × BF16 peak)", BOTH,
        expression=F("max({c}, {m})", c=("compute time of the prompt", "speed.ttft.compute"), m=("memory time", "speed.ttft.memory")))
def speed_ttft(c): return _ttft(c)


@figure("speed.per_request", "tok_per_s", "1 ÷ decode step time at batch 1", BOTH,
        expression=F("{n} × {bw} ÷ ({w} + {ctx} × {kv})", **_SPEED))
def speed_per_request(c): return _speed_step(c).tokens_per_s


@figure("speed.per_request_fp8", "tok_per_s", "1 ÷ decode step time at batch 1, FP8 weights", BOTH,
        expression=F("{one} ÷ max({m}, {c})", one=("token", 1), m=("memory time", "speed.fp8.memory_time"),
                     c=("compute time", "speed.fp8.compute_time")))
def speed_per_request_fp8(c):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=S.SPEED_PROMPT,
                         weight_precision="fp8", compute_precision="fp8").tokens_per_s


@figure("speed.e2e", "seconds", "TTFT + output tokens ÷ per-request speed", BOTH,
        expression=F("{ttft} + {out} ÷ {speed}", ttft=_TTFT, out=_OUT, speed=_ALONE))
def speed_e2e(c): return M.end_to_end_latency(_ttft(c), S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate", "tok_per_s", "batch ÷ step time", BOTH,
        expression=F("{b} × {speed}", b=("requests in the batch", "speed.batch"), speed=("per request", "speed.per_request_batched")))
def speed_aggregate(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s


@figure("speed.per_request_batched", "tok_per_s", "1 ÷ step time at the batch", BOTH,
        expression=F("{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", b=("requests", "speed.batch"), **_SPEED))
def speed_per_request_batched(c): return _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s


def _util(stem):
    return F("{c} ÷ max({m}, {c})", m=("memory time", f"{stem}.memory_time"), c=("compute time", f"{stem}.compute_time"))


@figure("speed.util", "percent", "compute time ÷ step time at batch 1 in the speed example", BOTH, decimals=1, expression=_util("speed"))
def speed_util(c): return _speed_step(c).compute_utilisation


@figure("speed.batch", "count", "scenario: batch size", [], sig=None, decimals=0)
def speed_batch(c): return S.SPEED_BATCH


@figure("speed.devices", "count", "scenario: GPUs", [], sig=None, decimals=0)
def speed_devices(c): return S.SPEED_DEVICES


@figure("util.llama70b.batch1", "percent", "compute time ÷ step time at batch 1 (speed scenario GPUs, first article context)", BOTH,
        decimals=1, expression=_util("util.llama70b.batch1"))
def util_batch1(c): return _speed_step(c, 1, S.CONTEXTS[0]).compute_utilisation


@figure("util.llama70b.batch_large", "percent", "compute time ÷ step time at batch 64 (speed scenario GPUs, first article context)", BOTH,
        decimals=0, expression=_util("util.llama70b.batch_large"))
def util_batch_large(c): return _speed_step(c, S.UTIL_BATCH, S.CONTEXTS[0]).compute_utilisation


# Section 2: bytes per BF16 value, the last factor of the KV and weight formulas.
@figure("precision.bf16.bytes", "bytes", "bits per BF16 value ÷ 8", [], definition=True, sig=None, decimals=0, unit="B",
        expression=F("{bits} ÷ {eight}", bits=("bits per BF16 value", 16), eight=("bits per byte", 8)))
def bf16_bytes(c): return P.BF16.bytes


# Section 3: the roofline of one H100 and where decode at batch 1 sits on it.
@figure("device.h100.ridge", "count", "dense BF16 peak ÷ HBM bandwidth (FLOP per byte)", H100_IN, sig=None, decimals=0,
        expression=F("{peak} ÷ {bw}", peak=("BF16 peak", "device.h100.peak_bf16"), bw=("HBM bandwidth", "device.h100.bandwidth")))
def h100_ridge(c): return c.devices[H100].peak_flops["bf16"] / c.devices[H100].serving.bytes_per_s


@figure("intensity.llama70b.batch1", "count", "FLOP per token ÷ weight bytes read per token (FLOP per byte, batch 1)", L70_IN,
        sig=None, decimals=1,
        expression=F("{flops} ÷ {weights}", flops=("per token", "flops.llama70b.per_token"),
                     weights=("read per token", "weights.llama70b.read_per_token")))
def intensity_batch1(c): return M.flops_per_token_weights(c.models[LLAMA_70B]) / M.weight_bytes_read(c.models[LLAMA_70B], 1)


# "Inference speed explained": derived quantities of the worked example.
@figure("speed.step_time", "seconds", "1 ÷ per-request speed (time between two tokens, batch 1)", BOTH,
        expression=F("{one} ÷ {speed}", one=("token", 1), speed=_ALONE))
def speed_step_time(c): return _speed_step(c).time_s


@figure("speed.decode_time", "seconds", "output tokens ÷ per-request speed", BOTH,
        expression=F("{out} ÷ {speed}", out=_OUT, speed=_ALONE))
def speed_decode_time(c): return S.SPEED_OUTPUT / _speed_step(c).tokens_per_s


@figure("speed.ttft_share", "percent", "TTFT ÷ end-to-end latency", BOTH, decimals=1,
        expression=F("{ttft} ÷ {e2e}", ttft=_TTFT, e2e=("end to end", "speed.e2e")))
def speed_ttft_share(c):
    ttft = _ttft(c)
    return ttft / M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate_gain", "ratio", "aggregate throughput at the batch ÷ throughput at batch 1", BOTH, sig=2,
        expression=F("{agg} ÷ {one}", agg=("for the batch", "speed.aggregate"), one=("at batch 1", "speed.per_request")))
def speed_aggregate_gain(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.per_request_drop", "percent", "1 − per-request speed at the batch ÷ per-request speed at batch 1", BOTH, decimals=0,
        expression=F("{one} − {b} ÷ {s}", one=("", 1), b=("in the batch", "speed.per_request_batched"), s=("alone", "speed.per_request")))
def speed_per_request_drop(c): return 1 - _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.e2e_batched", "seconds", "TTFT + output tokens ÷ per-request speed at the batch", BOTH,
        expression=F("{ttft} + {out} ÷ {speed}", ttft=_TTFT, out=_OUT, speed=("per request in the batch", "speed.per_request_batched")))
def speed_e2e_batched(c): return M.end_to_end_latency(_ttft(c), S.SPEED_OUTPUT, _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s)


# Glossary: arithmetic intensity, one read of the weights serves every request of the batch.
@figure("intensity.llama70b.batch.64", "count", "batch × FLOP per token ÷ weight bytes read per step (FLOP per byte, batch 64)", L70_IN,
        sig=None, decimals=0,
        expression=F("{b} × {flops} ÷ (({act} + {b} × {row}) × {bytes})", b=("requests", "batch.size.64"), flops=STEP_TERMS["flops"],
                     act=ACTIVE, row=ROW, bytes=B2))
def intensity_batch64(c): return 64 * M.flops_per_token_weights(c.models[LLAMA_70B]) / M.weight_bytes_read(c.models[LLAMA_70B], 64)


# Glossary: tensor parallelism, every GPU of the speed example holds and reads a slice of each layer.
@figure("tp.llama70b.weights_per_gpu", "bytes", "BF16 weight bytes ÷ GPUs (speed scenario)", L70_IN,
        expression=F("{w} ÷ {n}", w=("of weights", "weights.llama70b.bytes"), n=("GPUs", "speed.devices")))
def tp_weights_per_gpu(c): return M.weight_bytes_stored(c.models[LLAMA_70B]) / S.SPEED_DEVICES


# Glossary: pipeline parallelism, the fewest H100 that hold the weights, each with a run of whole layers.
@figure("pp.llama70b.layers_per_gpu", "count", "layers ÷ fewest H100 whose HBM holds the BF16 weights", BOTH, sig=None, decimals=0,
        expression=F("{layers} ÷ {n}", layers=("layers", "model.llama70b.layers"), n=("H100 GPUs", "fit.llama70b.h100.devices")))
def pp_layers_per_gpu(c): return c.models[LLAMA_70B].layers / M.min_devices(c.models[LLAMA_70B], c.devices[H100])


# ---------------------------------------------- terms: the two sides of a roofline step

_ATTN = {S.SPEED_PROMPT: "speed.prompt", S.CONTEXTS[0]: f"context.{S.CONTEXTS[0]}"}   # tokens -> the figure that names them
for _n, _ctx_fig in _ATTN.items():
    @figure(f"flops.llama70b.attention.{_n}", "flop",
            "attention FLOP per new token at this context: layers × 4 × query heads × head dimension × context", L70_IN,
            expression=F("{layers} × {four} × {heads} × {dim} × {ctx}", layers=("layers", "model.llama70b.layers"),
                         four=("FLOP per value and cached token", 4), heads=("query heads", "model.llama70b.query_heads"),
                         dim=("values per head", "model.llama70b.head_dim"), ctx=("tokens of context", _ctx_fig)))
    def attention_flops(c, n=_n): return M.flops_per_token_attention(c.models[LLAMA_70B], n)


def _roofline_step(c, batch, context, precision=None):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=batch, context=context,
                         weight_precision=precision, compute_precision=precision or "bf16")


_BF16_PEAK, _FP8_PEAK = ("BF16 peak each", "device.h100.peak_bf16"), ("FP8 peak each", "device.h100.peak_fp8")
# The steps printed as a roofline: id stem, batch (a figure, or 1), context (tokens), precision (None: the release's BF16).
_STEPS = (
    ("speed", None, S.SPEED_PROMPT, None, B2, _BF16_PEAK),
    ("speed.fp8", None, S.SPEED_PROMPT, "fp8", ("per value (FP8)", "precision.fp8.bytes"), _FP8_PEAK),
    ("util.llama70b.batch1", None, S.CONTEXTS[0], None, B2, _BF16_PEAK),
    ("util.llama70b.batch_large", f"batch.size.{S.UTIL_BATCH}", S.CONTEXTS[0], None, B2, _BF16_PEAK),
)
for _stem, _b, _ctx, _prec, _bytes, _peak in _STEPS:
    _ctx_terms = dict(ctx=("tokens of context each", _ATTN[_ctx]), attn=("for attention", f"flops.llama70b.attention.{_ctx}"))
    if _b:
        _memory = F("(({act} + {b} × {row}) × {bytes} + {b} × {ctx} × {kv}) ÷ ({n} × {bw})",
                    b=("requests", _b), act=ACTIVE, row=ROW, bytes=_bytes, **_ctx_terms, **STEP_TERMS)
        _compute = F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=("requests", _b), peak=_peak, **_ctx_terms, **STEP_TERMS)
    else:
        _memory = F("(({act} + {row}) × {bytes} + {ctx} × {kv}) ÷ ({n} × {bw})", act=ACTIVE, row=ROW, bytes=_bytes, **_ctx_terms, **STEP_TERMS)
        _compute = F("({flops} + {attn}) ÷ ({n} × {peak})", peak=_peak, **_ctx_terms, **STEP_TERMS)
    _batch = S.UTIL_BATCH if _b else 1

    @figure(f"{_stem}.memory_time", "seconds", "memory time of one decode step: (weight bytes + KV bytes) ÷ (GPUs × HBM bandwidth)", BOTH,
            expression=_memory)
    def roofline_memory(c, b=_batch, ctx=_ctx, p=_prec): return _roofline_step(c, b, ctx, p).memory_s

    @figure(f"{_stem}.compute_time", "seconds", "compute time of one decode step: batch × FLOP per token ÷ (GPUs × dense peak)", BOTH,
            expression=_compute)
    def roofline_compute(c, b=_batch, ctx=_ctx, p=_prec): return _roofline_step(c, b, ctx, p).compute_s


@figure("speed.ttft.compute", "seconds", "compute time of the prompt: (prompt × FLOP per token + causal attention) ÷ (GPUs × BF16 peak)", BOTH,
        expression=F("({p} × {flops} + {attn} × ({p} + {one}) ÷ {two}) ÷ ({n} × {peak})", p=("prompt tokens", "speed.prompt"),
                     one=("", 1), two=("", 2), attn=("for attention at the full prompt", f"flops.llama70b.attention.{S.SPEED_PROMPT}"),
                     peak=_BF16_PEAK, **{k: v for k, v in STEP_TERMS.items() if k != "kv"}))
def ttft_compute(c):
    return M.prefill_times(c.models[LLAMA_70B], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)[0]


@figure("speed.ttft.memory", "seconds", "memory time of the prompt: weight bytes read once ÷ (GPUs × HBM bandwidth)", BOTH,
        expression=F("({act} + {p} × {row}) × {bytes} ÷ ({n} × {bw})", act=ACTIVE, p=("prompt tokens", "speed.prompt"), row=ROW,
                     bytes=B2, n=STEP_TERMS["n"], bw=STEP_TERMS["bw"]))
def ttft_memory(c):
    return M.prefill_times(c.models[LLAMA_70B], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)[1]
