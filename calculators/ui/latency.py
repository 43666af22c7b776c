"""The end-to-end latency calculator: time to first token, the answer at the expected speed, and an agent loop."""

from __future__ import annotations

from ..data import scenarios as S
from ..text import fmt
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .decode import CEILING_ROWS, EXPECTED_ROWS, SPEC_SPEED, comm_rows, layout_rows
from .fields import (AS_RELEASED, CONFIG, DEVICE, DEVICES, EFFICIENCY, EP, EP_OFF, KV_PRECISION, LATENCY, MAX_TOKENS, MODEL, PP,
                     SPEC_ACCEPTANCE, SPEC_K, CountField, SecondsField, TokensField)
from .messages import N_, UNKNOWN

R_TTFT, R_E2E, R_LOOP = N_("Time to first token"), N_("End-to-end latency"), N_("Agent loop")
# No dense BF16 peak published (WSE-3, Groq LPU, MI355X): the prompt's arithmetic cannot be timed.
TTFT_UNKNOWN = N_("unknown: {device} has no published dense BF16 peak, so the prompt's arithmetic cannot be timed")


class Latency(Calculator):
    name = "latency"
    title = N_("End-to-end latency and agent loop")
    fields = (MODEL, CONFIG, KV_PRECISION, DEVICE, DEVICES, PP, EP,
              TokensField("prompt", N_("Prompt tokens"), hi=MAX_TOKENS),
              TokensField("output", N_("Output tokens"), hi=MAX_TOKENS),
              CountField("steps", N_("Agent steps"), hi=10_000),
              SecondsField("tool_s", N_("Tool time per step (s)"), hi=86_400), EFFICIENCY, LATENCY, SPEC_K, SPEC_ACCEPTANCE)

    def _defaults(self) -> dict:
        return {"model": "llama-3.1-70b", "config": "", "device": I.DEFAULT_DEVICE, "devices": S.SPEED_DEVICES, "pp": 1,
                "ep": EP_OFF, "prompt": S.SPEED_PROMPT, "output": S.SPEED_OUTPUT, "steps": S.AGENT_STEPS, "tool_s": 0.0,
                "kv_precision": "bf16", "efficiency": I.default_efficiency_percent(), "latency_us": I.default_latency_us(),
                "spec_k": 0, "spec_acceptance": I.default_acceptance_percent()}

    def check(self, values, locale, tr, cat):
        whole = dict(values, context=values["prompt"] + values["output"], batch=1)
        return (checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat, prompt_and_output=True)
                or checks.layout_errors(values, locale, tr, cat) or checks.fit_errors(whole, locale, tr, cat))

    def result(self, inputs, locale, cat) -> Result:
        p = I.latency_parts(inputs, cat)
        spec = I.speculation(inputs, I.model(inputs, cat))
        q = lambda v, kind: fmt.format_quantity(v, kind, locale)  # noqa: E731
        d = cat.devices[inputs["device"]]
        ttft = (Row(R_TTFT, q(p["ttft"], "seconds")) if p["ttft"] is not None
                else Row(R_TTFT, TTFT_UNKNOWN, fill=(("device", d.name, False),)))
        rows = layout_rows(inputs, locale) + [ttft, Row(CEILING_ROWS[1], q(p["ceiling"], "tok_per_s"))]
        rows += comm_rows(p["expected"], d, locale)
        rows.append(Row(SPEC_SPEED if spec is not None else EXPECTED_ROWS[1], q(p["speed"], "tok_per_s")))
        if p["ttft"] is None:          # the first token's wait is unknown, so is the whole
            return Result(rows + [Row(R_E2E, UNKNOWN), Row(R_LOOP, UNKNOWN)], "")
        rows += [Row(R_E2E, q(p["call"], "seconds")), Row(R_LOOP, q(p["loop"], "seconds"))]
        return Result(rows, "")

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.latency(inputs, locale, tr, chart_id, cat)
