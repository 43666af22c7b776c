"""UI strings from the gettext catalogs in locales/<lang>.po, read with Babel.

Why msgids are English: they are stable keys that every translator can read.
German is the site's source language, so a string missing (or fuzzy) in
another language falls back to the German translation, then to the msgid,
and the fallback is recorded for the translation report.
"""

from __future__ import annotations

import hashlib
import pathlib
import pickle
from functools import lru_cache
from typing import NamedTuple

from . import kept

SOURCE_LANG = "de"
LANGS = ("de", "en", "da", "it")
LOCALES_DIR = pathlib.Path(__file__).resolve().parent.parent / "locales"
# Parsed catalogs, by the digest of the .po file's bytes: Babel's parser takes about 10 ms a
# language, which every build paid for files that rarely change. Any edit is another digest.
CACHE_DIR = LOCALES_DIR.parent / ".cache" / "po"
CACHE_FORMAT = b"po-entries-1"


class Entry(NamedTuple):
    """What the site needs of a catalog message (Babel's Message, minus what only the checks read)."""
    string: str
    fuzzy: bool


class Entries(dict):
    """{(msgid, context): Entry}, with Babel Catalog.get()'s signature."""

    def get(self, msgid: str, context: str | None = None) -> Entry | None:  # type: ignore[override]
        return dict.get(self, (msgid, context))


@lru_cache(maxsize=None)
def catalog(lang: str, locales_dir: pathlib.Path = LOCALES_DIR) -> Entries:
    """The catalog's messages, parsed by Babel once per version of the file (kept in .cache/po/)."""
    data = (locales_dir / f"{lang}.po").read_bytes()
    key = hashlib.sha256(CACHE_FORMAT + lang.encode() + b"\0" + data).hexdigest()[:24]
    cached = CACHE_DIR / f"{lang}-{key}.pickle"
    try:
        return pickle.loads(cached.read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        pass  # not kept yet, or damaged: parse
    entries = _parse(data, lang)
    _keep(cached, entries)
    return entries


def _parse(data: bytes, lang: str) -> Entries:
    import io

    from babel.messages.pofile import read_po  # only when a catalog changed
    parsed = read_po(io.BytesIO(data), locale=lang, abort_invalid=True)
    # A plural entry is keyed by its singular msgid, as Babel's Catalog keys it.
    return Entries({(m.id if isinstance(m.id, str) else m.id[0], m.context): Entry(m.string, m.fuzzy)
                    for m in parsed if m.id})


def _keep(path: pathlib.Path, entries: Entries) -> None:
    """Keep the parse; drop older versions of the same language's catalog."""
    if kept.write(path, pickle.dumps(entries, protocol=pickle.HIGHEST_PROTOCOL)):
        kept.prune(path.parent, f"{path.name.split('-', 1)[0]}-*.pickle", keep=1)


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
