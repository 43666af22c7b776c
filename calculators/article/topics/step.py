"""Figures of one decode step that are not the running example: Llama 3.1 70B on H100 for the glossary and the
claims (its FP8 speed), and the bytes of a BF16 value the fixed formulas read."""

from __future__ import annotations

from ...arch import precision as P
from ...data import scenarios as S
from ...perf import roofline as M
from ...example.figure import H100, LLAMA_70B, declarer
from ...example.formula import F
from .models import B2

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

L70_IN, H100_IN = [f"models.{LLAMA_70B}"], [f"devices.{H100}"]
BOTH = L70_IN + H100_IN
ACTIVE, ROW = ("parameters a token multiplies with", "params.llama70b.active"), ("values in one embedding row", "model.llama70b.hidden")
STEP_TERMS = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
                  kv=("KV cache per token", "kv.llama70b.bytes_per_token"), flops=("per token", "flops.llama70b.per_token"))


# The running example's step (section 3), batching (section 5) and the speed page's worked example are
# functions of the example: calculators/example/figures_step.py, figures_batch.py, figures_speed.py.

@figure("speed.per_request_fp8", "tok_per_s", "1 ÷ decode step time at batch 1, FP8 weights", BOTH,
        expression=F("{one} ÷ max({m}, {c})", one=("token", 1), m=("memory time", "speed.fp8.memory_time"),
                     c=("compute time", "speed.fp8.compute_time")))
def speed_per_request_fp8(c):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=S.SPEED_PROMPT,
                         weight_precision="fp8", compute_precision="fp8").tokens_per_s


# Section 2: bytes per BF16 value, the last factor of the KV and weight formulas.
@figure("precision.bf16.bytes", "bytes", "bits per BF16 value ÷ 8", [], definition=True, sig=None, decimals=0, unit="B",
        expression=F("{bits} ÷ {eight}", bits=("bits per BF16 value", 16), eight=("bits per byte", 8)))
def bf16_bytes(c): return P.BF16.bytes


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


# ---------------------------------------------- terms: the two sides of the FP8 roofline step

# The claims' FP8 speed (claims.py offers it): Llama 3.1 70B with FP8 weights on the speed example's H100s, at its
# prompt; fixed, not the running example (whose steps are declared in calculators/example/figures_batch.py).
def _fp8_step(c):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=S.SPEED_PROMPT,
                         weight_precision="fp8", compute_precision="fp8")


_FP8_CTX = dict(ctx=("tokens of context each", "speed.prompt"), attn=("for attention", f"flops.llama70b.attention.{S.SPEED_PROMPT}"))


@figure("speed.fp8.memory_time", "seconds", "memory time of one decode step: (weight bytes + KV bytes) ÷ (GPUs × HBM bandwidth)", BOTH,
        expression=F("(({act} + {row}) × {bytes} + {ctx} × {kv}) ÷ ({n} × {bw})", act=ACTIVE, row=ROW,
                     bytes=("per value (FP8)", "precision.fp8.bytes"), **_FP8_CTX, **STEP_TERMS))
def fp8_memory(c): return _fp8_step(c).memory_s


@figure("speed.fp8.compute_time", "seconds", "compute time of one decode step: batch × FLOP per token ÷ (GPUs × dense peak)", BOTH,
        expression=F("({flops} + {attn}) ÷ ({n} × {peak})", peak=("FP8 peak each", "device.h100.peak_fp8"), **_FP8_CTX, **STEP_TERMS))
def fp8_compute(c): return _fp8_step(c).compute_s
