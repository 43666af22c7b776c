"""Locale-aware formatting of the site's figures (calculators/text/parse.py reads what readers type).

Every number on the site goes through this module, at build time (CPython) and
in the reader's browser (Pyodide), so it uses the standard library only.  The
symbols and patterns below are the CLDR data for our four locales as Babel
2.19 ships them; ``tests/test_fmt.py`` checks the output against Babel so that
drift in either direction is caught.

Rounding is ROUND_HALF_EVEN on the decimal text of a float (``repr``), which is
what Babel/CLDR does; the same figure therefore prints the same digits in every
language, on the server and in the browser.
"""

from __future__ import annotations

import decimal
from decimal import Decimal

from . import units as units_
from .grammar import plural_category
from .units import BILLION_SYMBOL, BYTE_SYMBOL, NBSP

__all__ = [
    "BILLION_SYMBOL",
    "BYTE_SYMBOL",
    "LOCALES",
    "NBSP",
    "format_count_words",
    "format_number",
    "format_percent",
    "format_quantity",
    "format_quantity_range",
    "format_range",
    "round_decimal",
]

LOCALES = ("de", "en", "da", "it")
EN_DASH = "\u2013"

MINUS = "\u2212"

# CLDR (latn numbering system): decimal mark, group mark and the percent
# pattern's suffix (Babel 2.19: de and da put a NBSP before "%", en and it do
# not).  The minus sign is the typographic one, U+2212, in all four: CLDR's
# ASCII "-" is a hyphen, which the native editors of all four languages
# flagged ("-22 %"); calculators/text/parse.py reads both.
_SYMBOLS = {
    "en": {"decimal": ".", "group": ",", "minus": MINUS, "percent": "%"},
    "de": {"decimal": ",", "group": ".", "minus": MINUS, "percent": NBSP + "%"},
    "da": {"decimal": ",", "group": ".", "minus": MINUS, "percent": NBSP + "%"},
    "it": {"decimal": ",", "group": ".", "minus": MINUS, "percent": "%"},
}


def _symbols(locale: str) -> dict:
    """Return the locale's symbols; an unknown locale is a bug, so fail loudly."""
    try:
        return _SYMBOLS[locale]
    except (KeyError, TypeError):
        raise ValueError(
            f"unsupported locale {locale!r}; supported: {', '.join(LOCALES)}"
        ) from None


# --------------------------------------------------------------------------
# Rounding
# --------------------------------------------------------------------------


def _to_decimal(value) -> Decimal:
    """Exact decimal for ints, the shortest round-tripping text for floats.

    ``repr`` is what a reader would call the float's value and is what Babel
    rounds, so 2.675 rounds to 2.68 here as it does there.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    d = value if isinstance(value, Decimal) else Decimal(
        repr(value) if isinstance(value, float) else value
    )
    if not d.is_finite():
        raise ValueError(f"cannot format a non-finite number: {value!r}")
    return d


def _quantize(d: Decimal, exponent: int) -> Decimal:
    """Round half-even to ``10**exponent`` with enough precision never to trap.

    A local context keeps us independent of whatever the caller's decimal
    context is (Babel's 28 digits overflow on large values).
    """
    prec = max(28, d.adjusted() - exponent + 3)
    with decimal.localcontext() as ctx:
        ctx.prec = prec
        ctx.rounding = decimal.ROUND_HALF_EVEN
        ctx.traps[decimal.InvalidOperation] = True
        return d.quantize(Decimal(1).scaleb(exponent))


def round_decimal(value, *, decimals: int | None = None, sig: int | None = None) -> Decimal:
    """Round ``value`` to ``decimals`` places or ``sig`` significant digits.

    Rounding is part of a figure's definition, so exactly one must be given.
    The result keeps significant trailing zeros (sig=3 of 2.5 is 2.50).
    Zero with ``sig`` is ``Decimal(0)``: zero has no significant digits to keep.
    """
    if (decimals is None) == (sig is None):
        raise ValueError("give exactly one of decimals= or sig=")
    d = _to_decimal(value)
    if decimals is not None:
        return _quantize(d, -int(decimals))
    if sig < 1:
        raise ValueError(f"sig must be >= 1, got {sig}")
    if d.is_zero():
        return Decimal(0)
    r = _quantize(d, d.adjusted() - sig + 1)
    if r.adjusted() > d.adjusted():  # 9.996 -> 10.00: one digit too many
        r = _quantize(r, r.adjusted() - sig + 1)
    return r


# --------------------------------------------------------------------------
# Numbers, percentages, ranges
# --------------------------------------------------------------------------


def _group(digits: str, sep: str) -> str:
    """Insert ``sep`` every three digits from the right (CLDR '#,##0')."""
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)]
    return sep.join(parts)


def _render(d: Decimal, locale: str, grouping: bool = True) -> str:
    """Write an already rounded Decimal with the locale's symbols.

    Negative zero prints as "0": a figure that rounds to zero has no sign
    (Babel would print "-0.00"; we deliberately do not).
    """
    sym = _symbols(locale)
    if d.is_zero():
        d = d.copy_abs()
    text = f"{d:f}"
    sign = ""
    if text.startswith("-"):
        sign, text = sym["minus"], text[1:]
    whole, _, frac = text.partition(".")
    if grouping:
        whole = _group(whole, sym["group"])
    return sign + whole + (sym["decimal"] + frac if frac else "")


def format_number(value, locale: str, *, decimals: int | None = None,
                  sig: int | None = None, grouping: bool = True) -> str:
    """Format a number for ``locale`` ("2,680" / "2.680", "2.50" / "2,50").

    Integers may omit the rounding (they print exactly); floats may not,
    because how a measured value is rounded belongs to the figure.
    """
    _symbols(locale)
    if decimals is None and sig is None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("give decimals= or sig= to format a non-integer")
        decimals = 0
    return _render(round_decimal(value, decimals=decimals, sig=sig), locale, grouping)


def format_percent(fraction, locale: str, *, decimals: int = 0) -> str:
    """Format a fraction as a percentage (0.253 -> "25%" en, "25 %" de).

    Scaling by 100 is done in Decimal (exact), so no float error sneaks in
    before the rounding.
    A share that is not zero but rounds to zero is written as below the smallest step ("<1%", "< 1 %"):
    "0 %" of a device's memory would say the cache takes nothing.
    """
    sym = _symbols(locale)
    pct = _to_decimal(fraction).scaleb(2)
    shown = _quantize(pct, -int(decimals))
    if shown.is_zero() and not pct.is_zero():
        step = _render(Decimal(1).scaleb(-int(decimals)), locale) + sym["percent"]
        bound, sign = ("<", "") if pct > 0 else (">", sym["minus"])
        return bound + ("" if sym["percent"] == "%" else NBSP) + sign + step
    return _render(shown, locale) + sym["percent"]


def format_percent_range(low, high, locale: str, *, decimals: int = 0) -> str:
    """Two fractions as one range of percentages, the sign once ("30–44%" en, "30–44 %" de)."""
    sign = _symbols(locale)["percent"]
    low_text = format_percent(low, locale, decimals=decimals)
    return format_range(low_text[:-len(sign)], format_percent(high, locale, decimals=decimals), locale)


def format_range(low_text: str, high_text: str, locale: str) -> str:
    """Join two formatted numbers with an unspaced en dash ("2,5–3,1").

    All four locales write numeric ranges this way; the locale is still
    checked so that a typo cannot slip through.
    """
    _symbols(locale)
    return f"{low_text}{EN_DASH}{high_text}"


# --------------------------------------------------------------------------
# Quantities with units (the units and their words: calculators/text/units.py)
# --------------------------------------------------------------------------


def _pick_unit(units, magnitude: Decimal):
    """Largest unit whose threshold |value| reaches; the smallest otherwise."""
    chosen = units[0]
    for unit in units:
        if magnitude >= unit[2]:
            chosen = unit
    return chosen


def _forced_unit(kind: str, units, unit: str):
    """Look up a unit the caller named; a unit of another kind is a bug."""
    table = {u[0]: u[1] for u in units} | units_.BINARY.get(kind, {})
    unit = units_.canonical(kind, unit)
    if unit not in table:
        raise ValueError(f"unit {unit!r} is not a unit of {kind!r}; "
                         f"choose from {', '.join(table)}")
    return unit, table[unit]


def _scale_and_round(d: Decimal, units, rounding: dict):
    """Choose the unit, round in it, and move up if rounding reached the next.

    999.96 GB at sig=3 rounds to 1000 GB, which is written 1.00 TB.
    """
    symbol, factor, _ = _pick_unit(units, abs(d))
    r = round_decimal(d / factor, **rounding)
    bigger = _pick_unit(units, abs(r) * factor)
    if bigger[0] != symbol:
        symbol, factor = bigger[0], bigger[1]
        r = round_decimal(d / factor, **rounding)
    return symbol, r


def _duration(seconds: Decimal, locale: str, rounding: dict) -> str:
    """A duration of two minutes or more in two units: "3 min 1 s", "2 h 5 min" (a zero second part left out).

    The figure's rounding applies to the whole duration in seconds (sig=3 of 181.4 s is 181 s),
    then the parts are whole numbers: no reader says "3,02 min".
    """
    total = round_decimal(seconds, **rounding)
    big, small, step = ("h", "min", 60) if abs(total) >= units_.HOURS_FROM else ("min", "s", 1)
    whole = int(_quantize(abs(total) / step, 0))
    upper, lower = divmod(whole, 60)
    sign = _symbols(locale)["minus"] if total < 0 else ""
    text = f"{sign}{_render(Decimal(upper), locale)}{NBSP}{big}"
    return text + (f"{NBSP}{_render(Decimal(lower), locale)}{NBSP}{small}" if lower else "")


def format_quantity(value, kind: str, locale: str, *, sig: int | None = None,
                    decimals: int | None = None, unit: str | None = None) -> str:
    """Format ``value`` (in the kind's base unit) as "<number><NBSP><unit>".

    The unit is scaled in SI steps so that the number is at least 1 (bytes,
    FLOP, W, J, s); a duration from two minutes on is written in minutes and
    seconds, from two hours on in hours and minutes ("3 min 1 s"). ``unit``
    forces one (and allows KiB..TiB for bytes).  Rounding (``sig``, default
    3, or ``decimals``) happens in the chosen unit.  "params" is written with
    the locale's word for thousand/million/billion ("70,6 Mrd.", "70.6 billion",
    see units.WORDS), a bare byte count with the locale's word for byte
    ("512 Byte", "1 byte"); "ratio" as "4.75×"; "tokens" and
    "count" are plain numbers, exact unless a rounding is given.
    """
    _symbols(locale)
    try:
        _ladder, sep, base = units_.KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown kind {kind!r}; choose from {', '.join(units_.KINDS)}") from None
    units = units_.ladder(kind, locale)
    d = _to_decimal(value)
    if sig is None and decimals is None and kind in units_.COUNTED:
        if d != d.to_integral_value():
            raise ValueError(f"a {kind} must be a whole number, got {value!r}")
        return _render(_quantize(d, 0), locale)
    if sig is not None and decimals is not None:
        raise ValueError("give at most one of decimals= or sig=")
    rounding = {"decimals": decimals} if decimals is not None else {"sig": 3 if sig is None else sig}
    if kind == "seconds" and unit is None and abs(round_decimal(d, **rounding)) >= units_.MINUTES_FROM:
        return _duration(d, locale, rounding)
    with decimal.localcontext() as ctx:
        ctx.prec = 60  # exact enough for /60 and /3600, whatever the caller's context
        if unit is not None:
            symbol, factor = _forced_unit(kind, units, unit)
            r = round_decimal(d / factor, **rounding)
        elif d.is_zero():
            symbol, r = base, round_decimal(d, **rounding)
        else:
            symbol, r = _scale_and_round(d, units, rounding)
    number = _render(r, locale)
    symbol = units_.word(kind, symbol, locale, plural_category(number, locale))
    return f"{number}{sep}{symbol}" if symbol else number


def format_quantity_range(low, high, kind: str, locale: str, *, sig: int | None = None,
                          decimals: int | None = None, unit: str | None = None) -> str:
    """'49–71 tok/s': both ends in the unit the upper end scales to, the unit once.

    Units glued to the number ("1,04–1,47×") and plain counts join the two
    texts; a duration in two units ("2 min 30 s") is written out at both ends,
    with a spaced dash between them.
    """
    rounding = {"sig": sig, "decimals": decimals}
    high_text = format_quantity(high, kind, locale, unit=unit, **rounding)
    if NBSP not in high_text:
        return format_range(format_quantity(low, kind, locale, unit=unit, **rounding), high_text, locale)
    number_high, high_unit = high_text.rsplit(NBSP, 1)
    # a duration written in minutes and seconds or hours and minutes ("2 min 5 s", or "3 min" with no seconds)
    if high_text.count(NBSP) > 1 or (kind == "seconds" and high_unit in ("min", "h")):
        return f"{format_quantity(low, kind, locale, unit=unit, **rounding)} {EN_DASH} {high_text}"
    low_text = format_quantity(low, kind, locale, unit=high_unit, **rounding)
    return format_range(low_text.rsplit(NBSP, 1)[0], number_high, locale) + NBSP + high_unit


# --------------------------------------------------------------------------
# Spelled-out numbers
# --------------------------------------------------------------------------

_WORDS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve "
          "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty",
    "de": "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf "
          "dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig",
    "da": "nul en to tre fire fem seks syv otte ni ti elleve tolv "
          "tretten fjorten femten seksten sytten atten nitten tyve",
    "it": "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici "
          "tredici quattordici quindici sedici diciassette diciotto diciannove venti",
}


def format_count_words(n: int, locale: str) -> str:
    """Spell out 0..20 as a standalone cardinal ("four", "vier", "fire", "quattro").

    Standalone forms only: German "eins" (not "ein"/"eine"), Danish "en"
    (not "et"), Italian "uno" (not "un"/"una").  Prose that needs an
    inflected form should say so in its own translation, not here.
    """
    _symbols(locale)
    words = _WORDS[locale].split()
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < len(words):
        raise ValueError(f"can spell out integers 0..{len(words) - 1}, got {n!r}")
    return words[n]
