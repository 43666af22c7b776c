"""Formula objects of one decode step: the roofline, batching and the speed page's worked example.

Roofline steps: the slower of memory time and compute time sets the pace, max(…, …);
the two sides are intermediate figures (calculators/figure_terms.py).
"""

from __future__ import annotations

from ..data import scenarios as S
from .formula import F

L70 = "model.llama70b"
_B2 = ("per value (BF16)", "precision.bf16.bytes")
FORMULAS = {}
FORMULAS.update({
    "flops.llama70b.per_token": F("{two} × {params}", two=("FLOP per parameter", 2), params=("parameters", "params.llama70b.active")),
    "weights.llama70b.bytes": F("{params} × {bytes}", params=("parameters", "params.llama70b"), bytes=("per parameter (BF16)", "precision.bf16.bytes")),
    "step.llama70b.h100.compute_time": F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("BF16 peak", "device.h100.peak_bf16")),
    "step.llama70b.h100.compute_time_fp8": F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("FP8 peak", "device.h100.peak_fp8")),
    "step.llama70b.h100.memory_time": F("{weights} ÷ {bw}", weights=("read per token", "weights.llama70b.read_per_token"), bw=("HBM bandwidth", "device.h100.bandwidth")),
    "ceiling.llama70b.h100.memory": F("{one} ÷ {t}", one=("token", 1), t=("memory time per token", "step.llama70b.h100.memory_time")),
    "ceiling.llama70b.h100.compute": F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time")),
    "ceiling.llama70b.h100.compute_fp8": F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time_fp8")),
    "ratio.llama70b.h100.memory_over_compute": F("{m} ÷ {c}", m=("memory time", "step.llama70b.h100.memory_time"),
                                                   c=("compute time", "step.llama70b.h100.compute_time")),
    "device.h100.ridge": F("{peak} ÷ {bw}", peak=("BF16 peak", "device.h100.peak_bf16"), bw=("HBM bandwidth", "device.h100.bandwidth")),
    "intensity.llama70b.batch1": F("{flops} ÷ {weights}", flops=("per token", "flops.llama70b.per_token"), weights=("read per token", "weights.llama70b.read_per_token")),
    "speed.e2e": F("{ttft} + {out} ÷ {speed}", ttft=("to the first token", "speed.ttft"), out=("output tokens", "speed.output"),
                   speed=("per request", "speed.per_request")),
    "speed.step_time": F("{one} ÷ {speed}", one=("token", 1), speed=("per request", "speed.per_request")),
    "speed.decode_time": F("{out} ÷ {speed}", out=("output tokens", "speed.output"), speed=("per request", "speed.per_request")),
    "speed.ttft_share": F("{ttft} ÷ {e2e}", ttft=("to the first token", "speed.ttft"), e2e=("end to end", "speed.e2e")),
    "speed.aggregate": F("{b} × {speed}", b=("requests in the batch", "speed.batch"), speed=("per request", "speed.per_request_batched")),
    "speed.aggregate_gain": F("{agg} ÷ {one}", agg=("for the batch", "speed.aggregate"), one=("at batch 1", "speed.per_request")),
    "speed.per_request_drop": F("{one} − {b} ÷ {s}", one=("", 1), b=("in the batch", "speed.per_request_batched"), s=("alone", "speed.per_request")),
})
_SPEED = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"), w=("read per token", "weights.llama70b.read_per_token"),
              ctx=("tokens of context each", "speed.prompt"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"))
FORMULAS.update({
    "speed.per_request": F("{n} × {bw} ÷ ({w} + {ctx} × {kv})", **_SPEED),
    "speed.per_request_batched": F("{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", b=("requests", "speed.batch"), **_SPEED),
    "speed.e2e_batched": F("{ttft} + {out} ÷ {speed}", ttft=("to the first token", "speed.ttft"), out=("output tokens", "speed.output"),
                           speed=("per request in the batch", "speed.per_request_batched")),
    "weights.llama70b.read_per_token": F("({active} + {row}) × {bytes}", active=("parameters a token multiplies with", "params.llama70b.active"),
                                         row=("values in one embedding row", "model.llama70b.hidden"),
                                         bytes=("per parameter (BF16)", "precision.bf16.bytes")),
    "tp.llama70b.weights_per_gpu": F("{w} ÷ {n}", w=("of weights", "weights.llama70b.bytes"), n=("GPUs", "speed.devices")),
    "pp.llama70b.layers_per_gpu": F("{layers} ÷ {n}", layers=("layers", f"{L70}.layers"), n=("H100 GPUs", "fit.llama70b.h100.devices")),
    "ep.gpt-oss-120b.experts_per_gpu": F("{e} ÷ {n}", e=("experts per layer", "model.gpt-oss-120b.experts"), n=("GPUs", "speed.devices")),
})
for _b in (1, 8, 32, 64, 128):
    FORMULAS[f"batch.llama70b.per_request.{_b}"] = F(
        "{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", n=("GPUs", "batch.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
        w=("read per token", "weights.llama70b.read_per_token"), b=("requests", f"batch.size.{_b}"), ctx=("tokens of context each", "batch.context"),
        kv=("KV cache per token", "kv.llama70b.bytes_per_token"))
    FORMULAS[f"batch.llama70b.aggregate.{_b}"] = F("{b} × {speed}", b=("requests", f"batch.size.{_b}"),
                                                     speed=("per request", f"batch.llama70b.per_request.{_b}"))
# Roofline steps: the slower of memory time and compute time sets the pace, max(…, …).
_ACT, _ROW = ("parameters a token multiplies with", "params.llama70b.active"), ("values in one embedding row", "model.llama70b.hidden")
_STEP = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
             kv=("KV cache per token", "kv.llama70b.bytes_per_token"), flops=("per token", "flops.llama70b.per_token"))
_ATTN = {"speed.prompt": S.SPEED_PROMPT, f"context.{S.CONTEXTS[0]}": S.CONTEXTS[0]}   # context figure -> its tokens
for _ctx_fig, _n in _ATTN.items():
    FORMULAS[f"flops.llama70b.attention.{_n}"] = F(
        "{layers} × {four} × {heads} × {dim} × {ctx}", layers=("layers", f"{L70}.layers"),
        four=("FLOP per value and cached token", 4), heads=("query heads", f"{L70}.query_heads"),
        dim=("values per head", f"{L70}.head_dim"), ctx=("tokens of context", _ctx_fig))
for _stem, _b, _ctx, _bytes, _peak in (
        ("speed", None, "speed.prompt", _B2, ("BF16 peak each", "device.h100.peak_bf16")),
        ("speed.fp8", None, "speed.prompt", ("per value (FP8)", "precision.fp8.bytes"), ("FP8 peak each", "device.h100.peak_fp8")),
        ("util.llama70b.batch1", None, f"context.{S.CONTEXTS[0]}", _B2, ("BF16 peak each", "device.h100.peak_bf16")),
        ("util.llama70b.batch_large", f"batch.size.{S.UTIL_BATCH}", f"context.{S.CONTEXTS[0]}", _B2, ("BF16 peak each", "device.h100.peak_bf16"))):
    _ctx_term = dict(ctx=("tokens of context each", _ctx), attn=("for attention", f"flops.llama70b.attention.{_ATTN[_ctx]}"))
    if _b:
        FORMULAS[f"{_stem}.memory_time"] = F("(({act} + {b} × {row}) × {bytes} + {b} × {ctx} × {kv}) ÷ ({n} × {bw})",
                                             b=("requests", _b), act=_ACT, row=_ROW, bytes=_bytes, **_ctx_term, **_STEP)
        FORMULAS[f"{_stem}.compute_time"] = F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=("requests", _b), peak=_peak,
                                              **_ctx_term, **_STEP)
    else:
        FORMULAS[f"{_stem}.memory_time"] = F("(({act} + {row}) × {bytes} + {ctx} × {kv}) ÷ ({n} × {bw})",
                                             act=_ACT, row=_ROW, bytes=_bytes, **_ctx_term, **_STEP)
        FORMULAS[f"{_stem}.compute_time"] = F("({flops} + {attn}) ÷ ({n} × {peak})", peak=_peak, **_ctx_term, **_STEP)
_SIDES = lambda stem: dict(m=("memory time", f"{stem}.memory_time"), c=("compute time", f"{stem}.compute_time"))  # noqa: E731
FORMULAS.update({
    "speed.per_request_fp8": F("{one} ÷ max({m}, {c})", one=("token", 1), **_SIDES("speed.fp8")),
    "speed.util": F("{c} ÷ max({m}, {c})", **_SIDES("speed")),
    "util.llama70b.batch1": F("{c} ÷ max({m}, {c})", **_SIDES("util.llama70b.batch1")),
    "util.llama70b.batch_large": F("{c} ÷ max({m}, {c})", **_SIDES("util.llama70b.batch_large")),
    "speed.ttft": F("max({c}, {m})", c=("compute time of the prompt", "speed.ttft.compute"), m=("memory time", "speed.ttft.memory")),
    "speed.ttft.compute": F("({p} × {flops} + {attn} × ({p} + {one}) ÷ {two}) ÷ ({n} × {peak})", p=("prompt tokens", "speed.prompt"),
                            one=("", 1), two=("", 2), attn=("for attention at the full prompt", f"flops.llama70b.attention.{S.SPEED_PROMPT}"),
                            peak=("BF16 peak each", "device.h100.peak_bf16"), **{k: v for k, v in _STEP.items() if k != "kv"}),
    "speed.ttft.memory": F("({act} + {p} × {row}) × {bytes} ÷ ({n} × {bw})", act=_ACT, p=("prompt tokens", "speed.prompt"), row=_ROW,
                           bytes=_B2, n=_STEP["n"], bw=_STEP["bw"]),
    "intensity.llama70b.batch.64": F("{b} × {flops} ÷ (({act} + {b} × {row}) × {bytes})", b=("requests", "batch.size.64"),
                                     flops=_STEP["flops"], act=_ACT, row=_ROW, bytes=_B2),
})
