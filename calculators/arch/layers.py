"""Per-layer specs: one small frozen class per attention kind and per MLP kind.

A model is a list of `Layer`s (calculators/arch/architecture.py builds it from a
Hugging Face config.json). Each spec answers for itself: how many bytes one
token adds to its KV cache, how many tokens it keeps for a context, how many
parameters it stores per tensor group, how many of them a batch reads, and
the attention arithmetic per token. The contract is written down as two
abstract base classes, `AttentionSpec` and `MLPSpec`: adding an attention or
MLP kind means adding a subclass that implements every method (Python refuses
to build one that does not), never an `if kind == ...` in the callers (the
pattern of vLLM's kv_cache_interface.py).

Parameter groups (the keys of `params()`): "attention", "router", "experts",
"shared_experts", "dense_mlp", "norms". The embedding and lm_head groups
belong to the model, not to a layer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from .precision import BF16, FP8, Precision, get


# ----------------------------------------------------------------- attention


class AttentionSpec(ABC):
    """What every attention kind answers for one layer."""

    kind: str = ""                       # how the kind is named in summaries ("full", "sliding", "latent")

    @abstractmethod
    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        """Bytes one more token adds to this layer's cache (while it grows)."""

    @abstractmethod
    def cached_tokens(self, context: int) -> int:
        """Tokens of a context of `context` tokens this layer keeps."""

    @property
    @abstractmethod
    def max_cached_tokens(self) -> int | None:
        """The most tokens the layer ever keeps (a window), or None: every token of the context."""

    def kv_bytes(self, context: int, kv_precision: str | Precision) -> float:
        return self.cached_tokens(context) * self.kv_bytes_per_token(kv_precision)

    def grows_at(self, context: int | None) -> bool:
        """Does one more token at this context add to the cache? (None: at long context.)"""
        limit = self.max_cached_tokens
        return limit is None or (context is not None and context <= limit)

    @abstractmethod
    def kv_shards(self, devices: int) -> int:
        """Into how many distinct parts `devices` tensor-parallel devices split this layer's cache."""

    @abstractmethod
    def params(self) -> dict:
        """Parameters per tensor group."""

    @abstractmethod
    def flops_per_token(self, context: int) -> float:
        """Attention arithmetic for one new token against `context` earlier tokens."""


@dataclass(frozen=True)
class FullAttention(AttentionSpec):
    """Full (multi-head or grouped-query) attention: K and V per KV head, every token kept."""

    hidden: int
    query_heads: int
    kv_heads: int
    head_dim: int
    bias: bool = False         # q/k/v/o biases (gpt-oss)
    qk_norm: int = 0           # parameters of q/k norms (Qwen3, MiniMax, Gemma 3)
    sinks: bool = False        # one learned sink logit per query head (gpt-oss)

    kind = "full"

    def kv_values_per_token(self) -> int:
        """K and V vectors per KV head: the factor 2, with the real head_dim (never hidden/heads)."""
        return 2 * self.kv_heads * self.head_dim

    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        return self.kv_values_per_token() * get(kv_precision).bytes

    def cached_tokens(self, context: int) -> int:
        return context

    @property
    def max_cached_tokens(self) -> int | None:
        return None

    def kv_shards(self, devices: int) -> int:
        """Tensor parallelism splits KV heads; beyond their count heads are replicated."""
        return min(devices, self.kv_heads)

    def params(self) -> dict:
        q = self.query_heads * self.head_dim
        kv = self.kv_heads * self.head_dim
        n = self.hidden * (q + 2 * kv) + q * self.hidden
        if self.bias:
            n += q + 2 * kv + self.hidden
        if self.sinks:
            n += self.query_heads
        return {"attention": n + self.qk_norm}

    def flops_per_token(self, context: int) -> float:
        """Scores q.k and the weighted sum of V: 2 FLOP each per query head, head dim and attended token."""
        return 4 * self.query_heads * self.head_dim * self.cached_tokens(context)


@dataclass(frozen=True)
class SlidingWindowAttention(FullAttention):
    """Grouped-query attention that keeps only the last `window` tokens."""

    window: int = field(kw_only=True)    # required: a window of 0 tokens is not a window

    kind = "sliding"

    def cached_tokens(self, context: int) -> int:
        return min(context, self.window)

    @property
    def max_cached_tokens(self) -> int | None:
        return self.window


@dataclass(frozen=True)
class LatentAttention(AttentionSpec):
    """Multi-head latent attention (DeepSeek V2/V3): one latent plus a RoPE key per token, shared by all heads.

    No factor 2: K and V are both rebuilt from the cached latent. The FP8
    layout is the one FlashMLA/vLLM publish for DeepSeek: the latent in FP8
    with one FP32 scale per 128 values, the RoPE part kept in BF16
    (512 + 16 + 128 = 656 bytes per token and layer for V3).
    """

    hidden: int
    query_heads: int
    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int
    q_lora_rank: int | None = None

    kind = "latent"
    FP8_SCALE_BLOCK = 128

    def kv_values_per_token(self) -> int:
        return self.kv_lora_rank + self.qk_rope_head_dim

    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        kv = get(kv_precision)
        if kv is FP8:  # the published FP8 MLA layout (see the class docstring)
            scales = 4 * self.kv_lora_rank / self.FP8_SCALE_BLOCK
            return self.kv_lora_rank + scales + self.qk_rope_head_dim * BF16.bytes
        return self.kv_values_per_token() * kv.bytes

    def cached_tokens(self, context: int) -> int:
        return context

    @property
    def max_cached_tokens(self) -> int | None:
        return None

    def kv_shards(self, devices: int) -> int:
        """The latent serves every head, so each tensor-parallel device keeps all of it."""
        return 1

    def params(self) -> dict:
        h, heads = self.hidden, self.query_heads
        qk = self.qk_nope_head_dim + self.qk_rope_head_dim
        if self.q_lora_rank:
            q = h * self.q_lora_rank + self.q_lora_rank + self.q_lora_rank * heads * qk
        else:
            q = h * heads * qk
        kv = h * (self.kv_lora_rank + self.qk_rope_head_dim) + self.kv_lora_rank
        kv += self.kv_lora_rank * heads * (self.qk_nope_head_dim + self.v_head_dim)
        o = heads * self.v_head_dim * h
        return {"attention": q + kv + o}

    def flops_per_token(self, context: int) -> float:
        """Weights absorbed: scores over latent + RoPE dims, values over the latent, per head."""
        return 2 * self.query_heads * (2 * self.kv_lora_rank + self.qk_rope_head_dim) * context


# ----------------------------------------------------------------------- MLP


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


@dataclass(frozen=True)
class DenseMLP(MLPSpec):
    """A gated MLP (gate, up, down): every parameter is read by every token."""

    hidden: int
    intermediate: int
    bias: bool = False

    def params(self) -> dict:
        n = 3 * self.hidden * self.intermediate
        if self.bias:
            n += 2 * self.intermediate + self.hidden
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

    def expert_params(self) -> int:
        n = 3 * self.hidden * self.expert_intermediate
        if self.expert_bias:
            n += 2 * self.expert_intermediate + self.hidden
        return n

    def params(self) -> dict:
        return {
            "router": self.experts * self.hidden + (self.experts if self.router_bias else 0),
            "experts": self.experts * self.expert_params(),
            "shared_experts": self.shared_experts * 3 * self.hidden * self.shared_intermediate,
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


# --------------------------------------------------------------------- layer


@dataclass(frozen=True)
class Layer:
    """One decoder layer: an attention spec, an MLP spec and its norm weights."""

    attention: AttentionSpec
    mlp: MLPSpec
    norms: int

    def params(self) -> dict:
        return _merge(self.attention.params(), self.mlp.params(), {"norms": self.norms})

    def read_params(self, batch: int) -> dict:
        return _merge(self.attention.params(), self.mlp.read_params(batch), {"norms": self.norms})

    def active_params(self) -> dict:
        return _merge(self.attention.params(), self.mlp.active_params(), {"norms": self.norms})


def _merge(*parts: dict) -> dict:
    out: dict = {}
    for part in parts:
        for k, v in part.items():
            out[k] = out.get(k, 0) + v
    return out
