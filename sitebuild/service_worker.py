"""The service worker that keeps the calculators' runtime for repeat and offline visits.

Its code is sitebuild/service_worker.js (it says what it caches and why);
this module writes it to the site root as calc-sw.js (a service worker's
scope is its folder and below: at the root it serves every language),
preceded by the list of what it precaches. The list holds exactly the
versioned URLs the calculators load: Pyodide's core files (when the site
serves them), the wheel, the snapshot (and the module that unpacks it) and
the page and worker scripts.
The version is a digest of that list and of the code, so every build that
changes any of them makes a new worker with a new runtime cache (the old one
is kept while a page that was open at the change is still open).

After the list: every page of the build with a digest of its HTML (the
worker checks the pages it keeps for offline reading against it after a
deployment) and, per language root, the words of the page it shows for a
page that is not kept when the reader is offline.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from calculators.ui.messages import N_
from sitebuild.runtime import CORE_FILES, SERVICE_WORKER

SOURCE = pathlib.Path(__file__).with_name("service_worker.js")

# The page the worker answers with, offline, for a page it does not keep (in the language of the address).
OFFLINE = {
    # TRANSLATORS: title of the page shown offline for a page that is not stored on the device
    "title": N_("You are offline"),
    "text": N_("This page is not stored in this browser, so it cannot be shown without a connection. "
               "Pages are kept for offline reading once you have opened them online."),
    "kept": N_("Pages kept in this browser that you can read offline:"),
    # TRANSLATORS: a link on the offline page that loads the page again
    "retry": N_("Try again"),
}


def precache_urls(rt) -> list:
    """The URLs, relative to the site root, of everything the calculators load."""
    urls = []
    if rt.pyodide_dir is not None:  # an external Pyodide is not ours to cache (and not in scope)
        urls += [f"assets/{rt.pyodide_url}{name}" for name in CORE_FILES]
    urls.append(f"assets/{rt.wheel_url}")
    if rt.snapshot_url:  # the worker unpacks it with snapshot-pages.mjs, imported with the worker's own version
        urls += [f"assets/{rt.snapshot_url}", f"assets/snapshot-pages.mjs?v={rt.scripts_version}"]
    urls += [f"assets/{rt.page_urls()['worker']}", f"assets/calculators.js?v={rt.scripts_version}"]
    return urls


def pages(site_dir: pathlib.Path) -> dict:
    """{path from the site root ("", "en/decode/"): digest of the page's HTML} for every page built.

    The digest is the first 16 hex digits of the SHA-256 of the file, as the worker computes it."""
    site_dir = pathlib.Path(site_dir)
    out = {}
    for path in sorted(site_dir.rglob("*.html")):
        rel = path.relative_to(site_dir)
        if rel.parts[0] == "assets" or rel.as_posix() == "404.html":
            continue
        key = rel.parent.as_posix() + "/" if rel.name == "index.html" else rel.as_posix()
        out[key.removeprefix("./")] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return out


def offline_words(roots: dict, tr) -> dict:
    """{language root ("", "en/"): {"lang", and OFFLINE's words}}; `roots` maps a root to its language."""
    return {root: {"lang": lang, **{key: tr(msgid, lang) for key, msgid in OFFLINE.items()}} for root, lang in roots.items()}


def text(rt, page_digests: dict | None = None, offline: dict | None = None) -> str:
    """The worker's code with its precache list and version, the build's pages and the offline page's words."""
    code = SOURCE.read_text(encoding="utf-8")
    urls = precache_urls(rt)
    version = hashlib.sha256(json.dumps(urls).encode() + code.encode()).hexdigest()[:12]
    snapshot = f"assets/{rt.snapshot_url}" if rt.snapshot_url else None
    data = {"version": version, "urls": urls, "snapshot": snapshot, "pages": page_digests or {}, "offline": offline or {}}
    head = "const PRECACHE = " + json.dumps(data, indent=1, ensure_ascii=False).replace("<", "\\u003c") + ";\n"
    return head + code


def write(site_dir: pathlib.Path, rt, roots: dict | None = None, tr=None) -> pathlib.Path | None:
    """Write calc-sw.js to the site root (unless unchanged); returns it when written.

    `roots`: {language root: language} of the build, `tr(msgid, lang)`: its UI strings (the offline page)."""
    target = pathlib.Path(site_dir) / SERVICE_WORKER
    offline = offline_words(roots, tr) if roots and tr else None
    content = text(rt, pages(site_dir), offline)
    if target.is_file() and target.read_text(encoding="utf-8") == content:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    return target
