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
  {{ ex("device", form="einem") }}  a name of the page's running example (model, device, memory, weights, kv,
                             compute), with the article its grammar takes (calculators/example/names.py)
  {{ say("step.bound") }}    a sentence that depends on the running example's numbers, the variant that holds
                             for the page's default example (calculators/example/variants.py)

On the pages of the running example (EXAMPLE_PAGES), its figures, names,
sentences and charts are marked so that the example control re-renders them
in place for the reader's example (calculators/example/render.py).
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
from calculators.example import figures as example_figures
from calculators.example import names as example_names
from calculators.example import variants as example_variants
from calculators.example.declare import default_case
from calculators.example.render import SAYS, say_figures
from calculators.example import html as example_html
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
    def fig(id: str, *, art: str | None = None, noun: str | None = None, style: str | None = None,
            input: str | None = None) -> str:
        """A figure as a link to its row on the sources page (the popover script explains it in place),
        with the Italian article before it and the counted noun after it where the page asks, in the form
        running text needs where it asks (`style`: "times" for a factor, "words" for a small count). On a page of the
        running example, one of its figures with such words is wrapped, so that the words follow a new value,
        and one with `input` (a field of the example control: "context", "batch") is a number the reader can
        change in place (docs/assets/calculators.js makes it a spin button)."""
        f = figures.get(id)
        usage.record(lang(), env.page.file.src_uri, id)   # the build hook compares this with the sources
        _FIGS_ON_PAGE.append(id)
        if input is not None:
            return example_input(id, f, input)
        html = figure_html(id, f.format(lang(), style), lang(), art, noun, f"{_PAGE['sources']}#fig-{escape(id)}", style)
        if (art or noun or style) and id in example_figures.ids(_PAGE.get("example") or ""):
            forms = termbase.load(ROOT, lang()).get(noun) if noun else None
            data = f' data-art="{escape(art)}"' if art else ""
            data += f' data-style="{escape(style)}"' if style else ""
            data += f' data-noun="{escape(forms.term)}|{escape(forms.plural or "")}"' if forms else ""
            html = f'<span class="ex-g" data-fig="{escape(id)}"{data}>{html}</span>'
        return html

    def example_input(id: str, f, field: str) -> str:
        """A number of the running example the reader can change in place: the figure, marked with the control's
        field it sets (its label for screen readers, its value); without JavaScript, the figure as printed."""
        calc = widgets.example_control(_PAGE.get("example") or "")
        if calc is None or field not in {c.name for c in calc.fields} or id not in example_figures.ids(_PAGE["example"]):
            raise ValueError(f"docs/{env.page.file.src_uri}: fig({id!r}, input={field!r}) needs a page of the running example, "
                             f"one of its figures and a field of its control")
        label = escape(tr(calc.field(field).label))
        return (f'<span class="fig ex-input" data-fig="{escape(id)}" data-field="{escape(field)}" '
                f'data-value="{escape(str(f.value))}" data-label="{label}">{escape(f.format(lang()))}</span>')

    def example_case():
        page = _PAGE.get("example")
        if not page:
            raise ValueError(f"docs/{env.page.file.src_uri}: ex() and say() belong on a page of the running example "
                             f"({', '.join(EXAMPLE_PAGES)})")
        return default_case(catalog.load(), page)

    @env.macro
    def ex(key: str, form: str = "", cap: bool = False) -> str:
        """One of the running example's names, with the article the page's grammar asks for (`form`)."""
        text = example_names.name(key, example_case(), lang(), tr, form, cap)
        data = f' data-form="{escape(form)}"' if form else ""
        data += ' data-cap="1"' if cap else ""
        return f'<span class="ex-name" data-ex="{escape(key)}"{data}>{escape(text)}</span>'

    @env.macro
    def say(id: str) -> str:
        """The sentence (or list) of the running example whose variant holds for the page's default example."""
        if id not in SAYS:
            raise KeyError(f"say(): unknown sentence {id!r}; known: {', '.join(sorted(SAYS))}")
        c = example_case()
        for fid in say_figures(id, c):
            usage.record(lang(), env.page.file.src_uri, fid)   # the checks know these too (sitebuild/checks/cache.py)
            _FIGS_ON_PAGE.append(fid)
        return example_variants.html(SAYS[id], c, example_figures.registry(c), lang(), tr, _PAGE["sources"])

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
        if _PAGE.get("example") and name in charts.EXAMPLE_CHARTS:   # the example control redraws it
            return f'<div class="ex-chart" data-chart="{escape(name)}">{draw(lang(), tr)}</div>'
        return draw(lang(), tr)

    @env.macro
    def calculator(name: str) -> str:
        seen = _CALCULATORS_ON_PAGE[name] = _CALCULATORS_ON_PAGE.get(name, 0) + 1
        return widgets.render(name, lang(), tr, None if seen == 1 else f"{name}-{seen}")

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
    runs too (calculators/example/html.py, shared with the running example's
    re-render), and the noun forms from the page language's termbase.
    """
    forms = None
    if noun is not None:
        t = termbase.load(ROOT, lang).get(noun)
        forms = (t.term, t.plural)
    return example_html.figure_html(id, text, lang, art, forms, href, style)


# How often each calculator has appeared on the page being rendered (its ids must stay unique).
_CALCULATORS_ON_PAGE: dict = {}
# The sources the page being rendered cites, in order (its footnote list).
_CITATIONS = citations.PageCitations()
# The figures the page being rendered prints (its provenance data).
_FIGS_ON_PAGE: list = []
# The page being rendered: its language, the sources page relative to it (every figure links there) and,
# on a page of the running example, which page's example it is.
_PAGE: dict = {}
# The pages of the running example (calculators/example/example.py: PAGES) by their file name.
EXAMPLE_PAGES = {"decode.md": "decode", "speed.md": "speed"}


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
    name = pathlib.PurePosixPath(env.page.file.src_uri).name
    _PAGE.update(lang=language, sources=_page_url(env, language, "sources/"), example=EXAMPLE_PAGES.get(name))


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
        example = 'data-calc="example' in env.markdown
        env.markdown += "\n\n" + widgets.page_assets(language, tr, rt.page_urls(), assets, rt.scripts_version, example) + "\n"
    _dump_for_benchmark(language, name, env.markdown)


def _dump_for_benchmark(language: str, name: str, markdown: str) -> None:
    """With SITE_DUMP_MARKDOWN=dir, keep each rendered page: `make bench` builds them without macros as its baseline."""
    target = os.environ.get("SITE_DUMP_MARKDOWN")
    if target:
        path = pathlib.Path(target) / language / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(markdown, encoding="utf-8")
