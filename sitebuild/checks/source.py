"""Markdown pages as the checks see them: prose, macro calls, headings, lists, links, sections.

Why a reader of our own instead of MkDocs' parser: the checks must run on the
sources, before and without MkDocs (the adapter is all that moves if the
stack changes), and they must report file and line. It understands the
subset the writing rules allow: front matter, ATX headings, lists, links,
admonitions, fenced code, footnotes, Jinja macro calls.

`Page.prose` is the page text with everything that is not prose replaced by
spaces (front matter, code, inline code, URLs, link targets, macro calls,
HTML tags and comments, attribute lists, list numbers); it has the same
length and line breaks as the file, so an offset in it is a line and
column in the file.
"""

from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass, field
from functools import lru_cache

import yaml

DOCS = "docs"
# Arguments of fig()/claim() that only shape the words around the number in one language
# (calculators/text/grammar.py): not part of what a translation must match.
LANGUAGE_KWARGS = ("art", "noun", "style", "form", "cap")   # an article, a counted noun, a running-text form, a name's case


@dataclass(frozen=True)
class Macro:
    """One `{{ ... }}`: a call with literal arguments, or why it is not one."""

    name: str | None
    args: tuple
    kwargs: tuple          # ((key, value), ...) in source order
    line: int
    source: str            # the text between the braces, stripped
    error: str | None = None

    @property
    def call(self) -> str:
        """Canonical text of the call, the same however it was spaced or quoted."""
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"{self.name}({', '.join(parts)})" if self.name else self.source

    @property
    def core_call(self) -> str:
        """The call without the language-only arguments (art=, noun=, form=, cap=): what every language must share."""
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs if k not in LANGUAGE_KWARGS]
        return f"{self.name}({', '.join(parts)})" if self.name else self.source


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class ListBlock:
    line: int
    items: int
    indent: int


@dataclass(frozen=True)
class Link:
    target: str
    line: int


@dataclass
class Section:
    """A part of a page: the part before the first `##` heading, then one per `##` heading."""

    index: int
    heading: Heading | None
    first_line: int
    last_line: int

    def label(self) -> str:
        return f"'{self.heading.text}'" if self.heading else "the part before the first ## heading"


@dataclass
class Page:
    rel: str               # docs/<lang>/<name>, POSIX
    lang: str
    name: str              # path inside the language folder: decode.md
    text: str
    meta: dict
    meta_line_count: int   # lines taken by front matter (0 without)
    prose: str
    macros: list = field(default_factory=list)
    headings: list = field(default_factory=list)
    lists: list = field(default_factory=list)
    links: list = field(default_factory=list)
    code_blocks: int = 0
    sections: list = field(default_factory=list)
    errors: list = field(default_factory=list)   # (line, message) the reader could not make sense of

    def section_of(self, line: int) -> Section:
        for s in reversed(self.sections):
            if line >= s.first_line:
                return s
        return self.sections[0]

    @property
    def is_placeholder(self) -> bool:
        """A page holding nothing but its title: a slot for a translation not written yet."""
        body = [ln for ln in self.text.splitlines()[self.meta_line_count:] if ln.strip()]
        return len(body) <= 1 and all(ln.lstrip().startswith("# ") for ln in body)


# ------------------------------------------------------------------ masking

def _blank(chars: list, start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


FRONT_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)
JINJA = re.compile(r"\{\{(.*?)\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
INLINE_CODE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
FOOTNOTE_DEF = re.compile(r"^[ \t]*\[\^[^\]\n]+\]:", re.M)
REF_DEF = re.compile(r"^[ ]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*\S.*$", re.M)
INLINE_LINK = re.compile(r"\]\(\s*(<[^>\n]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)")
AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^>\s]*)>", re.I)
BARE_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>)\]]+", re.I)
HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
ATTR_LIST = re.compile(r"\{\s*[:#.][^{}\n]*\}")
FOOTNOTE_REF = re.compile(r"\[\^[^\]\n]+\]")
ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
ORDERED_MARK = re.compile(r"^([ \t]*)(\d+)(?=[.)][ \t])", re.M)

HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
ITEM = re.compile(r"^([ \t]*)([-*+]|\d+[.)])[ \t]+\S")
RULE = re.compile(r"^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$")


def _front_matter(text: str, chars: list, page: Page) -> None:
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return
    end = FRONT_END.search(text, 4)
    if not end:
        page.errors.append((1, "front matter starts with --- but never ends: close it with a line ---"))
        return
    block_end = text.find("\n", end.end())
    block_end = len(text) if block_end < 0 else block_end + 1
    try:
        meta = yaml.safe_load(text[4:end.start()]) or {}
        if not isinstance(meta, dict):
            raise yaml.YAMLError("not a mapping")
        page.meta = meta
    except yaml.YAMLError as exc:
        page.errors.append((1, f"front matter is not valid YAML ({str(exc).splitlines()[0]}): fix it or run `make reviewed PAGE={page.rel}`"))
    page.meta_line_count = text.count("\n", 0, block_end)
    _blank(chars, 0, block_end)


def _literal(node):
    """Python literals, plus lists (Jinja writes lists where Python might write tuples)."""
    value = ast.literal_eval(node)
    return tuple(value) if isinstance(value, list) else value


def parse_macro(source: str, line: int) -> Macro:
    """Read `name("a", key=1.5)`; anything else is reported, never guessed."""
    name, args, kwargs, error = _read_call(source.strip())
    return Macro(name, args, kwargs, line, source.strip(), error)


@lru_cache(maxsize=4096)
def _read_call(src: str) -> tuple:
    """(name, args, kwargs, error) of a call's text; the same calls recur in every language."""
    try:
        node = ast.parse(src, mode="eval").body
    except SyntaxError:
        return None, (), (), "is not a macro call the checks can read"
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None, (), (), "is not a plain macro call (name(...))"
    try:
        args = tuple(_literal(a) for a in node.args)
        kwargs = tuple((k.arg, _literal(k.value)) for k in node.keywords)
    except (ValueError, TypeError, SyntaxError):
        return node.func.id, (), (), "has an argument that is not a literal (write the id or number itself)"
    if any(k is None for k, _ in kwargs):
        return node.func.id, (), (), "passes **arguments; write each argument out"
    return node.func.id, args, kwargs, None


def _macros_and_code(text: str, chars: list, page: Page) -> None:
    start = len("".join(text.splitlines(True)[:page.meta_line_count]))
    for m in JINJA.finditer(text, start):
        if m.group(0).startswith("{{"):
            page.macros.append(parse_macro(m.group(1), _line_at(text, m.start())))
        _blank(chars, m.start(), m.end())
    # fenced code: a line of ``` or ~~~ opens, the same fence (at least as long) closes
    offset, fence = 0, None
    for raw in text.splitlines(True):
        m = FENCE.match(raw)
        if fence is None and m:
            fence, fence_start = m.group(2), offset
            page.code_blocks += 1
        elif fence is not None and m and m.group(2)[0] == fence[0] and len(m.group(2)) >= len(fence) and not raw[m.end():].strip():
            _blank(chars, fence_start, offset + len(raw))
            fence = None
        offset += len(raw)
    if fence is not None:
        page.errors.append((_line_at(text, fence_start), "code block never closed: add the closing fence"))
        _blank(chars, fence_start, len(text))
    masked = "".join(chars)
    for m in HTML_COMMENT.finditer(masked):
        _blank(chars, m.start(), m.end())


def _structure(text: str, masked: str, page: Page) -> None:
    """Headings and lists, read on the text with code, comments and front matter blanked."""
    original = text.splitlines()
    open_lists: list = []   # [indent, ordered, first line, items]
    prev_blank = True

    def close(keep_below: int) -> None:
        while open_lists and open_lists[-1][0] >= keep_below:
            indent, _, first, items = open_lists.pop()
            page.lists.append(ListBlock(first, items, indent))

    for n, line in enumerate(masked.splitlines(), 1):
        if not line.strip():
            prev_blank = True
            continue
        h = HEADING.match(line)
        if h:
            close(0)
            text_h = HEADING.match(original[n - 1])
            label = ATTR_LIST.sub("", text_h.group(2) if text_h else h.group(2)).strip()
            page.headings.append(Heading(len(h.group(1)), label, n))
            prev_blank = False
            continue
        item = ITEM.match(line) if not RULE.match(line) else None
        indent = len(line) - len(line.lstrip())
        if item:
            ordered = item.group(2)[0].isdigit()
            close(indent + 1)                 # deeper lists end at a shallower item
            top = open_lists[-1] if open_lists else None
            if top and top[0] == indent and top[1] == ordered:
                top[3] += 1
            else:
                if top and top[0] == indent:
                    close(indent)
                open_lists.append([indent, ordered, n, 1])
        elif indent == 0 and prev_blank:
            close(0)                          # a paragraph after a blank line ends every list
        elif indent:
            close(indent)                     # an item's continuation: lists nested at least as deep end
        prev_blank = False
    close(0)
    page.lists.sort(key=lambda b: b.line)


def _inline(text: str, chars: list, page: Page) -> None:
    masked = "".join(chars)
    for m in INLINE_CODE.finditer(masked):
        _blank(chars, m.start(), m.end())
    masked = "".join(chars)
    for m in FOOTNOTE_DEF.finditer(masked):
        _blank(chars, m.start(), m.end())
    for m in REF_DEF.finditer(masked):
        target = m.group(0).split("]:", 1)[1].split()[0]
        page.links.append(Link(target.strip("<>"), _line_at(text, m.start())))
        _blank(chars, m.start(), m.end())
    masked = "".join(chars)
    for m in INLINE_LINK.finditer(masked):
        page.links.append(Link(m.group(1).strip("<>"), _line_at(text, m.start())))
        _blank(chars, m.start() + 1, m.end())
    masked = "".join(chars)
    for m in AUTOLINK.finditer(masked):
        page.links.append(Link(m.group(1), _line_at(text, m.start())))
        _blank(chars, m.start(), m.end())
    masked = "".join(chars)
    for pattern in (BARE_URL, HTML_TAG, ATTR_LIST, FOOTNOTE_REF, ENTITY):
        for m in pattern.finditer(masked):
            _blank(chars, m.start(), m.end())
        masked = "".join(chars)
    for m in ORDERED_MARK.finditer(masked):
        _blank(chars, m.start(2), m.end(2))
    page.links.sort(key=lambda l: l.line)


def _sections(page: Page, line_count: int) -> None:
    starts = [h for h in page.headings if h.level == 2]
    bounds = [1] + [h.line for h in starts] + [line_count + 1]
    page.sections = [Section(0, None, bounds[0], bounds[1] - 1)]
    for i, h in enumerate(starts, 1):
        page.sections.append(Section(i, h, bounds[i], bounds[i + 1] - 1))


def parse(text: str, rel: str) -> Page:
    """Read one page's text; `rel` is its path docs/<lang>/<name>."""
    parts = pathlib.PurePosixPath(rel).parts
    page = Page(rel, parts[1] if len(parts) > 2 else "", "/".join(parts[2:]), text, {}, 0, "")
    chars = list(text)
    _front_matter(text, chars, page)
    _macros_and_code(text, chars, page)
    _structure(text, "".join(chars), page)
    _inline(text, chars, page)
    page.prose = "".join(chars)
    _sections(page, text.count("\n") + 1)
    return page


def load(root: pathlib.Path, rel: str) -> Page:
    return _parsed((root / rel).read_text(encoding="utf-8"), rel)


@lru_cache(maxsize=512)
def _parsed(text: str, rel: str) -> Page:
    """Pages are parsed once per text: the build's checks and the status page read the same files.

    Callers only read a Page; nothing in the checks changes one after parsing.
    """
    return parse(text, rel)


def pages(root: pathlib.Path, lang: str) -> dict:
    """{name: Page} for every Markdown page of a language folder."""
    base = root / DOCS / lang
    if not base.is_dir():
        return {}
    return {p.relative_to(base).as_posix(): load(root, p.relative_to(root).as_posix()) for p in sorted(base.rglob("*.md"))}
