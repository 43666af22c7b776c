"""One declaration per figure: its value, unit kind, rounding, inputs, words and formula object.

Every number the site prints is a figure. A topic module
(calculators/article/topics/<topic>.py) declares each one where its value is
computed, with everything a reader and a check need to know about it:

    @figure("kv.llama70b.bytes_per_token", "bytes",
            "layers × 2 (K and V) × KV heads × head dimension × bytes per value (BF16: 2)",
            [LLAMA_70B], sig=None, decimals=0, unit="B",
            expression=F("{layers} × {kv} × {heads} × {dim} × {bytes}", layers=("layers", "model.llama70b.layers"), ...))
    def kv_llama70b_per_token(c): return roofline.kv_bytes_per_token(c.models["llama-3.1-70b"], "bf16")

- `kind` is the unit kind calculators/text/fmt.py formats ("bytes", "tok_per_s", ...),
  or "percent", "words" (a count written out), "count";
- `words` says what the figure is, in English (a msgid the pages translate);
- `inputs` are the catalog entries it reads ("models.llama-3.1-70b");
- `sig` / `decimals` / `unit` are its rounding and forced unit: part of the figure,
  not of the page that shows it;
- `definition=True` marks a figure without inputs that a format defines (BF16
  is 2 bytes a value); a figure without inputs otherwise is our scenario;
- `expression` is its formula object (calculators/example/formula.py): the same
  number as arithmetic over other figures, which the popover, the sources page
  and the checks read. A figure that is itself one catalog datum or one of our
  assumptions has none: its input explains it.

The declaration remembers the file and line of its `@figure(...)`, so the check
that evaluates the formula object (sitebuild/checks/formulas.py) names that
line when the two disagree. For figures declared in a loop it is the loop's line.
"""

from __future__ import annotations

import functools
import pathlib
import sys
from dataclasses import dataclass, replace
from typing import Callable

from ..text import fmt, prose
from .formula import Formula

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The catalog entries the article's figures read most, by their catalog keys.
LLAMA_70B, GPT_OSS_120B, MINIMAX_M2, DEEPSEEK_V3 = "llama-3.1-70b", "gpt-oss-120b", "minimax-m2", "deepseek-v3"
H100, SN40L = "h100-sxm", "sn40l"


def entry(section: str, key: str) -> str:
    """A catalog entry as a figure's input names it: "models.llama-3.1-70b"."""
    return f"{section}.{key}"


@dataclass(frozen=True)
class Figure:
    id: str
    value: float | tuple          # a number, or (low, high) for a range
    kind: str                     # unit kind understood by fmt.format_quantity, or "percent", "words"
    words: str                    # what it is, in English (a msgid, context "formula")
    inputs: tuple                 # catalog entries read, e.g. "models.llama-3.1-70b"
    sig: int | None = 3
    decimals: int | None = None
    unit: str | None = None       # force one unit (e.g. "B" for an exact byte count)
    expression: Formula | None = None
    origin: tuple = ("", 0)       # (file relative to the project, line) of the declaration
    definition: bool = False      # without inputs: fixed by a format's definition (BF16 is 2 bytes), not our assumption

    @property
    def is_range(self) -> bool:
        return isinstance(self.value, tuple)

    @functools.cache
    def format(self, locale: str, style: str | None = None) -> str:
        """The figure as a reader of `locale` sees it, unit included (a figure is immutable: its text is kept,
        as a page, its explanations and the sources page print the same figure many times). `style` asks for
        the form running text needs (calculators/text/prose.py): "times" for a factor, "words" for a small count."""
        if style is not None:
            return self._prose(locale, style)
        return self._format_range(locale) if self.is_range else self._format_one(self.value, locale)

    def _prose(self, locale: str, style: str) -> str:
        if style == "times" and self.kind == "ratio":
            return prose.times(self.value, locale, sig=self.sig, decimals=self.decimals)
        if style == "words" and self.kind in ("count", "words", "tokens"):
            return prose.words(self.value, locale)
        raise ValueError(f"figure {self.id!r} ({self.kind}): style={style!r} is for "
                         f"{'a ratio' if style == 'times' else 'a whole count' if style == 'words' else 'nothing'}; "
                         f"styles: times (ratios), words (counts up to {prose.WORDS_UP_TO})")

    def with_value(self, value) -> "Figure":
        """The same figure printed with another value (one end of a range in a formula's substitution)."""
        return replace(self, value=value)

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
        return fmt.format_quantity_range(low, high, self.kind, locale, sig=self.sig, decimals=self.decimals,
                                         unit=self.unit)


@dataclass(frozen=True)
class Declaration:
    """A figure before its value is computed: what `@figure(...)` records."""

    id: str
    kind: str
    words: str
    inputs: tuple
    sig: int | None
    decimals: int | None
    unit: str | None
    expression: Formula | None
    compute: Callable              # catalog -> value
    origin: tuple                  # (file relative to the project, line)
    definition: bool = False

    def evaluate(self, cat) -> Figure:
        return Figure(self.id, self.compute(cat), self.kind, self.words, self.inputs, self.sig, self.decimals,
                      self.unit, self.expression, self.origin, self.definition)


def declarer(declarations: list):
    """The `figure(...)` decorator of one topic module: each use appends a Declaration to `declarations`."""

    def figure(id, kind, words, inputs=(), sig=3, decimals=None, unit=None, expression=None, definition=False):
        caller = sys._getframe(1)
        origin = (_relative(caller.f_code.co_filename), caller.f_lineno)
        if definition and inputs:
            raise ValueError(f"figure {id!r}: a definition reads no catalog entry; it has inputs {list(inputs)}")
        if expression is not None and not isinstance(expression, Formula):
            raise TypeError(f"figure {id!r}: expression must be a formula object (F(...)), got {type(expression).__name__}")

        def wrap(fn):
            fn.__qualname__ = f"figure[{id}]"   # tracebacks and profiles name the figure
            declarations.append(Declaration(id, kind, words, tuple(inputs), sig, decimals, unit, expression, fn, origin,
                                            definition))
            return fn

        return wrap

    return figure


def _relative(filename: str) -> str:
    root = f"{ROOT}/"
    return filename[len(root):].replace("\\", "/") if filename.startswith(root) else filename


def measurement(cat, key):
    """A published measurement: one number, or (low, high) where it is a range."""
    m = cat.measurements[key]
    return m.low if m.low == m.high else (m.low, m.high)


def datum(cat, key):
    """A sourced datum of the catalog: one number, or (low, high) where it is a range."""
    d = cat.data[key]
    return d.low if d.low == d.high else (d.low, d.high)
