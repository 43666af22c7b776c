"""Bring your own model: a config.json that a reader pastes or drops, read by the catalog's own code.

The text is parsed in the reader's browser by the same Python that builds the
site (nothing is uploaded). Everything that can be wrong with it raises a
`ByoError` whose `code` and `params` calculators/ui/config_messages.py turns
into a message in the reader's language: too large, not JSON, not a model
config, an architecture whose layers are not all modelled (named), an
unsupported dtype or quantization, a missing field (named), a value out of
range or of the wrong type (the config reader's ConfigError codes, passed on
with the field). Any other exception is a bug, not "invalid input": it is not
caught here, and tests/test_hybrid_architectures.py pastes hostile shapes to
find one. Limits keep the worker responsive: the text is capped before it is
parsed, numbers are capped in digits, and the config reader caps layers and
sizes.
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..arch import config as A
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
    # hybrid and sparse kinds (calculators/arch/config.py SIGNALS): a link must keep every field that steers a layer
    "hybrid_override_pattern", "mamba_num_heads", "mamba_head_dim", "n_groups", "ssm_state_size", "conv_kernel",
    "use_conv_bias", "use_bias", "attention_head_dim", "mamba_ssm_cache_dtype", "mamba_proj_bias",
    "attn_layer_period", "attn_layer_offset", "expert_layer_period", "expert_layer_offset", "mamba_d_state",
    "mamba_d_conv", "mamba_expand", "mamba_dt_rank", "mamba_conv_bias", "full_attention_interval",
    "linear_conv_kernel_dim", "linear_key_head_dim", "linear_num_key_heads", "linear_num_value_heads",
    "linear_value_head_dim", "linear_attn_config", "num_shared_experts", "num_experts_per_token",
    "attention_chunk_size", "no_rope_layers", "no_rope_layer_interval", "moe_layers", "interleave_moe_layer_step",
    "intermediate_size_mlp", "index_topk", "index_n_heads", "index_head_dim", "num_nextn_predict_layers",
    "max_window_layers", "attn_type_list",
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


def _int_literal(digits: str):
    """A JSON whole number; one of more than MAX_DIGITS digits is read as infinity, which every
    field refuses as out of range (Python refuses to convert more than 4,300 digits at all)."""
    return int(digits) if len(digits) <= A.MAX_DIGITS else float("inf")


def _config_error(e: A.ConfigError) -> ByoError:
    return ByoError(e.code, field=e.field, **e.params)


def parse(text: str) -> dict:
    """The config as a dict, or a ByoError that says why it cannot be one."""
    if len(text) > MAX_CONFIG_CHARS:
        raise ByoError("too_large", max=MAX_CONFIG_CHARS)
    if not text.strip():
        raise ByoError("empty")
    try:
        cfg = json.loads(text.lstrip("\ufeff"), parse_int=_int_literal)
    except json.JSONDecodeError as e:
        raise ByoError("not_json", line=e.lineno, column=e.colno) from None
    except RecursionError:   # nested past the parser's limit: an object is a config nested too deep, anything else no config
        raise (ByoError("too_deep", max=MAX_NESTING) if text.lstrip("\ufeff \t\r\n").startswith("{")
               else ByoError("not_config")) from None
    if not isinstance(cfg, dict):
        raise ByoError("not_config")
    if _depth(cfg) > MAX_NESTING:
        raise ByoError("too_deep", max=MAX_NESTING)
    inner = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    if "num_hidden_layers" not in inner and "hidden_size" not in inner:
        raise ByoError("not_config")
    try:
        A.refusal(cfg)      # layers the site does not model, named, before anything is read
        c = A.text_config(cfg)
    except A.ConfigError as e:
        raise _config_error(e) from None
    defaults = A.FAMILY_DEFAULTS.get(c.get("model_type"), {})
    missing = [k for k in REQUIRED if c.get(k) is None and k not in defaults]
    if missing:
        raise ByoError("unsupported", model_type=(c.get("model_type") or cfg.get("model_type") or "?")[:80],
                       missing=", ".join(missing))
    return cfg


def _name(cfg: dict, arch) -> str:
    archs = cfg.get("architectures")
    first = archs[0] if isinstance(archs, list) and archs else None
    for value in (cfg.get("_name_or_path"), first, arch.model_type):
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
        raise _config_error(e) from None
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
