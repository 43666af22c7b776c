"""The calculators in a real browser: headless Chromium against a site built once for this module.

What must hold for a reader (the issue's proof list): the pre-rendered default
is what the browser computes; changed inputs give what CPython computes for
the same inputs; bad input, typed the way each language types numbers, gets
its message next to the field and never a NaN; the URL carries the state,
also across the language switcher; nothing is requested from another origin;
without JavaScript, or without Pyodide, the defaults stay readable; axe-core
finds no serious or critical violation.

The site is built from a copy of the project whose calculators page is a
fixture (every calculator, one twice) and whose speed page puts a calculator
far below the fold (lazy start), so the tests do not depend on prose being
written (tools/calc_site.py). One browser serves the module; each language's page boots Pyodide
once and is shared by the tests (about 4 s per boot).
"""

from __future__ import annotations

import json
import pathlib
import re
import sys
import zipfile
from urllib.parse import parse_qsl, urlparse

import pytest

from calculators.data import catalog
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from sitebuild import runtime, widgets
from sitebuild.strings import Strings

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))
import calc_site  # noqa: E402
from calc_site import FIXTURE_INSTANCES as INSTANCES, page_path  # noqa: E402

CHROMIUM, ARGS = calc_site.CHROMIUM, calc_site.CHROMIUM_ARGS
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
LANGS = ("de", "en", "da", "it")
READY_MS = 120_000
FIXTURE_CALCS = calc_site.CALCULATORS
STRINGS = Strings()
OFFSITE: list = []


def tr_for(lang: str):
    return lambda msgid: STRINGS.get(msgid, lang)


def cpython(name: str, texts: dict, lang: str, instance: str) -> dict:
    """What the build's Python says for these field texts."""
    return ui.evaluate(name, texts, lang, tr_for(lang), instance)


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def site(calc_site_dir) -> pathlib.Path:
    return calc_site_dir


RECORDER = """
window.__calc = {events: {}, prerendered: {}, requests: []};
document.addEventListener("calc-result", (e) => {
  const id = e.target.dataset.instance;
  (window.__calc.events[id] = window.__calc.events[id] || []).push(e.detail);
});
document.addEventListener("DOMContentLoaded", () => {
  for (const el of document.querySelectorAll(".calc[data-instance]")) {
    window.__calc.prerendered[el.dataset.instance] = {
      output: el.querySelector(".calc-output").innerHTML, chart: el.querySelector(".calc-chart").innerHTML};
  }
});
"""


def _guard(route):
    """Every request must stay on 127.0.0.1; anything else is recorded and refused."""
    if urlparse(route.request.url).hostname != "127.0.0.1":
        OFFSITE.append(route.request.url)
        route.abort()
    else:
        route.continue_()


def new_context(browser, **kw):
    context = browser.new_context(**kw)
    context.route("**/*", _guard)
    context.add_init_script(RECORDER)
    return context


@pytest.fixture(scope="module")
def context(browser):
    ctx = new_context(browser, viewport={"width": 1100, "height": 900})
    yield ctx
    ctx.close()


def wait_ready(page, instances=INSTANCES) -> None:
    """Every calculator has its first result from Python (and nothing is still on its way)."""
    page.wait_for_function(
        """(ids) => ids.every((id) => (window.__calc.events[id] || []).length > 0
                              && !document.getElementById('calc-' + id).dataset.pending)""",
        arg=list(instances), timeout=READY_MS)


_PAGES: dict = {}


@pytest.fixture(scope="module")
def ready_page(context, server):
    """The fixture calculators page in a language, with Python running (opened once per language)."""
    def get(lang: str):
        if lang not in _PAGES:
            page = context.new_page()
            page.goto(server.url(page_path(lang, "calculators")))
            calc_site.touch(page)
            wait_ready(page)
            _PAGES[lang] = page
        return _PAGES[lang]
    return get


def event_count(page, instance: str) -> int:
    return page.evaluate("(id) => (window.__calc.events[id] || []).length", instance)


def last_result(page, instance: str) -> dict:
    return page.evaluate("(id) => window.__calc.events[id].at(-1)", instance)


def field_texts(page, instance: str) -> dict:
    return page.evaluate("""(id) => Object.fromEntries(Array.from(document.querySelectorAll(`#calc-${id} [name]`))
                                      .map((c) => [c.name, c.value]))""", instance)


def set_field(page, instance: str, field: str, text: str) -> dict:
    """Type (or choose) a value as a reader would and wait for Python's answer."""
    before = event_count(page, instance)
    control = page.locator(f"#{instance}-{field}")
    if control.evaluate("(c) => c.tagName") == "SELECT":
        control.select_option(text)
    else:
        control.fill(text)
    page.wait_for_function(
        """([id, n]) => (window.__calc.events[id] || []).length > n
                        && !document.getElementById('calc-' + id).dataset.pending""",
        arg=[instance, before], timeout=30_000)
    return last_result(page, instance)


def reset(page, name: str, instance: str, lang: str) -> None:
    """Back to the defaults, field by field (cheaper than booting Pyodide again)."""
    texts = ui.default_texts(name, lang)
    current = field_texts(page, instance)
    if texts.get("model") != current.get("model"):
        set_field(page, instance, "model", texts["model"])
        current = field_texts(page, instance)
    for field, text in texts.items():
        if current.get(field) == text:
            continue
        control = page.locator(f"#{instance}-{field}")
        if control.is_visible():
            set_field(page, instance, field, text)
        else:  # a hidden custom-model field: not read now, but it must not come back changed
            control.evaluate("(c, text) => { c.value = text; }", text)


def calc_text(page, instance: str) -> str:
    return page.locator(f"#calc-{instance}").inner_text()


# What a broken number or a script error would print (case-sensitive: German "null" is a word).
BAD_WORDS = re.compile(r"\bNaN\b|Infinity|undefined|Traceback|\[object")


# ------------------------------------------------------------------ the built site


def test_runtime_and_wheel_are_served_by_the_site(site):
    version = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        served = site / "assets" / "pyodide" / version / name
        assert served.read_bytes() == (ROOT / "node_modules" / "pyodide" / name).read_bytes(), served
    wheels = list((site / "assets" / "calculators").glob("*/calculators-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    assert wheel.parent.name == runtime.source_digest(), "the wheel's path must carry the digest of its sources"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "calculators/ui/worker.py" in names and "calculators/data/catalog.toml" in names
        assert not [n for n in names if n.startswith("calculators/article/")], "the article's figures are build-only"
    html = (site / page_path("en", "calculators") / "index.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r'<script type="application/json" id="calc-config">(.*?)</script>', html).group(1))
    assert config["pyodide"] == f"pyodide/{version}/"
    assert config["wheel"] == wheel.relative_to(site / "assets").as_posix()
    assert config["locale"] == "en"
    assert html.count('id="calc-config"') == 1, "one runtime configuration per page"


@pytest.mark.parametrize("lang", LANGS)
def test_static_html_holds_the_defaults_python_prints(site, lang):
    html = (site / page_path(lang, "calculators") / "index.html").read_text(encoding="utf-8")
    for name, instance in zip(FIXTURE_CALCS, INSTANCES):
        expected = cpython(name, ui.default_texts(name, lang), lang, instance)
        assert expected["ok"]
        assert expected["html"] in html, f"{lang}/{instance}: pre-rendered result differs from Python's"
        assert expected["chart"] in html, f"{lang}/{instance}: pre-rendered chart differs from Python's"


# ------------------------------------------------------------------ in the browser


@pytest.mark.parametrize("lang", LANGS)
def test_browser_computes_the_prerendered_defaults(ready_page, lang):
    page = ready_page(lang)
    for name, instance in zip(FIXTURE_CALCS, INSTANCES):
        first = page.evaluate("(id) => window.__calc.events[id][0]", instance)
        expected = cpython(name, ui.default_texts(name, lang), lang, instance)
        assert first["ok"], first
        assert (first["html"], first["chart"]) == (expected["html"], expected["chart"]), f"{lang}/{instance}"
        same = page.evaluate("""(id) => {
            const parse = (html) => { const t = document.createElement('template'); t.innerHTML = html; return t.innerHTML; };
            const el = document.getElementById('calc-' + id), pre = window.__calc.prerendered[id], ev = window.__calc.events[id][0];
            return [parse(ev.html) === pre.output, parse(ev.chart) === pre.chart,
                    el.querySelector('.calc-output').innerHTML === pre.output];
        }""", instance)
        assert same == [True, True, True], f"{lang}/{instance}: browser result {same}"


# Per calculator: (field, text as typed per language or for all). Each step is checked against CPython.
CHANGES = {
    "kv_cache": [("model", "gpt-oss-120b"), ("context", {"de": "128K", "en": "128k", "da": "100 000", "it": "64.000"}),
                 ("batch", "16"), ("kv_precision", "fp8"), ("device", "h200"), ("model", "custom"),
                 ("layers", "40"), ("kv_heads", "4"), ("head_dim", "96")],
    "decode": [("batch", "16"), ("devices", "16"), ("pp", "2"), ("context", {"de": "32K", "en": "32,768", "da": "32.768", "it": "32 768"}),
               ("weight_precision", "fp8"), ("device", "b200"), ("model", "deepseek-v3"), ("ep", "on"),
               ("engine", "sglang"), ("device", "sn40l")],
    "fit": [("context", "128K"), ("batch", "1"), ("model", "llama-3.1-405b"), ("weight_precision", "fp8")],
    "latency": [("tool_s", {"de": "2,5", "en": "2.5", "da": "2,5", "it": "0,75"}), ("steps", "10"),
                ("prompt", "8K"), ("output", {"de": "1.000", "en": "1,000", "da": "1 000", "it": "1000"}), ("devices", "2"),
                ("pp", "2"), ("spec_k", "2"), ("engine", "trtllm"), ("devices", "8"), ("device", "wse-3")],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(CHANGES))
def test_changed_inputs_give_what_cpython_computes(ready_page, lang, name):
    page = ready_page(lang)
    before = page.locator(f"#calc-{name} .calc-output").inner_html()
    for field, text in CHANGES[name]:
        typed = text[lang] if isinstance(text, dict) else text
        got = set_field(page, name, field, typed)
        expected = cpython(name, field_texts(page, name), lang, name)
        assert got["ok"] and expected["ok"], f"{lang}/{name}: {field}={typed!r}: {got['errors']} / {expected['errors']}"
        assert (got["html"], got["chart"]) == (expected["html"], expected["chart"]), f"{lang}/{name}: {field}={typed!r}"
        assert not BAD_WORDS.search(calc_text(page, name))
    assert page.locator(f"#calc-{name} .calc-output").inner_html() != before, "the result did not change"
    reset(page, name, name, lang)


# Per language: (instance, field, typed text, the message it must get). Numbers are typed as each language does.
_P = fields.PARSE_MESSAGES
BAD_INPUTS = {
    "de": [("decode", "pp", "3", checks.M_PP_DEVICES), ("decode", "ep", "on", checks.M_EP_DENSE),
           ("decode", "devices", "6", checks.M_TP_HEADS), ("latency", "spec_acceptance", "101", _P["too_large"]),
           ("kv_cache", "context", "", _P["empty"]), ("kv_cache", "context", "viel", _P["not_a_number"]),
           ("kv_cache", "batch", "-2", _P["zero"]), ("kv_cache", "batch", "0", _P["zero"]),
           ("kv_cache", "batch", "2,5", _P["not_integer"]), ("kv_cache", "context", "NaN", _P["not_a_number"]),
           ("kv_cache", "context", "1e400", _P["too_large"]), ("kv_cache", "context", "1M", checks.M_CONTEXT),
           ("decode", "devices", "1", checks.M_DEVICES), ("latency", "tool_s", "1,2,3", _P["not_a_number"]),
           ("latency", "output", "128K", checks.M_PROMPT_OUTPUT), ("fit", "batch", "1.00.000", _P["bad_grouping"])],
    "en": [("decode", "pp", "81", checks.M_PP_LAYERS), ("latency", "ep", "on", checks.M_EP_DENSE),
           ("decode", "devices", "12", checks.M_TP_HEADS), ("decode", "spec_acceptance", "101", _P["too_large"]),
           ("kv_cache", "context", " ", _P["empty"]), ("kv_cache", "batch", "2.5", _P["not_integer"]),
           ("kv_cache", "batch", "Infinity", _P["not_a_number"]), ("kv_cache", "batch", "1e9", _P["too_large"]),
           ("decode", "context", "200K", checks.M_CONTEXT), ("decode", "devices", "0", _P["zero"]),
           ("latency", "tool_s", "-1", _P["negative"]), ("latency", "steps", "1,00,000", _P["bad_grouping"]),
           ("fit", "context", "lots", _P["not_a_number"])],
    "da": [("decode", "pp", "5", checks.M_PP_DEVICES), ("latency", "pp", "81", checks.M_PP_LAYERS),
           ("latency", "devices", "3", checks.M_TP_HEADS), ("decode", "spec_acceptance", "100,5", _P["too_large"]),
           ("kv_cache", "batch", "1,5", _P["not_integer"]), ("kv_cache", "context", "12.34.5", _P["bad_grouping"]),
           ("decode", "devices", "1", checks.M_DEVICES), ("latency", "prompt", "", _P["empty"]),
           ("fit", "batch", "-0,5", _P["zero"])],
    "it": [("latency", "pp", "3", checks.M_PP_DEVICES), ("decode", "ep", "on", checks.M_EP_DENSE),
           ("decode", "devices", "48", checks.M_TP_HEADS), ("latency", "spec_acceptance", "120", _P["too_large"]),
           ("kv_cache", "batch", "3,7", _P["not_integer"]), ("kv_cache", "context", "nan", _P["not_a_number"]),
           ("decode", "batch", "100.001", _P["too_large"]), ("latency", "steps", "0", _P["zero"]),
           ("fit", "context", "2M", checks.M_CONTEXT)],
}


def _template_regex(template: str) -> re.Pattern:
    parts = re.split(r"\{\w+\}", template)
    return re.compile(".+".join(re.escape(p) for p in parts), re.S)


@pytest.mark.parametrize("lang", LANGS)
def test_bad_inputs_get_a_message_in_the_page_language(ready_page, lang):
    page = ready_page(lang)
    names = dict(zip(INSTANCES, FIXTURE_CALCS))
    for instance, field, typed, msgid in BAD_INPUTS[lang]:
        good = page.locator(f"#{instance}-{field}").input_value()
        last_good = page.locator(f"#calc-{instance} .calc-output").inner_html()
        got = set_field(page, instance, field, typed)
        expected = cpython(names[instance], field_texts(page, instance), lang, instance)
        where = f"{lang}/{instance}.{field}={typed!r}"
        assert not got["ok"] and field in got["errors"], f"{where}: accepted ({got['errors']})"
        assert got["errors"] == expected["errors"], where
        shown = page.locator(f"#{instance}-{field}-error").inner_text()
        assert shown == expected["errors"][field], where
        assert _template_regex(STRINGS.get(msgid, lang)).fullmatch(shown), f"{where}: {shown!r} is not {msgid!r}"
        control = page.locator(f"#{instance}-{field}")
        assert control.get_attribute("aria-invalid") == "true", where
        assert control.get_attribute("aria-describedby") == f"{instance}-{field}-error", where
        assert page.locator(f"#calc-{instance} .calc-stale-note").is_visible(), f"{where}: not marked stale"
        assert page.locator(f"#calc-{instance} .calc-output").inner_html() == last_good, f"{where}: last good result lost"
        assert not BAD_WORDS.search(calc_text(page, instance)), f"{where}: {calc_text(page, instance)!r}"
        fixed = set_field(page, instance, field, good)
        assert fixed["ok"], f"{where}: restoring {good!r} failed: {fixed['errors']}"
        assert not page.locator(f"#calc-{instance} .calc-stale-note").is_visible()
        assert page.locator(f"#{instance}-{field}-error").inner_text() == ""


def test_state_round_trips_through_the_url_and_the_language_switcher(context, server, ready_page):
    page = ready_page("en")
    set_field(page, "kv_cache", "context", "64K")
    set_field(page, "kv_cache", "model", "custom")
    set_field(page, "kv_cache", "layers", "40")
    set_field(page, "latency", "tool_s", "1.5")
    query = dict(parse_qsl(urlparse(page.url).query))
    assert query == {"kv_cache.context": "65536", "kv_cache.model": "custom", "kv_cache.layers": "40",
                     "latency.tool_s": "1.5"}, page.url
    expected_en = {i: page.locator(f"#calc-{i} .calc-output").inner_html() for i in ("kv_cache", "latency")}
    link = page.locator('a.md-select__link[hreflang="de"]')
    assert urlparse(link.get_attribute("href")).query == urlparse(page.url).query, "the language switcher drops the state"

    shared = context.new_page()
    shared.goto(page.url)
    wait_ready(shared)
    for instance, html in expected_en.items():
        assert shared.locator(f"#calc-{instance} .calc-output").inner_html() == html, instance
    assert shared.locator("#kv_cache-context").input_value() == "65,536"
    assert shared.locator("#kv_cache-layers").is_visible()

    shared.locator(".md-header__option .md-select").hover()
    with shared.expect_navigation():
        shared.locator('a.md-select__link[hreflang="de"]').click()
    wait_ready(shared)
    assert dict(parse_qsl(urlparse(shared.url).query)) == query, shared.url
    assert urlparse(shared.url).path.endswith("/calculators/") and "/en/" not in shared.url
    assert shared.locator("#kv_cache-context").input_value() == "65.536"
    assert shared.locator("#latency-tool_s").input_value() == "1,5"
    for name in ("kv_cache", "latency"):
        expected = cpython(name, field_texts(shared, name), "de", name)
        assert last_result(shared, name)["html"] == expected["html"], name
    shared.close()
    for name in ("kv_cache", "latency"):
        reset(page, name, name, "en")
    assert urlparse(page.url).query == "", "defaults must leave the URL clean"


def test_an_old_link_with_the_removed_efficiency_and_latency_fields_still_opens(browser, server):
    """The decode and latency calculators took an achieved share of bandwidth and a latency per all-reduce before
    the engine field replaced them: a link that still names them opens, applies what it names that the page knows,
    and drops the rest from the URL."""
    ctx = new_context(browser, viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    old = "decode.efficiency=85&decode.latency_us=10&decode.batch=4&latency.efficiency=70&latency.latency_us=2.3"
    page.goto(server.url(page_path("en", "calculators")) + "?" + old)
    wait_ready(page)
    assert not errors, errors
    assert page.locator("#decode-batch").input_value() == "4"
    assert page.locator("#decode-engine").input_value() == "generic"
    assert dict(parse_qsl(urlparse(page.url).query)) == {"decode.batch": "4"}, page.url
    assert page.evaluate("Array.from(document.querySelectorAll('.calc-error')).map((e) => e.textContent).filter(Boolean)") == []
    for name in ("decode", "latency"):
        assert last_result(page, name)["html"] == cpython(name, field_texts(page, name), "en", name)["html"], name
    ctx.close()


def test_keyboard_alone_drives_a_calculator(ready_page):
    page = ready_page("it")
    page.locator("#decode-batch").focus()
    before = event_count(page, "decode")
    page.keyboard.press("Control+A")
    page.keyboard.type("32")
    page.wait_for_function("([id, n]) => window.__calc.events[id].length > n && !document.getElementById('calc-' + id).dataset.pending",
                           arg=["decode", before], timeout=30_000)
    assert last_result(page, "decode")["html"] == cpython("decode", field_texts(page, "decode"), "it", "decode")["html"]
    for field in ("ep", "pp", "devices", "device"):   # back through the deployment to the device choice
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == f"decode-{field}"
    before = event_count(page, "decode")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("([id, n]) => window.__calc.events[id].length > n && !document.getElementById('calc-' + id).dataset.pending",
                           arg=["decode", before], timeout=30_000)
    assert field_texts(page, "decode")["device"] != "h100-sxm"
    assert last_result(page, "decode")["html"] == cpython("decode", field_texts(page, "decode"), "it", "decode")["html"]
    reset(page, "decode", "decode", "it")


FAST = """Object.defineProperty(Navigator.prototype, "connection", {configurable: true,
    get: () => ({saveData: false, effectiveType: "4g", downlink: 10})});"""


def test_one_runtime_per_page_started_only_when_a_calculator_is_in_view(browser, server):
    """A desktop on a fast connection (navigator.connection "4g" at its 10 Mbit/s ceiling, a fine pointer)
    starts Python when idle with a calculator within a screen of the view; elsewhere a touch does (below)."""
    context = new_context(browser, viewport={"width": 1100, "height": 900})
    context.add_init_script(FAST)
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url(page_path("en", "speed")))
    page.wait_for_timeout(1500)
    assert not [u for u in requests if "/pyodide/" in u or "calc-worker" in u], "Pyodide loaded before it was needed"
    assert page.locator("#kv_cache-context").is_enabled(), "inputs must be usable before Python is there"
    page.locator("#calc-kv_cache").scroll_into_view_if_needed()
    page.wait_for_selector("#calc-kv_cache .calc-status progress", timeout=10_000)
    label = page.locator("#calc-kv_cache .calc-status").inner_text().strip()
    assert label in {STRINGS.get(m, "en") for m in messages.STATUS.values()}, label
    wait_ready(page, ["kv_cache"])
    assert page.locator("#calc-kv_cache .calc-status").inner_text() == ""
    assert sum(u.endswith("pyodide.asm.wasm") for u in requests) == 1
    page.close()
    calc_page = context.new_page()
    requests.clear()
    calc_page.on("request", lambda r: requests.append(r.url))
    calc_page.goto(server.url(page_path("da", "calculators")))
    wait_ready(calc_page)
    assert sum("calc-worker.js" in u for u in requests) == 1, "five calculators, one worker"
    assert sum(u.endswith("pyodide.asm.wasm") for u in requests) == 1
    context.close()


def test_without_javascript_the_defaults_are_visible(browser, server, site):
    ctx = new_context(browser, java_script_enabled=False)
    page = ctx.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url(page_path("it", "calculators")))
    for name, instance in zip(FIXTURE_CALCS, INSTANCES):
        rows = page.locator(f"#calc-{instance} .calc-output td").all_inner_texts()
        expected = [r.text(lambda m: STRINGS.get(m, "it")) for r in ui.CALCULATORS[name].run({}, "it", catalog.load()).rows]
        assert [r.replace("\u00a0", " ") for r in rows] == [e.replace("\u00a0", " ") for e in expected], instance
        assert page.locator(f"#calc-{instance} svg").count() == 2, "drawn for a wide and for a narrow screen"
        assert page.locator(f"#calc-{instance} svg:visible").count() == 1, "one drawing shown"
        assert page.locator(f"#calc-{instance} noscript .calc-notice, #calc-{instance} .calc-notice:visible").first.is_visible()
    assert page.locator(".calc-form input:enabled, .calc-form select:enabled").count() == 0
    assert not [u for u in requests if "/pyodide/" in u]
    ctx.close()


def test_when_pyodide_cannot_load_the_calculator_is_read_only(browser, server):
    ctx = new_context(browser)
    ctx.route("**/assets/pyodide/**", lambda route: route.abort())
    page = ctx.new_page()
    page.goto(server.url(page_path("de", "speed")))  # the calculator is out of view: typing starts Python
    page.locator("#kv_cache-context").fill("viel")  # typed before the failure: the defaults come back
    page.wait_for_selector("#calc-kv_cache .calc-notice:not([hidden])", timeout=30_000)
    notice = page.locator("#calc-kv_cache .calc-notice").inner_text()
    assert notice == STRINGS.get(messages.READ_ONLY, "de")
    assert page.locator("#kv_cache-context").input_value() == ui.default_texts("kv_cache", "de")["context"]
    assert page.locator("#kv_cache-context").is_disabled()
    assert page.locator("#kv_cache-context-error").inner_text() == ""
    page.goto(server.url(page_path("de", "calculators")))
    calc_site.touch(page)
    page.wait_for_selector("#calc-kv_cache-2 .calc-notice:not([hidden])", timeout=30_000)
    pre = page.evaluate("window.__calc.prerendered")
    for instance in INSTANCES:
        assert page.locator(f"#calc-{instance} .calc-output").inner_html() == pre[instance]["output"]
        assert page.locator(f"#calc-{instance} .calc-notice").is_visible()
        assert not BAD_WORDS.search(calc_text(page, instance))
    ctx.close()


def test_axe_finds_no_serious_or_critical_violation(ready_page):
    if not AXE.is_file():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: run `npm ci` (axe-core is in package.json)", pytrace=False)
    page = ready_page("en")
    set_field(page, "fit", "batch", "-1")  # an error message and a stale result are part of what is checked
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact, "
                            "nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    bad = [v for v in results if v["impact"] in ("serious", "critical")]
    assert not bad, json.dumps(bad, indent=1)
    set_field(page, "fit", "batch", ui.default_texts("fit", "en")["batch"])


# ------------------------------------------------------------- a reader's own config.json

def _instance_of(name: str) -> str:
    return dict(zip(FIXTURE_CALCS, INSTANCES))[name]


OWN_CONFIG = json.dumps(json.loads((ROOT / "calculators" / "data" / "configs" / "gpt-oss-20b.json").read_text()), indent=2)
BAD_CONFIGS = [  # one per class of bad input: empty, not JSON, not a config, unsupported, missing field,
    "   ", '{"hidden_size": 2880,', '{"name": "my model"}',  # absurd value, wrong type, far too large
    '{"model_type": "mamba", "num_hidden_layers": 64, "hidden_size": 2560}',
    OWN_CONFIG.replace('"intermediate_size": 2880,', ""),
    OWN_CONFIG.replace('"num_hidden_layers": 24', '"num_hidden_layers": 3000000000'),
    OWN_CONFIG.replace('"hidden_size": 2880', '"hidden_size": "2880"'),
    "{" + " " * 200_100 + "}",
]


def test_pasted_config_gives_what_cpython_computes(ready_page):
    page, name = ready_page("en"), "decode"
    instance = _instance_of(name)
    set_field(page, instance, "model", "config")
    assert page.locator(f"#{instance}-config").is_visible()
    # which layer kinds are modelled, under the field, and read with it by a screen reader
    assert page.locator(f"#{instance}-config-help").inner_text() == STRINGS.get(fields.MODELLED_NOTE, "en")
    assert page.locator(f"#{instance}-config").get_attribute("aria-describedby") == f"{instance}-config-error {instance}-config-help"
    got = set_field(page, instance, "config", OWN_CONFIG)
    expected = cpython(name, field_texts(page, instance), "en", instance)
    assert got["ok"] and expected["ok"], got["errors"]
    assert (got["html"], got["chart"]) == (expected["html"], expected["chart"])
    text = calc_text(page, instance)
    # gpt-oss-20b's published totals, as the English page writes billions (20.9 billion, 3.61 billion)
    assert "20.9\u00a0billion, 3.61\u00a0billion" in text and "routed experts MXFP4" in text and not BAD_WORDS.search(text)
    assert f"{instance}.config=" in page.url, "the config is part of the shareable link"
    duration = page.evaluate("() => performance.getEntriesByName('calc:update').at(-1).duration")
    print(f"pasted config: input to result {duration:.0f} ms")
    reset(page, name, instance, "en")


@pytest.mark.parametrize("lang", LANGS)
def test_bad_config_gets_its_localized_message_and_nothing_breaks(ready_page, lang):
    page, name = ready_page(lang), "decode"
    instance = _instance_of(name)
    set_field(page, instance, "model", "config")
    good = set_field(page, instance, "config", OWN_CONFIG)
    assert good["ok"]
    shown = page.locator(f"#calc-{instance} .calc-output").inner_html()
    for bad in BAD_CONFIGS:
        got = set_field(page, instance, "config", bad)
        expected = cpython(name, field_texts(page, instance), lang, instance)
        assert not got["ok"] and got["errors"] == expected["errors"], (lang, bad[:40], got["errors"])
        message = page.locator(f"#{instance}-config-error").inner_text()
        assert message == expected["errors"]["config"] and not BAD_WORDS.search(message)
        assert "calc-stale" in page.locator(f"#calc-{instance}").get_attribute("class")
        assert page.locator(f"#calc-{instance} .calc-output").inner_html() == shown, "the last result stays"
    assert set_field(page, instance, "config", OWN_CONFIG)["ok"], "the page still answers"
    reset(page, name, instance, lang)


def test_a_dropped_or_chosen_file_is_read_in_the_page(ready_page):
    page, name = ready_page("de"), "decode"
    instance = _instance_of(name)
    set_field(page, instance, "model", "config")
    before = event_count(page, instance)
    page.locator(f"#calc-{instance} .calc-config-file").set_input_files(
        files=[{"name": "config.json", "mimeType": "application/json", "buffer": OWN_CONFIG.encode()}])
    page.wait_for_function("""([id, n]) => (window.__calc.events[id] || []).length > n
                              && !document.getElementById('calc-' + id).dataset.pending""",
                           arg=[instance, before], timeout=30_000)
    assert page.locator(f"#{instance}-config").input_value() == OWN_CONFIG
    assert last_result(page, instance)["ok"]
    reset(page, name, instance, "de")


# ------------------------------------------------------------- when Python starts

RUNTIME_REQUEST = re.compile(r"/assets/pyodide/|/assets/calculators/|calc-worker\.js|\.wasm(\?|$)")


def _scroll_through(page) -> None:
    """Read the page to its end as a reader would, touching nothing."""
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height + 800, 400):
        page.mouse.wheel(0, 400)
        page.wait_for_timeout(60)
    page.wait_for_timeout(2000)  # idle, well past the load event


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phone_downloads_no_runtime_before_a_touch(browser, server, lang):
    ctx = new_context(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = ctx.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url(page_path(lang, "calculators")))
    _scroll_through(page)
    assert not [u for u in requests if RUNTIME_REQUEST.search(u)], "the runtime was requested before a touch"
    assert page.evaluate("performance.getEntriesByName('calc:load-start').length") == 0
    page.locator("#latency-tool_s").tap()   # the touch
    wait_ready(page)
    assert sum(bool(re.search(r"\.wasm(\?|$)", u)) for u in requests) == 1
    ctx.close()


def test_a_desktop_that_asks_to_save_data_waits_for_a_touch_too(browser, server):
    ctx = new_context(browser, viewport={"width": 1100, "height": 900})
    ctx.add_init_script("""Object.defineProperty(Navigator.prototype, "connection", {configurable: true,
        get: () => ({saveData: true, effectiveType: "4g", downlink: 10})});""")
    page = ctx.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server.url(page_path("de", "calculators")))
    _scroll_through(page)
    assert not [u for u in requests if RUNTIME_REQUEST.search(u)]
    page.locator("#decode-batch").focus()  # keyboard or click: a field takes focus
    wait_ready(page)
    ctx.close()


# ------------------------------------------------------------- untrusted URL state

# Links anyone can write: keys that would reach Object.prototype, with script and spoofed messages.
HOSTILE = {
    "__proto__.failure": "Session expired: log in at evil.example",
    "__proto__.batch": "Spoofed message",
    "__proto__.texts": "x",
    "__proto__.errors": "<img src=x onerror=window.__pwned=1>",
    "__proto__.debug": "fake traceback",
    "__proto__.html": "<img src=x onerror=window.__pwned=1>",
    "__proto__.ok": "true",
    "constructor.prototype": "1",
    "constructor.prototype.state": "<script>window.__pwned=1</script>",
    "prototype.batch": "<svg onload=window.__pwned=1>",
    "decode.__proto__": "<img src=x onerror=window.__pwned=1>",
    "decode.constructor": "Spoofed message",
    "kv_cache.prototype": "1",
    "__proto__": "1",
    "fit.hasOwnProperty": "Spoofed message",
}
PROTOTYPE_NAMES = """() => Object.getOwnPropertyNames(Object.prototype).sort()"""


@pytest.mark.parametrize("lang", LANGS)
def test_hostile_links_change_nothing_but_the_inputs_they_name(browser, server, lang):
    ctx = new_context(browser, viewport={"width": 1100, "height": 900})
    clean = ctx.new_page()
    clean.goto(server.url(page_path(lang, "about")))
    names = clean.evaluate(PROTOTYPE_NAMES)
    clean.close()
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    from urllib.parse import urlencode
    query = urlencode(list(HOSTILE.items()) + [("decode.batch", "64")])
    page.goto(server.url(page_path(lang, "calculators")) + "?" + query)
    wait_ready(page)   # every calculator answers (the link's own state starts Python)
    assert page.evaluate(PROTOTYPE_NAMES) == names, "something landed on Object.prototype"
    assert page.evaluate("window.__pwned") is None
    assert not errors, errors
    # only the site's own messages: no status line, no field error (every input but batch is the default)
    assert page.evaluate("Array.from(document.querySelectorAll('.calc-status')).map((e) => e.textContent)") == [""] * len(INSTANCES)
    assert page.evaluate("Array.from(document.querySelectorAll('.calc-error')).map((e) => e.textContent).filter(Boolean)") == []
    assert not page.locator("[aria-invalid]").count()
    assert page.locator("#decode-batch").input_value() == "64"
    assert dict(parse_qsl(urlparse(page.url).query)) == {"decode.batch": "64"}, "the URL keeps only what the page knows"
    assert page.locator(".calc-form [name]:disabled").count() == 0, "a calculator was left disabled"
    for instance in INSTANCES:
        assert event_count(page, instance) >= 1, f"{instance} did not answer"
        assert not BAD_WORDS.search(calc_text(page, instance))
    got = set_field(page, "decode", "batch", "8")   # and they keep answering
    assert got["ok"] and got["html"] == cpython("decode", field_texts(page, "decode"), lang, "decode")["html"]
    ctx.close()


# ------------------------------------------------------------- a computation that does not end

SLOW_INPUT = "4242"
# Served instead of the worker script: the same worker, whose Python takes a minute for one input (as
# a pathological input or a bug would); the page must tell the reader and start a new worker.
SLOW_WORKER = """
const __compute = compute;
compute = function (pyHandle, id, request) {
  const texts = request.texts || request.state || {};
  if (texts.batch === "%s") { postMessage({ type: "started", id }); const end = Date.now() + 60000; while (Date.now() < end) {} }
  return __compute(pyHandle, id, request);
};
""" % SLOW_INPUT


def _slow_worker(route):
    response = route.fetch()
    body = response.text()
    assert "function compute(pyHandle, id, request) {" in body and "self.onmessage = (event) => {" in body
    body = body.replace("function compute(pyHandle, id, request) {", "let compute = function (pyHandle, id, request) {", 1)
    body = body.replace("self.onmessage = (event) => {", SLOW_WORKER + "\nself.onmessage = (event) => {", 1)
    route.fulfill(response=response, body=body)


TIMEOUTS = """document.addEventListener("calc-timeout", (e) => {
  (window.__timeouts = window.__timeouts || []).push(e.target.dataset.instance); });"""


@pytest.mark.parametrize("lang", ["da", "it"])
def test_a_computation_that_runs_too_long_is_announced_then_stopped(browser, server, lang):
    ctx = new_context(browser, viewport={"width": 1100, "height": 900}, service_workers="block")
    ctx.route("**/calc-worker.js*", _slow_worker)
    ctx.add_init_script(TIMEOUTS)
    page = ctx.new_page()
    page.goto(server.url(page_path(lang, "calculators")))
    page.locator("#decode-batch").focus()
    wait_ready(page)
    good = page.locator("#calc-decode .calc-output").inner_html()
    notices = json.loads(page.locator("#calc-config").text_content())["notices"]
    assert notices["slow"] == STRINGS.get(widgets.NOTICES["slow"], lang) and notices["slow"] != widgets.NOTICES["slow"]
    page.locator("#decode-batch").fill(SLOW_INPUT)
    page.wait_for_function("() => document.getElementById('calc-decode').dataset.slow === 'true'", timeout=5000)
    assert page.locator("#calc-decode .calc-status").inner_text() == notices["slow"], "no word after a second"
    page.locator("#kv_cache-batch").fill("3")   # waits behind the stuck request: told too, answered after
    page.wait_for_function("() => (window.__timeouts || []).includes('decode')", timeout=20_000)
    assert page.locator("#calc-decode .calc-status").inner_text() == STRINGS.get(widgets.NOTICES["timeout"], lang)
    assert page.locator("#calc-decode .calc-output").inner_html() == good, "the last result stays"
    page.wait_for_function("() => !document.getElementById('calc-kv_cache').dataset.pending", timeout=30_000)
    assert last_result(page, "kv_cache")["ok"], "a new worker answers the request that waited"
    got = set_field(page, "decode", "batch", "16")
    assert got["ok"] and page.locator("#calc-decode .calc-status").inner_text() == ""
    ctx.close()


def test_a_link_whose_inputs_run_too_long_gives_the_calculator_back(browser, server):
    """Inputs from a link are computed with the inputs disabled: never for longer than the hard limit."""
    ctx = new_context(browser, viewport={"width": 1100, "height": 900}, service_workers="block")
    ctx.route("**/calc-worker.js*", _slow_worker)
    ctx.add_init_script(TIMEOUTS)
    page = ctx.new_page()
    page.goto(server.url(page_path("en", "calculators")) + f"?decode.batch={SLOW_INPUT}&fit.batch=2")
    page.wait_for_function("() => (window.__timeouts || []).includes('decode')", timeout=30_000)
    assert page.locator("#decode-batch").is_enabled() and page.locator("#calc-decode").get_attribute("aria-busy") is None
    assert page.locator("#decode-batch").input_value() == ui.default_texts("decode", "en")["batch"]
    assert "decode.batch" not in page.url
    wait_ready(page, ["fit"])
    assert page.locator("#fit-batch").input_value() == "2"
    ctx.close()


def test_no_request_left_127_0_0_1(browser):
    """Runs last: every page above went through the guard."""
    assert _PAGES, "no page was opened"
    assert not OFFSITE, f"requests to other origins: {OFFSITE[:10]}"


# ------------------------------------------------------------- every layer kind, pasted (issue 19)

KIND_DIR = ROOT / "tests" / "fixtures" / "configs" / "kinds"
KIND_CONFIGS = sorted(p for p in KIND_DIR.glob("*.json") if p.stem != "SOURCES")
KIND_REFUSED = ['{"model_type": "mamba", "num_hidden_layers": 64, "hidden_size": 2560, "state_size": 16, "vocab_size": 50280}',
                '{"model_type": "t5", "num_hidden_layers": 6, "hidden_size": 512, "num_attention_heads": 8, "vocab_size": 32128}']


@pytest.mark.parametrize("lang", LANGS)
def test_every_layer_kind_pasted_gives_what_cpython_computes(ready_page, lang):
    """Each real config of tests/fixtures/configs/kinds and two refused families: in the page, the rows or the
    message CPython gives, in the page's language, never a NaN or a traceback."""
    page, name = ready_page(lang), "kv_cache"
    instance = _instance_of(name)
    set_field(page, instance, "model", "config")
    set_field(page, instance, "context", "4096")
    for text in [p.read_text() for p in KIND_CONFIGS] + KIND_REFUSED:
        got = set_field(page, instance, "config", text)
        expected = cpython(name, field_texts(page, instance), lang, instance)
        assert got["ok"] == expected["ok"] and got["errors"] == expected["errors"], (lang, text[:60], got["errors"])
        if got["ok"]:
            assert (got["html"], got["chart"]) == (expected["html"], expected["chart"])
            assert not BAD_WORDS.search(calc_text(page, instance))
        else:
            message = page.locator(f"#{instance}-config-error").inner_text()
            assert message == expected["errors"]["config"] and not BAD_WORDS.search(message)
    reset(page, name, instance, lang)

