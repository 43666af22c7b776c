"""Formula objects of the models: KV cache per token, weights and parameters per precision group, number formats.

Sums over a model's mixed per-layer specs (attention kinds, precision groups) read one
intermediate figure per group (calculators/figure_terms.py), so each term is expandable.
"""

from __future__ import annotations

from .formula import F

L70 = "model.llama70b"
FORMULAS = {}
FORMULAS.update({
    "kv.llama70b.bytes_per_token": F("{layers} × {kv} × {heads} × {dim} × {bytes}",
                                     layers=("layers", f"{L70}.layers"), kv=("K and V", 2), heads=("KV heads", f"{L70}.kv_heads"),
                                     dim=("values per head", f"{L70}.head_dim"), bytes=("per value (BF16)", "precision.bf16.bytes")),
    "kv.llama70b.bytes_per_token_mha": F("{layers} × {kv} × {heads} × {dim} × {bytes}",
                                         layers=("layers", f"{L70}.layers"), kv=("K and V", 2), heads=("query heads", f"{L70}.query_heads"),
                                         dim=("values per head", f"{L70}.head_dim"), bytes=("per value (BF16)", "precision.bf16.bytes")),
    "gqa.llama70b.factor": F("{q} ÷ {kv}", q=("query heads", f"{L70}.query_heads"), kv=("KV heads", f"{L70}.kv_heads")),
    "share.deepseek-v3.active": F("{active} ÷ {total}", active=("active parameters", "params.deepseek-v3.active"),
                                  total=("parameters in total", "params.deepseek-v3.total")),
    "precision.bf16.bytes": F("{bits} ÷ {eight}", bits=("bits per BF16 value", 16), eight=("bits per byte", 8)),
    "kv.llama70b.bytes_per_token_short": F("{x}", x=("", "kv.llama70b.bytes_per_token")),
    "precision.fp8.bytes": F("{bits} ÷ {eight}", bits=("bits per FP8 value", 8), eight=("bits per byte", 8)),
    "precision.mxfp4.bits": F("{four} + {scale} ÷ {block}", four=("bits per value", 4), scale=("bits of the shared scale", 8),
                              block=("values per block", 32)),
})
for _ctx in (8192, 32768, 131072):
    FORMULAS[f"kv.llama70b.total_gib.{_ctx}"] = F("{per} × {ctx}", per=("per token", "kv.llama70b.bytes_per_token"),
                                                   ctx=("tokens", f"context.{_ctx}"))
for _ctx in (8192, 32768, 131072):
    FORMULAS[f"kv.llama70b.total.{_ctx}"] = F("{per} × {ctx}", per=("per token", "kv.llama70b.bytes_per_token"),
                                               ctx=("tokens", f"context.{_ctx}"))
# Sums over mixed per-layer specs: one term per attention kind or precision group (calculators/figure_terms.py).
_GPT_KV = dict(full=("layers with full attention", "model.gpt-oss-120b.layers_full"),
               sliding=("sliding-window layers", "model.gpt-oss-120b.layers_sliding"),
               per=("per layer", "kv.gpt-oss-120b.bytes_per_token_layer"))
_B2, _BITS8 = ("per value (BF16)", "precision.bf16.bytes"), ("bits per byte", 8)
_MX, _FP8 = ("bits per MXFP4 value", "precision.mxfp4.bits"), ("bits per FP8 value with block scales", "precision.fp8_b128.bits")


def _bf16_and(params: str, other: str, bits: tuple):
    """Bytes of weights held in BF16 plus weights in one narrower format (parameters per group: figure_terms.py)."""
    return F("{bf16} × {b2} + {q} × {bits} ÷ {eight}", bf16=("parameters in BF16", f"{params}.bf16"), b2=_B2,
             q=(f"parameters in {other}", f"{params}.{other.lower()}"), bits=bits, eight=_BITS8)


FORMULAS.update({
    "kv.llama70b.bytes_per_token_long": FORMULAS["kv.llama70b.bytes_per_token"],
    "kv.deepseek-v3.bytes_per_token_long": F("{layers} × ({latent} + {rope}) × {bytes}", layers=("layers", "model.deepseek-v3.layers"),
                                             latent=("values of the latent", "model.deepseek-v3.kv_lora_rank"),
                                             rope=("values of the RoPE key", "model.deepseek-v3.rope_dim"), bytes=_B2),
    "kv.gpt-oss-120b.bytes_per_token_long": F("{full} × {per} + {sliding} × {none}", none=("bytes once the window is full", 0), **_GPT_KV),
    "kv.gpt-oss-120b.bytes_per_token_short": F("{full} × {per} + {sliding} × {per}", **_GPT_KV),
    "kv.gpt-oss-120b.bytes_per_token_layer": F("{kv} × {heads} × {dim} × {bytes}", kv=("K and V", 2),
                                               heads=("KV heads", "model.gpt-oss-120b.kv_heads"),
                                               dim=("values per head", "model.gpt-oss-120b.head_dim"), bytes=_B2),
    "weights.gpt-oss-120b.bytes": _bf16_and("params.gpt-oss-120b", "MXFP4", _MX),
    "weights.gpt-oss-120b.read_per_token": _bf16_and("params.gpt-oss-120b.read", "MXFP4", _MX),
    "weights.gpt-oss-120b.bytes_bf16": F("({bf16} + {mx}) × {b2}", bf16=("parameters in BF16", "params.gpt-oss-120b.bf16"),
                                         mx=("parameters in MXFP4", "params.gpt-oss-120b.mxfp4"), b2=_B2),
    "weights.deepseek-v3.bytes": _bf16_and("params.deepseek-v3", "FP8", _FP8),
    "weights.deepseek-v3.read_per_token": _bf16_and("params.deepseek-v3.read", "FP8", _FP8),
    "weights.minimax-m2.read_per_token": F("{bf16} × {b2} + {fp32} × {b4} + {fp8} × {bits} ÷ {eight}",
                                           bf16=("parameters in BF16", "params.minimax-m2.read.bf16"), b2=_B2,
                                           fp32=("parameters in FP32 (the router)", "params.minimax-m2.read.fp32"),
                                           b4=("bytes per FP32 value", 4),
                                           fp8=("parameters in FP8", "params.minimax-m2.read.fp8"), bits=_FP8, eight=_BITS8),
    "precision.gpt-oss-120b.experts_bits": F("{mx}", mx=_MX),
    "precision.deepseek-v3.bits": F("{fp8}", fp8=_FP8),
    "precision.fp8_b128.bits": F("{eight} + {scale} ÷ ({side} × {side})", eight=("bits per FP8 value", 8),
                                 scale=("bits of the FP32 scale", 32), side=("values per block side", 128)),
    "params.llama70b.active": F("{total} − {vocab} × {row}", total=("parameters", "params.llama70b"),
                                vocab=("rows of the embedding table", "model.llama70b.vocab"),
                                row=("values per row", "model.llama70b.hidden")),
})
