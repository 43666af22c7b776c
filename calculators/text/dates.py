"""A date as each language writes it in CLDR's medium format, without Babel (it runs in the browser too).

The build formats dates with Babel (sitebuild/dates.py); the running example's
explanations, rebuilt in the browser for the reader's model and device, name
the access date of their sources the same way. tests/test_fmt.py compares
the two for every date of the catalog.
"""

from __future__ import annotations

# CLDR's abbreviated month names as the medium date format uses them (Babel 2.x, checked by the tests).
_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "da": ("jan.", "feb.", "mar.", "apr.", "maj", "jun.", "jul.", "aug.", "sep.", "okt.", "nov.", "dec."),
    "it": ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"),
}


def medium(iso: str, lang: str) -> str:
    """"2026-11-29" as `lang` writes it: 29.11.2026, Nov 29, 2026, 29. nov. 2026, 29 nov 2026."""
    year, month, day = (int(part) for part in iso.split("-"))
    if lang == "de":
        return f"{day:02d}.{month:02d}.{year}"
    name = _MONTHS[lang][month - 1]
    if lang == "en":
        return f"{name} {day}, {year}"
    if lang == "da":
        return f"{day}. {name} {year}"
    return f"{day} {name} {year}"
