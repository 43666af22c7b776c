"""MkDocs adapter (mkdocs-macros): exposes figures, charts, tables and UI strings to pages.

Thin on purpose: numbers come from calculators/, tables and strings from
sitebuild/. The only MkDocs knowledge here is how to find the language being
built: the i18n plugin's current_language, read at render time (a fallback
page's file.locale would name the source language, not the page's).

Page macros:
  {{ fig("id") }}            a figure, formatted for the page's language
  {{ fig("id", art="al") }}  Italian: with the article or articulated preposition the number
                             takes (al 13%, all'11%, allo 0,3%); name the form used before a
                             consonant: il i la le, del dei della delle, al ai ..., sul sui ...
  {{ fig("id", noun="kv-head") }}  followed by the termbase term in the singular or plural the
                             number takes ("1 KV-Kopf", "8 KV-Köpfe"); calculators/text/grammar.py
  {{ term("kv-cache") }}     a term as the language's termbase writes it (locales/terms/<lang>.toml);
                             cap=True starts it with a capital (glossary headings), plural=True
  {{ src("measurements.x") }} a footnote marker for a catalog entry's source; the
                             page's source list (linked titles, access dates) is appended
  {{ chart("name") }}        an inline SVG chart (calculators/article/charts.py)
  {{ calculator("name") }}   a calculator with its pre-rendered default result
  {{ sources_table() }}, {{ figures_table() }}, {{ factcheck_table() }}
  {{ measurements_table() }} every published measurement beside ceiling and expected speed
  {{ t("msgid") }}           a UI string from locales/<lang>.po
  {{ claim("id", about=2.7e9) }}  a figure the prose states a value for; the build
                             fails when the value is off (sitebuild/checks/claim.py)
  {{ translation_status() }} the translation status tables (sitebuild/translations.py)
  {{ repository_url() }}     the repository the site is built from, or "" (About page:
                             `{% if repository_url() %}…{% else %}…{% endif %}`)
"""

from __future__ import annotations

import os
import pathlib
from html import escape

from calculators.data import catalog
from calculators.article import charts
from calculators.article import figures
from calculators.text import grammar
from sitebuild import accuracy_tables, citations, glossary, provenance, runtime, tables, termbase, translations, widgets
from sitebuild.checks import claim as claims_in_prose
from sitebuild.checks import usage
from sitebuild.strings import LANGS, Strings, Translator

STRINGS = Strings()
ROOT = pathlib.Path(__file__).resolve().parent


# One translator per language and build (made anew in define_env, which each build and each rebuild under
# `mkdocs serve` calls): the explanations a build keeps (sitebuild/provenance.py) are kept per translator,
# so they are shared by the pages of a build and never outlive it.
_TRANSLATORS: dict = {}


def define_env(env):
    _TRANSLATORS.clear()
    _TRANSLATORS.update({lang: Translator(STRINGS, lang) for lang in LANGS})
    def lang() -> str:
        return _PAGE["lang"]

    def tr(msgid: str, context: str | None = None) -> str:
        return _TRANSLATORS[lang()](msgid, context)

    @env.macro
    def fig(id: str, *, art: str | None = None, noun: str | None = None, style: str | None = None) -> str:
        """A figure as a link to its row on the sources page (the popover script explains it in place),
        with the Italian article before it and the counted noun after it where the page asks, in the form
        running text needs where it asks (`style`: "times" for a factor, "words" for a small count)."""
        f = figures.get(id)
        usage.record(lang(), env.page.file.src_uri, id)   # the build hook compares this with the sources
        _FIGS_ON_PAGE.append(id)
        return figure_html(id, f.format(lang(), style), lang(), art, noun, f"{_PAGE['sources']}#fig-{escape(id)}", style)

    @env.macro
    def term(id: str, cap: bool = False, plural: bool = False) -> str:
        t = termbase.load(ROOT, lang()).get(id)
        word = (t.plural or t.term) if plural else t.term
        return escape(word[:1].upper() + word[1:] if cap else word)

    @env.macro
    def src(ref: str) -> str:
        """A footnote marker; the page's source list is appended by on_post_page_macros."""
        rec = citations.record(ref, catalog.load())
        number, occurrence = _CITATIONS.cite(rec.src)
        return citations.marker(number, occurrence, citations.describe(rec.src, lang(), tr))

    @env.macro
    def chart(name: str) -> str:
        try:
            draw = charts.CHARTS[name]
        except KeyError:
            raise KeyError(f"chart(): unknown chart {name!r}; known: {', '.join(charts.CHARTS)}") from None
        return draw(lang(), tr)

    @env.macro
    def calculator(name: str) -> str:
        seen = _CALCULATORS_ON_PAGE[name] = _CALCULATORS_ON_PAGE.get(name, 0) + 1
        return widgets.render(name, lang(), tr, name if seen == 1 else f"{name}-{seen}")

    @env.macro
    def t(msgid: str, context: str | None = None) -> str:
        return escape(tr(msgid, context))

    @env.macro
    def claim(id: str, about=None, at_least=None, at_most=None, scale: float = 1.0, tolerance: float | None = None, *,
              art: str | None = None, noun: str | None = None) -> str:
        """A figure whose value the sentence states: printed like fig(); off by more than the tolerance, the build fails."""
        problem = claims_in_prose.evaluate(id, figures.registry(), about=about, at_least=at_least, at_most=at_most,
                                           scale=scale, tolerance=tolerance)
        if problem:
            raise ValueError(f"docs/{env.page.file.src_uri}: {problem}")
        return fig(id, art=art, noun=noun)

    @env.macro
    def repository_url() -> str:
        """The repository the site is built from (mkdocs.yml `extra: repository:`, else `repo_url`), or ""
        when none is configured: the About page then says how to report an error without promising a link."""
        conf = env.conf
        extra = conf.get("extra") or {}
        return str(extra.get("repository") or conf.get("repo_url") or "")

    env.macro(lambda: translations.status_page(ROOT, tr), "translation_status")
    env.macro(lambda: tables.sources_table(lang(), tr), "sources_table")
    env.macro(lambda: tables.figures_table(lang(), tr), "figures_table")
    env.macro(lambda: accuracy_tables.summary(lang(), tr), "accuracy_summary")
    env.macro(lambda: accuracy_tables.rows(lang(), tr), "accuracy_rows")

    def cite(src) -> str:
        number, occurrence = _CITATIONS.cite(src)
        return citations.marker(number, occurrence, citations.describe(src, lang(), tr))

    def table_fig(id: str, style: str | None = None) -> str:
        """A figure inside a generated table: linked and explained like fig(), but, like the fact-check
        table's, not one the page's source states (the render-parity check counts those); `style` as fig()'s."""
        _FIGS_ON_PAGE.append(id)
        return figure_html(id, figures.get(id).format(lang(), style), lang(), href=f"{_PAGE['sources']}#fig-{escape(id)}",
                           style=style)

    env.macro(lambda: tables.factcheck_table(lang(), tr, table_fig), "factcheck_table")
    env.macro(lambda: tables.measurements_table(lang(), tr, table_fig, cite), "measurements_table")


def figure_html(id: str, text: str, lang: str, art: str | None = None, noun: str | None = None, href: str | None = None,
                style: str | None = None) -> str:
    """A figure (a link to its sources row, or a span), with the Italian article before it and the counted noun after it, agreeing with `text`.

    The span holds the figure alone (what the tests and the browser compare);
    the words around it come from calculators/text/grammar.py, which the browser
    runs too, and the noun forms from the page language's termbase.
    """
    styled = f' data-style="{escape(style)}"' if style else ""     # the prose form the text is in (fig(..., style=))
    if href is None:
        html = f'<span class="fig" data-fig="{escape(id)}"{styled}>{escape(text)}</span>'
    else:
        html = f'<a class="fig" href="{href}" data-fig="{escape(id)}"{styled}>{escape(text)}</a>'
    if art is not None:
        with_article = grammar.article(text, art, lang)
        html = escape(with_article[: len(with_article) - len(text)], quote=False) + html
    if noun is not None:
        t = termbase.load(ROOT, lang).get(noun)
        html += "\u00a0" + escape(grammar.noun_form(text, lang, t.term, t.plural), quote=False)
    return html


# How often each calculator has appeared on the page being rendered (its ids must stay unique).
_CALCULATORS_ON_PAGE: dict = {}
# The sources the page being rendered cites, in order (its footnote list).
_CITATIONS = citations.PageCitations()
# The figures the page being rendered prints (its provenance data).
_FIGS_ON_PAGE: list = []
# The page being rendered: its language and the sources page relative to it (every figure links there).
_PAGE: dict = {}


def _page_url(env, language: str, target: str) -> str:
    """`target` (a page of the same language, e.g. "sources/") relative to the page being rendered."""
    from mkdocs.utils import get_relative_url  # here, not at the top: the checks load this file without MkDocs
    here = env.page.url or "./"
    prefix = f"{language}/" if here.startswith(f"{language}/") else ""
    return get_relative_url(prefix + target, here)


def on_pre_page_macros(env):
    global _CITATIONS
    _CALCULATORS_ON_PAGE.clear()
    _FIGS_ON_PAGE.clear()
    _CITATIONS = citations.PageCitations()
    language = env.conf.plugins["i18n"].current_language
    _PAGE.update(lang=language, sources=_page_url(env, language, "sources/"))


def on_post_page_macros(env):
    """Append the glossary's hover explanations (abbr definitions) for terms the page uses,
    and, on a page with a calculator, its translations for the browser and its script."""
    language = _PAGE["lang"]
    name = pathlib.PurePosixPath(env.page.file.src_uri).name
    if name != "glossary.md":
        env.markdown = glossary.mark_terms(language, env.markdown)
    tr_page = _TRANSLATORS[language]
    sources = citations.footnotes(_CITATIONS, language, tr_page, tables.accessed)
    if sources:
        env.markdown += "\n\n" + sources + "\n"
    if _FIGS_ON_PAGE:
        urls = {"sources": _page_url(env, language, "sources/"), "calculators": _page_url(env, language, "calculators/")}
        env.markdown += "\n\n" + provenance.page_json(_FIGS_ON_PAGE, language, tr_page, tables.accessed, urls) + "\n"
    if widgets.MARKER in env.markdown:
        from mkdocs.utils import get_relative_url  # here, not at the top: the checks load this file without MkDocs
        rt = runtime.info(env.conf.extra)
        assets = get_relative_url("assets/", env.page.url or "./").rstrip("/") + "/"
        tr = _TRANSLATORS[language]
        env.markdown += "\n\n" + widgets.page_assets(language, tr, rt.page_urls(), assets, rt.scripts_version) + "\n"
    _dump_for_benchmark(language, name, env.markdown)


def _dump_for_benchmark(language: str, name: str, markdown: str) -> None:
    """With SITE_DUMP_MARKDOWN=dir, keep each rendered page: `make bench` builds them without macros as its baseline."""
    target = os.environ.get("SITE_DUMP_MARKDOWN")
    if target:
        path = pathlib.Path(target) / language / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown, encoding="utf-8")
