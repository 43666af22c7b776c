"""Speculative decoding and multi-token prediction, per request.

A draft proposes k tokens; one verify step of the target checks them all and
always yields one token of its own. With a per-token acceptance a (i.i.d.: a
proposed token is kept with probability a if all before it were kept), the
expected tokens per verify step are 1 + a + a^2 + ... + a^k
= (1 - a^(k+1)) / (1 - a). The speed is that over the time of k draft
proposals plus one verify step, so acceptance 0 is never faster than plain
decode (one token for more than one step's time).

The draft kinds are classes (a separate draft model, MTP modules, parallel
heads); each says what its k proposals cost given the target's step time.
"""

from __future__ import annotations

from dataclasses import dataclass


class SpeculativeError(ValueError):
    """Acceptance outside [0, 1], k below 1, a negative cost."""


def expected_accepted(a: float, k: int) -> float:
    """Expected tokens per verify step: (1 - a^(k+1)) / (1 - a), k + 1 at a = 1."""
    if not 0 <= a <= 1:
        raise SpeculativeError(f"acceptance must be in [0, 1], got {a!r}")
    if k < 1:
        raise SpeculativeError("at least one token must be proposed")
    if a == 1:
        return k + 1.0
    return (1 - a ** (k + 1)) / (1 - a)


def acceptance_for(mean_accepted: float, k: int) -> float:
    """The per-token acceptance that gives `mean_accepted` tokens per step at k (bisection)."""
    if not 1 <= mean_accepted <= k + 1:
        raise SpeculativeError(f"mean accepted tokens must lie in [1, {k + 1}], got {mean_accepted!r}")
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if expected_accepted(mid, k) < mean_accepted:
            lo = mid
        else:
            hi = mid
    return hi


@dataclass(frozen=True)
class DraftModel:
    """A separate, smaller model: each proposal costs one of its decode steps."""

    step_s: float

    def draft_s(self, target_step_s: float, k: int) -> float:
        return k * self.step_s


@dataclass(frozen=True)
class MTPModules:
    """Multi-token prediction modules run one after another (DeepSeek V3 style):
    each proposal costs the module's share of a target step (its layers over the target's)."""

    module_layers: float
    target_layers: int

    def draft_s(self, target_step_s: float, k: int) -> float:
        return k * target_step_s * self.module_layers / self.target_layers


@dataclass(frozen=True)
class ParallelHeads:
    """Extra decoding heads (Medusa style) propose all k tokens in the verify pass itself;
    `cost_share` is their cost as a share of a target step, paid once."""

    cost_share: float = 0.0

    def draft_s(self, target_step_s: float, k: int) -> float:
        return target_step_s * self.cost_share


@dataclass(frozen=True)
class Speculative:
    """A draft, the tokens it proposes per step, and their per-token acceptance."""

    draft: object
    k: int
    acceptance: float

    def __post_init__(self):
        expected_accepted(self.acceptance, self.k)  # validates a and k
        if self.draft.draft_s(1.0, self.k) < 0:
            raise SpeculativeError("a draft cannot cost negative time")

    @property
    def tokens_per_step(self) -> float:
        return expected_accepted(self.acceptance, self.k)

    def step_s(self, target_step_s: float, verify_s: float | None = None) -> float:
        """k proposals plus one verify step (default: as long as a plain step, memory-bound at batch 1)."""
        return self.draft.draft_s(target_step_s, self.k) + (target_step_s if verify_s is None else verify_s)

    def tokens_per_s(self, target_step_s: float, verify_s: float | None = None) -> float:
        return self.tokens_per_step / self.step_s(target_step_s, verify_s)

    def speedup(self, target_step_s: float, verify_s: float | None = None) -> float:
        return self.tokens_per_s(target_step_s, verify_s) * target_step_s


def required_acceptance(speedup: float, k: int, draft, target_step_s: float = 1.0,
                        verify_s: float | None = None) -> float | None:
    """The least acceptance at which `Speculative(draft, k, a)` reaches `speedup`, or None if even a = 1 does not."""
    full = Speculative(draft, k, 1.0).speedup(target_step_s, verify_s)
    if full < speedup:
        return None
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if Speculative(draft, k, mid).speedup(target_step_s, verify_s) < speedup:
            lo = mid
        else:
            hi = mid
    return hi
