"""The termbase lint: forbidden variants and British spellings in pages, locale files and chart labels.

Why errors: a term chosen once (locales/terms/<lang>.toml) is only a
choice if the build refuses the alternatives. What is read:

- pages: the prose of docs/<lang>/*.md (code, macro calls, URLs and HTML
  tags are blanked by sitebuild/checks/source.py, so they are not checked);
- locale files: every msgstr of locales/<lang>.po, reported on the msgstr's
  line; a string the code uses in a chart (calculators/article/charts.py,
  calc_charts.py) is named as a chart label, with the code's line;
- English: msgids are the English the code holds, so for en the msgids of
  strings the code uses are checked too, reported at the code's line;
- glossary headings: a `## ` heading of docs/<lang>/glossary.md must be a
  termbase term (best written `## {{ term("kv-cache", cap=True) }}`);
- Italian pages: an article or articulated preposition typed before a
  figure macro ("al {{ fig(…) }}"): the figure macro writes it itself,
  agreeing with the number (`{{ fig("id", art="a") }}`, calculators/text/grammar.py).

With [meta] spelling = "US" (en), the British spellings of
sitebuild/spelling.py count as forbidden variants.
"""

from __future__ import annotations

import re

from calculators.text import grammar

from .. import spelling, termbase
from . import prose
from .report import ERROR, Problem

CHART_CODE = ("calculators/article/charts.py", "calculators/ui/charts.py", "calculators/ui/example_charts.py")


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


_COMPILED: dict = {}


def _rules(tb) -> tuple:
    """The termbase's forbidden variants, compiled once per termbase: (plain pattern, advice by variant,
    regex pattern, advice by group).

    Thousands of strings meet hundreds of variants in one build: the plain
    variants form one trie (sitebuild/checks/prose.py), which tries each first
    character once instead of each variant in turn; the few regex variants form
    one alternation of named groups (a variant's own groups close inside its
    group, so the match's last group is the variant).
    """
    key = id(tb)
    if key not in _COMPILED:
        plain, regexes = {}, {}
        for t in tb.terms.values():
            for v in t.forbidden:
                fix = f"write {t.term!r} (termbase id {t.id})"
                if v.startswith("re:"):
                    regexes[f"v{len(regexes)}"] = (v[3:], fix)
                else:
                    plain[v] = fix
        literal = re.compile(r"(?<!\w)" + prose.trie(plain) + r"(?!\w)") if plain else None
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(f"(?P<{g}>{body})" for g, (body, _) in regexes.items())
                             + r")(?!\w)") if regexes else None
        _COMPILED[key] = (tb, literal, plain, pattern, {g: fix for g, (_, fix) in regexes.items()})
    return _COMPILED[key][1:]


def _findings(tb, text: str):
    """(offset, found text, what to write instead) of each forbidden variant or British spelling."""
    literal, plain, pattern, advice = _rules(tb)
    if literal is not None:
        for m in literal.finditer(text):
            if m.group(0):
                yield m.start(), m.group(0), plain[" ".join(m.group(0).split())]
    if pattern is not None:
        for m in pattern.finditer(text):
            yield m.start(), m.group(0), advice[m.lastgroup]
    if str(tb.meta.get("spelling", "")).upper() == "US":
        for offset, word, us in spelling.british(text):
            yield offset, word, f"write {us!r} (US English, {tb.rel} [meta] spelling)"


def check_pages(project, bases: dict) -> list:
    out = []
    for page in project.all_pages():
        tb = bases.get(page.lang)
        if tb is None:
            continue
        for offset, word, fix in _findings(tb, page.prose):
            out.append(Problem(page.rel, _line(page.prose, offset), ERROR, "term",
                               f"forbidden variant {word!r}: {fix}"))
        if page.name == "glossary.md":
            out += _glossary_headings(page, tb)
        if page.lang == "it":
            out += italian_articles(page)
    return out


def _glossary_headings(page, tb) -> list:
    known = {f[:1].upper() + f[1:] for t in tb.terms.values() for f in (t.term,)} | {t.term for t in tb.terms.values()}
    out = []
    for h in page.headings:
        if h.level != 2:
            continue
        raw = page.text.splitlines()[h.line - 1]
        if "{{" in raw:
            continue       # term("id") macro: refs checks that the id exists
        if h.text not in known:
            out.append(Problem(page.rel, h.line, ERROR, "term",
                               f"glossary heading {h.text!r} is not a term of {tb.rel}: write "
                               f"`## {{{{ term(\"<id>\", cap=True) }}}}` or add the term to the termbase"))
    return out


# An error: the Italian pages write every article before a figure with fig(..., art=...).
IT_ARTICLE_SEVERITY = ERROR

# An Italian article or articulated preposition directly before a figure or claim macro.
_IT_ARTICLE = re.compile(
    r"(?i)(?<![\w'’])(il|lo|la|i|gli|le|l['’]"
    r"|(?:de|a|da|ne|su)(?:l|llo|lla|i|gli|lle|ll['’]))\s*(?=\{\{-?\s*(?:fig|claim)\(\s*[\"']([^\"']*))")


def italian_articles(page) -> list:
    """Articles typed before a figure: they cannot follow a change of the number ("il 8 %")."""
    out = []
    for m in _IT_ARTICLE.finditer(page.text):
        if not page.prose[m.start()].strip():
            continue       # inside code, a comment or front matter
        out.append(Problem(page.rel, _line(page.text, m.start()), IT_ARTICLE_SEVERITY, "it-article",
                           f"article {m.group(1)!r} typed before figure {m.group(2)!r}: the number decides it "
                           f"(il 13%, l'11%, lo 0,3%); drop it and write {{{{ fig(\"…\", art=\"{_base(m.group(1))}\") }}}}"))
    return out


def _base(article: str) -> str:
    """The form fig(art=...) takes for a typed article: the one used before a consonant ("all'" -> "al")."""
    typed = article.lower().replace("’", "'")
    for form in grammar.ARTICLES:          # masculine first: percentages and numbers are masculine
        if typed in grammar.written_forms(form):
            return form
    return "il"


_PLACEHOLDER = re.compile(r"\{[A-Za-z_][\w.]*(?::[^{}\s]*)?\}")   # {tokens}, and with a form: {device:einem}, {share:il}


def _mask_placeholders(text: str) -> str:
    """Blank out {placeholders} (with a form the grammar asks for, {device:einem}): a slot's name (e.g. {tokens}) is code, not a word the reader sees;
    blanks of the same length keep every offset, so line numbers stay right."""
    return _PLACEHOLDER.sub(lambda m: " " * len(m.group()), text)


def _msgstr_lines(path) -> dict:
    """{msgid line: msgstr line} of a .po file (the entry reader keeps the msgid's line only)."""
    out, pending = {}, None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        s = line.strip()
        if s.startswith("msgid "):
            pending = n
        elif s.startswith("msgstr") and pending is not None:
            out.setdefault(pending, n)
    return out


def check_locales(project, bases: dict) -> list:
    out = []
    code = project.code_strings or {}
    for lang in project.langs:
        tb = bases.get(lang)
        entries, _ = project.locale_files.get(lang, ([], []))
        if tb is None or not entries:
            continue
        rel = f"locales/{lang}.po"
        lines = _msgstr_lines(project.root / rel)
        for e in entries:
            if e.obsolete or not e.msgid:
                continue
            where = code.get(e.key, {}).get("locations", [])
            chart = [f"{f}:{n}" for f, n in where if f in CHART_CODE]
            label = f"chart label ({', '.join(chart)}) " if chart else ""
            for text in e.strings.values():
                for offset, word, fix in _findings(tb, _mask_placeholders(text)):
                    out.append(Problem(rel, lines.get(e.line, e.line) + text.count("\n", 0, offset), ERROR, "term",
                                       f"{label}msgstr for {e.msgid!r}: forbidden variant {word!r}: {fix}"))
    tb = bases.get("en")
    if tb is not None and "en" in project.langs:
        for (msgid, _ctx), info in sorted(code.items(), key=lambda kv: str(kv[0])):
            for offset, word, fix in _findings(tb, _mask_placeholders(msgid)):
                for f, n in info.get("locations", [])[:1]:
                    kind = "chart label" if f in CHART_CODE else "English UI string"
                    out.append(Problem(f, n, ERROR, "term",
                                       f"{kind} {msgid!r}: forbidden variant {word!r}: {fix}; "
                                       f"then `make messages` to carry the new msgid into locales/*.po"))
    return out


def check(project) -> list:
    """Termbase files first; the lint runs with every file that loads."""
    out = [Problem(f.path, f.line, ERROR, "termbase", f.message) for f in termbase.problems(project.root)]
    bases = {}
    for lang in project.langs:
        try:
            bases[lang] = termbase.load(project.root, lang)
        except termbase.TermbaseError:
            pass           # reported above with file and line
    return out + check_pages(project, bases) + check_locales(project, bases)
