"""Number formats and which tensor group a checkpoint stores in which one.

A released checkpoint rarely stores all weights alike: FP8 checkpoints keep
the embeddings, lm_head and often the router in BF16 or FP32; MXFP4 ones
quantize only the experts. The config's `quantization_config` says which
method was used and which modules were not converted; this module turns that
into a precision per parameter group (the groups of calculators/arch/layers.py
plus "embeddings" and "lm_head").
"""

from __future__ import annotations

from dataclasses import dataclass


class PrecisionError(ValueError):
    """A precision or quantization method the model does not know.

    `field`, `code` and `params` say it as the config reader's errors do (calculators/arch/config.py
    turns them into a ConfigError): "unsupported_dtype" (dtype, known), "unsupported_quant" (method,
    known), "unsupported_block" (block, known), "not_text", "not_object", "not_text_list".
    """

    def __init__(self, message: str, field: str = "quantization_config", code: str = "invalid", **params):
        self.field, self.code, self.params = field, code, params
        super().__init__(message)


@dataclass(frozen=True)
class Precision:
    """A number format as a checkpoint stores values: bits per value, shared scales, integer or not.

    Configs, the catalog, calculator choices and links name a precision by its `key`
    ("bf16", "fp8_b128"); `get(key)` turns the name into this type once, at the edge,
    and everything inside asks the type (its bytes, its label, which peak applies).
    """

    key: str
    value_bits: float           # bits of one value
    scale_bits: float = 0.0     # bits of shared scales, spread over the values they scale
    integer: bool = False       # integer arithmetic: its peaks are operations per second (TOPS), not FLOP/s

    @property
    def bits(self) -> float:
        """Bits stored per value, scales included (MXFP4: 4 + 8/32 = 4.25)."""
        return self.value_bits + self.scale_bits

    @property
    def bytes(self) -> float:
        return self.bits / 8.0

    @property
    def label(self) -> str:
        """How a precision is printed: FP8 with block scales is still FP8 to a reader."""
        return self.key.split("_")[0].upper()

    @property
    def peak_kind(self) -> str:
        """The unit kind of a compute peak at this precision (fmt.format_quantity)."""
        return "ops_per_s" if self.integer else "flop_per_s"

    @property
    def narrow(self) -> bool:
        """8 bits or fewer per value: weights a device multiplies in FP8 where it has an FP8 peak."""
        return self.value_bits <= 8


FP32, BF16, FP16 = Precision("fp32", 32.0), Precision("bf16", 16.0), Precision("fp16", 16.0)
FP8 = Precision("fp8", 8.0)
# FP8 with one FP32 scale per 128 x 128 block (8 + 32/16384 bits), as DeepSeek V3 and MiniMax M2 ship it.
FP8_B128 = Precision("fp8_b128", 8.0, 32.0 / (128 * 128))
INT8 = Precision("int8", 8.0, integer=True)
# MXFP4 stores 4-bit values plus one 8-bit scale per block of 32 (4 + 8/32 = 4.25).
MXFP4 = Precision("mxfp4", 4.0, 8.0 / 32)
FP4, INT4 = Precision("fp4", 4.0), Precision("int4", 4.0, integer=True)

PRECISIONS = {p.key: p for p in (FP32, BF16, FP16, FP8, FP8_B128, INT8, MXFP4, FP4, INT4)}
PRECISION_BITS = {k: p.bits for k, p in PRECISIONS.items()}   # bits per stored value, by name (validators, formulas)


def get(precision: str | Precision) -> Precision:
    """The Precision a name stands for (a Precision is returned as it is); an unknown name is a PrecisionError."""
    if isinstance(precision, Precision):
        return precision
    try:
        return PRECISIONS[precision]
    except (KeyError, TypeError):
        raise PrecisionError(f"unknown precision {precision!r}; known: {', '.join(PRECISIONS)}") from None


def bytes_per_value(precision: str | Precision) -> float:
    return get(precision).bytes


GROUPS = ("embeddings", "attention", "router", "experts", "shared_experts", "dense_mlp", "norms", "lm_head")

# torch dtype names in configs -> our precisions
DTYPES = {"bfloat16": BF16, "float16": FP16, "float32": FP32}

# Module names in `modules_to_not_convert` -> the group they belong to. Matched
# against the last dotted part of a pattern ("model.layers.*.mlp.router" -> router).
_MODULE_GROUPS = {"self_attn": "attention", "router": "router", "gate": "router",
                  "e_score_correction_bias": "router", "embed_tokens": "embeddings", "lm_head": "lm_head"}


def _show(value) -> str:
    """A config value as a message may quote it: short, never Python's repr of a list or None."""
    return str(value)[:40] if isinstance(value, (str, int, float)) and not isinstance(value, bool) else type(value).__name__


def _fp8(q: dict) -> tuple[Precision, tuple, tuple]:
    raw = q.get("weight_block_size") or ()
    if not isinstance(raw, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw):
        raise PrecisionError(f"FP8 weight_block_size must be a list of whole numbers, got {_show(raw)}",
                             "quantization_config.weight_block_size", "not_layer_list")
    block = tuple(raw)
    if block not in ((), (128, 128)):
        shown = " × ".join(str(v)[:12] for v in block[:3])
        raise PrecisionError(f"FP8 block size {shown} is not supported (only 128 × 128)",
                             "quantization_config.weight_block_size", "unsupported_block", block=shown, known="128 × 128")
    # Linear layers are converted. Without a published exception list, the
    # released FP8 checkpoints (DeepSeek V3) keep lm_head and the router gate
    # unconverted, as their README_WEIGHTS.md describes.
    return (FP8_B128 if block else FP8), ("attention", "experts", "shared_experts", "dense_mlp", "router", "lm_head"), ("lm_head", "gate")


def _mxfp4(q: dict) -> tuple[Precision, tuple, tuple]:
    return MXFP4, ("experts",), ()


# quant_method -> (precision, groups it converts, modules not converted when the config lists none)
METHODS = {"fp8": _fp8, "mxfp4": _mxfp4}


def base_precision(config: dict) -> Precision:
    field = "torch_dtype" if config.get("torch_dtype") is not None else "dtype"
    dtype = config.get("torch_dtype") or config.get("dtype") or "bfloat16"
    if not isinstance(dtype, str):
        raise PrecisionError(f"{field} must be text, got {_show(dtype)}", field, "not_text")
    try:
        return DTYPES[dtype]
    except KeyError:
        raise PrecisionError(f"torch_dtype {dtype[:40]!r} is not supported; known: {', '.join(DTYPES)}", field,
                             "unsupported_dtype", dtype=dtype[:40], known=", ".join(DTYPES)) from None


def group_precisions(config: dict, overrides: dict | None = None) -> dict:
    """Precision per parameter group, from the config's dtype and quantization section.

    `overrides` holds per-tensor dtypes the config does not state but the
    checkpoint does (MiniMax's FP32 router), recorded in the catalog.
    """
    base = base_precision(config)
    out = {g: base for g in GROUPS}
    q = config.get("quantization_config")
    if q is not None:
        if not isinstance(q, dict):
            raise PrecisionError(f"quantization_config must be an object, got {_show(q)}", "quantization_config", "not_object")
        method = q.get("quant_method")
        if not isinstance(method, str):
            raise PrecisionError(f"quant_method must be text, got {_show(method)}", "quantization_config.quant_method",
                                 "not_text")
        if method not in METHODS:
            raise PrecisionError(f"quantization method {method[:40]!r} is not supported; known: {', '.join(METHODS)}",
                                 "quantization_config.quant_method", "unsupported_quant", method=method[:40],
                                 known=", ".join(METHODS))
        prec, converted, default_skip = METHODS[method](q)
        skip = q.get("modules_to_not_convert")
        if skip is not None and not (isinstance(skip, list) and all(isinstance(m, str) for m in skip)):
            raise PrecisionError(f"modules_to_not_convert must be a list of names, got {_show(skip)}",
                                 "quantization_config.modules_to_not_convert", "not_text_list")
        skipped = {_MODULE_GROUPS.get(m.split(".")[-1]) for m in skip or default_skip}
        for g in converted:
            if g not in skipped:
                out[g] = prec
    for g, p in (overrides or {}).items():
        if g not in out:
            raise PrecisionError(f"unknown parameter group {g!r}; known: {', '.join(GROUPS)}")
        out[g] = get(p)
    return out
