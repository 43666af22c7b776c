"""Hover explanations for glossary terms, read from each language's glossary page.

One source per language: docs/<lang>/glossary.md. Every `## ` heading is a
term, written `## {{ term("kv-cache", cap=True) }}` so that its word comes
from the language's termbase (locales/terms/<lang>.toml; a plain heading
must be a termbase term, sitebuild/checks/terms.py); the term's plural is
matched too. The first paragraph under it is the hover text shown wherever the
term appears in an article (Markdown abbreviations, shown as tooltips by
Material's content.tooltips). The hover paragraph is plain text: a macro
there would show as raw braces in a tooltip, so it is an error.
"""

from __future__ import annotations

import pathlib
import re
from functools import lru_cache

from . import termbase

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
SOURCE_LANG = "de"


class GlossaryError(ValueError):
    pass


@lru_cache(maxsize=None)
def terms(lang: str, docs: pathlib.Path = DOCS) -> dict:
    """{term: hover text} for a language (German where the page is not translated)."""
    path = docs / lang / "glossary.md"
    if not path.exists():
        path = docs / SOURCE_LANG / "glossary.md"
    out = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("## "):
            continue
        term = _heading_term(line[3:], lang if path.parent.name == lang else SOURCE_LANG, docs.parent)
        para = []
        for j in range(i + 1, len(lines)):
            text = lines[j].strip()
            if not text and para:
                break
            if text.startswith("#"):
                break
            if text:
                para.append(text)
        hover = " ".join(para)
        if not hover:
            raise GlossaryError(f"{path}:{i + 1}: glossary term {term!r} has no explanation paragraph")
        if "{{" in hover or "{%" in hover:
            raise GlossaryError(f"{path}:{i + 1}: the first paragraph of {term!r} is its hover text and must be plain text (move the figure to the next paragraph)")
        out[term] = re.sub(r"[*_`]", "", hover)
    return out


_TERM_CALL = re.compile(r"""\{\{-?\s*term\(\s*["']([^"']+)["']\s*(?:,\s*cap\s*=\s*True\s*)?\)\s*-?\}\}""")


def _heading_term(heading: str, lang: str, root: pathlib.Path) -> str:
    """The term a heading names: a term("id") macro resolved in the termbase, or the heading's text."""
    m = _TERM_CALL.search(heading)
    if m:
        word = termbase.load(root, lang).get(m.group(1)).term
        return word[:1].upper() + word[1:]
    return re.sub(r"\s*\{[^}]*\}\s*$", "", heading).strip()  # drop an attribute list {#id}


def plurals(lang: str, root: pathlib.Path = DOCS.parent) -> dict:
    """{term as headed: its plural} from the termbase, so that "KV-Caches" gets the hover of "KV-Cache"."""
    try:
        tb = termbase.load(root, lang)
    except (termbase.TermbaseError, OSError):
        return {}
    out = {}
    for t in tb.terms.values():
        if t.plural and t.plural != t.term:
            for form in (t.term, t.term[:1].upper() + t.term[1:]):
                out[form] = t.plural if form == t.term else t.plural[:1].upper() + t.plural[1:]
    return out


def variants(term: str) -> tuple:
    """The term as headed and with its first letter in the other case ("Cache KV", "cache KV")."""
    other = term[0].swapcase() + term[1:]
    return (term,) if other == term else (term, other)


def abbreviations(lang: str, markdown: str) -> str:
    """Abbreviation definitions for the glossary terms that occur in `markdown`.

    Abbreviations match case-sensitively, so a term that a sentence starts
    with, or that a language writes in lower case mid-sentence, gets its
    variant defined too.
    """
    pattern, hover = _matcher(lang)
    found = dict.fromkeys(m.group(0) for m in pattern.finditer(markdown))
    if not found:
        return ""
    return "\n\n" + "\n".join(f"*[{v}]: {hover[v]}" for v in found) + "\n"


@lru_cache(maxsize=None)
def _matcher(lang: str):
    """One compiled pattern for all spellings of a language's terms (longest first), and their hover texts."""
    plural = plurals(lang)
    hover = {v: h for t, h in terms(lang).items() for f in (t, plural.get(t)) if f for v in variants(f)}
    alternatives = "|".join(re.escape(v) for v in sorted(hover, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), hover
