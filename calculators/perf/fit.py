"""Fit search: the smallest deployment of each parallelism scheme that holds
weights plus KV cache, and the deployable one (engine reserve, whole nodes).

Each scheme is a small class: the device counts it allows and the `Deployment`
for each; adding a scheme is adding a class to SCHEMES. Per-device bytes never
grow with more devices under any scheme (tests check it), so the smallest count
is found by bisection over the allowed counts rather than by walking up to a limit.
"""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass

from .deployment import Deployment, Shape, min_stages

LIMIT = 1_000_000


class Scheme:
    """A way to lay a model out on n devices: the counts it allows (`candidates`, ascending) and
    the layout for each. Per-device bytes never grow with n (tests check it), so the smallest
    count that fits is found by bisection over the candidates."""

    key = ""
    name = ""

    def layout(self, shape: Shape, n: int, batch: int) -> Deployment | None:
        raise NotImplementedError

    def candidates(self, shape: Shape, batch: int, limit: int):
        raise NotImplementedError

    def smallest(self, shape: Shape, capacity: float, context: int, batch: int, limit: int = LIMIT):
        """Fewest devices whose fullest device holds at most `capacity` bytes, or None."""
        counts = self.candidates(shape, batch, limit)
        ok = lambda i: self.layout(shape, counts[i], batch).held_per_device(shape, context, batch) <= capacity  # noqa: E731
        if not counts or not ok(len(counts) - 1):
            return None
        lo, hi = 0, len(counts) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid + 1
        return self.layout(shape, counts[lo], batch)


POWERS_OF_TWO = tuple(2 ** i for i in range(21))


def tp_degrees(shape: Shape, limit: int = LIMIT, degrees=POWERS_OF_TWO) -> tuple:
    """The powers of two up to `limit` that engines can use as a tensor-parallel degree for this shape:
    each divides the attention (and linear-attention, Mamba) heads, and divides the KV heads or is a
    multiple of them (vLLM's checks; the shape's tp_rules). Phi-4's 40 heads and 10 KV heads allow 1 and 2."""
    return tuple(n for n in degrees if n <= limit and shape.tp_ok(n))


class TensorParallel(Scheme):
    """Every layer split n ways; KV split by head up to the head count, MLA latent whole on every rank.

    n is a power of two that the model's heads allow (`tp_degrees`): engines split the attention
    heads evenly (vLLM requires the head count to be a multiple of the degree, and the KV heads
    to divide or be divided by it). So 11 H100 are not a tensor-parallel layout; 16 are, for a
    model with 64 heads; for Phi-4 (10 KV heads) 8 are not."""

    key, name = "tp", "tensor parallel"

    def layout(self, shape, n, batch):
        return Deployment(tp=n) if n in POWERS_OF_TWO and shape.tp_ok(n) else None

    def candidates(self, shape, batch, limit):
        return tp_degrees(shape, limit)


class PipelineParallel(Scheme):
    """Whole layers per device, stages in sequence; KV split by layer."""

    key, name = "pp", "pipeline (by layer)"

    def layout(self, shape, n, batch):
        return Deployment(pp=min(n, len(shape.layers)))

    def candidates(self, shape, batch, limit):
        return range(1, min(limit, len(shape.layers)) + 1)


class TensorPipeline(Scheme):
    """Pipeline stages of tp devices each (tp a power of two): how layer-sized
    pieces too big for one chip are spread (Groq, Cerebras, multi-node GPUs)."""

    key, name = "tp-pp", "tensor x pipeline"
    degrees = POWERS_OF_TWO[:11]

    def layout(self, shape, n, batch):
        return None  # chosen in smallest(): the degree pair is the search

    def smallest(self, shape, capacity, context, batch, limit=LIMIT):
        best = None
        for tp in tp_degrees(shape, limit, self.degrees):
            pp = min_stages(shape, tp, capacity, context, batch)
            if pp is not None and pp <= len(shape.layers) and tp * pp <= limit and (best is None or tp * pp < best.devices):
                best = Deployment(tp=tp, pp=pp)
        return best


class DataParallelAttention(Scheme):
    """KV split by request: up to `batch` groups each keep their own requests'
    cache and a copy of the dense weights; experts (if any) split over all
    devices; beyond `batch` groups, tensor parallel (a degree the heads allow)
    inside each group. When no single stage holds it, pipeline stages of such
    groups: the cache split by layer (stages) and by request (groups), the
    layout that holds a latent (MLA) cache too large for one device's share,
    since a latent splits by layer and by request but never by head (Groq's
    230 MB for DeepSeek V3 at 32K x 8: one layer's latent for one request is
    37.7 MB). The layout label (TP16×PP61×DP8) says which."""

    key, name = "dp-attention", "data-parallel attention"
    degrees = POWERS_OF_TWO[:11]

    def layout(self, shape, n, batch):
        dp = min(batch, n)
        if n % dp or n // dp not in POWERS_OF_TWO or not shape.tp_ok(n // dp):
            return None
        return Deployment(tp=n // dp, dp=dp, ep=any(l.experts for l in shape.layers))

    def candidates(self, shape, batch, limit):
        """Up to `batch` devices, one group each; beyond, `batch` groups of a TP degree the heads allow."""
        return tuple(n for n in (*range(1, batch + 1), *(batch * t for t in tp_degrees(shape, limit)[1:])) if n <= limit)

    def smallest(self, shape, capacity, context, batch, limit=LIMIT):
        best = super().smallest(shape, capacity, context, batch, limit)
        if best is not None or batch < 2:
            return best
        groups = sorted({d for d in POWERS_OF_TWO if 1 < d < batch} | {batch})
        for dp in groups:   # pipeline stages of dp groups of tp devices
            for tp in tp_degrees(shape, limit, self.degrees):
                pp = min_stages(shape, tp, capacity, context, batch, dp)
                if pp is None or pp > len(shape.layers) or tp * dp * pp > limit:
                    continue
                if best is None or tp * dp * pp < best.devices:
                    best = Deployment(tp=tp, pp=pp, dp=dp, ep=any(l.experts for l in shape.layers))
        return best


SCHEMES = (TensorParallel(), PipelineParallel(), TensorPipeline(), DataParallelAttention())


@dataclass(frozen=True)
class SchemeFit:
    scheme: str
    deployment: Deployment | None
    held_bytes: float | None     # fullest device
    capacity: float              # usable bytes per device

    @property
    def devices(self) -> int | None:
        return None if self.deployment is None else self.deployment.devices


@dataclass(frozen=True)
class Fit:
    """Per scheme, the smallest fitting deployment; the best of them; the deployable count."""

    schemes: tuple[SchemeFit, ...]
    deployable: tuple[SchemeFit, ...]    # same, at the engine reserve
    node_size: int
    usable_fraction: float
    lower_bound: int                     # ceil((weights + whole KV) / capacity): no layout beats it
    reason: str = ""                     # why nothing fits, when nothing does

    @property
    def best(self) -> SchemeFit | None:
        found = [s for s in self.schemes if s.deployment is not None]
        return min(found, key=lambda s: s.devices) if found else None

    @property
    def best_deployable(self) -> SchemeFit | None:
        found = [s for s in self.deployable if s.deployment is not None]
        return min(found, key=lambda s: s.devices) if found else None

    @property
    def deployable_devices(self) -> int | None:
        """The best fit at the engine reserve, as it is bought: whole nodes (see deployable_count)."""
        b = self.best_deployable
        return None if b is None else deployable_count(b.devices, self.node_size)


def deployable_count(n: int, node_size: int) -> int:
    """Devices as sold: within one node a divisor of the node size (engines split a node
    into 1, 2, 4 or 8 GPUs), across nodes whole nodes."""
    if n <= node_size:
        return min(d for d in range(1, node_size + 1) if node_size % d == 0 and d >= n)
    return math.ceil(n / node_size) * node_size


def _per_scheme(shape, capacity, context, batch, limit):
    out = []
    for s in SCHEMES:
        d = s.smallest(shape, capacity, context, batch, limit)
        held = None if d is None else d.held_per_device(shape, context, batch)
        out.append(SchemeFit(s.key, d, held, capacity))
    return tuple(out)


# A latent cache splits by layer and by request (PipelineDataParallel), so its size per request never binds on
# its own: what no layout splits is one layer's cache and state for one request (NEVER_LAYER).
NEVER_LAYER, NEVER_LIMIT = "layer", "limit"


def never_kind(shape: Shape, capacity: float, context: int, batch: int) -> tuple[str, float]:
    """Why no scheme fits, as a kind and the bytes of the piece too large (the reader's language is the caller's).

    The smallest piece no layout splits is one layer's cache and state for one request, split by
    head as far as the heads go (a latent is not split by head: it is whole on every rank):
    "layer" when that exceeds a device, "limit" otherwise (the search stops at LIMIT devices).
    """
    heads = 1 if shape.mla else shape.kv_heads
    piece = max((l.kv_bytes(context) / heads + l.state_bytes / (l.state_heads or 1) for l in shape.layers), default=0.0)
    if piece > capacity:
        return NEVER_LAYER, piece
    return NEVER_LIMIT, 0.0


def never_reason(shape: Shape, capacity: float, context: int, batch: int) -> str:
    """Why no scheme fits: the smallest indivisible piece is larger than a device, or the search limit."""
    kind, piece = never_kind(shape, capacity, context, batch)
    if kind == NEVER_LAYER:
        return (f"one layer's KV cache and state for one request, split by head as far as the heads go ({piece:.3g} B), "
                f"exceeds a device ({capacity:.3g} B)")
    return f"no layout of up to {LIMIT} devices fits {capacity:.3g} B per device"


@lru_cache(maxsize=512)
def fit(shape: Shape, capacity: float, context: int, batch: int, *, usable_fraction: float = 1.0,
        node_size: int = 1, limit: int = LIMIT) -> Fit:
    """All schemes at full capacity and at the engine reserve; `never` only when none fits.

    Cached: the search packs layers thousands of times, and the build asks the same
    question once per language (the fit calculator's pre-rendered default); shapes and
    results are frozen, so a cached answer is safe to share.
    """
    if not 0 < usable_fraction <= 1:
        raise ValueError("usable_fraction must be in (0, 1]")
    full = _per_scheme(shape, capacity, context, batch, limit)
    reserved = _per_scheme(shape, capacity * usable_fraction, context, batch, limit)
    total = shape.weights_stored() + shape.cache_bytes(context, batch)
    bound = max(1, math.ceil(total / capacity))
    reason = "" if any(s.deployment for s in full) else never_reason(shape, capacity, context, batch)
    return Fit(full, reserved, node_size, usable_fraction, bound, reason)


def fit_device(shape: Shape, device, context: int, batch: int, limit: int = LIMIT) -> Fit:
    """fit() with the device's serving memory, its engine's reserve and its node size (calculators/data/devices.py)."""
    return fit(shape, device.serving.bytes, context, batch, usable_fraction=device.usable_fraction,
               node_size=device.node.size, limit=limit)
