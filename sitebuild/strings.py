"""UI strings from the gettext catalogs in locales/<lang>.po, read with Babel.

Why msgids are English: they are stable keys that every translator can read.
German is the site's source language, so a string missing (or fuzzy) in
another language falls back to the German translation, then to the msgid,
and the fallback is recorded for the translation report.
"""

from __future__ import annotations

import pathlib
from functools import lru_cache
from typing import NamedTuple

from babel.messages.pofile import read_po

from calculators.text.message import Plural

SOURCE_LANG = "de"
LANGS = ("de", "en", "da", "it")
LOCALES_DIR = pathlib.Path(__file__).resolve().parent.parent / "locales"


class Entry(NamedTuple):
    """What the site needs of a catalog message (Babel's Message, minus what only the checks read)."""
    string: str | tuple    # a plural message: its forms, msgstr[0] ("one") and msgstr[1] ("other")
    fuzzy: bool


class Entries(dict):
    """{(msgid, context): Entry}, with Babel Catalog.get()'s signature."""

    def get(self, msgid: str, context: str | None = None) -> Entry | None:  # type: ignore[override]
        return dict.get(self, (msgid, context))


def catalog(lang: str, locales_dir: pathlib.Path = LOCALES_DIR) -> Entries:
    """The catalog's messages, parsed by Babel once per version of the file (an edited file under
    `mkdocs serve` is read again)."""
    path = locales_dir / f"{lang}.po"
    return _parse(path, path.stat().st_mtime_ns, lang)


@lru_cache(maxsize=16)
def _parse(path: pathlib.Path, _mtime: int, lang: str) -> Entries:
    with path.open("rb") as f:
        parsed = read_po(f, locale=lang, abort_invalid=True)
    # A plural entry is keyed by its singular msgid, as Babel's Catalog keys it.
    return Entries({(m.id if isinstance(m.id, str) else m.id[0], m.context): Entry(m.string, m.fuzzy)
                    for m in parsed if m.id})


class Strings:
    """Looks up translations and remembers which keys were used or fell back."""

    def __init__(self, locales_dir: pathlib.Path = LOCALES_DIR):
        self.locales_dir = locales_dir
        self.used: set = set()
        self.fallbacks: set = set()

    def get(self, msgid, lang: str, context: str | None = None):
        """The string in `lang`, else German, else the msgid; unknown msgids are an error.

        A Plural (calculators/text/message.py) gives the tuple of its forms, the English ones last.
        """
        if isinstance(msgid, Plural):
            forms = self.get(msgid.one, lang, msgid.context)
            return forms if isinstance(forms, tuple) else (msgid.one, msgid.other)
        self.used.add((msgid, context))
        if catalog(SOURCE_LANG, self.locales_dir).get(msgid, context=context) is None:
            where = f" (context {context!r})" if context else ""
            raise KeyError(f"UI string {msgid!r}{where} is not in locales/{SOURCE_LANG}.po: add it there first")
        text = _translation(self.locales_dir, lang, msgid, context)
        if text is not None:
            return text
        self.fallbacks.add((lang, msgid, context))
        return _translation(self.locales_dir, SOURCE_LANG, msgid, context) or msgid


def _translation(locales_dir: pathlib.Path, lang: str, msgid: str, context: str | None):
    msg = catalog(lang, locales_dir).get(msgid, context=context)
    if msg is None or not msg.string or msg.fuzzy:
        return None
    if isinstance(msg.string, tuple):
        return msg.string if all(msg.string) else None    # a plural translated in part falls back whole
    return msg.string


class Translator:
    """One build's translator for one language: each (msgid, context) is looked up once.

    A build reads the locale files as they are when it starts; the next build (a rebuild under `mkdocs
    serve`) makes new Translators, so an edited .po file is never answered from an earlier build.
    Without this, a build asks Strings about 28,000 times for about 2,000 distinct strings (`make bench`).
    """

    def __init__(self, strings: Strings, lang: str):
        self.strings, self.lang, self._memo = strings, lang, {}

    def __call__(self, msgid, context: str | None = None):
        key = (msgid, context)
        if key not in self._memo:
            self._memo[key] = self.strings.get(msgid, self.lang, context)
        return self._memo[key]
