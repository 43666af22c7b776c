"""`make bench`, the calculators in the browser: start-up, update speed and page weight.

Measured in one headless Chromium against one build (tools/calc_site.py), served
with gzip like a real host (tools/static_server.py):

- start-up: a bare `loadPyodide()` in a module worker, against our path from
  the moment loading starts to the first result in the page (worker, runtime
  restored from the build's snapshot, wheel, first computation). Target: at
  most 0.35x. Runs alternate between the two, each in a fresh browser context
  (cold cache), medians.
- repeat visit: the same page opened again in a new tab of the same browser
  context, once the service worker has kept the runtime
  (sitebuild/service_worker.js), against the same cold bare `loadPyodide()`.
  Target: at most 0.2x. The bare boot with a warm HTTP cache is printed beside
  it, and an offline visit. The new tab is opened before the old one is
  closed (`_next_tab`): headless Chromium, when the only tab of a context
  closes and another opens, starts its omnibox pop-up renderer (a WebUI page,
  about 0.8 s of CPU, measured with a trace) during the visit being timed; a
  reader's browser does no such thing on a revisit.
- where the start-up time goes, first and repeat visit: the calculators' worker's
  own marks (worker running, WebAssembly compiled, snapshot unpacked, Python
  restored, first answer sent) and the first result in the page, in ms after
  the load started; a guide to the ratios above, not a target.
- update: from an input event to the new result in the page (the page's
  "calc:update" measures), over edits in all four calculators. Target: median
  under 50 ms.
- weight: bytes a calculator page transfers before any calculator is touched,
  Pyodide excluded (runtime, wheel, snapshot and worker load only once a
  calculator is touched (or, on a fast desktop, near the view when idle), the service worker only once the page is
  idle). Target: under 150 KB.
"""

from __future__ import annotations

import json
import pathlib
import statistics
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import calc_site  # noqa: E402
from static_server import StaticServer  # noqa: E402

RUNS = 5
TIMEOUT_MS = 120_000
# The runtime's files: loaded only once a calculator is touched (the worker imports
# snapshot-pages.mjs to unpack the snapshot), so not part of the page's own weight.
PYODIDE_PARTS = ("/assets/pyodide/", ".whl", "calc-worker.js", "/pyodide-snapshot.", "snapshot-pages.mjs", "/calc-sw.js")
SW_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active && registration.active.state === "activated" && navigator.serviceWorker.controller !== null;
}"""

BARE_WORKER = """self.onmessage = async (event) => {
  const { loadPyodide } = await import(event.data + "pyodide.mjs");
  await loadPyodide({ indexURL: event.data });
  postMessage("ready");
};"""
BARE_PAGE = """<!doctype html><html lang="en"><title>bare loadPyodide()</title><script type="module">
const start = performance.now();
const worker = new Worker("bench-bare-worker.js", { type: "module" });
worker.onmessage = () => { window.BARE_MS = performance.now() - start; };
worker.postMessage(new URL("assets/%s", location.href).href);
</script></html>"""

# Edits cycled through for the update timing: (field id, values typed in turn).
EDITS = [("kv_cache-context", ["64K", "16K", "100000", "32K"]), ("decode-batch", ["8", "32", "64", "1"]),
         ("fit-batch", ["1", "16", "64", "8"]), ("latency-steps", ["5", "50", "100", "20"])]


def _bare(browser, server) -> float:
    context = browser.new_context()
    ms = _bare_ms(context.new_page(), server)
    context.close()
    return ms


def _bare_ms(page, server) -> float:
    """A bare loadPyodide() in `page`: ms from the page's script to Pyodide ready."""
    page.goto(server.url("bench-bare.html"))
    page.wait_for_function("window.BARE_MS !== undefined", timeout=TIMEOUT_MS)
    return page.evaluate("window.BARE_MS")


# Where the start-up time goes: the worker's own marks (docs/assets/calc-worker.js), in ms from the
# page's "calc:load-start", in the order they are printed. Not measured against anything: a guide.
STAGES = (("calc-worker:start", "worker running"), ("calc-worker:wasm", "WebAssembly compiled"),
          ("calc-worker:heap", "snapshot unpacked"), ("calc-worker:python", "Python restored"),
          ("calc-worker:answer", "first answer sent"), ("calc:first-result", "first result shown"))
MARKS = "[performance.timeOrigin, performance.getEntriesByType('mark').map((m) => [m.name, m.startTime])]"


def _stages(page) -> dict:
    """{mark: ms after load start} for the page's and the calculators' worker's marks."""
    origin, marks = page.evaluate(MARKS)
    for worker in page.workers:
        try:
            worker_origin, worker_marks = worker.evaluate(MARKS)
        except Exception:  # a worker that has ended (Material's search)
            continue
        marks += [(name, t + worker_origin - origin) for name, t in worker_marks if name.startswith("calc-worker:")]
    found = dict(marks)
    start = found.get("calc:load-start", 0.0)
    return {name: found[name] - start for name, _ in STAGES if name in found}


def _breakdown(label: str, runs: list) -> str:
    parts = [f"{text} {statistics.median(r[name] for r in runs if name in r):.0f}" for name, text in STAGES
             if any(name in r for r in runs)]
    return f"calculator start-up, {label}, ms after load start (medians): " + ", ".join(parts)


def _ours(browser, server, keep: bool = False, stages: list | None = None):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(server.url(calc_site.page_path("en", "calculators")))
    ms = _first_result_ms(page)
    if stages is not None:
        stages.append(_stages(page))
    if keep:
        return ms, context, page
    context.close()
    return ms


def _first_result_ms(page) -> float:
    """From the reader's first touch (the start) to the first result shown."""
    calc_site.touch(page)
    page.wait_for_function("performance.getEntriesByName('calc:first-result').length > 0", timeout=TIMEOUT_MS)
    return page.evaluate("performance.getEntriesByName('calc:first-result')[0].startTime"
                         " - performance.getEntriesByName('calc:load-start')[0].startTime")


def _next_tab(context, page):
    """A new tab in the same context, the old one closed: opened first, so that the context never has
    no tab (headless Chromium then starts its omnibox pop-up renderer, see the top)."""
    tab = context.new_page()
    page.close()
    return tab


def _repeat(browser, server, stages: list | None = None) -> tuple:
    """(repeat, offline) start-up in ms: a first visit, the service worker kept the runtime, then two more."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    url = server.url(calc_site.page_path("en", "calculators"))
    page.goto(url)
    _first_result_ms(page)
    page.wait_for_function(SW_READY, timeout=TIMEOUT_MS)
    page = _next_tab(context, page)
    page.goto(url)
    repeat = _first_result_ms(page)
    if stages is not None:
        stages.append(_stages(page))
    page = _next_tab(context, page)
    context.set_offline(True)
    page.goto(url)
    offline = _first_result_ms(page)
    context.close()
    return repeat, offline


def _bare_repeat(browser, server) -> float:
    """A bare loadPyodide() opened twice in one context: the second with a warm HTTP cache."""
    context = browser.new_context()
    page = context.new_page()
    _bare_ms(page, server)
    ms = _bare_ms(_next_tab(context, page), server)
    context.close()
    return ms


def _updates(page) -> list:
    page.wait_for_function("""() => Array.from(document.querySelectorAll('.calc')).every((c) => !c.dataset.pending)""",
                           timeout=TIMEOUT_MS)
    page.evaluate("performance.clearMeasures('calc:update')")
    for round_ in range(3):
        for field, values in EDITS:
            for value in values:
                page.fill(f"#{field}", value)
                calc = field.split("-")[0]
                page.wait_for_function(f"!document.getElementById('calc-{calc}').dataset.pending", timeout=TIMEOUT_MS)
    return page.evaluate("performance.getEntriesByName('calc:update').map((m) => m.duration)")


def page_weight(browser, server, path: str, **context_options) -> dict:
    """Bytes a page transfers (as the server sent them) before anything is touched, by kind; Pyodide's parts apart."""
    server.sent.clear()
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.goto(server.url(path), wait_until="networkidle")
    page.wait_for_timeout(500)
    context.close()
    parts = {"pyodide (excluded)": 0, "page HTML": 0, "ours (js, css)": 0, "theme and search": 0}
    for sent, size in server.sent:
        if any(p in sent for p in PYODIDE_PARTS):
            parts["pyodide (excluded)"] += size
        elif sent.endswith("/") or sent.endswith(".html"):
            parts["page HTML"] += size
        elif any(name in sent for name in ("calculators.js", "explain.js", "site.css")):
            parts["ours (js, css)"] += size
        else:
            parts["theme and search"] += size
    return parts


def _weight(browser, server) -> dict:
    return page_weight(browser, server, calc_site.page_path("en", "calculators"), viewport={"width": 1100, "height": 900})


def _fallback(browser, server, site: pathlib.Path, bare_ms: float) -> str:
    """Start-up when the snapshot cannot be used (its bytes corrupt): the worker boots Pyodide as before.
    The console's one message is counted too; the snapshot is put back afterwards."""
    (snapshot,) = site.glob("assets/calculators/snapshot-*/pyodide-snapshot.*")
    kept = snapshot.read_bytes()
    snapshot.write_bytes(b"not a snapshot" * 1000)
    try:
        runs, said = [], []
        for _ in range(3):
            context = browser.new_context(viewport={"width": 1100, "height": 900})
            page = context.new_page()
            page.on("console", lambda m: said.append(m.type))
            page.goto(server.url(calc_site.page_path("en", "calculators")))
            runs.append(_first_result_ms(page))
            context.close()
    finally:
        snapshot.write_bytes(kept)
    ms = statistics.median(runs)
    return (f"calculator start-up without the snapshot (its file corrupt): ours {ms / 1000:.2f} s, "
            f"ratio {ms / bare_ms:.2f}x to the bare loadPyodide() above (median of 3; the fallback boots Pyodide; "
            f"console over {len(runs)} visits: {len(said) - said.count('error')} message(s), "
            f"{said.count('error')} error(s))")


def measure(work: pathlib.Path) -> None:
    if not calc_site.CHROMIUM.exists():
        print(f"calculators in the browser: skipped, {calc_site.CHROMIUM} is missing (apt-get install chromium)")
        return
    from playwright.sync_api import sync_playwright

    site, proc = calc_site.build(work)
    if proc.returncode != 0:
        raise SystemExit(f"build of the calculator fixture site failed:\n{proc.stderr}")
    version = json.loads((calc_site.ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    (site / "bench-bare-worker.js").write_text(BARE_WORKER, encoding="utf-8")
    (site / "bench-bare.html").write_text(BARE_PAGE % f"pyodide/{version}/", encoding="utf-8")
    with StaticServer(site, gzip_text=True) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(calc_site.CHROMIUM), args=calc_site.CHROMIUM_ARGS)
        _bare(browser, server), _ours(browser, server)  # warm the OS file cache, not the browser's
        bare, ours, cold_stages, repeat_stages = [], [], [], []
        for _ in range(RUNS):
            bare.append(_bare(browser, server))
            ours.append(_ours(browser, server, stages=cold_stages))
        b, o = statistics.median(bare), statistics.median(ours)
        print(f"calculator start-up: ours {o / 1000:.2f} s (load start -> first result), bare loadPyodide() "
              f"{b / 1000:.2f} s, ratio {o / b:.2f}x (target <= 0.35x; medians of {RUNS}, cold cache)")
        repeats = [_repeat(browser, server, repeat_stages) for _ in range(RUNS)]
        bare_warm = statistics.median(_bare_repeat(browser, server) for _ in range(RUNS))
        r, off = statistics.median(x for x, _ in repeats), statistics.median(y for _, y in repeats)
        print(f"calculator start-up, repeat visit: ours {r / 1000:.2f} s (runtime kept by the service worker), "
              f"bare loadPyodide() {b / 1000:.2f} s (cold), ratio {r / b:.2f}x (target <= 0.2x; medians of {RUNS}; "
              f"offline visit {off / 1000:.2f} s; bare loadPyodide() with a warm HTTP cache {bare_warm / 1000:.2f} s)")
        print(_breakdown("first visit", cold_stages))
        print(_breakdown("repeat visit", repeat_stages))
        _, context, page = _ours(browser, server, keep=True)
        durations = _updates(page)
        context.close()
        q = statistics.quantiles(durations, n=10)
        print(f"calculator update: median {statistics.median(durations):.1f} ms, p90 {q[-1]:.1f} ms, "
              f"max {max(durations):.1f} ms over {len(durations)} edits (input event -> result in the page; "
              f"target median < 50 ms)")
        parts = _weight(browser, server)
        print(_fallback(browser, server, site, b))
        browser.close()
    total = sum(v for k, v in parts.items() if not k.startswith("pyodide"))
    detail = ", ".join(f"{k} {v / 1000:.1f} KB" for k, v in parts.items())
    print(f"calculator page weight before a calculator is touched: {total / 1000:.1f} KB gzip-transferred "
          f"(target < 150 KB; {detail})")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp:
        measure(pathlib.Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
