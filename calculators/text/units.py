"""The units the site prints, and how each language writes them (calculators/text/fmt.py uses them).

A kind ("bytes", "seconds", "params" ...) is a ladder of units in steps the
formatter climbs until the number is at least 1: (symbol, factor, threshold)
ascending, the separator between number and unit, and the symbol of zero.
Symbols here are canonical (SI: "kB", "GB/s", "ms"); WORDS says where a
language writes a unit its own way, with a singular where the language has
one after a count of one (CLDR plural category "one").

Where this leaves CLDR (tests/test_fmt.py pins each deviation):
- A count of parameters is never written with "B", the byte of "141 GB":
  CLDR's English "70.6B" and Italian "70,6 Mld" would read as bytes beside
  them. English writes the long form ("70.6 billion"), German, Danish and
  Italian their abbreviations ("70,6 Mrd.", "70,6 mia.", "70,6 mld");
  Italian has no natural abbreviation for 10^12 ("bln" reads as English), so
  its ladder stops at the billion ("1.600 mld"), as the Italian press writes.
- A bare byte count is a word ("512 Byte", "512 bytes", "1 byte").
- Bits per parameter: "4,25 Bit" (German noun), "4.25 bits"/"1 bit".
- The decimal kilobyte is "kB" (SI); binary units (KiB ... TiB) only when a
  figure names one.
"""

from __future__ import annotations

from decimal import Decimal

NBSP = "\u00a0"
MICRO = "\u00b5"
TIMES = "\u00d7"


def _si(symbols: list, first_exp: int = 0) -> list:
    """Units in 10**3 steps; each is chosen once the scaled value reaches 1."""
    return [(s, Decimal(10) ** (first_exp + 3 * i), Decimal(10) ** (first_exp + 3 * i))
            for i, s in enumerate(symbols)]


_BYTE_PREFIXES = ["", "k", "M", "G", "T", "P"]
_PREFIXES = ["", "k", "M", "G", "T", "P"]

# kind -> (ladder, separator, symbol of zero)
KINDS = {
    "bytes": (_si([p + "B" for p in _BYTE_PREFIXES]), NBSP, "B"),
    "bytes_per_s": (_si([p + "B/s" for p in _BYTE_PREFIXES]), NBSP, "B/s"),
    "flop": (_si([p + "FLOP" for p in _PREFIXES]), NBSP, "FLOP"),
    "flop_per_s": (_si([p + "FLOP/s" for p in _PREFIXES]), NBSP, "FLOP/s"),
    # integer arithmetic is counted in operations, not floating-point operations (Groq: 750 TOPS INT8)
    "ops_per_s": (_si(["OPS", "kOPS", "MOPS", "GOPS", "TOPS", "POPS"]), NBSP, "OPS"),
    "watts": (_si(["W", "kW", "MW"]), NBSP, "W"),
    "joules": (_si(["mJ", "J", "kJ", "MJ"], -3), NBSP, "J"),
    "params": (_si(["", "K", "M", "G", "T"]), NBSP, ""),
    # from 120 s on, minutes and seconds ("3 min 1 s"), from 7200 s hours and minutes: fmt.py
    "seconds": (_si(["ns", MICRO + "s", "ms", "s"], -9), NBSP, "s"),
    "tok_per_s": ([("tok/s", Decimal(1), Decimal(0))], NBSP, "tok/s"),
    "ratio": ([(TIMES, Decimal(1), Decimal(0))], "", TIMES),
    "tokens": ([("", Decimal(1), Decimal(0))], "", ""),
    "count": ([("", Decimal(1), Decimal(0))], "", ""),
    "bits": ([("bit", Decimal(1), Decimal(0))], NBSP, "bit"),   # bits stored per parameter
}

# kind -> locale -> canonical symbol -> the word, or (singular, plural)
WORDS = {
    "params": {
        "de": {"K": "Tsd.", "M": "Mio.", "G": "Mrd.", "T": "Bio."},
        "en": {"K": "thousand", "M": "million", "G": "billion", "T": "trillion"},
        "da": {"K": "t.", "M": "mio.", "G": "mia.", "T": "bio."},
        "it": {"K": "mila", "M": "mln", "G": "mld"},
    },
    "bytes": {
        "de": {"B": "Byte"},
        "en": {"B": ("byte", "bytes")},
        "da": {"B": "byte"},
        "it": {"B": "byte"},
    },
    "bits": {
        "de": {"bit": "Bit"},
        "en": {"bit": ("bit", "bits")},
    },
}

# (kind, locale) -> the largest unit the formatter climbs to in that language
TOP = {("params", "it"): "G"}

# Binary units are never chosen automatically, only when named (DESIGN: SI by
# default, GiB only when a figure says so).
BINARY = {"bytes": {p + "iB": Decimal(1024) ** (i + 1) for i, p in enumerate("KMGT")}}

# Counted kinds print the exact integer unless a rounding is asked for.
COUNTED = ("tokens", "count")

# Durations written in two units (minutes and seconds, hours and minutes), each from its threshold in seconds.
MINUTES_FROM = Decimal(120)
HOURS_FROM = Decimal(7200)


def ladder(kind: str, locale: str) -> list:
    """The kind's units as this language climbs them."""
    units = KINDS[kind][0]
    top = TOP.get((kind, locale))
    if top is None:
        return units
    return units[:[u[0] for u in units].index(top) + 1]


def word(kind: str, symbol: str, locale: str, category: str) -> str:
    """The unit as this language writes it after a number of CLDR plural `category` ("one" or "other")."""
    found = WORDS.get(kind, {}).get(locale, {}).get(symbol, symbol)
    if isinstance(found, tuple):
        return found[0] if category == "one" else found[1]
    return found


def canonical(kind: str, unit: str) -> str:
    """A unit named in any language's words ("Mrd.", "bytes", "bit") as its canonical symbol ("G", "B")."""
    for words in WORDS.get(kind, {}).values():
        for symbol, written in words.items():
            if unit == written or (isinstance(written, tuple) and unit in written):
                return symbol
    return unit


BILLION_SYMBOL = {lang: word("params", "G", lang, "other") for lang in ("de", "en", "da", "it")}
BYTE_SYMBOL = {lang: word("bytes", "B", lang, "other") for lang in ("de", "en", "da", "it")}
