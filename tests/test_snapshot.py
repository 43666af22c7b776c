"""The calculators' start from a Pyodide memory snapshot, its fallback, and the service worker.

What must hold (issue 12, part 1):
- the build makes the snapshot once per content digest (Pyodide build, wheel
  sources, maker script) and fails with the maker's message when it cannot;
- the snapshot is the one Pyodide can restore: served as a page map (the heap
  without its empty pages, docs/assets/snapshot-pages.mjs) that unpacks to a
  heap whose header carries the served Pyodide's BUILD_ID and which is no
  larger than the initial 30 MiB;
- in Chromium, a page restores it (nothing said in the console), and a page
  whose snapshot is missing, corrupt, cut short (gzip or page map) or from another Pyodide build
  still becomes interactive by booting Pyodide, says so once in the console
  (info, never an error) and nothing to the reader;
- the service worker keeps exactly the calculators' versioned files, a repeat
  visit offline is interactive, and a new version drops the old cache.

Parity of the restored interpreter with CPython is in test_pyodide_parity.py.
The browser part builds the calculator fixture site (tools/calc_site.py) once.
"""

from __future__ import annotations

import gzip
import json
import os
import pathlib
import random
import struct
import subprocess
import sys

import pytest

from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from sitebuild import runtime, service_worker, snapshot
from sitebuild.strings import Strings

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT / "tools"))
import calc_site  # noqa: E402

READY_MS = 120_000
MEMORY_CACHE_ENTRY = 50 * 1024 * 1024 // 8   # the largest entry Chromium's in-memory HTTP cache keeps
MAGIC = 1886286592  # Pyodide's snapshot magic number (pyodide.asm.mjs)
INITIAL_HEAP = 30 * 1024 * 1024
FALLBACK_NOTE = "the Pyodide snapshot could not be used"


# ------------------------------------------------------------------ made once, failing loudly


class FakeMaker:
    """Stands in for `node tools/make_snapshot.mjs`: writes --out (or fails) and counts its runs."""

    def __init__(self, returncode: int = 0, stderr: str = ""):
        self.runs, self.returncode, self.stderr = 0, returncode, stderr

    def __call__(self, cmd, **kwargs):
        self.runs += 1
        if self.returncode == 0:
            pathlib.Path(cmd[cmd.index("--out") + 1]).write_bytes(gzip.compress(b"heap"))
        return subprocess.CompletedProcess(cmd, self.returncode, stdout='{"raw": 4}\n', stderr=self.stderr)


def test_made_once_per_content_digest(tmp_path, monkeypatch):
    maker = FakeMaker()
    monkeypatch.setattr(snapshot.subprocess, "run", maker)
    wheel = tmp_path / "calculators.whl"
    wheel.write_bytes(b"wheel")
    first = snapshot.cached_or_made("aaaa", wheel, tmp_path / "cache")
    again = snapshot.cached_or_made("aaaa", wheel, tmp_path / "cache")
    assert first == again == tmp_path / "cache" / "aaaa" / snapshot.FILENAME
    assert maker.runs == 1, "an unchanged digest must reuse the cached snapshot"
    snapshot.cached_or_made("bbbb", wheel, tmp_path / "cache")
    assert maker.runs == 2, "a new digest makes a new snapshot"
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name not in ("aaaa", "bbbb")], "staging left behind"


def test_the_cache_keeps_only_the_newest_snapshots(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot.subprocess, "run", FakeMaker())
    wheel = tmp_path / "calculators.whl"
    wheel.write_bytes(b"wheel")
    for i in range(snapshot.KEEP + 2):
        made = snapshot.cached_or_made(f"d{i}", wheel, tmp_path / "cache")
        os.utime(made.parent, (1_000_000 + i, 1_000_000 + i))
    kept = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert kept == [f"d{i}" for i in range(2, snapshot.KEEP + 2)], kept


def test_a_failing_maker_fails_the_build_with_its_message(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshot.subprocess, "run", FakeMaker(1, "make_snapshot: the heap grew to 40000000 bytes"))
    wheel = tmp_path / "calculators.whl"
    wheel.write_bytes(b"wheel")
    with pytest.raises(snapshot.SnapshotError, match=r"make_snapshot\.mjs failed \(exit 1\):\nmake_snapshot: the heap grew"):
        snapshot.cached_or_made("cccc", wheel, tmp_path / "cache")
    assert not (tmp_path / "cache" / "cccc").exists(), "a failed run must not fill the cache"


def test_the_digest_follows_pyodide_build_and_wheel_sources(tmp_path):
    fake = tmp_path / "pyodide"
    fake.mkdir()
    (fake / "package.json").write_text('{"version": "314.0.7"}')
    (fake / "pyodide.mjs").write_text('x={BUILD_ID:"' + "ab" * 32 + '"}')
    base = snapshot.digest(fake, "wheel1")
    assert snapshot.digest(fake, "wheel2") != base
    (fake / "pyodide.mjs").write_text('x={BUILD_ID:"' + "cd" * 32 + '"}')
    assert snapshot.digest(fake, "wheel1") != base
    (fake / "pyodide.mjs").write_text("no build id here")
    with pytest.raises(snapshot.SnapshotError, match="no BUILD_ID"):
        snapshot.digest(fake, "wheel1")


# ------------------------------------------------------------------ the real snapshot


needs_pyodide = pytest.mark.skipif(not (runtime.PYODIDE_DIR / "pyodide.mjs").is_file(),
                                   reason="node_modules/pyodide is missing (npm ci)")


PAGE_MAP_MAGIC = b"CALCPGM1"


def read_page_map(data: bytes) -> tuple:
    """(heap, kept pages) from a page map, read here from its documented layout, not by the code under test."""
    assert data[:8] == PAGE_MAP_MAGIC, data[:8]
    length, size = struct.unpack("<II", data[8:16])
    pages = -(-length // size)
    bits = data[16:16 + -(-pages // 8)]
    heap, at, kept = bytearray(length), 16 + len(bits), 0
    for i in range(pages):
        if bits[i // 8] >> (i % 8) & 1:
            chunk = data[at:at + min(size, length - i * size)]
            heap[i * size:i * size + len(chunk)] = chunk
            at, kept = at + len(chunk), kept + 1
    assert at == len(data), "the page map must end with its last kept page"
    return bytes(heap), kept


@pytest.fixture(scope="module")
def page_map() -> bytes:
    rt = runtime.info({})
    return gzip.decompress(rt.snapshot.read_bytes())


@pytest.fixture(scope="module")
def raw_snapshot(page_map) -> bytes:
    return read_page_map(page_map)[0]


@needs_pyodide
def test_the_snapshot_is_restorable_by_the_served_pyodide(raw_snapshot):
    magic, heap_offset, _json_len, _zero, *words = struct.unpack("<12I", raw_snapshot[:48])
    assert magic == MAGIC
    assert "".join(f"{w:08x}" for w in words) == snapshot.build_id(runtime.PYODIDE_DIR)
    heap = len(raw_snapshot) - heap_offset
    assert heap <= INITIAL_HEAP, f"a heap of {heap} bytes (over the initial {INITIAL_HEAP}) does not restore"


@needs_pyodide
def test_the_page_map_leaves_out_only_empty_pages(page_map, raw_snapshot):
    """Every page left out is zeros, every page kept is not: the map is as small as it can be, and exact."""
    size = struct.unpack("<I", page_map[12:16])[0]
    pages = [raw_snapshot[i:i + size] for i in range(0, len(raw_snapshot), size)]
    empty = sum(1 for page in pages if not any(page))
    _, kept = read_page_map(page_map)
    assert kept == len(pages) - empty and empty > 0
    header = 16 + -(-len(pages) // 8)  # magic, length, page size; one bit per page
    assert len(page_map) == header + sum(len(page) for page in pages if any(page)), "empty pages were kept"


# ------------------------------------------------------------------ the service worker's list


def test_the_service_worker_keeps_only_versioned_runtime_urls(monkeypatch):
    monkeypatch.delenv(runtime.ENV_URL, raising=False)
    rt = runtime.info({})
    urls = service_worker.precache_urls(rt)
    assert f"assets/{rt.wheel_url}" in urls and f"assets/{rt.snapshot_url}" in urls
    for url in urls:
        versioned = "?v=" in url or f"/{rt.pyodide_url}" in f"/{url}" or runtime.source_digest() in url or "snapshot-" in url
        assert url.startswith("assets/") and versioned, f"not a versioned runtime URL: {url}"
    assert len(urls) == len(runtime.CORE_FILES) + 5, urls
    monkeypatch.setenv(runtime.ENV_URL, "https://example.org/pyodide/")
    external = runtime.info({})
    assert not [u for u in service_worker.precache_urls(external) if "pyodide" in u], "external Pyodide is not ours"
    assert json.loads(service_worker.text(external).split("=", 1)[1].split(";\n", 1)[0])["version"] != \
        json.loads(service_worker.text(rt).split("=", 1)[1].split(";\n", 1)[0])["version"], \
        "another list, another version"


# ------------------------------------------------------------------ in Chromium


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> pathlib.Path:
    site, proc = calc_site.build(tmp_path_factory.mktemp("snapshot"))
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    return site


def _snapshot_path(site: pathlib.Path) -> pathlib.Path:
    return next((site / "assets" / "calculators").glob(f"snapshot-*/{snapshot.FILENAME}"))


def _faults(site: pathlib.Path) -> dict:
    """What a broken host might send instead of the snapshot: (status, body)."""
    packed = _snapshot_path(site).read_bytes()
    pages = gzip.decompress(packed)
    length, size = struct.unpack("<II", pages[8:16])
    first_page = 16 + -(-(-(-length // size)) // 8)  # the heap's first page (never empty: Pyodide's header)
    foreign = bytearray(pages)
    foreign[first_page + 16:first_page + 20] = bytes(4 - i for i in range(4))  # another Pyodide build: BUILD_ID differs
    return {"missing": (404, b"not found"),
            "corrupt": (200, gzip.compress(random.Random(12).randbytes(4096))),
            "cut short": (200, packed[: len(packed) // 2]),
            "pages cut short": (200, gzip.compress(pages[:-size], compresslevel=1)),
            "another build": (200, gzip.compress(bytes(foreign), compresslevel=1))}


def _open(browser, server, route_body=None):
    """A fresh page (no service worker) on the calculators page; console lines and Python's first answer."""
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    if route_body is not None:
        status, body = route_body
        context.route(f"**/{snapshot.FILENAME}", lambda route: route.fulfill(status=status, body=body))
    context.add_init_script(RECORDER)
    page = context.new_page()
    lines = []
    page.on("console", lambda m: lines.append((m.type, m.text)))
    page.goto(server.url(calc_site.page_path("en", "calculators")))
    calc_site.touch(page)
    page.wait_for_function("performance.getEntriesByName('calc:first-result').length > 0", timeout=READY_MS)
    return context, page, lines


RECORDER = """window.__results = [];
document.addEventListener("calc-result", (e) => { if (e.target.dataset.instance === "decode") window.__results.push(e.detail); });"""


def _interactive(page) -> None:
    """Typing a new value gets Python's answer for it, as CPython computes it."""
    page.wait_for_function("window.__results.length > 0 && !document.getElementById('calc-decode').dataset.pending",
                           timeout=READY_MS)
    before = page.evaluate("window.__results.length")
    page.fill("#decode-batch", "16")
    page.wait_for_function(f"window.__results.length > {before} && !document.getElementById('calc-decode').dataset.pending",
                           timeout=READY_MS)
    texts = dict(ui.default_texts("decode", "en"), batch="16")
    strings = Strings()
    expected = ui.evaluate("decode", texts, "en", lambda m: strings.get(m, "en"), "decode")
    got = page.evaluate("window.__results.at(-1)")
    assert (got["html"], got["chart"]) == (expected["html"], expected["chart"])


def _our_errors(lines) -> list:
    """Console errors other than the browser's own line for a failed request (which no script can avoid)."""
    return [t for kind, t in lines if kind == "error" and not t.startswith("Failed to load resource")]


@needs_pyodide
def test_the_page_restores_the_snapshot(browser, server):
    context, page, lines = _open(browser, server)
    _interactive(page)
    assert not [t for _, t in lines if FALLBACK_NOTE in t], "the snapshot was not used"
    assert _our_errors(lines) == []
    context.close()


@needs_pyodide
@pytest.mark.parametrize("fault", ["missing", "corrupt", "cut short", "pages cut short", "another build"])
def test_a_broken_snapshot_falls_back_to_a_boot(browser, server, site, fault):
    context, page, lines = _open(browser, server, _faults(site)[fault])
    _interactive(page)
    notes = [(kind, t) for kind, t in lines if FALLBACK_NOTE in t]
    assert len(notes) == 1 and notes[0][0] in ("info", "log"), f"one console note, not an error: {lines}"
    assert _our_errors(lines) == [], lines
    for instance in calc_site.FIXTURE_INSTANCES:
        assert page.locator(f"#calc-{instance} .calc-notice").is_hidden(), "the reader is told nothing"
        assert page.locator(f"#calc-{instance} .calc-status").inner_text() == ""
    context.close()


SW_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active.state === "activated" && navigator.serviceWorker.controller !== null;
}"""
CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
  return out;
}"""


@needs_pyodide
def test_the_service_worker_keeps_the_runtime_for_an_offline_visit(browser, server, site, tmp_path):
    # A profile on disk, as a reader's: a test context's in-memory HTTP cache keeps no entry of the
    # snapshot's or the WebAssembly's size, so the worker would have to download them again.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=str(calc_site.CHROMIUM), args=calc_site.CHROMIUM_ARGS,
        viewport={"width": 1100, "height": 900})
    context.add_init_script(RECORDER)
    server.sent.clear()
    page = context.new_page()
    url = server.url(calc_site.page_path("en", "calculators"))
    page.goto(url)
    calc_site.touch(page)
    page.wait_for_function("performance.getEntriesByName('calc:first-result').length > 0", timeout=READY_MS)
    page.wait_for_function(SW_READY, timeout=READY_MS)
    page.wait_for_function("async () => (await caches.keys()).includes('calc-pages')"
                           " && (await (await caches.open('calc-pages')).keys()).some((r) => r.url === location.href)",
                           timeout=READY_MS)
    worker = (site / runtime.SERVICE_WORKER).read_text(encoding="utf-8")
    precache = json.loads(worker.split("=", 1)[1].split(";\n", 1)[0])
    # The worker keeps what the page just loaded from the HTTP cache, not the network: each file once.
    sent = [path for path, _ in server.sent if "/assets/pyodide/" in path or "/assets/calculators/" in path]
    assert len(set(sent)) == len(sent) == len(precache["urls"]) - 3, f"downloaded again or missing: {sent}"
    cached = page.evaluate(CACHED)
    runtime_cache = f"calc-runtime-{precache['version']}"
    kept = [u + "?raw" if u == precache["snapshot"] else u for u in precache["urls"]]
    assert sorted(cached[runtime_cache]) == sorted(server.url(u) for u in kept), "the snapshot is kept gunzipped"
    raw = page.evaluate("async (url) => (await (await caches.match(url)).arrayBuffer()).byteLength",
                        server.url(precache["snapshot"] + "?raw"))
    assert raw == len(gzip.decompress(_snapshot_path(site).read_bytes()))
    page.close()

    context.set_offline(True)
    offline = context.new_page()
    offline.goto(url)
    calc_site.touch(offline)
    offline.wait_for_function("performance.getEntriesByName('calc:first-result').length > 0", timeout=READY_MS)
    _interactive(offline)
    offline.close()
    context.set_offline(False)

    # A new build: another list, another version, another runtime cache. The old one stays while a page
    # that was open when the new worker took over is open (it may still ask for its runtime), then goes.
    (site / runtime.SERVICE_WORKER).write_text(worker.replace(precache["version"], "0" * 12, 1), encoding="utf-8")
    try:
        page = context.new_page()
        page.goto(url)
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        page.wait_for_function("async () => (await caches.keys()).includes('calc-runtime-000000000000')"
                               " && (await navigator.serviceWorker.getRegistration()).active.scriptURL"
                               " && !(await navigator.serviceWorker.getRegistration()).installing"
                               " && !(await navigator.serviceWorker.getRegistration()).waiting", timeout=READY_MS)
        page.wait_for_timeout(500)
        assert runtime_cache in page.evaluate("caches.keys()"), "dropped while a page from before the change is open"
        fresh = context.new_page()
        page.close()
        fresh.goto(url)  # a navigation: no page from before the change is left
        fresh.wait_for_function("async () => !(await caches.keys()).includes(" + json.dumps(runtime_cache) + ")",
                                timeout=READY_MS)
    finally:
        (site / runtime.SERVICE_WORKER).write_text(worker, encoding="utf-8")
    context.close()


@needs_pyodide
def test_a_kept_snapshot_that_fails_is_dropped(browser, server, site):
    """A broken copy in the service worker's cache: the page falls back once, and the copy is gone."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script(RECORDER)
    page = context.new_page()
    url = server.url(calc_site.page_path("en", "calculators"))
    page.goto(url)
    calc_site.touch(page)
    page.wait_for_function(SW_READY, timeout=READY_MS)
    worker = (site / runtime.SERVICE_WORKER).read_text(encoding="utf-8")
    raw_key = server.url(json.loads(worker.split("=", 1)[1].split(";\n", 1)[0])["snapshot"] + "?raw")
    page.wait_for_function("async (key) => !!(await caches.match(key))", arg=raw_key, timeout=READY_MS)
    page.evaluate("""async (key) => { for (const name of await caches.keys()) {
                       const cache = await caches.open(name);
                       if (await cache.match(key)) await cache.put(key, new Response(new Uint8Array(4096))); } }""",
                  raw_key)
    page.close()
    page = context.new_page()
    lines = []
    page.on("console", lambda m: lines.append((m.type, m.text)))
    page.goto(url)
    calc_site.touch(page)
    _interactive(page)
    assert [kind for kind, t in lines if FALLBACK_NOTE in t] == ["info"], lines
    page.wait_for_function("async (key) => !(await caches.match(key))", arg=raw_key, timeout=READY_MS)
    context.close()


@needs_pyodide
def test_nothing_is_precached_before_the_page_is_idle_and_python_is_up(browser, server):
    """The service worker must not compete with the first paint or with Python's own downloads."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(server.url(calc_site.page_path("en", "calculators")), wait_until="commit")
    registered_early = page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length")
    page.wait_for_load_state()
    calc_site.touch(page)
    page.wait_for_function("performance.getEntriesByName('calc:first-result').length > 0", timeout=READY_MS)
    assert registered_early == 0
    context.close()


@needs_pyodide
def test_a_reader_who_never_reaches_a_calculator_downloads_nothing_for_it(browser, server):
    """Below the fold: no runtime, no snapshot, no service worker until the calculator is in view."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    server.sent.clear()
    page.goto(server.url(calc_site.page_path("en", "speed")), wait_until="networkidle")
    page.wait_for_timeout(3000)  # idle well past the load event
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    runtime_bytes = [p for p, _ in server.sent if "/assets/pyodide/" in p or "/assets/calculators/" in p
                     or p.endswith(runtime.SERVICE_WORKER) or "calc-worker" in p]
    assert runtime_bytes == []
    context.close()
