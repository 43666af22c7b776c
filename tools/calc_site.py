"""A build of the site whose pages hold every calculator, for the browser tests and `make bench`.

Why not the real pages: they are being written, and what a browser test or a
benchmark of the calculators needs is a page with every calculator on it
(one of them twice: ids must stay unique, one runtime serves all) and one
with a calculator far below the fold (Pyodide must wait until it is needed).
So this copies the project, replaces the calculators and speed pages of every
language with such fixtures, and builds it with the real config, hooks and
macros (the checks on prose are switched off: the fixtures have none).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("de", "en", "da", "it")
CALCULATORS = ("kv_cache", "decode", "fit", "latency", "kv_cache")
FIXTURE_INSTANCES = ("kv_cache", "decode", "fit", "latency", "kv_cache-2")

# Debian's Chromium, driven by Python playwright (never `playwright install`: nothing is downloaded).
# CHROMIUM_PATH names another executable (the test of the test runner points it at a missing file).
CHROMIUM = pathlib.Path(os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# A reader's first touch of a calculator, as the page sees it: a field takes focus (a tap, a click, the
# Tab key). docs/assets/calculators.js starts Python on it (before it, only a link's inputs or, on a
# desktop on a fast connection, an idle page start it). The browser tests and the benchmark touch a page so.
TOUCH = "() => { const field = document.querySelector('.calc-form [name]:not(:disabled)'); if (field) field.focus(); }"


def touch(page) -> None:
    """Start the page's calculators as a reader's first touch would."""
    page.evaluate(TOUCH)


def page_path(lang: str, name: str) -> str:
    """URL path of a page: German (the default language) at the root."""
    return f"{name}/" if lang == "de" else f"{lang}/{name}/"


def project_copy(dest: pathlib.Path) -> pathlib.Path:
    ignore = shutil.ignore_patterns(".git", ".venv", "node_modules", "site", "__pycache__", ".pytest_cache", ".hypothesis")
    shutil.copytree(ROOT, dest, ignore=ignore)
    (dest / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    calculators = "# Calculators\n\n" + "\n\n".join(f'{{{{ calculator("{n}") }}}}' for n in CALCULATORS) + "\n"
    spacer = "\n\n".join(f"Paragraph {i} keeps the calculator out of view." for i in range(80))
    lazy = f"# Speed\n\n{spacer}\n\n{{{{ calculator(\"kv_cache\") }}}}\n"
    for lang in LANGS:
        (dest / "docs" / lang / "calculators.md").write_text(calculators, encoding="utf-8")
        (dest / "docs" / lang / "speed.md").write_text(lazy, encoding="utf-8")
    return dest


def build(work: pathlib.Path) -> tuple:
    """Copy and build into work/; returns (site folder, the finished process)."""
    project = project_copy(work / "project")
    site = work / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_CHECKS": "off"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=project, env=env, capture_output=True, text=True, timeout=600)
    return site, proc
