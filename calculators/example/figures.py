"""The running example's figures: every declaration, and the registry of one example.

`registry(cat, ex, page)` is what the browser computes after every change of
the example control (calculators/example/render.py) and what the variant sweep
checks; the build puts the declarations, evaluated for each page's default
example, beside the article's other figures (calculators/article/figures.py).
"""

from __future__ import annotations

from functools import lru_cache

from .case import Case
from .declare import build
from . import figures_batch, figures_kv, figures_speed, figures_step

MODULES = (figures_kv, figures_step, figures_batch, figures_speed)


def unique(groups, what: str = "figure id") -> tuple:
    """The declarations of `groups` in order; an id declared twice is an error naming both places."""
    out, seen = [], {}
    for group in groups:
        for d in group:
            if d.id in seen:
                raise ValueError(f"{d.origin[0]}:{d.origin[1]}: {what} {d.id!r} is declared again "
                                 f"(first at {seen[d.id][0]}:{seen[d.id][1]})")
            seen[d.id] = d.origin
            out.append(d)
    return tuple(out)


@lru_cache(maxsize=1)
def declarations() -> tuple:
    return unique((module.DECLARATIONS for module in MODULES), "example figure")


@lru_cache(maxsize=4)
def ids(page: str | None = None) -> frozenset:
    """The ids of the running example's figures (of one page): a page re-renders exactly these."""
    return frozenset(d.id for d in declarations() if page is None or page in d.pages)


@lru_cache(maxsize=8)
def registry(c: Case) -> dict:
    """{id: Figure} of one example on its page (kept per Case: a page asks for its example's figures once per
    sentence, and the build's default Case is one object per catalog and page; a reader's change is a new Case).
    Callers read it, never change it."""
    return build(declarations(), c)
