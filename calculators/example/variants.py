"""Sentences whose truth depends on the example's numbers: one declared choice, each variant a whole message.

A page writes `{{ say("step.bound") }}` where a sentence is true for some
examples and false for others ("decode is clearly memory-bound here" /
"this step would be compute-bound"). A `Say` declares, once, how the
example chooses among its variants (`choose`: the condition, in Python, on
the case), each variant as a whole msgid with placeholders (msgctxt
"example", translated in locales/<lang>.po), and what the placeholders are:
a figure of the example (printed as the page prints it, a link to its
explanation, with the Italian article a form like `{share:il}` asks for),
`{ratio:times}` or `{n:words}` the form running text needs (calculators/text/prose.py),
one of the example's names (`{model}`, `{device}`, `{device:einem}`: the
article the device's grammar data gives, calculators/example/names.py), or
`{n}`, the count that picks a plural message's form.

A list whose items depend on the example (the KV cache at the contexts a
model can read) is a Say with `items`: each item a variant of its own.

The build renders every Say for the page's default example; the browser,
for the reader's, with the same function (`html`), so the two agree.
The variant sweep (tests/test_example_sweep.py) renders every Say for every
catalog model on several devices, in four languages, and checks each result.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Callable

from ..text import grammar, message
from ..text.markup import escape
from ..text.message import Plural
from . import names
from .html import figure_html, sources_href

_FORMATTER = string.Formatter()
CONTEXT = "example"                                  # the msgctxt of every variant
STYLES = ("times", "words")                          # a figure's running-text form (calculators/text/prose.py)


@dataclass(frozen=True)
class Say:
    id: str
    pages: tuple
    choose: Callable                                 # Case -> the key of the variant that holds (None: nothing to say)
    variants: dict                                   # key -> msgid (str) or Plural, msgctxt "example"
    figs: object = field(default_factory=dict)       # placeholder -> figure id; or a function Case -> that dict
    tag: str = "span"                                # "span"; "strong" (a formula in words); "ul" (a list, with `items`)
    items: Callable | None = None                    # Case -> [(variant key, {placeholder: figure id})] for a list

    def chosen(self, c) -> list:
        """[(variant key, placeholder figures)] this example prints: one sentence (none where `choose` says None),
        or the list's items."""
        figs = self.figs(c) if callable(self.figs) else self.figs
        if self.items is not None:
            return [(key, dict(figs, **more)) for key, more in self.items(c)]
        key = self.choose(c)
        return [] if key is None else [(key, figs)]


class VariantError(ValueError):
    """A variant that cannot be printed for this example: a placeholder without a value (a bug, found by the sweep)."""


def fill(template: str, c, reg: dict, figs: dict, lang: str, tr, sources: str | None) -> str:
    """The translated template as HTML: literal text escaped, each placeholder its figure's link or the example's name."""
    out = []
    for text, name, spec, conversion in _FORMATTER.parse(template):
        out.append(escape(text, quote=False))
        if name is None:
            continue
        if conversion:
            raise VariantError(f"{template!r}: a placeholder takes no !{conversion}")
        if name in names.KEYS:
            out.append(escape(names.name(name, c, lang, tr, form=spec or ""), quote=False))
            continue
        fid = figs.get(name)
        if fid is None or fid not in reg:
            raise VariantError(f"{template!r}: no figure for {{{name}}} ({fid!r}) in this example")
        f = reg[fid]
        style = spec if spec in STYLES else None           # {ratio:times} "7,2-mal", {n:words} "zwei"; else an article
        out.append(figure_html(fid, f.format(lang, style), lang, art=None if style else spec or None,
                               href=None if sources is None else sources_href(sources, fid), style=style))
    return "".join(out)


def text_of(msg, c, reg: dict, figs: dict, lang: str, tr) -> str:
    """The template for this example in `lang`: a plain message's translation, or a plural message's form for {n}."""
    if isinstance(msg, Plural):
        forms = tr(msg)
        if isinstance(forms, Plural):
            forms = (forms.one, forms.other)
        if "n" not in figs or figs["n"] not in reg:
            raise VariantError(f"{msg.one!r}: the count {{n}} has no figure in this example")
        return message.choose(forms, reg[figs["n"]].format(lang), lang)
    return tr(msg, CONTEXT)


def inner_html(say: Say, c, reg: dict, lang: str, tr, sources: str | None, chosen: list | None = None) -> str:
    """What the page shows inside the Say's element for this example (`chosen`: say.chosen(c), where known)."""
    parts = []
    for key, figs in say.chosen(c) if chosen is None else chosen:
        if key not in say.variants:
            raise VariantError(f"say {say.id!r}: the example chose {key!r}; variants: {', '.join(say.variants)}")
        body = fill(text_of(say.variants[key], c, reg, figs, lang, tr), c, reg, figs, lang, tr, sources)
        parts.append(f"<li>{body}</li>" if say.tag == "ul" else f"<strong>{body}</strong>" if say.tag == "strong" else body)
    return "".join(parts)


def html(say: Say, c, reg: dict, lang: str, tr, sources: str | None) -> str:
    """The Say's element with its content, as the build writes it into the page."""
    element = "ul" if say.tag == "ul" else "span"
    return f'<{element} class="ex-say" data-say="{escape(say.id)}">{inner_html(say, c, reg, lang, tr, sources)}</{element}>'


def messages_of(say: Say) -> list:
    return list(say.variants.values())


def forms_in(template: str) -> list:
    """[(placeholder, spec)] of a template (the sweep checks each against the language's forms)."""
    return [(name, spec) for _t, name, spec, _c in _FORMATTER.parse(template) if name is not None]


def article_ok(name: str, spec: str, lang: str) -> bool:
    """Is `{name:spec}` a form `lang` may write: a device's article (names.FORMS) or an Italian article of a number."""
    if not spec or spec in STYLES:
        return True
    if name == "device":
        return spec in names.FORMS[lang]
    return lang == "it" and spec.lower() in grammar.ARTICLES
