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
        context.on("requestfailed", self._failed)
        context.on("response", self._response)

    def _failed(self, request):
        # /de/… is a redirect to the German page at the root (hooks/language_redirects.py): its refresh may
        # start the next navigation before the stub itself has finished loading, which aborts the stub's own
        # request. That is the redirect working, not a failure; anything else aborted still counts.
        redirect = urlparse(request.url).path.startswith("/de/") and request.is_navigation_request()
        if not (redirect and request.failure == "net::ERR_ABORTED"):
            self.failed.append(f"{request.url}: {request.failure}")

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


# ------------------------------------------------------------- every screen

import re  # noqa: E402

import screens  # noqa: E402  (tools/: the same rules it prints for a person looking at the screenshots)

RUNTIME = re.compile(r"/assets/pyodide/|/assets/calculators/|calc-worker\.js|\.wasm(\?|$)")
SCREENS = {"phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2),
           "desktop": dict(viewport={"width": 1280, "height": 900})}


def _reader_pages(site) -> list:
    """Every page a reader opens (not the small redirect pages under de/)."""
    return [p for p in built_pages(site) if p.endswith("/") and not p.startswith("de/")]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_page_fits_its_screen(browser, served, screen):
    """No page scrolls sideways; every table and chart fits the content column (720 px on a desktop) or
    scrolls inside a labelled scroller of its own with its hint shown; no chart label runs out of its
    drawing. And reading a page to its end, touching nothing, downloads no part of the calculators' runtime."""
    site, server = served
    context = browser.new_context(**SCREENS[screen])
    problems, runtime_requests = [], []
    context.on("request", lambda r: RUNTIME.search(r.url) and runtime_requests.append(r.url))
    page = context.new_page()
    for path in _reader_pages(site):
        page.goto(server.url(path), wait_until="load")
        if screen == "phone" and "calculators" in path:   # a reader scrolling through, past every calculator
            height = page.evaluate("document.documentElement.scrollHeight")
            for y in range(0, height, 700):
                page.evaluate("(y) => window.scrollTo(0, y)", y)
                page.wait_for_timeout(30)
        page.wait_for_timeout(100)   # the scroll hints' ResizeObserver
        found = page.evaluate(screens.OVERFLOW)
        if found["sideways"] > 0:
            problems.append(f"{path}: the page scrolls sideways by {found['sideways']} px")
        problems += [f"{path}: {i['name']} ({i['width']} px at x={i['left']}) is not in a labelled scroller with its hint"
                     for i in found["items"] if not i["scroller"]]
        problems += [f"{path}: clipped chart label {c}" for c in found["clipped"]]
    if screen == "phone":
        page.wait_for_timeout(1500)
        problems += [f"requested before a touch: {u}" for u in runtime_requests]
    context.close()
    assert not problems, "\n".join(problems[:30])


def test_a_table_that_must_scroll_says_so_and_can_be_reached_by_keyboard(browser, served):
    """Where a table still does not fit (here made 2000 px wide), its scroller shows the hint in the
    page's language and takes focus; where it fits, the hint stays hidden and the Tab key passes it."""
    _, server = served
    context = browser.new_context(**SCREENS["phone"])
    page = context.new_page()
    page.goto(server.url("da/factcheck/"))
    scroller = page.locator(".table-scroller").first
    hint = page.locator(".table-scroller + .scroll-hint").first
    assert scroller.get_attribute("role") == "region" and scroller.get_attribute("aria-label")
    page.wait_for_timeout(100)
    assert hint.is_hidden() and scroller.get_attribute("tabindex") is None, "a table that fits needs no hint"
    scroller.evaluate("(box) => { box.querySelector('table').style.minWidth = '2000px'; }")
    page.wait_for_function("(box) => box.hasAttribute('data-overflowing')", arg=scroller.element_handle())
    assert hint.is_visible() and hint.inner_text() == "Rul sidelæns for at se det hele ↔"
    assert scroller.get_attribute("tabindex") == "0"
    assert page.evaluate("document.documentElement.scrollWidth") == page.evaluate("document.documentElement.clientWidth")
    context.close()


def test_german_under_de_leads_to_the_root(browser, served):
    _, server = served
    context = browser.new_context()
    page = context.new_page()
    for asked, lands in (("de/", "/"), ("de/decode/?decode.batch=8#kv-cache", "/decode/?decode.batch=8#kv-cache")):
        response = page.goto(server.url(asked))
        assert response.status == 200
        page.wait_for_url(server.url(lands.lstrip("/")))
        assert page.evaluate("document.documentElement.lang") == "de"
    context.close()


def test_about_promises_no_link_without_a_repository(served):
    """This build names no repository (mkdocs.yml extra.repository, SITE_REPOSITORY): the sentence asks
    readers to tell the site's operators; with one, tests/test_site.py finds the link."""
    site, _ = served
    for lang, words in (("de", "den Betreibern"), ("en", "the people who run this site"),
                        ("da", "dem, der driver sitet"), ("it", "chi gestisce questo sito")):
        html = (site / ("" if lang == "de" else lang) / "about" / "index.html").read_text(encoding="utf-8")
        assert words in html and not re.search(r"<a [^>]*>[^<]*[Rr]epository", html), lang
