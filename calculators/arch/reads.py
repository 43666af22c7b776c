"""Reading config.json values: the ConfigError every refusal raises, the language model's part of a
multimodal config, and whole numbers, booleans, texts and layer lists read so that a value of the
wrong type is refused with its field named (never a TypeError). Used by calculators/arch/config.py
and calculators/arch/refusal.py.
"""

from __future__ import annotations

import math


# Fields some families leave out of config.json because the library class has
# a default (Gemma 3's text config omits its vocabulary, its 5:1 local:global
# pattern and its tied embeddings). Keyed by model_type. A config's own value wins.
FAMILY_DEFAULTS = {
    "gemma3_text": {"vocab_size": 262_208, "sliding_window_pattern": 6, "tie_word_embeddings": True},
    "gemma2": {"sliding_window_pattern": 2, "tie_word_embeddings": True},
}

MAX_LAYERS = 1_000          # the deepest published decoders have a few hundred
MAX_DIM = 10_000_000
MAX_DIGITS = 30             # a whole number with more digits is out of range, whatever it is


class ConfigError(ValueError):
    """A config the model cannot read; `field` names the field that is missing, wrong or not modelled.

    `code` and `params` let a caller say the same in the reader's language
    (the list of codes and their parameters: HANDOFF-19.md).
    """

    def __init__(self, field_name: str, problem: str, code: str = "invalid", **params):
        self.field, self.code, self.params = field_name, code, params
        super().__init__(f"config.json, field '{field_name}': {problem}")


def _present(value) -> bool:
    return value not in (None, False, 0, "", [], {}) and not (isinstance(value, float) and value == 0)


def _text(value, field_name: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(field_name, f"expected text, got {type(value).__name__}", "not_text")
    return value


def text_config(config: dict) -> dict:
    """The language model's part of a config: multimodal ones nest it under text_config."""
    if not isinstance(config, dict):
        raise ConfigError("(top level)", "expected a JSON object", "not_config")
    if config.get("model_type") is not None:
        _text(config["model_type"], "model_type")
    inner = config.get("text_config")
    if inner is not None and not isinstance(inner, dict):
        raise ConfigError("text_config", "expected a JSON object", "not_object")
    if isinstance(inner, dict):
        merged = {k: v for k, v in config.items() if k in ("torch_dtype", "dtype", "quantization_config")}
        merged.update(inner)
        config = merged
        if config.get("model_type") is not None:
            _text(config["model_type"], "text_config.model_type")
    out = dict(FAMILY_DEFAULTS.get(config.get("model_type"), {}))
    out.update({k: v for k, v in config.items() if v is not None})
    return out


def family(c: dict) -> str:
    return c.get("model_type") or ""


# ------------------------------------------------------------- typed reads


def _number_text(value) -> str:
    return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else repr(value)[:40]


def _int(c: dict, name: str, default=None, lo: int = 1, hi: int = MAX_DIM, label: str | None = None) -> int:
    """A whole number in [lo, hi]; 4096.0 is one, "4096", true, NaN, a list are not (field named)."""
    label = label or name
    value = c.get(name, default)
    if value is None:
        raise ConfigError(label, "missing", "missing")
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)  # 4096.0 is a whole number too
    if isinstance(value, float) and math.isinf(value):
        raise ConfigError(label, f"must be between {lo} and {hi}, got {value}", "range", lo=lo, hi=hi)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(label, f"expected a whole number, got {_number_text(value)}", "not_integer")
    if not lo <= value <= hi:
        raise ConfigError(label, f"must be between {lo} and {hi}, got {str(value)[:20]}", "range", lo=lo, hi=hi)
    return value


def _bool(c: dict, name: str, default: bool = False) -> bool:
    """true or false; the string "false" is not false (it would read as true), so it is refused."""
    value = c.get(name, default)
    if not isinstance(value, bool):
        raise ConfigError(name, f"expected true or false, got {_number_text(value)}", "not_bool")
    return value


def _layer_list(c: dict, name: str, layers: int, base: int = 0) -> list:
    """A list of layer numbers (0-based, or 1-based with base=1), each naming a layer of the model."""
    value = c.get(name)
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in value):
        raise ConfigError(name, f"expected a list of layer numbers, got {_number_text(value)}", "not_layer_list")
    for i in value:
        if not base <= i < layers + base:
            raise ConfigError(name, f"layer {i} is outside {base}..{layers - 1 + base}", "layer_index",
                              index=i, lo=base, hi=layers - 1 + base)
    return [i - base for i in value]


def _first(c: dict, names: tuple):
    for n in names:
        if c.get(n) is not None:
            return n
    return None


BOOLS = ("tie_word_embeddings", "attention_bias", "mlp_bias", "use_sliding_window", "use_qk_norm", "use_conv_bias",
         "use_bias", "mamba_conv_bias", "mamba_proj_bias")
# Optional whole-number fields and their smallest sensible value, checked before they steer the layer pattern.
OPTIONAL_INTS = {"first_k_dense_replace": 0, "decoder_sparse_step": 1, "moe_layer_freq": 1,
                 "n_shared_experts": 0, "num_shared_experts": 0, "shared_expert_intermediate_size": 1, "q_lora_rank": 1,
                 "max_window_layers": 0, "num_nextn_predict_layers": 0, "interleave_moe_layer_step": 1}


def _check_types(c: dict) -> None:
    """Refuse values of the wrong type in every field the reader uses, before any arithmetic."""
    for name in BOOLS:
        if name in c:
            _bool(c, name)
    for name, lo in OPTIONAL_INTS.items():
        if c.get(name) is not None:
            c[name] = _int(c, name, lo=lo)
    if c.get("sliding_window_pattern") is not None:
        if isinstance(c["sliding_window_pattern"], str):    # "LLLG" (EXAONE 4): another way to write a pattern
            raise ConfigError("sliding_window_pattern", "a pattern written as text is not modelled", "unmodelled",
                              kind="sliding_pattern", fields="sliding_window_pattern")
        c["sliding_window_pattern"] = _int(c, "sliding_window_pattern")
    for name in ("architectures",):
        value = c.get(name)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ConfigError(name, f"expected a list of names, got {_number_text(value)}", "not_text_list")
    for name in ("_name_or_path", "torch_dtype", "dtype"):
        if c.get(name) is not None:
            _text(c[name], name)
