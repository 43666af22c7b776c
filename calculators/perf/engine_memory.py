"""Memory per request as an engine allocates it, beside the arithmetic (issue 19, item 4).

The arithmetic (calculators/perf/roofline.py) counts the bytes a request's
cache and state hold. A paged allocator holds whole pages: vLLM rounds every
attention layer's tokens up to its block size, keeps a sliding window in
pages plus one, and for a hybrid model (attention with linear-attention or
state-space layers) unifies the page size of both kinds: the attention block
grows until one page holds a whole state layer of one request, and every
state page is padded to that attention page. The rule's numbers and source
are data (serving.toml, [allocators.vllm]); the per-layer facts come from the
layer specs, asked by what they hold, never by kind name.

Scope: one request, tensor parallelism 1, no prefix caching and no
speculative decoding (each of those adds state slots); a model whose decode
reads less than it keeps (sparse attention) is not laid out here, as its
page layout was not read in vLLM's source.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..data.serving import Allocator


class AllocationError(ValueError):
    """A model whose engine layout is not modelled (the reason is in the message)."""


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class RequestMemory:
    """Bytes one request holds: the arithmetic and as the engine allocates it, per-token cache and state apart."""

    kv_bytes: float
    state_bytes: float
    allocated_kv_bytes: float
    allocated_state_bytes: float
    block_tokens: int             # tokens per attention page
    allocator: Allocator

    @property
    def total(self) -> float:
        return self.kv_bytes + self.state_bytes

    @property
    def allocated_total(self) -> float:
        return self.allocated_kv_bytes + self.allocated_state_bytes


def request_memory(arch, context: int, kv_precision: str, allocator: Allocator) -> RequestMemory:
    """One request at `context` tokens: the arithmetic, and the pages `allocator` (vLLM's rule) holds for it."""
    if context < 0:
        raise AllocationError("context cannot be negative")
    layers = arch.layers
    if any(l.attention.kv_read_terms(kv_precision)[1] for l in layers):
        raise AllocationError("the page layout of sparse attention (an indexer cache beside the latent) is not modelled")
    cache = [l.attention for l in layers if l.attention.kv_bytes_per_token(kv_precision)]
    states = [l.attention.state_bytes() for l in layers if l.attention.state_bytes()]
    latent = any(a.kv_shards(1 << 30) == 1 for a in cache)
    per_token = max((a.kv_bytes_per_token(kv_precision) for a in cache), default=0.0)
    if states and cache:
        align = allocator.latent_align_tokens if latent else allocator.align_tokens
        block = align * _cdiv(int(max(states)), int(align * per_token))
    else:
        block = allocator.latent_block_tokens if latent else allocator.block_tokens
    allocated_kv = 0.0
    for a in cache:
        pages = _cdiv(context, block)
        window = a.max_cached_tokens
        if window:
            if a.window_resets:   # ChunkedLocalAttentionSpec: cdiv(min(chunk + 1, context), block)
                pages = min(pages, _cdiv(min(window + 1, context), block))
            else:                 # SlidingWindowSpec: cdiv(min(window, context), block) + 1
                pages = min(pages, _cdiv(min(window, context), block) + 1)
        allocated_kv += pages * block * a.kv_bytes_per_token(kv_precision)
    page = block * per_token
    allocated_state = float(sum(allocator.state_slots * max(page, s) for s in states) if cache else sum(states))
    return RequestMemory(arch.kv_bytes(context, kv_precision), arch.state_bytes(), allocated_kv, allocated_state,
                         block, allocator)
