"""MkDocs adapter (mkdocs-macros): exposes figures, charts, tables and UI strings to pages.

Thin on purpose: numbers come from calculators/, tables and strings from
sitebuild/. The only MkDocs knowledge here is how to find the language being
built: the i18n plugin's current_language, read at render time (a fallback
page's file.locale would name the source language, not the page's).

Page macros:
  {{ fig("id") }}            a figure, formatted for the page's language
  {{ src("measurements.x") }} a catalog entry's source and access date
  {{ chart("name") }}        an inline SVG chart (calculators/charts.py)
  {{ calculator("name") }}   a calculator with its pre-rendered default result
  {{ sources_table() }}, {{ figures_table() }}, {{ factcheck_table() }}
  {{ t("msgid") }}           a UI string from locales/<lang>.po
"""

from __future__ import annotations

import os
import pathlib
from html import escape

from calculators import catalog, charts, figures
from sitebuild import glossary, tables, widgets
from sitebuild.strings import Strings

STRINGS = Strings()


def define_env(env):
    def lang() -> str:
        return env.conf.plugins["i18n"].current_language

    def tr(msgid: str, context: str | None = None) -> str:
        return STRINGS.get(msgid, lang(), context)

    @env.macro
    def fig(id: str) -> str:
        f = figures.get(id)
        return f'<span class="fig" data-fig="{escape(id)}">{escape(f.format(lang()))}</span>'

    @env.macro
    def src(ref: str) -> str:
        section, key = ref.split(".", 1)
        cat = catalog.load()
        try:
            rec = getattr(cat, section)[key]
        except (AttributeError, KeyError):
            raise KeyError(f"src(): unknown catalog entry {ref!r}") from None
        accessed = tr("accessed")  # TRANSLATORS: "accessed <date>" after a source
        return f'<cite class="src">{escape(rec.src.source)}, {escape(accessed)} {tables.accessed(rec.src, lang())}</cite>'

    @env.macro
    def chart(name: str) -> str:
        try:
            draw = charts.CHARTS[name]
        except KeyError:
            raise KeyError(f"chart(): unknown chart {name!r}; known: {', '.join(charts.CHARTS)}") from None
        return draw(lang(), tr)

    @env.macro
    def calculator(name: str) -> str:
        return widgets.render(name, lang(), tr)

    @env.macro
    def t(msgid: str, context: str | None = None) -> str:
        return escape(tr(msgid, context))

    env.macro(lambda: tables.sources_table(lang(), tr), "sources_table")
    env.macro(lambda: tables.figures_table(lang(), tr), "figures_table")
    env.macro(lambda: tables.factcheck_table(lang(), tr), "factcheck_table")


def on_post_page_macros(env):
    """Append the glossary's hover explanations (abbr definitions) for terms the page uses."""
    language = env.conf.plugins["i18n"].current_language
    name = pathlib.PurePosixPath(env.page.file.src_uri).name
    if name != "glossary.md":
        env.markdown += glossary.abbreviations(language, env.markdown)
    _dump_for_benchmark(language, name, env.markdown)


def _dump_for_benchmark(language: str, name: str, markdown: str) -> None:
    """With SITE_DUMP_MARKDOWN=dir, keep each rendered page: `make bench` builds them without macros as its baseline."""
    target = os.environ.get("SITE_DUMP_MARKDOWN")
    if target:
        path = pathlib.Path(target) / language / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown, encoding="utf-8")
