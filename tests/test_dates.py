"""Dates as each language writes them: a day in CLDR's long format, a month by its full name, a year as it is.

The expected strings are written out by hand (what a native reader writes), and each is also what Babel
writes for CLDR's pattern, so that a Babel update that changes them is noticed."""

import datetime

import pytest
from babel.dates import format_date, format_skeleton

from sitebuild import dates


@pytest.mark.parametrize("lang, day, month", [
    ("de", "27. Mai 2026", "September 2024"),
    ("en", "May 27, 2026", "September 2024"),
    ("da", "27. maj 2026", "september 2024"),
    ("it", "27 maggio 2026", "settembre 2024"),
])
def test_a_day_and_a_month_in_each_language(lang, day, month):
    assert dates.day("2026-05-27", lang) == day == format_date(datetime.date(2026, 5, 27), format="long", locale=lang)
    assert dates.month(2024, 9, lang) == month == format_skeleton("yMMMM", datetime.date(2024, 9, 1), locale=lang)


def test_a_published_date_is_written_to_its_precision():
    assert dates.published("2026-05-27", "de") == "27. Mai 2026"
    assert dates.published("2024-09", "en") == "September 2024"
    assert dates.published("2026", "it") == "2026"


def test_a_source_is_named_with_its_publisher_and_date_in_the_pages_language():
    from calculators.data.sources import Source
    from sitebuild import citations
    src = Source("713 Tokens Per Second", "2026-11-29", "medium", publisher="Infercom", published="2026-05-27")
    tr = lambda msgid, ctx=None: msgid  # noqa: E731
    assert citations.describe(src, "de", tr) == "713 Tokens Per Second (Infercom, 27. Mai 2026)"
    assert citations.describe(Source("A title", "2026-11-29", "high"), "de", tr) == "A title"


def test_a_published_date_that_is_no_date_is_a_load_error():
    from calculators.data import sources
    raw = {"source": "T", "kind": "article", "url": "https://example.com/", "accessed": "2026-11-29",
           "confidence": "low", "published": "27 May 2026"}
    with pytest.raises(sources.DataError, match="field 'published': not a date"):
        sources.source("data.x", raw)


@pytest.mark.parametrize("lang", ["de", "en", "da", "it"])
def test_every_month_as_babel_writes_it_without_babel(lang):
    """calculators/text/dates.py runs in the browser (no Babel there): each month, as a day and as a month, is Babel's."""
    for m in range(1, 13):
        for d in (1, 9, 28):
            babel = format_date(datetime.date(2026, m, d), format="long", locale=lang)
            if lang == "it" and d == 1:      # Italian writes the first of a month as an ordinal (below)
                babel = "1\u00ba " + babel[2:]
            assert dates.day(f"2026-{m:02d}-{d:02d}", lang) == babel
        assert dates.month(2025, m, lang) == format_skeleton("yMMMM", datetime.date(2025, m, 1), locale=lang)


def test_italian_writes_the_first_of_a_month_as_an_ordinal():
    """Italian review 2026-12-02: "consultato il 1 dicembre 2026" reads wrong; Italian writes "1º dicembre"."""
    assert dates.day("2026-12-01", "it") == "1º dicembre 2026"
    assert dates.day("2026-12-02", "it") == "2 dicembre 2026"
    assert dates.day("2026-12-01", "de") == "1. Dezember 2026"
