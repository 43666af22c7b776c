"""What the reader-text lints know about each language, read once from the project's own files.

- the stoplist and its exceptions: sitebuild/checks/prose_rules.toml;
- names: sitebuild/allowed_names.txt (names with digits), the catalog's model and
  device names (a trailing "(…)" of a device name is a descriptor, not a name),
  and the rules' [allowed] phrases;
- published titles: each `source` of calculators/data/catalog.toml and
  serving.toml, without what the site writes around a title: a parenthesized
  group ("(SambaNova blog, 10 September 2024)") and a tail after a comma that
  starts with a small letter (", joint press release, 2026-03-13"). What is left
  out stays subject to the lints, so a site-written descriptor in English is found;
- chosen terms: every term and plural of locales/terms/<lang>.toml; the English
  terms (en.toml) of concepts the language writes otherwise are English words there;
- nouns and their forms after a count: the termbase's term/plural pairs and the
  forms of the plural messages (msgid_plural entries) of locales/<lang>.po;
- the word for a raw fraction: prose_rules.toml [fraction].
"""

from __future__ import annotations

import pathlib
import re
import tomllib

from .. import termbase
from . import numbers, po
from .prose import Context, counted_pattern, trie, words_pattern

RULES = "sitebuild/checks/prose_rules.toml"
CATALOG_FILES = ("calculators/data/catalog.toml", "calculators/data/serving.toml", "calculators/article/measurements.toml")


def rules(root: pathlib.Path) -> dict:
    return tomllib.loads((pathlib.Path(root) / RULES).read_text(encoding="utf-8"))


def _literal(phrases, flags=0) -> re.Pattern | None:
    """One pattern for a set of literal phrases, longest first, whole words, any run of spaces between words."""
    alts = {" ".join(p.split()) for p in phrases if p and p.strip()}
    if not alts:
        return None
    return re.compile(rf"(?<!\w)(?:{trie(alts)})(?!\w)", flags)   # also inside a compound ("mixture of experts-model")


def _sources(data, fields=("source",)) -> list:
    """Every value of one of `fields` ("source", "publisher") in a parsed data file."""
    out = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in fields and isinstance(value, str):
                out.append(value)
            else:
                out += _sources(value, fields)
    elif isinstance(data, list):
        for value in data:
            out += _sources(value, fields)
    return out


def title_part(source: str) -> str:
    """The published title in a catalog `source`: without parenthesized groups and a lowercase tail after a comma."""
    text = re.sub(r"\s*\([^()]*\)", "", source)
    text = re.split(r",\s+(?=[a-z])", text)[0]
    return text.strip()


def _catalog_names(root: pathlib.Path) -> tuple:
    """(names, titles) from the catalog files."""
    names, titles = set(), set()
    for rel in CATALOG_FILES:
        path = root / rel
        if not path.exists():
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for source in _sources(data):     # the title as written, and without what a site may write around it
            titles.update(t for t in (source.strip(), title_part(source)) if t)
        names.update(_sources(data, ("publisher",)))      # who published a source: a name
        for section in ("models", "devices"):
            for entry in (data.get(section) or {}).values():
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    names.add(re.sub(r"\s*\([^()]*\)$", "", entry["name"]))
    return tuple(sorted(names)), tuple(sorted(titles))


def _plural_forms(entries: list, lang: str, pairs: list) -> None:
    """Add (one, other) word pairs from the plural messages of a locale file: the first word after {n} that differs."""
    for e in entries:
        if e.obsolete or not e.plural:
            continue
        forms = [e.msgid, e.plural] if lang == "en" else [e.strings.get(i, "") for i in sorted(e.strings)]
        if not all(forms):
            continue
        # "one" against "other" (the last form): Italian's "many" ("{n} mld di parametri") adds words, not a form
        one, other = (f.split("{n}", 1)[1].split() if "{n}" in f else [] for f in (forms[0], forms[-1]))
        for a, b in zip(one, other):
            a, b = a.strip(",.;:()"), b.strip(",.;:()")
            if a != b:
                pairs.append((a, b))
                break


def _translation(entries: list, lang: str, msgid: str, msgctxt: str | None) -> str:
    if lang == "en":
        return msgid
    for e in entries:
        if e.msgid == msgid and e.context == msgctxt and e.strings.get(0):
            return e.strings[0]
    return ""


def _termbase(root: pathlib.Path, lang: str) -> termbase.Termbase:
    """The language's termbase, or an empty one where it cannot be read (the termbase check reports why)."""
    try:
        return termbase.load(root, lang)
    except termbase.TermbaseError:
        return termbase.Termbase(lang, "", {})


def _capitalized(forms) -> list:
    return list(forms) + [f[:1].upper() + f[1:] for f in forms]


_MEMO: dict = {}   # {(root, lang): (inputs' modification times, Context)}: in memory, one build (or `mkdocs serve`) long


def _stamp(root: pathlib.Path, lang: str) -> tuple:
    files = [RULES, numbers.NAMES_FILE, *CATALOG_FILES, f"locales/{lang}.po",
             f"{termbase.TERMS_DIR}/{lang}.toml", f"{termbase.TERMS_DIR}/en.toml"]
    return tuple((root / f).stat().st_mtime_ns if (root / f).exists() else 0 for f in files)


def context(root: pathlib.Path, lang: str) -> Context:
    """The lints' context for `lang`, read from the project at `root` (again only when one of its files changed:
    the build hook reads it before the checks' process starts, which then has it too)."""
    root = pathlib.Path(root).resolve()
    key, stamp = (str(root), lang), _stamp(root, lang)
    if key not in _MEMO or _MEMO[key][0] != stamp:
        _MEMO[key] = (stamp, _context(root, lang))
    return _MEMO[key][1]


def _context(root: pathlib.Path, lang: str) -> Context:
    r = rules(root)
    english = r.get("english", {})
    allowed = r.get("allowed", {})
    names, titles = _catalog_names(root)
    phrases_ok = list(allowed.get("phrases", []))
    numbered = numbers.load_names(root) + list(names) + phrases_ok
    tb = _termbase(root, lang)
    chosen = [f for t in tb.terms.values() for f in t.forms()]
    words = set(english.get("words", [])) - set(english.get("words_of", {}).get(lang, []))
    phrases = list(english.get("phrases", []))
    if lang != "en":
        en = _termbase(root, "en")
        keep = set(english.get("terms", {}).get(lang, []))
        for tid, t in en.terms.items():
            mine = tb.terms.get(tid)
            if mine is None or tid in termbase.SYMBOL_TERMS:
                continue
            forms = {f.lower() for f in mine.forms()}
            for f in t.forms():
                if f.lower() in forms or f in keep or any(f.lower() in c.lower() for c in chosen):
                    continue
                if " " in f:
                    phrases.append(f)
                else:
                    words.add(f)
    path = root / "locales" / f"{lang}.po"
    entries = po.read(path)[0] if path.exists() else []
    pairs: list = []
    for t in tb.terms.values():      # units keep one form after a number ("2 Byte"): not counted nouns
        if t.plural and t.plural != t.term and " " not in t.term and t.id not in termbase.SYMBOL_TERMS:
            pairs.append((t.term, t.plural))
    _plural_forms(entries, lang, pairs)
    skip = set(r.get("plural", {}).get(lang, []))
    ones, others = {a for a, _ in pairs}, {b for _, b in pairs}
    one_only = {a: b for a, b in pairs if a not in others and a not in skip}
    other_only = {b: a for a, b in pairs if b not in ones and b not in skip}
    fraction = r.get("fraction", {}).get(lang)
    masked = _literal(_capitalized(chosen) + list(names) + list(titles) + phrases_ok + numbered)
    patterns = [p for p in allowed.get("patterns", [])]
    if patterns:
        masked = re.compile("|".join([masked.pattern] + patterns)) if masked else re.compile("|".join(patterns))
    intro = english.get("introduced", {}).get(lang, [])
    return Context(
        lang=lang,
        masked=masked,
        numbered_names=re.compile("|".join([numbers.names_pattern(numbered).pattern] + patterns)),
        words=words_pattern(words, lang not in english.get("lowercase_only", []),
                            english.get("capitalized_ok", {}).get(lang, ())),
        phrases=_literal(_capitalized(phrases)),
        introduced=re.compile("(?:" + "|".join(re.escape(i) for i in intro) + r")[^,;()\n]*") if intro else None,
        counted=counted_pattern(set(one_only) | set(other_only)),
        one_only=one_only,
        other_only=other_only,
        fraction_words=(fraction,) if fraction else (),
    )


def contexts(root: pathlib.Path, langs) -> dict:
    return {lang: context(root, lang) for lang in langs}
