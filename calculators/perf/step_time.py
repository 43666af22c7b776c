"""The expected time of a decode step: the ceiling's terms at measured efficiencies, plus the costs
engines pay that bytes do not show.

The ceiling (calculators/perf/comm.py, roofline.py) is physics: bytes ÷ peak bandwidth, no overhead.
What a reader will see is slower, and this module says by how much, term by term:

    memory     weights ÷ (bandwidth × η_w) + routed experts ÷ (bandwidth × η_w × s ÷ (s + s½))
               + KV cache ÷ (bandwidth × η_kv)
    compute    FLOPs ÷ (peak × u)
    step       max(memory, compute) + fixed + communication + CPU
    fixed      τ(engine, vendor) × Σ over layers (1 + w_moe if the MLP is a mixture of experts
               + w_latent if the attention is latent)
    communication  per collective: latency + message ÷ bandwidth, from an engine's measured all-reduce
               by message size on the link (serving.toml), NCCL's ring at the link's bandwidth beyond
               the measured sizes; two all-reduces per layer under tensor parallelism, a gather and a
               scatter of the batch under data-parallel attention, a dispatch and a combine per MoE
               layer under expert parallelism with data-parallel attention
    CPU        without CUDA graphs only: c × requests (the launches a graph would replay)

and, for what a serving benchmark measures per token, the prefill other requests bring into the
steps of a running request: per step, concurrency ÷ output tokens prefills of the input length,
each at the compute rate u plus one step's fixed cost (none for a median inter-token latency,
which leaves out the rare steps that carry one): per step, (concurrency − 1) ÷ output tokens of them.

Sourced, not fitted: η_kv per device family (serving.toml [kv_bandwidth]: published slopes of
inter-token latency against context), the all-reduce curves (serving.toml [allreduce]), the bytes,
FLOPs and layer kinds (from the model's config.json), routing imbalance under expert parallelism
(the expected largest number of experts one group of devices must read, uniform routing, exact).
Fitted (calculators/data/step_time.toml, written by tools/fit_step_time.py on the fitting set of
calculators/article/measurements.toml): η_w per vendor, s½, u, w_moe, w_latent, τ per engine and
vendor, c. The band beside every expected value is the spread of measured ÷ expected over the
held-out rows.

Standard library only: the browser runs this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from ..arch import precision as P
from ..arch.layers import LatentAttention, MoEMLP
from ..data import serving as SV
from .deployment import Deployment, Shape, shape_from_catalog
# The inputs, re-exported: callers ask step_time for the whole model (tools/fit_step_time.py, the calculators).
from .step_inputs import (Constants, StepTimeError, allreduce_curve, constants, constants_text,  # noqa: F401
                          kv_efficiency, line_fit, parse_constants, vendor_of)

ENGINES = ("vllm", "sglang", "trtllm", "generic")
WORKLOADS = ("step", "online", "offline", "online-own")
ACT_BYTES = 2.0          # activations handed between devices: BF16


# ------------------------------------------------------------------ the set-up


@dataclass(frozen=True)
class Setup:
    """A model laid out on devices and served by an engine."""

    model: object              # catalog Model (its arch gives FLOPs and layer kinds)
    shape: Shape               # bytes per layer, at the checkpoint's and KV cache's precision
    deployment: Deployment
    device: object             # catalog Device
    engine: str = "generic"
    ep_groups: int = 0         # expert-parallel groups (0: each expert split over the stage's devices)
    graphs: bool = True        # False: no CUDA/HIP graphs (--enforce-eager)
    narrow: bool = False       # the MLP weights are 8 bits or fewer: products run at the FP8 peak


def model_with(model, groups: dict):
    """The catalog model with some tensor groups stored in other precisions (a published checkpoint)."""
    if not groups:
        return model
    return _model_with(model, tuple(sorted(groups.items())))


@lru_cache(maxsize=64)
def _model_with(model, groups: tuple):
    arch = model.arch
    precisions = dict(arch.precisions)
    precisions.update({g: P.get(p) for g, p in groups})
    return replace(model, arch=replace(arch, precisions=precisions))


def setup(model, device, deployment: Deployment, engine: str = "generic", kv_precision: str = "bf16",
          weight_precision: str | None = None, ep_groups: int = 0, graphs: bool = True) -> Setup:
    """The set-up for a catalog model (optionally with a checkpoint's variant model), device and layout."""
    if engine not in ENGINES:
        raise StepTimeError(f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    if model.arch is None:
        raise StepTimeError(f"{model.name}: its layers are not known (no config.json)")
    shape = shape_from_catalog(model, kv_precision, weight_precision)
    prec = model.arch.precisions
    mlp = P.get(weight_precision) if weight_precision else prec.get("experts") if _moe(model) else prec["dense_mlp"]
    narrow = mlp.narrow and "fp8" in device.peak_flops
    return Setup(model, shape, deployment, device, engine, ep_groups, graphs, narrow)


def _moe(model) -> bool:
    return any(isinstance(l.mlp, MoEMLP) for l in model.arch.layers)


@dataclass(frozen=True)
class Workload:
    """What is measured: the decode batch, input and output lengths, and how the time is counted.

    kind: "step" (one decode step: a median inter-token latency, or a single request),
    "online" (a serving benchmark's mean time per token: other requests' prefills land in the steps),
    "offline" (the wall time of a whole batch ÷ output tokens: its own prefill counted once),
    "online-own" (online, plus the request's own prefill spread over its tokens).
    The step's context is the input plus half the output (the mean over the generation)."""

    batch: int
    input_tokens: int
    output_tokens: int = 1
    kind: str = "step"
    tokens: int = 1            # tokens each request puts through the step (k + 1 in a speculative verify step)

    def __post_init__(self):
        if self.batch < 1 or self.input_tokens < 0 or self.output_tokens < 1 or self.tokens < 1:
            raise StepTimeError("batch and output tokens must be at least 1, input tokens not negative")
        if self.kind not in WORKLOADS:
            raise StepTimeError(f"unknown workload kind {self.kind!r}")

    @property
    def context(self) -> int:
        return self.input_tokens + self.output_tokens // 2


# ------------------------------------------------------------------ the terms


@dataclass(frozen=True)
class Terms:
    """One decode step's expected time, term by term (seconds), and what the workload adds per token."""

    weights_s: float           # dense weights and the unembedding ÷ (bandwidth × η_w)
    experts_s: float           # routed expert slices ÷ (bandwidth × η_w × slice efficiency)
    kv_s: float                # KV cache ÷ (bandwidth × η_kv)
    compute_s: float           # FLOPs ÷ (peak × u)
    fixed_s: float             # τ × layer units
    comm_s: float              # collectives
    cpu_s: float               # per request without graphs
    prefill_s: float           # per token: prefills landing in the steps (by workload)
    # the inputs the terms read, for the popover and the tests
    eta_weights: float = 0.0
    eta_kv: float = 0.0
    slice_efficiency: float = 1.0
    layer_units: float = 0.0
    tau_s: float = 0.0
    collectives: int = 0
    collective_s: float = 0.0
    bytes_weights: float = 0.0
    bytes_experts: float = 0.0
    bytes_kv: float = 0.0
    expert_hits: float = 0.0   # experts one device group reads per MoE layer (the largest group under EP)

    @property
    def memory_s(self) -> float:
        return self.weights_s + self.experts_s + self.kv_s

    @property
    def body_s(self) -> float:
        """Memory and arithmetic overlap: the slower sets the pace."""
        return max(self.memory_s, self.compute_s)

    @property
    def step_s(self) -> float:
        return self.body_s + self.fixed_s + self.comm_s + self.cpu_s

    @property
    def per_token_s(self) -> float:
        """Time per output token a request sees (one token per step, plus prefills landing in steps)."""
        return self.step_s + self.prefill_s

    @property
    def bound(self) -> str:
        """Which term is largest: "memory", "compute", "fixed" or "communication"."""
        parts = {"memory": self.memory_s if self.memory_s >= self.compute_s else 0.0,
                 "compute": self.compute_s if self.compute_s > self.memory_s else 0.0,
                 "fixed": self.fixed_s, "communication": self.comm_s}
        return max(parts, key=parts.get)


def layer_units(model, consts: Constants) -> float:
    """Σ over layers of 1 + w_moe (mixture-of-experts MLP) + w_latent (latent attention)."""
    w_moe, w_lat = consts.layer_weight["moe"], consts.layer_weight["latent"]
    return sum(1.0 + (w_moe if isinstance(l.mlp, MoEMLP) else 0.0) + (w_lat if isinstance(l.attention, LatentAttention) else 0.0)
               for l in model.arch.layers)


def expert_hit_share(experts: int, active: int, tokens: int) -> float:
    """Share of experts that at least one of `tokens` tokens routes to (uniform routing): 1 − (1 − k/E)^B."""
    return 1.0 - (1.0 - active / experts) ** tokens


def expected_max_hits(per_group: int, p: float, groups: int) -> float:
    """Expected largest number of experts hit in one of `groups` groups of `per_group` experts, each hit
    with probability p independently: Σ_x P(max ≥ x) = Σ_x (1 − F(x − 1)^groups), F the binomial CDF."""
    if groups <= 1:
        return per_group * p
    cdf, acc = [], 0.0
    for x in range(per_group + 1):
        acc += math.comb(per_group, x) * p ** x * (1 - p) ** (per_group - x)
        cdf.append(min(acc, 1.0))
    return sum(1.0 - cdf[x - 1] ** groups for x in range(1, per_group + 1))


def _peak(s: Setup) -> float:
    peaks = s.device.peak_flops
    if not peaks:
        raise StepTimeError(f"{s.device.name} has no published dense peak")
    return peaks.get("fp8") if s.narrow else peaks.get("bf16", next(iter(peaks.values())))


def _flops_split(model, context: int) -> tuple[float, float]:
    """(dense FLOPs per token incl. attention at `context`, routed-expert FLOPs per token): 2 per parameter."""
    moe = [l.mlp for l in model.arch.layers if isinstance(l.mlp, MoEMLP)]
    routed = sum(2.0 * m.active * m.expert_params() for m in moe)
    return 2.0 * model.active_params - routed + model.arch.attention_flops(context), routed


def compute_s(s: Setup, tokens_dense: float, tokens_routed: float, context: int, consts: Constants) -> float:
    """Arithmetic time for `tokens_dense` tokens through the dense part on one tensor-parallel group and
    `tokens_routed` through the experts spread over the stage: FLOPs ÷ (devices × peak × u)."""
    dense, routed = _flops_split(s.model, context)
    peak, tp, stage = _peak(s), s.deployment.tp, s.deployment.stage_devices
    return (tokens_dense * dense / tp + tokens_routed * routed / stage) / (peak * consts.mfu)


def _experts(s: Setup, batch: int, consts: Constants) -> tuple[float, float, float]:
    """(expert bytes the busiest device reads, slice bytes per expert and device, experts its group reads per layer)."""
    moe = [l for l in s.shape.layers if l.experts]
    if not moe:
        return 0.0, 1.0, 0.0
    l0, stage = moe[0], s.deployment.stage_devices
    per_expert = l0.expert_bytes / l0.experts
    p = expert_hit_share(l0.experts, l0.experts_active, batch)
    groups = s.ep_groups if s.ep_groups > 1 else 1
    if l0.experts % groups or stage % groups:
        raise StepTimeError(f"{groups} expert-parallel groups must divide {l0.experts} experts and {stage} devices")
    hits = expected_max_hits(l0.experts // groups, p, groups)
    slice_bytes = per_expert / (stage / groups)
    return sum(hits * (l.expert_bytes / l.experts) / (stage / groups) for l in moe), slice_bytes, hits


def collective_s(message: float, devices: int, curve, link) -> float:
    """One all-reduce of `message` bytes per device: the engine's measured curve (latency + bytes ÷ bandwidth)
    up to the largest message it was measured at; the rest of a larger message streams as NCCL's ring does,
    2(n − 1) ÷ n of it over the link. Without a published curve: the ring alone (no latency published)."""
    ring = 2.0 * (devices - 1) / devices / (link.bytes_per_s or math.inf)
    if curve is None:
        return message * ring
    latency, bw, largest = curve
    if message <= largest:
        return latency + message / bw
    return latency + largest / bw + (message - largest) * ring


def comm(s: Setup, batch: int, serving) -> tuple[int, float]:
    """(collectives per step, seconds each) across the stage's devices:
    tensor parallelism: two all-reduces per layer of the group's tokens (after attention, after the MLP);
    data-parallel attention: one all-gather and one reduce-scatter of the whole batch per layer (together
    the traffic of one all-reduce); with expert parallelism as well: a dispatch and a combine per MoE layer,
    each sending a rank's tokens to the devices holding their experts (bytes ÷ link bandwidth + latency).
    Timed by the engine's measured all-reduce on the link (serving.toml), else by ring bytes ÷ link
    bandwidth. Pipeline hand-offs are added by `terms`."""
    dep, link = s.deployment, s.device.link
    if dep.stage_devices == 1:
        return 0, 0.0
    curve = allreduce_curve(s.engine, s.device.node.interconnect, serving)
    hidden, layers = s.shape.hidden, s.shape.layers
    if dep.dp == 1:
        message = dep.requests_per_group(batch) * hidden * ACT_BYTES
        return 2 * len(layers), collective_s(message, dep.tp, curve, link)
    if not dep.ep:
        return len(layers), collective_s(batch * hidden * ACT_BYTES, dep.stage_devices, curve, link)
    moe = [l for l in layers if l.experts]
    n = dep.stage_devices
    sent = dep.requests_per_group(batch) * moe[0].experts_active * hidden * ACT_BYTES * (n - 1) / n
    latency = curve[0] if curve else 0.0
    return 2 * len(moe), latency + sent / (link.bytes_per_s or math.inf)


def terms(s: Setup, w: Workload, consts: Constants | None = None, serving=None, cat=None) -> Terms:
    """The expected step for set-up `s` under workload `w`, term by term."""
    from ..data import catalog as C
    consts = consts or constants()
    serving = serving or SV.load()
    cat = cat or C.load()
    dep, shape, bw = s.deployment, s.shape, s.device.serving.bytes_per_s
    vendor = vendor_of(s.device.key, serving)
    eta_w, eta_kv = consts.eta_weights[vendor], kv_efficiency(s.device.key, serving, cat)
    ctx, batch = w.context, w.batch
    reqs = dep.requests_per_group(batch)
    dense = (sum(l.dense_bytes for l in shape.layers) + shape.outside_read_bytes) / dep.tp
    experts, slice_bytes, hits = _experts(s, batch * w.tokens, consts)
    kv = reqs * sum(l.kv_bytes(ctx) for l in shape.layers) / dep.kv_split(shape)
    slice_eff = slice_bytes / (slice_bytes + consts.slice_half_bytes)
    units = layer_units(s.model, consts)
    tau = consts.tau(s.engine, vendor, s.graphs)
    n, each = comm(s, batch * w.tokens, serving)
    handoff = (dep.pp - 1) * ((s.device.link.latency_s or 0.0) + batch * shape.hidden * ACT_BYTES / (s.device.link.bytes_per_s or math.inf))
    t = Terms(dense / (eta_w * bw), experts / (eta_w * slice_eff * bw) if experts else 0.0, kv / (eta_kv * bw),
              compute_s(s, reqs * w.tokens, batch * w.tokens, ctx, consts), tau * units, n * each + handoff,
              consts.cpu(s.engine, vendor, s.graphs) * batch, 0.0, eta_w, eta_kv, slice_eff, units, tau, n, each,
              dense, experts, kv, hits)
    return replace(t, prefill_s=prefill_per_token(s, w, t, consts))


def prefill_s(s: Setup, tokens: int, input_tokens: int, t: Terms, consts: Constants) -> float:
    """One prefill of `tokens` tokens (sequences of `input_tokens`): its arithmetic at u, the dense
    weights read once, and one step's fixed cost and collectives."""
    return compute_s(s, tokens, tokens, input_tokens // 2, consts) + t.weights_s + t.fixed_s + t.comm_s


def prefill_per_token(s: Setup, w: Workload, t: Terms, consts: Constants) -> float:
    if w.kind == "step":
        return 0.0
    if w.kind == "offline":
        return prefill_s(s, w.batch * w.input_tokens, w.input_tokens, t, consts) / w.output_tokens
    one = prefill_s(s, w.input_tokens, w.input_tokens, t, consts)
    # In steady state each of the other batch − 1 slots starts a new request every `output` steps.
    landing = (w.batch - 1) / w.output_tokens * one
    return landing + (one / w.output_tokens if w.kind == "online-own" else 0.0)


# ------------------------------------------------------------------ expected with its band


@dataclass(frozen=True)
class Expected:
    """Expected time per token with its typical range (held-out spread), and the terms."""

    time_s: float
    low_s: float
    high_s: float
    terms: Terms

    @property
    def tokens_per_s(self) -> float:
        return 1.0 / self.time_s

    @property
    def tokens_per_s_range(self) -> tuple[float, float]:
        """(slowest, fastest) speed of the band."""
        return 1.0 / self.high_s, 1.0 / self.low_s


def expected(s: Setup, w: Workload, consts: Constants | None = None, serving=None, cat=None) -> Expected:
    consts = consts or constants()
    t = terms(s, w, consts, serving, cat)
    lo, hi = consts.band
    return Expected(t.per_token_s, t.per_token_s * lo, t.per_token_s * hi, t)


def calibrated(device_key: str, serving=None) -> bool:
    """Whether published measurements calibrate this device (its family has a KV bandwidth and a vendor)."""
    return (serving or SV.load()).kv_family(device_key) is not None
