"""Helpers for the check tests: a copy of the project to break, and finding lines to break.

Each test copies the project (pages, locales, config, adapter, packages,
tools) into a temporary folder, injects one fault into the copy and runs
the checks on it, as functions or as a full `mkdocs build --strict`.
The faults are placed by what the pages contain (the first prose line, the
first figure of a section), not by fixed line numbers, so the tests keep
working while the pages are edited.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import project_copy  # noqa: E402  (tools/project_copy.py)
from sitebuild.strings import LANGS  # noqa: E402, F401  (the site's languages, declared once)


def copy_project(dest: pathlib.Path, messages: bool = False) -> pathlib.Path:
    """A copy to break. With `messages`, the copy's UI strings are extracted first (`make messages`), so a
    full build of the copy fails only on the injected fault, not on a string nobody has extracted yet."""
    project_copy.copy_project(dest)
    if messages:
        subprocess.run([sys.executable, str(dest / "tools" / "messages.py")], check=True, capture_output=True, timeout=300)
    return dest


def lines(path: pathlib.Path) -> list:
    return path.read_text(encoding="utf-8").split("\n")


def write_lines(path: pathlib.Path, content: list) -> None:
    path.write_text("\n".join(content), encoding="utf-8")


def _in_fence(content: list, index: int) -> bool:
    fences = sum(1 for line in content[:index] if line.lstrip().startswith(("```", "~~~")))
    return fences % 2 == 1


def prose_line(path: pathlib.Path, start: int = 0) -> int:
    """1-based number of the first plain paragraph line (no heading, list, macro-only line, table or admonition)."""
    content = lines(path)
    front = 0
    if content and content[0] == "---":
        front = content.index("---", 1) + 1
    for i, line in enumerate(content):
        if i < max(start, front) or _in_fence(content, i):
            continue
        s = line.strip()
        if s and s[0].isalpha() and not s.startswith(("{{", "|", "!!!", "*[")) and len(s) > 30:
            return i + 1
    raise AssertionError(f"{path}: no prose line found")


def line_matching(path: pathlib.Path, pattern: str, start: int = 0) -> int:
    for i, line in enumerate(lines(path)):
        if i >= start and re.search(pattern, line):
            return i + 1
    raise AssertionError(f"{path}: no line matches {pattern!r}")


def edit_line(path: pathlib.Path, number: int, fn) -> str:
    content = lines(path)
    old = content[number - 1]
    content[number - 1] = fn(old)
    write_lines(path, content)
    return old


def build(root: pathlib.Path, out: pathlib.Path, extra_env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    env.pop("GITHUB_ACTIONS", None)
    if extra_env and "GITHUB_ACTIONS" in extra_env:
        env["GITHUB_ACTIONS"] = extra_env["GITHUB_ACTIONS"]
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)


def find(problems, *, path: str, code: str, line: int | None = None, severity: str | None = None, contains=()) -> object:
    """The problem with these attributes; fails listing what was found instead."""
    for p in problems:
        if p.path == path and p.code == code and (line is None or p.line == line) \
                and (severity is None or p.severity == severity) and all(c in p.message for c in contains):
            return p
    shown = "\n".join(str(p) for p in problems if p.path == path or p.code == code) or "(nothing relevant)"
    raise AssertionError(f"expected {code} at {path}:{line} containing {contains}; found:\n{shown}")


def run(root, langs=None):
    """Every check on a project copy, as the build runs them."""
    from sitebuild import checks
    return checks.run(root, langs)
