"""The speed page's worked example: time to first token, speed per request, end-to-end latency, a batch.

The example's devices share the weights (tensor parallelism); its context is
the prompt, its batch the batch of the throughput section; the answer's
length is fixed (data/scenarios.py: SPEED_OUTPUT). All values are ceilings:
full bandwidth and peak, no communication (the page says so).
"""

from __future__ import annotations

from ..data import scenarios as S
from ..perf import roofline as M
from .declare import W, L, declarer
from .figures_batch import declare_step, speed, utilisation
from .formula import F
from .terms import weights_read_formula

DECLARATIONS: list = []
figure = declarer(DECLARATIONS, "speed")

BOTH = ["model", "device"]
_TTFT, _OUT = (L("to the first token"), "speed.ttft"), (L("output tokens"), "speed.output")
_ALONE = (L("per request"), "speed.per_request")


@figure("speed.prompt", "tokens", W("scenario: prompt tokens"), [], sig=None, decimals=0)
def prompt(c): return c.ex.context


@figure("speed.output", "tokens", W("scenario: output tokens"), [], sig=None, decimals=0)
def output(c): return S.SPEED_OUTPUT


@figure("speed.batch", "count", W("scenario: batch size"), [], sig=None, decimals=0)
def batch(c): return c.ex.batch


@figure("speed.devices", "count", W("scenario: devices"), [], sig=None, decimals=0)
def devices(c): return c.ex.devices


@figure("flops.llama70b.attention.2000", "flop", W("attention FLOP per new token at this context, over the layers' mixers"), ["model"],
        expression=lambda c: F("{layers} × {four} × {heads} × {dim} × {ctx}", layers=("layers", "model.llama70b.layers"),
                               four=(L("FLOP per value and cached token"), 4), heads=(L("query heads"), "model.llama70b.query_heads"),
                               dim=(L("values per head"), "model.llama70b.head_dim"), ctx=(L("tokens of context"), "speed.prompt"))
        if c.design in ("gqa", "mha") else None)
def attention(c): return c.m.arch.attention_flops(c.ex.context)


declare_step(figure, "speed", 1, lambda c: c.ex.context, "speed.devices", "flops.llama70b.attention.2000", context_figure="speed.prompt")
declare_step(figure, "speed.batched", lambda c: c.ex.batch, lambda c: c.ex.context, "speed.devices", "flops.llama70b.attention.2000",
             batch_figure="speed.batch", context_figure="speed.prompt")


# ------------------------------------------------------------------ time to first token

@figure("ex.weights.read_prompt", "bytes", W("weight bytes the prompt's tokens read together, once"), ["model"],
        expression=lambda c: weights_read_formula(c, c.ex.context, (L("prompt tokens"), "speed.prompt")))
def read_prompt(c): return c.weights_read(c.ex.context)


@figure("speed.ttft.compute", "seconds", W("compute time of the prompt: (prompt × FLOP per token + causal attention) ÷ (devices × BF16 peak)"),
        BOTH, expression=F("({p} × {flops} + {attn} × ({p} + {one}) ÷ {two}) ÷ ({n} × {peak})", p=(L("prompt tokens"), "speed.prompt"),
                           one=("", 1), two=("", 2), attn=(L("for attention at the full prompt"), "flops.llama70b.attention.2000"),
                           flops=(L("per token"), "flops.llama70b.per_token"), n=("devices", "speed.devices"),
                           peak=(L("BF16 peak each"), "device.h100.peak_bf16")))
def ttft_compute(c): return c.prefill[0]


@figure("speed.ttft.memory", "seconds", W("memory time of the prompt: weight bytes read once ÷ (devices × memory bandwidth)"), BOTH,
        expression=F("{w} ÷ ({n} × {bw})", w=(L("read for the prompt"), "ex.weights.read_prompt"), n=("devices", "speed.devices"),
                     bw=(L("memory bandwidth each"), "device.h100.bandwidth")))
def ttft_memory(c): return c.prefill[1]


@figure("speed.ttft", "seconds", W("the slower of the prompt's compute time and memory time"), BOTH,
        expression=F("max({c}, {m})", c=(L("compute time of the prompt"), "speed.ttft.compute"), m=(L("memory time"), "speed.ttft.memory")))
def ttft(c): return max(c.prefill)


# ------------------------------------------------------------------ one request

def _alone(c) -> M.Step:
    return c.step(1, c.ex.context)


def _batched(c) -> M.Step:
    return c.step(c.ex.batch, c.ex.context)


@figure("speed.per_request", "tok_per_s", W("1 ÷ decode step time at batch 1"), BOTH, expression=speed("speed"))
def per_request(c): return _alone(c).tokens_per_s


@figure("speed.step_time", "seconds", W("1 ÷ per-request speed (time between two tokens, batch 1)"), BOTH,
        expression=F("{one} ÷ {speed}", one=(L("token"), 1), speed=_ALONE))
def step_time(c): return _alone(c).time_s


@figure("speed.util", "percent", W("compute time ÷ step time at batch 1 in the speed example"), BOTH, decimals=1,
        expression=utilisation("speed"))
def util(c): return _alone(c).compute_utilisation


@figure("speed.decode_time", "seconds", W("output tokens ÷ per-request speed"), BOTH,
        expression=F("{out} ÷ {speed}", out=_OUT, speed=_ALONE))
def decode_time(c): return S.SPEED_OUTPUT / _alone(c).tokens_per_s


@figure("speed.e2e", "seconds", W("TTFT + output tokens ÷ per-request speed"), BOTH,
        expression=F("{ttft} + {out} ÷ {speed}", ttft=_TTFT, out=_OUT, speed=_ALONE))
def e2e(c): return M.end_to_end_latency(max(c.prefill), S.SPEED_OUTPUT, _alone(c).tokens_per_s)


@figure("speed.ttft_share", "percent", W("TTFT ÷ end-to-end latency"), BOTH, decimals=1,
        expression=F("{ttft} ÷ {e2e}", ttft=_TTFT, e2e=(L("end to end"), "speed.e2e")))
def ttft_share(c): return max(c.prefill) / M.end_to_end_latency(max(c.prefill), S.SPEED_OUTPUT, _alone(c).tokens_per_s)


# ------------------------------------------------------------------ a batch

@figure("speed.per_request_batched", "tok_per_s", W("1 ÷ step time at the batch"), BOTH, expression=speed("speed.batched"))
def per_request_batched(c): return _batched(c).tokens_per_s


@figure("speed.aggregate", "tok_per_s", W("batch ÷ step time"), BOTH,
        expression=F("{b} × {speed}", b=(L("requests in the batch"), "speed.batch"), speed=(L("per request"), "speed.per_request_batched")))
def aggregate(c): return _batched(c).aggregate_tokens_per_s


@figure("speed.aggregate_gain", "ratio", W("aggregate throughput at the batch ÷ throughput at batch 1"), BOTH, sig=2,
        expression=F("{agg} ÷ {one}", agg=(L("for the batch"), "speed.aggregate"), one=(L("at batch 1"), "speed.per_request")))
def aggregate_gain(c): return _batched(c).aggregate_tokens_per_s / _alone(c).tokens_per_s


@figure("speed.per_request_drop", "percent", W("1 − per-request speed at the batch ÷ per-request speed at batch 1"), BOTH, decimals=0,
        expression=F("{one} − {b} ÷ {s}", one=("", 1), b=(L("in the batch"), "speed.per_request_batched"), s=(L("alone"), "speed.per_request")))
def per_request_drop(c): return 1 - _batched(c).tokens_per_s / _alone(c).tokens_per_s


@figure("speed.e2e_batched", "seconds", W("TTFT + output tokens ÷ per-request speed at the batch"), BOTH,
        expression=F("{ttft} + {out} ÷ {speed}", ttft=_TTFT, out=_OUT, speed=(L("per request in the batch"), "speed.per_request_batched")))
def e2e_batched(c): return M.end_to_end_latency(max(c.prefill), S.SPEED_OUTPUT, _batched(c).tokens_per_s)
