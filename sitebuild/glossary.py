"""Hover explanations for glossary terms, read from each language's glossary page.

One source per language: docs/<lang>/glossary.md. Every `## ` heading is a
term, written `## {{ term("kv-cache", cap=True) }}` so that its word comes
from the language's termbase (locales/terms/<lang>.toml; a plain heading
must be a termbase term, sitebuild/checks/terms.py); the term's plural is
matched too. The first paragraph under it is the hover text. A term is marked
on its first use in each section of a page (not at every use: twenty dotted
underlines per paragraph read as noise), as a focusable <abbr>; the page's
explanation script (docs/assets/explain.js) shows the text on click, tap or
keyboard, and without the script its title shows on hover. The hover
paragraph is plain text: a macro there would show as raw braces in a
tooltip, so it is an error.
"""

from __future__ import annotations

import pathlib
import re
from functools import lru_cache
from html import escape

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


# Parts of a Markdown line that are not running text: inline code, links and
# images, attribute lists, and HTML elements whose content must not be touched
# (links, citations, figures, code, existing abbreviations), then any other tag.
_PROTECTED = re.compile(
    r"`[^`]*`"
    r"|!?\[[^\]]*\]\([^)]*\)"
    r"|\{[:#.][^}]*\}"
    r"|<(a|abbr|code|sup|span|svg|button|kbd)\b[^>]*>.*?</\1>"
    r"|<[^>]+>", re.S)
# Lines that are not prose: headings, tables, HTML blocks, abbreviation and
# footnote definitions, admonition titles, fences.
_NOT_PROSE = ("#", "|", "<", "*[", "[^", "!!!", "???", "```", "~~~")


def mark_terms(lang: str, markdown: str) -> str:
    """`markdown` with each glossary term wrapped as an explained <abbr> at its first use per `##` section."""
    pattern, hover = _matcher(lang)
    out, seen, fenced = [], set(), False
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        if stripped.startswith("## "):
            seen = set()
        if fenced or not stripped or stripped.startswith(_NOT_PROSE) or line.startswith("    "):
            out.append(line)
            continue
        out.append(_mark_line(line, pattern, hover, seen))
    return "\n".join(out)


def _mark_line(line: str, pattern, hover: dict, seen: set) -> str:
    """Mark the first not-yet-seen term in each stretch of running text of one line."""
    pieces, last = [], 0
    for m in _PROTECTED.finditer(line):
        pieces.append((line[last:m.start()], True))
        pieces.append((m.group(0), False))
        last = m.end()
    pieces.append((line[last:], True))
    return "".join(_mark_text(text, pattern, hover, seen) if prose else text for text, prose in pieces)


def _mark_text(text: str, pattern, hover: dict, seen: set) -> str:
    def wrap(m):
        term = _canonical(m.group(0))
        if term in seen:
            return m.group(0)
        seen.add(term)
        title = escape(hover[m.group(0)], quote=True)
        return f'<abbr class="term" title="{title}" tabindex="0">{m.group(0)}</abbr>'
    return pattern.sub(wrap, text)


def _canonical(shown: str) -> str:
    """One key per term for both spellings ("KV cache" and "kV cache" count as one)."""
    return shown[0].lower() + shown[1:]


@lru_cache(maxsize=None)
def _matcher(lang: str):
    """One compiled pattern for all spellings of a language's terms (longest first), and their hover texts."""
    plural = plurals(lang)
    hover = {v: h for t, h in terms(lang).items() for f in (t, plural.get(t)) if f for v in variants(f)}
    alternatives = "|".join(re.escape(v) for v in sorted(hover, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), hover
