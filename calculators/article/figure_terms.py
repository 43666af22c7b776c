"""Figures that make a formula readable: the groups a sum runs over, the sides of a roofline.

Some printed figures are sums over a model's per-layer specs (layers of two
attention kinds, weights in two or three precisions) or the slower side of a
roofline step (max of memory time and compute time). Their formula objects
(calculators/formulas.py) read the figures below, one per group or side, so
that a reader sees "18 layers with full attention × 2,048 B + …" and can
expand each term one level. Every value here is computed from the model's
config by the same functions the printed figures use, never typed.

figures.py adds these definitions to its registry (this module does not
import figures.py, so there is no import cycle).
"""

from __future__ import annotations

from ..perf import roofline as M
from ..arch import precision as P
from ..data import scenarios as S

DEFINITIONS = []


def figure(id, kind, formula, inputs=(), sig=3, decimals=None, unit=None):
    """Register a figure, in the shape figures.figure uses."""

    def wrap(fn):
        DEFINITIONS.append((id, kind, formula, tuple(inputs), sig, decimals, unit, fn))
        return fn

    return wrap


L70, GPT, MM, DS3 = "llama-3.1-70b", "gpt-oss-120b", "minimax-m2", "deepseek-v3"
M_L70, D_H100, H100 = f"models.{L70}", "devices.h100-sxm", "h100-sxm"


# ------------------------------------------------- KV cache of mixed attention

def _attention(c, key, kind):
    """The attention spec of a model's layers of one kind, and how many layers have it."""
    arch = c.models[key].arch
    return next(l.attention for l in arch.layers if l.attention.kind == kind), arch.layer_counts()[kind]


@figure("model.gpt-oss-120b.layers_full", "count", "catalog: layers with full attention", [f"models.{GPT}"], sig=None, decimals=0)
def _(c): return _attention(c, GPT, "full")[1]


@figure("model.gpt-oss-120b.layers_sliding", "count", "catalog: layers with sliding-window attention", [f"models.{GPT}"], sig=None, decimals=0)
def _(c): return _attention(c, GPT, "sliding")[1]


@figure("model.gpt-oss-120b.kv_heads", "count", "catalog: KV heads", [f"models.{GPT}"], sig=None, decimals=0)
def _(c): return _attention(c, GPT, "full")[0].kv_heads


@figure("model.gpt-oss-120b.head_dim", "count", "catalog: head dimension", [f"models.{GPT}"], sig=None, decimals=0)
def _(c): return _attention(c, GPT, "full")[0].head_dim


@figure("kv.gpt-oss-120b.bytes_per_token_layer", "bytes", "KV bytes one token adds to one layer: 2 (K and V) × KV heads × head dimension × 2 bytes (BF16)",
        [f"models.{GPT}"], sig=None, decimals=0, unit="B")
def _(c): return _attention(c, GPT, "full")[0].kv_bytes_per_token("bf16")


@figure("model.llama70b.vocab", "count", "catalog: vocabulary size (rows of the embedding table)", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].arch.vocab


# --------------------------------------------------- weights per precision group

def _params_in(c, key, precision, batch=None):
    """Parameters of the weight groups the checkpoint keeps in `precision`: all stored, or read for `batch` tokens."""
    arch = c.models[key].arch
    params = arch.params_by_group() if batch is None else arch.read_params_by_group(batch)
    return sum(n for g, n in params.items() if arch.precisions[g] == precision)


# The precisions each model's checkpoint uses (the config's quantization section assigns them to tensor groups,
# calculators/precision.py); a group left out here would make its sum disagree, and the build check says so.
_PRECISIONS = {GPT: ("bf16", "mxfp4"), DS3: ("bf16", "fp8_b128"), MM: ("bf16", "fp32", "fp8_b128")}
_STORED = (GPT, DS3)   # the models whose stored weight bytes the site prints (all three print the bytes read per token)

for _m, _precs in _PRECISIONS.items():
    for _p in _precs:
        _name = P.label(_p)   # FP8 with block scales is FP8 to a reader
        if _m in _STORED:
            @figure(f"params.{_m}.{_name.lower()}", "params", f"catalog: parameters the checkpoint stores in {_name}", [f"models.{_m}"])
            def _(c, m=_m, p=_p): return _params_in(c, m, p)

        @figure(f"params.{_m}.read.{_name.lower()}", "params", f"catalog: parameters in {_name} read per token (batch 1)", [f"models.{_m}"])
        def _(c, m=_m, p=_p): return _params_in(c, m, p, batch=1)


@figure("precision.fp8_b128.bits", "count", "8 bits per value + one 32-bit scale per block of 128 × 128 values", [], sig=None, decimals=3)
def _(c): return M._bytes("fp8_b128") * 8


# ---------------------------------------------- the two sides of a roofline step

@figure(f"flops.llama70b.attention.{S.SPEED_PROMPT}", "flop", "attention FLOP per new token at this context: layers × 4 × query heads × head dimension × context",
        [M_L70])
def _(c): return M.flops_per_token_attention(c.models[L70], S.SPEED_PROMPT)


@figure(f"flops.llama70b.attention.{S.CONTEXTS[0]}", "flop", "attention FLOP per new token at this context: layers × 4 × query heads × head dimension × context",
        [M_L70])
def _(c): return M.flops_per_token_attention(c.models[L70], S.CONTEXTS[0])


def _step(c, batch, context, precision=None):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=batch, context=context,
                         weight_precision=precision, compute_precision=precision or "bf16")


# The steps printed as a roofline (id stem, batch, context, precision; None: the checkpoint's BF16), as in figures.py.
_STEPS = (
    ("speed", 1, S.SPEED_PROMPT, None),
    ("speed.fp8", 1, S.SPEED_PROMPT, "fp8"),
    ("util.llama70b.batch1", 1, S.CONTEXTS[0], None),
    ("util.llama70b.batch_large", S.UTIL_BATCH, S.CONTEXTS[0], None),
)
for _stem, _b, _ctx, _prec in _STEPS:
    @figure(f"{_stem}.memory_time", "seconds", "memory time of one decode step: (weight bytes + KV bytes) ÷ (GPUs × HBM bandwidth)", [M_L70, D_H100])
    def _(c, b=_b, ctx=_ctx, p=_prec): return _step(c, b, ctx, p).memory_s

    @figure(f"{_stem}.compute_time", "seconds", "compute time of one decode step: batch × FLOP per token ÷ (GPUs × dense peak)", [M_L70, D_H100])
    def _(c, b=_b, ctx=_ctx, p=_prec): return _step(c, b, ctx, p).compute_s


@figure("speed.ttft.compute", "seconds", "compute time of the prompt: (prompt × FLOP per token + causal attention) ÷ (GPUs × BF16 peak)", [M_L70, D_H100])
def _(c): return M.prefill_times(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)[0]


@figure("speed.ttft.memory", "seconds", "memory time of the prompt: weight bytes read once ÷ (GPUs × HBM bandwidth)", [M_L70, D_H100])
def _(c): return M.prefill_times(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)[1]
