"""Dates kept in .cache/dates/: what is kept is what Babel writes, a damaged file is formatted again."""

import datetime

from babel.dates import format_date, format_skeleton

from sitebuild import dates


def _fresh(monkeypatch, tmp_path):
    monkeypatch.setattr(dates, "CACHE_DIR", tmp_path)
    monkeypatch.setattr(dates, "_kept", None)


def test_kept_dates_are_babels(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path)
    for lang in ("de", "en", "da", "it"):
        assert dates.medium("2026-11-29", lang) == format_date(datetime.date(2026, 11, 29), format="medium", locale=lang)
        assert dates.month(2024, 9, lang) == format_skeleton("yMMM", datetime.date(2024, 9, 1), locale=lang)
    assert dates.medium("2026-12-01", "de") == "01.12.2026"     # as a German reader writes it
    monkeypatch.setattr(dates, "_kept", None)                   # a new build reads the file
    (kept,) = tmp_path.glob("babel-*.json")
    assert "medium|it|2026-11-29" in kept.read_text(encoding="utf-8")
    assert dates.medium("2026-11-29", "it") == "29 nov 2026"


def test_a_damaged_file_is_formatted_again(monkeypatch, tmp_path):
    _fresh(monkeypatch, tmp_path)
    dates.medium("2026-11-29", "en")
    (kept,) = tmp_path.glob("babel-*.json")
    kept.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(dates, "_kept", None)
    assert dates.medium("2026-11-29", "en") == "Nov 29, 2026"
