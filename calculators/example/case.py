"""One example, resolved: its model and device, and the steps and sums its figures share (computed once).

The figure declarations (calculators/example/figures_*.py) are functions of a
`Case`; it holds the catalog, the example and everything several figures
read, so that a re-render in the browser computes each decode step once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..arch import precision as P
from ..data.catalog import Catalog
from ..perf import roofline as M
from . import example as E


@dataclass(frozen=True)
class Group:
    """Layers with the same mixer: how many, their spec, and what one token adds to each at long context."""

    index: int
    layers: int
    spec: object

    @property
    def kind(self) -> str:
        return self.spec.kind


class Case:
    """An example with its catalog: the model, the device and the shared computations of its figures."""

    def __init__(self, cat: Catalog, ex: E.Example, page: str = "decode"):
        self.cat, self.ex, self.page = cat, ex, page

    # ------------------------------------------------------------ what it is

    @cached_property
    def m(self):
        return E.model(self.cat, self.ex)

    @cached_property
    def d(self):
        return E.device(self.cat, self.ex)

    @property
    def weights(self) -> str | None:
        return self.ex.weights

    @property
    def kv(self) -> str:
        return self.ex.kv_precision

    @cached_property
    def inputs_model(self) -> list:
        """The catalog entry the model's figures read ("models.config" for the reader's own config.json)."""
        return [f"models.{self.ex.model}"]

    @cached_property
    def inputs_device(self) -> list:
        return [f"devices.{self.ex.device}"]

    @cached_property
    def moe(self) -> bool:
        return self.m.arch.expert_share(1) is not None

    @cached_property
    def groups(self) -> tuple:
        """The model's mixers grouped by spec, in order of first appearance."""
        seen: dict = {}
        for layer in self.m.arch.layers:
            seen[layer.attention] = seen.get(layer.attention, 0) + 1
        return tuple(Group(i, n, spec) for i, (spec, n) in enumerate(seen.items()))

    @cached_property
    def growing(self) -> tuple:
        """Groups whose cache grows with every token at long context."""
        return tuple(g for g in self.groups if g.spec.grows_at(None))

    @cached_property
    def design(self) -> str:
        """How the model keeps its cache, as the KV section explains it: one kind for every layer, or mixed.

        gqa / mha: every layer full attention with the same heads (fewer KV heads than query heads, or as many);
        latent: multi-head latent attention in every layer; sparse: DeepSeek sparse attention in every layer;
        mixed: layers that keep different things (windows, fixed states, layers without a mixer)."""
        if len(self.groups) == 1:
            spec = self.groups[0].spec
            if spec.kind == "full":
                return "gqa" if spec.kv_heads < spec.query_heads else "mha"
            if spec.kind in ("latent", "sparse_latent"):
                return "latent" if spec.kind == "latent" else "sparse"
        return "mixed"

    @cached_property
    def uniform_precision(self) -> P.Precision | None:
        """The one precision every weight group is held in, or None when they differ."""
        if self.weights:
            return P.get(self.weights)
        found = {g.precision for g in self.m.weights}
        return found.pop() if len(found) == 1 else None

    # ------------------------------------------------------------ sizes

    def kv_total(self, context: int) -> float:
        return M.kv_bytes(self.m, context, 1, self.kv)

    @cached_property
    def kv_per_token(self) -> float:
        return M.kv_bytes_per_token(self.m, self.kv)

    @cached_property
    def weights_stored(self) -> float:
        return M.weight_bytes_stored(self.m, self.weights)

    def weights_read(self, tokens: int) -> float:
        cache = self.__dict__.setdefault("_read", {})
        if tokens not in cache:
            cache[tokens] = M.weight_bytes_read(self.m, tokens, self.weights)
        return cache[tokens]

    def request_bytes(self, context: int) -> float:
        """What one request holds beside the weights: its cache at `context` tokens and its fixed state."""
        return M.cache_bytes(self.m, context, 1, self.kv)

    def fits(self, devices: int, context: int, batch: int) -> bool:
        """Do the weights and `batch` requests' cache fit on `devices` (tensor parallel)? Asked by many figures and
        sentences of one example: computed once per question."""
        key = (devices, context, batch)
        cache = self.__dict__.setdefault("_fits", {})
        if key not in cache:
            cache[key] = M.fits(self.m, self.d, devices, context, batch, self.kv, self.weights)
        return cache[key]

    # ------------------------------------------------------------ steps

    def step(self, batch: int, context: int, devices: int | None = None, precision: str = E.COMPUTE_PRECISION) -> M.Step:
        key = (batch, context, devices, precision)
        cache = self.__dict__.setdefault("_steps", {})
        if key not in cache:
            cache[key] = M.decode_step(self.m, self.d, devices=self.ex.devices if devices is None else devices, batch=batch,
                                       context=context, kv_precision=self.kv, weight_precision=self.weights,
                                       compute_precision=precision)
        return cache[key]

    @cached_property
    def one(self) -> M.Step:
        """One token on one device, weights only: the main article's first step."""
        return self.step(1, 0, devices=1)

    def peak(self, precision: str = E.COMPUTE_PRECISION) -> float | None:
        return self.d.peak_flops.get(precision)

    @cached_property
    def has_fp8(self) -> bool:
        return "fp8" in self.d.peak_flops

    @cached_property
    def prefill(self) -> tuple:
        """(compute, memory) seconds of the speed page's prompt (its context) on the example's devices."""
        return M.prefill_times(self.m, self.d, self.ex.context, devices=self.ex.devices, weight_precision=self.weights)
