"""What a reader sees of their own config.json: messages for bad input and what was read from it.

The summary rows let a reader check the interpretation (parameters, layers by
attention kind, KV bytes per token, experts, precision per tensor group)
before trusting any result computed from it. Every text is a msgid the page
translates; numbers are formatted for the reader's locale.
"""

from __future__ import annotations

from ..text import fmt
from ..perf import roofline as M
from ..arch import precision as P
from ..arch.layers import MoEMLP
from ..data.byo import MAX_SHARE_CHARS, ByoError
from .calculator import Row
from .messages import N_


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
    "layer_types": N_("layer_types lists {listed} layers, but num_hidden_layers says {layers}."),
    "unknown_types": N_("layer_types names attention types the calculators do not know: {types}."),
    "invalid": N_("config.json holds values the calculators cannot read."),
}

R_NAME = N_("Model read from config.json")
R_PARAMS = N_("Parameters: total, active per token")
R_LAYERS = N_("Layers by attention kind")
R_KV = N_("KV cache per token at long context")
R_EXPERTS = N_("Experts")
R_PRECISION = N_("Precision per tensor group")
R_LINK = N_("Link")

KINDS = {"full": N_("{n} full attention"), "sliding": N_("{n} sliding window of {window} tokens"),
         "latent": N_("{n} multi-head latent attention (MLA)")}
EXPERTS = N_("{routed} routed, {active} active per token, {shared} shared, in {moe} of {layers} layers")
DENSE = N_("none (dense MLP)")
NO_LINK = N_("This config is too long for a shareable link (more than {max} characters); the link keeps the other inputs.")

GROUPS = {"embeddings": N_("embeddings"), "attention": N_("attention"), "router": N_("router"),
          "experts": N_("routed experts"), "shared_experts": N_("shared experts"), "dense_mlp": N_("dense MLP"),
          "norms": N_("norms"), "lm_head": N_("lm_head")}


def message(err: ByoError, locale: str, tr) -> str:
    """The reader's-language text of a ByoError, numbers in the reader's format."""
    params = {k: (fmt.format_number(v, locale) if isinstance(v, int) else v) for k, v in err.params.items()}
    params.setdefault("max", fmt.format_number(MAX_SHARE_CHARS, locale))
    return tr(MESSAGES.get(err.code, MESSAGES["invalid"])).format(**params)


def _layers(m, locale: str, tr) -> str:
    parts = []
    for kind, n in m.arch.layer_counts().items():
        window = fmt.format_number(m.sliding_window or 0, locale)
        parts.append(tr(KINDS[kind]).format(n=fmt.format_number(n, locale), window=window))
    return "; ".join(parts)


def _experts(m, locale: str, tr) -> str:
    moe = [layer.mlp for layer in m.arch.layers if isinstance(layer.mlp, MoEMLP)]
    if not moe:
        return tr(DENSE)
    n = lambda v: fmt.format_number(v, locale)  # noqa: E731
    return tr(EXPERTS).format(routed=n(moe[0].experts), active=n(moe[0].active), shared=n(moe[0].shared_experts),
                              moe=n(len(moe)), layers=n(len(m.arch.layers)))


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
        Row(R_EXPERTS, _experts(m, locale, tr)),
        Row(R_PRECISION, _precisions(m, tr)),
    ]
    if not shareable:
        rows.append(Row(R_LINK, tr(NO_LINK).format(max=fmt.format_number(MAX_SHARE_CHARS, locale))))
    return rows
