"""Formula pieces the example's figures share: labels per precision, what one token adds to one layer, the step.

Every label is marked where it is written (L: msgctxt "term"), so that the
browser's string table holds each label an example can show. The formulas
are built from the model's own specs, so that the popover of a mixed model
(windows, latent attention, fixed states) shows the sum it really is.
"""

from __future__ import annotations

from ..arch import precision as P
from ..arch.layers import LatentAttention, SparseLatentAttention
from .declare import L
from .formula import F

# Bytes of one value or parameter, per precision: a term's label names the format.
PER_VALUE = {"bf16": L("per value (BF16)"), "fp8": L("per value (FP8)"), "mxfp4": L("per value (MXFP4)"),
             "fp4": L("per value (FP4)"), "fp16": L("per value (FP16)"), "fp32": L("per value (FP32)"),
             "fp8_b128": L("per value (FP8 with block scales)"), "int8": L("per value (INT8)"), "int4": L("per value (INT4)")}
PER_PARAM = {"bf16": L("per parameter (BF16)"), "fp8": L("per parameter (FP8)"), "mxfp4": L("per parameter (MXFP4)"),
             "fp4": L("per parameter (FP4)"), "fp16": L("per parameter (FP16)"), "fp32": L("per parameter (FP32)"),
             "fp8_b128": L("per parameter (FP8 with block scales)"), "int8": L("per parameter (INT8)"),
             "int4": L("per parameter (INT4)")}
PARAMS_IN = {"bf16": L("parameters in BF16"), "fp8": L("parameters in FP8"), "mxfp4": L("parameters in MXFP4"),
             "fp4": L("parameters in FP4"), "fp16": L("parameters in FP16"), "fp32": L("parameters in FP32"),
             "fp8_b128": L("parameters in FP8 with block scales"), "int8": L("parameters in INT8"),
             "int4": L("parameters in INT4")}
KIND_LAYERS = {"full": L("layers with full attention"), "sliding": L("sliding-window layers"),
               "chunked": L("layers with chunked attention"), "latent": L("layers with multi-head latent attention"),
               "sparse_latent": L("layers with DeepSeek sparse attention")}
WINDOW = {"sliding": L("tokens of the window"), "chunked": L("tokens of a chunk")}

K_AND_V, HEADS, DIM = L("K and V"), L("KV heads"), L("values per head")
LATENT, ROPE, INDEXER = L("values of the latent"), L("values of the RoPE key"), L("bytes of the indexer key")
SCALE, BLOCK = L("bytes of the FP32 scale per block"), L("values per scaled block")
PER_LAYER = L("per token and layer")


def whole(x: float) -> bool:
    return float(x).is_integer()


def bytes_term(key: str, figure: str | None = None, per=PER_VALUE) -> tuple:
    """The bytes of one value as a term: the figure that prints it where there is one, else the number."""
    p = P.get(key)
    return (per[p.key], figure) if figure else (per[p.key], p.bytes)


def layer_formula(spec, kv_precision: str) -> F:
    """Bytes one token adds to one layer of this spec, as arithmetic over the spec's own numbers."""
    kv = P.get(kv_precision)
    if isinstance(spec, LatentAttention):
        sparse = isinstance(spec, SparseLatentAttention)
        extra = " + {idx}" if sparse else ""
        terms = dict(latent=(LATENT, spec.kv_lora_rank), rope=(ROPE, spec.qk_rope_head_dim))
        if sparse:
            terms["idx"] = (INDEXER, spec.indexer_bytes_per_token())
        if kv is P.FP8:   # the published FP8 layout: FP8 latent with FP32 scales per 128 values, RoPE key in BF16
            return F("{latent} × {b} + {latent} ÷ {block} × {scale} + {rope} × {b2}" + extra, b=bytes_term("fp8"),
                     block=(BLOCK, spec.FP8_SCALE_BLOCK), scale=(SCALE, 4), b2=bytes_term("bf16"), **terms)
        return F("({latent} + {rope}) × {b}" + extra, b=bytes_term(kv.key), **terms)
    return F("{kv} × {heads} × {dim} × {b}", kv=(K_AND_V, 2), heads=(HEADS, spec.kv_heads), dim=(DIM, spec.head_dim),
             b=bytes_term(kv.key))


# ------------------------------------------------------------------ what a step reads

READ_FOR_BATCH = L("parameters read for the batch")
PARAMS_READ_IN = {k: label for k, label in {
    "bf16": L("parameters in BF16 read for the batch"), "fp8": L("parameters in FP8 read for the batch"),
    "mxfp4": L("parameters in MXFP4 read for the batch"), "fp4": L("parameters in FP4 read for the batch"),
    "fp16": L("parameters in FP16 read for the batch"), "fp32": L("parameters in FP32 read for the batch"),
    "fp8_b128": L("parameters in FP8 with block scales read for the batch"), "int8": L("parameters in INT8 read for the batch"),
    "int4": L("parameters in INT4 read for the batch")}.items()}


def params_read(c, tokens: int) -> dict:
    """Parameters a step for `tokens` tokens reads, per precision key (the example's forced one, or each group's)."""
    arch = c.m.arch
    out: dict = {}
    for group, n in arch.read_params_by_group(tokens).items():
        if n:
            key = c.weights or arch.precisions[group].key
            out[key] = out.get(key, 0) + n
    return out


def weights_read_formula(c, tokens: int, tokens_term: tuple) -> F:
    """Weight bytes read for `tokens` tokens: a dense model's active parameters plus one embedding row per token,
    at one precision; otherwise the parameters the step reads, per precision (a MoE batch touches more experts)."""
    p = c.uniform_precision
    if p and not c.moe:
        b = bytes_term(p.key, "ex.weights.bytes_per_param" if whole(p.bytes) else None, PER_PARAM)
        active = (L("parameters a token multiplies with"), "params.llama70b.active")
        if c.m.arch.tied:
            return F("{active} × {bytes}", active=active, bytes=b)
        return F("({active} + {b} × {row}) × {bytes}", active=active, b=tokens_term,
                 row=(L("values in one embedding row"), "model.llama70b.hidden"), bytes=b)
    read = params_read(c, tokens)
    keys = sorted(read)
    return F(" + ".join(f"{{n{i}}} × {{b{i}}}" for i in range(len(keys))),
             **{f"n{i}": (PARAMS_READ_IN[k], read[k], "params") for i, k in enumerate(keys)},
             **{f"b{i}": bytes_term(k, None, PER_PARAM) for i, k in enumerate(keys)})


def kv_read_formula(c, ctx_term: tuple) -> F:
    """KV bytes one step reads for one request at a context: each layer's kept tokens (a window, the top-k rows
    of sparse attention and every indexer key), summed over the layers' specs."""
    parts, terms = [], {"ctx": ctx_term}
    for g in c.groups:
        spec, i = g.spec, g.index
        scan, rows, row = spec.kv_read_terms(c.kv)
        if not scan:
            continue
        terms[f"n{i}"] = (KIND_LAYERS.get(g.kind, L("layers with a cache")), g.layers)
        terms[f"s{i}"] = (PER_LAYER, scan, "bytes")
        kept = "{ctx}" if spec.max_cached_tokens is None else f"min({{ctx}}, {{w{i}}})"
        if spec.max_cached_tokens is not None:
            terms[f"w{i}"] = (WINDOW[g.kind], spec.max_cached_tokens)
        if rows:
            terms[f"k{i}"] = (L("tokens read in full"), rows)
            terms[f"r{i}"] = (L("bytes of a token read in full"), row, "bytes")
            parts.append(f"{{n{i}}} × ({{s{i}}} × {kept} + min({{k{i}}}, {kept}) × {{r{i}}})")
        else:
            parts.append(f"{{n{i}}} × {{s{i}}} × {kept}")
    return F(" + ".join(parts), **terms)
