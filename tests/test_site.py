"""Build the whole site once into a temporary folder and check the HTML readers get."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import unescape as html_unescape
from html.parser import HTMLParser

import pytest

from calculators.article import charts
from calculators.article import figures
from sitebuild import glossary, html_table
from sitebuild.strings import Strings

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("de", "en", "da", "it")
PAGES = sorted(p.stem for p in (ROOT / "docs" / "de").glob("*.md"))
STRINGS = Strings()


def build_site(out: pathlib.Path, root: pathlib.Path = ROOT, extra_env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("site")
    proc = build_site(out, extra_env={"SITE_URL": SITE_URL, "SITE_REPOSITORY": REPOSITORY})
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def page(site: pathlib.Path, lang: str, name: str) -> pathlib.Path:
    prefix = site if lang == "de" else site / lang
    return prefix / "index.html" if name == "index" else prefix / name / "index.html"


class Tags(HTMLParser):
    """Collects start tags with their attributes, and the text of fig spans."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.figs, self._fig = [], [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag in ("span", "a") and a.get("class") == "fig":
            self._fig = [a["data-fig"], "", a.get("data-style")]
            self._fig_tag = tag

    def handle_data(self, data):
        if self._fig is not None:
            self._fig[1] += data

    def handle_endtag(self, tag):
        if self._fig is not None and tag == self._fig_tag:
            self.figs.append(tuple(self._fig))
            self._fig = None


def parse(path: pathlib.Path) -> Tags:
    t = Tags()
    t.feed(path.read_text(encoding="utf-8"))
    return t


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_exists_in_every_language(site, lang):
    missing = [p for p in PAGES if not page(site, lang, p).exists()]
    assert not missing, f"{lang}: missing pages {missing}"


SITE_URL = "https://decode.example/"  # what a deployment sets (SITE_URL); the site is built for it here
REPOSITORY = "https://git.decode.example/site"  # and the repository it is built from (SITE_REPOSITORY)


def _resolve(site: pathlib.Path, path: pathlib.Path, href: str) -> pathlib.Path:
    target = (site / href.lstrip("/") if href.startswith("/") else path.parent / href).resolve()
    return target / "index.html" if target.is_dir() else target


@pytest.mark.parametrize("lang", LANGS)
def test_html_lang_and_language_links(site, lang):
    """The head names each language's root (where the theme finds its sitemap.xml); the selector links
    to this page in each language."""
    for name in PAGES:
        path = page(site, lang, name)
        tags = parse(path).tags
        html = next(a for t, a in tags if t == "html")
        assert html["lang"] == lang, f"{path}: <html lang={html['lang']}>"
        alternates = {a["hreflang"]: a["href"] for t, a in tags if t == "link" and a.get("rel") == "alternate" and "hreflang" in a}
        assert set(alternates) == set(LANGS), f"{path}: hreflang {sorted(alternates)}"
        for other, href in alternates.items():
            assert _resolve(site, path, href) == page(site, other, "index").resolve(), f"{path}: head alternate {other} -> {href}"
            sitemap = _resolve(site, path, href).parent / "sitemap.xml"
            assert sitemap.is_file(), f"{path}: the theme would ask for {sitemap} and get a 404"
        selector = {a["hreflang"]: a["href"] for t, a in tags if t == "a" and "md-select__link" in a.get("class", "")}
        assert set(selector) == set(LANGS), f"{path}: language selector {sorted(selector)}"
        for other, href in selector.items():
            assert _resolve(site, path, href) == page(site, other, name).resolve(), f"{path}: selector {other} -> {href}"


def _sitemap(path: pathlib.Path) -> dict:
    """loc -> {hreflang: href} of a sitemap."""
    ns = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(path).getroot()
    return {u.findtext("sm:loc", namespaces=ns): {a.get("hreflang"): a.get("href") for a in u.findall("x:link", ns)}
            for u in root.findall("sm:url", ns)}


def test_sitemaps_name_every_page_under_the_site_url(site):
    def url(lang: str, name: str) -> str:
        return SITE_URL + ("" if lang == "de" else f"{lang}/") + ("" if name == "index" else f"{name}/")

    everything = _sitemap(site / "sitemap.xml")
    assert set(everything) == {url(lang, name) for lang in LANGS for name in PAGES}
    for loc, alternates in everything.items():
        name = next(n for n in PAGES if loc in {url(lang, n) for lang in LANGS})
        assert alternates == {lang: url(lang, name) for lang in LANGS}, loc
    for lang in LANGS[1:]:
        own = _sitemap(site / lang / "sitemap.xml")
        assert set(own) == {url(lang, name) for name in PAGES}, f"{lang}/sitemap.xml"
        assert all(own[loc] == everything[loc] for loc in own)
    assert "None" not in (site / "sitemap.xml").read_text(encoding="utf-8")


def test_every_figure_is_formatted_for_its_page_language(site):
    reg = figures.registry()
    seen = 0
    for lang in LANGS:
        for name in PAGES:
            for fig_id, text, style in parse(page(site, lang, name)).figs:
                assert text == reg[fig_id].format(lang, style), f"{lang}/{name}: {fig_id} shows {text!r}"
                seen += 1
    assert seen > 40, "the pages show too few figures for this check to mean anything"


def test_decimal_marks_per_locale(site):
    figs = {lang: {f[0]: f[1] for f in parse(page(site, lang, "decode")).figs} for lang in LANGS}
    kv = "kv.llama70b.total.8192"
    assert all(kv in f for f in figs.values()), "the article must show the 8K KV total"
    assert figs["en"][kv] == "2.68\u00a0GB"
    assert figs["de"][kv] == figs["da"][kv] == figs["it"][kv] == "2,68\u00a0GB"


def _chart_titles(path: pathlib.Path) -> list:
    return re.findall(r'<title id="(chart-[\w-]+)-title">([^<]*)</title>', path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_charts_present_with_labels_in_page_language(site, lang):
    strings = Strings()
    found = {}
    for name in PAGES:
        for chart_id, title in _chart_titles(page(site, lang, name)):
            found[chart_id] = title
    expected = {"chart-kv-context", "chart-step-split", "chart-batching", "chart-roofline"}
    assert expected <= set(found), f"{lang}: charts missing: {expected - set(found)}"
    # the title is the translation for this language, and it differs from the English msgid in de/da/it
    svg = charts.kv_vs_context(lang, lambda m, c=None: strings.get(m, lang, c))
    assert re.search(r"<title[^>]*>([^<]*)<", svg).group(1) == found["chart-kv-context"].replace("&#x27;", "'")
    if lang != "en":
        assert found["chart-kv-context"] != "KV cache grows with context, at a slope set by the attention design"


EXTERNAL = re.compile(r"^(?:https?:)?//(?!127\.0\.0\.1|localhost)", re.I)


def test_no_request_leaves_the_origin(site):
    """Scripts, styles, images, fonts and frames come from the site itself; only text links go out."""
    offenders = []
    for path in site.rglob("*.html"):
        for tag, a in parse(path).tags:
            for attr in ("src", "srcset", "data", "poster") + (("href",) if tag == "link" else ()):
                value = a.get(attr) or ""
                if tag == "link" and a.get("rel") in ("alternate", "canonical"):
                    continue
                if EXTERNAL.match(value):
                    offenders.append(f"{path.relative_to(site)}: <{tag} {attr}={value}>")
        inline = path.read_text(encoding="utf-8")
        for m in re.finditer(r"@import\s+url\(['\"]?(https?:)?//", inline):
            offenders.append(f"{path.relative_to(site)}: CSS import {m.group(0)}")
    for css in site.rglob("*.css"):
        for m in re.finditer(r"url\(['\"]?((?:https?:)?//[^)'\"]+)", css.read_text(encoding="utf-8", errors="replace")):
            offenders.append(f"{css.relative_to(site)}: url({m.group(1)})")
    assert not offenders, "\n".join(offenders[:20])


def test_search_answers_in_the_page_language(site):
    root_index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert root_index["config"]["lang"] == ["de"]
    assert not [d for d in root_index["docs"] if d["location"].split("/")[0] in LANGS[1:]]
    texts = {}
    for lang in LANGS:
        idx = root_index if lang == "de" else json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
        assert idx["config"]["lang"] == [lang]
        locations = {d["location"] for d in idx["docs"]}
        for name in PAGES:
            assert ("" if name == "index" else f"{name}/") in locations, f"{lang} index lacks {name}"
        texts[lang] = next(d["text"] for d in idx["docs"] if d["location"] == "decode/")
    assert len(set(texts.values())) == len(LANGS), "each language's index must hold its own text"
    # The figures table is left out (one entry for hundreds of rows, half the index); its section stays.
    for lang in LANGS:
        html = page(site, lang, "sources").read_text(encoding="utf-8")
        ids = re.findall(r"<code id=\"fig-([^\"]+)\">", html)
        assert len(ids) > 100 and "data-search-exclude" not in html
        idx = root_index if lang == "de" else json.loads((site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
        text = " ".join(d["text"] for d in idx["docs"] if d["location"].startswith("sources/"))
        assert "catalog" in text.lower() or "katalog" in text.lower() or "catalogo" in text.lower()
        assert not [i for i in ids if i in text], f"{lang}: the figures table is in the search index"
    # pages of non-default languages point their search at their own index
    en_html = page(site, "en", "decode").read_text(encoding="utf-8")
    assert '+ "en" + "/"' in en_html
    assert "cfg.base" not in page(site, "de", "decode").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_terms_explained_on_hover(site, lang):
    html = page(site, lang, "decode").read_text(encoding="utf-8")
    abbrs = {html_unescape(t): html_unescape(h) for h, t in re.findall(r'<abbr class="term" title="([^"]*)" tabindex="0">([^<]*)</abbr>', html)}
    spellings = {v: t for t in glossary.terms(lang) for v in glossary.variants(t)}
    assert len(abbrs) >= 3, f"{lang}: only {sorted(abbrs)} explained on hover"
    for shown, hover in abbrs.items():
        assert shown in spellings, f"{lang}: abbr {shown!r} is not a glossary term"
        assert hover == html_unescape(glossary.terms(lang)[spellings[shown]]), f"{lang}: hover text of {shown!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_is_marked_once_per_section(site, lang):
    """First use per section only: a page marks a term again only after a new `##` heading."""
    html = page(site, lang, "decode").read_text(encoding="utf-8")
    for section in re.split(r"<h2[ >]", html)[1:]:
        marked = [t.lower() for t in re.findall(r'<abbr class="term"[^>]*>([^<]*)</abbr>', section)]
        assert len(marked) == len(set(marked)), f"{lang}: a term is marked twice in one section: {marked}"


def test_root_404_page_is_in_the_default_language(site):
    """Each language build writes 404.html at the root; the German one must be the one that stays."""
    html = parse(site / "404.html").tags
    assert next(a for t, a in html if t == "html")["lang"] == "de"


def test_the_404_page_speaks_the_default_language(site):
    html = (site / "404.html").read_text(encoding="utf-8")
    assert "<h1>404 – Seite nicht gefunden</h1>" in html and "Not found" not in html
    assert "<title>Seite nicht gefunden – Warum der Decode am Speicher hängt</title>" in html


# The theme's own words, as the site's catalogs word them (sitebuild/theme_strings.py), written out by hand.
THEME_WORDS = {"de": ("Erstellt mit", "Link zu diesem Abschnitt", "Zurück zum Seitenanfang"),
               "en": ("Made with", "Link to this section", "Back to top"),
               "da": ("Lavet med", "Link til dette afsnit", "Til toppen"),
               "it": ("Realizzato con", "Link a questa sezione", "Torna su")}


@pytest.mark.parametrize("lang", LANGS)
def test_the_themes_words_are_the_sites(site, lang):
    html = page(site, lang, "glossary").read_text(encoding="utf-8")
    made_with, anchor, top = THEME_WORDS[lang]
    assert re.search(rf"{made_with} <a href=\"https://squidfunk.github.io/mkdocs-material/\"", html), lang
    assert f'title="{anchor}"' in html and 'title="Link to this section"' not in html or lang == "en"
    assert top in html
    title = re.search(r"<title>([^<]*)</title>", html).group(1)
    assert " – " in title and " - " not in title, title
    start = re.search(r"<title>([^<]*)</title>", page(site, lang, "index").read_text(encoding="utf-8")).group(1)
    assert "–" not in start, f"{lang}: a start page is titled by the site's name alone: {start}"


def test_colour_toggle_is_labelled_in_the_page_language(site):
    titles = {lang: re.search(r'title="([^"]*)"[^>]*for="__palette_1"', page(site, lang, "decode").read_text(encoding="utf-8")).group(1)
              for lang in LANGS}
    assert len(set(titles.values())) == len(LANGS), titles


# ------------------------------------------------------------- reader pages


@pytest.mark.parametrize("lang", LANGS)
def test_about_links_the_configured_repository(site, lang):
    html = page(site, lang, "about").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)"[^>]*>([^<]*)</a>', html)
    assert [text for href, text in links if href == REPOSITORY], f"{lang}: no link to {REPOSITORY}"
    assert "{%" not in html and "repository_url" not in html


def test_the_status_page_is_built_but_not_in_the_readers_menu(site):
    for lang in LANGS:
        assert page(site, lang, "status").exists(), lang
        nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>', page(site, lang, "decode").read_text(encoding="utf-8"), re.S)
        assert nav and "status/" not in nav.group(0), f"{lang}: the status page is in the menu"
        html = page(site, lang, "status").read_text(encoding="utf-8")
        assert 'class="status-about"' in html and 'class="data-table translation-status"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_search_results_from_table_pages_read_as_text(site, lang):
    """Cells and rows separated, header rows left out: no 'ClaimThe site's calculationVerdictWhy1…'."""
    idx = json.loads(((site if lang == "de" else site / lang) / "search" / "search_index.json").read_text(encoding="utf-8"))
    heads = {"de": ("Behauptung", "Ergebnis"), "en": ("Claim", "The site"), "da": ("Påstand", "Hvad"), "it": ("Affermazione", "")}[lang]
    for name in ("factcheck", "sources", "status"):
        text = " ".join(d["text"] for d in idx["docs"] if d["location"].startswith(f"{name}/"))
        assert text, f"{lang}: {name} is not in the index"
        assert STRINGS.get(html_table.SCROLL_HINT, lang) not in text, f"{lang}/{name}: the scroll hint is indexed"
        if name == "factcheck":   # each claim starts after a space, not glued to the verdict of the one before
            assert heads[0] + heads[1] not in text, f"{lang}: the header row is indexed"
            numbers = [n for n in range(1, 40) if f"{n}. " in text]
            assert len(numbers) > 10 and all(re.search(rf"(^|\s){n}\. ", text) for n in numbers[1:]), f"{lang}: {text[:300]}"


def test_german_addresses_under_de_lead_to_the_root(site):
    for name in PAGES:
        path = site / "de" / ("" if name == "index" else name) / "index.html"
        html = path.read_text(encoding="utf-8")
        target = "../" if name == "index" else f"../../{name}/"
        assert f'url={target}"' in html and f'location.replace("{target}" + location.search + location.hash)' in html, name
        assert f'<link rel="canonical" href="{SITE_URL}{"" if name == "index" else name + "/"}">' in html


def test_the_service_worker_lists_every_page_and_speaks_each_language(site):
    from sitebuild import runtime, service_worker
    text = (site / runtime.SERVICE_WORKER).read_text(encoding="utf-8")
    data = json.loads(text.split("=", 1)[1].split(";\n", 1)[0])
    assert data["pages"] == service_worker.pages(site), "the digests of the pages as built"
    assert {"", "en/decode/", "da/sources/", "it/"} <= set(data["pages"]) and "404.html" not in data["pages"]
    assert set(data["offline"]) == {"", "en/", "da/", "it/"}
    assert data["offline"][""]["lang"] == "de" and data["offline"]["da/"]["title"] == "Du er offline"
