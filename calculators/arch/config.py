"""The config reader: a Hugging Face config.json becomes an Architecture of per-layer specs, or a ConfigError.

`from_config` reads the fields the published configs use (names vary by
family, so aliases are listed as data below) and returns an `Architecture`
(calculators/arch/architecture.py): the layers (calculators/arch/layers.py),
the multi-token-prediction modules, and the precision of every parameter group
(calculators/arch/precision.py). Values are read by calculators/arch/reads.py;
what is refused, and why, is calculators/arch/refusal.py.

Known or refused. Every layer of a config is a known spec, or the config is
refused with a ConfigError whose `code` and `params` name what is not
modelled. `SIGNALS` is the closed list of fields that signal another kind of
layer (state-space mixers, linear attention, sparse-attention indexers,
chunked attention, cross-attention, encoder-decoder, other sliding patterns,
multi-token prediction, other MoE patterns); each is either read by the reader
of the families listed with it (tested against a real config) or refused.
Nothing falls back to full attention. Values of the wrong type (a list, an
object or a string where a number is expected, NaN, infinity, a number of
thousands of digits, "false" as a string) are refused with the field named:
a TypeError escaping from here is a bug, and the tests look for one.
"""

from __future__ import annotations

import math

from . import precision as P
from .architecture import Architecture
from .layers import (ChunkedAttention, DenseMLP, FullAttention, LatentAttention, Layer, MoEMLP, NoMLP,
                     SlidingWindowAttention, SparseLatentAttention)
from .reads import (FAMILY_DEFAULTS, MAX_DIGITS, MAX_DIM, MAX_LAYERS, ConfigError, _bool, _check_types,  # noqa: F401
                    _first, _int, _layer_list, _present, _text, family, text_config)
from .recurrent import GatedDeltaNet, KimiDeltaAttention, Mamba1Mixer, Mamba2Mixer, NoMixer
from .refusal import LAYER_TYPES, NOT_DECODERS, RECURRENT_FAMILIES, SIGNALS, refusal  # noqa: F401

# What the modelling code of a family does that its config does not say. Keyed by model_type;
# a config cannot set these (a pasted "norms_per_layer" is an unknown field, ignored).
FAMILY_FACTS = {
    "gemma3_text": {"qk_norm": "head", "norms_per_layer": 4},
    "gemma2": {"norms_per_layer": 4},
    "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"},
    # Qwen3-Next: gated attention (q_proj yields query and output gate), per-head q/k norms, a gate on the shared expert
    "qwen3_next": {"qk_norm": "head", "attn_output_gate": True, "shared_expert_gate": True},
    "gpt_oss": {"attention_sinks": True, "expert_bias": True, "router_bias": True},
    "deepseek_v3": {"router_bias": True},
    "deepseek_v32": {"router_bias": True},
    "kimi_linear": {"router_bias": True},
    # GLM-4.5: attention_bias puts biases on q, k and v only; use_qk_norm adds per-head q/k norms
    "glm4_moe": {"router_bias": True, "qkv_bias_only": True, "qk_norm_if_used": "head"},
    # Llama 4's q/k norm is an L2 norm without weights; every MoE layer has one shared expert
    "llama4_text": {"qk_norm": "none", "llama4_shared_expert": True},
    # Nemotron-H: one RMSNorm per block, one mixer or one MLP per block
    "nemotron_h": {"norms_per_layer": 1},
}

# Alternative names of the same quantity, first found wins.
ALIASES = {
    "experts": ("num_local_experts", "n_routed_experts", "num_experts"),
    "active": ("num_experts_per_tok", "experts_per_token", "num_experts_per_token"),
    "shared": ("n_shared_experts", "num_shared_experts"),
}


# Which kinds of layer the site models, for the pages and the "your config.json" note (HANDOFF-19.md).
MODELLED_KINDS = ("full", "sliding", "chunked", "latent", "sparse_latent", "linear", "kda", "mamba2", "mamba", "mtp",
                  "moe_shared")

# ---------------------------------------------------------------- mixers


def _head_dim(c: dict, hidden: int, heads: int, name: str = "head_dim") -> int:
    if c.get(name) is None and hidden % heads:
        raise ConfigError(name, f"missing, and hidden_size {hidden} is no multiple of num_attention_heads {heads}", "missing")
    return _int(c, name, hidden // heads)


def _kv_heads(c: dict, heads: int) -> int:
    kv = _int(c, "num_key_value_heads", heads)
    if heads % kv:
        raise ConfigError("num_key_value_heads", f"{kv} KV heads do not divide {heads} query heads", "kv_heads",
                          kv=kv, heads=heads)
    return kv


def _full(c: dict, kind: str, hidden: int, heads: int, facts: dict, head_dim_name: str = "head_dim"):
    """Full, sliding or chunked grouped-query attention."""
    kv = _kv_heads(c, heads)
    head_dim = _head_dim(c, hidden, heads, head_dim_name)
    # q/k norms: one weight per head dimension (Qwen3, Gemma 3, GLM), or over all heads (MiniMax "per_layer")
    norm_kind = facts.get("qk_norm")
    if c.get("use_qk_norm"):
        norm_kind = "layer" if c.get("qk_norm_type") == "per_layer" else facts.get("qk_norm_if_used", norm_kind)
    qk_norm = {"head": 2 * head_dim, "layer": (heads + kv) * head_dim}.get(norm_kind, 0)
    common = dict(hidden=hidden, query_heads=heads, kv_heads=kv, head_dim=head_dim, bias=bool(c.get("attention_bias")),
                  qk_norm=qk_norm, sinks=bool(facts.get("attention_sinks")),
                  output_gate=bool(facts.get("attn_output_gate")), qkv_bias_only=bool(facts.get("qkv_bias_only")))
    if kind == "sliding":
        return SlidingWindowAttention(window=_int(c, "sliding_window"), **common)
    if kind == "chunked":
        return ChunkedAttention(chunk=_int(c, "attention_chunk_size"), **common)
    return FullAttention(**common)


def _latent(c: dict, hidden: int, heads: int):
    dims = dict(hidden=hidden, query_heads=heads, kv_lora_rank=_int(c, "kv_lora_rank"),
                qk_rope_head_dim=_int(c, "qk_rope_head_dim"), qk_nope_head_dim=_int(c, "qk_nope_head_dim"),
                v_head_dim=_int(c, "v_head_dim"), q_lora_rank=c.get("q_lora_rank") and _int(c, "q_lora_rank"))
    if c.get("index_topk") is None:
        return LatentAttention(**dims)
    if not dims["q_lora_rank"]:
        raise ConfigError("q_lora_rank", "missing (the sparse-attention indexer reads the query latent)", "missing")
    return SparseLatentAttention(**dims, index_heads=_int(c, "index_n_heads"), index_head_dim=_int(c, "index_head_dim"),
                                 index_topk=_int(c, "index_topk"))


def _state_precisions(c: dict, base: P.Precision) -> tuple:
    """Convolution and SSM state dtypes: the model's dtype (vLLM's "auto"), unless the config names the SSM state's."""
    ssm = c.get("mamba_ssm_cache_dtype")
    if ssm is None:
        return base, base
    if ssm not in P.DTYPES:
        raise ConfigError("mamba_ssm_cache_dtype", f"{ssm!r} is not a known dtype", "unsupported_dtype",
                          dtype=str(ssm)[:40], known=", ".join(P.DTYPES))
    return base, P.DTYPES[ssm]


def _gated_deltanet(c: dict, hidden: int, base: P.Precision):
    conv, state = _state_precisions(c, base)
    return GatedDeltaNet(hidden, _int(c, "linear_num_key_heads"), _int(c, "linear_num_value_heads"),
                         _int(c, "linear_key_head_dim"), _int(c, "linear_value_head_dim"), _int(c, "linear_conv_kernel_dim"),
                         conv, state)


# --------------------------------------------------------------- layer kinds


def _layer_kinds(c: dict, n: int) -> list:
    """The mixer kind of every layer: layer_types, a local:global pattern, a linear interval, chunking, or one kind for all."""
    fam = family(c)
    types = c.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or len(types) != n:
            listed = len(types) if isinstance(types, list) else 0
            raise ConfigError("layer_types", f"lists {listed} layers, num_hidden_layers is {n}", "layer_types",
                              listed=listed, layers=n)
        unknown = sorted({str(t)[:40] for t in types if not isinstance(t, str) or t not in LAYER_TYPES})
        if unknown:
            raise ConfigError("layer_types", f"unknown attention types {unknown}; known: {', '.join(LAYER_TYPES)}",
                              "unknown_types", types=", ".join(unknown))
        return [{"full_attention": "full", "sliding_attention": "sliding", "linear_attention": "linear",
                 "chunked_attention": "chunked"}[t] for t in types]
    if fam == "minimax_m2" and c.get("attn_type_list") is not None:
        # MiniMax's attn_type_list: 1 = softmax attention, 0 = lightning (linear) attention (MiniMax-Text-01)
        flags = c["attn_type_list"]
        if not isinstance(flags, list) or len(flags) != n:
            raise ConfigError("attn_type_list", f"expected {n} entries", "pattern_length",
                              listed=len(flags) if isinstance(flags, list) else 0, layers=n)
        if any(f != 1 or isinstance(f, bool) for f in flags):
            raise ConfigError("attn_type_list", "linear (lightning) attention layers are not modelled", "unmodelled",
                              kind="linear_attention", fields="attn_type_list")
    if fam == "qwen3_next":   # transformers Qwen3NextConfig: layer i is full attention iff (i + 1) % interval == 0
        interval = _int(c, "full_attention_interval", 4)
        return ["full" if (i + 1) % interval == 0 else "linear" for i in range(n)]
    if fam == "llama4_text" and c.get("attention_chunk_size") is not None:
        # Llama4TextConfig: RoPE layers are chunked, NoPE layers (every no_rope_layer_interval-th) global
        if c.get("no_rope_layers") is not None:
            flags = c["no_rope_layers"]
            if not isinstance(flags, list) or len(flags) != n or any(f not in (0, 1) or isinstance(f, bool) for f in flags):
                raise ConfigError("no_rope_layers", f"expected {n} entries of 0 or 1", "not_layer_list")
        else:
            interval = _int(c, "no_rope_layer_interval", 4)
            flags = [int((i + 1) % interval != 0) for i in range(n)]
        return ["chunked" if f else "full" for f in flags]
    window = c.get("sliding_window") and c.get("use_sliding_window", True)
    if window and c.get("max_window_layers") is not None:   # Qwen2-style: layers from max_window_layers on slide
        return ["sliding" if i >= c["max_window_layers"] else "full" for i in range(n)]
    pattern = c.get("sliding_window_pattern")
    if window and pattern:  # every pattern-th layer is global, the others local
        return ["full" if (i + 1) % pattern == 0 else "sliding" for i in range(n)]
    return ["sliding" if window else "full"] * n


def _moe_flags(c: dict, n: int) -> list:
    """Which layers are MoE: Llama 4's moe_layers / interleave step, dense first-k (DeepSeek),
    mlp_only_layers and a sparse step (Qwen MoE), moe_layer_freq."""
    if family(c) == "llama4_text":
        if c.get("moe_layers") is not None:
            chosen = set(_layer_list(c, "moe_layers", n))
            return [i in chosen for i in range(n)]
        step = c.get("interleave_moe_layer_step") or 1   # Llama4TextConfig: moe_layers = range(step - 1, L, step)
        return [(i - (step - 1)) % step == 0 and i >= step - 1 for i in range(n)]
    only = set(_layer_list(c, "mlp_only_layers", n)) if c.get("mlp_only_layers") is not None else set()
    first = c.get("first_k_dense_replace", 0)
    step = c.get("decoder_sparse_step") or 1
    freq = c.get("moe_layer_freq") or 1
    return [not (i < first or i in only) and (i + 1) % step == 0 and (i - first) % freq == 0 for i in range(n)]


def _mlp(c: dict, moe: bool, hidden: int, facts: dict, dense_name: str = "intermediate_size"):
    experts_key = _first(c, ALIASES["experts"])
    if experts_key and c[experts_key] and moe:
        experts = _int(c, experts_key, hi=100_000)
        active_key = _first(c, ALIASES["active"])
        if active_key is None:
            raise ConfigError("num_experts_per_tok", "missing (needed for a mixture-of-experts model)", "missing")
        active = _int(c, active_key, hi=experts)
        inter = _int(c, "moe_intermediate_size" if c.get("moe_intermediate_size") is not None else "intermediate_size")
        shared_key = _first(c, ALIASES["shared"])
        shared_n = c[shared_key] if shared_key else 0
        shared_inter = inter if shared_n else 0
        if c.get("shared_expert_intermediate_size"):
            shared_n, shared_inter = 1, c["shared_expert_intermediate_size"]
        if facts.get("llama4_shared_expert"):   # Llama4TextMoe: one shared expert of the experts' size, always
            shared_n, shared_inter = 1, inter
        return MoEMLP(hidden, inter, experts, active, shared_n, shared_inter,
                      expert_bias=bool(facts.get("expert_bias")),
                      router_bias=bool(facts.get("router_bias") or c.get("use_routing_bias")),
                      shared_gate=bool(facts.get("shared_expert_gate") and shared_n))
    return DenseMLP(hidden, _int(c, dense_name), bias=bool(c.get("mlp_bias")))


# ----------------------------------------------------------- family readers


def _standard(c: dict, n: int, hidden: int, heads: int, facts: dict, base: P.Precision) -> tuple:
    """Decoders of attention layers (full, sliding, chunked, latent, sparse latent) and Qwen3-Next's linear layers."""
    kinds = _layer_kinds(c, n)
    mixers = {}
    for k in set(kinds):
        if k == "linear":
            mixers[k] = _gated_deltanet(c, hidden, base)
        elif c.get("kv_lora_rank"):
            mixers[k] = _latent(c, hidden, heads)
        else:
            mixers[k] = _full(c, k, hidden, heads, facts)
    moe = _moe_flags(c, n)
    dense_name = "intermediate_size_mlp" if family(c) == "llama4_text" else "intermediate_size"
    mlps = {flag: _mlp(c, flag, hidden, facts, dense_name) for flag in set(moe)}
    return [mixers[k] for k in kinds], [mlps[f] for f in moe]


def _nemotron_h(c: dict, n: int, hidden: int, heads: int, facts: dict, base: P.Precision) -> tuple:
    """Nemotron-H: hybrid_override_pattern names each block: M Mamba-2, * attention, - MLP (up and down only)."""
    pattern = _text(c.get("hybrid_override_pattern"), "hybrid_override_pattern")
    if len(pattern) != n:
        raise ConfigError("hybrid_override_pattern", f"names {len(pattern)} layers, num_hidden_layers is {n}",
                          "pattern_length", listed=len(pattern), layers=n)
    unknown = sorted(set(pattern) - set("M*-"))
    if unknown:
        raise ConfigError("hybrid_override_pattern", f"block kinds {unknown} are not modelled (known: M, *, -)",
                          "pattern", chars=", ".join(unknown)[:40], known="M, *, -")
    conv, state = _state_precisions(c, base)
    mamba = Mamba2Mixer(hidden, _int(c, "mamba_num_heads"), _int(c, "mamba_head_dim"), _int(c, "n_groups"),
                        _int(c, "ssm_state_size"), _int(c, "conv_kernel"), conv_bias=_bool(c, "use_conv_bias", True),
                        proj_bias=_bool(c, "use_bias"), conv_precision=conv, state_precision=state)
    attention = _full(c, "full", hidden, heads, facts, "attention_head_dim" if c.get("attention_head_dim") else "head_dim")
    mlp = DenseMLP(hidden, _int(c, "intermediate_size"), bias=bool(c.get("mlp_bias")), gated=False)
    specs = {"M": (mamba, NoMLP()), "*": (attention, NoMLP()), "-": (NoMixer(), mlp)}
    return [specs[ch][0] for ch in pattern], [specs[ch][1] for ch in pattern]


def _jamba(c: dict, n: int, hidden: int, heads: int, facts: dict, base: P.Precision) -> tuple:
    """Jamba: attention where i % attn_layer_period == attn_layer_offset, Mamba elsewhere;
    MoE where i % expert_layer_period == expert_layer_offset (transformers JambaConfig)."""
    a_period, a_offset = _int(c, "attn_layer_period"), _int(c, "attn_layer_offset", lo=0)
    e_period, e_offset = _int(c, "expert_layer_period", 1), _int(c, "expert_layer_offset", 0, lo=0)
    expand = _int(c, "mamba_expand", 2)
    dt_rank = math.ceil(hidden / 16) if c.get("mamba_dt_rank", "auto") == "auto" else _int(c, "mamba_dt_rank")
    conv, state = _state_precisions(c, base)
    mamba = Mamba1Mixer(hidden, expand * hidden, _int(c, "mamba_d_state", 16), _int(c, "mamba_d_conv", 4), dt_rank,
                        conv_bias=_bool(c, "mamba_conv_bias", True), proj_bias=_bool(c, "mamba_proj_bias"),
                        conv_precision=conv, state_precision=state)
    attention = _full(c, "full", hidden, heads, facts)
    moe, dense = _mlp(c, True, hidden, facts), _mlp(c, False, hidden, facts)
    mixers = [attention if i % a_period == a_offset else mamba for i in range(n)]
    return mixers, [moe if i % e_period == e_offset else dense for i in range(n)]


def _kimi_linear(c: dict, n: int, hidden: int, heads: int, facts: dict, base: P.Precision) -> tuple:
    """Kimi Linear: linear_attn_config lists (1-based) the KDA layers and the full (MLA) layers."""
    lac = c.get("linear_attn_config")
    if not isinstance(lac, dict):
        raise ConfigError("linear_attn_config", "expected a JSON object", "not_object")
    full = set(_layer_list(lac, "full_attn_layers", n, base=1))
    kda = set(_layer_list(lac, "kda_layers", n, base=1))
    if full & kda or len(full | kda) != n:
        raise ConfigError("linear_attn_config", "kda_layers and full_attn_layers must name every layer once",
                          "layer_cover", layers=n)
    conv = _state_precisions(c, base)[0]
    mixer = KimiDeltaAttention(hidden, _int(lac, "num_heads", label="linear_attn_config.num_heads"),
                               _int(lac, "head_dim", label="linear_attn_config.head_dim"),
                               _int(lac, "short_conv_kernel_size", label="linear_attn_config.short_conv_kernel_size"),
                               conv_precision=conv)
    mla = _latent(c, hidden, heads)
    moe = _moe_flags(c, n)
    mlps = {flag: _mlp(c, flag, hidden, facts) for flag in set(moe)}
    return [mla if i in full else mixer for i in range(n)], [mlps[f] for f in moe]


READERS = {"nemotron_h": _nemotron_h, "jamba": _jamba, "kimi_linear": _kimi_linear}


def _mtp(c: dict, layers: tuple, hidden: int) -> tuple:
    """Multi-token-prediction modules (num_nextn_predict_layers), as (decoder layer, extra parameters) each.

    DeepSeek V3 / V3.2 and GLM-4.5 publish the module as enorm and hnorm (hidden each), eh_proj
    (2 hidden -> hidden, no bias), one decoder layer like the model's last, and a final norm (hidden);
    the embedding and lm_head are the main model's (vLLM deepseek_mtp.py, glm4_moe_mtp.py).
    """
    count = c.get("num_nextn_predict_layers") or 0
    return tuple((layers[-1], 2 * hidden * hidden + 3 * hidden) for _ in range(count))


def from_config(config: dict, precision_overrides: dict | None = None) -> Architecture:
    """Build the per-layer specs of a Hugging Face config.json (nested text_config included), or refuse it."""
    refusal(config)
    c = text_config(config)
    _check_types(c)
    fam = family(c)
    facts = FAMILY_FACTS.get(fam, {})
    n = _int(c, "num_hidden_layers", hi=MAX_LAYERS)
    hidden = _int(c, "hidden_size")
    heads = _int(c, "num_attention_heads", hi=100_000)
    vocab = _int(c, "vocab_size")
    try:
        precisions = P.group_precisions(c, precision_overrides)
    except P.PrecisionError as e:
        raise ConfigError(e.field, str(e), e.code, **e.params) from None
    mixers, mlps = READERS.get(fam, _standard)(c, n, hidden, heads, facts, P.base_precision(c))
    norms = facts.get("norms_per_layer", 2) * hidden
    cache: dict = {}
    layers = tuple(cache.setdefault((mixers[i], mlps[i]), Layer(mixers[i], mlps[i], norms)) for i in range(n))
    stored = dict(config)
    stored["_precision_overrides"] = dict(precision_overrides or {})
    return Architecture(fam, hidden, vocab, _bool(c, "tie_word_embeddings"), layers, precisions, stored,
                        mtp=_mtp(c, layers, hidden))


def variant(arch: Architecture, **overrides) -> Architecture:
    """The same model with some config fields changed (a what-if: more KV heads, fewer layers)."""
    cfg = dict(arch.config)
    cfg.update(overrides)
    return from_config(cfg, arch.precision_overrides)
