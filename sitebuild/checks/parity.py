"""A translation says the same things as its German source: same figures, same structure.

Why: figures are computed, but a translator can still drop one, repeat one
or move it to another section; a heading, a list item, a link or a chart
can go missing. German is the source; every translated page is compared
with it section by section (`##` headings, matched by position), and each
problem names both files and lines.

Also here: a number word that counts something on the page (a figure of
kind "words", e.g. fig("dataflow.differences") -> "vier") must be followed
by a list with exactly that many items, in every language.
"""

from __future__ import annotations

import difflib
from collections import Counter

from .refs import FIGURE_MACROS
from .report import ERROR, Problem


def _buckets(page, items, aligned: bool) -> dict:
    """{section index: [items]}; everything in one bucket when the sections cannot be matched."""
    out = {s.index: [] for s in page.sections} if aligned else {0: []}
    for item in items:
        out[page.section_of(item.line).index if aligned else 0].append(item)
    return out


def _where(page, bucket: int, aligned: bool) -> str:
    if not aligned:
        return f"{page.rel}"
    s = page.sections[bucket]
    return f"{page.rel} section {s.label()}" + (f" (line {s.heading.line})" if s.heading else "")


def _anchor_line(page, bucket: int, aligned: bool, before: list) -> int:
    """Where something missing should go: after the last item before it, else the section heading."""
    if before:
        return before[-1].line
    if aligned and page.sections[bucket].heading:
        return page.sections[bucket].heading.line
    return 1


def _compare(src, tr, src_items, tr_items, key, what: str, code: str, aligned: bool) -> list:
    """Sequence comparison per section: missing, extra, repeated and reordered items."""
    problems = []
    a_b, b_b = _buckets(src, src_items, aligned), _buckets(tr, tr_items, aligned)
    for bucket in a_b:
        a, b = a_b[bucket], b_b.get(bucket, [])
        ka, kb = [key(x) for x in a], [key(x) for x in b]
        if ka == kb:
            continue
        ca, cb = Counter(ka), Counter(kb)
        missing, extra = ca - cb, cb - ca
        first = {}
        for x in a:
            first.setdefault(key(x), x.line)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ka, b=kb, autojunk=False).get_opcodes():
            for x in a[i1:i2] if tag in ("delete", "replace") else ():
                k = key(x)
                if missing[k] > 0:
                    missing[k] -= 1
                    line = _anchor_line(tr, bucket, aligned, b[:j1])
                    problems.append(Problem(tr.rel, line, ERROR, code,
                                            f"{what} {k} of the German source ({src.rel}:{x.line}) is missing in "
                                            f"{_where(tr, bucket, aligned)}: add it where the German has it"))
            for y in b[j1:j2] if tag in ("insert", "replace") else ():
                k = key(y)
                if k not in ca:
                    problems.append(Problem(tr.rel, y.line, ERROR, code,
                                            f"{what} {k} is not in the German source {_where(src, bucket, aligned)}: "
                                            f"remove it, or add it to {src.rel} first"))
                elif extra[k] > 0:
                    extra[k] -= 1
                    problems.append(Problem(tr.rel, y.line, ERROR, code,
                                            f"{what} {k} is present {cb[k]} times here but {ca[k]} time(s) in the German "
                                            f"source ({src.rel}:{first[k]}): remove the extra one"))
                elif ca == cb:
                    problems.append(Problem(tr.rel, y.line, ERROR, code,
                                            f"{what} {k} is out of order: the German source has it at {src.rel}:{first[k]}, "
                                            f"in another position within {_where(src, bucket, aligned)}: keep the German order"))
    return problems


def _sections_align(src, tr) -> bool:
    return len(src.sections) == len(tr.sections)


def figures(src, tr) -> list:
    """Same fig()/claim() calls (ids and arguments), in the same order, per section."""
    aligned = _sections_align(src, tr)
    pick = lambda p: [m for m in p.macros if m.name in FIGURE_MACROS]
    return _compare(src, tr, pick(src), pick(tr), lambda m: m.core_call, "figure", "figure-parity", aligned)


def _heading_signatures(page) -> list:
    """Per heading, what its part of the page holds (macro calls, link targets, list sizes), in order."""
    marks = sorted([(m.line, m.core_call) for m in page.macros] + [(l.line, _target(l)) for l in page.links]
                   + [(b.line, f"list:{b.items}") for b in page.lists])
    bounds = [h.line for h in page.headings] + [10**9]
    return [tuple(k for line, k in marks if bounds[i] <= line < bounds[i + 1]) for i in range(len(page.headings))]


def _prefix_share(a: tuple, b: tuple) -> float:
    """How much of a German part starts the translated one (a dropped heading's part joins the part before it)."""
    if not a:
        return 0.5 if not b else 0.0
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n / len(a)


def _align(src, tr) -> list:
    """Pairs (German index or None, translation index or None), monotonic, best-scoring (small DP)."""
    ga, gb = _heading_signatures(src), _heading_signatures(tr)
    A, B = src.headings, tr.headings
    score = [[0.0] * (len(B) + 1) for _ in range(len(A) + 1)]
    for i in range(len(A) - 1, -1, -1):
        for j in range(len(B) - 1, -1, -1):
            match = 1 + _prefix_share(ga[i], gb[j]) + (0.5 if A[i].level == B[j].level else 0)
            score[i][j] = max(match + score[i + 1][j + 1], score[i + 1][j], score[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < len(A) and j < len(B):
        match = 1 + _prefix_share(ga[i], gb[j]) + (0.5 if A[i].level == B[j].level else 0)
        if abs(score[i][j] - (match + score[i + 1][j + 1])) < 1e-9:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif abs(score[i][j] - score[i + 1][j]) < 1e-9:
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    pairs += [(k, None) for k in range(i, len(A))] + [(None, k) for k in range(j, len(B))]
    return pairs


def headings(src, tr) -> list:
    """Same headings, by count and level (the text is translated: the parts under them say which is which)."""
    ka, kb = [h.level for h in src.headings], [h.level for h in tr.headings]
    if ka == kb:
        return []
    counts = f"(German: {len(ka)} headings, here: {len(kb)})"
    pairs = list(zip(range(len(ka)), range(len(kb)))) if len(ka) == len(kb) else _align(src, tr)
    problems, last_tr_line = [], 1
    for i, j in pairs:
        h = src.headings[i] if i is not None else None
        g = tr.headings[j] if j is not None else None
        if h and g:
            last_tr_line = g.line
            if h.level != g.level:
                problems.append(Problem(tr.rel, g.line, ERROR, "heading-parity",
                                        f"heading '{g.text}' is level {g.level}; its German counterpart '{h.text}' "
                                        f"({src.rel}:{h.line}) is level {h.level}: use {'#' * h.level}"))
        elif h:
            problems.append(Problem(tr.rel, last_tr_line, ERROR, "heading-parity",
                                    f"heading {'#' * h.level} '{h.text}' ({src.rel}:{h.line}) has no counterpart in {tr.rel} "
                                    f"{counts}: translate it in the part after line {last_tr_line}"))
        else:
            problems.append(Problem(tr.rel, g.line, ERROR, "heading-parity",
                                    f"heading {'#' * g.level} '{g.text}' is not in the German source {src.rel} "
                                    f"{counts}: remove it, or add it to the German page first"))
    return problems


def lists(src, tr) -> list:
    """Each section has as many lists as the German one, each with as many items."""
    aligned = _sections_align(src, tr)
    a_b, b_b = _buckets(src, src.lists, aligned), _buckets(tr, tr.lists, aligned)
    problems = []
    for bucket, a in a_b.items():
        b = b_b.get(bucket, [])
        if len(a) != len(b):
            line = b[0].line if b else _anchor_line(tr, bucket, aligned, [])
            problems.append(Problem(tr.rel, line, ERROR, "list-parity",
                                    f"{_where(tr, bucket, aligned)} has {len(b)} list(s); the German source "
                                    f"{_where(src, bucket, aligned)} has {len(a)}"
                                    + (f" (first at {src.rel}:{a[0].line})" if a else "") + ": keep the German lists"))
            continue
        for x, y in zip(a, b):
            if x.items != y.items:
                problems.append(Problem(tr.rel, y.line, ERROR, "list-parity",
                                        f"this list has {y.items} item(s); the German list at {src.rel}:{x.line} has {x.items}: "
                                        f"translate every item, add none"))
    return problems


def _target(link) -> str:
    return link.target.split("#", 1)[0] or "#"


class _Keyed:
    def __init__(self, key, line):
        self.key, self.line = key, line


def links_and_blocks(src, tr) -> list:
    """Same link targets (anchors aside: they follow translated headings), same charts, calculators and other macros."""
    aligned = _sections_align(src, tr)
    problems = _compare(src, tr, [_Keyed(_target(l), l.line) for l in src.links],
                        [_Keyed(_target(l), l.line) for l in tr.links], lambda k: repr(k.key), "link to", "link-parity", aligned)
    pick = lambda p: [m for m in p.macros if m.name not in FIGURE_MACROS and m.name]
    problems += _compare(src, tr, pick(src), pick(tr), lambda m: m.core_call, "macro", "macro-parity", aligned)
    if src.code_blocks != tr.code_blocks:
        problems.append(Problem(tr.rel, 1, ERROR, "code-parity",
                                f"{tr.code_blocks} code block(s) here, {src.code_blocks} in {src.rel}: keep the German code blocks"))
    return problems


def _list_after(page, line: int):
    """The list that starts right after the paragraph holding `line` (blank lines between allowed), or None."""
    lines = page.prose.splitlines()
    i = line - 1
    while i < len(lines) and lines[i].strip() and not any(b.line == i + 1 for b in page.lists):
        i += 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    return next((b for b in page.lists if b.line == i + 1), None)


def _paragraph_links(page, line: int) -> list:
    lines = page.prose.splitlines()
    first = last = line - 1
    while first > 0 and lines[first - 1].strip():
        first -= 1
    while last + 1 < len(lines) and lines[last + 1].strip():
        last += 1
    return [l.target.split("#", 1)[0] for l in page.links if first + 1 <= l.line <= last + 1]


def counted_lists(page, figures: dict, siblings: dict | None = None) -> list:
    """A count in words ("vier Unterschiede") is followed by a list of exactly that many items.

    Elsewhere the count may stand alone if its paragraph links to the page
    whose list it counts (the glossary points to the article's list), and
    that page has the count followed by its list.
    """
    problems = []
    for m in page.macros:
        if m.name not in FIGURE_MACROS or not m.args or m.args[0] not in figures:
            continue
        fig = figures[m.args[0]]
        if fig.kind != "words":
            continue
        n, said = int(fig.value), fig.format(page.lang or "de")
        block = _list_after(page, m.line)
        if block is None:
            pointed = [siblings[t] for t in _paragraph_links(page, m.line) if siblings and t in siblings and siblings[t] is not page]
            if any(_counts_there(other, m.core_call) for other in pointed):
                continue
            problems.append(Problem(page.rel, m.line, ERROR, "count",
                                    f"{m.call} counts something ({said}), but no list follows its paragraph: put the {n} "
                                    f"items it counts in a list right after it, or link (in the same paragraph) to the page "
                                    f"that lists them"))
        elif block.items != n:
            problems.append(Problem(page.rel, m.line, ERROR, "count",
                                    f"{m.call} says {said} ({n}), but the list that follows ({page.rel}:{block.line}) has "
                                    f"{block.items} items: the count is len(DATAFLOW_DIFFERENCES)-style data in "
                                    f"calculators/; make the list match it"))
    return problems


def _counts_there(page, call: str) -> bool:
    return any(m.core_call == call and _list_after(page, m.line) is not None for m in page.macros)
