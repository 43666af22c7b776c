"""Figures as running text writes them, where a table's form would read wrong in a sentence.

A table or a formula writes a factor "7,2×" and a count "2"; a German sentence
says "7,2-mal so viel" and "mindestens zwei davon" (the native editors'
review 3). A page asks for the prose form per figure (`{{ fig("id",
style="times") }}`, `style="words"`); each language's form is here, as whole
templates, so that a range reads "1,04- bis 1,47-mal" and not "1,04-mal–1,47-mal".
"""

from __future__ import annotations

from . import fmt

STYLES = ("times", "words")

# A factor in a sentence: (one value, a range)
_TIMES = {
    "de": ("{x}-mal", "{low}- bis {high}-mal"),
    "en": ("{x} times", "{low} to {high} times"),
    "da": ("{x} gange", "{low} til {high} gange"),
    "it": ("{x} volte", "da {low} a {high} volte"),
}
WORDS_UP_TO = 12     # counts up to twelve are written as words in prose; larger ones as digits


def times(value, locale: str, *, sig: int | None = 3, decimals: int | None = None) -> str:
    """A factor (or a (low, high) range of one) as a sentence writes it: "7,2-mal", "1.04 to 1.47 times"."""
    one, both = _TIMES[locale]
    rounding = {"decimals": decimals} if decimals is not None else {"sig": sig or 3}
    if isinstance(value, tuple):
        low, high = (fmt.format_number(v, locale, **rounding) for v in value)
        return both.format(low=low, high=high)
    return one.format(x=fmt.format_number(value, locale, **rounding))


def words(value, locale: str) -> str:
    """A small whole count written out ("zwei", "eight"); a larger one in digits (a running example may
    make a count large). A fraction or a range is not a count: ValueError."""
    if isinstance(value, tuple) or not float(value).is_integer() or value < 0:
        raise ValueError(f"style='words' is for whole counts, not {value!r}")
    if value > WORDS_UP_TO:
        return fmt.format_number(int(value), locale)
    return fmt.format_count_words(int(value), locale)
