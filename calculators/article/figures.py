"""The registry of named figures: every number the site prints comes from here.

A figure has a stable id, a value computed by the model (or read from the
catalog), a unit kind and a rounding rule (both part of its definition, not of
the page), a formula a reader can follow, and the catalog entries it reads.
Pages call figures by id; the sources page lists them; the checks compare
them against prose and claims.

The figures are defined by topic, each module with its own DEFINITIONS list
(calculators/figures_<topic>.py, and calculators/figure_terms.py for the
figures that make a formula readable); this module joins them into one
registry. To add a figure: write a small function of the catalog under
`@figure(...)` in the module of its topic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from . import figure_terms
from . import figures_deployment
from . import figures_hardware
from . import figures_measured
from . import figures_model
from . import figures_rows
from . import figures_step
from ..text import fmt
from ..data.catalog import Catalog, load


@dataclass(frozen=True)
class Figure:
    id: str
    value: float | tuple          # a number, or (low, high) for a range
    kind: str                     # unit kind understood by fmt.format_quantity, or "percent", "words"
    formula: str
    inputs: tuple                 # catalog entries read, e.g. "models.llama-3.1-70b"
    sig: int | None = 3
    decimals: int | None = None
    unit: str | None = None       # force one unit (e.g. "B" for an exact byte count)
    # The printed text per locale, made once: a page, its popover data and the sources page print
    # the same figure many times. Not an init field, so dataclasses.replace starts a new one.
    _printed: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def is_range(self) -> bool:
        return isinstance(self.value, tuple)

    def format(self, locale: str) -> str:
        """The figure as a reader of `locale` sees it, unit included."""
        text = self._printed.get(locale)
        if text is None:
            text = self._printed[locale] = self._format_range(locale) if self.is_range else self._format_one(self.value, locale)
        return text

    def _format_one(self, value: float, locale: str) -> str:
        if self.kind == "words":
            return fmt.format_count_words(int(value), locale)
        if self.kind == "percent":
            return fmt.format_percent(value, locale, decimals=self.decimals or 0)
        return fmt.format_quantity(value, self.kind, locale, sig=self.sig, decimals=self.decimals, unit=self.unit)

    def _format_range(self, locale: str) -> str:
        """'49–71 tok/s': both ends in the unit the upper end scales to, the unit once."""
        low, high = self.value
        if self.kind == "percent":   # "30–44%", "30–44 %": the sign once, after the high end
            return fmt.format_percent_range(low, high, locale, decimals=self.decimals or 0)
        if self.kind in ("words", "count", "tokens"):
            return fmt.format_range(self._format_one(low, locale), self._format_one(high, locale), locale)
        high_text = self._format_one(high, locale)
        if fmt.NBSP not in high_text:  # unit glued to the number (ratios, params)
            return fmt.format_range(self._format_one(low, locale), high_text, locale)
        number_high, unit = high_text.rsplit(fmt.NBSP, 1)
        low_text = fmt.format_quantity(low, self.kind, locale, sig=self.sig, decimals=self.decimals, unit=unit)
        return fmt.format_range(low_text.rsplit(fmt.NBSP, 1)[0], number_high, locale) + fmt.NBSP + unit


# In the order the sources page lists them: models, one step, hardware, measurements, deployment, measurement rows, terms.
_DEFINITIONS = [d for module in (figures_model, figures_step, figures_hardware, figures_measured, figures_deployment, figures_rows,
                                 figure_terms)
                for d in module.DEFINITIONS]


@lru_cache(maxsize=1)
def registry() -> dict:
    """All figures, computed once per process (four language builds share them)."""
    return build(load())


def build(cat: Catalog) -> dict:
    """Compute every registered figure from a catalog (tests pass altered ones)."""
    out = {}
    for id, kind, formula, inputs, sig, decimals, unit, fn in _DEFINITIONS:
        if id in out:
            raise ValueError(f"figure id {id!r} is defined twice")
        out[id] = Figure(id, fn(cat), kind, formula, inputs, sig, decimals, unit)
    return out


def get(id: str) -> Figure:
    try:
        return registry()[id]
    except KeyError:
        raise KeyError(f"unknown figure id {id!r}") from None
