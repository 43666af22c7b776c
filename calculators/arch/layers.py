"""Per-layer specs: one small frozen class per mixer kind and per MLP kind.

A model is a list of `Layer`s (calculators/arch/config.py builds it from a
Hugging Face config.json). Each spec answers for itself: how many bytes one
token adds to its cache, how many tokens it keeps for a context, how many
bytes of that cache one decode step reads, how much fixed state it holds per
request, how many parameters it stores per tensor group, how many of them a
batch reads, which tensor-parallel degrees can split it, and the arithmetic
per token. The contract is written down as two abstract base classes,
`AttentionSpec` (every token mixer: attention of any kind, linear attention,
state-space mixers) and `MLPSpec`: adding a kind means adding a subclass that
implements every abstract method (Python refuses to build one that does not),
never an `if kind == ...` in the callers (the pattern of vLLM's
kv_cache_interface.py).

Two kinds of memory per request:
- a cache per token (`kv_bytes_per_token` x `cached_tokens(context)`): full,
  sliding-window, chunked and latent attention, the sparse-attention indexer;
- a fixed state per request (`state_bytes()`): the convolution and recurrent
  state of linear-attention and state-space layers, the same at any context.
  A decode step reads that state and writes it back (`state_traffic_bytes()`).

Parameter groups (the keys of `params()`): "attention" (every mixer's
weights), "router", "experts", "shared_experts", "dense_mlp", "norms". The
embedding and lm_head groups belong to the model, not to a layer.

This module holds the contract, the attention kinds and `Layer`;
calculators/arch/recurrent.py the mixers with a fixed state per request
(Gated DeltaNet, Kimi Delta Attention, Mamba, Mamba-2); calculators/arch/mlp.py
the MLP kinds (re-exported here). Sources of the tensor shapes are cited per
class; hand derivations of every count, written independently of these
modules, are in tests/test_architecture.py and tests/test_hybrid_architectures.py.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from .mlp import DenseMLP, MLPSpec, MoEMLP, NoMLP  # noqa: F401  (the MLP kinds, re-exported)
from .precision import BF16, FP8, Precision, get

# A tensor-parallel rule: (config field, its value, how a TP degree must relate to it).
DIVIDES = "divides"                      # the degree divides the count (heads split evenly)
DIVIDES_OR_MULTIPLE = "divides_or_multiple"   # the degree divides the count, or is a multiple of it (KV heads replicated)


def tp_rule_holds(tp: int, count: int, rule: str) -> bool:
    """Can `tp` devices split `count` heads under `rule` (vLLM's checks on heads and KV heads)?"""
    if rule == DIVIDES:
        return count % tp == 0
    return count % tp == 0 or tp % count == 0


# ----------------------------------------------------------------- mixers


class AttentionSpec(ABC):
    """What every token mixer answers for one layer (attention, linear attention, state-space)."""

    kind: str = ""                       # how the kind is named in summaries ("full", "sliding", "latent", ...)
    window_resets: bool = False          # a window that restarts at fixed boundaries (chunks), not one that slides

    @abstractmethod
    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        """Bytes one more token adds to this layer's cache (while it grows); 0 without a per-token cache."""

    @abstractmethod
    def cached_tokens(self, context: int) -> int:
        """Tokens of a context of `context` tokens this layer keeps."""

    @property
    @abstractmethod
    def max_cached_tokens(self) -> int | None:
        """The most tokens the layer ever keeps (a window or chunk; 0 for none), or None: every token of the context."""

    def kv_bytes(self, context: int, kv_precision: str | Precision) -> float:
        return self.cached_tokens(context) * self.kv_bytes_per_token(kv_precision)

    def kv_read_terms(self, kv_precision: str | Precision) -> tuple[float, int, float]:
        """How a decode step reads the cache: (bytes scanned per kept token, tokens read in full rows
        besides, bytes per such row). Default: every kept token whole, (bytes per token, 0, 0)."""
        return self.kv_bytes_per_token(kv_precision), 0, 0.0

    def kv_read_bytes(self, context: int, kv_precision: str | Precision) -> float:
        """Bytes of its per-token cache one decode step reads for one request (default: all it keeps)."""
        scan, rows, row = self.kv_read_terms(kv_precision)
        kept = self.cached_tokens(context)
        return kept * scan + min(rows, kept) * row

    def state_bytes(self) -> float:
        """Fixed state held per request, whatever the context (convolution + recurrent state); 0 by default."""
        return 0.0

    def state_traffic_bytes(self) -> float:
        """Bytes of state one decode step moves per request: the state is read and written back."""
        return 2.0 * self.state_bytes()

    def grows_at(self, context: int | None) -> bool:
        """Does one more token at this context add to the cache? (None: at long context.)"""
        if self.kv_bytes_per_token(BF16) == 0:
            return False
        limit = self.max_cached_tokens
        return limit is None or (context is not None and context <= limit)

    @abstractmethod
    def kv_shards(self, devices: int) -> int:
        """Into how many distinct parts `devices` tensor-parallel devices split this layer's per-token cache."""

    def state_shards(self, devices: int) -> int:
        """Into how many distinct parts `devices` tensor-parallel devices split this layer's fixed state."""
        return 1

    @abstractmethod
    def tp_rules(self) -> tuple:
        """(config field, count, rule) a tensor-parallel degree must satisfy for this layer (see DIVIDES)."""

    @abstractmethod
    def params(self) -> dict:
        """Parameters per tensor group."""

    @abstractmethod
    def flops_per_token(self, context: int) -> float:
        """Mixer arithmetic for one new token against `context` earlier tokens."""

    def summary_params(self) -> dict:
        """The numbers a one-line summary of this kind names (a window, a chunk, top-k); none by default."""
        return {}


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
    output_gate: bool = False  # q_proj also yields a per-head output gate (Qwen3-Next: heads x head_dim x 2)
    qkv_bias_only: bool = False  # biases on q, k, v but not on o (GLM-4.5's attention_bias)

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
        """Tensor parallelism splits KV heads; beyond their count heads are replicated (each device keeps one)."""
        return min(devices, self.kv_heads)

    def tp_rules(self) -> tuple:
        return (("num_attention_heads", self.query_heads, DIVIDES),
                ("num_key_value_heads", self.kv_heads, DIVIDES_OR_MULTIPLE))

    def params(self) -> dict:
        q = self.query_heads * self.head_dim
        kv = self.kv_heads * self.head_dim
        n = self.hidden * ((2 * q if self.output_gate else q) + 2 * kv) + q * self.hidden
        if self.bias:
            n += q + 2 * kv + (0 if self.qkv_bias_only else self.hidden)
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

    def summary_params(self) -> dict:
        return {"window": self.window}

    def cached_tokens(self, context: int) -> int:
        return min(context, self.window)

    @property
    def max_cached_tokens(self) -> int | None:
        return self.window


@dataclass(frozen=True)
class ChunkedAttention(FullAttention):
    """Chunked local attention (Llama 4): a token attends only to the tokens of its own chunk of `chunk` tokens.

    The window resets at every chunk boundary, so a layer never keeps more than
    `chunk` tokens; within a chunk it keeps (and a step reads) the tokens since
    the boundary. Sizes here take the largest case, a full chunk, min(context,
    chunk): the memory a request needs at some step of a long answer, and the
    most a step reads. (transformers Llama4TextConfig: layer_types
    "chunked_attention", attention_chunk_size; vLLM ChunkedLocalAttentionSpec.)
    """

    chunk: int = field(kw_only=True)

    kind = "chunked"
    window_resets = True

    def summary_params(self) -> dict:
        return {"chunk": self.chunk}

    def cached_tokens(self, context: int) -> int:
        return min(context, self.chunk)

    @property
    def max_cached_tokens(self) -> int | None:
        return self.chunk


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

    def latent_bytes_per_token(self, kv_precision: str | Precision) -> float:
        kv = get(kv_precision)
        if kv is FP8:  # the published FP8 MLA layout (see the class docstring)
            scales = 4 * self.kv_lora_rank / self.FP8_SCALE_BLOCK
            return self.kv_lora_rank + scales + self.qk_rope_head_dim * BF16.bytes
        return self.kv_values_per_token() * kv.bytes

    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        return self.latent_bytes_per_token(kv_precision)

    def cached_tokens(self, context: int) -> int:
        return context

    @property
    def max_cached_tokens(self) -> int | None:
        return None

    def kv_shards(self, devices: int) -> int:
        """The latent serves every head, so each tensor-parallel device keeps all of it."""
        return 1

    def tp_rules(self) -> tuple:
        return (("num_attention_heads", self.query_heads, DIVIDES),)

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


@dataclass(frozen=True)
class SparseLatentAttention(LatentAttention):
    """DeepSeek Sparse Attention (V3.2): MLA whose decode step reads only the `index_topk` tokens an indexer picks.

    Per token and layer the cache holds the MLA latent and the indexer's key:
    `index_head_dim` FP8 values plus one FP32 scale per 128 (128 + 4 = 132
    bytes for V3.2), whatever the KV precision (DeepSeek-V3.2-Exp
    inference/model.py, Indexer: k_cache float8_e4m3fn, k_scale_cache
    float32; vLLM DeepseekV32IndexerCache, head_size 132, uint8). A step
    scores every cached indexer key, then reads min(top-k, context) latent
    rows. The indexer's weights (wq_b q_lora -> heads x dim, wk hidden -> dim,
    k_norm a LayerNorm with bias, weights_proj hidden -> heads) are counted
    with the attention group (weights_proj is BF16 in the checkpoint, the rest
    FP8: 0.46 M parameters per layer counted at the group's precision).
    """

    index_heads: int = field(kw_only=True)
    index_head_dim: int = field(kw_only=True)
    index_topk: int = field(kw_only=True)

    kind = "sparse_latent"
    INDEX_SCALE_BLOCK = 128

    def summary_params(self) -> dict:
        return {"topk": self.index_topk}

    def indexer_bytes_per_token(self) -> float:
        return self.index_head_dim * FP8.bytes + 4 * self.index_head_dim / self.INDEX_SCALE_BLOCK

    def kv_bytes_per_token(self, kv_precision: str | Precision) -> float:
        return self.latent_bytes_per_token(kv_precision) + self.indexer_bytes_per_token()

    def kv_read_terms(self, kv_precision: str | Precision) -> tuple[float, int, float]:
        """Every indexer key, then the latent rows of the top-k tokens."""
        return self.indexer_bytes_per_token(), self.index_topk, self.latent_bytes_per_token(kv_precision)

    def params(self) -> dict:
        mla = super().params()["attention"]
        d, n = self.index_head_dim, self.index_heads
        indexer = (self.q_lora_rank or 0) * n * d + self.hidden * d + 2 * d + self.hidden * n
        return {"attention": mla + indexer}

    def flops_per_token(self, context: int) -> float:
        """The indexer scores every cached key (2 FLOP per head, dim and token); MLA attends to the top-k."""
        return 2 * self.index_heads * self.index_head_dim * context + super().flops_per_token(min(self.index_topk, context))


# --------------------------------------------------------------------- layer


@dataclass(frozen=True)
class Layer:
    """One decoder layer: a mixer spec, an MLP spec and its norm weights."""

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
