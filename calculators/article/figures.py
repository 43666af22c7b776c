"""The registry of named figures: every number the site prints comes from here.

Each figure is declared once, in the topic module where its value is computed
(calculators/article/topics/<topic>.py, see calculators/example/figure.py for
what a declaration holds), or, for the running example's figures, as a
function of the example (calculators/example/figures_*.py). This module computes them all for a catalog, in the
order the sources page lists them: models, one step, hardware, measurements,
deployment, measurement rows. Pages call figures by id; the sources page lists
them; the checks compare them against prose, claims and their formula objects.
"""

from __future__ import annotations

from functools import lru_cache

from ..data.catalog import Catalog, load
from ..example import figures as example
from ..example.figure import Declaration, Figure
from .topics import accuracy, deployment, hardware, measured, models, rows, step, steptime

TOPICS = (models, step, hardware, measured, deployment, rows, accuracy, steptime)


def declarations() -> tuple[Declaration, ...]:
    """Every figure's declaration, in the sources page's order: the running example's first (evaluated for
    each page's default example, calculators/example/), then the topics'; an id declared twice is an error."""
    return example.unique((example.declarations(),) + tuple(t.DECLARATIONS for t in TOPICS))


@lru_cache(maxsize=2)     # the catalog of this build and, under `mkdocs serve`, of the previous one
def build(cat: Catalog) -> dict:
    """Every figure computed from a catalog (tests pass altered ones): {id: Figure}."""
    evaluated = ((d.id, d.evaluate(cat)) for d in declarations())
    return {id: f for id, f in evaluated if f is not None}   # a running example's figure its default example lacks: none


def registry() -> dict:
    """Every figure of the packaged catalog."""
    return build(load())


def get(id: str) -> Figure:
    try:
        return registry()[id]
    except KeyError:
        raise KeyError(f"unknown figure id {id!r}") from None
