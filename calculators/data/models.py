"""The catalog's record of a model: its config-built architecture, served context and model-card totals.

Counts come from the architecture (calculators/arch/architecture.py); what the
model card publishes is kept beside them only to check them (`card_agrees`,
applied when the catalog loads). The attribute names (layers, kv_heads,
head_dim, ...) summarise the per-layer specs for the pages and calculators.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arch import config
from ..arch.architecture import Architecture
from ..arch.precision import Precision
from .sources import Source


@dataclass(frozen=True)
class WeightGroup:
    """Parameters of one tensor group, derived from the config, and the precision the checkpoint stores them in."""

    group: str
    params: float
    precision: Precision


def _first_attention(arch, name: str):
    """An attention field of the first layer that has it (None when no layer does)."""
    for layer in arch.layers if arch else ():
        value = getattr(layer.attention, name, None)
        if value is not None:
            return value
    return None


@dataclass(frozen=True)
class Model:
    """A catalog model: its config-built architecture, served context, source and model-card checks.

    Counts come from `arch`; the card values are what the checks compare them
    with. A model without a config (`arch` None) only has its card totals.
    """

    key: str
    name: str
    max_context: int
    src: Source
    card_total_params: float
    arch: Architecture | None = None     # None when no config was read
    card_active_params: float | None = None
    card_active_counts_embedding: bool = False
    card_unit: float = 0.0
    config_file: str | None = None

    @property
    def total_params(self) -> float:
        return self.arch.total_params() if self.arch else self.card_total_params

    @property
    def active_params(self) -> float:
        """Parameters a token multiplies with (no input embedding lookup), the basis of 2 FLOP per parameter."""
        if self.arch:
            return self.arch.active_params()
        return self.card_active_params or self.card_total_params

    @property
    def attention(self) -> str:
        return self.arch.attention_label if self.arch else "unmodelled"

    @property
    def layers(self) -> int:
        return len(self.arch.layers) if self.arch else 0

    @property
    def hidden(self) -> int | None:
        return self.arch.hidden if self.arch else None

    query_heads = property(lambda self: _first_attention(self.arch, "query_heads"))
    kv_heads = property(lambda self: _first_attention(self.arch, "kv_heads"))
    head_dim = property(lambda self: _first_attention(self.arch, "head_dim"))
    sliding_window = property(lambda self: _first_attention(self.arch, "window"))
    kv_lora_rank = property(lambda self: _first_attention(self.arch, "kv_lora_rank"))
    qk_rope_head_dim = property(lambda self: _first_attention(self.arch, "qk_rope_head_dim"))

    @property
    def weights(self) -> tuple:
        """Tensor groups with their parameter counts and stored precision (empty without a config)."""
        if not self.arch:
            return ()
        return tuple(WeightGroup(g, n, self.arch.precisions[g]) for g, n in self.arch.params_by_group().items() if n)

    def variant(self, **config_overrides) -> "Model":
        """The same model with some config fields changed (what-if figures, the custom calculator model)."""
        return Model(self.key, self.name, self.max_context, self.src, self.card_total_params,
                     config.variant(self.arch, **config_overrides), self.card_active_params,
                     self.card_active_counts_embedding, self.card_unit, self.config_file)


def card_agrees(derived: float, card: float, unit: float = 0.0) -> bool:
    """Within 1 %, or within half the card's last printed digit when the card rounds more coarsely."""
    return abs(derived - card) <= max(0.01 * card, unit / 2)
