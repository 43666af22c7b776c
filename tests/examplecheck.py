"""The checks on one rendered example, shared by the variant sweep (tests/test_example_sweep.py) and the
hand-made examples that reach the variants no catalog model does (tests/test_example.py).

For one example on one page, in every language: every figure finite, every
formula object giving its figure's value, every sentence the example chooses
rendered with all its placeholders filled, every name in the forms the page
uses, every explanation and (on the main article) every chart, and none of
them printing NaN, infinity or None; every sentence printing the same
figures in every language (parity); and the prose lints over the rendered
text, where sitebuild/checks has them.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from functools import lru_cache

from calculators.example import figures as X
from calculators.example import names, render, variants
from calculators.ui import example_charts
from sitebuild.checks import formulas
from sitebuild.checks.source import load as load_page
from sitebuild.strings import LANGS, Strings

ROOT = pathlib.Path(__file__).resolve().parent.parent
STRINGS = Strings()
BAD = re.compile(r"\b(?:nan|NaN|inf|Infinity|None)\b")
TAG = re.compile(r"<[^>]+>")
FIG = re.compile(r'data-fig="([^"]+)"')


def tr_for(lang: str):
    return lambda msgid, context=None: STRINGS.get(msgid, lang, context)


@lru_cache(maxsize=None)
def macros(lang: str, page: str) -> tuple:
    return tuple(load_page(ROOT, f"docs/{lang}/{page}.md").macros)


@lru_cache(maxsize=None)
def plain_ids(lang: str, page: str) -> frozenset:
    """The running example's figures a page prints outside its sentences: every example must have each."""
    ids = X.ids(page)
    return frozenset(m.args[0] for m in macros(lang, page) if m.name == "fig" and m.args and m.args[0] in ids)


@lru_cache(maxsize=None)
def name_calls(lang: str, page: str) -> tuple:
    return tuple((m.args[0], dict(m.kwargs).get("form", ""), bool(dict(m.kwargs).get("cap", False)))
                 for m in macros(lang, page) if m.name == "ex" and m.args)


@lru_cache(maxsize=1)
def lint():
    """The prose lints over rendered text, where sitebuild/checks has them (None otherwise)."""
    try:
        from sitebuild.checks import prose, prose_context
    except ImportError:
        return None
    contexts = {lang: prose_context.context(ROOT, lang) for lang in LANGS}
    return lambda text, lang: prose.lint(text, lang, contexts[lang])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", TAG.sub("", html)).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")


def check(c, where: str) -> tuple:
    """(problems, sentences rendered, {(say, variant)} chosen) for the example `c` on its page, in every language."""
    problems, counted, chosen = [], 0, set()
    reg = X.registry(c)
    for p in formulas.check(reg, ROOT):
        problems.append(f"{where}: {p.message}")
    for fid, f in reg.items():
        values = f.value if isinstance(f.value, tuple) else (f.value,)
        if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
            problems.append(f"{where}: figure {fid} is {f.value!r}")
    says = [s for s in render.SAYS.values() if c.page in s.pages]
    linter = lint()
    figures_said: dict = {}     # say id -> {language: the figures its sentence prints}: the same in every language
    for lang in LANGS:
        tr = tr_for(lang)
        missing = plain_ids(lang, c.page) - set(reg)
        if missing:
            problems.append(f"{where} ({lang}): the page prints {sorted(missing)} outside a sentence; the example has none")
        texts = [names.name(key, c, lang, tr, form, cap) for key, form, cap in name_calls(lang, c.page)]
        for s in says:
            try:
                picked = s.chosen(c)
                html = variants.inner_html(s, c, reg, lang, tr, "../sources/", picked)
            except Exception as err:  # noqa: BLE001 - every failure is reported with its example
                problems.append(f"{where} ({lang}): say {s.id}: {err!r}")
                continue
            chosen.update((s.id, k) for k, _ in picked)
            figures_said.setdefault(s.id, {})[lang] = sorted(FIG.findall(html))
            texts.append(text_of(html))
            counted += 1
        texts += [f.format(lang) for f in reg.values()]
        blob = json.dumps(render.explanations(c, reg, lang, tr, list(reg)), ensure_ascii=False)
        if BAD.search(blob):
            problems.append(f"{where} ({lang}): an explanation prints {BAD.search(blob).group(0)}")
        if c.page == "decode":
            texts += [text_of(draw(c, lang, tr)) for draw in example_charts.CHARTS.values()]
        for text in texts:
            if BAD.search(text):
                problems.append(f"{where} ({lang}): {BAD.search(text).group(0)} in {text[:160]!r}")
            for finding in (linter(text, lang) if linter else ()):
                problems.append(f"{where} ({lang}): {finding.code}: {finding.quote!r} in {text[:160]!r}")
    for sid, per_lang in figures_said.items():
        if len({tuple(v) for v in per_lang.values()}) > 1:
            problems.append(f"{where}: say {sid} prints other figures in other languages: {per_lang}")
    return problems, counted, chosen
