"""Number formats and which tensor group a checkpoint stores in which one.

A released checkpoint rarely stores all weights alike: FP8 checkpoints keep
the embeddings, lm_head and often the router in BF16 or FP32; MXFP4 ones
quantize only the experts. The config's `quantization_config` says which
method was used and which modules were not converted; this module turns that
into a precision per parameter group (the groups of calculators/layers.py
plus "embeddings" and "lm_head").
"""

from __future__ import annotations

# Bits stored per value. MXFP4 stores 4-bit values plus one 8-bit scale per
# block of 32 (4 + 8/32 = 4.25). "fp8_b128" is FP8 with one FP32 scale per
# 128 x 128 block (8 + 32/16384 bits), as DeepSeek V3 and MiniMax M2 ship it.
PRECISION_BITS = {
    "fp32": 32.0,
    "bf16": 16.0,
    "fp16": 16.0,
    "fp8": 8.0,
    "fp8_b128": 8.0 + 32.0 / (128 * 128),
    "int8": 8.0,
    "mxfp4": 4.25,
    "fp4": 4.0,
    "int4": 4.0,
}

# Formats whose arithmetic is integer: their peaks are operations per second (TOPS), not FLOP/s.
INTEGER = ("int8", "int4")

GROUPS = ("embeddings", "attention", "router", "experts", "shared_experts", "dense_mlp", "norms", "lm_head")

# torch dtype names in configs -> our precision names
_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}

# Module names in `modules_to_not_convert` -> the group they belong to. Matched
# against the last dotted part of a pattern ("model.layers.*.mlp.router" -> router).
_MODULE_GROUPS = {"self_attn": "attention", "router": "router", "gate": "router",
                  "e_score_correction_bias": "router", "embed_tokens": "embeddings", "lm_head": "lm_head"}


class PrecisionError(ValueError):
    """A precision or quantization method the model does not know."""


def bytes_per_value(precision: str) -> float:
    try:
        return PRECISION_BITS[precision] / 8.0
    except KeyError:
        raise PrecisionError(f"unknown precision {precision!r}; known: {', '.join(PRECISION_BITS)}") from None


def label(precision: str) -> str:
    """How a precision is printed: FP8 with block scales is still FP8 to a reader."""
    return precision.split("_")[0].upper()


def peak_kind(precision: str) -> str:
    """The unit kind of a compute peak at this precision (fmt.format_quantity)."""
    return "ops_per_s" if precision in INTEGER else "flop_per_s"


def _fp8(q: dict) -> tuple[str, tuple, tuple]:
    block = tuple(q.get("weight_block_size") or ())
    if block not in ((), (128, 128)):
        raise PrecisionError(f"FP8 block size {list(block)} is not supported (only 128 x 128)")
    # Linear layers are converted. Without a published exception list, the
    # released FP8 checkpoints (DeepSeek V3) keep lm_head and the router gate
    # unconverted, as their README_WEIGHTS.md describes.
    return ("fp8_b128" if block else "fp8"), ("attention", "experts", "shared_experts", "dense_mlp", "router", "lm_head"), ("lm_head", "gate")


def _mxfp4(q: dict) -> tuple[str, tuple, tuple]:
    return "mxfp4", ("experts",), ()


# quant_method -> (precision, groups it converts, modules not converted when the config lists none)
METHODS = {"fp8": _fp8, "mxfp4": _mxfp4}


def base_precision(config: dict) -> str:
    dtype = config.get("torch_dtype") or config.get("dtype") or "bfloat16"
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise PrecisionError(f"torch_dtype {dtype!r} is not supported; known: {', '.join(_DTYPES)}") from None


def group_precisions(config: dict, overrides: dict | None = None) -> dict:
    """Precision per parameter group, from the config's dtype and quantization section.

    `overrides` holds per-tensor dtypes the config does not state but the
    checkpoint does (MiniMax's FP32 router), recorded in the catalog.
    """
    base = base_precision(config)
    out = {g: base for g in GROUPS}
    q = config.get("quantization_config")
    if q:
        method = q.get("quant_method")
        if method not in METHODS:
            raise PrecisionError(f"quantization method {method!r} is not supported; known: {', '.join(METHODS)}")
        prec, converted, default_skip = METHODS[method](q)
        skipped = {_MODULE_GROUPS.get(str(m).split(".")[-1]) for m in q.get("modules_to_not_convert") or default_skip}
        for g in converted:
            if g not in skipped:
                out[g] = prec
    for g, p in (overrides or {}).items():
        if g not in out:
            raise PrecisionError(f"unknown parameter group {g!r}; known: {', '.join(GROUPS)}")
        bytes_per_value(p)
        out[g] = p
    return out
