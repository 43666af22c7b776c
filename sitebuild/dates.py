"""Dates as each language writes them, formatted by Babel (CLDR data, as the numbers are).
"""

from __future__ import annotations

import datetime as _dt
from functools import cache

import babel.dates


@cache
def medium(iso: str, lang: str) -> str:
    """"2026-11-29" as the language writes a date in its medium format ("29.11.2026")."""
    return babel.dates.format_date(_dt.date.fromisoformat(iso), format="medium", locale=lang)


@cache
def month(year: int, month_number: int, lang: str) -> str:
    """A month of a year as the language abbreviates it ("Sep 2024", "Sept. 2024")."""
    return babel.dates.format_skeleton("yMMM", _dt.date(year, month_number, 1), locale=lang)
