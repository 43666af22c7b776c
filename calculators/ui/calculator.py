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


def _filled(template: str, fill: tuple, tr) -> str:
    return tr(template).format(**{k: tr(t) if translate else t for k, t, translate in fill})


@dataclass(frozen=True)
class Row:
    label: str          # msgid, or a device name when `name` is true; with `label_fill`, a msgid template
    value: str          # the text shown; with `fill`, a msgid template filled in the reader's language
    name: bool = False
    fill: tuple = ()    # (key, text, translate) for a template value; text is translated when `translate`
    label_fill: tuple = ()   # the same for a template label ("of which fixed cost per layer ({units} … × {each})")
    href: str = ""      # the value links to this address (the source of the rule it follows)
    translate: bool = False   # the value is a msgid without placeholders ("memory-bound")

    def text(self, tr) -> str:
        """The value as the page shows it: a template value translated and filled, a msgid translated, any other
        as it is."""
        if not self.fill:
            return tr(self.value) if self.translate else self.value
        return _filled(self.value, self.fill, tr)

    def heading(self, tr) -> str:
        """The label as the page shows it: a name as it is, a msgid translated (and filled, for a template)."""
        if self.name:
            return self.label
        return _filled(self.label, self.label_fill, tr) if self.label_fill else tr(self.label)


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
