"""A new deployment while readers have the site open, and offline visits (sitebuild/service_worker.js,
docs/assets/calculators.js): what the reliability report found broken, reproduced and checked.

Build B is build A (the calculator fixture site, tools/calc_site.py) as the next deployment would
make it: the wheel's and the snapshot's digest folders renamed and every reference to them rewritten,
the scripts' version changed, one page's heading changed, and the service worker's list and version
made for it, as sitebuild/service_worker.py makes them. The host serves a folder that is switched from
A to B, and, like `python -m http.server`, sends no Cache-Control (the browser may then keep a page by
heuristic freshness) unless a test asks for `no-cache`.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import pathlib
import re
import shutil
import threading
import time

import pytest

import calc_site
from sitebuild import runtime, service_worker
from static_server import MIME

READY_MS = 120_000
SW_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active.state === "activated" && navigator.serviceWorker.controller !== null;
}"""
CHANGED_TITLE = "About this site, as deployed again"


def _precache(site: pathlib.Path) -> tuple:
    text = (site / runtime.SERVICE_WORKER).read_text(encoding="utf-8")
    head, code = text.split(";\n", 1)
    return json.loads(head.split("=", 1)[1]), code


def _next_build(a: pathlib.Path, b: pathlib.Path) -> dict:
    """Build B from A (see the top); returns what changed: {"runtime": (old digest folder, new one), ...}."""
    shutil.copytree(a, b)
    precache, code = _precache(a)
    wheel_dir = next(p for p in (b / "assets" / "calculators").iterdir() if not p.name.startswith("snapshot-"))
    snap_dir = next((b / "assets" / "calculators").glob("snapshot-*"))
    version = re.search(r"calc-worker\.js\?v=(\w+)", " ".join(precache["urls"])).group(1)
    renames = {wheel_dir.name: wheel_dir.name[:-3] + "bbb", snap_dir.name: snap_dir.name[:-3] + "bbb", f"?v={version}": "?v=bbbbbbbbbb"}
    wheel_dir.rename(wheel_dir.with_name(renames[wheel_dir.name]))
    snap_dir.rename(snap_dir.with_name(renames[snap_dir.name]))
    for page in b.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for old, new in renames.items():
            html = html.replace(old, new)
        page.write_text(html, encoding="utf-8")
    about = b / "en" / "about" / "index.html"
    about.write_text(re.sub(r"<h1[^>]*>.*?</h1>", f"<h1>{CHANGED_TITLE}</h1>", about.read_text(encoding="utf-8"), 1, re.S),
                     encoding="utf-8")
    urls = [functools.reduce(lambda u, kv: u.replace(*kv), renames.items(), u) for u in precache["urls"]]
    snapshot = functools.reduce(lambda u, kv: u.replace(*kv), renames.items(), precache["snapshot"])
    data = {**precache, "version": "b" * 12, "urls": urls, "snapshot": snapshot, "pages": service_worker.pages(b)}
    (b / runtime.SERVICE_WORKER).write_text("const PRECACHE = " + json.dumps(data, indent=1, ensure_ascii=False) + ";\n" + code,
                                             encoding="utf-8")
    now = time.time()
    for path in b.rglob("*"):   # deployed now: newer than anything the browser keeps from A
        os.utime(path, (now, now), follow_symlinks=False)
    return {"old_runtime": f"calc-runtime-{precache['version']}", "new_runtime": f"calc-runtime-{'b' * 12}"}


class Host:
    """A static host for a folder that can be switched (a deployment); `no_cache` as tools/static_server.py."""

    def __init__(self, root: pathlib.Path, no_cache: bool):
        self.link = root
        extensions = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = extensions

            def log_message(self, *args):
                pass

            def end_headers(self):
                if no_cache:
                    self.send_header("Cache-Control", "no-cache")
                super().end_headers()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}/{path.lstrip('/')}"

    def deploy(self, folder: pathlib.Path) -> None:
        self.link.unlink()
        self.link.symlink_to(folder, target_is_directory=True)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def builds(calc_site_dir, tmp_path):
    """(A, B, the folder the host serves: A until deployed, what changed)."""
    a = tmp_path / "a"
    shutil.copytree(calc_site_dir, a)
    long_ago = time.time() - 10 * 86400   # built ten days ago: a host without Cache-Control lets a browser keep it a day
    for path in a.rglob("*"):
        os.utime(path, (long_ago, long_ago), follow_symlinks=False)
    changed = _next_build(a, tmp_path / "b")
    live = tmp_path / "live"
    live.symlink_to(a, target_is_directory=True)
    return a, tmp_path / "b", live, changed


def _started(page) -> None:
    calc_site.touch(page)
    page.wait_for_function("""() => Array.from(document.querySelectorAll('.calc[data-instance]'))
        .every((el) => !el.dataset.pending && !el.hasAttribute('aria-busy'))
        && performance.getEntriesByName('calc:first-result').length > 0""", timeout=READY_MS)


CACHES = "async () => await caches.keys()"


def test_a_returning_reader_gets_the_new_pages_from_a_host_without_cache_headers(browser, builds):
    """The host sends no Cache-Control: the browser may keep a page ten days old for a day (heuristic
    freshness); the service worker revalidates every page it is asked for."""
    a, b, live, _ = builds
    host = Host(live, no_cache=False)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        page.goto(host.url("en/calculators/"))
        _started(page)
        page.wait_for_function(SW_READY, timeout=READY_MS)
        page.goto(host.url("en/about/"))
        before = page.locator("h1").inner_text()
        host.deploy(b)
        page.goto(host.url("en/"))
        page.goto(host.url("en/about/"))
        assert before != CHANGED_TITLE and page.locator("h1").inner_text() == CHANGED_TITLE, "the returning reader got the old page"
    finally:
        context.close()
        host.close()


def test_a_deployment_keeps_open_tabs_working_and_kept_pages_offline(browser, builds):
    """The host revalidates (no-cache), so nothing of build A outlives the deployment in the HTTP cache:
    what a tab opened on A needs after it comes from the service worker, or from nowhere."""
    a, b, live, changed = builds
    host = Host(live, no_cache=True)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        first = context.new_page()
        first.goto(host.url("en/calculators/"))
        _started(first)
        first.wait_for_function(SW_READY, timeout=READY_MS)
        for path in ("en/about/", "en/glossary/"):   # read while build A is up
            first.goto(host.url(path))
        old_tab = context.new_page()                  # open on build A; its calculator is never started before B
        old_tab.goto(host.url("en/speed/"))

        host.deploy(b)
        reader = context.new_page()
        reader.goto(host.url("en/about/"))
        assert reader.locator("h1").inner_text() == CHANGED_TITLE
        reader.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        reader.wait_for_function(f"async () => (await caches.keys()).includes('{changed['new_runtime']}')"
                                 " && (await navigator.serviceWorker.getRegistration()).active.scriptURL"
                                 " && !(await navigator.serviceWorker.getRegistration()).installing"
                                 " && !(await navigator.serviceWorker.getRegistration()).waiting", timeout=READY_MS)
        reader.wait_for_timeout(500)
        assert changed["old_runtime"] in reader.evaluate(CACHES), "dropped while a tab of build A is open"

        # The tab opened on A starts its calculator now: A's runtime is gone from the host, kept by the worker.
        lines = []
        old_tab.on("console", lambda m: lines.append(m.text))
        old_tab.locator("#kv_cache-batch").focus()
        old_tab.wait_for_function("() => performance.getEntriesByName('calc:first-result').length > 0", timeout=READY_MS)
        assert old_tab.locator("#calc-kv_cache .calc-notice").is_hidden(), lines
        assert not [t for t in lines if "read-only" in t], lines

        # Once no page of A is open, A's runtime goes (30 MB).
        for page in (first, old_tab):
            page.close()
        for path in ("en/", "en/glossary/"):   # the page open at the change (en/about/) is left too
            reader.goto(host.url(path))
        reader.wait_for_function(f"async () => !(await caches.keys()).includes('{changed['old_runtime']}')", timeout=READY_MS)

        # Offline: a page read before the deployment and unchanged by it is still there; the changed one
        # is there as deployed; a page never read says so, in its language.
        context.set_offline(True)
        offline = context.new_page()
        offline.goto(host.url("en/glossary/"))
        assert offline.locator("h1").inner_text().strip() != "" and "offline" not in offline.locator("h1").inner_text().lower()
        offline.goto(host.url("en/about/"))
        assert offline.locator("h1").inner_text() == CHANGED_TITLE
        response = offline.goto(host.url("it/glossary/"))
        assert response.status == 503
        assert offline.locator("html").get_attribute("lang") == "it" and offline.locator("h1").inner_text() == "Sei offline"
        assert "en/glossary/" not in offline.content(), "only pages of the address's language are listed"
        offline.goto(host.url("en/decode/"))
        assert offline.locator("h1").inner_text() == "You are offline"
        assert offline.locator("a[href$='/en/glossary/']").count() == 1, "the pages kept in English are listed"
        context.set_offline(False)
    finally:
        context.close()
        host.close()


def test_without_a_service_worker_a_page_whose_runtime_is_gone_reloads_itself_once(browser, builds):
    a, b, live, _ = builds
    host = Host(live, no_cache=True)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        page.goto(host.url("da/speed/"))
        loads = []
        page.on("load", lambda _: loads.append(page.url))
        host.deploy(b)
        page.locator("#kv_cache-batch").fill("4")   # the first touch: A's runtime answers 404
        page.wait_for_selector(".calc-updated", timeout=READY_MS)
        assert len(loads) == 1, f"reloaded {len(loads)} times"
        assert page.locator(".calc-updated").inner_text() == (
            "Sitet blev opdateret, mens denne side var åben, så siden er blevet genindlæst, for at dens beregnere fortsat virker.")
        assert "bbb" in page.locator("#calc-config").text_content(), "the page is build B's"
        _started(page)
        assert page.locator("#calc-kv_cache .calc-notice").is_hidden()
        page.reload()   # the notice is shown once
        assert page.locator(".calc-updated").count() == 0
    finally:
        context.close()
        host.close()
