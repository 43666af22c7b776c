"""What a calculator's checked inputs mean to the model: the model, its layout, its step.

The calculators share these: the reader's model (a catalog model, their own
config.json, or a hand-entered custom model), the weight precision, the
layout (tensor parallel within pipeline stages, experts placed whole or split),
the decode step (the ceiling), the step as an engine serves it (expected: the
calibrated step time of calculators/perf/step_time.py, or none where no
published measurement calibrates the device or the engine), speculative
decoding, and the defaults that come from sourced data
(calculators/data/serving.toml, catalog.toml).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..arch import precision as P
from ..data import byo, catalog, serving
from ..perf import deployment as D
from ..perf import roofline as M
from ..perf import speculative as SP
from ..perf import step_time as T
from ..perf import fit as fitting
from .fields import AS_RELEASED, CUSTOM, ENGINE_NAMES, EP_OFF, EP_ON, GENERIC_ENGINE, GENERIC_ENGINE_LABEL
from .messages import N_

DEFAULT_DEVICE = "h100-sxm"
FIT_LIMIT = 10_000         # the fit calculator stops counting devices here


def default_acceptance_percent() -> float:
    """Per-token acceptance offered with speculative decoding: the lower end of the published
    DeepSeek V3 MTP range (serving.toml), the only family with a published figure; off (k = 0) by default."""
    return round(serving.load().acceptance["deepseek-v3-mtp"].low * 100, 1)


def model(inputs: dict, cat: catalog.Catalog) -> catalog.Model:
    """The catalog model, the reader's own config.json, or a custom full-attention model from the layer fields."""
    key = inputs["model"]
    if key == byo.BYO:
        return byo.model(inputs["config"])
    if key != CUSTOM:
        return cat.models[key]
    base = cat.models["llama-3.1-70b"].variant(num_hidden_layers=int(inputs["layers"]),
                                               num_key_value_heads=int(inputs["kv_heads"]),
                                               head_dim=int(inputs["head_dim"]))
    return replace(base, key=CUSTOM, name="custom")


def weight_precision(inputs: dict) -> str | None:
    """None means: every weight group at the precision the catalog stores."""
    prec = inputs.get("weight_precision", AS_RELEASED)
    return None if prec == AS_RELEASED else prec


def compute_precision(m: catalog.Model, weights: str | None, device: catalog.Device) -> str:
    """FP8 arithmetic when the bulk of the weights is 8-bit or narrower and the device has an FP8 peak."""
    prec = P.get(weights) if weights else max(m.weights, key=lambda g: g.params).precision
    return "fp8" if prec.narrow and "fp8" in device.peak_flops else "bf16"


def deployment(inputs: dict) -> D.Deployment:
    """The layout the reader chose: devices split into `pp` pipeline stages of devices / pp tensor-parallel
    devices each (the decode calculator refuses a count that does not divide), experts placed whole when EP is on."""
    n, pp = int(inputs["devices"]), int(inputs.get("pp", 1))
    return D.Deployment(tp=max(n // pp, 1), pp=pp, ep=inputs.get("ep", EP_OFF) == EP_ON)


def speculation(inputs: dict, m: catalog.Model):
    """Speculative decoding as the reader sets it, or None (k = 0). The draft is costed as one
    MTP-style module of one layer per proposal, the verify step as a plain step (memory-bound at batch 1)."""
    k = int(inputs.get("spec_k", 0))
    if k == 0:
        return None
    layers = m.arch.layers if m.arch is not None else ()
    return SP.Speculative(SP.MTPModules(1, max(len(layers), 1)), k, float(inputs["spec_acceptance"]) / 100)


def step(inputs: dict, cat: catalog.Catalog) -> M.Step:
    """The decode step the decode calculator and its chart show: the ceiling for one token.

    A token passes the pipeline stages in turn, and within a stage its tp devices stream their shares
    at once, so the per-token time is the sum of the stage times: all bytes over tp devices. Pipeline
    stages add memory, not speed; the model is therefore timed on the tensor-parallel degree."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    weights = weight_precision(inputs)
    return M.decode_step(m, d, devices=deployment(inputs).tp, batch=int(inputs["batch"]),
                         context=int(inputs["context"]), kv_precision=inputs["kv_precision"],
                         weight_precision=weights, compute_precision=compute_precision(m, weights, d))


# Where nothing calibrates the expected step, the calculators show the ceiling and say why.
NOT_CALIBRATED = N_("no expected value: no published measurement calibrates this device")
ENGINE_NOT_CALIBRATED = N_("no published measurement calibrates {engine} on this device")


@dataclass(frozen=True)
class Served:
    """The step as the chosen engine serves it (calculators/perf/step_time.py), or why there is no expected value.

    `expected`: the time per token with its typical range and the terms; `speed` and `speed_range`: tokens per
    second and request, with speculative decoding where it is on (its verify step timed by step_time too);
    `why` and `fill`: the message (msgid and its values) where nothing calibrates the device or the engine."""

    expected: T.Expected | None
    speed: float = 0.0
    speed_range: tuple = (0.0, 0.0)
    why: str = ""
    fill: tuple = ()


def engine_label(inputs: dict) -> tuple:
    """(text, translate) naming the chosen engine: a name as it is, the unnamed one as a msgid."""
    key = inputs.get("engine", GENERIC_ENGINE)
    return (GENERIC_ENGINE_LABEL, True) if key == GENERIC_ENGINE else (ENGINE_NAMES[key], False)


def served(inputs: dict, cat: catalog.Catalog, workload: T.Workload) -> Served:
    """The expected step for `workload` (batch, context) on the reader's model, layout, device and engine: the ceiling's
    bytes at the shares of bandwidth engines reach, their fixed cost per layer, their collectives; with speculative
    decoding, k proposals and one verify step of k + 1 tokens per request (T.Workload.tokens)."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    engine = inputs.get("engine", GENERIC_ENGINE)
    if not T.calibrated(d.key):
        return Served(None, why=NOT_CALIBRATED)
    try:
        s = T.setup(m, d, deployment(inputs), engine, inputs["kv_precision"], weight_precision(inputs))
        e = T.expected(s, workload)
        spec = speculation(inputs, m)
        if spec is None:
            return Served(e, e.tokens_per_s, e.tokens_per_s_range)
        verify = T.terms(s, replace(workload, tokens=spec.k + 1))
    except T.StepTimeError:
        text, translate = engine_label(inputs)
        return Served(None, why=ENGINE_NOT_CALIBRATED, fill=(("engine", text, translate),))
    speed = spec.tokens_per_s(e.terms.step_s, verify.step_s)
    low, high = T.constants().band       # measured ÷ expected time: the slow end divides the speed by `high`
    return Served(e, speed, (speed / high, speed / low))


def min_devices(inputs: dict, cat: catalog.Catalog, device: catalog.Device) -> int | None:
    """Fewest devices holding weights and cache for these inputs; None when no count up to FIT_LIMIT does."""
    m, ctx, batch, kv_prec = model(inputs, cat), int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    # Every device keeps at least the KV cache split as far as it ever splits; when that alone fills a
    # device, no count fits, and the search below would walk all the way to FIT_LIMIT to find out.
    if M.kv_bytes_per_device(m, ctx, batch, kv_prec, FIT_LIMIT) >= device.serving.bytes:
        return None
    try:
        return M.min_devices(m, device, ctx, batch, kv_prec, weight_precision(inputs), limit=FIT_LIMIT)
    except M.ModelError:
        return None


# ------------------------------------------------------------ what binds, what fits, how long an answer takes

V_MEMORY, V_COMPUTE = N_("memory-bound"), N_("compute-bound")
V_MEMORY_NO_PEAK = N_("memory-bound (no published compute peak to compare)")


def verdict(s: M.Step) -> str:
    """Which resource binds a step (the msgid), for the decode result and its chart's caption alike."""
    if s.compute_s is None:
        return V_MEMORY_NO_PEAK
    return V_MEMORY if s.bound == "memory" else V_COMPUTE


def fits(inputs: dict, cat) -> list:
    """(device, Fit, shape) for every catalog device: each scheme's smallest layout, at full memory and at the engine reserve."""
    m, ctx, batch = model(inputs, cat), int(inputs["context"]), int(inputs["batch"])
    shape = D.shape_from_catalog(m, inputs["kv_precision"], weight_precision(inputs))
    return [(d, fitting.fit_device(shape, d, ctx, batch), shape) for d in cat.devices.values()]


def latency_step_inputs(inputs: dict) -> dict:
    """The latency calculator's inputs as a decode step sees them: one request, released weights, the cache of
    the prompt and half the output (the mean over the answer)."""
    prompt, out = int(inputs["prompt"]), int(inputs["output"])
    return dict(inputs, weight_precision=AS_RELEASED, batch=1, context=prompt + out // 2)


def latency_parts(inputs: dict, cat) -> dict:
    """Seconds of one model call (TTFT, decode) and of the agent loop, with the speeds used.

    The time to first token is the roofline prefill (None where the device publishes no dense BF16 peak). The
    answer streams at the expected speed of one request (calibrated step time, speculative decoding), its
    typical range giving the times' ranges; where nothing calibrates it, at the ceiling (with speculative
    decoding at the ceiling's step), so the times are lower bounds ("calibrated" false)."""
    m, d = model(inputs, cat), cat.devices[inputs["device"]]
    prompt, out, steps = int(inputs["prompt"]), int(inputs["output"]), int(inputs["steps"])
    try:   # the prompt passes the stages in turn too: timed on the tensor-parallel degree
        ttft = M.prefill_time(m, d, prompt, devices=deployment(inputs).tp)
    except M.ModelError:
        ttft = None
    s = step(latency_step_inputs(inputs), cat)
    served_ = served(latency_step_inputs(inputs), cat, T.Workload(1, prompt, out))
    spec = speculation(inputs, m)
    if served_.expected is not None:
        speeds = (served_.speed,) + tuple(served_.speed_range)
    else:
        speeds = (s.tokens_per_s if spec is None else spec.tokens_per_s(s.time_s),) * 3
    tool = float(inputs["tool_s"])
    known = ttft or 0.0
    calls = tuple(M.end_to_end_latency(known, out, v) for v in speeds)            # value, slowest, fastest
    loops = tuple(M.agent_loop_time(steps, known, out, v) + steps * tool for v in speeds)
    return {"ttft": ttft, "ceiling": s.tokens_per_s, "speed": speeds[0], "decode": out / speeds[0], "served": served_,
            "calibrated": served_.expected is not None, "call": calls[0], "call_range": (calls[2], calls[1]),
            "tool": tool, "steps": steps, "loop": loops[0], "loop_range": (loops[2], loops[1])}
