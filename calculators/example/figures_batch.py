"""Batching in the running example (main article, section 5) and the roofline steps its figures add up.

A decode step on the example's devices (tensor parallel), for a batch at a
context, is declared as two figures under one stem, its memory time and its
compute time, each with the formula the model computes (calculators/perf/roofline.py:
weights read once for the batch and split over the devices, each request's
KV cache split as far as its heads allow, fixed state read and written back,
the arithmetic at the dense BF16 peak); a speed or a utilisation reads the
slower of the two. `declare_step` is used for the batching list, the two
utilisations and the speed page's steps (calculators/example/figures_speed.py).

A batch whose KV cache does not fit beside the weights on the devices has
no speed: the list says so instead (calculators/example/variants.py).
"""

from __future__ import annotations

from ..data import scenarios as S
from .declare import W, L, declarer
from .formula import F
from .terms import kv_read_formula, weights_read_formula

DECLARATIONS: list = []
figure = declarer(DECLARATIONS, "decode")
constant = declarer(DECLARATIONS, "both")

BOTH = ["model", "device"]
COMPUTE, MEMORY = ("compute time", ""), ("memory time", "")


def _shards(c) -> int | None:
    """Into how many parts the devices split every growing layer's cache, where that is one number."""
    found = {g.spec.kv_shards(c.ex.devices) for g in c.growing}
    return found.pop() if len(found) == 1 else None


def declare_step(figure, stem: str, batch, context, devices: str, attention: str, fits_only: bool = False,
                 batch_figure: str | None = None, context_figure: str = "batch.context"):
    """The figures of one step: `{stem}.weights`, `{stem}.kv`, `{stem}.kv_device`, `{stem}.memory_time`, `{stem}.compute_time`.

    `batch` and `context` are functions of the case (or numbers), `devices` and `attention` the figures
    that print the device count and the attention FLOPs at this context; with `fits_only`, a batch
    that does not fit has no step."""
    b_of = batch if callable(batch) else (lambda c, b=batch: b)
    ctx_of = context if callable(context) else (lambda c, n=context: n)

    def ok(c):
        return not fits_only or c.fits(c.ex.devices, ctx_of(c), b_of(c))

    def step(c):
        return c.step(b_of(c), ctx_of(c))

    def weights_formula(c):
        if b_of(c) == 1:
            return F("{w}", w=(L("read per token"), "weights.llama70b.read_per_token"))
        return weights_read_formula(c, b_of(c), ("requests", batch_figure) if batch_figure else ("requests", b_of(c)))
    figure(f"{stem}.weights", "bytes", W("weight bytes a step reads for the whole batch"), ["model"], expression=weights_formula)(
        lambda c: c.weights_read(b_of(c)) if ok(c) else None)
    figure(f"{stem}.kv", "bytes", W("KV cache one decode step reads for one request"), ["model"],
           expression=lambda c: kv_read_formula(c, (L("tokens of context"), context_figure)))(
        lambda c: c.m.arch.kv_read_bytes(ctx_of(c), c.kv) if ok(c) else None)

    def kv_device_formula(c):
        n = _shards(c)
        return F("{kv} ÷ {split}", kv=(L("per request"), f"{stem}.kv"), split=("parts the KV cache is split into", n)) if n else None
    figure(f"{stem}.kv_device", "bytes", W("KV cache each device reads per request: the heads split over the devices as far as they go"),
           ["model"], expression=kv_device_formula)(
        lambda c: c.m.arch.kv_read_bytes_per_device(ctx_of(c), c.kv, c.ex.devices) if ok(c) else None)

    def memory_formula(c):
        expr = "({w} ÷ {n} + {b} × {kv}) ÷ {bw}"
        terms = dict(w=(L("weights"), f"{stem}.weights"), n=("devices", devices), b=("requests", b_of(c)),
                     kv=(L("KV cache each"), f"{stem}.kv_device"), bw=(L("memory bandwidth each"), "device.h100.bandwidth"))
        state = c.m.arch.state_traffic_bytes_per_device(c.ex.devices)
        if state:
            expr = "({w} ÷ {n} + {b} × ({kv} + {st})) ÷ {bw}"
            terms["st"] = (L("fixed state read and written back"), state)
        return F(expr, **terms)
    figure(f"{stem}.memory_time", "seconds", W("memory time of one decode step: (weight bytes + KV bytes) ÷ (devices × memory bandwidth)"),
           BOTH, expression=memory_formula)(lambda c: step(c).memory_s if ok(c) else None)

    def compute_formula(c):
        return F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=("requests", b_of(c)),
                 flops=(L("per token"), "flops.llama70b.per_token"), attn=(L("for attention"), attention),
                 n=("devices", devices), peak=(L("BF16 peak each"), "device.h100.peak_bf16"))
    figure(f"{stem}.compute_time", "seconds", W("compute time of one decode step: batch × FLOP per token ÷ (devices × dense peak)"), BOTH,
           expression=compute_formula)(lambda c: step(c).compute_s if ok(c) else None)
    return stem


def speed(stem: str) -> F:
    return F("{one} ÷ max({m}, {c})", one=(L("token"), 1), m=(L("memory time"), f"{stem}.memory_time"),
             c=(L("compute time"), f"{stem}.compute_time"))


def utilisation(stem: str) -> F:
    return F("{c} ÷ max({m}, {c})", m=(L("memory time"), f"{stem}.memory_time"), c=(L("compute time"), f"{stem}.compute_time"))


# ------------------------------------------------------------------ the example's group and context

@figure("batch.devices", "count", W("scenario: devices in the tensor-parallel group"), [], sig=None, decimals=0)
def devices(c): return c.ex.devices


@figure("batch.context", "tokens", W("context per request"), [], sig=None, decimals=0)
def context(c): return c.ex.context


@figure("ex.batch", "count", W("batch size"), [], sig=None, decimals=0)
def batch(c): return c.ex.batch


@figure("flops.llama70b.attention.8192", "flop",
        W("attention FLOP per new token at this context, over the layers' mixers"), ["model"],
        expression=lambda c: F("{layers} × {four} × {heads} × {dim} × {ctx}", layers=("layers", "model.llama70b.layers"),
                               four=(L("FLOP per value and cached token"), 4), heads=(L("query heads"), "model.llama70b.query_heads"),
                               dim=(L("values per head"), "model.llama70b.head_dim"), ctx=(L("tokens of context"), "batch.context"))
        if c.design in ("gqa", "mha") else None)
def attention(c): return c.m.arch.attention_flops(c.ex.context)


# ------------------------------------------------------------------ the batching list

for _b in S.BATCHES:
    constant(f"batch.size.{_b}", "count", W("batch size"), [], sig=None, decimals=0)(lambda c, b=_b: b)
    declare_step(figure, f"ex.batch.{_b}", _b, lambda c: c.ex.context, "batch.devices", "flops.llama70b.attention.8192",
                 fits_only=True, batch_figure=f"batch.size.{_b}")
    figure(f"batch.llama70b.per_request.{_b}", "tok_per_s", W("1 ÷ step time at batch B"), BOTH, expression=speed(f"ex.batch.{_b}"))(
        lambda c, b=_b: c.step(b, c.ex.context).tokens_per_s if c.fits(c.ex.devices, c.ex.context, b) else None)
    figure(f"batch.llama70b.aggregate.{_b}", "tok_per_s", W("B ÷ step time at batch B"), BOTH,
           expression=F("{b} × {speed}", b=("requests", f"batch.size.{_b}"), speed=(L("per request"), f"batch.llama70b.per_request.{_b}")))(
        lambda c, b=_b: c.step(b, c.ex.context).aggregate_tokens_per_s if c.fits(c.ex.devices, c.ex.context, b) else None)


# ------------------------------------------------------------------ how busy the arithmetic is

declare_step(figure, "util.llama70b.batch1", 1, lambda c: c.ex.context, "batch.devices", "flops.llama70b.attention.8192")
declare_step(figure, "util.llama70b.batch_large", lambda c: c.ex.batch, lambda c: c.ex.context, "batch.devices",
             "flops.llama70b.attention.8192", batch_figure="ex.batch")


@figure("util.llama70b.batch1", "percent", W("compute time ÷ step time at batch 1"), BOTH, decimals=1,
        expression=utilisation("util.llama70b.batch1"))
def util_one(c): return c.step(1, c.ex.context).compute_utilisation


@figure("util.llama70b.batch_large", "percent", W("compute time ÷ step time at the example's batch"), BOTH, decimals=0,
        expression=utilisation("util.llama70b.batch_large"))
def util_batch(c): return c.step(c.ex.batch, c.ex.context).compute_utilisation


@figure("ex.batch.gain", "ratio", W("throughput at the largest batch of the list that fits ÷ throughput at batch 1"), BOTH, sig=2,
        expression=lambda c: F("{a} ÷ {one}", a=(L("at the largest batch that fits"), f"batch.llama70b.aggregate.{_largest(c)}"),
                               one=(L("at batch 1"), "batch.llama70b.aggregate.1")) if _largest(c) else None)
def gain(c):
    b = _largest(c)
    return c.step(b, c.ex.context).aggregate_tokens_per_s / c.step(1, c.ex.context).aggregate_tokens_per_s if b else None


def _largest(c) -> int | None:
    fitting = [b for b in S.BATCHES if c.fits(c.ex.devices, c.ex.context, b)]
    return fitting[-1] if fitting else None
