"""The config reader: a Hugging Face config.json becomes an Architecture of per-layer specs.

`from_config` reads the fields the published configs use (names vary by
family, so aliases are listed as data below) and returns an
`Architecture` (calculators/arch/architecture.py): the layers
(calculators/arch/layers.py) and the precision of every parameter group
(calculators/arch/precision.py).
"""

from __future__ import annotations

from . import precision as P
from .architecture import Architecture
from .layers import DenseMLP, FullAttention, LatentAttention, Layer, MoEMLP, SlidingWindowAttention

# Fields some families leave out of config.json because the library class has
# a default (Gemma 3's text config omits its vocabulary, its 5:1 local:global
# pattern and its tied embeddings). Keyed by model_type.
FAMILY_DEFAULTS = {
    "gemma3_text": {"vocab_size": 262_208, "sliding_window_pattern": 6, "tie_word_embeddings": True,
                    "qk_norm": "head", "norms_per_layer": 4},
    "gemma2": {"sliding_window_pattern": 2, "tie_word_embeddings": True, "norms_per_layer": 4},
    "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"},
    "gpt_oss": {"attention_sinks": True, "expert_bias": True, "router_bias": True},
    "deepseek_v3": {"router_bias": True},
}

# Alternative names of the same quantity, first found wins.
ALIASES = {
    "experts": ("num_local_experts", "n_routed_experts", "num_experts"),
    "active": ("num_experts_per_tok", "experts_per_token"),
}

# layer_types entries -> attention class
ATTENTION_TYPES = {"full_attention": FullAttention, "sliding_attention": SlidingWindowAttention}

MAX_LAYERS = 1_000          # the deepest published decoders have a few hundred
MAX_DIM = 10_000_000


class ConfigError(ValueError):
    """A config the model cannot read; `field` names the field that is missing or wrong.

    `code` and `params` let a caller say the same in the reader's language
    (calculators/data/byo.py): "missing", "not_integer", "range" (lo, hi),
    "layer_types" (listed, layers), "unknown_types" (types), "unsupported" (detail).
    """

    def __init__(self, field_name: str, problem: str, code: str = "invalid", **params):
        self.field, self.code, self.params = field_name, code, params
        super().__init__(f"config.json, field '{field_name}': {problem}")


def text_config(config: dict) -> dict:
    """The language model's part of a config: multimodal ones nest it under text_config."""
    if not isinstance(config, dict):
        raise ConfigError("(top level)", "expected a JSON object", "not_config")
    inner = config.get("text_config")
    if isinstance(inner, dict):
        merged = {k: v for k, v in config.items() if k in ("torch_dtype", "dtype", "quantization_config")}
        merged.update(inner)
        config = merged
    out = dict(FAMILY_DEFAULTS.get(config.get("model_type"), {}))
    out.update({k: v for k, v in config.items() if v is not None})
    return out


def _int(c: dict, name: str, default=None, lo: int = 1, hi: int = MAX_DIM) -> int:
    value = c.get(name, default)
    if value is None:
        raise ConfigError(name, "missing", "missing")
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 4096.0 is a whole number too
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(name, f"expected a whole number, got {value!r}", "not_integer")
    if not lo <= value <= hi:
        raise ConfigError(name, f"must be between {lo} and {hi}, got {value}", "range", lo=lo, hi=hi)
    return value


def _first(c: dict, names: tuple):
    for n in names:
        if c.get(n) is not None:
            return n
    return None


def _attention(c: dict, kind: type, hidden: int, heads: int):
    if c.get("kv_lora_rank"):
        return LatentAttention(hidden, heads, _int(c, "kv_lora_rank"), _int(c, "qk_rope_head_dim"),
                               _int(c, "qk_nope_head_dim"), _int(c, "v_head_dim"),
                               c.get("q_lora_rank") and _int(c, "q_lora_rank"))
    kv = _int(c, "num_key_value_heads", heads)
    head_dim = _int(c, "head_dim", hidden // heads)
    # q/k norms: one weight per head dimension (Qwen3, Gemma 3), or over all heads (MiniMax "per_layer")
    norm_kind = "layer" if c.get("use_qk_norm") and c.get("qk_norm_type") == "per_layer" else c.get("qk_norm")
    qk_norm = {"head": 2 * head_dim, "layer": (heads + kv) * head_dim}.get(norm_kind, 0)
    common = dict(hidden=hidden, query_heads=heads, kv_heads=kv, head_dim=head_dim,
                  bias=bool(c.get("attention_bias")), qk_norm=qk_norm, sinks=bool(c.get("attention_sinks")))
    if kind is SlidingWindowAttention:
        return kind(window=_int(c, "sliding_window"), **common)
    return kind(**common)


def _layer_kinds(c: dict, n: int) -> list:
    """The attention class of every layer: layer_types, a local:global pattern, or one kind for all."""
    types = c.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or len(types) != n:
            listed = len(types) if isinstance(types, list) else 0
            raise ConfigError("layer_types", f"lists {listed} layers, num_hidden_layers is {n}", "layer_types",
                              listed=listed, layers=n)
        unknown = sorted({str(t) for t in types} - set(ATTENTION_TYPES))
        if unknown:
            raise ConfigError("layer_types", f"unknown attention types {unknown}; known: {', '.join(ATTENTION_TYPES)}",
                              "unknown_types", types=", ".join(unknown))
        return [ATTENTION_TYPES[t] for t in types]
    window = c.get("sliding_window") and c.get("use_sliding_window", True)
    pattern = c.get("sliding_window_pattern")
    if window and pattern:  # every pattern-th layer is global, the others local
        return [FullAttention if (i + 1) % pattern == 0 else SlidingWindowAttention for i in range(n)]
    return [SlidingWindowAttention if window else FullAttention] * n


def _is_moe_layer(c: dict, i: int) -> bool:
    """Dense first-k layers (DeepSeek), mlp_only_layers and a sparse step (Qwen MoE), moe_layer_freq."""
    if i < c.get("first_k_dense_replace", 0) or i in (c.get("mlp_only_layers") or ()):
        return False
    step = c.get("decoder_sparse_step") or 1
    freq = c.get("moe_layer_freq") or 1
    return (i + 1) % step == 0 and (i - c.get("first_k_dense_replace", 0)) % freq == 0


def _mlp(c: dict, moe: bool, hidden: int):
    experts_key = _first(c, ALIASES["experts"])
    if experts_key and c[experts_key] and moe:
        experts = _int(c, experts_key, hi=100_000)
        active_key = _first(c, ALIASES["active"])
        if active_key is None:
            raise ConfigError("num_experts_per_tok", "missing (needed for a mixture-of-experts model)", "missing")
        active = _int(c, active_key, hi=experts)
        inter = _int(c, "moe_intermediate_size" if c.get("moe_intermediate_size") is not None else "intermediate_size")
        shared_n = c.get("n_shared_experts") or 0
        shared_inter = inter if shared_n else 0
        if c.get("shared_expert_intermediate_size"):
            shared_n, shared_inter = 1, _int(c, "shared_expert_intermediate_size")
        return MoEMLP(hidden, inter, experts, active, shared_n, shared_inter,
                      expert_bias=bool(c.get("expert_bias")),
                      router_bias=bool(c.get("router_bias") or c.get("use_routing_bias")))
    return DenseMLP(hidden, _int(c, "intermediate_size"), bias=bool(c.get("mlp_bias")))


# Optional whole-number fields and their smallest sensible value, checked before they steer the layer pattern.
OPTIONAL_INTS = {"first_k_dense_replace": 0, "decoder_sparse_step": 1, "moe_layer_freq": 1, "sliding_window_pattern": 1,
                 "n_shared_experts": 0, "shared_expert_intermediate_size": 1, "q_lora_rank": 1}


def _check_optional(c: dict) -> None:
    for name, lo in OPTIONAL_INTS.items():
        if c.get(name) is not None:
            c[name] = _int(c, name, lo=lo)
    only = c.get("mlp_only_layers")
    if only is not None and (not isinstance(only, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in only)):
        raise ConfigError("mlp_only_layers", f"expected a list of layer numbers, got {only!r}", "not_integer")


def from_config(config: dict, precision_overrides: dict | None = None) -> Architecture:
    """Build the per-layer specs of a Hugging Face config.json (nested text_config included)."""
    c = text_config(config)
    _check_optional(c)
    n = _int(c, "num_hidden_layers", hi=MAX_LAYERS)
    hidden = _int(c, "hidden_size")
    heads = _int(c, "num_attention_heads", hi=100_000)
    vocab = _int(c, "vocab_size")
    norms = c.get("norms_per_layer", 2) * hidden
    kinds = _layer_kinds(c, n)
    moe = [_is_moe_layer(c, i) for i in range(n)]
    # one spec per distinct kind, shared by the layers of that kind (cheap to build and to sum over)
    attention = {k: _attention(c, k, hidden, heads) for k in set(kinds)}
    mlp = {flag: _mlp(c, flag, hidden) for flag in set(moe)}
    layers = tuple(Layer(attention[kinds[i]], mlp[moe[i]], norms) for i in range(n))
    try:
        precisions = P.group_precisions(c, precision_overrides)
    except P.PrecisionError as e:
        raise ConfigError("quantization_config", str(e), "unsupported", detail=str(e)) from None
    stored = dict(config)
    stored["_precision_overrides"] = dict(precision_overrides or {})
    return Architecture(str(c.get("model_type", "")), hidden, vocab, bool(c.get("tie_word_embeddings", False)),
                        layers, precisions, stored)


def variant(arch: Architecture, **overrides) -> Architecture:
    """The same model with some config fields changed (a what-if: more KV heads, fewer layers)."""
    cfg = dict(arch.config)
    cfg.update(overrides)
    return from_config(cfg, arch.precision_overrides)
