"""Dates as each language writes them, formatted by Babel (CLDR data, as the numbers are).

A day in the long form ("27. Mai 2026", "May 27, 2026", "27. maj 2026", "27 maggio 2026"), a month
with its full name ("September 2024"), a year as it is: the native editors asked for one style
everywhere, never an ISO date and never an abbreviation a reader must decode.
"""

from __future__ import annotations

import datetime as _dt
from functools import cache

import babel.dates


@cache
def day(iso: str, lang: str) -> str:
    """"2026-11-29" as the language writes a day in full ("29. November 2026", "November 29, 2026").
    Italian writes the first of a month as an ordinal, "1º dicembre 2026", which CLDR's pattern does not."""
    date = _dt.date.fromisoformat(iso)
    text = babel.dates.format_date(date, format="long", locale=lang)
    if lang == "it" and date.day == 1 and text.startswith("1 "):
        text = "1\u00ba " + text[2:]
    return text


@cache
def month(year: int, month_number: int, lang: str) -> str:
    """A month of a year as the language writes it ("September 2024", "settembre 2024")."""
    return babel.dates.format_skeleton("yMMMM", _dt.date(year, month_number, 1), locale=lang)


def published(text: str, lang: str) -> str:
    """A date as published, to the day, the month or the year ("2026-05-27", "2024-09", "2026")."""
    parts = text.split("-")
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return month(int(parts[0]), int(parts[1]), lang)
    return day(text, lang)
