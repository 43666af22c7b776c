"""Reading what readers type: numbers in the reader's locale, checked, with a reason when they are not numbers.

The calculators' fields (calculators/ui/fields.py) read their texts with these
functions, in the build and in the browser alike. Every function here runs in
time linear in the length of the text, and a text longer than any number is
refused at once (`MAX_CHARS`).
"""

from __future__ import annotations

import decimal
import re
from decimal import Decimal

from .fmt import _symbols

__all__ = ["MAX_CHARS", "ParseError", "parse_number", "parse_tokens"]


class ParseError(ValueError):
    """A reader's input that is not an acceptable number.

    ``code`` selects the message in the reader's language (the calculators
    translate it); ``text`` is what they typed, to echo back.
    """

    CODES = ("empty", "not_a_number", "negative", "zero", "too_large",
             "not_integer", "bad_grouping")

    def __init__(self, code: str, text: str):
        assert code in self.CODES, code
        super().__init__(f"{code}: {text!r}")
        self.code = code
        self.text = text


_SPACES = " \u00a0\u202f\u2009"
_MINUS = "-\u2212"
_SUFFIXES = {
    "decimal": {"k": Decimal(1000), "m": Decimal(1000) ** 2},
    "binary": {"k": Decimal(1024), "m": Decimal(1024) ** 2},
}
# A mantissa is digits and marks, with single runs of spaces between them (never at either end), so a run of
# spaces can only be matched one way: the pattern runs in time linear in the text (a greedy class followed by
# a space run used to backtrack quadratically: 8,000 spaces took 19 s).
_NUMBER_RE = re.compile(
    r"(?P<mant>[0-9.,]+(?:[%s]+[0-9.,]+)*)(?:[eE](?P<exp>[+-]?[0-9]{1,6}))?[%s]*(?P<suf>[kKmM])?" % (_SPACES, _SPACES)
)
# Longer than any number the site prints (1e308 with its grouping marks is about 410 characters): a longer text
# is refused before it is parsed (a pasted page, a run of spaces), so a field never costs more than a few
# microseconds whatever is pasted into it.
MAX_CHARS = 500


def _split_sign(text: str):
    """Return (negative, rest); accepts "-", the Unicode minus and "+"."""
    if text[:1] in _MINUS:
        return True, text[1:].lstrip()
    if text[:1] == "+":
        return False, text[1:].lstrip()
    return False, text


def _check_groups(whole: str, seps: str, text: str) -> str:
    """Remove grouping marks from the integer part if they group by three.

    One kind of mark per number (spaces of any width count as one kind).
    """
    kinds = {("space" if c in _SPACES else c) for c in whole if c in seps}
    if not kinds:
        return whole
    if len(kinds) > 1:
        raise ParseError("bad_grouping", text)
    groups = re.split("[" + re.escape(seps) + "]", whole)
    if not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:]):
        raise ParseError("bad_grouping", text)
    return "".join(groups)


def _decimal_mark(mant: str, sym: dict) -> str:
    """Which character is the decimal mark in ``mant``.

    Normally the locale's; but a lone other-locale mark followed by other
    than three digits can only be a decimal mark ("2.5" typed in German).
    """
    dec, grp = sym["decimal"], sym["group"]
    if (dec not in mant and mant.count(grp) == 1
            and not any(c in _SPACES for c in mant)
            and len(mant.partition(grp)[2]) != 3):
        return grp
    return dec


def _mantissa(mant: str, sym: dict, text: str) -> Decimal:
    """Turn the digits-and-marks part into a Decimal, checking the grouping."""
    dec = _decimal_mark(mant, sym)
    seps = (sym["group"] + sym["decimal"]).replace(dec, "") + _SPACES
    if mant.count(dec) > 1:
        raise ParseError("not_a_number", text)
    whole, mark, frac = mant.partition(dec)
    if any(c in seps for c in frac):
        raise ParseError("bad_grouping", text)
    if (mark and not frac) or not (whole or frac):
        raise ParseError("not_a_number", text)
    whole = _check_groups(whole, seps, text) if whole else "0"
    return Decimal(whole + "." + (frac or "0"))


def _parse_decimal(text: str, locale: str, suffixes) -> Decimal:
    """Read ``text`` as a signed Decimal in ``locale``; raise ParseError."""
    sym = _symbols(locale)
    if len(text) > MAX_CHARS:
        raise ParseError("not_a_number", text[:MAX_CHARS])
    stripped = text.strip()
    if not stripped:
        raise ParseError("empty", text)
    negative, body = _split_sign(stripped)
    m = _NUMBER_RE.fullmatch(body)
    if not m or not any(c.isdigit() for c in m["mant"]) or (m["exp"] and m["suf"]):
        raise ParseError("not_a_number", text)
    value = _mantissa(m["mant"], sym, text)
    if m["exp"]:
        value = value.scaleb(int(m["exp"]))
    if m["suf"]:
        if suffixes is None:
            raise ParseError("not_a_number", text)
        value = value * _SUFFIXES[suffixes][m["suf"].lower()]
    return -value if negative else value


def parse_number(text: str, locale: str, *, allow_zero: bool = True,
                 allow_negative: bool = False, integer: bool = False,
                 max_value=1e18, suffixes: str | None = "decimal"):
    """Parse a number as a reader of ``locale`` types it; raise ParseError.

    Accepts the locale's marks, spaces (incl. NBSP, narrow NBSP, thin space)
    as grouping, a lone other-locale decimal mark, an exponent ("2,5e3") or a
    k/M suffix ("decimal": 10**3, "binary": 2**10 steps; None: no suffixes).
    Returns an int when ``integer`` is true, else a float; never NaN or inf.
    """
    if suffixes not in (None, "decimal", "binary"):
        raise ValueError(f"suffixes must be None, 'decimal' or 'binary', got {suffixes!r}")
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.Emax, ctx.Emin = 60, decimal.MAX_EMAX, decimal.MIN_EMIN
        value = _parse_decimal(text, locale, suffixes)
        value = value.copy_abs() if value.is_zero() else value  # "-0" is 0
        if value < 0 and not allow_negative:
            raise ParseError("negative", text)
        if abs(value) > Decimal(max_value):
            raise ParseError("too_large", text)
        as_float = float(value)
        if not allow_zero and as_float == 0:
            raise ParseError("zero", text)
        if integer:
            if value != value.to_integral_value():
                raise ParseError("not_integer", text)
            return int(value)
        return as_float


def parse_tokens(text: str, locale: str, **kw) -> int:
    """Parse a token count: whole, positive, k/M meaning 1024/1024**2 ("8K" = 8192).

    Context lengths are powers of two by convention, hence binary suffixes.
    """
    opts = {"integer": True, "suffixes": "binary", "allow_zero": False} | kw
    return parse_number(text, locale, **opts)
