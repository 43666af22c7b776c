"""Lints over the text a reader sees: plain functions of (text, language, context) that return findings.

Why text lints: the reviewers' errors live in generated and assembled text
(tables, formula terms, calculator messages, the theme), which no check of the
Markdown sources sees. These lints read what the reader reads; the callers
(sitebuild/checks/reader.py for locale files and calculators, hooks/prose.py
for the rendered pages) say where a finding comes from and what input made it.

Each lint returns `Finding`s: an offset into the text, a code, the quote and
what to do. The codes:

- english: an English word or phrase on a German, Danish or Italian page
  (a curated stoplist of function words and site phrases, plus the English
  termbase terms the page's language writes otherwise), outside names,
  published titles and the termbase's own terms; an English date ("27 May 2026").
- plural: a count of one with a plural noun ("1 Teile"), or another count with
  a singular one ("8 Teil"); the nouns and their forms come from the termbase
  and from the plural messages of locales/<lang>.po.
- raw-fraction: a share printed as a fraction beside the word for it ("0,200–0,400 Anteil").
- no-unit: a value printed as a bare decimal with many zeros ("0,00000230"): seconds or bytes without their unit.
- digits: a decimal with more significant digits than any figure is rounded to.
- collision: two numbers with nothing but a space between them ("Batchgröße 1 161 tok/s").
- kilobyte: "KB"; the site's decimal kilobyte is "kB" (SI).

What counts as a name or title, which words are words of which language and
which forms are no count's plural is declared once, with its reason, in
sitebuild/checks/prose_rules.toml (read by sitebuild/checks/prose_context.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from calculators.text import grammar

CODES = ("english", "plural", "raw-fraction", "no-unit", "digits", "collision", "kilobyte")
LANGUAGE = {"de": "German", "en": "English", "da": "Danish", "it": "Italian"}
MAX_DIGITS = 4        # figures round to 2-4 significant digits (calculators/article/figures.py)


@dataclass(frozen=True)
class Finding:
    offset: int
    code: str
    quote: str
    message: str


@dataclass
class Context:
    """What the lints know about one language; built by prose_context.context()."""

    lang: str
    masked: re.Pattern | None = None          # names, titles, chosen terms: not English words, not counts
    numbered_names: re.Pattern | None = None  # names with digits (H100, Llama 3.1 70B): not numbers
    words: re.Pattern | None = None           # English words that are no word of the language (words_pattern)
    phrases: re.Pattern | None = None         # English phrases of several words
    introduced: re.Pattern | None = None      # English quoted as English ("englisch: time to first token")
    counted: re.Pattern | None = None         # a number, spaces and one of the noun forms below (plural())
    one_only: dict = field(default_factory=dict)     # {form used only after one: the form after other counts}
    other_only: dict = field(default_factory=dict)   # {form used only after other counts: the form after one}
    fraction_words: tuple = ()                # the language's word for a raw fraction (the catalog's "fraction" unit)


# ------------------------------------------------------------------ masking

REACH = 300    # longer than any name, title or term a mask covers


def covered(text: str, start: int, end: int, pattern: re.Pattern | None) -> bool:
    """Does a match of `pattern` (a name, a title, a chosen term) overlap text[start:end]?

    Looked up around the candidate only: a page has thousands of names and
    terms but a handful of candidates, so no pass over the whole text is needed.
    """
    if pattern is None:
        return False
    for m in pattern.finditer(text, max(0, start - REACH), min(len(text), end + REACH)):
        if m.start() >= end:
            return False
        if m.end() > start:
            return True
    return False


def trie(strings) -> str:
    """A regex matching any of `strings`, as a trie of their characters (a space matches any run of spaces).

    Hundreds of names and terms in one alternation would be tried one by one at
    every position of a page; a trie tries each first character once.
    """
    root: dict = {}
    for s in strings:
        node = root
        for ch in s:
            node = node.setdefault(ch, {})
        node[""] = {}

    def walk(node: dict) -> str:
        ends = "" in node
        alts = [(r"\s+" if ch == " " else re.escape(ch)) + walk(child) for ch, child in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if ends else body

    return walk(root)


def words_pattern(words, capitals: bool = True, capitalized_ok=()) -> re.Pattern | None:
    """One pattern for whole words (with their capitalized forms where `capitals`)."""
    forms = set(words)
    if capitals:
        forms |= {w[:1].upper() + w[1:] for w in words if w[:1].islower()} - set(capitalized_ok)
    if not forms:
        return None
    return re.compile(r"(?<![\w'’-])(?:" + trie(forms) + r")(?![\w'’-])")


SPACE = "[ \t\u00a0\u202f\u2009]"
MONTHS = ("January February March April May June July August September October November December").split()
ENGLISH_DATE = re.compile(rf"\b\d{{1,2}}{SPACE}(?:{'|'.join(MONTHS)}){SPACE}\d{{4}}\b"
                          rf"|\b(?:{'|'.join(MONTHS)}){SPACE}\d{{1,2}},{SPACE}\d{{4}}\b")
# A number as the site prints it: digits with group and decimal marks, not glued to a word, a mark or a range dash.
NUMBER = r"(?<![\w.,−–/-])\d+(?:[.,]\d+)*(?![\w])"


def _quote(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].split())


# ------------------------------------------------------------------ the lints

def english(text: str, lang: str, ctx: Context) -> list:
    """English words, phrases and dates on a page in another language."""
    if lang == "en":
        return []
    name = LANGUAGE.get(lang, lang)
    fix = (f"translate it (a name or published title: sitebuild/checks/prose_rules.toml [allowed]; a term kept in "
           f"English: locales/terms/{lang}.toml)")
    out, spans = [], []

    def keep(m) -> bool:
        return not (covered(text, m.start(), m.end(), ctx.masked) or covered(text, m.start(), m.end(), ctx.introduced))

    for m in ENGLISH_DATE.finditer(text):
        if keep(m):
            spans.append((m.start(), m.end()))
            out.append(Finding(m.start(), "english", m.group(0),
                               f"English date {m.group(0)!r} on a {name} page: write the date as the page's language does"))
    for m in ctx.phrases.finditer(text) if ctx.phrases is not None else ():
        if keep(m):
            spans.append((m.start(), m.end()))
            quote = _quote(text, m.start(), m.end())
            out.append(Finding(m.start(), "english", quote, f"English {quote!r} on a {name} page: {fix}"))
    for m in ctx.words.finditer(text) if ctx.words is not None else ():
        if keep(m) and not any(a <= m.start() < b for a, b in spans):
            out.append(Finding(m.start(), "english", m.group(0), f"English word {m.group(0)!r} on a {name} page: {fix}"))
    return out


# A count before a word; not the end of a sum ("k + 1 tokens" counts k + 1).
COUNT = rf"(?<![+−]{SPACE})(?<![+−])({NUMBER}){SPACE}+"
_COUNT = re.compile(COUNT + r"([^\W\d_][\w'’-]*)")


def counted_pattern(nouns) -> re.Pattern | None:
    """A count followed by one of `nouns` (whole word): what plural() looks at."""
    return re.compile(COUNT + "(" + trie(nouns) + r")(?![\w'’-])") if nouns else None


def plural(text: str, lang: str, ctx: Context) -> list:
    """A count of one with a noun's plural, or another count with its singular."""
    out = []
    for m in (ctx.counted or _COUNT).finditer(text):
        number, word = m.group(1), m.group(2)
        if (word not in ctx.other_only and word not in ctx.one_only) or covered(text, m.start(), m.end(), ctx.numbered_names):
            continue
        one = grammar.plural_category(number, lang) == "one"
        if one and word in ctx.other_only:
            out.append(Finding(m.start(), "plural", m.group(0),
                               f"count of one with the plural {word!r} in {m.group(0)!r}: write "
                               f"{ctx.other_only[word]!r} (a message that counts is a plural message, P_(), or "
                               f"fig(..., noun=...) on a page)"))
        elif not one and word in ctx.one_only:
            out.append(Finding(m.start(), "plural", m.group(0),
                               f"count {number!r} with the singular {word!r} in {m.group(0)!r}: write "
                               f"{ctx.one_only[word]!r} (a plural message, P_(), or fig(..., noun=...) on a page)"))
    return out


_FRACTION_RANGE = rf"(?<![\d.,])0[.,]\d+(?:{SPACE}*[–-]{SPACE}*0[.,]\d+)?"
_TINY = re.compile(rf"(?<![\d.,])0[.,]0000\d*")
_DECIMAL = re.compile(rf"(?=[\d.,]{{6}}){NUMBER}")   # long enough to have more than MAX_DIGITS digits


def raw_values(text: str, lang: str, ctx: Context) -> list:
    """Machine values: a fraction where a percent belongs, a tiny value without its unit, too many digits."""
    out = []
    if ctx.fraction_words:
        words = "|".join(re.escape(w) for w in ctx.fraction_words)
        for m in re.finditer(rf"({_FRACTION_RANGE}){SPACE}+(?:{words})\b", text):
            out.append(Finding(m.start(), "raw-fraction", _quote(text, m.start(), m.end()),
                               f"a share printed as the raw fraction {m.group(1)!r} ({_quote(text, m.start(), m.end())!r}): "
                               f"print it as a percent, as the figures do (fmt.format_percent)"))
    for m in _TINY.finditer(text):
        out.append(Finding(m.start(), "no-unit", m.group(0),
                           f"the bare value {m.group(0)!r} has no unit (seconds or bytes?): print it with its unit and "
                           f"prefix (2,3 µs), through fmt.format_quantity"))
    for m in _DECIMAL.finditer(text):
        number = m.group(0)
        if _TINY.fullmatch(number):
            continue
        digits = _significant(number, lang)
        if digits > MAX_DIGITS and not covered(text, m.start(), m.end(), ctx.numbered_names):
            out.append(Finding(m.start(), "digits", number,
                               f"{number!r} has {digits} significant digits, more than any figure is rounded to "
                               f"({MAX_DIGITS}): print the figure, or round it as its figure does"))
    return out


def _significant(number: str, lang: str) -> int:
    """Significant digits of a printed decimal ("0,00230" -> 3); 0 for a whole number (a count, printed exactly)."""
    decimal = "." if lang == "en" else ","
    if decimal not in number:
        return 0
    digits = number.replace(".", "").replace(",", "").lstrip("0")
    return len(digits)


_COLLISION = re.compile(rf"({NUMBER}){SPACE}+({NUMBER})")


def collisions(text: str, lang: str, ctx: Context) -> list:
    """Two numbers with only a space between them: a reader takes them for one ("1 161 tok/s")."""
    return [Finding(m.start(), "collision", m.group(0),
                    f"two numbers next to each other, {m.group(0)!r}: a reader takes them for one number; "
                    f"put words or a sign between them")
            for m in _COLLISION.finditer(text) if not covered(text, m.start(), m.end(), ctx.numbered_names)]


_KB = re.compile(r"(?<![\w])KB(?![\w])")


def kilobyte(text: str, lang: str, ctx: Context) -> list:
    return [Finding(m.start(), "kilobyte", "KB", "'KB': the site's decimal kilobyte is 'kB' (SI, 1,000 bytes); "
                                                  "'KiB' for 1,024 bytes")
            for m in _KB.finditer(text)]


LINTS = (english, plural, raw_values, collisions, kilobyte)


def lint(text: str, lang: str, ctx: Context) -> list:
    """Every lint on `text`, findings in the order of their offsets."""
    out = []
    for check in LINTS:
        out += check(text, lang, ctx)
    return sorted(out, key=lambda f: (f.offset, f.code))


def line_of(text: str, offset: int) -> int:
    """1-based line of an offset."""
    return text.count("\n", 0, offset) + 1
