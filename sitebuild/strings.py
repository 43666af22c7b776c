"""UI strings from the gettext catalogs in locales/<lang>.po, read with Babel.

Why msgids are English: they are stable keys that every translator can read.
German is the site's source language, so a string missing (or fuzzy) in
another language falls back to the German translation, then to the msgid,
and the fallback is recorded for the translation report.
"""

from __future__ import annotations

import pathlib
from functools import lru_cache

from babel.messages.pofile import read_po

SOURCE_LANG = "de"
LANGS = ("de", "en", "da", "it")
LOCALES_DIR = pathlib.Path(__file__).resolve().parent.parent / "locales"


@lru_cache(maxsize=None)
def catalog(lang: str, locales_dir: pathlib.Path = LOCALES_DIR):
    path = locales_dir / f"{lang}.po"
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, abort_invalid=True)


class Strings:
    """Looks up translations and remembers which keys were used or fell back."""

    def __init__(self, locales_dir: pathlib.Path = LOCALES_DIR):
        self.locales_dir = locales_dir
        self.used: set = set()
        self.fallbacks: set = set()

    def get(self, msgid: str, lang: str, context: str | None = None) -> str:
        """The string in `lang`, else German, else the msgid; unknown msgids are an error."""
        self.used.add((msgid, context))
        text, fell_back = _lookup(self.locales_dir, msgid, lang, context)
        if fell_back:
            self.fallbacks.add((lang, msgid, context))
        return text


@lru_cache(maxsize=None)
def _lookup(locales_dir: pathlib.Path, msgid: str, lang: str, context: str | None) -> tuple:
    """(text, whether it fell back to German or the msgid). Cached: a page build asks for the same
    few hundred strings thousands of times, and the catalogs are read once per process anyway."""
    if catalog(SOURCE_LANG, locales_dir).get(msgid, context=context) is None:
        where = f" (context {context!r})" if context else ""
        raise KeyError(f"UI string {msgid!r}{where} is not in locales/{SOURCE_LANG}.po: add it there first")
    text = _translation(locales_dir, lang, msgid, context)
    if text is not None:
        return text, False
    return _translation(locales_dir, SOURCE_LANG, msgid, context) or msgid, True


def _translation(locales_dir: pathlib.Path, lang: str, msgid: str, context: str | None):
    msg = catalog(lang, locales_dir).get(msgid, context=context)
    if msg is None or not msg.string or msg.fuzzy:
        return None
    return msg.string
