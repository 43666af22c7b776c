"""The parsed locale catalogs kept in .cache/po/: a changed .po file is parsed again, a damaged kept
copy is ignored, and what is kept says what Babel says of every message."""

import pathlib
import shutil

from babel.messages.pofile import read_po

from sitebuild import strings


def _locales(tmp_path: pathlib.Path) -> pathlib.Path:
    target = tmp_path / "locales"
    target.mkdir()
    shutil.copy(strings.LOCALES_DIR / "de.po", target / "de.po")
    return target


def test_kept_catalog_says_what_babel_says():
    for lang in strings.LANGS:
        with (strings.LOCALES_DIR / f"{lang}.po").open("rb") as fh:
            parsed = read_po(fh, locale=lang)
        kept = strings.catalog(lang)
        messages = [m for m in parsed if m.id]
        assert len(kept) == len(messages)
        for m in messages:
            assert kept.get(m.id, m.context) == (m.string, m.fuzzy), (lang, m.id)


def test_an_edited_catalog_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(strings, "CACHE_DIR", tmp_path / "cache")
    locales = _locales(tmp_path)
    before = strings.catalog("de", locales).get("Accessed")
    assert before is not None and before.string == "Abgerufen"
    po = locales / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Abgerufen"', 'msgstr "Aufgerufen"', 1), encoding="utf-8")
    strings.catalog.cache_clear()
    assert strings.catalog("de", locales).get("Accessed").string == "Aufgerufen"
    assert len(list((tmp_path / "cache").glob("de-*.pickle"))) == 1, "the older parse of de.po is dropped"


def test_a_damaged_kept_catalog_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setattr(strings, "CACHE_DIR", tmp_path / "cache")
    locales = _locales(tmp_path)
    strings.catalog("de", locales)
    (kept,) = (tmp_path / "cache").glob("de-*.pickle")
    kept.write_bytes(b"not a pickle")
    strings.catalog.cache_clear()
    assert strings.catalog("de", locales).get("Accessed").string == "Abgerufen"
