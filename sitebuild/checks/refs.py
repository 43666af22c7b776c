"""Unknown and unused names: macros, figure ids, catalog entries, charts, calculators, UI strings.

Why before rendering: the macros raise KeyError when a page renders, but
then the message names neither the file nor the line. Checking every call
on the sources first gives `docs/da/decode.md:42: unknown figure id ...`
with the closest known ids. Unused catalog entries and UI strings are only
reported: they cost nothing on the page, but they are data nobody checks.
"""

from __future__ import annotations

import difflib
import inspect
from functools import lru_cache

from calculators.text import grammar, prose

from .. import termbase
from . import claim, source
from .report import ERROR, WARNING, Problem

FIGURE_MACROS = ("fig", "claim")


def _near(word: str, known) -> str:
    close = difflib.get_close_matches(word, list(known), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def _catalog_refs(cat) -> set:
    return {f"{section}.{key}" for section in ("models", "devices", "racks", "measurements", "data")
            for key in getattr(cat, section)}


@lru_cache(maxsize=None)
def _signature(fn) -> inspect.Signature:
    return inspect.signature(fn)


def check_macro(page, m, project) -> list:
    def err(code, text):
        return [Problem(page.rel, m.line, ERROR, code, text)]

    if m.error:
        return err("macro-syntax", f"{{{{ {m.source} }}}} {m.error}")
    fn = project.macros.get(m.name)
    if fn is None:
        return err("unknown-macro", f"unknown macro {m.name}(){_near(m.name, project.macros)}; "
                                    f"known: {', '.join(sorted(project.macros))}")
    try:
        bound = _signature(fn).bind(*m.args, **dict(m.kwargs))
    except TypeError as exc:
        return err("macro-arguments", f"{m.call}: {exc}; see the macro's signature in macros.py")
    a = bound.arguments
    if m.name in FIGURE_MACROS:
        fid = next(iter(a.values()), None)
        if fid not in project.figures:
            return err("unknown-figure", f"unknown figure id {fid!r}{_near(str(fid), project.figures)}: "
                                         f"figures are defined in calculators/article/figures.py")
        problem = _grammar_arguments(page, dict(m.kwargs), project.root, project.figures[fid])
        if problem:
            return err("macro-arguments", f"{m.call}: {problem}")
        if m.name == "claim":
            kw = {k: v for k, v in list(a.items())[1:] if k not in source.LANGUAGE_KWARGS}
            problem = claim.evaluate(fid, project.figures, **kw)
            if problem:
                return err("claim", problem)
    elif m.name == "src":
        ref = next(iter(a.values()), None)
        known = _catalog_refs(project.catalog)
        if ref not in known:
            return err("unknown-source", f"unknown catalog entry {ref!r}{_near(str(ref), known)}: "
                                         f"entries are in calculators/data/catalog.toml (section.key)")
    elif m.name == "chart" and next(iter(a.values()), None) not in project.charts:
        name = next(iter(a.values()), None)
        return err("unknown-chart", f"unknown chart {name!r}; known: {', '.join(project.charts)}")
    elif m.name == "calculator" and next(iter(a.values()), None) not in project.calculators:
        name = next(iter(a.values()), None)
        return err("unknown-calculator", f"unknown calculator {name!r}; known: {', '.join(project.calculators)}")
    elif m.name == "term":
        problem = _term_id(page.lang, next(iter(a.values()), None), project.root)
        if problem:
            return err("unknown-term", problem)
    elif m.name == "t":
        values = list(a.values())
        key = (values[0], values[1] if len(values) > 1 else None)
        if key not in project.source_keys:
            where = f" (context {key[1]!r})" if key[1] else ""
            return err("unknown-string", f"UI string {key[0]!r}{where} is not in locales/de.po: "
                                         f"run `make messages` (it collects t() calls from the German pages)")
    return []


def _term_id(lang: str, tid, root) -> str | None:
    try:
        tb = termbase.load(root, lang)
    except (termbase.TermbaseError, OSError):
        return None        # the termbase's own problems are reported by sitebuild/checks/terms.py
    if tid not in tb.terms:
        return (f"unknown term id {tid!r}{_near(str(tid), tb.terms)}: terms are in "
                f"locales/terms/{lang}.toml (the same ids in every language)")
    return None


def _grammar_arguments(page, kwargs: dict, root, figure) -> str | None:
    """fig(..., art=...) is Italian and names a known form; noun= names a termbase term; style= is a prose
    form the figure has (calculators/text/prose.py)."""
    art, noun, style = kwargs.get("art"), kwargs.get("noun"), kwargs.get("style")
    if style is not None:
        if style not in prose.STYLES:
            return f"style={style!r}: one of {', '.join(prose.STYLES)}"
        try:
            figure.format(page.lang, style)
        except ValueError as exc:
            return str(exc)
    if art is not None:
        if page.lang != "it":
            return "art= is for Italian pages (articles that agree with the number); write the words in the page"
        if str(art).lower() not in grammar.ARTICLES:
            return (f"art={art!r}: name the form used before a consonant, one of {', '.join(grammar.ARTICLES)} "
                    f"(capitalised at the start of a sentence)")
    if noun is not None:
        return _term_id(page.lang, noun, root)
    return None


def check_pages(project) -> list:
    problems = []
    for page in project.all_pages():
        for line, message in page.errors:
            problems.append(Problem(page.rel, line, ERROR, "markdown", message))
        for m in page.macros:
            problems += check_macro(page, m, project)
    return problems


def _catalog_lines(root) -> dict:
    """{section.key: line} of the catalog's table headers, to point at unused entries."""
    path = root / "calculators" / "data" / "catalog.toml"
    out = {}
    if path.exists():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            s = line.strip()
            if s.startswith("[") and not s.startswith("[["):
                out[s.strip("[]").replace('"', "")] = n
    return out


def unused_catalog(project) -> list:
    """Entries that no figure reads, no page cites and no calculator offers."""
    used = set()
    for f in project.figures.values():
        used.update(f.inputs)
    for lang_pages in project.pages.values():
        for page in lang_pages.values():
            used.update(m.args[0] for m in page.macros if m.name == "src" and m.args)
    cat = project.catalog
    used.update(f"models.{k}" for k, m in cat.models.items() if m.arch is not None)   # calculator choices
    used.update(f"devices.{k}" for k in cat.devices)
    for key, ms in cat.measurements.items():
        if f"measurements.{key}" in used:      # a used measurement uses its model
            used.add(f"models.{ms.model}")
    lines = _catalog_lines(project.root)
    return [Problem("calculators/data/catalog.toml", lines.get(ref, 0), WARNING, "unused-entry",
                    f"catalog entry {ref} is read by no figure, cited by no page and offered by no calculator: "
                    f"use it or remove it")
            for ref in sorted(_catalog_refs(cat) - used)]


def locale_usage(project) -> list:
    """UI strings the code uses that locales/de.po does not define: unknown keys, as in a page's t() call.

    Rendering would stop on them with a KeyError and no line (or, for
    strings only the browser shows, show the English msgid); here they
    are errors that point at the code and say what to run.
    """
    found = project.code_strings
    if found is None:
        return []
    problems = []
    for key, info in sorted(found.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if key not in project.source_keys:
            path, line = (info["locations"] or [("locales/de.po", 0)])[0]
            where = f" (context {key[1]!r})" if key[1] else ""
            problems.append(Problem(path, line, ERROR, "unknown-string",
                                    f"UI string {key[0]!r}{where} is not in locales/de.po: run `make messages`, "
                                    f"then translate it in locales/*.po"))
    return problems
