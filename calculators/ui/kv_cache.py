"""The KV cache calculator: bytes per token and in total, one request's cache and state as computed and as vLLM
allocates it, and whether the cache fits one device's memory."""

from __future__ import annotations

from ..data import serving
from ..perf import engine_memory as E
from ..perf import roofline as M
from ..text import fmt
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .config_messages import R_STATE
from .fields import BATCH, CONFIG, CONTEXT, DEVICE, KV_PRECISION, CountField, ModelField
from .messages import N_

V_FITS, V_NO_FIT = N_("the KV cache alone fits on one device"), N_("the KV cache alone does not fit on one device")
R_PER_TOKEN, R_TOTAL = N_("KV cache per token of context"), N_("KV cache in total")
R_MEMORY, R_SHARE = N_("Memory of one device"), N_("Share of that memory")
R_REQUEST = N_("Cache and state of one request, as calculated")
# vLLM's paged allocator (serving.toml [allocators.vllm], calculators/perf/engine_memory.py): the value links its source
R_ALLOCATED = N_("Cache and state of one request, as vLLM allocates it (pages of {block} tokens)")
ALLOCATOR = "vllm"


def request_rows(m, context: int, kv_precision: str, locale: str) -> list:
    """One request: its fixed state (linear-attention and state-space layers, where it has some), its cache and
    state by the arithmetic, and as vLLM's allocator holds them in pages (left out where its layout is not modelled:
    sparse attention)."""
    q = lambda v: fmt.format_quantity(v, "bytes", locale)  # noqa: E731
    state = M.state_bytes(m, 1)
    rows = [Row(R_STATE, q(state))] if state > 0 else []
    allocator = serving.load().allocators[ALLOCATOR]
    try:
        held = E.request_memory(m.arch, context, kv_precision, allocator)
    except E.AllocationError:
        return rows + [Row(R_REQUEST, q(M.cache_bytes(m, context, 1, kv_precision)))]
    return rows + [Row(R_REQUEST, q(held.total)),
                   Row(R_ALLOCATED, q(held.allocated_total), href=allocator.src.url,
                       label_fill=(("block", fmt.format_number(held.block_tokens, locale), False),))]


class KVCache(Calculator):
    name = "kv_cache"
    title = N_("KV cache calculator")
    fields = (ModelField("model", N_("Model"), with_custom=True), CONFIG,
              CountField("layers", N_("Layers"), hi=1000, custom=True),
              CountField("kv_heads", N_("KV heads per layer"), hi=1024, custom=True),
              CountField("head_dim", N_("Head dimension"), hi=4096, custom=True),
              KV_PRECISION, CONTEXT, BATCH, DEVICE)

    def _defaults(self) -> dict:
        return {"model": "llama-3.1-70b", "kv_precision": "bf16", "context": 32 * 1024, "batch": 1,
                "device": I.DEFAULT_DEVICE, "layers": 80, "kv_heads": 8, "head_dim": 128, "config": ""}

    def check(self, values, locale, tr, cat):
        return checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat)

    def result(self, inputs, locale, cat) -> Result:
        m = I.model(inputs, cat)
        d = cat.devices[inputs["device"]]
        ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
        total = M.kv_bytes(m, ctx, batch, prec)
        q = lambda v: fmt.format_quantity(v, "bytes", locale)  # noqa: E731
        rows = [Row(R_PER_TOKEN, q(M.kv_bytes_per_token(m, prec, context=ctx))), Row(R_TOTAL, q(total))]
        rows += request_rows(m, ctx, prec, locale)
        rows += [Row(R_MEMORY, q(d.serving.bytes)),
                 Row(R_SHARE, fmt.format_percent(total / d.serving.bytes, locale, decimals=0))]
        return Result(rows, V_FITS if total <= d.serving.bytes else V_NO_FIT)

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.kv_cache(inputs, locale, tr, chart_id, cat)
