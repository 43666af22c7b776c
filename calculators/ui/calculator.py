"""One Calculator type: its fields, defaults, checks, result rows, chart and strings, in one class.

A calculator (calculators/ui/kv_cache.py, decode.py, fit.py, latency.py) is a
subclass of `Calculator`. It declares its `fields` (calculators/ui/fields.py),
computes its `defaults` (some come from sourced data), says which inputs that
parse it still cannot take (`check`: a message per field, in the reader's
language), and computes its `result` (rows of label and value, and a verdict)
and its `chart`. Its strings are module constants marked with N_ where they
are declared (calculators/ui/messages.py collects them for the browser).

`evaluate` (calculators/ui/worker.py) runs the same steps for every calculator,
at build time for the pre-rendered defaults and in the browser after each edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .fields import Field


@dataclass(frozen=True)
class Row:
    label: str          # msgid, or a device name when `name` is true
    value: str          # the text shown; with `fill`, a msgid template filled in the reader's language
    name: bool = False
    fill: tuple = ()    # (key, text, translate) for a template value; text is translated when `translate`

    def text(self, tr) -> str:
        """The value as the page shows it: a template value translated and filled, any other as it is."""
        if not self.fill:
            return self.value
        return tr(self.value).format(**{k: tr(t) if translate else t for k, t, translate in self.fill})


@dataclass
class Result:
    rows: list = field(default_factory=list)       # [Row]
    verdict: str = ""                                # a short msgid ("memory-bound", ...)


class Calculator:
    """What every calculator declares; `evaluate` (worker.py) does the rest."""

    name: str = ""                    # the key in pages ({{ calculator("decode") }}), element ids and links
    title: str = ""                   # msgid
    fields: tuple[Field, ...] = ()

    @cached_property
    def defaults(self) -> dict:
        """Every field's default value (also of the fields shown only for the custom or own model)."""
        return self._defaults()

    def _defaults(self) -> dict:
        raise NotImplementedError

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    def check(self, values: dict, locale: str, tr, cat) -> dict:
        """Inputs that parse but that the model cannot take: {field name: message}; empty when all is well."""
        return {}

    def result(self, inputs: dict, locale: str, cat) -> Result:
        raise NotImplementedError

    def chart(self, inputs: dict, locale: str, tr, chart_id: str, cat) -> str:
        raise NotImplementedError

    def page_data(self, inputs: dict, locale: str, tr, cat, request: dict | None) -> dict | None:
        """What the page needs besides the result table, for the page's own `request`; None for a calculator.
        The example control answers with the running example's article (calculators/ui/example.py)."""
        return None

    def run(self, inputs: dict | None, locale: str, cat) -> Result:
        """The result for the defaults overlaid with `inputs` (already checked values)."""
        return self.result(dict(self.defaults, **(inputs or {})), locale, cat)
