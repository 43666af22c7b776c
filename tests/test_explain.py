"""Explanations in place, in the built site and in Chromium: every figure can be opened by
click, tap and keyboard and shows its formula with values and its sources; a glossary term
opens its explanation on a touch screen; without JavaScript a figure is a link to its row on
the sources page."""

from __future__ import annotations

import json
import pathlib
import re
import sys

import pytest

from test_site import LANGS, page, site  # noqa: F401  (the built site, once per module)

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))
from static_server import StaticServer  # noqa: E402

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PREFIX = {"de": "", "en": "en/", "da": "da/", "it": "it/"}


def provenance(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="fig-provenance">(.*?)</script>', html, re.S)
    assert m, "page has no provenance data"
    return json.loads(m.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_on_the_page_is_explained_and_links_its_row(site, lang):
    html = page(site, lang, "decode").read_text(encoding="utf-8")
    data = provenance(html)
    links = re.findall(r'<a class="fig" href="([^"]+)" data-fig="([^"]+)"[^>]*>', html)
    assert links, "no figures on the article"
    sources = page(site, lang, "sources").read_text(encoding="utf-8")
    for href, fid in links:
        assert fid in data["figs"], fid
        assert href == f"../sources/#fig-{fid}", href
        assert f'id="fig-{fid}"' in sources, f"sources page has no row for {fid}"
    kv = data["figs"]["kv.llama70b.bytes_per_token"]
    assert kv["expression"].startswith("80 ") and kv["expression"].endswith(kv["value"])
    assert any(data["src"][ref]["url"].startswith("https://") for t in kv["terms"] for ref in t["inputs"])
    named = {ref for f in data["figs"].values() for t in [f, *f.get("terms", [])] for ref in t["inputs"]}
    assert named == set(data["src"]), "every catalog entry is written once, and only if a figure names it"


@pytest.mark.parametrize("lang", LANGS)
def test_ranges_and_max_formulas_show_their_substitutions(site, lang):
    """A range shows the substitution of its low end, then of its high end; a roofline step shows max(…, …)."""
    data = provenance(page(site, lang, "decode").read_text(encoding="utf-8"))
    rng = data["figs"]["speedup.gpt-oss-120b.vs_gpu_measured"]
    low_side, _, rest = rng["expression"].partition(" … ")
    assert low_side.startswith("713") and rest.endswith(" = " + rng["value"]) and rest.count("÷") == 1
    speed = provenance(page(site, lang, "speed").read_text(encoding="utf-8"))["figs"]["speed.ttft"]
    assert speed["expression"].startswith("max(") and [t["id"] for t in speed["terms"]] == ["speed.ttft.compute", "speed.ttft.memory"]


@pytest.fixture(scope="module")
def served(site, browser):  # noqa: F811  (conftest.py: one Chromium, skipped together without it)
    with StaticServer(site) as srv:
        yield browser, srv.origin


def _open(browser, url, **kw):
    ctx = browser.new_context(**kw)
    pg = ctx.new_page()
    pg.goto(url)
    return ctx, pg


@pytest.mark.parametrize("lang", LANGS)
def test_click_shows_formula_values_and_a_source_link(served, lang):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/{PREFIX[lang]}decode/", viewport={"width": 1280, "height": 900})
    fig = pg.locator('a.fig[data-fig="kv.llama70b.bytes_per_token"]').first
    fig.click()
    box = pg.locator("#explain-box")
    assert box.is_visible()
    text = box.inner_text()
    assert "80" in text and "128" in text and fig.inner_text() in text
    assert box.locator('a[href^="https://"]').count() >= 1
    assert fig.get_attribute("aria-expanded") == "true"
    pg.mouse.click(5, 300)                                 # a click elsewhere closes
    assert pg.locator("#explain-box").count() == 0
    ctx.close()


def test_keyboard_enter_space_and_escape(served):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/en/decode/", viewport={"width": 1280, "height": 900})
    fig = pg.locator('a.fig[data-fig="step.llama70b.h100.memory_time"]').first
    fig.focus()
    pg.keyboard.press("Enter")
    assert pg.evaluate("document.activeElement.id") == "explain-box"     # focus moves into the dialog
    assert pg.locator("#explain-box").get_attribute("role") == "dialog"
    pg.keyboard.press("Escape")
    assert pg.locator("#explain-box").count() == 0
    assert pg.evaluate("document.activeElement.dataset.fig") == "step.llama70b.h100.memory_time"
    pg.keyboard.press(" ")
    assert pg.locator("#explain-box").is_visible()
    ctx.close()


def test_tap_on_a_glossary_term_explains_it_on_a_phone(served):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/da/decode/", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    term = pg.locator("abbr.term").first
    term.scroll_into_view_if_needed()
    term.tap()
    box = pg.locator("#explain-box")
    assert box.is_visible() and term.inner_text() in box.inner_text() and len(box.inner_text()) > 40
    ctx.close()


def test_open_in_calculator_reproduces_the_printed_value(served):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/en/decode/", viewport={"width": 1280, "height": 900})
    fig = pg.locator('a.fig[data-fig="kv.llama70b.total.131072"]').first
    printed = fig.inner_text()
    fig.click()
    pg.locator("#explain-box a.explain-calc").click()
    pg.wait_for_load_state()
    assert "kv_cache.context=131072" in pg.url
    calc = pg.locator('.calc[data-instance="kv_cache"]')
    calc.scroll_into_view_if_needed()
    pg.wait_for_function("() => document.querySelector('.calc[data-instance=\"kv_cache\"] .calc-output')"
                         ".textContent.includes(" + json.dumps(printed) + ")", timeout=120_000)
    ctx.close()


def test_without_javascript_a_figure_links_its_sources_row(served):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/it/decode/", java_script_enabled=False)
    pg.locator('a.fig[data-fig="weights.llama70b.bytes"]').first.click()
    assert pg.url.endswith("/it/sources/#fig-weights.llama70b.bytes")
    ctx.close()


def test_axe_clean_with_a_popover_open(served):
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: run `npm ci`")
    browser, base = served
    ctx, pg = _open(browser, f"{base}/en/decode/", viewport={"width": 1280, "height": 900})
    pg.locator('a.fig[data-fig="kv.llama70b.bytes_per_token"]').first.click()
    pg.add_script_tag(path=str(AXE))
    bad = pg.evaluate("async () => (await axe.run(document)).violations.filter(v => ['serious','critical'].includes(v.impact))"
                      ".map(v => ({id: v.id, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    assert not bad, json.dumps(bad, indent=1)
    ctx.close()


CATALOG_KEY = re.compile(r"^(models|devices|racks|measurements|data|interconnects|platforms|engines|efficiency|acceptance|latencies)\.")


@pytest.mark.parametrize("lang", LANGS)
def test_inputs_are_named_in_words_never_by_their_catalog_key(site, lang):
    """'measurements.infercom-gpt-oss-120b' and 'data.gpu-fused-operators' are the sources page's keys, not names."""
    seen = 0
    for name in ("decode", "speed", "factcheck", "glossary", "index"):
        data = provenance(page(site, lang, name).read_text(encoding="utf-8"))
        for ref, entry in data["src"].items():
            seen += 1
            assert not CATALOG_KEY.match(entry["name"]) and ref not in entry["name"], (lang, name, ref, entry["name"])
            assert entry["name"] or entry["title"], (lang, ref)
            if ref.startswith("measurements."):
                assert ": " in entry["name"], f"{ref}: a measurement is named by its model and who measured it"
    assert seen > 20


def test_a_measurement_popover_shows_no_catalog_key(served):
    browser, base = served
    ctx, pg = _open(browser, f"{base}/it/decode/", viewport={"width": 1280, "height": 900})
    fig = pg.locator('a.fig[data-fig="speedup.gpt-oss-120b.vs_gpu_measured"]').first
    fig.click()
    text = pg.locator("#explain-box").inner_text()
    assert "Infercom" in text and "measurements." not in text and "data." not in text, text
    ctx.close()


def test_a_long_popover_stays_on_a_phone_screen(served, site):
    """Below its figure, or above it where there is more room; never past the screen's bottom or top."""
    browser, base = served
    data = provenance(page(site, "en", "decode").read_text(encoding="utf-8"))
    longest = max(data["figs"], key=lambda i: len(json.dumps(data["figs"][i])))
    ctx, pg = _open(browser, f"{base}/en/decode/", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    fig = pg.locator(f'a.fig[data-fig="{longest}"]').first
    for where in ("bottom", "top"):   # the figure on the screen's last line, then on its first
        fig.evaluate("""(el, where) => { const r = el.getBoundingClientRect();
            window.scrollBy(0, where === "bottom" ? r.bottom - window.innerHeight + 12 : r.top - 70); }""", where)
        fig.tap()
        box = pg.locator("#explain-box")
        assert box.is_visible()
        r = box.evaluate("(b) => { const r = b.getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight]; }")
        assert r[0] >= 0 and r[1] <= r[2], f"{longest} ({where}): the box spans {r[0]:.0f}..{r[1]:.0f} of {r[2]} px"
        fig.tap()   # closes it
    ctx.close()
