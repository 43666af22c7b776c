"""Figures of one decode step: Llama 3.1 70B on H100, the roofline, batching and the speed page's worked example.

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle)."""

from __future__ import annotations

from ..perf import roofline as M
from ..data import scenarios as S
from .figure_base import L70, M_L70, H100, D_H100, registrar

DEFINITIONS = []
figure = registrar(DEFINITIONS)


def _step70(cat, precision="bf16", **kw):
    return M.decode_step(cat.models[L70], cat.devices[H100], compute_precision=precision, **kw)


def _speed_step(c, batch=1, context=S.SPEED_PROMPT):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=batch, context=context)


# ------------------------------------- section 3: one decode step on one GPU

@figure("flops.llama70b.per_token", "flop", "2 × active parameters", [M_L70])
def _(c): return M.flops_per_token_weights(c.models[L70])


@figure("params.llama70b", "params", "catalog: parameters", [M_L70])
def _(c): return c.models[L70].total_params


@figure("params.llama70b.active", "params", "parameters a token multiplies with: all but the input embedding table", [M_L70])
def _(c): return c.models[L70].active_params


@figure("device.h100.peak_bf16", "flop_per_s", "datasheet: dense BF16 peak", [D_H100], sig=None, decimals=0, unit="TFLOP/s")
def _(c): return c.devices[H100].peak_flops["bf16"]


@figure("device.h100.peak_fp8", "flop_per_s", "datasheet: dense FP8 peak", [D_H100], sig=None, decimals=0, unit="TFLOP/s")
def _(c): return c.devices[H100].peak_flops["fp8"]


@figure("device.h100.bandwidth", "bytes_per_s", "datasheet: HBM bandwidth", [D_H100])
def _(c): return c.devices[H100].serving.bytes_per_s


@figure("device.h100.memory", "bytes", "datasheet: HBM capacity", [D_H100], sig=None, decimals=0)
def _(c): return c.devices[H100].serving.bytes


@figure("step.llama70b.h100.compute_time", "seconds", "FLOP per token ÷ dense BF16 peak", [M_L70, D_H100])
def _(c): return _step70(c).compute_s


@figure("step.llama70b.h100.compute_time_fp8", "seconds", "FLOP per token ÷ dense FP8 peak", [M_L70, D_H100])
def _(c): return _step70(c, "fp8").compute_s


@figure("weights.llama70b.bytes", "bytes", "parameters × 2 bytes (BF16)", [M_L70])
def _(c): return M.weight_bytes_stored(c.models[L70])


@figure("weights.llama70b.read_per_token", "bytes", "bytes read per token: every tensor but the input embedding table, of which one row (BF16)", [M_L70])
def _(c): return M.weight_bytes_read(c.models[L70], 1)


@figure("step.llama70b.h100.memory_time", "seconds", "weight bytes ÷ HBM bandwidth", [M_L70, D_H100])
def _(c): return _step70(c).weights_s


@figure("ceiling.llama70b.h100.compute", "tok_per_s", "1 ÷ compute time (BF16 peak)", [M_L70, D_H100], sig=2)
def _(c): return 1.0 / _step70(c).compute_s


@figure("ceiling.llama70b.h100.compute_fp8", "tok_per_s", "1 ÷ compute time (FP8 peak)", [M_L70, D_H100], sig=2)
def _(c): return 1.0 / _step70(c, "fp8").compute_s


@figure("ceiling.llama70b.h100.memory", "tok_per_s", "1 ÷ memory time", [M_L70, D_H100], sig=3)
def _(c): return _step70(c).tokens_per_s


@figure("ratio.llama70b.h100.memory_over_compute", "ratio", "memory time ÷ compute time", [M_L70, D_H100], sig=None, decimals=0)
def _(c):
    s = _step70(c)
    return s.weights_s / s.compute_s


@figure("fit.llama70b.h100.devices", "count", "fewest H100 whose HBM holds the BF16 weights", [M_L70, D_H100], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[L70], c.devices[H100])


# ----------------------------------------------------- section 5: batching

for _b in S.BATCHES:
    @figure(f"batch.llama70b.per_request.{_b}", "tok_per_s", "1 ÷ step time at batch B", [M_L70, D_H100])
    def _(c, b=_b): return M.decode_step(c.models[L70], c.devices[H100], devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT).tokens_per_s

    @figure(f"batch.llama70b.aggregate.{_b}", "tok_per_s", "B ÷ step time at batch B", [M_L70, D_H100])
    def _(c, b=_b): return M.decode_step(c.models[L70], c.devices[H100], devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT).aggregate_tokens_per_s

    @figure(f"batch.size.{_b}", "count", "batch size", [], sig=None, decimals=0)
    def _(c, b=_b): return b


@figure("batch.devices", "count", "GPUs in the tensor-parallel group", [], sig=None, decimals=0)
def _(c): return S.BATCH_DEVICES


@figure("batch.context", "tokens", "context per request", [], sig=None, decimals=0)
def _(c): return S.BATCH_CONTEXT


# ------------------------------------------- "inference speed explained" page

@figure("speed.prompt", "tokens", "scenario: prompt tokens", [], sig=None, decimals=0)
def _(c): return S.SPEED_PROMPT


@figure("speed.output", "tokens", "scenario: output tokens", [], sig=None, decimals=0)
def _(c): return S.SPEED_OUTPUT


@figure("speed.ttft", "seconds", "(prompt × 2 × parameters + causal attention) ÷ (GPUs × BF16 peak)", [M_L70, D_H100])
def _(c): return M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)


@figure("speed.per_request", "tok_per_s", "1 ÷ decode step time at batch 1", [M_L70, D_H100])
def _(c): return _speed_step(c).tokens_per_s


@figure("speed.per_request_fp8", "tok_per_s", "1 ÷ decode step time at batch 1, FP8 weights", [M_L70, D_H100])
def _(c):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=S.SPEED_PROMPT,
                         weight_precision="fp8", compute_precision="fp8").tokens_per_s


@figure("speed.e2e", "seconds", "TTFT + output tokens ÷ per-request speed", [M_L70, D_H100])
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate", "tok_per_s", "batch ÷ step time", [M_L70, D_H100])
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s


@figure("speed.per_request_batched", "tok_per_s", "1 ÷ step time at the batch", [M_L70, D_H100])
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s


@figure("speed.util", "percent", "compute time ÷ step time at batch 1 in the speed example", [M_L70, D_H100], decimals=1)
def _(c): return _speed_step(c).compute_utilisation


@figure("speed.batch", "count", "scenario: batch size", [], sig=None, decimals=0)
def _(c): return S.SPEED_BATCH


@figure("speed.devices", "count", "scenario: GPUs", [], sig=None, decimals=0)
def _(c): return S.SPEED_DEVICES


@figure("util.llama70b.batch1", "percent", "compute time ÷ step time at batch 1 (speed scenario GPUs, first article context)", [M_L70, D_H100], decimals=1)
def _(c): return _speed_step(c, 1, S.CONTEXTS[0]).compute_utilisation


@figure("util.llama70b.batch_large", "percent", "compute time ÷ step time at batch 64 (speed scenario GPUs, first article context)", [M_L70, D_H100], decimals=0)
def _(c): return _speed_step(c, S.UTIL_BATCH, S.CONTEXTS[0]).compute_utilisation


# === figures added for the article (docs/*/decode.md) ===

# Section 2: bytes per BF16 value, the last factor of the KV and weight formulas.
@figure("precision.bf16.bytes", "bytes", "bits per BF16 value ÷ 8", [], sig=None, decimals=0, unit="B")
def _(c): return M._bytes("bf16")


# Section 3: the roofline of one H100 and where decode at batch 1 sits on it.
@figure("device.h100.ridge", "count", "dense BF16 peak ÷ HBM bandwidth (FLOP per byte)", [D_H100], sig=None, decimals=0)
def _(c): return c.devices[H100].peak_flops["bf16"] / c.devices[H100].serving.bytes_per_s


@figure("intensity.llama70b.batch1", "count", "FLOP per token ÷ weight bytes read per token (FLOP per byte, batch 1)", [M_L70], sig=None, decimals=1)
def _(c): return M.flops_per_token_weights(c.models[L70]) / M.weight_bytes_read(c.models[L70], 1)



# "Inference speed explained": derived quantities of the worked example.
@figure("speed.step_time", "seconds", "1 ÷ per-request speed (time between two tokens, batch 1)", [M_L70, D_H100])
def _(c): return _speed_step(c).time_s


@figure("speed.decode_time", "seconds", "output tokens ÷ per-request speed", [M_L70, D_H100])
def _(c): return S.SPEED_OUTPUT / _speed_step(c).tokens_per_s


@figure("speed.ttft_share", "percent", "TTFT ÷ end-to-end latency", [M_L70, D_H100], decimals=1)
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return ttft / M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate_gain", "ratio", "aggregate throughput at the batch ÷ throughput at batch 1", [M_L70, D_H100], sig=2)
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.per_request_drop", "percent", "1 − per-request speed at the batch ÷ per-request speed at batch 1", [M_L70, D_H100], decimals=0)
def _(c): return 1 - _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.e2e_batched", "seconds", "TTFT + output tokens ÷ per-request speed at the batch", [M_L70, D_H100])
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s)


# === figures added for the glossary's new entries (docs/*/glossary.md, issue 10 part 4) ===

# Arithmetic intensity: one read of the weights serves every request of the batch.
@figure("intensity.llama70b.batch.64", "count", "batch × FLOP per token ÷ weight bytes read per step (FLOP per byte, batch 64)", [M_L70], sig=None, decimals=0)
def _(c): return 64 * M.flops_per_token_weights(c.models[L70]) / M.weight_bytes_read(c.models[L70], 64)


# Tensor parallelism: every GPU of the speed example holds and reads a slice of each layer.
@figure("tp.llama70b.weights_per_gpu", "bytes", "BF16 weight bytes ÷ GPUs (speed scenario)", [M_L70])
def _(c): return M.weight_bytes_stored(c.models[L70]) / S.SPEED_DEVICES


# Pipeline parallelism: the fewest H100 that hold the weights, each with a run of whole layers.
@figure("pp.llama70b.layers_per_gpu", "count", "layers ÷ fewest H100 whose HBM holds the BF16 weights", [M_L70, D_H100], sig=None, decimals=0)
def _(c): return c.models[L70].layers / M.min_devices(c.models[L70], c.devices[H100])
