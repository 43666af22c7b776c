"""Every number field of every calculator, walked along its limits in four languages: one rule, one message.

For each field: nothing typed, a word, a negative number, zero, the largest
value it takes, one step beyond it, a fraction where a whole number is
needed, digits in wrong groups. What a field accepts is accepted; what it
refuses gets the message of the rule it breaks, the same text in every field
that has the rule (no field says "not negative" where another says "greater
than zero" for the same input), translated in German, Danish and Italian.
The expected English texts are written out here by hand.
"""

from __future__ import annotations

import pytest

from calculators.data import catalog
from calculators.text import fmt
from calculators.ui import fields, worker
from sitebuild.strings import Strings

LANGS = ("de", "en", "da", "it")
STRINGS = Strings()
CAT = catalog.load()

NUMBER_FIELDS = sorted({(f.name, f) for c in worker.CALCULATORS.values() for f in c.fields
                        if isinstance(f, fields.NumberField)}, key=lambda nf: nf[0])
ENGLISH = {
    "empty": "Enter a number.",
    "negative": "Enter zero or a positive number.",     # the English editor's wording (en.po)
    "zero": "Enter a number greater than zero.",
    "not_integer": "Enter a whole number.",
    "bad_grouping": "Check the thousands separators: digits come in groups of three.",
}


def _message(f, text: str, lang: str):
    try:
        f.read(text, lang, lambda m, c=None: STRINGS.get(m, lang, c), CAT)
    except fields.InputError as err:
        return err.message
    return None


def _probes(f, lang: str) -> dict:
    """{rule: (text typed, the message expected or None where the text is accepted)}"""
    top = int(f.hi)
    out = {
        "empty": ("", "empty"),
        "word": ("abc", "not_a_number"),
        "negative": (fmt.format_number(-3, lang).replace(fmt.MINUS, "-"), "zero" if f.positive else "negative"),
        "zero": ("0", "zero" if f.positive else None),
        "largest": (fields.display(top, lang), None),
        "beyond": (fields.display(top * 10 + 1, lang), "too_large"),
    }
    if f.integer:
        out["fraction"] = (fmt.format_number(1.5, lang, decimals=1), "not_integer")
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, field", NUMBER_FIELDS, ids=[n for n, _ in NUMBER_FIELDS])
def test_a_field_along_its_limits(name, field, lang):
    for probe, (typed, rule) in _probes(field, lang).items():
        got = _message(field, typed, lang)
        if rule is None:
            assert got is None, f"{name} ({lang}): {typed!r} should be accepted, got {got!r}"
            continue
        assert got, f"{name} ({lang}): {typed!r} ({probe}) was accepted"
        want = STRINGS.get(fields.PARSE_MESSAGES[rule], lang)
        if rule == "too_large":
            assert fields.display(int(field.hi), lang) in got and got.split(fields.display(int(field.hi), lang))[0] == \
                want.split("{max}")[0], f"{name} ({lang}): {got!r}"
        elif rule == "not_a_number":
            assert got.startswith(want.split("{example}")[0]), f"{name} ({lang}): {got!r}"
        else:
            assert got == want, f"{name} ({lang}) {probe}: {got!r}, the rule's message is {want!r}"
        if lang == "en" and rule in ENGLISH:
            assert got == ENGLISH[rule]


@pytest.mark.parametrize("lang", ("de", "da", "it"))
def test_every_rule_is_translated(lang):
    for rule, msgid in fields.PARSE_MESSAGES.items():
        assert STRINGS.get(msgid, lang) != msgid, f"{rule}: {msgid!r} is not translated into {lang}"


def test_one_message_per_rule():
    """Two rules never share a message, and no rule has two."""
    assert len(set(fields.PARSE_MESSAGES.values())) == len(fields.PARSE_MESSAGES)
