"""Paths named in the project's own text exist: a docstring, comment, message or README that names
`calculators/…`, `sitebuild/…`, `tools/…`, `hooks/…`, `docs/…`, `locales/…` or `tests/…` points at a real file or
folder, so a newcomer following a pointer never lands on nothing (a move that forgot its mentions fails here)."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOP = ("calculators", "sitebuild", "tools", "hooks", "docs", "locales", "tests", "overrides")
PATH = re.compile(r"(?<![\w/.-])((?:%s)/[\w./<>*-]*[\w*>])" % "|".join(TOP))
SOURCES = ("*.py", "*.md", "*.toml", "*.js", "*.mjs", "*.yml", "Makefile", ".ci/run")
SKIP = {".venv", ".venv-properdocs", "node_modules", "site", ".git", ".cache", "__pycache__",
        "tests",      # tests name files of the throw-away projects they build (docs/de/x.md)
        "reviews"}    # locales/reviews/: dated ledgers, they name the files as they were then


def _files():
    for pattern in SOURCES:
        for path in ROOT.rglob(pattern):
            rel = path.relative_to(ROOT)
            if not SKIP.intersection(rel.parts) and path.is_file():
                yield path


def _exists(ref: str) -> bool:
    ref = ref.rstrip(".").split("#")[0]
    if any(c in ref for c in "<>*"):   # a pattern ("docs/<lang>/x.md", "calculators/**/*.py"): its fixed prefix must exist
        prefix = re.split(r"[<>*]", ref, 1)[0].rsplit("/", 1)[0]
        return (ROOT / prefix).exists()
    return (ROOT / ref).exists()


def test_every_named_path_exists():
    missing = []
    for path in _files():
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for ref in PATH.findall(line):
                if not _exists(ref):
                    missing.append(f"{path.relative_to(ROOT)}:{n}: {ref}")
    assert missing == [], "paths named that do not exist:\n" + "\n".join(missing)
