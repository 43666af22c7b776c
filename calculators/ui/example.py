"""The example control: the running example of the main article and of the speed page, as a calculator.

A fifth `Calculator` (calculators/ui/calculator.py) whose fields are the
example's inputs (model or the reader's config.json, device and count,
weight and KV precision, context, batch): the page script's field handling,
state in the address (`?example.model=deepseek-v3`), messages for bad input
in four languages, the read-only fallback and the worker protocol are the
calculators'. Its result is no table: `page_data` answers with what the page
needs to show the reader's example in place (calculators/example/render.py,
and the example's charts, calculators/ui/example_charts.py).

Each page has its own default example (calculators/example/example.py):
`Example` for the main article, `SpeedExample` for the speed page; both keep
their state under the same name in the address.
"""

from __future__ import annotations

from dataclasses import asdict

from ..data import byo
from ..example import example as E
from ..example import render
from ..example.case import Case
from ..text import fmt
from ..text.marks import N_
from . import checks
from .calculator import Calculator, Result
from .example_charts import CHARTS
from .fields import BATCH, CONFIG, CONTEXT, DEVICE, DEVICES, KV_PRECISION, MODEL, WEIGHT_PRECISION

# The control's own words: its title, what stays fixed, and what a screen reader hears after a change.
TITLE = N_("The example of this page")
FIXED = N_("Your choice recomputes every figure of the running example, its sentences, charts and explanations. Published "
           "measurements, vendor claims, the comparisons with other models and the expected speeds fitted to measurements stay "
           "as they are.")
ANNOUNCE = N_("The page now shows {model} on {n} × {device}.")

# What the article cannot explain for an example (calculators/example/example.py: refusals), in the reader's language.
REFUSALS = {
    "no_peak": N_("{device} has no published dense BF16 peak, and the article compares every step with it; choose another device "
                  "(the decode calculator shows this one without a compute time)."),
    "no_cache": N_("{model} keeps no cache that grows with the context, which is what this article explains; the calculators "
                   "show it."),
    "at_least": N_("Enter at least {min}."),
    "one_layer": N_("{model} has a single layer; the article's example needs a model with several."),
    "no_prose": N_("{device} cannot be named in this page's sentences yet (catalog.toml: prose); the calculators show it."),
    "tp": N_("Serving engines cannot split {model} over {n} devices by tensor parallelism: {field} = {count} must divide "
             "evenly. Choose another number of devices."),
    "tp_kv": N_("Serving engines cannot split {model} over {n} devices by tensor parallelism: the number of devices must divide "
                "{field} = {count} or be a multiple of it. Choose another number of devices."),
}
FIELDS = (MODEL, CONFIG, DEVICE, DEVICES, WEIGHT_PRECISION, KV_PRECISION, CONTEXT, BATCH)


class Example(Calculator):
    """The main article's example control."""

    name = "example"
    instance = "example"      # the address's key on both pages (?example.model=…)
    page = "decode"
    title = TITLE
    note = FIXED
    fields = FIELDS

    def _defaults(self) -> dict:
        return asdict(E.DEFAULTS[self.page])

    def example(self, inputs: dict) -> E.Example:
        return E.Example(model=inputs["model"], device=inputs["device"], devices=int(inputs["devices"]),
                         weight_precision=inputs["weight_precision"], kv_precision=inputs["kv_precision"],
                         context=int(inputs["context"]), batch=int(inputs["batch"]),
                         config=inputs["config"] if inputs["model"] == byo.BYO else "")

    def check(self, values, locale, tr, cat):
        errors = checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat)
        if errors:
            return errors
        refused = E.refusals(cat, self.example(values))
        if refused:
            return {r.field: refusal_message(r, locale, tr) for r in reversed(refused)}
        return checks.fit_errors(values, locale, tr, cat)

    def result(self, inputs, locale, cat) -> Result:
        return Result()

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return ""

    def page_data(self, inputs: dict, locale: str, tr, cat, request: dict | None) -> dict:
        """The article in place for these inputs: figures, names, sentences, charts, explanations, the announcement."""
        c = Case(cat, self.example(inputs), self.page)
        request = request if isinstance(request, dict) else {}
        out = render.answer(c, locale, tr, request)
        wanted = request.get("charts") if isinstance(request.get("charts"), list) else []
        out["charts"] = {n: CHARTS[n](c, locale, tr) for n in wanted if isinstance(n, str) and n in CHARTS}
        out["announce"] = tr(ANNOUNCE).format(model=c.m.name, n=fmt.format_number(c.ex.devices, locale),
                                              device=c.d.prose.get("name", c.d.name))
        return out


class SpeedExample(Example):
    """The speed page's example control: the same inputs, its own defaults (a prompt of 2,000 tokens, a batch of 32)."""

    name = "example_speed"
    page = "speed"


def refusal_message(r: E.Refusal, locale: str, tr) -> str:
    params = dict(r.params)
    if r.code == "no_peak":
        return tr(REFUSALS["no_peak"]).format(device=params["device"])
    if r.code == "tp":
        template = REFUSALS["tp_kv"] if params["rule"] == "divides_or_multiple" else REFUSALS["tp"]
        return tr(template).format(model=params["model"], n=fmt.format_number(params["n"], locale), field=params["field"],
                                   count=fmt.format_number(params["count"], locale))
    if r.code == "at_least":
        return tr(REFUSALS["at_least"]).format(min=fmt.format_number(params["min"], locale))
    return tr(REFUSALS[r.code]).format(**{k: v for k, v in params.items() if isinstance(v, str)})
