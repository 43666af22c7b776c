"""`make bench`, the running example: how fast the main article follows a change of its example, and what it weighs.

Measured in headless Chromium against a build of the real site (every page, the real prose;
the checks off, as they do not change a page), served with gzip like a real host:

- re-render: once Python is running, from the input event of a change in the example control
  (model, device, count, precisions, context, batch) to the article re-rendered in the page:
  every figure, sentence, name, chart and explanation of the running example. The page's own
  "calc:update" measure (docs/assets/calculators.js), over BENCH_RUNS rounds of the edits below;
  beside it "example:render", the part spent putting the answer into the page. Target: median < 100 ms.
- weight: bytes the main article transfers before the example control is touched, with Pyodide's
  runtime, the wheel, the snapshot and the worker listed apart (they must be zero: nothing loads
  before a touch on a phone-like context, where no idle start applies).
"""

from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import calc_site  # noqa: E402
from bench_browser import page_weight  # noqa: E402
from static_server import StaticServer  # noqa: E402

TIMEOUT_MS = 120_000
# (field, values chosen in turn): every kind of change the control offers, each a new example.
EDITS = [("model", ["deepseek-v3", "qwen3-235b-a22b", "llama-3.1-8b", "llama-3.1-70b"]),
         ("device", ["b200", "h200", "mi300x", "h100-sxm"]),
         ("kv_precision", ["fp8", "bf16"]),
         ("context", ["16384", "32768", "4096", "8192"]),
         ("batch", ["8", "128", "32", "64"])]
MODEL_DEVICES = {"deepseek-v3": ("b200", "8"), "qwen3-235b-a22b": ("b200", "8"), "llama-3.1-8b": ("h100-sxm", "8"),
                 "llama-3.1-70b": ("h100-sxm", "8")}


def build(work: pathlib.Path) -> pathlib.Path:
    site = work / "example-site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_CHECKS": "off"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=calc_site.ROOT, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"build of the site failed:\n{proc.stderr}")
    return site


def _idle(page) -> None:
    page.wait_for_function("() => !document.getElementById('calc-example').dataset.pending", timeout=TIMEOUT_MS)


def _change(page, field: str, value: str) -> None:
    selector = f"#calc-example [name={field}]"
    if page.eval_on_selector(selector, "(e) => e.tagName") == "SELECT":
        page.select_option(selector, value)
    else:
        page.fill(selector, value)
    _idle(page)


def rerender(browser, server, rounds: int) -> tuple:
    """(calc:update durations, example:render durations) in ms over `rounds` rounds of EDITS."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url("en/decode/"))
    page.focus("#calc-example [name=model]")
    page.wait_for_function("() => document.getElementById('calc-example').dataset.runtime === 'ready' "
                           "|| document.querySelector('#calc-example .calc-output')", timeout=TIMEOUT_MS)
    _idle(page)
    _change(page, "context", "8192")        # a first answer: the runtime is ready from here on
    page.evaluate("performance.clearMeasures('calc:update'); performance.clearMeasures('example:render')")
    for _ in range(rounds):
        for field, values in EDITS:
            for value in values:
                if field == "model":     # a device and a count that hold the model, as a reader would pick them
                    device, count = MODEL_DEVICES[value]
                    _change(page, "device", device)
                    _change(page, "devices", count)
                _change(page, field, value)
    updates = page.evaluate("performance.getEntriesByName('calc:update').map((m) => m.duration)")
    renders = page.evaluate("performance.getEntriesByName('example:render').map((m) => m.duration)")
    context.close()
    return updates, renders


def weight(browser, server) -> dict:
    """Bytes the article transfers before a touch (a phone: coarse pointer, no idle start), by kind."""
    return page_weight(browser, server, "en/decode/", viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True)


def measure(work: pathlib.Path, rounds: int) -> None:
    if not calc_site.CHROMIUM.exists():
        print(f"running example in the browser: skipped, {calc_site.CHROMIUM} is missing (apt-get install chromium)")
        return
    from playwright.sync_api import sync_playwright

    site = build(work)
    with StaticServer(site, gzip_text=True) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(calc_site.CHROMIUM), args=calc_site.CHROMIUM_ARGS)
        updates, renders = rerender(browser, server, rounds)
        parts = weight(browser, server)
        browser.close()
    q = statistics.quantiles(updates, n=10)
    print(f"running example re-render: median {statistics.median(updates):.1f} ms, p90 {q[-1]:.1f} ms, "
          f"max {max(updates):.1f} ms over {len(updates)} changes (input event -> article re-rendered, Python included; "
          f"target median < 100 ms); of which putting it into the page: median {statistics.median(renders):.1f} ms")
    total = sum(v for k, v in parts.items() if not k.startswith("pyodide"))
    pyodide = parts["pyodide (excluded)"]
    detail = ", ".join(f"{k} {v / 1000:.1f} KB" for k, v in parts.items())
    print(f"main article weight before the example is touched: {total / 1000:.1f} KB gzip-transferred ({detail}); "
          f"Pyodide, wheel, snapshot and worker: {pyodide} bytes (must be 0)")
