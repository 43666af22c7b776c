"""The decode speed calculator: one decode step split into weights, KV cache, fixed state and arithmetic, the
ceiling (full bandwidth, no overhead), the expected step as an engine serves it (calculators/perf/step_time.py:
calibrated on published measurements, with its typical range), and speculative decoding."""

from __future__ import annotations

from ..perf import roofline as M
from ..perf import step_time as T
from ..text import fmt, units
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .fields import (AS_RELEASED, BATCH, CONFIG, CONTEXT, DEVICE, DEVICES, ENGINE, EP, EP_OFF, GENERIC_ENGINE, KV_PRECISION,
                     MODEL, PP, SPEC_ACCEPTANCE, SPEC_K, WEIGHT_PRECISION)
from .messages import N_, UNKNOWN

EXPERT_SHARE = N_("Share of the experts the batch reads")
R_WEIGHTS, R_KV, R_ARITHMETIC = N_("Reading weights"), N_("Reading the KV cache"), N_("Arithmetic at peak")
R_STATE = N_("Reading and writing back the fixed state")
# Without a published peak only what memory allows is shown.
MEMORY_ONLY_ROWS = (N_("Time per step, memory only (lower bound)"), N_("Speed per request, memory only (upper bound)"),
                    N_("Throughput of the batch, memory only (upper bound)"))
CEILING_ROWS = (N_("Time per step, lower bound (full bandwidth, no communication)"),
                N_("Speed per request, ceiling"), N_("Throughput of the batch, ceiling"))
# The expected step (calculators/perf/step_time.py): each value with its typical range (the held-out spread)
EXPECTED_ROWS = (N_("Time per step, expected (calibrated)"), N_("Speed per request, expected"),
                 N_("Throughput of the batch, expected"))
TYPICALLY = N_("{value}, typically {range}")
R_MEMORY_TERM = N_("of which reading weights and KV cache")
R_FIXED_TERM = N_("of which fixed cost per layer ({units} weighted layers × {each})")
R_COMM_TERM = N_("of which communication ({count} collectives × {each})")
R_HANDOFFS = N_("of which pipeline hand-offs")
R_COMPUTE_TERM = N_("Arithmetic (overlaps the reads; counts where it takes longer)")
R_PACE = N_("What sets the pace")
V_FIXED, V_COMM = N_("fixed cost per layer"), N_("communication")
PACE = {"memory": I.V_MEMORY, "compute": I.V_COMPUTE, "fixed": V_FIXED, "communication": V_COMM}
LAYOUT_LABEL = N_("Layout")
PIPELINE_LABEL = N_("Pipeline")
PIPELINE = N_("{pp} stages in turn: each token passes every stage, so the stage times add up; stages add memory, not speed")
SPEC_TOKENS = N_("Tokens per verify step (expected)")
SPEC_SPEED = N_("Speed per request, expected, with speculative decoding")


def _q(value, kind, locale, **kw):
    return fmt.format_quantity(value, kind, locale, **kw)


def typically(label: str, value: float, low: float, high: float, kind: str, locale: str) -> Row:
    """A row whose value is an expected quantity with its typical range ("12.0 ms, typically 9.36–12.9 ms").
    A time under two minutes keeps its range in seconds too ("116 s, typically 91.0–125 s", not "… – 2 min 5 s")."""
    unit = "s" if kind == "seconds" and value < float(units.MINUTES_FROM) <= high else None
    return Row(label, TYPICALLY, fill=(("value", _q(value, kind, locale), False),
                                       ("range", fmt.format_quantity_range(low, high, kind, locale, unit=unit), False)))


def uncalibrated(label: str, served: I.Served) -> Row:
    """The row that says why there is no expected value (the device, or the engine on it, is not calibrated)."""
    return Row(label, served.why, fill=served.fill, translate=True)


def term_rows(t: T.Terms, locale: str) -> list:
    """The expected step term by term: what it reads, its fixed cost per layer, its collectives and hand-offs,
    its arithmetic (which overlaps the reads), and which term sets the pace."""
    num = lambda v: fmt.format_number(v, locale, decimals=0)  # noqa: E731
    units = num(t.layer_units)    # layers weighted by their kind (MoE, latent): a sum of fitted weights, whole enough
    rows = [Row(R_MEMORY_TERM, _q(t.memory_s, "seconds", locale)),
            Row(R_FIXED_TERM, _q(t.fixed_s, "seconds", locale),
                label_fill=(("units", units, False), ("each", _q(t.tau_s, "seconds", locale), False)))]
    collectives = t.collectives * t.collective_s
    if t.collectives:
        rows.append(Row(R_COMM_TERM, _q(collectives, "seconds", locale),
                        label_fill=(("count", num(t.collectives), False), ("each", _q(t.collective_s, "seconds", locale), False))))
    if t.comm_s - collectives > 0:    # stages hand the activations on: the rest of the communication term
        rows.append(Row(R_HANDOFFS, _q(t.comm_s - collectives, "seconds", locale)))
    return rows + [Row(R_COMPUTE_TERM, _q(t.compute_s, "seconds", locale)), Row(R_PACE, PACE[t.bound], translate=True)]


def layout_rows(inputs: dict, locale: str) -> list:
    """The layout as data (TP8, TP4×PP2 EP) and, with stages, what they do to a token's time."""
    dep = I.deployment(inputs)
    rows = [Row(LAYOUT_LABEL, dep.label())]
    if dep.pp > 1:
        rows.append(Row(PIPELINE_LABEL, PIPELINE, fill=(("pp", fmt.format_number(dep.pp, locale), False),)))
    return rows


class Decode(Calculator):
    name = "decode"
    title = N_("Decode speed calculator")
    fields = (MODEL, CONFIG, WEIGHT_PRECISION, KV_PRECISION, DEVICE, DEVICES, PP, EP, BATCH, CONTEXT, ENGINE,
              SPEC_K, SPEC_ACCEPTANCE)

    def _defaults(self) -> dict:
        return {"model": "llama-3.1-70b", "weight_precision": AS_RELEASED, "device": I.DEFAULT_DEVICE, "devices": 8,
                "pp": 1, "ep": EP_OFF, "batch": 1, "context": 8 * 1024, "kv_precision": "bf16", "config": "",
                "engine": GENERIC_ENGINE, "spec_k": 0, "spec_acceptance": I.default_acceptance_percent()}

    def check(self, values, locale, tr, cat):
        return (checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat)
                or checks.layout_errors(values, locale, tr, cat) or checks.fit_errors(values, locale, tr, cat))

    def result(self, inputs, locale, cat) -> Result:
        s = I.step(inputs, cat)
        m = I.model(inputs, cat)
        batch, context = int(inputs["batch"]), int(inputs["context"])
        share = M.expert_share(m, batch)
        # MoE only: each token picks k of E experts, so a batch of B reads 1 - (1 - k/E)^B of them, not k/E
        experts = [Row(EXPERT_SHARE, fmt.format_percent(share, locale, decimals=0))] if share is not None else []
        state = [Row(R_STATE, _q(s.state_s, "seconds", locale))] if s.state_s > 0 else []
        rows = layout_rows(inputs, locale) + experts + [
            Row(R_WEIGHTS, _q(s.weights_s, "seconds", locale)),
            Row(R_KV, _q(s.kv_s, "seconds", locale)), *state,
            Row(R_ARITHMETIC, _q(s.compute_s, "seconds", locale) if s.compute_s is not None else UNKNOWN),
        ]
        ceiling = MEMORY_ONLY_ROWS if s.compute_s is None else CEILING_ROWS  # without a peak: only what memory allows
        rows += [Row(label, text) for label, text in zip(ceiling, (
            _q(s.time_s, "seconds", locale), _q(s.tokens_per_s, "tok_per_s", locale),
            _q(s.aggregate_tokens_per_s, "tok_per_s", locale)))]
        served = I.served(inputs, cat, T.Workload(batch, context))
        spec = I.speculation(inputs, m)
        e = served.expected
        if e is None:        # nothing calibrates it: the ceiling only, and why
            rows.append(uncalibrated(EXPECTED_ROWS[0], served))
        else:
            low, high = e.tokens_per_s_range
            rows += [typically(EXPECTED_ROWS[0], e.time_s, e.low_s, e.high_s, "seconds", locale),
                     *term_rows(e.terms, locale),
                     typically(EXPECTED_ROWS[1], e.tokens_per_s, low, high, "tok_per_s", locale),
                     typically(EXPECTED_ROWS[2], batch * e.tokens_per_s, batch * low, batch * high, "tok_per_s", locale)]
        if spec is not None:
            rows.append(Row(SPEC_TOKENS, fmt.format_number(spec.tokens_per_step, locale, decimals=2)))
            if e is not None:
                rows.append(typically(SPEC_SPEED, served.speed, *served.speed_range, "tok_per_s", locale))
        return Result(rows, I.verdict(s))

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.decode(inputs, locale, tr, chart_id, cat)
