"""The locale catalogs as the site reads them: what Babel says of every message, read again once edited
(under `mkdocs serve`, a translator's edit shows on the next rebuild, with no restart)."""

import os
import pathlib
import shutil

from babel.messages.pofile import read_po

from sitebuild import strings


def _locales(tmp_path: pathlib.Path) -> pathlib.Path:
    target = tmp_path / "locales"
    target.mkdir()
    shutil.copy(strings.LOCALES_DIR / "de.po", target / "de.po")
    return target


def test_the_catalog_says_what_babel_says():
    for lang in strings.LANGS:
        with (strings.LOCALES_DIR / f"{lang}.po").open("rb") as fh:
            parsed = read_po(fh, locale=lang)
        entries = strings.catalog(lang)
        messages = [m for m in parsed if m.id]
        assert len(entries) == len(messages)
        for m in messages:   # a plural message is keyed by its singular, as Babel keys it
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            assert entries.get(key, m.context) == (m.string, m.fuzzy), (lang, m.id)
        assert any(isinstance(m.id, tuple) for m in messages)


def test_a_plural_gives_its_forms_and_falls_back_whole():
    """A Plural gives the language's forms; one untranslated form sends the whole message to German."""
    from calculators.example.formula import COUNTED
    part = COUNTED["parts the KV cache is split into"]
    texts = strings.Strings()
    assert texts.get(part, "de") == ("{n} Teil, in den der KV-Cache aufgeteilt ist", "{n} Teile, in die der KV-Cache aufgeteilt ist")
    assert len(texts.get(part, "it")) == 3


def test_an_edited_catalog_is_read_again(tmp_path):
    locales = _locales(tmp_path)
    texts = strings.Strings(locales)
    assert texts.get("Accessed", "de") == "Abgerufen"
    po = locales / "de.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Abgerufen"', 'msgstr "Aufgerufen"', 1), encoding="utf-8")
    st = po.stat()
    os.utime(po, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert texts.get("Accessed", "de") == "Aufgerufen", "the same Strings reads the edited file"
