"""Every built page, in every language, opens in Chromium without a console error, a failed request
or a request to another origin, with JavaScript on and off.

The real site (all pages, all four languages) is built for the address it is
served from (SITE_URL = the test server's origin, as a deployment sets it),
so the sitemaps the theme reads name the pages the browser is on. One browser
for the module, one context per JavaScript setting; every page is opened and
left alone until no request is in flight. A page whose calculators started
Python is kept open until they have their first results, so that the
runtime's requests and messages are counted too. With JavaScript on, the
theme asks for the sitemap of every language root in the page's head; that
those answers are 200 proves the alternates resolve (hooks/alternates.py).
"""

from __future__ import annotations

import pathlib
import time
from urllib.parse import urlparse

import pytest

import calc_site
from static_server import StaticServer
from test_site import build_site

LANGS = ("de", "en", "da", "it")
SETTLE_S = 0.15          # no request in flight for this long: the page is done
CALC_READY_MS = 120_000  # a cold Pyodide boot on a busy 2-core machine


@pytest.fixture(scope="module")
def served(chromium, tmp_path_factory):
    """(site folder, running server); `chromium` first, so a machine without it skips before building."""
    out = tmp_path_factory.mktemp("clean-site")
    server = StaticServer(out)  # bound before the build: the site is built for the address it is served from
    proc = build_site(out, extra_env={"SITE_CHECKS": "off", "SITE_URL": server.origin + "/"})
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    with server:
        yield out, server


def built_pages(site: pathlib.Path) -> list:
    """URL paths of every HTML page the build wrote (the runtime's files under assets/ are not pages)."""
    pages = [p.relative_to(site) for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts]
    return sorted((p.parent.as_posix() + "/").removeprefix("./") if p.name == "index.html" else p.as_posix()
                  for p in pages)


class Recorder:
    """What a context's pages logged and requested: console errors, failures, requests off the origin."""

    def __init__(self, context, origin: str):
        self.host = urlparse(origin).netloc
        self.errors, self.failed, self.offsite, self.ok = [], [], [], []
        context.route("**/*", self._guard)
        context.on("requestfailed", lambda r: self.failed.append(f"{r.url}: {r.failure}"))
        context.on("response", self._response)

    def _guard(self, route):
        if urlparse(route.request.url).netloc != self.host:
            self.offsite.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    def _response(self, response):
        if response.status >= 400:
            self.failed.append(f"{response.url}: HTTP {response.status}")
        else:
            self.ok.append(response.url)

    def watch(self, page, path: str) -> "InFlight":
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"{path}: console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"{path}: uncaught: {e}"))
        return InFlight(page)


class InFlight:
    """The requests one page (and its workers) has on the way, to know when it has finished loading."""

    def __init__(self, page):
        self.page, self.pending, self.last = page, set(), time.monotonic()
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)

    def _start(self, request):
        self.pending.add(request)
        self.last = time.monotonic()

    def _end(self, request):
        self.pending.discard(request)
        self.last = time.monotonic()

    def settle(self, timeout_s: float = 60) -> None:
        """Wait until nothing has been in flight for SETTLE_S."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
            if not self.pending and time.monotonic() - self.last >= SETTLE_S:
                return
        raise AssertionError(f"{self.page.url}: still loading after {timeout_s} s: {[r.url for r in self.pending][:5]}")


CALC_EVENTS = """
window.__calcResults = new Set();
document.addEventListener("calc-result", (e) => window.__calcResults.add(e.target.dataset.instance));
"""


def open_every_page(browser, server, paths: list, js: bool) -> Recorder:
    """One tab at a time (a background tab's calculators would wait for frames that never come)."""
    context = browser.new_context(java_script_enabled=js, viewport={"width": 1100, "height": 900})
    context.add_init_script(CALC_EVENTS)
    rec = Recorder(context, server.origin)
    for path in paths:
        page = context.new_page()
        loading = rec.watch(page, path)
        page.goto(server.url(path), wait_until="load")
        loading.settle()
        if any("calc-worker" in w.url for w in page.workers):  # Python started on this page: every calculator gets its first result
            page.wait_for_function("""() => Array.from(document.querySelectorAll('.calc[data-instance]'))
                                          .every((el) => window.__calcResults.has(el.dataset.instance))""",
                                   timeout=CALC_READY_MS)
            loading.settle()
        page.close()
    context.close()
    return rec


def test_the_site_has_every_page_in_every_language(served):
    site, _ = served
    paths = set(built_pages(site))
    german = sorted(p for p in paths if not p.endswith(".html") and p.split("/")[0] not in LANGS)
    assert "" in german and "decode/" in german and len(german) >= 8, german
    for lang in LANGS[1:]:
        assert {f"{lang}/{p}" for p in german} <= paths, f"{lang}: pages missing"
    assert "404.html" in paths


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
def test_every_page_opens_clean(browser, served, js):
    site, server = served
    paths = built_pages(site)
    rec = open_every_page(browser, server, paths, js)
    assert not rec.offsite, "requests left the origin:\n" + "\n".join(rec.offsite[:20])
    assert not rec.failed, "failed requests:\n" + "\n".join(rec.failed[:20])
    assert not rec.errors, "console errors:\n" + "\n".join(rec.errors[:20])
    pages_loaded = [u for u in rec.ok if urlparse(u).path.endswith("/") or u.endswith(".html")]
    assert len(pages_loaded) >= len(paths), f"only {len(pages_loaded)} of {len(paths)} pages answered"
    sitemaps = {urlparse(u).path for u in rec.ok if u.endswith("/sitemap.xml")}
    if js:  # the theme read the sitemap under every language root, and each answered
        assert sitemaps == {"/sitemap.xml"} | {f"/{lang}/sitemap.xml" for lang in LANGS[1:]}, sitemaps
    else:
        assert not sitemaps, sitemaps


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
def test_the_language_selector_keeps_the_reader_on_the_same_page(browser, served, js):
    """With the theme's sitemap lookup (JavaScript) and without it (the selector's own links)."""
    _, server = served
    context = browser.new_context(java_script_enabled=js)
    rec = Recorder(context, server.origin)
    page = context.new_page()
    loading = rec.watch(page, "en/decode/")
    page.goto(server.url("en/decode/"))
    loading.settle()
    for lang, path in (("da", "/da/decode/"), ("de", "/decode/"), ("it", "/it/decode/")):
        link = page.locator(f'a.md-select__link[hreflang="{lang}"]')
        with page.expect_navigation():
            link.dispatch_event("click") if js else page.goto(link.evaluate("(a) => a.href"))
        assert urlparse(page.url).path == path, f"-> {lang}: {page.url}"
        loading.settle()
    context.close()
    assert not (rec.errors or rec.failed or rec.offsite), (rec.errors, rec.failed, rec.offsite)
