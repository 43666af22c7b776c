"""Inputs that parse but that the model cannot take, each with its message in the reader's language.

The calculators compose these in their `check`: the reader's config.json must
be a config the model reads; a context (or prompt and output) must fit the
model's window; a layout must be one the model can take (stages no more than
layers, a device count the stages divide, a tensor-parallel degree the
attention heads split into, expert parallelism only with experts); and the decode and latency calculators need the model and its cache
on the devices given.
"""

from __future__ import annotations

from ..arch.layers import MoEMLP
from ..data import byo
from ..perf import deployment as D
from ..perf import roofline as M
from ..text import fmt
from . import config_messages
from . import inputs as I
from .fields import CUSTOM, EP_ON
from .messages import N_

M_CONTEXT = N_("{model} reads at most {max} tokens of context.")
M_PROMPT_OUTPUT = N_("Prompt and output together exceed the {max} tokens {model} can read.")
M_DEVICES = N_("{model} does not fit on {n} × {device} with this cache: it needs at least {need}.")
M_NEVER_FITS = N_("{model} does not fit on any number of {device} split by tensor parallelism alone with this cache: the part of "
                  "the KV cache each device must hold is too large. The fit calculator shows splits by layer and by request.")
M_PP_LAYERS = N_("{model} has {layers} layers, so it splits into at most {layers} pipeline stages.")
M_PP_DEVICES = N_("{n} devices do not split into {pp} equal pipeline stages: the number of devices must be a multiple of "
                  "the number of stages.")
M_EP_DENSE = N_("{model} has no routed experts, so there is nothing to place by expert parallelism.")
# A tensor-parallel degree engines cannot run (DeploymentError codes of perf/deployment.py `Deployment.problem`).
M_TP_HEADS = N_("Tensor parallelism over {tp} devices needs {field} ({count}) to be a multiple of {tp}: engines split the "
                "heads evenly. Choose a count that divides {count}.")
M_TP_KV_HEADS = N_("Tensor parallelism over {tp} devices needs {field} ({count}) to be a multiple of {tp}, or {tp} to be a "
                   "multiple of {count} (several devices then hold the same KV head). Choose a count that fits.")
TP_MESSAGES = {"tp_heads": M_TP_HEADS, "tp_kv_heads": M_TP_KV_HEADS}
M_LAYOUT_NO_FIT = N_("{model} does not fit on {n} × {device} as {layout} with this cache: the fullest device would hold "
                     "{held} of {capacity}.")


def config_errors(values: dict, locale: str, tr) -> dict:
    """The reader's config.json, when chosen: a message in the reader's language for whatever is wrong with it."""
    if values.get("model") != byo.BYO:
        return {}
    try:
        byo.model(values["config"])
    except byo.ByoError as e:
        return {"config": config_messages.message(e, locale, tr)}
    return {}


def context_errors(inputs: dict, locale: str, tr, cat, prompt_and_output: bool = False) -> dict:
    """A context (or a prompt with its output) longer than the chosen model reads."""
    if inputs.get("model", CUSTOM) == CUSTOM:
        return {}
    m = I.model(inputs, cat)
    limit = dict(model=m.name, max=fmt.format_number(m.max_context, locale))
    if prompt_and_output:
        if inputs["prompt"] > m.max_context:
            return {"prompt": tr(M_CONTEXT).format(**limit)}
        if inputs["prompt"] + inputs["output"] > m.max_context:
            return {"output": tr(M_PROMPT_OUTPUT).format(**limit)}
        return {}
    if inputs["context"] > m.max_context:
        return {"context": tr(M_CONTEXT).format(**limit)}
    return {}


def layout_errors(inputs: dict, locale: str, tr, cat) -> dict:
    """A layout the model cannot take: more stages than layers, a device count the stages do not divide,
    a tensor-parallel degree the heads do not split into, expert parallelism for a model without experts."""
    m = I.model(inputs, cat)
    n, pp, layers = int(inputs["devices"]), int(inputs["pp"]), len(m.arch.layers)
    num = lambda x: fmt.format_number(x, locale)  # noqa: E731
    if pp > layers:
        return {"pp": tr(M_PP_LAYERS).format(model=m.name, layers=num(layers))}
    if n % pp:
        return {"pp": tr(M_PP_DEVICES).format(n=num(n), pp=num(pp))}
    # the heads split evenly over a stage's devices (the query heads; the KV heads, or replicated whole)
    problem = I.deployment(inputs).problem(D.shape_from_catalog(m, inputs.get("kv_precision", "bf16"),
                                                                I.weight_precision(inputs)))
    if problem is not None:
        p = problem.params
        return {"devices": tr(TP_MESSAGES[problem.code]).format(tp=num(p["tp"]), field=p["field"], count=num(p["count"]))}
    if inputs.get("ep") == EP_ON and not any(isinstance(l.mlp, MoEMLP) for l in m.arch.layers):
        return {"ep": tr(M_EP_DENSE).format(model=m.name)}
    return {}


def _held_by_stages(inputs: dict, m, d, locale: str, tr) -> dict:
    """With pipeline stages: does the fullest device of the layout hold its layers' weights and cache?"""
    dep = I.deployment(inputs)
    shape = D.shape_from_catalog(m, inputs["kv_precision"], I.weight_precision(inputs))
    held = dep.held_per_device(shape, int(inputs["context"]), int(inputs["batch"]))
    if held <= d.serving.bytes:
        return {}
    q = lambda x: fmt.format_quantity(x, "bytes", locale)  # noqa: E731
    return {"pp": tr(M_LAYOUT_NO_FIT).format(model=m.name, n=fmt.format_number(dep.devices, locale), device=d.name,
                                             layout=dep.label(), held=q(held), capacity=q(d.serving.bytes))}


def fit_errors(inputs: dict, locale: str, tr, cat) -> dict:
    """The model and its cache must fit on the devices given (decode and latency calculators)."""
    m, d, n = I.model(inputs, cat), cat.devices[inputs["device"]], int(inputs["devices"])
    inputs = dict(inputs)
    inputs.setdefault("kv_precision", "bf16")
    if int(inputs.get("pp", 1)) > 1:   # split by layer too: the deployment model places the layers
        return _held_by_stages(inputs, m, d, locale, tr)
    weights, ctx, batch = I.weight_precision(inputs), int(inputs["context"]), int(inputs["batch"])
    if M.fits(m, d, n, ctx, batch, inputs["kv_precision"], weights):
        return {}
    need = I.min_devices(inputs, cat, d)
    names = dict(model=m.name, device=d.name)
    if need is None:
        return {"devices": tr(M_NEVER_FITS).format(**names)}
    return {"devices": tr(M_DEVICES).format(n=fmt.format_number(n, locale), need=fmt.format_number(need, locale), **names)}
