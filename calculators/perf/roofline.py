"""The decode model: pure functions from catalog records to numbers in SI units.

Nothing here formats or rounds; figures.py names the results and fixes their
rounding, fmt.py writes them per locale. All sizes are bytes, times seconds,
rates per second, compute FLOP and FLOP/s.

The step model is a roofline: one decode step for a batch reads the weights
once, reads what every request's cache needs read (all of it for full and
latent attention; the indexer keys and the top-k rows for sparse attention),
reads and writes back every request's fixed state (linear-attention and
state-space layers), and does 2 FLOP per active parameter per token plus the
mixers' arithmetic; its time is the larger of memory time and compute time
(perfect overlap, the most optimistic case, as a bound should be).

Memory a request holds is its per-token cache (`kv_bytes`) plus its fixed
state (`state_bytes`): `cache_bytes` is both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..data.catalog import Device, Model
from ..arch.precision import PrecisionError, bytes_per_value


class ModelError(ValueError):
    """An input the model cannot answer for (unmodelled attention, no peak, ...)."""


def _bytes(precision: str) -> float:
    try:
        return bytes_per_value(precision)
    except PrecisionError as e:
        raise ModelError(str(e)) from None


def _arch(model: Model):
    """The model's per-layer specs, or a ModelError for a model whose config the catalog lacks."""
    if model.arch is None:
        raise ModelError(f"the layers of {model.name} are not modelled: {model.src.note or 'no config in the catalog'}")
    return model.arch


# ------------------------------------------------------------------ KV cache


def kv_layer_counts(model: Model) -> dict:
    """How many layers of each attention kind the model has: {'full': n, 'sliding': n, 'latent': n}."""
    return _arch(model).layer_counts()


def kv_bytes_per_token(model: Model, kv_precision: str = "bf16", context: int | None = None) -> float:
    """Bytes one more token of context adds at the given context length.

    Each layer answers for itself: full and latent layers always grow, a
    sliding-window layer only while the context is inside its window, so
    without a context the long-context slope is returned (sliding layers
    count zero).
    """
    _bytes(kv_precision)
    return _arch(model).kv_bytes_per_token(kv_precision, context)


def kv_bytes(model: Model, context: int, batch: int = 1, kv_precision: str = "bf16") -> float:
    """Total per-token cache for `batch` sequences of `context` tokens each, exact per layer (no fixed state)."""
    if context < 0 or batch < 0:
        raise ModelError("context and batch cannot be negative")
    _bytes(kv_precision)
    return batch * _arch(model).kv_bytes(context, kv_precision)


def state_bytes(model: Model, batch: int = 1) -> float:
    """Fixed state of `batch` requests (convolution and recurrent state of linear-attention and state-space
    layers, at the dtypes the config names or the model's own): the same at any context; 0 for attention-only models."""
    if batch < 0:
        raise ModelError("batch cannot be negative")
    return batch * _arch(model).state_bytes()


def cache_bytes(model: Model, context: int, batch: int = 1, kv_precision: str = "bf16") -> float:
    """Everything `batch` requests hold besides the weights: per-token cache plus fixed state."""
    return kv_bytes(model, context, batch, kv_precision) + state_bytes(model, batch)


def kv_read_bytes(model: Model, context: int, batch: int = 1, kv_precision: str = "bf16") -> float:
    """Bytes of per-token cache one decode step reads for `batch` requests: all of it, except where a layer
    reads less than it keeps (sparse attention: every indexer key, then the top-k latent rows)."""
    if context < 0 or batch < 0:
        raise ModelError("context and batch cannot be negative")
    _bytes(kv_precision)
    return batch * _arch(model).kv_read_bytes(context, kv_precision)


def state_traffic_bytes(model: Model, batch: int = 1) -> float:
    """Bytes of fixed state one decode step moves for `batch` requests: each state read, then written back."""
    return batch * _arch(model).state_traffic_bytes()


# ------------------------------------------------------------------- weights


def weight_bytes_stored(model: Model, precision: str | None = None) -> float:
    """Bytes of all weights, each tensor group at its checkpoint precision unless one is forced."""
    if precision:
        _bytes(precision)
    return _arch(model).bytes_stored(precision)


def weight_bytes_read(model: Model, batch: int = 1, precision: str | None = None) -> float:
    """Bytes of weights one decode step streams for a batch of `batch` tokens.

    Per MoE layer the routed experts the batch touches (uniform routing:
    E(1 - (1 - k/E)^B)), all shared experts, attention, router and lm_head in
    full, one embedding row per token; each group at its own precision.
    """
    if precision:
        _bytes(precision)
    return _arch(model).bytes_read(batch, precision)


def read_params(model: Model, batch: int = 1) -> float:
    return sum(_arch(model).read_params_by_group(batch).values())


def expert_share(model: Model, batch: int = 1) -> float | None:
    """Share of the routed experts a batch touches; None for a dense model."""
    return _arch(model).expert_share(batch)


# ------------------------------------------------------------------- compute


def flops_per_token_weights(model: Model) -> float:
    """2 FLOP (one multiply, one add) per active parameter per generated token."""
    return 2.0 * model.active_params


def flops_per_token_attention(model: Model, context: int) -> float:
    """Attention arithmetic for one new token against `context` cached tokens, summed over the layers' specs."""
    if model.arch is None:
        return 0.0
    return model.arch.attention_flops(context)


def flops_per_token(model: Model, context: int = 0) -> float:
    return flops_per_token_weights(model) + flops_per_token_attention(model, context)


def peak_flops(device: Device, precision: str) -> float:
    """The device's dense peak for a precision, or a ModelError saying it is unpublished."""
    try:
        return device.peak_flops[precision]
    except KeyError:
        have = ", ".join(device.peak_flops) or "none"
        raise ModelError(f"{device.name} has no published dense {precision.upper()} peak (published: {have})") from None


# --------------------------------------------------------- tensor parallelism


def kv_shards(model: Model, devices: int) -> int:
    """Into how many distinct parts tensor parallelism splits the first cache-keeping layer's KV cache.

    KV heads are split across devices; once there are more devices than KV
    heads, heads are replicated and the split stops at the head count. The MLA
    latent is shared by all heads, so every device keeps all of it.
    """
    if devices < 1:
        raise ModelError("at least one device is needed")
    arch = _arch(model)
    first = next((l for l in arch.layers if l.attention.kv_bytes_per_token("bf16")), arch.layers[0])
    return first.attention.kv_shards(devices)


def tp_problem(model: Model, devices: int) -> tuple | None:
    """Why engines cannot split this model `devices` ways by tensor parallelism, or None when they can:
    (config field, its value, rule), rule "divides" (the degree must divide the heads) or
    "divides_or_multiple" (divide the KV heads, or be a multiple of them: KV heads replicated)."""
    if devices < 1:
        raise ModelError("at least one device is needed")
    return _arch(model).tp_problem(devices)


def kv_bytes_per_device(model: Model, context: int, batch: int, kv_precision: str, devices: int) -> float:
    """One tensor-parallel device's share of the KV cache, each layer split as far as its heads allow."""
    if devices < 1:
        raise ModelError("at least one device is needed")
    _bytes(kv_precision)
    return batch * _arch(model).kv_bytes_per_device(context, kv_precision, devices)


def state_bytes_per_device(model: Model, batch: int, devices: int) -> float:
    """One tensor-parallel device's share of the requests' fixed state (split by the mixers' heads)."""
    if devices < 1:
        raise ModelError("at least one device is needed")
    return batch * _arch(model).state_bytes_per_device(devices)


def per_device_bytes(model: Model, devices: int, context: int, batch: int,
                     kv_precision: str = "bf16", weight_precision: str | None = None) -> dict:
    """Weights, KV cache and fixed state one device of a tensor-parallel group holds."""
    weights = weight_bytes_stored(model, weight_precision) / devices
    kv = kv_bytes_per_device(model, context, batch, kv_precision, devices)
    state = state_bytes_per_device(model, batch, devices)
    return {"weights": weights, "kv": kv, "state": state, "total": weights + kv + state}


def fits(model: Model, device: Device, devices: int, context: int, batch: int,
         kv_precision: str = "bf16", weight_precision: str | None = None) -> bool:
    need = per_device_bytes(model, devices, context, batch, kv_precision, weight_precision)["total"]
    return need <= device.serving.bytes


def min_devices(model: Model, device: Device, context: int = 0, batch: int = 1,
                kv_precision: str = "bf16", weight_precision: str | None = None, limit: int = 100_000) -> int:
    """Fewest devices whose serving memory holds weights plus KV cache.

    Returns the smallest N that fits (any N, not only powers of two); raises
    when even `limit` devices do not fit, as happens when replicated KV heads
    alone exceed one device.
    """
    weights = weight_bytes_stored(model, weight_precision)
    cap = device.serving.bytes
    n = max(1, math.ceil(weights / cap))
    while n <= limit:
        if weights / n + kv_bytes_per_device(model, context, batch, kv_precision, n) \
                + state_bytes_per_device(model, batch, n) <= cap:
            return n
        n += 1
    raise ModelError(f"{model.name} does not fit on {limit} x {device.name}")


# ------------------------------------------------------------------ the step


@dataclass(frozen=True)
class Step:
    """One decode step for a batch on a tensor-parallel group, per device."""

    weights_s: float          # time to stream this device's share of the weights
    kv_s: float               # time to read what this device's share of the KV cache a step needs
    compute_s: float | None   # arithmetic time at the dense peak; None if no peak is published
    batch: int
    state_s: float = 0.0      # time to read and write back this device's share of the fixed state

    @property
    def memory_s(self) -> float:
        return self.weights_s + self.kv_s + self.state_s

    @property
    def time_s(self) -> float:
        """Roofline: memory and compute overlap perfectly, the slower one sets the pace."""
        return max(self.memory_s, self.compute_s or 0.0)

    @property
    def bound(self) -> str:
        return "compute" if (self.compute_s or 0.0) > self.memory_s else "memory"

    @property
    def tokens_per_s(self) -> float:
        """Speed one request sees: one token per step."""
        return 1.0 / self.time_s

    @property
    def aggregate_tokens_per_s(self) -> float:
        return self.batch / self.time_s

    @property
    def compute_utilisation(self) -> float | None:
        return None if self.compute_s is None else self.compute_s / self.time_s


def decode_step(model: Model, device: Device, *, devices: int = 1, batch: int = 1, context: int = 0,
                kv_precision: str = "bf16", weight_precision: str | None = None,
                compute_precision: str = "bf16", efficiency: float = 1.0, tier: str | None = None) -> Step:
    """Time one decode step: every request in the batch gets one token.

    `efficiency` scales the achieved memory bandwidth (1.0 for a bound);
    `tier` picks the memory tier the weights and KV stream from (default: the
    device's serving tier).
    """
    if batch < 1 or devices < 1:
        raise ModelError("batch and device count must be at least 1")
    if context < 0:
        raise ModelError("context cannot be negative")
    if not 0 < efficiency <= 1:
        raise ModelError("efficiency must be in (0, 1]")
    mem = device.tier(tier) if tier else device.serving
    if not mem.bytes_per_s:
        raise ModelError(f"{device.name}: tier {mem.tier} has no published bandwidth")
    bw = mem.bytes_per_s * efficiency
    weights_s = weight_bytes_read(model, batch, weight_precision) / devices / bw
    _bytes(kv_precision)
    arch = _arch(model)
    kv_s = batch * arch.kv_read_bytes_per_device(context, kv_precision, devices) / bw
    state_s = batch * arch.state_traffic_bytes_per_device(devices) / bw
    try:
        peak = peak_flops(device, compute_precision)
        compute_s = batch * flops_per_token(model, context) / (devices * peak)
    except ModelError:
        compute_s = None
    return Step(weights_s, kv_s, compute_s, batch, state_s)


def implied_bandwidth(model: Model, tokens_per_s: float, context: int = 0, kv_precision: str = "bf16") -> float:
    """Bytes per second a batch-1 speed implies: every token reads active weights and what its cache needs
    read once, and moves its fixed state (read and written back)."""
    per_token = weight_bytes_read(model, 1) + kv_read_bytes(model, context, 1, kv_precision) + state_traffic_bytes(model, 1)
    return per_token * tokens_per_s


# ------------------------------------------------------ prefill and latency


def prefill_time(model: Model, device: Device, prompt_tokens: int, *, devices: int = 1,
                 compute_precision: str = "bf16", utilisation: float = 1.0, weight_precision: str | None = None) -> float:
    """Time to first token: the slower of the prompt's compute time and its memory time (a roofline)."""
    return max(prefill_times(model, device, prompt_tokens, devices=devices, compute_precision=compute_precision,
                             utilisation=utilisation, weight_precision=weight_precision))


def prefill_times(model: Model, device: Device, prompt_tokens: int, *, devices: int = 1,
                  compute_precision: str = "bf16", utilisation: float = 1.0, weight_precision: str | None = None) -> tuple:
    """(compute time, memory time) of the prompt; the formula objects show both sides.

    The prompt is processed in parallel, so compute usually binds. Attention
    over the prompt is causal: token i attends to i earlier tokens, so the
    attention term sums to about prompt^2/2. The weights must still be read
    once, which sets a floor for short prompts (at `weight_precision`, None: as released).
    """
    if prompt_tokens < 1:
        raise ModelError("a prompt has at least one token")
    if not 0 < utilisation <= 1:
        raise ModelError("utilisation must be in (0, 1]")
    flops = prompt_tokens * flops_per_token_weights(model) + flops_per_token_attention(model, prompt_tokens) * (prompt_tokens + 1) / 2
    compute = flops / (devices * peak_flops(device, compute_precision) * utilisation)
    memory = weight_bytes_read(model, prompt_tokens, weight_precision) / devices / device.serving.bytes_per_s
    return compute, memory


def end_to_end_latency(ttft_s: float, output_tokens: int, tokens_per_s: float) -> float:
    """What a user waits for a whole answer: first token, then the rest at decode speed."""
    if tokens_per_s <= 0:
        raise ModelError("speed must be positive")
    if output_tokens < 0 or ttft_s < 0:
        raise ModelError("times and token counts cannot be negative")
    return ttft_s + output_tokens / tokens_per_s


def agent_loop_time(steps: int, ttft_s: float, tokens_per_step: int, tokens_per_s: float) -> float:
    """An agent that calls the model `steps` times in sequence waits for each answer in full."""
    if steps < 1:
        raise ModelError("an agent loop has at least one step")
    return steps * end_to_end_latency(ttft_s, tokens_per_step, tokens_per_s)


# -------------------------------------------------------------- memory tiers


def tier_total(device: Device, tier: str, count: int) -> dict:
    """Capacity and bandwidth of one tier summed over `count` devices."""
    t = device.tier(tier)
    return {"bytes": t.bytes * count, "bytes_per_s": (t.bytes_per_s or 0.0) * count}


def switch_time(model: Model, device: Device, count: int, source_tier: str = "DDR",
                precision: str | None = None) -> float:
    """Time to move a model's weights from a slower tier into the serving tier.

    The copy runs at the source tier's bandwidth on every device in parallel,
    each moving its share.
    """
    src = device.tier(source_tier)
    if not src.bytes_per_s:
        raise ModelError(f"{device.name}: tier {source_tier} has no published bandwidth")
    return weight_bytes_stored(model, precision) / (src.bytes_per_s * count)


# -------------------------------------------------------------------- energy


def energy_per_token(power_w: float, tokens_per_s: float) -> float:
    """Joules per token when `power_w` serves `tokens_per_s` in total."""
    if tokens_per_s <= 0:
        raise ModelError("speed must be positive")
    return power_w / tokens_per_s
