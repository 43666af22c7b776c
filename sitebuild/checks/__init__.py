"""The build's fact and translation checks, run on the Markdown sources of a project root.

Why here and not in a MkDocs plugin: the checks read files and return
problems; hooks/checks.py (the adapter) runs them once per build and
stops the build on an error, `tools/translations.py` prints them as a
report, and the tests run them on a copy of the project with a fault
injected. If the site generator changes, only the adapter moves.

What is checked (module):
- numbers: no digit or number word in prose that a macro did not write;
- refs: every macro, figure id, catalog entry, chart, calculator and UI
  string exists; claims hold; unused catalog entries and strings (warnings);
- parity: each translation has the German page's figures, headings, lists,
  links, charts and calculators, section by section; counts match lists;
- po: the locale files (syntax, duplicates, placeholders, markup; missing
  and fuzzy entries as warnings);
- formulas: every formula object gives its figure's value (what the
  popover next to a number shows must add up);
- terms: the termbase files (locales/terms/) and the terms they forbid in
  pages, locale files and chart labels; US spelling in English;
- staleness: stale, unreviewed and missing translations (against the German version each records);
- reader: the text lints of prose.py on every msgstr (the rendered pages get them in
  the build, hooks/prose.py; every calculator text in tests/test_prose.py); a verdict
  the fact-check legend does not define; a figure a refuted claim rests on, stated
  without a link to the fact check.
"""

from __future__ import annotations

import pathlib

from ..strings import SOURCE_LANG
from . import formulas, numbers, parity, po, reader, refs, staleness, terms
from .project import Project
from .report import ERROR, WARNING, Problem, errors, lines

__all__ = ["ERROR", "WARNING", "Problem", "Project", "errors", "lines", "run"]


def _suggester(project):
    """Names figures whose formatted value contains a hand-typed number, as a hint."""
    cache = {}

    def suggest(token: str, lang: str) -> str:
        number = token.rstrip("%×x").strip()
        if len(number) < 1 or not any(ch.isdigit() for ch in number):
            return ""
        if lang not in cache:
            cache[lang] = [(f.id, f.format(lang)) for f in project.figures.values()]
        hits = [fid for fid, text in cache[lang] if text.split("\u00a0")[0] == number][:3]
        return f"; figures that print {number}: {', '.join(hits)}" if hits else ""

    return suggest


def page_checks(project) -> list:
    out = []
    suggest = _suggester(project)
    for page in project.all_pages():
        out += numbers.check_page(page, project.names, suggest)
        out += parity.counted_lists(page, project.figures, project.pages[page.lang])
    out += refs.check_pages(project)
    return out


def translation_checks(project) -> list:
    out = []
    german = project.pages[SOURCE_LANG]
    for lang in project.langs:
        if lang == SOURCE_LANG:
            continue
        for name, tr in project.pages[lang].items():
            src = german.get(name)
            if src is None:
                out.append(Problem(tr.rel, 1, ERROR, "orphan",
                                   f"{tr.rel} has no German source docs/{SOURCE_LANG}/{name}: German is the source of every page; "
                                   f"write the German page first or remove this file"))
                continue
            if tr.is_placeholder and not src.is_placeholder:
                continue    # not translated yet: reported as missing, nothing to compare
            out += parity.figures(src, tr)
            out += parity.headings(src, tr)
            out += parity.lists(src, tr)
            out += parity.links_and_blocks(src, tr)
    return out


def locale_checks(project) -> tuple:
    """Problems of the four locale files, and per-file counts for the status page."""
    used = None
    if project.code_strings is not None:
        used = set(project.code_strings)
        for lang_pages in project.pages.values():
            for page in lang_pages.values():
                used.update((m.args[0], m.args[1] if len(m.args) > 1 else None) for m in page.macros if m.name == "t" and m.args)
    out, counts = [], {}
    for lang in (SOURCE_LANG,) + tuple(l for l in project.langs if l != SOURCE_LANG):
        found, entries = po.check_file(project.root, lang, None if lang == SOURCE_LANG else project.source_keys, used,
                                       project.locale_files.get(lang))
        out += found
        c = {"translated": sum(1 for e in entries if e.translated and not e.fuzzy)}
        for p in found:
            if p.code in ("missing", "fuzzy", "extra", "unused"):
                c[p.code] = c.get(p.code, 0) + 1
        counts[lang] = c
    return out, counts


def run(root, langs=None, macros: dict | None = None, project=None) -> list:
    """Every check on the project at `root` (languages `langs`, German always as the source); problems sorted by file."""
    return run_with_statuses(project or Project(pathlib.Path(root), langs, macros))[0]


def run_with_statuses(project) -> tuple:
    """(problems sorted by file, translation statuses, counts per locale file): the build's notices and its
    status page show what the checks computed."""
    found = page_checks(project) + translation_checks(project)
    locale_found, counts = locale_checks(project)
    found += locale_found
    found += refs.unused_catalog(project) + refs.locale_usage(project)
    found += formulas.check(project.figures, project.root)
    found += terms.check(project)
    found += reader.check(project)
    statuses = staleness.statuses(project.root, project.langs, project.pages)
    found += staleness.problems(statuses)
    return sorted(set(found), key=lambda p: (p.path, p.line, p.severity, p.code, p.message)), statuses, counts
