"""Whole messages (calculators/text/message.py): plural forms by CLDR category of the printed count,
Italian article forms in placeholders, and the catalog checks that keep translations within both.

Expected forms are written out by hand from CLDR's rules (cardinal plurals:
de, en, it "one" = integer 1 without decimals; da "one" = 1 and 1,0 and any
0,x or 1,x with non-zero decimals; it "many" = a count written in millions or
more, or a whole multiple of a million).
"""

from __future__ import annotations

import pytest

from calculators.text import grammar
from calculators.text.message import Plural, choose, fields, fill, say
from checkutil import find, line_matching, lines, run, write_lines

PART = Plural("{n} part the KV cache is split into", "{n} parts the KV cache is split into", "term")
PARAMS = {"it": ("{n} parametro", "{n} di parametri", "{n} parametri")}


@pytest.mark.parametrize("locale, printed, form", [
    ("en", "1", 0), ("en", "1.0", 1), ("en", "0", 1), ("en", "8", 1), ("en", "1.5", 1),
    ("de", "1", 0), ("de", "1,0", 1), ("de", "2", 1),
    ("da", "1", 0), ("da", "1,0", 0), ("da", "0,5", 0), ("da", "1,5", 0), ("da", "2,0", 1), ("da", "0", 1),
    ("it", "1", 0), ("it", "2", 2), ("it", "1,0", 2), ("it", "70,6\u00a0mld", 1), ("it", "5\u00a0mln", 1),
    ("it", "1.000.000", 1), ("it", "128\u00a0mila", 2), ("it", "1.500.000", 2),
])
def test_the_form_follows_the_printed_count(locale, printed, form):
    forms = PARAMS.get(locale, ("one", "other"))
    if locale != "it":
        forms = ("{n} one", "{n} other")
    assert choose(forms, printed, locale) == forms[form]


def test_two_forms_where_italian_has_three_are_a_fallback_in_one_and_other():
    """A German or English fallback has two forms; Italian "many" then takes the plural."""
    assert choose(("{n} Teil", "{n} Teile"), "70,6\u00a0mld", "it") == "{n} Teile"
    assert choose(("{n} Teil", "{n} Teile"), "1", "it") == "{n} Teil"


def test_say_translates_picks_and_fills():
    table = {PART.one: ("{n} Teil, in den der KV-Cache aufgeteilt ist", "{n} Teile, in die der KV-Cache aufgeteilt ist")}
    tr = lambda m: table[m.one] if isinstance(m, Plural) else m  # noqa: E731
    assert say(tr, PART, "de", n="1") == "1 Teil, in den der KV-Cache aufgeteilt ist"
    assert say(tr, PART, "de", n="8") == "8 Teile, in die der KV-Cache aufgeteilt ist"
    assert say(tr, "{a} and {b}", "en", a="x", b="y") == "x and y"


@pytest.mark.parametrize("template, value, expected", [
    ("occupa {total}, {share:il} della memoria", "13%", "occupa 10 GB, il 13% della memoria"),
    ("solo {usable:il} della memoria", "80%", "solo l'80% della memoria"),
    ("arriva {at:al}", "15%", "arriva al 15%"),
    ("arriva {at:al}", "8%", "arriva all'8%"),
])
def test_an_italian_article_form_agrees_with_the_value(template, value, expected):
    values = {name: value for name in fields(template)} | {"total": "10 GB"}
    assert fill(template, "it", **values) == expected


def test_an_article_form_outside_italian_or_a_missing_value_is_an_error():
    with pytest.raises(ValueError, match="Italian"):
        fill("{share:il}", "de", share="13 %")
    with pytest.raises(KeyError, match="share"):
        fill("{share} of {total}", "en", total="1 GB")


def test_a_plural_message_must_carry_its_count():
    with pytest.raises(ValueError, match="{n}"):
        Plural("one part", "{n} parts")


def test_every_language_names_its_categories():
    assert set(grammar.CATEGORIES) == {"de", "en", "da", "it"}
    assert all(c[0] == "one" and c[-1] == "other" for c in grammar.CATEGORIES.values())


# ---------------------------------------------------------------- the catalogs' checks, with a fault each

def _plural_entry(po):
    n = line_matching(po, r'^msgid "\{n\} part the KV cache')
    return n


def test_a_plural_with_too_few_forms_is_an_error(proj):
    po = proj / "locales" / "it.po"
    n = _plural_entry(po)
    content = lines(po)
    assert content[n + 3].startswith("msgstr[2]")
    del content[n + 3]
    write_lines(po, content)
    find(run(proj, ["it"]), path="locales/it.po", code="po-plural-count", line=n, severity="error",
         contains=("2 plural forms", "3", "one, many, other"))


def test_a_header_with_the_wrong_number_of_forms_is_an_error(proj):
    po = proj / "locales" / "da.po"
    n = line_matching(po, r"Plural-Forms")
    content = lines(po)
    content[n - 1] = '"Plural-Forms: nplurals=3; plural=(n != 1);\\n"'
    write_lines(po, content)
    find(run(proj, ["da"]), path="locales/da.po", code="po-plural-forms", line=1, severity="error",
         contains=("nplurals=2",))


@pytest.mark.parametrize("lang, form, why", [("da", "il", "Italian rule"), ("it", "xx", "not an article form")])
def test_an_article_form_in_the_wrong_place_is_an_error(proj, lang, form, why):
    po = proj / "locales" / f"{lang}.po"
    n = line_matching(po, r'^msgstr\[1\] "\{n\}')
    content = lines(po)
    content[n - 1] = content[n - 1].replace("{n}", "{n:" + form + "}", 1)
    write_lines(po, content)
    find(run(proj, [lang]), path=f"locales/{lang}.po", code="po-form", severity="error",
         contains=("{n:" + form + "}", why))


def test_an_italian_article_form_keeps_the_placeholder(proj):
    """{share:il} is the placeholder {share}: the placeholder check does not flag it."""
    from sitebuild.checks import po
    assert po.placeholders("{share:il} della memoria di {device}") == po.placeholders("{share} of {device}")
