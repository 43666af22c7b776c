"""The reader-text lints where the checks can see the text without a build: locale files and calculators;
and two checks of what the fact check says against what the pages say.

- locale files: every translated msgstr of locales/<lang>.po, reported on the
  msgstr's line (placeholders blanked: a slot's name is code);
- calculators: every text of the calculator sweep (sitebuild/calc_text.py:
  defaults, each option, each error message), reported at the calculator's
  module with the input that produced it; one finding per quote and language
  (the same device name in every row is one finding). Not in the build: the
  sweep computes about 600 results (about 1 s of CPU, a sixth of the build
  again); tests/test_prose.py runs it in `make test`, and `make text` writes
  what it reads;
- verdict: a verdict the fact-check table gives (calculators/article/claims.py,
  translated with msgctxt "verdict") must be defined in the legend above the
  table (a **bold** entry of docs/<lang>/factcheck.md);
- factcheck-link: a page that prints a figure a claim rests on, where the fact
  check rates that claim negatively (prose_rules.toml [factcheck]), links the
  fact check (factcheck.md) in the same paragraph, so that no page states the
  figure without the verdict that qualifies it.

The rendered pages are linted by the build hook (hooks/prose.py) with the
same lints. Findings a known entry covers become warnings (known.py).
"""

from __future__ import annotations

import bisect
import re

from calculators.article import claims

from .. import calc_text
from ..strings import LANGS, Strings
from . import known, prose, prose_context
from .report import ERROR, Problem
from .terms import _mask_placeholders, _msgstr_lines


def locale_findings(project, contexts: dict) -> list:
    """The lints on every translated msgstr, at its line. The msgstrs of a file are linted as one text (a
    separator between them that no lint reads across), which costs a tenth of linting each on its own."""
    out = []
    for lang in LANGS:
        entries, _ = project.locale_files.get(lang, ([], []))
        if not entries:
            continue
        rel = f"locales/{lang}.po"
        lines = _msgstr_lines(project.root / rel)
        parts, starts, owners, offset = [], [], [], 0
        for e in entries:
            if e.obsolete or not e.msgid or e.fuzzy:
                continue
            for text in e.strings.values():
                if text:
                    parts.append(_mask_placeholders(text))
                    starts.append(offset)
                    owners.append(e)
                    offset += len(parts[-1]) + len(SEPARATOR)
        joined = SEPARATOR.join(parts)
        for f in prose.lint(joined, lang, contexts[lang]):
            i = bisect.bisect_right(starts, f.offset) - 1
            e = owners[i]
            line = lines.get(e.line, e.line) + joined.count("\n", starts[i], f.offset)
            out.append(Problem(rel, line, ERROR, f.code, f"msgstr for {e.msgid!r}: {f.message}"))
    return out


SEPARATOR = "\n\u00a6\n"   # between two msgstrs: no word, number or phrase reads across it


def calculator_findings(contexts: dict, strings: Strings | None = None) -> list:
    out, seen = [], {}
    strings = strings or Strings()
    for lang in LANGS:
        for case in calc_text.cases(lang, strings):
            text = "\n".join(case.lines)
            for f in prose.lint(text, lang, contexts[lang]):
                key = (case.module, lang, f.code, f.quote)
                if key in seen:
                    seen[key] += 1
                    continue
                seen[key] = 0
                where = "the page script" if case.calc == "page" else f"the {case.calc} calculator"
                out.append(Problem(case.module, 1, ERROR, f.code,
                                   f"{where} in {prose.LANGUAGE[lang]} (input: {case.heading}): {f.message}"))
    return out


_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def _verdict_word(project, verdict: str, lang: str) -> str:
    """The verdict as the table prints it: its msgstr (msgctxt "verdict"), else the German one, else the key."""
    for source in (lang, "de"):
        entries, _ = project.locale_files.get(source, ([], []))
        for e in entries:
            if e.msgid == verdict and e.context == "verdict" and e.strings.get(0) and not e.fuzzy:
                return e.strings[0]
    return verdict


def verdict_findings(project) -> list:
    """Every verdict the table gives must be a bold entry of the legend before the table."""
    used = sorted({r.verdict for r in claims.results()}, key=claims.VERDICTS.index)
    out = []
    for lang in project.langs:
        page = project.pages.get(lang, {}).get("factcheck.md")
        if page is None:
            continue
        table = next((m.line for m in page.macros if m.name == "factcheck_table"), None)
        if table is None:
            continue
        legend = {w.strip().lower() for w in _BOLD.findall("\n".join(page.text.split("\n")[:table - 1]))}
        for verdict in used:
            word = _verdict_word(project, verdict, lang)
            if word.lower() not in legend:
                out.append(Problem(page.rel, table, ERROR, "verdict",
                                   f"the table below gives the verdict {word!r} (claims "
                                   f"{', '.join(str(r.claim.n) for r in claims.results() if r.verdict == verdict)}), "
                                   f"which the legend above it does not define: add '**{word}**: …' to the legend"))
    return out


def _paragraphs(text: str) -> list:
    """(first line, last line) of each block of non-blank lines."""
    out, start = [], None
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if line.strip() and start is None:
            start = n
        elif not line.strip() and start is not None:
            out.append((start, n - 1))
            start = None
    if start is not None:
        out.append((start, len(lines)))
    return out


def negative_figures(verdicts) -> dict:
    """{figure id: claim result} for the figures the claims with these verdicts rest on (their parts' figures)."""
    out = {}
    for r in claims.results():
        if r.verdict in verdicts:
            for part in r.claim.parts:
                out.setdefault(part.figure, r)
    return out


def factcheck_link_findings(project, verdicts) -> list:
    figures = negative_figures(verdicts)
    out = []
    for page in project.all_pages():
        if page.name == "factcheck.md":
            continue
        blocks = _paragraphs(page.text)
        for m in page.macros:
            if m.name not in ("fig", "claim") or not m.args or m.args[0] not in figures:
                continue
            first, last = next(((a, b) for a, b in blocks if a <= m.line <= b), (m.line, m.line))
            if any(first <= link.line <= last and link.target.split("#")[0].endswith("factcheck.md") for link in page.links):
                continue
            r = figures[m.args[0]]
            out.append(Problem(page.rel, m.line, ERROR, "factcheck-link",
                               f"figure {m.args[0]!r} is what fact-check claim {r.claim.n} rests on, and the fact check "
                               f"rates that claim {r.verdict!r}: link the fact check in this paragraph "
                               f"([…](factcheck.md)), so that the page does not state it without the verdict"))
    return out


def check(project, calculators: bool = False) -> list:
    """The reader-text checks of the build (the pages' rendered text is the build hook's), known findings as
    warnings; with `calculators`, the calculator sweep too (tests/test_prose.py)."""
    rules = prose_context.rules(project.root)
    contexts = prose_context.contexts(project.root, LANGS)
    found = locale_findings(project, contexts) + (calculator_findings(contexts, Strings(project.root / "locales"))
                                                  if calculators else [])
    found += verdict_findings(project)
    found += factcheck_link_findings(project, set(rules.get("factcheck", {}).get("negative", ["wrong"])))
    entries = known.load(project.root)
    return known.summary(known.apply(found, entries), entries)

