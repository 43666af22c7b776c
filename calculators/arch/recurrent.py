"""Layers that keep nothing per token: linear attention and state-space mixers (a fixed state per request
instead of a cache per token), and blocks without a token mixer at all.

Each is an `AttentionSpec` (calculators/arch/layers.py): no bytes per token, a
state of convolution values and recurrent values per request, at the dtypes
the config names or the model's own (vLLM's "auto"; KDA's recurrent state is
always FP32), split over tensor-parallel devices by its heads. A decode step
reads the state and writes it back.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass

from .layers import DIVIDES, AttentionSpec
from .precision import BF16, FP32, Precision


class NoTokenCache(AttentionSpec):
    """A layer that keeps nothing per token: no KV cache to hold, grow or split (a block without a token
    mixer, and the fixed-state mixers below)."""

    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        return 0.0

    def cached_tokens(self, context: int) -> int:
        return 0

    @property
    def max_cached_tokens(self) -> int | None:
        return 0

    def kv_shards(self, devices: int) -> int:
        return 1


@dataclass(frozen=True)
class NoMixer(NoTokenCache):
    """A layer without a token mixer: Nemotron-H's MLP-only blocks ('-' in hybrid_override_pattern)."""

    kind = "none"

    def tp_rules(self) -> tuple:
        return ()

    def params(self) -> dict:
        return {}

    def flops_per_token(self, context: int) -> float:
        return 0.0


class _RecurrentMixer(NoTokenCache):
    """A mixer with a fixed state per request and no per-token cache (linear attention, state-space)."""

    @abstractmethod
    def conv_values(self) -> int:
        """Values of the short-convolution state: (kernel - 1) x channels."""

    @abstractmethod
    def recurrent_values(self) -> int:
        """Values of the recurrent (SSM / delta-rule) state."""

    conv_precision: Precision
    state_precision: Precision

    def state_bytes(self) -> float:
        return self.conv_values() * self.conv_precision.bytes + self.recurrent_values() * self.state_precision.bytes

    def flops_per_token(self, context: int) -> float:
        """An estimate, independent of the context: three passes over the recurrent state (decay and
        update, read-out), 2 FLOP per value each. Negligible next to the weights at decode."""
        return 6.0 * self.recurrent_values()


@dataclass(frozen=True)
class GatedDeltaNet(_RecurrentMixer):
    """Gated DeltaNet linear attention (Qwen3-Next's linear_attention layers).

    Tensors (transformers qwen3_next Qwen3NextGatedDeltaNet): in_proj_qkvz
    hidden -> 2 key_dim + 2 value_dim, in_proj_ba hidden -> 2 value heads,
    conv1d over 2 key_dim + value_dim channels (kernel K, no bias), dt_bias and
    A_log per value head, a gated RMSNorm over the value head dim, out_proj
    value_dim -> hidden. State per request (vLLM MambaStateShapeCalculator):
    conv (K - 1) x (2 key_dim + value_dim), recurrent value heads x value
    dim x key dim.
    """

    hidden: int
    key_heads: int
    value_heads: int
    key_head_dim: int
    value_head_dim: int
    conv_kernel: int
    conv_precision: Precision = BF16
    state_precision: Precision = BF16

    kind = "linear"

    @property
    def key_dim(self) -> int:
        return self.key_heads * self.key_head_dim

    @property
    def value_dim(self) -> int:
        return self.value_heads * self.value_head_dim

    def conv_values(self) -> int:
        return (self.conv_kernel - 1) * (2 * self.key_dim + self.value_dim)

    def recurrent_values(self) -> int:
        return self.value_heads * self.value_head_dim * self.key_head_dim

    def state_shards(self, devices: int) -> int:
        return min(devices, self.value_heads)

    def tp_rules(self) -> tuple:
        return (("linear_num_key_heads", self.key_heads, DIVIDES), ("linear_num_value_heads", self.value_heads, DIVIDES))

    def params(self) -> dict:
        h = self.hidden
        conv_dim = 2 * self.key_dim + self.value_dim
        n = h * (2 * self.key_dim + 2 * self.value_dim) + h * 2 * self.value_heads
        n += conv_dim * self.conv_kernel + 2 * self.value_heads + self.value_head_dim + self.value_dim * h
        return {"attention": n}


@dataclass(frozen=True)
class KimiDeltaAttention(_RecurrentMixer):
    """Kimi Delta Attention (Kimi Linear's KDA layers): a delta rule with a per-channel gate.

    Tensors (vLLM model_executor/layers/kda.py, KimiDeltaAttention): q, k, v
    projections hidden -> heads x dim, f_a (hidden -> dim) and f_b (dim ->
    heads x dim), dt_bias (heads x dim), b_proj hidden -> heads, three short
    convolutions over heads x dim (kernel K, no bias), A_log per head, g_a /
    g_b like f_a / f_b, o_norm over dim, o_proj heads x dim -> hidden. State:
    conv (K - 1) x 3 x heads x dim in the model's dtype and a recurrent heads
    x dim x dim always in FP32 (vLLM kda_state_dtype).
    """

    hidden: int
    heads: int
    kda_head_dim: int
    conv_kernel: int
    conv_precision: Precision = BF16
    state_precision: Precision = FP32

    kind = "kda"

    def conv_values(self) -> int:
        return (self.conv_kernel - 1) * 3 * self.heads * self.kda_head_dim

    def recurrent_values(self) -> int:
        return self.heads * self.kda_head_dim * self.kda_head_dim

    def state_shards(self, devices: int) -> int:
        return min(devices, self.heads)

    def tp_rules(self) -> tuple:
        return (("linear_attn_config.num_heads", self.heads, DIVIDES),)

    def params(self) -> dict:
        h, d, hd = self.hidden, self.kda_head_dim, self.heads * self.kda_head_dim
        n = 3 * h * hd                       # q, k, v
        n += 2 * (h * d + d * hd)            # f_a/f_b and g_a/g_b
        n += hd + h * self.heads             # dt_bias, b_proj
        n += 3 * hd * self.conv_kernel       # three short convolutions
        n += self.heads + d + hd * h         # A_log, o_norm, o_proj
        return {"attention": n}


@dataclass(frozen=True)
class Mamba2Mixer(_RecurrentMixer):
    """A Mamba-2 mixer (Nemotron-H 'M' blocks).

    Tensors (transformers nemotron_h NemotronHMamba2Mixer): d_inner = heads x
    head_dim; in_proj hidden -> 2 d_inner + 2 groups x state + heads,
    depthwise conv1d over d_inner + 2 groups x state channels (kernel K, bias
    when use_conv_bias), dt_bias, A_log and D per head, a gated RMSNorm over
    d_inner, out_proj d_inner -> hidden (in/out biases when use_bias). State
    (vLLM MambaStateShapeCalculator): conv (K - 1) x (d_inner + 2 groups x
    state), SSM heads x head_dim x state.
    """

    hidden: int
    mamba_heads: int
    mamba_head_dim: int
    groups: int
    ssm_state: int
    conv_kernel: int
    conv_bias: bool = True
    proj_bias: bool = False
    conv_precision: Precision = BF16
    state_precision: Precision = BF16

    kind = "mamba2"

    @property
    def inner(self) -> int:
        return self.mamba_heads * self.mamba_head_dim

    def conv_channels(self) -> int:
        return self.inner + 2 * self.groups * self.ssm_state

    def conv_values(self) -> int:
        return (self.conv_kernel - 1) * self.conv_channels()

    def recurrent_values(self) -> int:
        return self.mamba_heads * self.mamba_head_dim * self.ssm_state

    def state_shards(self, devices: int) -> int:
        return min(devices, self.mamba_heads)

    def tp_rules(self) -> tuple:
        return (("mamba_num_heads", self.mamba_heads, DIVIDES),)

    def params(self) -> dict:
        h, inner = self.hidden, self.inner
        in_out = h * (2 * inner + 2 * self.groups * self.ssm_state + self.mamba_heads) + inner * h
        if self.proj_bias:
            in_out += 2 * inner + 2 * self.groups * self.ssm_state + self.mamba_heads + h
        conv = self.conv_channels() * (self.conv_kernel + (1 if self.conv_bias else 0))
        return {"attention": in_out + conv + 3 * self.mamba_heads + inner}


@dataclass(frozen=True)
class Mamba1Mixer(_RecurrentMixer):
    """A Mamba (selective SSM) mixer as Jamba uses it.

    Tensors (transformers jamba JambaMambaMixer): d_inner = expand x hidden;
    in_proj hidden -> 2 d_inner, conv1d over d_inner (kernel K, bias when
    mamba_conv_bias), x_proj d_inner -> dt_rank + 2 state, dt_proj dt_rank ->
    d_inner with bias, A_log d_inner x state, D d_inner, out_proj d_inner ->
    hidden, RMSNorms over dt_rank, state and state (dt, B, C). State (vLLM):
    conv (K - 1) x d_inner, SSM d_inner x state.
    """

    hidden: int
    inner: int
    ssm_state: int
    conv_kernel: int
    dt_rank: int
    conv_bias: bool = True
    proj_bias: bool = False
    inner_norms: bool = True
    conv_precision: Precision = BF16
    state_precision: Precision = BF16

    kind = "mamba"

    def conv_values(self) -> int:
        return (self.conv_kernel - 1) * self.inner

    def recurrent_values(self) -> int:
        return self.inner * self.ssm_state

    def state_shards(self, devices: int) -> int:
        return min(devices, self.inner)

    def tp_rules(self) -> tuple:
        return (("mamba_d_inner", self.inner, DIVIDES),)

    def params(self) -> dict:
        h, d, n, r = self.hidden, self.inner, self.ssm_state, self.dt_rank
        total = h * 2 * d + d * self.conv_kernel + (d if self.conv_bias else 0)
        total += d * (r + 2 * n) + r * d + d + d * n + d + d * h
        if self.proj_bias:
            total += 2 * d + h
        if self.inner_norms:
            total += r + 2 * n
        return {"attention": total}
