"""MLP kinds: one small frozen class each (re-exported by calculators/arch/layers.py)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


class MLPSpec(ABC):
    """What every MLP kind answers for one layer."""

    @abstractmethod
    def params(self) -> dict:
        """Parameters per tensor group."""

    @abstractmethod
    def read_params(self, batch: int) -> dict:
        """Parameters a decode step for `batch` tokens reads, per tensor group."""

    @abstractmethod
    def active_params(self) -> dict:
        """Parameters one token multiplies with, per tensor group."""

    @abstractmethod
    def expert_share(self, batch: int) -> float | None:
        """Share of the routed experts a batch touches; None without routed experts."""

    def routed(self) -> tuple[int, int]:
        """(routed experts, experts per token); (0, 0) without routed experts."""
        return 0, 0


@dataclass(frozen=True)
class NoMLP(MLPSpec):
    """A layer without an MLP: Nemotron-H's mixer-only blocks ('M' and '*')."""

    def params(self) -> dict:
        return {}

    def read_params(self, batch: int) -> dict:
        return {}

    def active_params(self) -> dict:
        return {}

    def expert_share(self, batch: int) -> float | None:
        return None


@dataclass(frozen=True)
class DenseMLP(MLPSpec):
    """An MLP read whole by every token: gated (gate, up, down: 3 matrices) or plain (up, down: Nemotron-H's relu2)."""

    hidden: int
    intermediate: int
    bias: bool = False
    gated: bool = True

    def params(self) -> dict:
        n = (3 if self.gated else 2) * self.hidden * self.intermediate
        if self.bias:
            n += (2 if self.gated else 1) * self.intermediate + self.hidden
        return {"dense_mlp": n}

    def read_params(self, batch: int) -> dict:
        return self.params()

    def active_params(self) -> dict:
        return self.params()

    def expert_share(self, batch: int) -> float | None:
        return None


@dataclass(frozen=True)
class MoEMLP(MLPSpec):
    """Routed experts (k of E per token), optional always-on shared experts, a router.

    A batch of B tokens touches, under uniform routing, E(1 - (1 - k/E)^B)
    distinct experts on average: the expected number of experts that at least
    one token picks. So a batch of 32 on 128 experts with k = 8 reads 87 % of
    them, and batching saves much less than on a dense model.
    """

    hidden: int
    expert_intermediate: int
    experts: int
    active: int
    shared_experts: int = 0
    shared_intermediate: int = 0
    expert_bias: bool = False    # gate_up and down biases per expert (gpt-oss)
    router_bias: bool = False    # a router bias or score-correction bias per expert
    shared_gate: bool = False    # a sigmoid gate hidden -> 1 on the shared expert (Qwen2-MoE, Qwen3-Next)

    def expert_params(self) -> int:
        n = 3 * self.hidden * self.expert_intermediate
        if self.expert_bias:
            n += 2 * self.expert_intermediate + self.hidden
        return n

    def routed(self) -> tuple[int, int]:
        return self.experts, self.active

    def params(self) -> dict:
        shared = self.shared_experts * 3 * self.hidden * self.shared_intermediate
        if self.shared_gate:
            shared += self.hidden
        return {
            "router": self.experts * self.hidden + (self.experts if self.router_bias else 0),
            "experts": self.experts * self.expert_params(),
            "shared_experts": shared,
        }

    def expert_share(self, batch: int) -> float:
        """Expected share of routed experts a batch touches: 1 - (1 - k/E)^B."""
        return 1.0 - (1.0 - self.active / self.experts) ** batch

    def read_params(self, batch: int) -> dict:
        p = self.params()
        p["experts"] = self.experts * self.expert_share(batch) * self.expert_params()
        return p

    def active_params(self) -> dict:
        """What one token multiplies with: k experts, the shared ones, the router."""
        p = self.params()
        p["experts"] = self.active * self.expert_params()
        return p
