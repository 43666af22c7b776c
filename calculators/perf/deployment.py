"""How a model is laid out over devices, and what each device holds and streams.

The inputs are a minimal protocol of numbers (`Shape`: per layer the weight
bytes, split into those every step reads and the routed experts, the cache
bytes per token, how a step reads that cache, and the fixed state per request;
plus the bytes outside the layers), so that the catalog's models (through
`shape_from_catalog`, from the per-layer specs) and hand-written shapes can
both feed it. Nothing here knows an attention kind by name: a layer says how
many cache bytes a token adds, whether its window stops growing, how many of
them a step reads, and how much state a request holds; the shape says whether
the cache is one latent (whole on every tensor-parallel rank) or split by KV
head, and which tensor-parallel degrees the model's heads allow (`tp_rules`).

A `Deployment` is data: tensor-parallel degree, pipeline stages, data-parallel
attention groups (KV split by request) and whether experts are placed whole
(expert parallelism). The fit search (`fit`) tries each scheme in `SCHEMES`;
a scheme is a small class that maps a device count to a deployment.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..arch import precision as P
from ..arch.layers import tp_rule_holds


class DeploymentError(ValueError):
    """An impossible deployment (no devices, more stages than layers, ...).

    `code` and `params` say it in data for a message in the reader's language: "tp_heads" (tp, field,
    count: the degree does not divide the heads), "tp_kv_heads" (tp, field, count: it neither divides
    the KV heads nor is a multiple of them)."""

    def __init__(self, message: str, code: str = "invalid", **params):
        self.code, self.params = code, params
        super().__init__(message)


# ------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Layer:
    """One transformer layer as the deployment sees it (bytes, not parameters)."""

    dense_bytes: float              # read whole every step: attention, norms, dense MLP, shared experts
    expert_bytes: float = 0.0       # routed experts stored in this layer
    experts: int = 0                # routed experts; 0: expert bytes are stored but never read
    experts_active: int = 0         # experts each token routes to
    kv_bytes_per_token: float = 0.0
    kv_window: int | None = None    # a sliding window or chunk stops the cache growing
    kv_scan_per_token: float | None = None   # bytes a step reads per kept token (None: all of them)
    kv_rows: int = 0                # tokens a step reads in full rows besides (sparse attention's top-k)
    kv_row_bytes: float = 0.0       # bytes per such row
    state_bytes: float = 0.0        # fixed state per request (linear-attention, state-space mixers)
    state_heads: int | None = None  # heads the state splits into under tensor parallelism (None: not split)

    def expert_read_share(self, tokens: int) -> float:
        """Expected share of routed experts a step for `tokens` tokens reads (uniform routing)."""
        if not self.experts:
            return 0.0
        return 1.0 - (1.0 - self.experts_active / self.experts) ** tokens

    def kept_tokens(self, context: int) -> int:
        return context if self.kv_window is None else min(context, self.kv_window)

    def kv_bytes(self, context: int) -> float:
        return self.kv_bytes_per_token * self.kept_tokens(context)

    def kv_read_bytes(self, context: int) -> float:
        """Bytes of the cache one step reads for one request: the scanned part of every kept token, plus rows."""
        kept = self.kept_tokens(context)
        scan = self.kv_bytes_per_token if self.kv_scan_per_token is None else self.kv_scan_per_token
        return kept * scan + min(self.kv_rows, kept) * self.kv_row_bytes

    def held_per_request(self, context: int) -> float:
        """Cache and state one request keeps in this layer: the piece no layout can split further than by head."""
        return self.kv_bytes(context) + self.state_bytes

    def state_split(self, tp: int) -> int:
        return 1 if not self.state_heads else min(tp, self.state_heads)

    @property
    def stored_bytes(self) -> float:
        return self.dense_bytes + self.expert_bytes


@dataclass(frozen=True)
class Shape:
    """The numbers a deployment needs from a model; nothing more."""

    name: str
    layers: tuple[Layer, ...]
    outside_bytes: float            # embedding + unembedding, stored
    outside_read_bytes: float       # of those, read per token (the unembedding; one embedding row is negligible)
    hidden: int                     # width of the activations handed between devices
    kv_heads: int | None            # KV heads a tensor-parallel split can divide; None: a latent shared by all heads
    kv_known: bool = True           # False: the catalog cannot size the cache; it is counted as zero, flagged
    tp_rules: tuple = ()            # (config field, count, rule) a tensor-parallel degree must satisfy (arch.layers)

    @property
    def mla(self) -> bool:
        return self.kv_heads is None

    def weights_stored(self) -> float:
        return self.outside_bytes + sum(l.stored_bytes for l in self.layers)

    def kv_bytes(self, context: int, requests: int = 1) -> float:
        return requests * sum(l.kv_bytes(context) for l in self.layers)

    def state_bytes(self, requests: int = 1) -> float:
        return requests * sum(l.state_bytes for l in self.layers)

    def cache_bytes(self, context: int, requests: int = 1) -> float:
        """Per-token cache and fixed state of `requests` requests."""
        return self.kv_bytes(context, requests) + self.state_bytes(requests)

    def tp_ok(self, tp: int) -> bool:
        return all(tp_rule_holds(tp, count, rule) for _, count, rule in self.tp_rules)

    def tp_problem(self, tp: int) -> tuple | None:
        """The first (field, count, rule) a tensor-parallel degree of `tp` breaks, or None."""
        return next((r for r in self.tp_rules if not tp_rule_holds(tp, r[1], r[2])), None)


# ---------------------------------------------------------- catalog adapter




@functools.lru_cache(maxsize=64)   # bounded: in the browser every edit of a custom model is a new model
def shape_from_catalog(model, kv_precision: str = "bf16", weight_precision: str | None = None) -> Shape:
    """A catalog model's Shape, from its per-layer specs (calculators/arch/layers.py, from its config.json);
    built once per model and precisions (a Shape is frozen: the fit search, the measurement rows and every
    language of the build ask for the same ones).

    Each layer's tensors split into the part every token reads (attention,
    router, shared experts, dense MLP, norms) and the routed experts; the
    embedding, final norm and lm_head sit outside the layers (one embedding
    row per token is read, the lm_head in full). A model without a config
    (its layers unknown) gives a DeploymentError.
    """
    arch = getattr(model, "arch", None)
    if arch is None:
        raise DeploymentError(f"{model.name}: its layers are not known (no config.json), so no deployment can be laid out")
    forced = P.get(weight_precision) if weight_precision else None
    prec = lambda group: (forced or arch.precisions[group]).bytes  # noqa: E731
    layers, seen = [], {}
    for layer in arch.layers:
        if layer in seen:            # identical layers share one frozen Layer (cheap to build for 1,000 layers)
            layers.append(seen[layer])
            continue
        groups = layer.params()
        routed = groups.get("experts", 0) * prec("experts") if "experts" in groups else 0.0
        dense = sum(n * prec(g) for g, n in groups.items() if g != "experts")
        experts, active = layer.mlp.routed()
        att = layer.attention
        scan, rows, row = att.kv_read_terms(kv_precision)
        per_token = att.kv_bytes_per_token(kv_precision)
        state = att.state_bytes()
        seen[layer] = Layer(dense, routed, experts, active, per_token, att.max_cached_tokens,
                            None if scan == per_token else scan, rows, row, state,
                            att.state_shards(1 << 30) if state else None)
        layers.append(seen[layer])
    outside_params = {"embeddings": arch.vocab * arch.hidden, "norms": arch.hidden,
                      "lm_head": 0 if arch.tied else arch.vocab * arch.hidden}
    outside = sum(n * prec(g) for g, n in outside_params.items())
    outside_read = (arch.hidden * prec("embeddings") if not arch.tied else 0.0) + arch.hidden * prec("norms") \
        + arch.vocab * arch.hidden * prec("lm_head" if not arch.tied else "embeddings")
    # per-token caches: split by KV head up to the fewest KV heads of any layer, or not at all (a latent: 1 part)
    splits = [l.attention.kv_shards(1 << 30) for l in arch.layers if l.attention.kv_bytes_per_token(kv_precision)]
    kv_heads = None if splits and min(splits) == 1 else (min(splits) if splits else 1 << 30)
    return Shape(model.name, tuple(layers), outside, outside_read, arch.hidden, kv_heads, True, arch.tp_rules())


# --------------------------------------------------------------- deployment


@dataclass(frozen=True)
class Deployment:
    """A layout: tp x dp devices per pipeline stage, pp stages.

    dp > 1 is data-parallel attention: each of dp groups keeps the KV cache of
    its own requests and a copy of the dense weights (split tp ways); the
    routed experts are split over all tp x dp devices of the stage. `ep` says
    the experts are placed whole (expert parallelism, all-to-all traffic)
    rather than each split tp x dp ways (all-reduce traffic); the bytes per
    device are the same under balanced routing.
    """

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: bool = False

    def __post_init__(self):
        if min(self.tp, self.pp, self.dp) < 1:
            raise DeploymentError("tensor, pipeline and data-parallel degrees must be at least 1")

    @property
    def devices(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def stage_devices(self) -> int:
        return self.tp * self.dp

    def kv_split(self, shape: Shape) -> int:
        """Into how many parts TP splits one request's cache: by KV head up to the head count; MLA not at all.
        Past the head count each KV head is replicated, so every device still holds 1/kv_heads of the cache."""
        return 1 if shape.mla else min(self.tp, shape.kv_heads)

    def problem(self, shape: Shape) -> DeploymentError | None:
        """Why engines cannot run this layout for the shape (its TP degree and the heads), or None."""
        rule = shape.tp_problem(self.tp)
        if rule is None:
            return None
        field, count, how = rule
        code = "tp_heads" if how == "divides" else "tp_kv_heads"
        return DeploymentError(f"tensor parallelism of {self.tp} does not fit {field} = {count} ({how})", code,
                               tp=self.tp, field=field, count=count)

    def requests_per_group(self, batch: int) -> int:
        return math.ceil(batch / self.dp)

    # Items are the pieces a pipeline cuts between: embedding, each layer, unembedding.
    def _held_items(self, shape: Shape, context: int, batch: int) -> list[float]:
        reqs, split, stage = self.requests_per_group(batch), self.kv_split(shape), self.stage_devices
        items = [shape.outside_bytes / 2 / self.tp]
        for l in shape.layers:
            items.append(l.dense_bytes / self.tp + l.expert_bytes / stage + reqs * l.kv_bytes(context) / split
                         + reqs * l.state_bytes / l.state_split(self.tp))
        items.append(shape.outside_bytes / 2 / self.tp)
        return items

    def _read_items(self, shape: Shape, context: int, batch: int, tokens: int | None = None) -> list[float]:
        reqs, split, stage = self.requests_per_group(batch), self.kv_split(shape), self.stage_devices
        items = [0.0]
        for l in shape.layers:
            routed = l.expert_bytes * l.expert_read_share(tokens or batch) / stage
            state = 2 * l.state_bytes / l.state_split(self.tp)    # read, then written back
            items.append(l.dense_bytes / self.tp + routed + reqs * (l.kv_read_bytes(context) / split + state))
        items.append(shape.outside_read_bytes / self.tp)
        return items

    def stages(self, shape: Shape, context: int, batch: int) -> list[tuple[int, int]]:
        """Contiguous item ranges [start, end) per stage, the largest stage as small as possible."""
        return self._stages_of(self._held_items(shape, context, batch) if self.pp > 1 else None, shape)

    def _stages_of(self, held: list[float] | None, shape: Shape) -> list[tuple[int, int]]:
        """stages() from the held items already computed (needed only with a pipeline)."""
        if self.pp > len(shape.layers):
            raise DeploymentError(f"{self.pp} pipeline stages but only {len(shape.layers)} layers")
        if self.pp == 1:
            return [(0, len(shape.layers) + 2)]
        return balanced_split(held, self.pp)

    def held_per_device(self, shape: Shape, context: int, batch: int) -> float:
        """Bytes the fullest device holds: its weights share plus its KV share."""
        items = self._held_items(shape, context, batch)
        return max(sum(items[a:b]) for a, b in self._stages_of(items, shape))

    def kv_per_device(self, shape: Shape, context: int, batch: int) -> float:
        """Per-token cache and fixed state the fullest stage's devices hold."""
        reqs, split = self.requests_per_group(batch), self.kv_split(shape)
        per_layer = [reqs * (l.kv_bytes(context) / split + l.state_bytes / l.state_split(self.tp)) for l in shape.layers]
        return max(sum(per_layer[max(a - 1, 0):max(b - 1, 0)]) for a, b in self.stages(shape, context, batch))

    def streamed_serial(self, shape: Shape, context: int, batch: int, tokens: int | None = None) -> float:
        """Bytes one device-chain streams per step, stage after stage.

        A token passes the stages in sequence, so per request the stage times
        add up: pipeline stages add capacity, not speed. Within a stage the
        tp x dp devices stream their shares at the same time. `tokens`
        (default: batch) is how many tokens the step routes through the
        experts: a speculative verify step routes k + 1 tokens of one request.
        """
        reads = self._read_items(shape, context, batch, tokens)
        return sum(sum(reads[a:b]) for a, b in self.stages(shape, context, batch))

    def label(self) -> str:
        parts = [f"TP{self.tp}"] + ([f"PP{self.pp}"] if self.pp > 1 else []) + ([f"DP{self.dp}"] if self.dp > 1 else [])
        return "×".join(parts) + (" EP" if self.ep else "")


def balanced_split(items: list[float], parts: int) -> list[tuple[int, int]]:
    """Cut `items` into at most `parts` contiguous runs minimising the largest sum.

    Binary search on the capacity with a greedy packer: with more parts the
    optimum never grows, which the fit search relies on. Kept per (items, parts):
    the fit search and the figures ask for the same split several times (a build
    asked 172 times for 36 different ones).
    """
    return list(_balanced_split(tuple(items), parts))


@functools.lru_cache(maxsize=512)
def _balanced_split(items: tuple[float, ...], parts: int) -> tuple[tuple[int, int], ...]:
    lo, hi = max(items), sum(items)
    for _ in range(60):
        if hi - lo <= 1e-9 * hi:
            break
        mid = (lo + hi) / 2
        if len(_pack(items, mid)) <= parts:
            hi = mid
        else:
            lo = mid
    return tuple(_pack(items, hi))


def _pack(items: list[float], cap: float) -> list[tuple[int, int]]:
    runs, start, acc = [], 0, 0.0
    for i, x in enumerate(items):
        if acc + x > cap * (1 + 1e-12) and i > start:
            runs.append((start, i))
            start, acc = i, 0.0
        acc += x
    runs.append((start, len(items)))
    return runs


def min_stages(shape: Shape, tp: int, capacity: float, context: int, batch: int, dp: int = 1) -> int | None:
    """Fewest whole-layer pipeline stages of tp x dp devices each that fit `capacity`, or None."""
    items = Deployment(tp=tp, dp=dp)._held_items(shape, context, batch)
    if max(items) > capacity:
        return None
    return len(_pack(items, capacity))
