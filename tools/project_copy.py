"""A working copy of the project in another folder: what a build reads, copied; what it only reads, linked.

Used where a copy is changed and built on its own: the check tests inject a
fault into one (tests/checkutil.py), `make bench` edits a page in one under
`mkdocs serve` (tools/bench_reload.py).
"""

from __future__ import annotations

import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
PARTS = ("docs", "locales", "mkdocs.yml", "macros.py", "hooks", "overrides", "sitebuild", "calculators", "tools",
         "pyproject.toml", "package.json")
LINKED = ("node_modules", ".cache")  # large and read-only for the build: linked, not copied. The build
# caches (wheel, Pyodide snapshot) are keyed by content digest, so copies share them safely.


def copy_project(dest: pathlib.Path) -> pathlib.Path:
    """Copy the project's build inputs into `dest` (created), link the large read-only ones; return `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in PARTS:
        src = ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.exists():
            shutil.copy2(src, dest / part)
    for part in LINKED:
        if (ROOT / part).exists():
            (dest / part).symlink_to(ROOT / part, target_is_directory=True)
    return dest
