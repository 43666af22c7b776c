"""Communication per decode step and the two faces of every speed.

Each collective is a small class that prices itself for a deployment:
tensor-parallel all-reduces (two per layer, ring: 2(n-1)/n of the message on
the wire per device), pipeline hand-offs (one per stage boundary), and the
expert-parallel all-to-all (dispatch and combine per MoE layer). Each costs
latency + bytes / bandwidth per message and says whether it overlaps the
memory streaming (none does in decode: each waits for the result before it).

`Step` holds a step's streamed bytes, the achieved-bandwidth efficiency and the
messages, and gives the ceiling (100 % bandwidth, no communication) and the
expected value (efficiency and communication) side by side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .deployment import Deployment, Shape


class CommError(ValueError):
    """An impossible input to the communication model (efficiency outside (0, 1], ...)."""


@dataclass(frozen=True)
class Message:
    """One kind of message in a decode step: how many, how big, over which link."""

    what: str
    count: int                 # per decode step, on the critical path
    wire_bytes: float          # per device per message
    latency_s: float
    bytes_per_s: float | None  # None: the link's bandwidth is unpublished
    overlaps: bool = False

    @property
    def known(self) -> bool:
        return self.bytes_per_s is not None

    @property
    def time_s(self) -> float | None:
        """count x (latency + bytes / bandwidth); None when the bandwidth is unpublished."""
        if not self.known:
            return None
        return self.count * (self.latency_s + self.wire_bytes / self.bytes_per_s)


def ring_allreduce_bytes(message: float, n: int) -> float:
    """Bytes each device sends in a ring all-reduce of `message` bytes over n devices: 2(n-1)/n x message."""
    return 2.0 * (n - 1) / n * message


class TPAllReduce:
    """After attention and after the MLP of every layer, the tp shards sum their partial outputs.

    With expert parallelism the MoE layers' second sum is the all-to-all's combine (EPAllToAll), not
    an all-reduce, so those layers count one all-reduce (after attention), not two."""

    what = "tp-allreduce"

    def message(self, shape: Shape, dep: Deployment, batch: int, act_bytes: float):
        if dep.tp == 1:
            return None
        msg = dep.requests_per_group(batch) * shape.hidden * act_bytes
        combined = sum(1 for l in shape.layers if l.experts) if dep.ep and dep.stage_devices > 1 else 0
        return 2 * len(shape.layers) - combined, ring_allreduce_bytes(msg, dep.tp)


class PPHandoff:
    """Each stage boundary passes the batch's activations on to the next stage."""

    what = "pp-handoff"

    def message(self, shape, dep, batch, act_bytes):
        if dep.pp == 1:
            return None
        return dep.pp - 1, batch * shape.hidden * act_bytes


class EPAllToAll:
    """Dispatch tokens to the devices holding their experts and combine the results: two per MoE layer."""

    what = "ep-all-to-all"

    def message(self, shape, dep, batch, act_bytes):
        moe = [l for l in shape.layers if l.experts]
        n = dep.stage_devices
        if not dep.ep or n == 1 or not moe:
            return None
        active = moe[0].experts_active
        tokens_per_device = batch / n
        return 2 * len(moe), tokens_per_device * active * shape.hidden * act_bytes * (n - 1) / n


COLLECTIVES = (TPAllReduce(), PPHandoff(), EPAllToAll())


def messages(shape: Shape, dep: Deployment, batch: int, link, latency_s: float | None = None,
             act_bytes: float = 2.0) -> tuple[Message, ...]:
    """The step's messages over `link` (a serving.Interconnect or None).

    latency_s: per message; default the link's published latency, else 0 s
    (no vendor publishes it, so by default communication is a lower bound).
    """
    if latency_s is not None and latency_s < 0:
        raise CommError("latency cannot be negative")
    lat = latency_s if latency_s is not None else ((link.latency_s if link else None) or 0.0)
    bw = link.bytes_per_s if link else None
    out = []
    for c in COLLECTIVES:
        m = c.message(shape, dep, batch, act_bytes)
        if m is not None:
            out.append(Message(c.what, m[0], m[1], lat, bw))
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """One decode step for one request's view: ceiling and expected side by side."""

    streamed_bytes: float        # per device chain, stage after stage
    peak_bytes_per_s: float
    efficiency: float
    messages: tuple[Message, ...] = ()
    compute_s: float | None = None
    tokens_per_step: float = 1.0  # > 1 with speculative decoding (expected accepted tokens)

    def __post_init__(self):
        if not 0 < self.efficiency <= 1:
            raise CommError(f"efficiency must be in (0, 1], got {self.efficiency!r}")
        if self.peak_bytes_per_s <= 0 or self.streamed_bytes < 0:
            raise CommError("bandwidth must be positive and bytes non-negative")

    @property
    def memory_ceiling_s(self) -> float:
        return self.streamed_bytes / self.peak_bytes_per_s

    @property
    def ceiling_s(self) -> float:
        """Physics: full bandwidth, no communication, memory and compute overlapped."""
        return max(self.memory_ceiling_s, self.compute_s or 0.0)

    @property
    def comm_s(self) -> float:
        """Communication on the critical path (known links only)."""
        return sum(m.time_s for m in self.messages if m.known and not m.overlaps)

    @property
    def unknown(self) -> tuple[str, ...]:
        """Messages whose link bandwidth is unpublished: not counted, named."""
        return tuple(m.what for m in self.messages if not m.known)

    @property
    def expected_s(self) -> float:
        hidden = [m.time_s for m in self.messages if m.known and m.overlaps]
        body = max(self.memory_ceiling_s / self.efficiency, self.compute_s or 0.0, *hidden)
        return body + self.comm_s

    @property
    def ceiling_tokens_per_s(self) -> float:
        return self.tokens_per_step / self.ceiling_s if self.ceiling_s > 0 else math.inf

    @property
    def expected_tokens_per_s(self) -> float:
        return self.tokens_per_step / self.expected_s if self.expected_s > 0 else math.inf


def decode_step(shape: Shape, dep: Deployment, peak_bytes_per_s: float, context: int, batch: int = 1, *,
                efficiency: float = 1.0, link=None, latency_s: float | None = None,
                compute_s: float | None = None) -> Step:
    """Price one plain decode step of `dep` (no speculation)."""
    if batch < 1 or context < 0:
        raise CommError("batch must be at least 1 and context non-negative")
    streamed = dep.streamed_serial(shape, context, batch)
    return Step(streamed, peak_bytes_per_s, efficiency, messages(shape, dep, batch, link, latency_s), compute_s)
