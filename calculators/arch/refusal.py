"""Known or refused: the closed list of fields that signal another kind of layer, and the refusal.

`SIGNALS` names each field (or prefix) that signals a layer kind other than
full attention, with the model types whose reader models it (each tested on a
real config, tests/test_hybrid_architectures.py); anywhere else the config is
refused with ConfigError code "unmodelled" and the kind. Model types that are
no decoder, or decoders of recurrent layers only, are refused by name.
"""

from __future__ import annotations

from .reads import ConfigError, _present, family, text_config

# ---------------------------------------------------------------- refusals

# Model types that are not decoder-only language models (encoders, encoder-decoders, vision or speech towers).
NOT_DECODERS = frozenset({
    "t5", "mt5", "umt5", "bart", "mbart", "pegasus", "marian", "whisper", "bert", "roberta", "xlm-roberta",
    "deberta", "deberta-v2", "distilbert", "electra", "albert", "modernbert", "vit", "clip", "clip_vision_model",
    "siglip", "siglip_vision_model", "wav2vec2", "hubert", "encoder-decoder", "led", "longt5", "switch_transformers",
})

# Families whose every layer is recurrent or state-space, with no decoder attention the site models.
RECURRENT_FAMILIES = {
    "mamba": "state_space", "mamba2": "state_space", "falcon_mamba": "state_space", "falcon_h1": "state_space",
    "bamba": "state_space", "zamba": "state_space", "zamba2": "state_space", "granitemoehybrid": "state_space",
    "plamo2": "state_space", "lfm2": "state_space", "recurrent_gemma": "recurrent", "rwkv": "recurrent",
    "rwkv5": "recurrent", "rwkv6": "recurrent", "rwkv7": "recurrent", "xlstm": "recurrent",
    "minimax": "linear_attention",
}

# The closed list: (field, or prefix ending in "*"; the kind of layer it signals; the model types whose
# reader models it, tested on a real config). A field present with a value other than null, false, 0,
# "" or an empty list is either read by its family's reader or refused with code "unmodelled".
SIGNALS = (
    ("hybrid_override_pattern", "state_space", ("nemotron_h",)),
    ("mamba_*", "state_space", ("nemotron_h", "jamba")),
    ("ssm_*", "state_space", ("nemotron_h",)),
    ("time_step_*", "state_space", ("nemotron_h",)),
    ("state_size", "state_space", ()),
    ("layers_block_type", "state_space", ()),
    ("attn_layer_period", "state_space", ("jamba",)),
    ("attn_layer_offset", "state_space", ("jamba",)),
    ("attn_layer_indices", "state_space", ()),
    ("hybrid_layer_ids", "state_space", ()),
    ("block_types", "recurrent", ()),
    ("conv_L_cache", "state_space", ()),
    ("linear_attn_config", "linear_attention", ("kimi_linear",)),
    ("linear_*", "linear_attention", ("qwen3_next",)),
    ("full_attention_interval", "linear_attention", ("qwen3_next",)),
    ("attn_type_list", "linear_attention", ("minimax_m2",)),   # read: every entry 1 (softmax attention), else refused
    ("index_topk", "sparse_attention", ("deepseek_v32",)),
    ("index_n_heads", "sparse_attention", ("deepseek_v32",)),
    ("index_head_dim", "sparse_attention", ("deepseek_v32",)),
    ("dense_attention_every_n_layers", "block_sparse_attention", ()),
    ("blocksparse_*", "block_sparse_attention", ()),
    ("attention_chunk_size", "chunked_attention", ("llama4_text",)),
    ("no_rope_layers", "chunked_attention", ("llama4_text",)),
    ("no_rope_layer_interval", "chunked_attention", ("llama4_text",)),
    ("cross_attention_layers", "cross_attention", ()),
    ("add_cross_attention", "cross_attention", ()),
    ("is_encoder_decoder", "encoder_decoder", ()),
    ("encoder_layers", "encoder_decoder", ()),
    ("interleaved_sliding_window", "sliding_pattern", ()),
    ("global_attn_every_n_layers", "sliding_pattern", ()),
    ("attention_window", "sliding_pattern", ()),
    ("num_nextn_predict_layers", "mtp", ("deepseek_v3", "deepseek_v32", "glm4_moe")),
    # MiniMax M2 declares MTP modules without their shape: recognised (plain decode neither loads nor runs
    # them), counted in mtp_declared, not sized
    ("mtp_*", "mtp", ("minimax_m2",)),
    ("use_mtp", "mtp", ("minimax_m2",)),
    ("num_mtp_modules", "mtp", ("minimax_m2",)),
    ("moe_layers", "moe_pattern", ("llama4_text",)),
    ("interleave_moe_layer_step", "moe_pattern", ("llama4_text",)),
    ("expert_layer_period", "moe_pattern", ("jamba",)),
    ("expert_layer_offset", "moe_pattern", ("jamba",)),
    ("zero_expert_num", "moe_pattern", ()),
    ("moe_num_shared_experts", "moe_pattern", ()),
)

# layer_types values: the attention kind each names, and the families whose reader models it.
LAYER_TYPES = {
    "full_attention": (None, None),
    "sliding_attention": (None, None),
    "linear_attention": ("linear_attention", ("qwen3_next",)),
    "chunked_attention": ("chunked_attention", ("llama4_text",)),
    "mamba": ("state_space", ()),
    "conv": ("state_space", ()),
    "attention": ("state_space", ()),     # GraniteMoeHybrid's name for its attention layers among Mamba ones
}


def _signal_matches(field_name: str, pattern: str) -> bool:
    return field_name.startswith(pattern[:-1]) if pattern.endswith("*") else field_name == pattern


def refusal(config: dict) -> None:
    """Raise the ConfigError that refuses a config whose layers are not all modelled (checked before anything else).

    Checks, in order: a model type that is no decoder, a recurrent family, then every field of SIGNALS
    present in the config but not read by its family's reader, then layer_types values.
    """
    c = text_config(config)
    fam = family(c)
    outer = config if isinstance(config, dict) else {}
    if fam in NOT_DECODERS or (outer.get("model_type") in NOT_DECODERS):
        raise ConfigError("model_type", f"{fam or outer.get('model_type')} is not a decoder-only language model",
                          "not_decoder", model_type=fam or outer.get("model_type"))
    if fam in RECURRENT_FAMILIES:
        raise ConfigError("model_type", f"{fam}: {RECURRENT_FAMILIES[fam]} layers are not modelled", "unmodelled",
                          kind=RECURRENT_FAMILIES[fam], fields="model_type")
    fields = {k: v for k, v in outer.items() if k not in ("text_config", "vision_config", "audio_config")}
    fields.update(c)
    by_kind: dict = {}
    for name, value in fields.items():
        if not _present(value):
            continue
        for pattern, kind, families in SIGNALS:     # the first pattern that matches decides
            if _signal_matches(name, pattern):
                if fam not in families:
                    by_kind.setdefault(kind, []).append(name)
                break
    if by_kind:
        kind, names = next(iter(by_kind.items()))
        raise ConfigError(names[0], f"{', '.join(sorted(names))} describe {kind} layers, which are not modelled"
                          f" for model_type {fam or '(none)'}", "unmodelled", kind=kind, fields=", ".join(sorted(names)))
    types = c.get("layer_types")
    if isinstance(types, list):
        for t in types:
            known = LAYER_TYPES.get(t) if isinstance(t, str) else None
            if known and known[0] and fam not in known[1]:
                raise ConfigError("layer_types", f"{t} layers are not modelled for model_type {fam or '(none)'}",
                                  "unmodelled", kind=known[0], fields="layer_types")
