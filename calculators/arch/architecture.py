"""A decoder-only model as a list of per-layer specs, and the sums over them.

An `Architecture` holds the layers (calculators/arch/layers.py), the embedding
and lm_head, the multi-token-prediction modules, and the precision of every
parameter group (calculators/arch/precision.py). Everything the decode model
needs — parameter counts, bytes stored and read per step, KV bytes, the fixed
state per request, mixer FLOPs — is a sum over the layers' own answers.
calculators/arch/config.py builds one from a config.json.

Multi-token-prediction (MTP / NextN) modules are stored in the checkpoint but
not run by plain decode: the counts and bytes here are the main model's (what
the model cards count and what an engine loads without speculative decoding);
`mtp_params()` and `mtp_bytes_stored()` give the modules' own, for
speculative decoding.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from . import precision as P
from .layers import tp_rule_holds

# How the set of attention kinds in a model is summarised (catalog tables, calculators); "unmodelled":
# a catalog model without a config. Each label is translated (msgctxt "attention").
ATTENTION_KINDS = ("gqa", "alternating_sliding", "mla", "unmodelled", "sparse_mla", "hybrid_linear", "hybrid_mamba",
                   "chunked_global", "hybrid_kda")
ATTENTION_LABELS = {frozenset({"full"}): "gqa", frozenset({"latent"}): "mla", frozenset({"sliding"}): "sliding",
                    frozenset({"full", "sliding"}): "alternating_sliding",
                    frozenset({"sparse_latent"}): "sparse_mla",                  # DeepSeek V3.2
                    frozenset({"full", "linear"}): "hybrid_linear",               # Qwen3-Next
                    frozenset({"full", "mamba2", "none"}): "hybrid_mamba",        # Nemotron-H
                    frozenset({"full", "mamba"}): "hybrid_mamba",                 # Jamba
                    frozenset({"full", "chunked"}): "chunked_global",             # Llama 4
                    frozenset({"latent", "kda"}): "hybrid_kda"}                   # Kimi Linear


@dataclass(frozen=True, eq=False)
class Architecture:
    """A decoder-only model: embedding, layers, final norm, lm_head (tied or not), precisions.

    Compared and hashed by identity (eq=False): the config it was read from is a dict, and a
    cache keyed on a model (deployment shapes, measurement rows) needs a hashable architecture.
    """

    model_type: str
    hidden: int
    vocab: int
    tied: bool
    layers: tuple
    precisions: dict
    config: dict = field(repr=False, compare=False)
    mtp: tuple = ()      # (decoder layer, extra parameters) per multi-token-prediction module (config.py)

    @cached_property
    def _groups(self) -> tuple:
        """Identical layers counted once: (layer spec, how many), so sums cost per kind, not per layer."""
        return tuple(Counter(self.layers).items())

    # ------------------------------------------------------------ params

    def params_by_group(self) -> dict:
        out = {g: 0 for g in P.GROUPS}
        for layer, count in self._groups:
            for g, n in layer.params().items():
                out[g] += n * count
        out["norms"] += self.hidden
        out["embeddings"] = self.vocab * self.hidden
        out["lm_head"] = 0 if self.tied else self.vocab * self.hidden
        return out

    def total_params(self) -> int:
        return sum(self.params_by_group().values())

    def active_params(self, include_embedding: bool = False) -> float:
        """Parameters one token multiplies with: k experts per MoE layer, the unembedding in full.

        The input embedding is a lookup of one row, so it is not counted,
        unless `include_embedding` (some model cards count it as active).
        Tied embeddings are counted once, as the unembedding.
        """
        out = sum(count * sum(layer.active_params().values()) for layer, count in self._groups) + self.hidden
        out += self.vocab * self.hidden
        if include_embedding and not self.tied:
            out += self.vocab * self.hidden
        return out

    def read_params_by_group(self, batch: int = 1) -> dict:
        """Parameters a decode step for `batch` tokens streams, per group.

        Routed experts: the share the batch touches; the input embedding: one
        row per token (none extra when tied, the unembedding reads the table).
        """
        out = {g: 0.0 for g in P.GROUPS}
        for layer, count in self._groups:
            for g, n in layer.read_params(batch).items():
                out[g] += n * count
        out["norms"] += self.hidden
        out["embeddings"] = 0 if self.tied else min(batch, self.vocab) * self.hidden
        out["lm_head"] = self.vocab * self.hidden
        return out

    # ------------------------------------------------------------- bytes

    def _bytes(self, params: dict, precision) -> float:
        forced = P.get(precision) if precision else None
        return sum(n * (forced or self.precisions[g]).bytes for g, n in params.items())

    def bytes_stored(self, precision: str | None = None) -> float:
        """All weights, each group at the checkpoint's precision unless one precision is forced."""
        return self._bytes(self.params_by_group(), precision)

    def bytes_read(self, batch: int = 1, precision: str | None = None) -> float:
        return self._bytes(self.read_params_by_group(batch), precision)

    def expert_share(self, batch: int) -> float | None:
        """Share of routed experts a batch touches (None for a dense model)."""
        shares = [s for s in (layer.mlp.expert_share(batch) for layer, _ in self._groups) if s is not None]
        return shares[0] if shares else None

    # ---------------------------------------------------------- KV cache

    def kv_bytes_per_token(self, kv_precision: str = "bf16", context: int | None = None) -> float:
        """Bytes one more token adds at `context` (None: the long-context slope, full windows)."""
        return sum(n * l.attention.kv_bytes_per_token(kv_precision) for l, n in self._groups if l.attention.grows_at(context))

    def kv_bytes(self, context: int, kv_precision: str = "bf16") -> float:
        """KV cache of one sequence of `context` tokens, exact per layer."""
        return sum(n * l.attention.kv_bytes(context, kv_precision) for l, n in self._groups)

    def kv_bytes_per_device(self, context: int, kv_precision: str, devices: int) -> float:
        """One tensor-parallel device's share: each layer splits as far as its KV heads allow."""
        return sum(n * l.attention.kv_bytes(context, kv_precision) / l.attention.kv_shards(devices) for l, n in self._groups)

    def kv_read_bytes(self, context: int, kv_precision: str = "bf16") -> float:
        """Bytes of per-token cache one decode step reads for one request (a sparse layer reads less than it holds)."""
        return sum(n * l.attention.kv_read_bytes(context, kv_precision) for l, n in self._groups)

    def kv_read_bytes_per_device(self, context: int, kv_precision: str, devices: int) -> float:
        return sum(n * l.attention.kv_read_bytes(context, kv_precision) / l.attention.kv_shards(devices)
                   for l, n in self._groups)

    # ------------------------------------------------------ fixed state

    def state_bytes(self) -> float:
        """Fixed state one request holds (linear-attention and state-space layers), the same at any context."""
        return sum(n * l.attention.state_bytes() for l, n in self._groups)

    def state_bytes_per_device(self, devices: int) -> float:
        """One tensor-parallel device's share of a request's state: split by the mixers' heads."""
        return sum(n * l.attention.state_bytes() / l.attention.state_shards(devices) for l, n in self._groups)

    def state_traffic_bytes(self) -> float:
        """Bytes of state one decode step moves for one request: read, then written back."""
        return sum(n * l.attention.state_traffic_bytes() for l, n in self._groups)

    def state_traffic_bytes_per_device(self, devices: int) -> float:
        return sum(n * l.attention.state_traffic_bytes() / l.attention.state_shards(devices) for l, n in self._groups)

    def attention_flops(self, context: int) -> float:
        return sum(n * l.attention.flops_per_token(context) for l, n in self._groups)

    # ------------------------------------------------ tensor parallelism

    def tp_rules(self) -> tuple:
        """(config field, count, rule) every tensor-parallel degree must satisfy, over all layers (layers.DIVIDES)."""
        seen: dict = {}
        for layer, _ in self._groups:
            for rule in layer.attention.tp_rules():
                seen.setdefault(rule, None)
        return tuple(seen)

    def tp_problem(self, tp: int) -> tuple | None:
        """The first (field, count, rule) a tensor-parallel degree of `tp` breaks, or None: engines run it."""
        return next((r for r in self.tp_rules() if not tp_rule_holds(tp, r[1], r[2])), None)

    # ------------------------------------------------------------ MTP

    def mtp_params(self) -> int:
        """Parameters of the multi-token-prediction modules (their decoder layer and projections), not in total_params."""
        return sum(sum(layer.params().values()) + extra for layer, extra in self.mtp)

    def mtp_bytes_stored(self) -> float:
        """Bytes of the MTP modules at the checkpoint's precisions (the projections at the attention group's)."""
        return sum(self._bytes(layer.params(), None) + extra * self.precisions["attention"].bytes
                   for layer, extra in self.mtp)

    # -------------------------------------------------------- summaries

    @property
    def attention_label(self) -> str:
        kinds = frozenset(l.attention.kind for l in self.layers)
        return ATTENTION_LABELS.get(kinds, "+".join(sorted(kinds)))

    def layer_counts(self) -> dict:
        """How many layers of each mixer kind: {'full': n, 'sliding': n, 'latent': n, 'linear': n, 'none': n, ...}."""
        out: dict = {}
        for l in self.layers:
            out[l.attention.kind] = out.get(l.attention.kind, 0) + 1
        return out

    def kind_summary(self) -> tuple:
        """(kind, layers, numbers its summary names) per mixer kind, in layer order: what "your config.json"
        shows ("12 sliding window of 128 tokens"); e.g. (("linear", 36, {}), ("full", 12, {}))."""
        out: dict = {}
        for l in self.layers:
            kind = l.attention.kind
            if kind not in out:
                out[kind] = [0, l.attention.summary_params()]
            out[kind][0] += 1
        return tuple((k, n, p) for k, (n, p) in out.items())

    def moe_summary(self) -> tuple | None:
        """(routed experts, experts per token, shared experts, MoE layers, layers), or None for a dense model."""
        moe = [l.mlp for l in self.layers if l.mlp.routed()[0]]
        if not moe:
            return None
        first = moe[0]
        return first.experts, first.active, first.shared_experts, len(moe), len(self.layers)

    @property
    def precision_overrides(self) -> dict:
        return self.config.get("_precision_overrides", {})
