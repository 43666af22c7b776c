"""Dates as each language writes them, formatted by Babel and kept in .cache/dates/.

Why kept: the pages print a dozen distinct dates (access dates, measurement
dates), but formatting the first one in a language imports babel.dates and
loads that language's calendar data, about a twentieth of a build. The
texts depend only on the date, the language, the pattern and Babel's
version, which names the file; a date not kept yet is formatted by Babel
and added.
"""

from __future__ import annotations

import datetime as _dt
import json
import pathlib
from importlib import metadata

from .kept import write as _write_file

CACHE_DIR = pathlib.Path(__file__).resolve().parent.parent / ".cache" / "dates"
# The patterns the site uses, by name: a day in the medium format ("29.11.2026"), a month ("Sep. 2024").
_PATTERNS = {
    "medium": lambda d, lang: _babel().format_date(d, format="medium", locale=lang),
    "month": lambda d, lang: _babel().format_skeleton("yMMM", d, locale=lang),
}
_kept: dict | None = None


def medium(iso: str, lang: str) -> str:
    """"2026-11-29" as the language writes a date in its medium format."""
    return _text("medium", iso, lang)


def month(year: int, month_number: int, lang: str) -> str:
    """A month of a year as the language abbreviates it ("Sep 2024", "Sept. 2024")."""
    return _text("month", f"{year:04d}-{month_number:02d}-01", lang)


def _text(pattern: str, iso: str, lang: str) -> str:
    kept = _load()
    key = f"{pattern}|{lang}|{iso}"
    if key not in kept:
        kept[key] = _PATTERNS[pattern](_dt.date.fromisoformat(iso), lang)
        _store(kept)
    return kept[key]


def _babel():
    import babel.dates   # only for a date not kept yet
    return babel.dates


def _path() -> pathlib.Path:
    return CACHE_DIR / f"babel-{metadata.version('babel')}.json"


def _load() -> dict:
    global _kept
    if _kept is None:
        try:
            data = json.loads(_path().read_text(encoding="utf-8"))
            _kept = {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
        except (OSError, ValueError, AttributeError):
            _kept = {}     # not kept yet, or damaged: format again
    return _kept


def _store(texts: dict) -> None:
    """A read-only checkout just formats each date once per build."""
    _write_file(_path(), json.dumps(texts, ensure_ascii=False, sort_keys=True).encode("utf-8"))
