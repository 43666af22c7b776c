"""Dates as each language writes them, without Babel (the browser formats them too).

A day in the long form ("27. Mai 2026", "May 27, 2026", "27. maj 2026", "27 maggio 2026"), a month
with its full name ("September 2024"), a year as it is: the native editors asked for one style
everywhere, never an ISO date and never an abbreviation a reader must decode. The build's pages
(sitebuild/dates.py) and the running example's explanations, rebuilt in the browser, print the same;
tests/test_dates.py compares every month of every language with Babel's CLDR data.
"""

from __future__ import annotations

# CLDR's month names in the format context (the long date and the "yMMMM" skeleton use the same ones).
_MONTHS = {
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "da": ("januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september", "oktober",
           "november", "december"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
}


def day(iso: str, lang: str) -> str:
    """"2026-11-29" as the language writes a day in full ("29. November 2026", "November 29, 2026").
    Italian writes the first of a month as an ordinal, "1º dicembre 2026", which CLDR's pattern does not."""
    year, month_number, day_number = (int(part) for part in iso.split("-"))
    name = _MONTHS[lang][month_number - 1]
    if lang == "en":
        return f"{name} {day_number}, {year}"
    if lang == "it":
        return f"{'1º' if day_number == 1 else day_number} {name} {year}"
    return f"{day_number}. {name} {year}"


def month(year: int, month_number: int, lang: str) -> str:
    """A month of a year as the language writes it ("September 2024", "settembre 2024")."""
    return f"{_MONTHS[lang][month_number - 1]} {year}"


def published(text: str, lang: str) -> str:
    """A date as published, to the day, the month or the year ("2026-05-27", "2024-09", "2026")."""
    parts = text.split("-")
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return month(int(parts[0]), int(parts[1]), lang)
    return day(text, lang)
