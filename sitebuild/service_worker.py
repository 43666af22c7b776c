"""The service worker that keeps the calculators' runtime for repeat and offline visits.

Its code is sitebuild/service_worker.js (it says what it caches and why);
this module writes it to the site root as calc-sw.js (a service worker's
scope is its folder and below: at the root it serves every language),
preceded by the list of what it precaches. The list holds exactly the
versioned URLs the calculators load: Pyodide's core files (when the site
serves them), the wheel, the snapshot (and the module that unpacks it) and
the page and worker scripts.
The version is a digest of that list and of the code, so every build that
changes any of them makes a new worker, which drops the old cache.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from sitebuild.runtime import CORE_FILES, SERVICE_WORKER

SOURCE = pathlib.Path(__file__).with_name("service_worker.js")


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


def text(rt) -> str:
    """The worker's code with its precache list and version."""
    code = SOURCE.read_text(encoding="utf-8")
    urls = precache_urls(rt)
    version = hashlib.sha256(json.dumps(urls).encode() + code.encode()).hexdigest()[:12]
    snapshot = f"assets/{rt.snapshot_url}" if rt.snapshot_url else None
    head = "const PRECACHE = " + json.dumps({"version": version, "urls": urls, "snapshot": snapshot}, indent=1) + ";\n"
    return head + code


def write(site_dir: pathlib.Path, rt) -> pathlib.Path | None:
    """Write calc-sw.js to the site root (unless unchanged); returns it when written."""
    target = pathlib.Path(site_dir) / SERVICE_WORKER
    content = text(rt)
    if target.is_file() and target.read_text(encoding="utf-8") == content:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    return target
