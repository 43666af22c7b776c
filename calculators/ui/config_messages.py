"""What a reader sees of their own config.json: messages for bad input and what was read from it.

The summary rows let a reader check the interpretation (parameters, layers by
kind, KV bytes per token, the fixed state of linear-attention and state-space
layers, experts, MTP modules, precision per tensor group) before trusting any
result computed from it. Every text is a msgid (or a plural message) the page
translates; numbers are formatted for the reader's locale. A refusal names its
code's message (MESSAGES), or for layers the calculators do not model, the
kind's (UNMODELLED).
"""

from __future__ import annotations

from ..text import fmt
from ..text.message import COUNT, say
from ..perf import roofline as M
from ..arch import precision as P
from ..data.byo import MAX_SHARE_CHARS, ByoError
from .calculator import Row
from .messages import N_, P_


MESSAGES = {
    "too_large": N_("This is too large for a config.json: at most {max} characters are read."),
    "empty": N_("Paste the contents of a config.json, or drop the file here."),
    "not_json": N_("This is not valid JSON (line {line}, column {column})."),
    "not_config": N_("This JSON is not a model config: it has neither num_hidden_layers nor hidden_size."),
    "unsupported": N_("This architecture ({model_type}) is not supported: the calculators need {missing}."),
    "unsupported_quant": N_("The quantization method {method} is not supported (supported: {known}, or none)."),
    "missing": N_("config.json lacks {field}, which the computation needs."),
    "not_integer": N_("In config.json, {field} must be a whole number."),
    "range": N_("In config.json, {field} must be between {lo} and {hi}."),
    # the count is the entries of layer_types (ConfigError param "listed")
    "layer_types": P_("layer_types lists {n} layer, but num_hidden_layers says {layers}.",
                      "layer_types lists {n} layers, but num_hidden_layers says {layers}.", "config"),
    "unknown_types": N_("layer_types names attention types the calculators do not know: {types}."),
    "not_text": N_("In config.json, {field} must be text."),
    "not_bool": N_("In config.json, {field} must be true or false (without quotation marks)."),
    "not_object": N_("In config.json, {field} must be a JSON object."),
    "not_text_list": N_("In config.json, {field} must be a list of names."),
    "not_layer_list": N_("In config.json, {field} must be a list of layer numbers."),
    "layer_index": N_("In config.json, {field} names layer {index}, but the layers are numbered {lo} to {hi}."),
    # the count is the model's number of layers (ConfigError param "layers")
    "layer_cover": P_("In config.json, {field} must assign the {n} layer to exactly one kind.",
                      "In config.json, {field} must assign each of the {n} layers to exactly one kind.", "config"),
    "pattern": N_("In config.json, {field} names block kinds the calculators do not model: {chars} (modeled: {known})."),
    # the count is the layers the pattern describes (ConfigError param "listed")
    "pattern_length": P_("In config.json, {field} describes {n} layer, but num_hidden_layers says {layers}.",
                         "In config.json, {field} describes {n} layers, but num_hidden_layers says {layers}.", "config"),
    "kv_heads": N_("In config.json, num_key_value_heads ({kv}) must divide num_attention_heads ({heads})."),
    "unsupported_dtype": N_("In config.json, {field} is {dtype}, which the calculators do not support (supported: {known})."),
    "unsupported_block": N_("FP8 weights with blocks of {block} values are not supported (supported: {known})."),
    "too_deep": N_("This config.json is nested more than {max} levels deep; a model config is not."),
    "not_decoder": N_("{model_type} is not a decoder-only language model (it is an encoder, an encoder-decoder or a vision or "
                      "speech model); the calculators model decoders that generate one token after another."),
    "invalid": N_("config.json holds values the calculators cannot read."),
}
# Which ConfigError parameter is the count {n} of a plural message.
COUNTED = {"layer_cover": "layers", "pattern_length": "listed", "layer_types": "listed"}

# Code "unmodelled": layers the calculators do not model, one message per kind (calculators/arch/refusal.py SIGNALS);
# {fields} names the fields that signal them.
UNMODELLED = {
    "state_space": N_("config.json describes state-space (Mamba) layers ({fields}). The calculators model them only in "
                      "Nemotron-H and Jamba configs; for this model family its layer pattern and state sizes would have to "
                      "be read. Nothing is computed as attention instead."),
    "recurrent": N_("config.json describes a recurrent model ({fields}) without attention layers the calculators model; "
                    "its state sizes would have to be read. Nothing is computed as attention instead."),
    "linear_attention": N_("config.json describes linear-attention layers ({fields}). The calculators model them only in "
                           "Qwen3-Next (Gated DeltaNet) and Kimi Linear (KDA) configs; for this model family its layer "
                           "pattern and state sizes would have to be read. Nothing is computed as attention instead."),
    "sparse_attention": N_("config.json describes a sparse-attention indexer ({fields}). The calculators model it only in "
                           "DeepSeek V3.2 configs; for this model family its cache and the tokens it reads would have to "
                           "be known. Nothing is computed as dense attention instead."),
    "block_sparse_attention": N_("config.json describes block-sparse attention ({fields}), which the calculators do not "
                                 "model; the blocks each layer reads would have to be known. Nothing is computed as dense "
                                 "attention instead."),
    "chunked_attention": N_("config.json describes chunked attention ({fields}). The calculators model it only in Llama 4 "
                            "configs; for this model family it would have to be known which layers work in chunks and how "
                            "large they are. Nothing is computed as full attention instead."),
    "cross_attention": N_("config.json describes cross-attention layers ({fields}), whose cache holds the image or encoder "
                          "tokens, not the text; the calculators do not model them. Nothing is computed as text attention "
                          "instead."),
    "encoder_decoder": N_("config.json describes an encoder-decoder model ({fields}); the calculators model decoder-only "
                          "models. Nothing is computed instead."),
    "sliding_pattern": N_("config.json sets the pattern of sliding-window layers in a form the calculators do not read "
                          "({fields}); they read layer_types, sliding_window_pattern as a number and max_window_layers. "
                          "Nothing is computed as full attention instead."),
    "mtp": N_("config.json describes multi-token-prediction modules ({fields}) whose shape the calculators know only for "
              "DeepSeek V3, DeepSeek V3.2, GLM-4.5 and MiniMax M2 configs; for this model family the modules' layers "
              "would have to be known. Nothing is computed instead."),
    "moe_pattern": N_("config.json places or shapes its experts in a way the calculators do not read ({fields}); it would "
                      "have to be known which layers hold experts and how many are shared. Nothing is computed instead."),
}

R_NAME = N_("Model read from config.json")
R_PARAMS = N_("Parameters: total, active per token")
R_LAYERS = N_("Layers by attention kind")
R_KV = N_("KV cache per token at long context")
R_STATE = N_("Fixed state per request (linear-attention and state-space layers)")
R_EXPERTS = N_("Experts")
R_MTP = N_("Multi-token prediction modules (stored, not read by plain decode)")
R_PRECISION = N_("Precision per tensor group")
R_LINK = N_("Link")

# One entry per mixer kind (calculators/arch/layers.py, recurrent.py: `kind`), filled from Architecture.kind_summary():
# {n} layers, and the number the kind names ({window}, {chunk}, {topk}).
KINDS = {"full": N_("{n} full attention"), "sliding": N_("{n} sliding window of {window} tokens"),
         "latent": N_("{n} multi-head latent attention (MLA)"),
         "linear": N_("{n} linear attention (Gated DeltaNet)"), "kda": N_("{n} Kimi Delta Attention"),
         "mamba2": N_("{n} Mamba-2 state-space"), "mamba": N_("{n} Mamba state-space"), "none": N_("{n} MLP only"),
         "chunked": N_("{n} chunked attention in chunks of {chunk} tokens"),
         "sparse_latent": N_("{n} sparse multi-head latent attention (top {topk} tokens)")}
EXPERTS = N_("{routed} routed, {active} active per token, {shared} shared, in {moe} of {layers} layers")
DENSE = N_("none (dense MLP)")
NO_LINK = N_("This config is too long for a shareable link (more than {max} characters); the link keeps the other inputs.")

GROUPS = {"embeddings": N_("embeddings"), "attention": N_("attention"), "router": N_("router"),
          "experts": N_("routed experts"), "shared_experts": N_("shared experts"), "dense_mlp": N_("dense MLP"),
          "norms": N_("norms"), "lm_head": N_("lm_head")}


def template(err: ByoError):
    """The message (a msgid or a plural message) that says what is wrong: per code, and per kind for "unmodelled"."""
    if err.code == "unmodelled":
        return UNMODELLED.get(err.params.get("kind"), MESSAGES["invalid"])
    return MESSAGES.get(err.code, MESSAGES["invalid"])


def message(err: ByoError, locale: str, tr) -> str:
    """The reader's-language text of a ByoError, numbers in the reader's format."""
    params = {k: (fmt.format_number(v, locale) if isinstance(v, int) and not isinstance(v, bool) else str(v))
              for k, v in err.params.items()}
    params.setdefault("max", fmt.format_number(MAX_SHARE_CHARS, locale))
    if err.code in COUNTED and COUNTED[err.code] in params:
        params[COUNT] = params[COUNTED[err.code]]
    msg = template(err)
    try:
        return say(tr, msg, locale, **params)
    except KeyError:     # a code raised without the parameters its message names: say what is certain
        return say(tr, MESSAGES["invalid"], locale)


def _layers(m, locale: str, tr) -> str:
    n = lambda v: fmt.format_number(v, locale)  # noqa: E731
    return "; ".join(tr(KINDS[kind]).format(n=n(count), **{k: n(v) for k, v in numbers.items()})
                     for kind, count, numbers in m.arch.kind_summary())


def _experts(m, locale: str, tr) -> str:
    moe = m.arch.moe_summary()
    if moe is None:
        return tr(DENSE)
    routed, active, shared, moe_layers, layers = (fmt.format_number(v, locale) for v in moe)
    return tr(EXPERTS).format(routed=routed, active=active, shared=shared, moe=moe_layers, layers=layers)


def _precisions(m, tr) -> str:
    params = m.arch.params_by_group()
    return ", ".join(f"{tr(GROUPS[g])} {m.arch.precisions[g].label}" for g in P.GROUPS if params[g])


def summary_rows(m, kv_precision: str, locale: str, tr, shareable: bool) -> list:
    """What the calculators read from the config, shown above the result."""
    q = lambda v, kind: fmt.format_quantity(v, kind, locale)  # noqa: E731
    rows = [
        Row(R_NAME, m.name),
        Row(R_PARAMS, f"{q(m.total_params, 'params')}, {q(m.active_params, 'params')}"),
        Row(R_LAYERS, _layers(m, locale, tr)),
        Row(R_KV, q(M.kv_bytes_per_token(m, kv_precision), "bytes")),
    ]
    state = M.state_bytes(m, 1)
    if state > 0:
        rows.append(Row(R_STATE, q(state, "bytes")))
    rows += [Row(R_EXPERTS, _experts(m, locale, tr))]
    mtp = m.arch.mtp_params()
    if mtp > 0:
        rows.append(Row(R_MTP, q(mtp, "params")))
    rows.append(Row(R_PRECISION, _precisions(m, tr)))
    if not shareable:
        rows.append(Row(R_LINK, tr(NO_LINK).format(max=fmt.format_number(MAX_SHARE_CHARS, locale))))
    return rows
