"""The running example in a real browser: the main article re-rendered for other models and devices, in four languages.

The expected values are worked out here by hand from the models' config.json
numbers and the devices' datasheet values, not by the package:

- KV cache per token = layers × 2 (K and V) × KV heads × head size × 2 bytes (BF16);
  for multi-head latent attention, layers × (latent 512 + positional key 64) × 2 bytes;
- memory time ÷ compute time at batch 1 with BF16 weights = (2 bytes × P ÷ bandwidth) ÷ (2 FLOP × P ÷ peak)
  = peak ÷ bandwidth.

and the variant sentences are the variants a reader of the numbers would choose (grouped-query / latent
attention; clearly memory-bound; the weights of Llama 3.1 70B need two H100s). The site is the real one
(every page, the real prose), built once for the module without the checks (tests/test_site.py runs them).
Screenshots of the article with a non-default example at 1280 and 390 px go to $EXAMPLE_SCREENS
(default: the test's temporary folder); at 390 px nothing may scroll sideways.
"""

from __future__ import annotations

import json
import os
import pathlib
import re

import pytest

from calculators.data import byo, catalog
from calculators.example import example as E
from calculators.example import variants
from calculators.example.case import Case
from calculators.example import figures as X
from calculators.example.render import SAYS
from sitebuild.strings import Strings

from test_site import build_site

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("de", "en", "da", "it")
READY_MS = 120_000
STRINGS = Strings()
CAT = catalog.load()
BYTES = {"de": "Byte", "en": "bytes", "da": "byte", "it": "byte"}
GROUP = {"de": ".", "en": ",", "da": ".", "it": "."}
TIMES = {"de": "{}-mal", "en": "{} times", "da": "{} gange", "it": "{} volte"}

RECORDER = """
window.__example = [];
document.addEventListener("calc-result", (e) => {
  if (e.target.dataset.instance === "example") window.__example.push(e.detail);
});
"""

# A pasted config.json: Llama 3.1 8B cut to 24 layers and 4 KV heads (head size 4096 / 32 = 128).
OWN = json.loads((ROOT / "calculators" / "data" / "configs" / "llama-3.1-8b.json").read_text(encoding="utf-8"))
OWN.update(num_hidden_layers=24, num_key_value_heads=4)

# (what, URL state or None for the pasted config, layers, KV bytes per token, memory ÷ compute or None, kv.design variant)
CASES = (
    ("dense", {"model": "llama-3.1-8b", "device": "h200", "devices": "1"}, 32, 32 * 2 * 8 * 128 * 2, 989 / 4.8, "gqa"),
    ("moe", {"model": "qwen3-235b-a22b", "device": "b200", "devices": "8"}, 94, 94 * 2 * 4 * 128 * 2, 2250 / 7.7, "gqa"),
    ("mla", {"model": "deepseek-v3", "device": "b200", "devices": "8"}, 61, 61 * (512 + 64) * 2, None, "latent"),
    ("pasted", None, 24, 24 * 2 * 4 * 128 * 2, 989 / 3.35, "gqa"),
)


def grouped(n: int, lang: str) -> str:
    """327680 as the language writes it: 327,680 (en), 327.680 (de, da, it)."""
    s = str(n)
    parts = []
    while s:
        parts.insert(0, s[-3:])
        s = s[:-3]
    return GROUP[lang].join(parts)


def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ").replace("\u202f", " ")).strip()


def tr_for(lang: str):
    return lambda msgid, context=None: STRINGS.get(msgid, lang, context)


@pytest.fixture(scope="module")
def served(chromium, tmp_path_factory):
    from static_server import StaticServer
    out = tmp_path_factory.mktemp("example-site")
    server = StaticServer(out)
    proc = build_site(out, extra_env={"SITE_CHECKS": "off", "SITE_URL": server.origin + "/"})
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    with server:
        yield out, server


@pytest.fixture(scope="module")
def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(RECORDER)
    yield ctx
    ctx.close()


def path(lang: str, state: dict | None = None) -> str:
    base = "decode/" if lang == "de" else f"{lang}/decode/"
    if not state:
        return base
    return base + "?" + "&".join(f"example.{k}={v}" for k, v in state.items())


def wait_answer(page, count: int = 1) -> dict:
    page.wait_for_function("(n) => window.__example.length >= n", arg=count, timeout=READY_MS)
    return page.evaluate("() => window.__example.at(-1)")


def texts(page, selector: str) -> list:
    return [plain(t) for t in page.eval_on_selector_all(selector, "(els) => els.map((e) => e.textContent)")]


def say_text(page, sid: str) -> str:
    return plain(page.eval_on_selector(f'.ex-say[data-say="{sid}"]', "(e) => e.textContent"))


def variant_text(sid: str, key: str, ex: E.Example, lang: str) -> str:
    """The variant `key` of sentence `sid` for the example, in `lang`: which variant holds is the test's own choice."""
    c = Case(CAT, ex, "decode")
    say = SAYS[sid]
    figs = say.figs(c) if callable(say.figs) else say.figs
    reg = X.registry(c)
    html = variants.fill(variants.text_of(say.variants[key], c, reg, figs, lang, tr_for(lang)), c, reg, figs, lang,
                         tr_for(lang), None)
    return plain(re.sub(r"<[^>]+>", "", html).replace("&amp;", "&"))


def example_of(state: dict | None) -> E.Example:
    if state is None:
        return E.with_defaults("decode", model=byo.BYO, config=json.dumps(OWN), devices=1)
    return E.with_defaults("decode", model=state["model"], device=state["device"], devices=int(state["devices"]))


def check_article(page, lang: str, layers: int, kv_bytes: int, ratio: float | None, design: str, ex: E.Example) -> None:
    """The figures computed by hand, the variant sentences the numbers call for, in the page's language."""
    assert set(texts(page, '[data-fig="model.llama70b.layers"]')) == {str(layers)}
    assert set(texts(page, '[data-fig="kv.llama70b.bytes_per_token"]')) == {f"{grouped(kv_bytes, lang)} {BYTES[lang]}"}
    if ratio is not None:
        # a factor in running text, as each language writes it (fig(..., style="times"), {ratio:times})
        assert set(texts(page, '[data-fig="ratio.llama70b.h100.memory_over_compute"]')) == {TIMES[lang].format(round(ratio))}
        assert say_text(page, "step.bound") == variant_text("step.bound", "clear", ex, lang)
    assert say_text(page, "kv.design") == variant_text("kv.design", design, ex, lang)
    assert str(layers) in say_text(page, "kv.design")
    assert grouped(kv_bytes, lang) in plain(page.eval_on_selector(".ex-say[data-say='kv.per_token']", "(e) => e.textContent"))
    body = page.eval_on_selector(".md-content", "(e) => e.textContent")
    assert not re.search(r"\b(?:NaN|nan|undefined|Infinity|None)\b", body)


@pytest.mark.parametrize("lang", LANGS)
def test_the_default_example_is_complete_without_javascript(browser, served, lang):
    """Without JavaScript the page is the default example (Llama 3.1 70B on H100), every figure printed."""
    _, server = served
    ctx = browser.new_context(java_script_enabled=False)
    page = ctx.new_page()
    page.goto(server.url(path(lang)))
    ex = E.default("decode")
    check_article(page, lang, 80, 80 * 2 * 8 * 128 * 2, 989 / 3.35, "gqa", ex)
    # 141 GB of weights in 80 GB: the sentence that it takes at least two H100s
    assert say_text(page, "step.fit") == variant_text("step.fit", "over", ex, lang)
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("what, state, layers, kv_bytes, ratio, design", CASES, ids=[c[0] for c in CASES])
def test_the_article_follows_the_example(context, served, lang, what, state, layers, kv_bytes, ratio, design):
    _, server = served
    page = context.new_page()
    try:
        if state is None:
            page.goto(server.url(path(lang)))
            page.focus("#calc-example [name=model]")          # the reader's first touch starts Python
            page.select_option("#calc-example [name=model]", byo.BYO)
            page.fill("#calc-example [name=devices]", "1")
            page.fill("#calc-example [name=config]", json.dumps(OWN))
            page.wait_for_function("() => window.__example.some((r) => r.ok && r.article && r.state.model === 'config')",
                                   timeout=READY_MS)
            page.wait_for_function("() => !document.getElementById('calc-example').dataset.pending", timeout=READY_MS)
        else:
            page.goto(server.url(path(lang, state)))           # a shared link starts Python at once
            result = wait_answer(page)
            assert result["ok"], result["errors"]
        check_article(page, lang, layers, kv_bytes, ratio, design, example_of(state))
        # the figure's explanation: its formula with the example's values put in, and the hand-computed result
        page.locator('a.fig[data-fig="kv.llama70b.bytes_per_token"]').first.click()
        formula = plain(page.inner_text("#explain-box .explain-expr"))
        assert re.search(rf"(?<![\d.,]){layers}(?![\d.,])", formula) and formula.endswith(f"= {grouped(kv_bytes, lang)} {BYTES[lang]}"), formula
        page.keyboard.press("Escape")
        if state is not None:
            # the state survives a reload and is what the page's address says
            page.reload()
            wait_answer(page)
            check_article(page, lang, layers, kv_bytes, ratio, design, example_of(state))
    finally:
        page.close()


def test_the_state_survives_the_language_switch_and_the_numbers_are_each_language_s(context, served):
    _, server = served
    state = {"model": "deepseek-v3", "device": "b200", "devices": "8"}
    page = context.new_page()
    page.goto(server.url(path("en", state)))
    wait_answer(page)
    link = page.eval_on_selector('a[hreflang="it"]', "(a) => a.href")
    assert "example.model=deepseek-v3" in link and "example.device=b200" in link
    page.goto(link)
    wait_answer(page)
    check_article(page, "it", 61, 61 * 576 * 2, None, "latent", example_of(state))
    page.close()


def test_the_context_in_the_prose_is_a_spin_button(context, served):
    """Arrow up doubles the context where the prose states it; the figures that depend on it follow, announced."""
    _, server = served
    page = context.new_page()
    page.goto(server.url(path("en")))
    spin = page.locator('.ex-input[data-field="context"]').first
    assert spin.get_attribute("role") == "spinbutton"
    assert spin.get_attribute("aria-valuenow") == "8192"
    assert spin.get_attribute("aria-label")
    spin.focus()
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => window.__example.some((r) => r.ok && Number(r.state.context) === 16384)", timeout=READY_MS)
    page.wait_for_function("() => !document.getElementById('calc-example').dataset.pending", timeout=READY_MS)
    assert spin.get_attribute("aria-valuenow") == "16384"
    assert set(texts(page, '[data-fig="batch.context"]')) == {"16,384"}
    assert page.locator("#calc-example [role=status], #calc-example [aria-live]").count() >= 1
    assert "context=16384" in page.url
    page.close()


FAST_DESKTOP = """Object.defineProperty(Navigator.prototype, "connection", {configurable: true,
    get: () => ({saveData: false, effectiveType: "4g", downlink: 10})});"""
RUNTIME = ("pyodide", ".whl", "snapshot", "calc-worker")


@pytest.mark.parametrize("reader", ["phone", "fast desktop"])
def test_nothing_beyond_the_page_loads_before_the_control_is_touched(browser, served, reader):
    """Pyodide, the wheel, the snapshot and the worker are fetched only once the reader touches the example control:
    on a phone (no start ahead of a touch at all) and on a fast desktop (which starts Python ahead only for the
    calculators further down, once one is within a screen of the view, never for the example at the top)."""
    _, server = served
    if reader == "phone":
        ctx = browser.new_context(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)
    else:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script(FAST_DESKTOP)
    seen = []
    ctx.on("request", lambda r: seen.append(r.url))
    page = ctx.new_page()
    page.goto(server.url(path("en")), wait_until="networkidle")
    page.wait_for_timeout(2500)
    assert not [u for u in seen if any(part in u for part in RUNTIME)], seen
    page.focus("#calc-example [name=batch]")               # the touch
    page.wait_for_function("() => performance.getEntriesByType('resource').some((r) => r.name.includes('calc-worker'))",
                           timeout=READY_MS)
    ctx.close()


SCREENS = pathlib.Path(os.environ.get("EXAMPLE_SCREENS", "")) if os.environ.get("EXAMPLE_SCREENS") else None


@pytest.mark.parametrize("lang", LANGS)
def test_screenshots_with_another_example_do_not_scroll_sideways(browser, served, tmp_path, lang):
    _, server = served
    out = SCREENS or tmp_path
    out.mkdir(parents=True, exist_ok=True)
    state = {"model": "deepseek-v3", "device": "b200", "devices": "8"}
    for width in (1280, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        ctx.add_init_script(RECORDER)
        page = ctx.new_page()
        page.goto(server.url(path(lang, state)))
        wait_answer(page)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        page.screenshot(path=str(out / f"decode-{lang}-{width}.png"), full_page=True)
        ctx.close()
        assert overflow <= 0, f"{lang} at {width} px scrolls sideways by {overflow} px"


def number(text: str, lang: str) -> float:
    """The number at the start of a figure as printed ("5,21 ms" in Italian, "2,250 TFLOP/s" in English)."""
    digits = re.match(r"[\d.,]+", plain(text)).group(0)
    if lang == "en":
        return float(digits.replace(",", ""))
    return float(digits.replace(".", "").replace(",", "."))


def seconds(text: str, lang: str) -> float:
    """A duration as printed ("713 µs", "5,21 ms", "2.61 s") in seconds."""
    return number(text, lang) * {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[plain(text).split()[-1]]


@pytest.mark.parametrize("lang", LANGS)
def test_the_speed_page_follows_its_example(context, served, lang):
    """The speed page's example on 8 × B200 with Qwen3 235B: the datasheet's peak, and the relations a reader checks
    by hand: a token per step (speed = 1 ÷ step time), the answer's decode time = output tokens × step time."""
    _, server = served
    page = context.new_page()
    base = "speed/" if lang == "de" else f"{lang}/speed/"
    page.goto(server.url(base + "?example.model=qwen3-235b-a22b&example.device=b200&example.devices=8"))
    result = wait_answer(page)
    assert result["ok"], result["errors"]
    fig = lambda fid: texts(page, f'[data-fig="{fid}"]')[0]  # noqa: E731
    assert number(fig("device.h100.peak_bf16"), lang) == 2250          # NVIDIA's B200 datasheet, dense BF16, in TFLOP/s
    step, speed = seconds(fig("speed.step_time"), lang), number(fig("speed.per_request"), lang)
    assert abs(1 / step - speed) / speed < 0.01
    output, answer = number(fig("speed.output"), lang), seconds(fig("speed.decode_time"), lang)
    assert abs(output * step - answer) / answer < 0.01
    assert "B200" in say_text(page, "speed.setup") and "Qwen3" in say_text(page, "speed.setup")
    page.close()
