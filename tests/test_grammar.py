"""Grammar that agrees with the printed number (calculators/grammar.py), per locale, over many values.

Oracles independent of the code under test: CLDR's plural rules as Babel
applies them (for singular/plural), and for Italian articles a table read
aloud by hand plus a property on the Italian number words: the article is
l'/gli exactly when the number, read aloud, starts with a vowel.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel import Locale
from hypothesis import given, settings, strategies as st

from calculators.text import fmt
from calculators.text import grammar
from checkutil import ROOT
from sitebuild import termbase

PROPS = settings(max_examples=400, deadline=None)


# ------------------------------------------------------------------ Italian articles, by hand

@pytest.mark.parametrize("value, kind, form, expected", [
    (0.13, "percent", "il", "il 13%"),        # tredici
    (0.11, "percent", "il", "l'11%"),         # undici
    (0.003, "percent1", "il", "lo 0,3%"),     # zero virgola tre
    (0.80, "percent", "del", "dell'80%"),     # ottanta
    (0.08, "percent", "al", "all'8%"),        # otto
    (0.01, "percent", "il", "l'1%"),          # uno
    (0.13, "percent", "al", "al 13%"),
    (0.003, "percent1", "al", "allo 0,3%"),
    (0.003, "percent1", "sul", "sullo 0,3%"),
    (0.18, "percent", "nel", "nel 18%"),
    (0.85, "percent", "dal", "dall'85%"),
    (1000, "number", "il", "il 1.000"),       # mille
    (11000, "number", "il", "l'11.000"),      # undicimila
    (80000, "number", "il", "l'80.000"),      # ottantamila
    (800, "number", "il", "l'800"),           # ottocento
    (100, "number", "il", "il 100"),          # cento
    (8.5, "number1", "il", "l'8,5"),          # otto virgola cinque
    (2000, "number", "il", "il 2.000"),       # duemila
    (141, "number", "i", "i 141"),            # centoquarantuno (plural)
    (80, "number", "i", "gli 80"),
    (8, "number", "dei", "degli 8"),
    (0.5, "number1", "ai", "agli 0,5"),       # "zero": gli before z
    (8, "number", "le", "le 8"),              # feminine plural never elides
    (8, "number", "sulle", "sulle 8"),
])
def test_italian_article_read_aloud(value, kind, form, expected):
    text = {"percent": lambda v: fmt.format_percent(v, "it"), "percent1": lambda v: fmt.format_percent(v, "it", decimals=1),
            "number": lambda v: fmt.format_number(v, "it"), "number1": lambda v: fmt.format_number(v, "it", decimals=1)}[kind](value)
    assert grammar.article(text, form) == expected


# The first word of the integer read aloud, spelled by hand for the leading group (a second,
# table-free statement of the rule: only these leading groups start with a vowel).
VOWEL_LEADS = {1, 8, 11} | set(range(80, 90)) | set(range(800, 900))


def _leading_group(n: int) -> tuple:
    """(leading group, size) as it is read: 1.000 is "mille", 1.000.000 "un milione"."""
    size = 1
    while n >= 1000 * size:
        size *= 1000
    return n // size, size


@PROPS
@given(n=st.integers(0, 10**12), decimals=st.integers(0, 2), percent=st.booleans())
def test_italian_article_property(n, decimals, percent):
    value = n / 10**decimals
    text = fmt.format_percent(value / 100, "it", decimals=decimals) if percent else fmt.format_number(value, "it", decimals=decimals)
    whole = int(text.split(",")[0].rstrip("%").replace(".", ""))
    lead, size = _leading_group(whole)
    if whole == 0:
        expected = "lo"
    elif lead == 1 and size == 1000:
        expected = "il"                       # mille
    elif lead in VOWEL_LEADS or (lead == 1 and size >= 10**6):
        expected = "l'"                       # otto…, undici…, un milione
    else:
        expected = "il"
    got = grammar.article(text, "il")
    assert got == (f"{expected}{text}" if expected.endswith("'") else f"{expected} {text}")
    # every preposition agrees with the bare article
    with_a = grammar.article(text, "al")
    assert with_a.startswith({"lo": "allo ", "l'": "all'", "il": "al "}[expected])


def test_article_is_italian_only_and_forms_are_named():
    with pytest.raises(ValueError, match="Italian"):
        grammar.article("13%", "il", "de")
    with pytest.raises(ValueError, match="before a consonant"):
        grammar.article("13%", "allo")
    assert grammar.article("otto", "il") == "l'otto"       # spelled out: the word itself


# ------------------------------------------------------------------ singular and plural vs CLDR

def _babel_category(text: str, locale: str) -> str:
    """CLDR's category by Babel, on the operands of the printed number (trailing zeros count)."""
    dec, grp = ("." , ",") if locale == "en" else (",", ".")
    plain = text.split("\u00a0")[0].replace(grp, "").replace(dec, ".")
    return Locale(locale).plural_form(Decimal(plain))


@PROPS
@given(value=st.floats(0, 1e6, allow_nan=False) | st.integers(0, 10**9), decimals=st.integers(0, 3),
       locale=st.sampled_from(fmt.LOCALES))
def test_plural_category_matches_cldr(value, decimals, locale):
    text = fmt.format_number(value, locale, decimals=decimals)
    ours = grammar.plural_category(text, locale)
    expected = _babel_category(text, locale)
    assert ours == expected, (text, expected)   # one, many (Italian millions) or other, as CLDR says


@pytest.mark.parametrize("locale, one, eight, one_point_five", [
    ("de", "1 KV-Kopf", "8 KV-Köpfe", "1,5 KV-Köpfe"),
    ("en", "1 KV head", "8 KV heads", "1.5 KV heads"),
    ("da", "1 KV-hoved", "8 KV-hoveder", "1,5 KV-hoved"),    # Danish: 1,5 takes the singular (CLDR)
    ("it", "1 testa KV", "8 teste KV", "1,5 teste KV"),
])
def test_counted_noun_from_the_termbase(locale, one, eight, one_point_five):
    t = termbase.load(ROOT, locale).get("kv-head")
    for value, decimals, expected in ((1, 0, one), (8, 0, eight), (1.5, 1, one_point_five)):
        text = fmt.format_number(value, locale, decimals=decimals)
        assert f"{text} {grammar.noun_form(text, locale, t.term, t.plural)}" == expected


def test_spelled_out_counts_and_invariable_nouns():
    assert grammar.noun_form("eins", "de", "Kopf", "Köpfe") == "Kopf"
    assert grammar.noun_form("vier", "de", "Kopf", "Köpfe") == "Köpfe"
    assert grammar.noun_form("8", "it", "token") == "token"


# ------------------------------------------------------------------ the page macro

def test_fig_macro_writes_article_and_noun_around_the_figure():
    import macros
    html = macros.figure_html("x", "11%", "it", art="al")
    assert html == "all'<span class=\"fig\" data-fig=\"x\">11%</span>"
    html = macros.figure_html("x", "1", "de", noun="kv-head")
    assert html.endswith("</span>\u00a0KV-Kopf")
    assert macros.figure_html("x", "8", "da", noun="kv-head").endswith("\u00a0KV-hoveder")


def test_a_capitalised_form_starts_a_sentence():
    from calculators.text import grammar
    assert grammar.article("713\u00a0tok/s", "I", "it") == "I 713\u00a0tok/s"
    assert grammar.article("80\u00a0GB", "Il", "it") == "L'80\u00a0GB"
    assert grammar.article("0,3%", "Del", "it") == "Dello 0,3%"
