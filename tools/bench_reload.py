"""`make bench`, the translator's loop: from saving a page to the served page showing the change.

Both sites run under `mkdocs serve` on a copy of their project: ours (macros,
hooks, checks, as `make serve` runs it) and the baseline (the same pages with
every macro already rendered, plain mkdocs-material + i18n: tools/bench.py's
baseline_project). Each run appends a new word to a paragraph of the English
About page and polls the served page every 20 ms until the word is there.
Measured for one language (`make serve SITE_LANG=en`, the translator's
preview) and for all four. Target: one language within 2 s.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import project_copy  # noqa: E402  (tools/project_copy.py)

PAGE = pathlib.PurePosixPath("en/about.md")
POLL_S = 0.02
START_TIMEOUT_S = 300
RELOAD_TIMEOUT_S = 120


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError):
        return None


def _paragraph_line(page: pathlib.Path) -> int:
    """A line of plain prose to append to (not front matter, a heading, a list or a macro)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    in_front = lines[:1] == ["---"]
    for i, line in enumerate(lines[1:] if in_front else lines, 2 if in_front else 1):
        if in_front:
            if line == "---":
                in_front = False
            continue
        if line and line[0].isalpha() and "{{" not in line and not line.startswith(("-", "#", "|")):
            return i
    raise ValueError(f"{page}: no prose line to edit")


def reload_times(project: pathlib.Path, one_language: bool, runs: int, env_extra: dict) -> list:
    """Seconds from saving the page to the served page showing the edit, `runs` times."""
    port = _free_port()
    path = "en/" if one_language else ""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "",
           "SITE_URL": f"http://127.0.0.1:{port}/{path}", **env_extra}
    if one_language:
        env["SITE_LANG"] = "en"
    else:
        env.pop("SITE_LANG", None)
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=project, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/en/about/"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while _get(url) is None:
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"mkdocs serve of {project} did not answer {url}")
            time.sleep(0.2)
        page = project / "docs" / PAGE
        line = _paragraph_line(page)
        times = []
        for i in range(runs):
            marker = f"Reloadmarker{'abcdefghij'[i % 10]}{'klmnopqrst'[i // 10 % 10]}"
            lines = page.read_text(encoding="utf-8").splitlines()
            lines[line - 1] += f" {marker}"
            start = time.perf_counter()
            page.write_text("\n".join(lines) + "\n", encoding="utf-8")
            while marker not in (_get(url) or ""):
                if time.perf_counter() - start > RELOAD_TIMEOUT_S:
                    raise RuntimeError(f"{url} did not show the edit within {RELOAD_TIMEOUT_S} s")
                time.sleep(POLL_S)
            times.append(time.perf_counter() - start)
            time.sleep(1.0)          # the server's build delay and a quiet moment before the next edit
        return times
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def baseline_for_serve(base: pathlib.Path, dest: pathlib.Path) -> pathlib.Path:
    """The baseline project with its site_url and one-language switch read from the environment, as ours."""
    shutil.copytree(base, dest, symlinks=True)
    config = yaml.safe_load((dest / "mkdocs.yml").read_text(encoding="utf-8"))
    config.pop("site_url", None)
    text = yaml.safe_dump(config, allow_unicode=True, sort_keys=False)
    text += "site_url: !ENV [SITE_URL, 'http://127.0.0.1:8000/']\n"
    text = text.replace("build_only_locale: null", "build_only_locale: !ENV [SITE_LANG, null]")
    (dest / "mkdocs.yml").write_text(text, encoding="utf-8")
    return dest


def measure(work: pathlib.Path, base: pathlib.Path, runs: int) -> None:
    ours = project_copy.copy_project(work / "ours-serve")
    theirs = baseline_for_serve(base, work / "base-serve")
    for one in (True, False):
        o = statistics.median(reload_times(ours, one, runs, {"SITE_MACRO_ERRORS_FAIL": "false"}))
        b = statistics.median(reload_times(theirs, one, runs, {}))
        what = "one language (make serve SITE_LANG=en)" if one else "four languages (make serve)"
        target = "; target <= 2 s" if one else ""
        print(f"edit -> page reloaded, {what}: ours {o:.2f} s, bare mkdocs {b:.2f} s, ratio {o / b:.2f}x "
              f"(medians of {runs}{target})")
