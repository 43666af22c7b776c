"""Dates as each language writes them: what Babel writes for CLDR's medium format and month skeleton."""

import datetime

from babel.dates import format_date, format_skeleton

from sitebuild import dates


def test_dates_are_babels():
    for lang in ("de", "en", "da", "it"):
        assert dates.medium("2026-11-29", lang) == format_date(datetime.date(2026, 11, 29), format="medium", locale=lang)
        assert dates.month(2024, 9, lang) == format_skeleton("yMMM", datetime.date(2024, 9, 1), locale=lang)
    assert dates.medium("2026-12-01", "de") == "01.12.2026"     # as a German reader writes it
    assert dates.medium("2026-11-29", "it") == "29 nov 2026"
    assert dates.medium("2026-11-29", "en") == "Nov 29, 2026"
