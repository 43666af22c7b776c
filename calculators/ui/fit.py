"""The fit calculator: per device, the fewest devices that hold the model and its cache, by the best layout,
and the count as deployed (the engine's memory reserve, whole nodes)."""

from __future__ import annotations

from ..perf import deployment as D
from ..perf import fit as fitting
from ..perf import roofline as M
from ..text import fmt
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .fields import AS_RELEASED, BATCH, CONFIG, CONTEXT, KV_PRECISION, MODEL, WEIGHT_PRECISION
from .messages import N_, UNKNOWN

SCHEME_NAMES = {"tp": N_("tensor parallel"), "pp": N_("pipeline, by layer"),
                "tp-pp": N_("tensor parallel × pipeline"), "dp-attention": N_("data-parallel attention")}
FIT_ONE = N_("{n}; deployed: {deployable} ({usable} of memory usable)")
FIT_NODES = N_("{n} ({scheme}: {layout}); deployed: {deployable} ({usable} of memory usable, {node} per node)")
FIT_SINGLE = N_("{n} ({scheme}: {layout}); deployed: {deployable} ({usable} of memory usable)")
FIT_NO_RESERVE = N_("{n} ({scheme}: {layout}); with only {usable} of memory usable, no layout fits")
# Why no layout fits (perf/fit.py never_kind): the smallest piece no layout splits (one layer's cache and state for one
# request, split by head as far as the heads go; a latent whole) exceeds a device, or the search stops at its limit.
NEVER = {fitting.NEVER_LAYER: N_("{dash}: one layer's KV cache and state for one request, split by head as far as the heads go "
                                 "({kv}), exceed the memory of one device ({capacity})"),
         fitting.NEVER_LIMIT: N_("{dash}: no layout of up to {limit} devices fits")}
R_WEIGHTS, R_KV = N_("Weights"), N_("KV cache")


def fit_row(d, f: fitting.Fit, shape: D.Shape, context: int, batch: int, locale: str) -> Row:
    """One device's answer: count and scheme, and the count as deployed (engine reserve, whole nodes), or why none fits."""
    q = lambda v: fmt.format_quantity(v, "bytes", locale)  # noqa: E731
    b = f.best
    if b is None:
        kind, piece = fitting.never_kind(shape, d.serving.bytes, context, batch)
        return Row(d.name, NEVER[kind], name=True, fill=(
            ("dash", UNKNOWN, False), ("kv", q(piece), False), ("capacity", q(d.serving.bytes), False),
            ("limit", fmt.format_number(fitting.LIMIT, locale), False)))
    usable = fmt.format_percent(f.usable_fraction, locale, decimals=0)
    fill = [("n", fmt.format_number(b.devices, locale), False), ("scheme", SCHEME_NAMES[b.scheme], True),
            ("layout", b.deployment.label(), False), ("usable", usable, False),
            ("node", fmt.format_number(f.node_size, locale), False)]
    if f.deployable_devices is None:
        return Row(d.name, FIT_NO_RESERVE, name=True, fill=tuple(fill))
    fill.append(("deployable", fmt.format_number(f.deployable_devices, locale), False))
    template = FIT_ONE if b.devices == 1 else FIT_NODES if f.node_size > 1 else FIT_SINGLE
    return Row(d.name, template, name=True, fill=tuple(fill))


class Fit(Calculator):
    name = "fit"
    title = N_("Fit calculator: how many devices hold the model")
    fields = (MODEL, CONFIG, WEIGHT_PRECISION, KV_PRECISION, CONTEXT, BATCH)

    def _defaults(self) -> dict:
        return {"model": "deepseek-v3", "weight_precision": AS_RELEASED, "kv_precision": "bf16",
                "context": 32 * 1024, "batch": 8, "config": ""}

    def check(self, values, locale, tr, cat):
        return checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat)

    def result(self, inputs, locale, cat) -> Result:
        m = I.model(inputs, cat)
        ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
        q = lambda v: fmt.format_quantity(v, "bytes", locale)  # noqa: E731
        rows = [Row(R_WEIGHTS, q(M.weight_bytes_stored(m, I.weight_precision(inputs)))),
                Row(R_KV, q(M.kv_bytes(m, ctx, batch, prec)))]
        rows += [fit_row(d, f, shape, ctx, batch, locale) for d, f, shape in I.fits(inputs, cat)]
        return Result(rows, "")

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.fit(inputs, locale, tr, chart_id, cat)
