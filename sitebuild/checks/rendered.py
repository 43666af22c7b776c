"""A page as rendered (after the macros) read as the reader sees it, and each finding traced to its source line.

Why rendered text: a figure, a table, a chart or a calculator is written by a
macro, so the Markdown source holds `{{ fig("id") }}` where the reader reads
"161 tok/s". The build hook (hooks/prose.py) hands each rendered page here
with its source; the lints run on the visible text, and a finding is reported
at the source line that produced it: a line the macros changed maps to
itself, a macro that expanded to many lines (a table, a calculator) maps to
the macro's line (difflib over lines).

What is visible: the text between tags (figures, table cells, chart labels,
calculator labels and default results), not tags, attributes, scripts,
styles, code, link targets, footnote markers or Markdown syntax. A block tag
(cell, row, paragraph, label) becomes a separator, so text in two cells is
never read as one phrase or one number. The figures' popover explanations (a
JSON script) are left out here: the sources page prints every figure's
formula and inputs as a table, and is linted like any page.
"""

from __future__ import annotations

import difflib
import html
import re

from . import prose
from .report import ERROR, Problem

SEP = "\u00a6"    # what a block tag leaves: no letter, digit or space, so nothing reads across it
INLINE = {"a", "span", "abbr", "strong", "em", "b", "i", "small", "sub", "sup", "mark", "u", "s", "del", "ins",
          "kbd", "q", "tspan"}
_DROP = re.compile(r"<(script|style|code|pre|textarea|cite)\b[^>]*>.*?</\1\s*>|<!--.*?-->|<![^>]*>"
                   r"|<sup class=\"cite\"[^>]*>.*?</sup>", re.S | re.I)
_TAG = re.compile(r"</?([a-zA-Z][\w:-]*)\b[^>]*>", re.S)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
_MARKDOWN = re.compile(r"`[^`\n]*`"                  # code spans
                       r"|\]\([^)\n]*\)"             # link targets
                       r"|\[\^[^\]\n]*\]:?"          # footnote references
                       r"|\{\s*[#:.][^}\n]*\}"       # attribute lists { #id }
                       r"|\{\{.*?\}\}|\{%.*?%\}"       # macro calls shown as text (the translation status)
                       r"|^\s*!!!\s*\w+"             # admonition keywords
                       r"|^\s*\*\[[^\]\n]*\]:", re.M)


def _keep_lines(text: str, fill: str) -> str:
    return fill + "\n" * text.count("\n")


def visible(markdown: str) -> str:
    """The text a reader sees of rendered Markdown, with the same lines (offsets map to lines, not columns)."""
    text = _FENCE.sub(lambda m: _keep_lines(m.group(0), ""), markdown)
    text = _DROP.sub(lambda m: _keep_lines(m.group(0), SEP), text)
    text = _MARKDOWN.sub(lambda m: _keep_lines(m.group(0), " "), text)
    text = _TAG.sub(lambda m: _keep_lines(m.group(0), "" if m.group(1).lower() in INLINE else SEP), text)
    return html.unescape(text)


def line_map(source: str, rendered: str) -> list:
    """For each rendered line (0-based index), its 1-based source line."""
    src, out = source.split("\n"), rendered.split("\n")
    mapping = [1] * len(out)
    ops = difflib.SequenceMatcher(None, src, out, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for k in range(j2 - j1):
                mapping[j1 + k] = i1 + k + 1
        elif tag == "replace":
            macros = [i for i in range(i1, i2) if "{{" in src[i] or "{%" in src[i]] or list(range(i1, i2))
            for j in range(j1, j2):
                best = max(macros, key=lambda i: difflib.SequenceMatcher(None, src[i], out[j]).quick_ratio()) \
                    if len(macros) > 1 else macros[0]
                mapping[j] = best + 1
        elif tag == "insert":
            for j in range(j1, j2):
                mapping[j] = max(i1, 1)
    return mapping


def check_page(rel: str, lang: str, source: str, rendered: str, ctx: prose.Context) -> list:
    """The lints' findings on one rendered page, as Problems at the source line that produced them."""
    text = visible(rendered)
    mapping = line_map(source, rendered)
    out = []
    for f in prose.lint(text, lang, ctx):
        line = mapping[min(prose.line_of(text, f.offset), len(mapping)) - 1]
        out.append(Problem(rel, line, ERROR, f.code, f.message))
    return out
