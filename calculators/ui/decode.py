"""The decode speed calculator: one decode step split into weights, KV cache, fixed state and arithmetic, the
ceiling and the expected speed (achieved bandwidth and communication), and speculative decoding."""

from __future__ import annotations

from ..perf import comm
from ..perf import roofline as M
from ..text import fmt
from . import charts, checks
from . import inputs as I
from .calculator import Calculator, Result, Row
from .fields import (AS_RELEASED, BATCH, CONFIG, CONTEXT, DEVICE, DEVICES, EFFICIENCY, EP, EP_OFF, KV_PRECISION, LATENCY, MODEL,
                     PP, SPEC_ACCEPTANCE, SPEC_K, WEIGHT_PRECISION)
from .messages import N_, UNKNOWN

EXPERT_SHARE = N_("Share of the experts the batch reads")
R_WEIGHTS, R_KV, R_ARITHMETIC = N_("Reading weights"), N_("Reading the KV cache"), N_("Arithmetic at peak")
R_STATE = N_("Reading and writing back the fixed state")
# Without a published peak only what memory allows is shown.
MEMORY_ONLY_ROWS = (N_("Time per step, memory only (lower bound)"), N_("Speed per request, memory only (upper bound)"),
                    N_("Throughput of the batch, memory only (upper bound)"))
CEILING_ROWS = (N_("Time per step, lower bound (full bandwidth, no communication)"),
                N_("Speed per request, ceiling"), N_("Throughput of the batch, ceiling"))
EXPECTED_ROWS = (N_("Time per step, expected (efficiency and communication)"),
                 N_("Speed per request, expected"), N_("Throughput of the batch, expected"))

COMM = N_("{time} ({count} all-reduces of {size} each)")
# per kind of message (comm.COLLECTIVES): the value template, and the row label when several kinds add up
COMM_KINDS = {"tp-allreduce": (COMM, N_("of which tensor-parallel all-reduces")),
              "pp-handoff": (N_("{time} (hand-offs between stages: {count} × {size})"), N_("of which pipeline hand-offs")),
              "ep-all-to-all": (N_("{time} (expert all-to-alls: {count} × {size})"), N_("of which expert all-to-alls"))}
COMM_UNKNOWN = N_("not counted: the bandwidth of {link} is not published")
COMM_LABEL = N_("Communication per step")
LAYOUT_LABEL = N_("Layout")
PIPELINE_LABEL = N_("Pipeline")
PIPELINE = N_("{pp} stages in turn: each token passes every stage, so the stage times add up; stages add memory, not speed")
SPEC_TOKENS = N_("Tokens per verify step (expected)")
SPEC_SPEED = N_("Speed per request, expected, with speculative decoding")


def _q(value, kind, locale, **kw):
    return fmt.format_quantity(value, kind, locale, **kw)


def _message_fill(time_s: float, count: int, size: float, locale: str) -> tuple:
    return (("time", _q(time_s, "seconds", locale), False), ("count", fmt.format_number(count, locale), False),
            ("size", _q(size, "bytes", locale), False))


def comm_rows(e: comm.Step, d, locale: str) -> list:
    """The step's communication: one row when one kind of message is sent, else the sum and a row per kind."""
    if e.unknown:
        return [Row(COMM_LABEL, COMM_UNKNOWN, fill=(("link", d.link.name, False),))]
    if not e.messages:
        return [Row(COMM_LABEL, _q(0.0, "seconds", locale))]
    if len(e.messages) == 1:
        m = e.messages[0]
        return [Row(COMM_LABEL, COMM_KINDS[m.what][0], fill=_message_fill(m.time_s, m.count, m.wire_bytes, locale))]
    rows = [Row(COMM_LABEL, _q(e.comm_s, "seconds", locale))]
    for m in e.messages:
        template, label = COMM_KINDS[m.what]
        rows.append(Row(label, template, fill=_message_fill(m.time_s, m.count, m.wire_bytes, locale)))
    return rows


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
    fields = (MODEL, CONFIG, WEIGHT_PRECISION, KV_PRECISION, DEVICE, DEVICES, PP, EP, BATCH, CONTEXT,
              EFFICIENCY, LATENCY, SPEC_K, SPEC_ACCEPTANCE)

    def _defaults(self) -> dict:
        return {"model": "llama-3.1-70b", "weight_precision": AS_RELEASED, "device": I.DEFAULT_DEVICE, "devices": 8,
                "pp": 1, "ep": EP_OFF, "batch": 1, "context": 8 * 1024, "kv_precision": "bf16", "config": "",
                # published measurements (serving.toml, catalog.toml): FlashMLA's share of bandwidth, a small NVLink all-reduce
                "efficiency": I.default_efficiency_percent(), "latency_us": I.default_latency_us(),
                "spec_k": 0, "spec_acceptance": I.default_acceptance_percent()}

    def check(self, values, locale, tr, cat):
        return (checks.config_errors(values, locale, tr) or checks.context_errors(values, locale, tr, cat)
                or checks.layout_errors(values, locale, tr, cat) or checks.fit_errors(values, locale, tr, cat))

    def result(self, inputs, locale, cat) -> Result:
        s = I.step(inputs, cat)
        e = I.expected_step(inputs, cat, s)
        m = I.model(inputs, cat)
        share = M.expert_share(m, int(inputs["batch"]))
        # MoE only: each token picks k of E experts, so a batch of B reads 1 - (1 - k/E)^B of them, not k/E
        experts = [Row(EXPERT_SHARE, fmt.format_percent(share, locale, decimals=0))] if share is not None else []
        state = [Row(R_STATE, _q(s.state_s, "seconds", locale))] if s.state_s > 0 else []
        rows = layout_rows(inputs, locale) + experts + [
            Row(R_WEIGHTS, _q(s.weights_s, "seconds", locale)),
            Row(R_KV, _q(s.kv_s, "seconds", locale)), *state,
            Row(R_ARITHMETIC, _q(s.compute_s, "seconds", locale) if s.compute_s is not None else UNKNOWN),
        ]
        ceiling = MEMORY_ONLY_ROWS if s.compute_s is None else CEILING_ROWS  # without a peak: only what memory allows
        batch = int(inputs["batch"])
        rows += [Row(label, text) for label, text in zip(ceiling, (
            _q(s.time_s, "seconds", locale), _q(s.tokens_per_s, "tok_per_s", locale),
            _q(s.aggregate_tokens_per_s, "tok_per_s", locale)))]
        rows += comm_rows(e, cat.devices[inputs["device"]], locale)
        rows += [Row(label, text) for label, text in zip(EXPECTED_ROWS, (
            _q(e.expected_s, "seconds", locale), _q(e.expected_tokens_per_s, "tok_per_s", locale),
            _q(batch * e.expected_tokens_per_s, "tok_per_s", locale)))]
        spec = I.speculation(inputs, m)
        if spec is not None:
            rows += [Row(SPEC_TOKENS, fmt.format_number(spec.tokens_per_step, locale, decimals=2)),
                     Row(SPEC_SPEED, _q(spec.tokens_per_s(e.expected_s), "tok_per_s", locale))]
        return Result(rows, I.verdict(s))

    def chart(self, inputs, locale, tr, chart_id, cat) -> str:
        return charts.decode(inputs, locale, tr, chart_id, cat)
