"""Whole messages: one translatable template per sentence, its placeholders filled as each language needs.

A sentence the code assembles is one message with named placeholders
("{n} parts the KV cache is split into"), never fragments glued together, so
that a translator sees and words the whole. Two things a plain
`str.format` cannot do, done here for every caller, at build time and in the
browser alike:

- Plural forms. A message that counts something is a `Plural`: the English
  singular and plural as msgid and msgid_plural, translated in the .po file
  as msgstr[0] (CLDR category "one"), msgstr[1] ("other"; in Italian
  "many", then "other"). The form is chosen by the count *as printed* ("1
  part", "1,0 dele" in Danish, "1.5 parts", "70,6 mld di parametri" but
  "128 mila parametri"): calculators/text/grammar.py has each language's
  CLDR rule and categories (sitebuild/checks/po.py checks that each file's
  Plural-Forms header has as many forms).
- Italian articles. An Italian translation may write `{share:il}` where the
  article depends on the number ("il 13%", "l'80%"); `fill` puts the article
  that agrees with the printed value (grammar.article). The msgid and the
  other languages write `{share}`; the checks compare placeholder names and
  allow a form only in Italian.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from . import grammar

_FORMATTER = string.Formatter()
COUNT = "n"   # the placeholder whose printed value chooses a plural message's form


@dataclass(frozen=True)
class Plural:
    """A message with a singular and a plural, chosen by the printed value of its {n} placeholder."""

    one: str                     # msgid: the English singular, "{n} part the KV cache is split into"
    other: str                   # msgid_plural, "{n} parts the KV cache is split into"
    context: str | None = None   # msgctxt

    def __post_init__(self):
        for text in (self.one, self.other):
            if COUNT not in fields(text):
                raise ValueError(f"plural message {self.one!r}: each form needs the count placeholder {{{COUNT}}}")


def fields(template: str) -> dict:
    """{placeholder name: format spec} of a template ("{share:il} of {n}" -> {"share": "il", "n": ""})."""
    return {name: spec or "" for _text, name, spec, _conv in _FORMATTER.parse(template) if name is not None}


def fill(template: str, locale: str, **values) -> str:
    """The template with its placeholders replaced by the (already formatted) values.

    A placeholder with a spec is an Italian article form ("{share:il}"): the
    article agreeing with the value is put before it. Any other spec, or a
    spec outside Italian, is an error in the translation, not something to
    guess around.
    """
    out = []
    for text, name, spec, conversion in _FORMATTER.parse(template):
        out.append(text)
        if name is None:
            continue
        if conversion or name not in values:
            raise KeyError(f"{template!r}: no value for placeholder {{{name}}}" if name not in values
                           else f"{template!r}: a placeholder takes no !{conversion}")
        value = str(values[name])
        out.append(grammar.article(value, spec, locale) if spec else value)
    return "".join(out)


def choose(forms, count_text: str, locale: str) -> str:
    """The form of a translated plural message for a count printed as `count_text`.

    `forms` are the catalog's msgstr[0], [1] ... in the order of the
    language's categories (grammar.CATEGORIES: Italian has "one", "many",
    "other"); two forms where the language has more are a fallback (German or
    English, "one" and "other").
    """
    if isinstance(forms, str):
        return forms
    forms = tuple(forms)
    categories = grammar.CATEGORIES[locale]
    if len(forms) != len(categories):
        categories = ("one", "other")[:len(forms)] if len(forms) <= 2 else categories
    category = grammar.plural_category(count_text, locale)
    if category not in categories:
        category = "other"
    return forms[categories.index(category)]


def say(tr, message, locale: str, **values) -> str:
    """`message` (a msgid or a Plural) translated with `tr` and filled with `values` (formatted text).

    `tr(msgid)` returns the translation of a msgid; `tr(plural)` the tuple of
    its forms (or the Plural itself: its English forms). For a Plural, the
    printed value of its {n} placeholder picks the form.
    """
    if isinstance(message, Plural):
        forms = tr(message)
        if isinstance(forms, Plural):        # a translator that knows no plurals (identity): the English forms
            forms = (forms.one, forms.other)
        return fill(choose(forms, str(values[COUNT]), locale), locale, **values)
    return fill(tr(message), locale, **values)
