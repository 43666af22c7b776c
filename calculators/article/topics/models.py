"""Figures of the models: their configs, the KV cache per token and per context, mixture of experts, GQA and MLA,
and the terms the sums over a model's mixed layers read (one per attention kind or precision group)."""

from __future__ import annotations

from ...arch import precision as P
from ...perf import roofline as M
from ...example.figure import DEEPSEEK_V3, GPT_OSS_120B, LLAMA_70B, MINIMAX_M2, declarer
from ...example.formula import F

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

L70_IN, GPT_IN, DS3_IN = [f"models.{LLAMA_70B}"], [f"models.{GPT_OSS_120B}"], [f"models.{DEEPSEEK_V3}"]
B2, BITS8 = ("per value (BF16)", "precision.bf16.bytes"), ("bits per byte", 8)
MXFP4, FP8_B128 = ("bits per MXFP4 value", "precision.mxfp4.bits"), ("bits per FP8 value with block scales", "precision.fp8_b128.bits")


def _kv_formula(heads: tuple) -> F:
    """KV bytes per token of Llama 3.1 70B: layers × K and V × heads × head dimension × bytes (BF16)."""
    return F("{layers} × {kv} × {heads} × {dim} × {bytes}", layers=("layers", "model.llama70b.layers"), kv=("K and V", 2),
             heads=heads, dim=("values per head", "model.llama70b.head_dim"), bytes=B2)


KV_L70 = _kv_formula(("KV heads", "model.llama70b.kv_heads"))


# The running example's KV cache (section 2) is a function of the example: calculators/example/figures_kv.py.

# ------------------------------------------------ section 4: mixture of experts

@figure("params.deepseek-v3.total", "params", "catalog: total parameters", DS3_IN)
def deepseek_v3_total(c): return c.models[DEEPSEEK_V3].total_params


@figure("params.deepseek-v3.active", "params", "catalog: active parameters per token", DS3_IN, sig=2)
def deepseek_v3_active(c): return c.models[DEEPSEEK_V3].active_params


@figure("share.deepseek-v3.active", "percent", "active ÷ total parameters", DS3_IN, decimals=1,
        expression=F("{active} ÷ {total}", active=("active parameters", "params.deepseek-v3.active"),
                     total=("parameters in total", "params.deepseek-v3.total")))
def deepseek_v3_active_share(c): return c.models[DEEPSEEK_V3].active_params / c.models[DEEPSEEK_V3].total_params


# KV bytes one more token adds at long context, three attention designs side by side.
_GPT_KV = dict(full=("layers with full attention", "model.gpt-oss-120b.layers_full"),
               sliding=("sliding-window layers", "model.gpt-oss-120b.layers_sliding"),
               per=("per layer", "kv.gpt-oss-120b.bytes_per_token_layer"))
_LONG = {
    "llama70b": (LLAMA_70B, KV_L70),
    "deepseek-v3": (DEEPSEEK_V3, F("{layers} × ({latent} + {rope}) × {bytes}", layers=("layers", "model.deepseek-v3.layers"),
                                   latent=("values of the latent", "model.deepseek-v3.kv_lora_rank"),
                                   rope=("values of the RoPE key", "model.deepseek-v3.rope_dim"), bytes=B2)),
    "gpt-oss-120b": (GPT_OSS_120B, F("{full} × {per} + {sliding} × {none}", none=("bytes once the window is full", 0), **_GPT_KV)),
}
for _key, (_m, _expr) in _LONG.items():
    @figure(f"kv.{_key}.bytes_per_token_long", "bytes", "KV bytes one more token adds at long context (BF16 cache)", [f"models.{_m}"],
            expression=_expr)
    def kv_per_token_long(c, m=_m): return M.kv_bytes_per_token(c.models[m], "bf16")


@figure("kv.gpt-oss-120b.bytes_per_token_short", "bytes", "KV bytes per token while the context fits the sliding window (all layers grow)",
        GPT_IN, expression=F("{full} × {per} + {sliding} × {per}", **_GPT_KV))
def kv_gpt_oss_short(c): return M.kv_bytes_per_token(c.models[GPT_OSS_120B], "bf16", context=1)


@figure("model.gpt-oss-120b.window", "tokens", "catalog: sliding window", GPT_IN, sig=None, decimals=0)
def gpt_oss_window(c): return c.models[GPT_OSS_120B].sliding_window


# Glossary: grouped-query attention against full multi-head attention.
@figure("kv.llama70b.bytes_per_token_mha", "bytes", "as KV bytes per token, with one KV head per query head (multi-head attention)", L70_IN,
        expression=_kv_formula(("query heads", "model.llama70b.query_heads")))
def kv_llama70b_mha(c):
    m = c.models[LLAMA_70B]
    return M.kv_bytes_per_token(m.variant(num_key_value_heads=m.query_heads), "bf16")


@figure("gqa.llama70b.factor", "ratio", "query heads ÷ KV heads", L70_IN, sig=None, decimals=0,
        expression=F("{q} ÷ {kv}", q=("query heads", "model.llama70b.query_heads"), kv=("KV heads", "model.llama70b.kv_heads")))
def gqa_llama70b_factor(c): return c.models[LLAMA_70B].query_heads / c.models[LLAMA_70B].kv_heads


# Multi-head latent attention: what DeepSeek V3 caches per token and layer.
@figure("model.deepseek-v3.layers", "count", "catalog: layers", DS3_IN, sig=None, decimals=0)
def deepseek_v3_layers(c): return c.models[DEEPSEEK_V3].layers


@figure("model.deepseek-v3.kv_lora_rank", "count", "catalog: values in the compressed latent per token and layer", DS3_IN, sig=None, decimals=0)
def deepseek_v3_latent(c): return c.models[DEEPSEEK_V3].kv_lora_rank


@figure("model.deepseek-v3.rope_dim", "count", "catalog: values of the positional (RoPE) key per token and layer", DS3_IN, sig=None, decimals=0)
def deepseek_v3_rope(c): return c.models[DEEPSEEK_V3].qk_rope_head_dim


# ------------------------------------------- terms: the KV cache of mixed attention

def _attention(c, key, kind):
    """The attention spec of a model's layers of one kind, and how many layers have it."""
    arch = c.models[key].arch
    return next(l.attention for l in arch.layers if l.attention.kind == kind), arch.layer_counts()[kind]


@figure("model.gpt-oss-120b.layers_full", "count", "catalog: layers with full attention", GPT_IN, sig=None, decimals=0)
def gpt_oss_layers_full(c): return _attention(c, GPT_OSS_120B, "full")[1]


@figure("model.gpt-oss-120b.layers_sliding", "count", "catalog: layers with sliding-window attention", GPT_IN, sig=None, decimals=0)
def gpt_oss_layers_sliding(c): return _attention(c, GPT_OSS_120B, "sliding")[1]


@figure("model.gpt-oss-120b.kv_heads", "count", "catalog: KV heads", GPT_IN, sig=None, decimals=0)
def gpt_oss_kv_heads(c): return _attention(c, GPT_OSS_120B, "full")[0].kv_heads


@figure("model.gpt-oss-120b.head_dim", "count", "catalog: head dimension", GPT_IN, sig=None, decimals=0)
def gpt_oss_head_dim(c): return _attention(c, GPT_OSS_120B, "full")[0].head_dim


@figure("kv.gpt-oss-120b.bytes_per_token_layer", "bytes",
        "KV bytes one token adds to one layer: 2 (K and V) × KV heads × head dimension × 2 bytes (BF16)", GPT_IN,
        sig=None, decimals=0, unit="B",
        expression=F("{kv} × {heads} × {dim} × {bytes}", kv=("K and V", 2), heads=("KV heads", "model.gpt-oss-120b.kv_heads"),
                     dim=("values per head", "model.gpt-oss-120b.head_dim"), bytes=B2))
def kv_gpt_oss_per_layer(c): return _attention(c, GPT_OSS_120B, "full")[0].kv_bytes_per_token("bf16")


# --------------------------------------------- terms: weights per precision group

def _params_in(c, key, precision, batch=None):
    """Parameters of the weight groups the checkpoint keeps in `precision`: all stored, or read for `batch` tokens."""
    arch = c.models[key].arch
    params = arch.params_by_group() if batch is None else arch.read_params_by_group(batch)
    return sum(n for g, n in params.items() if arch.precisions[g].key == precision)


# The precisions each model's checkpoint uses (the config's quantization section assigns them to tensor groups,
# calculators/arch/precision.py); a group left out here would make its sum disagree, and the build check says so.
_PRECISIONS = {GPT_OSS_120B: ("bf16", "mxfp4"), DEEPSEEK_V3: ("bf16", "fp8_b128"), MINIMAX_M2: ("bf16", "fp32", "fp8_b128")}
_STORED = (GPT_OSS_120B, DEEPSEEK_V3)   # the models whose stored weight bytes the site prints (all three print the bytes read per token)

for _m, _precs in _PRECISIONS.items():
    for _p in _precs:
        _name = P.get(_p).label   # FP8 with block scales is FP8 to a reader
        if _m in _STORED:
            @figure(f"params.{_m}.{_name.lower()}", "params", f"catalog: parameters the checkpoint stores in {_name}", [f"models.{_m}"])
            def params_in(c, m=_m, p=_p): return _params_in(c, m, p)

        @figure(f"params.{_m}.read.{_name.lower()}", "params", f"catalog: parameters in {_name} read per token (batch 1)", [f"models.{_m}"])
        def params_read_in(c, m=_m, p=_p): return _params_in(c, m, p, batch=1)


@figure("precision.fp8_b128.bits", "count", "8 bits per value + one 32-bit scale per block of 128 × 128 values", [], definition=True, sig=None, decimals=3,
        expression=F("{eight} + {scale} ÷ ({side} × {side})", eight=("bits per FP8 value", 8), scale=("bits of the FP32 scale", 32),
                     side=("values per block side", 128)))
def fp8_block_bits(c): return P.FP8_B128.bits


def bf16_and(params: str, other: str, bits: tuple) -> F:
    """Bytes of weights held in BF16 plus weights in one narrower format (parameters per group: the terms above)."""
    return F("{bf16} × {b2} + {q} × {bits} ÷ {eight}", bf16=("parameters in BF16", f"{params}.bf16"), b2=B2,
             q=(f"parameters in {other}", f"{params}.{other.lower()}"), bits=bits, eight=BITS8)
