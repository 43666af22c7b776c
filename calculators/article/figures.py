"""The registry of named figures: every number the site prints comes from here.

Each figure is declared once, in the topic module where its value is computed
(calculators/article/topics/<topic>.py, see calculators/article/figure.py for
what a declaration holds). This module computes them all for a catalog, in the
order the sources page lists them: models, one step, hardware, measurements,
deployment, measurement rows. Pages call figures by id; the sources page lists
them; the checks compare them against prose, claims and their formula objects.
"""

from __future__ import annotations

from functools import lru_cache

from ..data.catalog import Catalog, load
from .figure import Declaration, Figure
from .topics import accuracy, deployment, hardware, measured, models, rows, step, steptime

TOPICS = (models, step, hardware, measured, deployment, rows, accuracy, steptime)


def declarations() -> tuple[Declaration, ...]:
    """Every figure's declaration, in the sources page's order; an id declared twice is an error."""
    out, seen = [], {}
    for topic in TOPICS:
        for d in topic.DECLARATIONS:
            if d.id in seen:
                raise ValueError(f"{d.origin[0]}:{d.origin[1]}: figure id {d.id!r} is declared again "
                                 f"(first at {seen[d.id][0]}:{seen[d.id][1]})")
            seen[d.id] = d.origin
            out.append(d)
    return tuple(out)


@lru_cache(maxsize=2)     # the catalog of this build and, under `mkdocs serve`, of the previous one
def build(cat: Catalog) -> dict:
    """Every figure computed from a catalog (tests pass altered ones): {id: Figure}."""
    return {d.id: d.evaluate(cat) for d in declarations()}


def registry() -> dict:
    """Every figure of the packaged catalog."""
    return build(load())


def get(id: str) -> Figure:
    try:
        return registry()[id]
    except KeyError:
        raise KeyError(f"unknown figure id {id!r}") from None
