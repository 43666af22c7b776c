"""Bring your own model: a config.json that a reader pastes or drops, read by the catalog's own code.

The text is parsed in the reader's browser by the same Python that builds the
site (nothing is uploaded). Everything that can be wrong with it raises a
`ByoError` whose `code` and `params` calculators/ui/ turns into a message in
the reader's language: too large, not JSON, not a model config, an
unsupported architecture or quantization, a missing field (named), a value out
of range. Limits keep the worker responsive: the text is capped before it is
parsed, and architecture.py caps layers and sizes.
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..arch import config as A
from ..arch import precision as P
from .catalog import Source
from .models import Model

BYO = "config"                 # the model key of a reader's config
MAX_CONFIG_CHARS = 200_000     # a real config.json has a few thousand characters
MAX_SHARE_CHARS = 2_000        # the compact config that still fits a shareable link
MAX_NESTING = 20               # deeper JSON is not a config (and would cost the parser)
DEFAULT_CONTEXT = 131_072      # when a config names no max_position_embeddings

REQUIRED = ("num_hidden_layers", "hidden_size", "num_attention_heads", "vocab_size")

# The fields architecture.py reads: a link keeps only these, compactly.
READ_KEYS = frozenset({
    "model_type", "architectures", "_name_or_path", "torch_dtype", "dtype", "quantization_config", "text_config",
    "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim", "vocab_size",
    "intermediate_size", "moe_intermediate_size", "mlp_bias", "attention_bias", "tie_word_embeddings",
    "num_local_experts", "n_routed_experts", "num_experts", "num_experts_per_tok", "experts_per_token",
    "n_shared_experts", "shared_expert_intermediate_size", "first_k_dense_replace", "mlp_only_layers",
    "decoder_sparse_step", "moe_layer_freq", "use_routing_bias", "layer_types", "sliding_window",
    "use_sliding_window", "sliding_window_pattern", "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim",
    "qk_nope_head_dim", "v_head_dim", "use_qk_norm", "qk_norm_type", "max_position_embeddings",
})


class ByoError(ValueError):
    """What is wrong with a reader's config, as a message code and its parameters."""

    def __init__(self, code: str, **params):
        self.code, self.params = code, params
        super().__init__(f"{code}: {params}")


def _depth(value, level: int = 0) -> int:
    if level > MAX_NESTING:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level


def parse(text: str) -> dict:
    """The config as a dict, or a ByoError that says why it cannot be one."""
    if len(text) > MAX_CONFIG_CHARS:
        raise ByoError("too_large", max=MAX_CONFIG_CHARS)
    if not text.strip():
        raise ByoError("empty")
    try:
        cfg = json.loads(text)
    except json.JSONDecodeError as e:
        raise ByoError("not_json", line=e.lineno, column=e.colno) from None
    except RecursionError:
        raise ByoError("not_config") from None
    if not isinstance(cfg, dict) or _depth(cfg) > MAX_NESTING:
        raise ByoError("not_config")
    inner = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    if "num_hidden_layers" not in inner and "hidden_size" not in inner:
        raise ByoError("not_config")
    defaults = A.FAMILY_DEFAULTS.get(inner.get("model_type"), {})
    missing = [k for k in REQUIRED if inner.get(k) is None and k not in defaults]
    if missing:
        raise ByoError("unsupported", model_type=str(inner.get("model_type") or cfg.get("model_type") or "?"),
                       missing=", ".join(missing))
    q = cfg.get("quantization_config") or inner.get("quantization_config")
    if q is not None and (not isinstance(q, dict) or q.get("quant_method") not in P.METHODS):
        method = q.get("quant_method") if isinstance(q, dict) else q
        raise ByoError("unsupported_quant", method=str(method), known=", ".join(P.METHODS))
    return cfg


def _name(cfg: dict, arch) -> str:
    for value in (cfg.get("_name_or_path"), (cfg.get("architectures") or [None])[0], arch.model_type):
        if isinstance(value, str) and value.strip():
            return value.strip()[:80]
    return "config.json"


@lru_cache(maxsize=8)
def model(text: str) -> Model:
    """The reader's model, built like a catalog model (cached: every field edit asks again)."""
    cfg = parse(text)
    try:
        arch = A.from_config(cfg)
    except A.ConfigError as e:
        raise ByoError(e.code, field=e.field, **e.params) from None
    except (TypeError, ValueError, KeyError, AttributeError, ZeroDivisionError, OverflowError):
        raise ByoError("invalid") from None
    inner = A.text_config(cfg)
    context = inner.get("max_position_embeddings")
    if not isinstance(context, int) or isinstance(context, bool) or not 0 < context <= 100_000_000:
        context = DEFAULT_CONTEXT
    src = Source("config.json from the reader", "", "medium")
    return Model(BYO, _name(cfg, arch), context, src, arch.total_params(), arch)


def compact(text: str) -> str | None:
    """The fields the model reads, as compact JSON for a link; None when even that is too long."""
    cfg = parse(text)
    keep = {k: v for k, v in cfg.items() if k in READ_KEYS}
    if isinstance(keep.get("text_config"), dict):
        keep["text_config"] = {k: v for k, v in keep["text_config"].items() if k in READ_KEYS}
    out = json.dumps(keep, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return out if len(out) <= MAX_SHARE_CHARS else None
