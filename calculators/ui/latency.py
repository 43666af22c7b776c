"""The end-to-end latency calculator: time to first token, the answer at the expected speed, and an agent loop."""

from __future__ import annotations

from ..data import scenarios as S
from ..text import fmt
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .decode import CEILING_ROWS, EXPECTED_ROWS, SPEC_SPEED, layout_rows, typically, uncalibrated
from .fields import (CONFIG, DEVICE, DEVICES, ENGINE, EP, EP_OFF, GENERIC_ENGINE, KV_PRECISION, MAX_TOKENS, MODEL, PP,
                     SPEC_ACCEPTANCE, SPEC_K, CountField, SecondsField, TokensField)
from .messages import N_, UNKNOWN

R_TTFT, R_E2E, R_LOOP = N_("Time to first token"), N_("End-to-end latency"), N_("Agent loop")
# No dense BF16 peak published (WSE-3, Groq LPU, MI355X): the prompt's arithmetic cannot be timed.
TTFT_UNKNOWN = N_("unknown: {device} has no published dense BF16 peak, so the prompt's arithmetic cannot be timed")
# Nothing calibrates the expected speed: the answer at the ceiling's speed, so its times are lower bounds.
R_E2E_CEILING = N_("End-to-end latency, lower bound (at the ceiling speed)")
R_LOOP_CEILING = N_("Agent loop, lower bound (at the ceiling speed)")


class Latency(Calculator):
    name = "latency"
    title = N_("End-to-end latency and agent loop")
    fields = (MODEL, CONFIG, KV_PRECISION, DEVICE, DEVICES, PP, EP,
              TokensField("prompt", N_("Prompt tokens"), hi=MAX_TOKENS),
              TokensField("output", N_("Output tokens"), hi=MAX_TOKENS),
              CountField("steps", N_("Agent steps"), hi=10_000),
              SecondsField("tool_s", N_("Tool time per step (s)"), hi=86_400), ENGINE, SPEC_K, SPEC_ACCEPTANCE)

    def _defaults(self) -> dict:
        return {"model": "llama-3.1-70b", "config": "", "device": I.DEFAULT_DEVICE, "devices": S.SPEED_DEVICES, "pp": 1,
                "ep": EP_OFF, "prompt": S.SPEED_PROMPT, "output": S.SPEED_OUTPUT, "steps": S.AGENT_STEPS, "tool_s": 0.0,
                "kv_precision": "bf16", "engine": GENERIC_ENGINE,
                "spec_k": 0, "spec_acceptance": I.default_acceptance_percent()}

    def check(self, values, locale, tr, cat):
        whole = dict(values, context=values["prompt"] + values["output"], batch=1)
        return (checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat, prompt_and_output=True)
                or checks.layout_errors(values, locale, tr, cat) or checks.fit_errors(whole, locale, tr, cat))

    def result(self, inputs, locale, cat) -> Result:
        p = I.latency_parts(inputs, cat)
        d = cat.devices[inputs["device"]]
        spec = I.speculation(inputs, I.model(inputs, cat))
        q = lambda v, kind: fmt.format_quantity(v, kind, locale)  # noqa: E731
        ttft = (Row(R_TTFT, q(p["ttft"], "seconds")) if p["ttft"] is not None
                else Row(R_TTFT, TTFT_UNKNOWN, fill=(("device", d.name, False),)))
        rows = layout_rows(inputs, locale) + [ttft, Row(CEILING_ROWS[1], q(p["ceiling"], "tok_per_s"))]
        served = p["served"]
        speed_label = SPEC_SPEED if spec is not None else EXPECTED_ROWS[1]
        if not p["calibrated"]:        # the ceiling only, and why; the times at the ceiling's speed are lower bounds
            rows.append(uncalibrated(speed_label, served))
            e2e, loop = (R_E2E_CEILING, q(p["call"], "seconds")), (R_LOOP_CEILING, q(p["loop"], "seconds"))
            if p["ttft"] is None:
                e2e, loop = (R_E2E_CEILING, UNKNOWN), (R_LOOP_CEILING, UNKNOWN)
            return Result(rows + [Row(*e2e), Row(*loop)], "")
        rows.append(typically(speed_label, served.speed, *served.speed_range, "tok_per_s", locale))
        if p["ttft"] is None:          # the first token's wait is unknown, so is the whole
            return Result(rows + [Row(R_E2E, UNKNOWN), Row(R_LOOP, UNKNOWN)], "")
        rows += [typically(R_E2E, p["call"], *p["call_range"], "seconds", locale),
                 typically(R_LOOP, p["loop"], *p["loop_range"], "seconds", locale)]
        return Result(rows, "")

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.latency(inputs, locale, tr, chart_id, cat)
