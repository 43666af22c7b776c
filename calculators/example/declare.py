"""Figures of the running example: declared once, as functions of a `Case` (an example with its catalog).

A declaration here is like one of calculators/example/figure.py, but its value,
its inputs and its formula object are functions of the example: the build
evaluates it for the page's default example (the numbers the page prints
without JavaScript), the browser for the reader's (calculators/example/render.py),
and the variant sweep for every catalog model on several devices
(tests/test_example_sweep.py). A figure the example does not have (an FP8 peak
the device lacks, a batch that does not fit) is None: no sentence of that
example prints it (calculators/example/variants.py chooses the sentences).

    @figure("kv.llama70b.bytes_per_token", "bytes", W("..."), ["model"], sig=None, decimals=0, unit="B",
            expression=lambda c: F(...))          # or a fixed F(...), or None
    def kv_per_token(c): return c.kv_per_token

`inputs` name catalog entries; "model" and "device" stand for the example's
own ("models.llama-3.1-70b", "devices.h100-sxm"; the reader's config.json is
no catalog entry and names none). Words and term labels are marked where they
are written: `W(...)` (msgctxt "formula") and `L(...)` (msgctxt "term"), so
that the browser's string table has every one an example can show.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from ..text.marks import N_
from . import example as E
from .case import Case
from .figure import Figure, _relative

PAGES = {"decode": ("decode",), "speed": ("speed",), "both": ("decode", "speed")}


def W(words: str) -> str:
    """A figure's words, marked for extraction (msgctxt "formula")."""
    return N_(words, "formula")


def L(label: str) -> str:
    """A formula term's label, marked for extraction (msgctxt "term")."""
    return N_(label, "term")


@dataclass(frozen=True)
class Declaration:
    id: str
    kind: str
    words: str
    inputs: tuple            # catalog entries; "model" and "device" stand for the example's
    sig: int | None
    decimals: int | None
    unit: str | None
    expression: object       # a Formula, a function Case -> Formula | None, or None
    compute: Callable        # Case -> value, or None where the example has no such figure
    origin: tuple
    pages: tuple
    definition: bool = False

    def for_case(self, c: Case) -> Figure | None:
        value = self.compute(c)
        if value is None:
            return None
        expression = self.expression(c) if callable(self.expression) else self.expression
        inputs = []
        for ref in self.inputs:
            inputs += c.inputs_model if ref == "model" else c.inputs_device if ref == "device" else \
                [f"engines.{c.d.engine.key}"] if ref == "engine" else [ref]
        return Figure(self.id, value, self.kind, self.words, tuple(inputs), self.sig, self.decimals, self.unit, expression,
                      self.origin, self.definition)

    def evaluate(self, cat) -> Figure | None:
        """The figure for its page's default example (what the build prints, and the sources page lists), or None
        where the default example has none (an MLA model's latent: Llama 3.1 70B has no latent)."""
        return self.for_case(default_case(cat, self.pages[0]))


def declarer(declarations: list, pages: str):
    """The `figure(...)` decorator of one module of example figures, for the pages it serves ("decode", "speed", "both")."""

    def figure(id, kind, words, inputs=(), sig=3, decimals=None, unit=None, expression=None, definition=False):
        caller = sys._getframe(1)
        origin = (_relative(caller.f_code.co_filename), caller.f_lineno)

        def wrap(fn):
            fn.__qualname__ = f"figure[{id}]"
            declarations.append(Declaration(id, kind, words, tuple(inputs), sig, decimals, unit, expression, fn, origin,
                                            PAGES[pages], definition))
            return fn

        return wrap

    return figure


@lru_cache(maxsize=8)
def default_case(cat, page: str) -> Case:
    """The page's default example with the build's catalog (one per catalog, so its steps are computed once)."""
    return Case(cat, E.default(page), page)


def build(declarations, c: Case) -> dict:
    """{id: Figure} of the example `c` for its page: the figures it has, in declaration order."""
    out = {}
    for d in declarations:
        if c.page in d.pages:
            f = d.for_case(c)
            if f is not None:
                out[d.id] = f
    return out
