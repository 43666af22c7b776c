"""Collect every UI string the site prints and bring locales/<lang>.po up to date.

Run with `make messages` after adding or changing a UI string. Sources:
- string literals in tr("..."), t("...") and N_("...") calls in the Python
  code (Babel's extractor, with `# TRANSLATORS:` comments carried over);
- {{ t("...") }} calls in the German pages;
- data that the pages print in words: catalog notes and descriptions,
  confidence levels, attention kinds, claim texts, claim notes, verdicts.
Existing translations are kept; new strings arrive untranslated (shown in
German on the page until translated); strings no longer used are dropped and
listed.
"""

from __future__ import annotations

import pathlib
import re
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calculators.arch import architecture  # noqa: E402
from calculators.data import catalog as cat_mod  # noqa: E402
from calculators.data import serving  # noqa: E402
from calculators.data import sources  # noqa: E402
from calculators.article import claims  # noqa: E402
from calculators.article import figures  # noqa: E402
from sitebuild.tables import DATUM_COUNTS  # noqa: E402

LANGS = ("de", "en", "da", "it")
KEYWORDS = {"tr": {1: None, 2: (1, (2, "c"))}, "t": {1: None, 2: (1, (2, "c"))}, "N_": {1: None, 2: (1, (2, "c"))},
            "P_": {2: (1, 2), 3: (1, 2, (3, "c"))}}   # N_(msgid[, context]), P_(singular, plural[, context]): calculators/text/marks.py
PY_SOURCES = ("macros.py", "calculators/**/*.py", "sitebuild/*.py")
# The running example marks its figures' words and its formula terms' labels with W(...) and L(...)
# (calculators/example/declare.py): N_ with the msgctxt "formula" and "term".
CONTEXT_MARKS = {"W": "formula", "L": "term"}
CONTEXT_MARK_SOURCES = ("calculators/example/*.py",)
PAGE_CALL = re.compile(r"""\bt\(\s*"([^"]+)"\s*(?:,\s*"([^"]+)")?\s*\)""")


def collect() -> dict:
    """{(msgid, context): {"locations": [...], "comments": [...]}} for every UI string."""
    found: dict = {}

    def add(msgid, context, where, comment=None):
        """msgid: a string, or (singular, plural) for a message with plural forms (keyed by the singular)."""
        plural = msgid[1] if isinstance(msgid, tuple) else None
        msgid = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = found.setdefault((msgid, context), {"locations": [], "comments": [], "plural": None})
        entry["plural"] = entry["plural"] or plural
        entry["locations"].append(where)
        if comment and comment not in entry["comments"]:
            entry["comments"].append(comment)

    for pattern in PY_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            rel = path.relative_to(ROOT).as_posix()
            for lineno, msg, comments, context in extract_from_file(
                    "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
                if msg and isinstance(msg, (str, tuple)):
                    add(msg, context, (rel, lineno), " ".join(comments) or None)
    for pattern in CONTEXT_MARK_SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            rel = path.relative_to(ROOT).as_posix()
            for keyword, context in CONTEXT_MARKS.items():
                for lineno, msg, comments, _ in extract_from_file("python", str(path), keywords={keyword: None},
                                                                  comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
                    if msg and isinstance(msg, str):
                        add(msg, context, (rel, lineno), " ".join(comments) or None)
    for path in sorted((ROOT / "docs" / "de").glob("*.md")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in PAGE_CALL.finditer(line):
                add(m.group(1), m.group(2), (path.relative_to(ROOT).as_posix(), lineno))
    _collect_data(add)
    return found


def _collect_data(add) -> None:
    cat = cat_mod.load()
    where = ("calculators/data/catalog.toml", 0)
    for section in ("models", "devices", "racks", "measurements", "data"):
        for key, rec in getattr(cat, section).items():
            if rec.src.note:
                add(rec.src.note, "catalog-note", where, f"Note on the catalog entry {section}.{key} (sources page).")
    for key, d in cat.data.items():
        add(d.what, "datum", where, f"What the catalog datum data.{key} is (sources page).")
        if d.unit in DATUM_COUNTS:   # the other units print inside the value ("40–50 kW", "20–40 %")
            add(d.unit, "datum-unit", where, "What a catalog datum counts, after its number (sources page): '128 chips'.")
    for data, path, named in ((cat, "catalog.toml", cat_mod.WORDED_NAMES), (serving.load(), "serving.toml", serving.WORDED_NAMES)):
        for section, context in named.items():
            for key, rec in getattr(data, section).items():
                add(rec.name, context, (f"calculators/data/{path}", 0),
                    f"Name of {section}.{key} (sources page, explanations); keep product and company names.")
    for key, ms in cat.measurements.items():
        add(ms.who, "measured-by", where, f"Who measured measurements.{key}, on what (sources page); keep product and company names.")
    for key, ms in serving.load().measurements.items():
        add(ms.who, "measured-by", ("calculators/data/serving.toml", 0),
            f"Who measured measurements.{key} in serving.toml, on what (measurements table); keep product and company names.")
    for section in ("models", "devices", "racks", "measurements", "data", "engines", "interconnects"):
        for key, rec in getattr(cat, section).items():
            src = getattr(rec, "src", None)
            if src is not None and src.kind == "this-site":
                add(src.source, "site-source", where, f"This site named as the source of {section}.{key}: our own words.")
    for key, fit in serving.load().fits.items():
        if fit.src.kind == "this-site":
            add(fit.src.source, "site-source", ("calculators/data/serving.toml", 0), f"This site named as the source of fits.{key}.")
    for kind in sources.SOURCE_KINDS:
        add(kind, "source-kind", where, "What kind of document a source is (datasheet, paper, ...), shown after its title.")
    for section in ("models", "devices", "racks", "measurements", "data"):
        for key, rec in getattr(cat, section).items():
            if rec.src.url_reason:
                add(rec.src.url_reason, "url-reason", where, f"Why the source of {section}.{key} has no link (sources page).")
    for level in sources.CONFIDENCE:
        add(level, "confidence", where, "Confidence of a sourced datum: high = read in the primary source, medium = secondary or inferred, low = assumption.")
    for kind in architecture.ATTENTION_KINDS:
        add(kind, "attention", where, "Attention design of a model; translate as a short noun phrase.")
    for c in claims.CLAIMS:
        add(c.text, "claim", ("calculators/article/claims.py", 0), f"Claim {c.n} as commonly made; keep its numbers exactly as they are.")
        if c.note:
            add(c.note, "claim-note", ("calculators/article/claims.py", 0), f"Why claim {c.n} gets its verdict.")
    for fig in figures.registry().values():
        add(fig.words, "formula", (fig.origin[0], 0),
            "How a figure is computed (sources page). Keep ×, ÷, −, model and unit names as they are.")
    for m in cat.models.values():
        for g in m.weights:
            add(g.group, "weight-group", where, "Name of a group of model weights (all, experts, attention, embeddings).")
    from calculators.example.formula import COUNTED
    for fig in figures.registry().values():
        for term in (fig.expression.terms if fig.expression else ()):
            if term.label and term.label not in COUNTED:    # counted labels are P_ messages in formula.py
                add(term.label, "term", (fig.origin[0], 0),
                    "What a number in a formula is, shown after it (e.g. '3.35 TB/s HBM bandwidth').")
    for v in claims.VERDICTS:
        add(v, "verdict", ("calculators/article/claims.py", 0), "Verdict of the fact check.")


def update(found: dict, locales: pathlib.Path = ROOT / "locales") -> dict:
    """Rewrite each .po with every collected string; returns {lang: dropped msgids}."""
    dropped = {}
    for lang in LANGS:
        path = locales / f"{lang}.po"
        old = None
        if path.exists():
            with path.open("rb") as fh:
                old = read_po(fh, locale=lang)
        # The header's date stays that of the file's creation: a run that changes no string changes no line.
        new = Catalog(locale=lang, project="decode-memory-bound site", fuzzy=False,
                      creation_date=old.creation_date if old else None)
        for (msgid, context), info in sorted(found.items(), key=lambda kv: (kv[0][1] or "", kv[0][0])):
            prev = old.get(msgid, context=context) if old else None
            plural = info.get("plural")
            string = prev.string if prev else ""
            if plural:    # msgid and msgid_plural; a form per CLDR category of the language (Italian: one, many, other)
                msgid = (msgid, plural)
                string = string if isinstance(string, tuple) and len(string) == new.num_plurals else ("",) * new.num_plurals
            elif isinstance(string, tuple):
                string = ""
            msg = new.add(msgid, string, locations=info["locations"], auto_comments=info["comments"],
                          user_comments=prev.user_comments if prev else (), context=context,
                          flags=prev.flags if prev else ())
            # Our placeholders are {name}; Babel guesses python-format from a "%" in text such as
            # "95% fewer", and GNU msgfmt -c would then reject natural translations.
            msg.flags.discard("python-format")
        singular = lambda m: m.id[0] if isinstance(m.id, tuple) else m.id  # noqa: E731 - a plural is keyed by it
        dropped[lang] = sorted(singular(m) for m in old if m.id and (singular(m), m.context) not in found) if old else []
        with path.open("wb") as fh:
            write_po(fh, new, width=0, omit_header=False, sort_output=False, include_lineno=False)
    return dropped


def main() -> int:
    found = collect()
    dropped = update(found)
    print(f"{len(found)} UI strings written to locales/{{{','.join(LANGS)}}}.po")
    for lang, ids in dropped.items():
        for msgid in ids:
            print(f"locales/{lang}.po: dropped unused string {msgid!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
