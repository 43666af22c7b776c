"""Figures of the models: their configs, the KV cache per token and per context, mixture of experts, GQA and MLA.

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle)."""

from __future__ import annotations

from ..perf import roofline as M
from ..data import scenarios as S
from .figure_base import L70, GPT, DS3, M_L70, M_GPT, M_DS3, registrar

DEFINITIONS = []
figure = registrar(DEFINITIONS)


# ------------------------------------------------- section 2: KV cache size

@figure("kv.llama70b.bytes_per_token", "bytes", "layers × 2 (K and V) × KV heads × head dimension × bytes per value (BF16: 2)", [M_L70], sig=None, decimals=0, unit="B")
def _(c): return M.kv_bytes_per_token(c.models[L70], "bf16")


@figure("kv.llama70b.bytes_per_token_short", "bytes", "the same, in kilobytes", [M_L70])
def _(c): return M.kv_bytes_per_token(c.models[L70], "bf16")


@figure("model.llama70b.layers", "count", "catalog: layers", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].layers


@figure("model.llama70b.kv_heads", "count", "catalog: KV heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].kv_heads


@figure("model.llama70b.head_dim", "count", "catalog: head dimension", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].head_dim


for _ctx in S.CONTEXTS:
    @figure(f"context.{_ctx}", "tokens", "context length in tokens (1K = 1,024)", [], sig=None, decimals=0)
    def _(c, n=_ctx): return n

    @figure(f"kv.llama70b.total.{_ctx}", "bytes", "KV bytes per token × context tokens", [M_L70])
    def _(c, n=_ctx): return M.kv_bytes(c.models[L70], n)

    @figure(f"kv.llama70b.total_gib.{_ctx}", "bytes", "the same total in binary gibibytes (2^30 bytes)", [M_L70], unit="GiB")
    def _(c, n=_ctx): return M.kv_bytes(c.models[L70], n)


# ------------------------------------------------ section 4: mixture of experts

@figure("params.deepseek-v3.total", "params", "catalog: total parameters", [M_DS3])
def _(c): return c.models[DS3].total_params


@figure("params.deepseek-v3.active", "params", "catalog: active parameters per token", [M_DS3], sig=2)
def _(c): return c.models[DS3].active_params


@figure("share.deepseek-v3.active", "percent", "active ÷ total parameters", [M_DS3], decimals=1)
def _(c): return c.models[DS3].active_params / c.models[DS3].total_params


for _key, _m in (("llama70b", L70), ("deepseek-v3", DS3), ("gpt-oss-120b", GPT)):
    @figure(f"kv.{_key}.bytes_per_token_long", "bytes", "KV bytes one more token adds at long context (BF16 cache)", [f"models.{_m}"])
    def _(c, m=_m): return M.kv_bytes_per_token(c.models[m], "bf16")


@figure("kv.gpt-oss-120b.bytes_per_token_short", "bytes", "KV bytes per token while the context fits the sliding window (all layers grow)", [M_GPT])
def _(c): return M.kv_bytes_per_token(c.models[GPT], "bf16", context=1)


@figure("model.gpt-oss-120b.window", "tokens", "catalog: sliding window", [M_GPT], sig=None, decimals=0)
def _(c): return c.models[GPT].sliding_window


@figure("model.llama70b.hidden", "count", "catalog: hidden size (values in one embedding row)", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].hidden



# Glossary: grouped-query attention against full multi-head attention.
@figure("model.llama70b.query_heads", "count", "catalog: query heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].query_heads


@figure("kv.llama70b.bytes_per_token_mha", "bytes", "as KV bytes per token, with one KV head per query head (multi-head attention)", [M_L70])
def _(c):
    m = c.models[L70]
    return M.kv_bytes_per_token(m.variant(num_key_value_heads=m.query_heads), "bf16")


@figure("gqa.llama70b.factor", "ratio", "query heads ÷ KV heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].query_heads / c.models[L70].kv_heads



# Multi-head latent attention: what DeepSeek V3 caches per token and layer.
@figure("model.deepseek-v3.layers", "count", "catalog: layers", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].layers


@figure("model.deepseek-v3.kv_lora_rank", "count", "catalog: values in the compressed latent per token and layer", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].kv_lora_rank


@figure("model.deepseek-v3.rope_dim", "count", "catalog: values of the positional (RoPE) key per token and layer", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].qk_rope_head_dim
