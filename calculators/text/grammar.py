"""Grammar that agrees with a printed number: Italian articles, singular or plural nouns.

Why here (stdlib only, in calculators/): the words next to a figure depend on
the number the figure prints, and that number can change (a catalog edit at
build time, a reader's input in the browser). The page macro
(`{{ fig("id", art="al") }}`, `{{ fig("id", noun="kv-head") }}` in
macros.py) and the browser call the same two functions on the same text.

Both read the number as printed (after rounding, with the locale's marks),
never the raw value: "1,0" is read "uno virgola zero", and 0.96 printed as
"1" is one.

Italian article (`article(text, "al", "it")`): the writer names the form
they would write before a consonant ("il", "al", "dei", "sulle"...), and the
number decides the form by how it is read aloud: a word starting with a
vowel (uno, otto, undici, ottanta, ottocento, ottomila, undicimila, "un
milione") takes l'/gli (l'11 %, dell'80 %, gli 8 GB), zero takes lo/gli
(lo 0,3 %, allo 0,3 %), everything else il/i (il 13 %, il 1.000: "mille").
Feminine plural (le, delle...) never changes. Only the integer part is read
first, so 8,5 is "otto virgola cinque": l'8,5 %.

Singular or plural noun (`noun_form(text, locale, singular, plural)`): the
CLDR cardinal plural rule of the locale, on the printed operands: de, en,
it: one when the integer part is 1 with no decimals ("1 KV-Kopf", "1,0
KV-Köpfe"); da: n = 1 (also 1,0) or any 0,x or 1,x ("1 KV-hoved", "1,5 time"). The noun
forms come from the termbase (locales/terms/<lang>.toml: `term` is the
singular, `plural` the plural; a term without `plural` is invariable).
"""

from __future__ import annotations

import re

__all__ = ["ARTICLES", "CATEGORIES", "article", "noun_form", "plural_category", "reads_as"]

# Forms a writer may name: {consonant form: (preposition, gender, number)}.
_PREPS = {"": "", "di": "de", "a": "a", "da": "da", "in": "ne", "su": "su"}
_CONSONANT = {"ms": "il", "mp": "i", "fs": "la", "fp": "le"}
_ATTACHED = {"ms": "l", "mp": "i", "fs": "lla", "fp": "lle"}     # del, dei, della, delle
ARTICLES: dict = {}
for _prep, _stem in _PREPS.items():
    for _gn, _bare in _CONSONANT.items():
        _form = _bare if not _prep else _stem + _ATTACHED[_gn]
        ARTICLES[_form] = (_prep, _gn)

# Forms by what the number is read as: vowel start, z (zero), other consonant.
_FORMS = {
    "ms": {"vowel": "l'", "z": "lo", "other": "il"},
    "mp": {"vowel": "gli", "z": "gli", "other": "i"},
    "fs": {"vowel": "l'", "z": "la", "other": "la"},
    "fp": {"vowel": "le", "z": "le", "other": "le"},
}
# With a preposition: de+l' = dell', a+lo = allo, in+gli = negli.
_WITH_PREP = {"l'": "ll'", "lo": "llo", "il": "l", "gli": "gli", "i": "i", "la": "lla", "le": "lle"}

_UNITS = "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici " \
         "quindici sedici diciassette diciotto diciannove".split()
_TENS = "- - venti trenta quaranta cinquanta sessanta settanta ottanta novanta".split()


def _first_word_below_1000(n: int) -> str:
    """The first word of 1..999 read in Italian (only its start matters)."""
    if n >= 100:
        return "cento" if n < 200 else _UNITS[n // 100] + "cento"
    if n >= 20:
        return _TENS[n // 10]
    return _UNITS[n]


def _first_word(n: int) -> str:
    """The first word of a non-negative integer read in Italian: 1000 "mille", 11000 "undicimila", 10**6 "un milione"."""
    if n == 0:
        return "zero"
    for size, one in ((10**9, "un miliardo"), (10**6, "un milione"), (10**3, "mille")):
        if n >= size:
            lead = n // size
            while lead >= 1000:          # beyond the largest name: read its own leading group
                lead //= 1000
            return one if lead == 1 else _first_word_below_1000(lead)
    return _first_word_below_1000(n)


_NUMBER = re.compile(r"^\s*([-\u2212]?)([0-9][0-9.,\u00a0\u202f' ]*)")


def _operands(text: str, locale: str):
    """(sign, integer part, fraction digits) of the number a figure's text starts with, or None."""
    m = _NUMBER.match(text)
    if not m:
        return None
    decimal_mark = "." if locale == "en" else ","
    body = m.group(2).rstrip(".,\u00a0\u202f' ")
    whole, _, frac = body.partition(decimal_mark)
    digits = re.sub(r"\D", "", whole)
    return m.group(1), int(digits or "0"), re.sub(r"\D", "", frac)


def reads_as(text: str, locale: str = "it") -> str:
    """How an Italian reader starts saying a figure's text: "vowel", "z" or "other"."""
    ops = _operands(text, locale)
    if ops is None:                       # spelled out ("otto"): the word itself
        word = text.strip().lower()
    elif ops[0]:
        word = "meno"
    else:
        word = _first_word(ops[1])
    first = word[:1]
    if first in "aeiouàèéìòù" and first:
        return "vowel"
    return "z" if first == "z" else "other"


def article(text: str, form: str, locale: str = "it") -> str:
    """The figure's text with the Italian article or articulated preposition that agrees with it.

    A capitalised form ("Il", "Dei") starts a sentence: the result is capitalised too.
    """
    if locale != "it":
        raise ValueError(f"articles before figures are an Italian rule; {locale!r} has none (write the words in the page)")
    capital = form[:1].isupper()
    try:
        prep, gn = ARTICLES[form.lower()]
    except KeyError:
        raise ValueError(f"art={form!r}: name the form you would write before a consonant, one of "
                         f"{', '.join(ARTICLES)}") from None
    bare = _FORMS[gn][reads_as(text, locale)]
    word = bare if not prep else _PREPS[prep] + _WITH_PREP[bare]
    if capital:
        word = word[:1].upper() + word[1:]
    return f"{word}{text}" if word.endswith("'") else f"{word} {text}"


_ONE_WORDS = {"de": ("eins", "ein", "eine"), "en": ("one",), "da": ("en", "et"), "it": ("uno", "un", "una")}


def written_forms(form: str) -> set:
    """Every way `form` ("al") can be written before a number: {"al", "all'", "allo"}."""
    prep, gn = ARTICLES[form]
    return {b if not prep else _PREPS[prep] + _WITH_PREP[b] for b in _FORMS[gn].values()}


# The CLDR cardinal categories of each language, in the order of the .po files' plural forms (msgstr[0], [1] ...).
CATEGORIES = {"de": ("one", "other"), "en": ("one", "other"), "da": ("one", "other"), "it": ("one", "many", "other")}
# Italian "many" (CLDR: e = 0 and i != 0 and i % 1000000 = 0 and v = 0, or e != 0..5): a count written with
# a word for a million or more ("70,6 mld di parametri"), or a whole multiple of a million, takes "di".
_IT_MILLIONS = re.compile(r"\s(mln|mld)$")


def plural_category(text: str, locale: str) -> str:
    """CLDR cardinal category ("one", "many" or "other") of a printed number, by its operands i, v, t (and e)."""
    if locale == "it" and _IT_MILLIONS.search(text.strip()):
        return "many"
    ops = _operands(text, locale)
    if ops is None:                       # a spelled-out count ("vier", "one")
        if not text.strip():
            raise ValueError(f"{text!r} does not start with a number")
        return "one" if text.strip().lower() in _ONE_WORDS.get(locale, ()) else "other"
    _sign, i, frac = ops
    v, t = len(frac), int(frac.rstrip("0") or "0")
    if locale == "it" and i != 0 and i % 1_000_000 == 0 and v == 0:
        return "many"
    if locale in ("de", "en", "it"):
        return "one" if i == 1 and v == 0 else "other"
    if locale == "da":
        return "one" if (i == 1 and t == 0) or (t != 0 and i in (0, 1)) else "other"   # n = 1 includes 1,0
    raise ValueError(f"unsupported locale {locale!r}; supported: de, en, da, it")


def noun_form(text: str, locale: str, singular: str, plural: str | None = None) -> str:
    """The noun after a printed number: "1 KV-Kopf", "8 KV-Köpfe" (plural None: invariable)."""
    return singular if plural_category(text, locale) == "one" or not plural else plural   # "many" is a plural
