"""The checks' result, kept by the digest of everything they read, so that an unchanged build does not pay twice.

Why: the checks read every page, locale file and termbase, run every
figure and claim, and ask git for each translation's history: about a
fifth of a four-language build. Their result depends only on the files in
the project (pages, locale files, catalog, code), on the calculators and
sitebuild packages they import, on git's HEAD (the history of stale
translations), on the languages and the macros' names and signatures. The
digest covers all of these; a build whose digest matches a result kept in
.cache/checks/ uses it, any other build runs every check again (the wheel
and the snapshot are kept the same way, sitebuild/runtime.py).

Only results without errors are kept: a failing build always runs the
checks and prints fresh problems. What is kept is what the adapter needs
after the checks: the problems (warnings, printed again), the translation
statuses (the notices on translated pages) and, per page, the figure ids
its source calls (the render-parity check after the build).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import pathlib
import pickle
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass

import calculators


CACHE_DIR = pathlib.PurePosixPath(".cache") / "checks"
KEEP = 4  # results kept: the current one and a few to switch back to
# Folders of the project that no check reads: tooling, outputs, caches, the tests.
SKIP_DIRS = frozenset({".git", "node_modules", ".cache", "site", "tests", "__pycache__", "dist", "build"})
PACKAGES = (pathlib.Path(calculators.__file__).resolve().parent, pathlib.Path(__file__).resolve().parent.parent)
FORMAT = b"checks-result-2"  # bump when Result changes shape


@dataclass(frozen=True)
class Result:
    problems: tuple        # checks.Problem, sorted as checks.run returns them
    statuses: tuple        # staleness.PageStatus of every translated page
    page_figures: dict     # {(lang, name): Counter of figure ids its source calls}
    locale_counts: dict    # {lang: {"translated": n, "missing": n, ...}} for the status page


def _files(base: pathlib.Path):
    """Every file under `base` that a check may read, in a stable order (hidden folders and SKIP_DIRS left out)."""
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if not name.endswith(".pyc"):
                yield pathlib.Path(dirpath, name)


def _git_head(root: pathlib.Path) -> bytes:
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return b"no git"
    return proc.stdout.strip() if proc.returncode == 0 else b"no git"


def digest(root: pathlib.Path, langs, macros: dict | None) -> str:
    """The digest of every input of the checks (a few milliseconds: about 150 files, 2 MB)."""
    root = pathlib.Path(root).resolve()
    h = hashlib.sha256(FORMAT + b"\0" + sys.version.encode() + b"\0" + _git_head(root) + b"\0")
    h.update(repr(tuple(langs)).encode() + b"\0")
    for name in sorted(macros or {}):
        try:
            sig = str(inspect.signature(macros[name]))
        except (TypeError, ValueError):
            sig = "?"
        h.update(f"{name}{sig}\0".encode())
    bases = [root] + [p for p in PACKAGES if root not in p.parents]
    for base in bases:
        for path in _files(base):
            h.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:24]


def _path(root: pathlib.Path, key: str, kind: str) -> pathlib.Path:
    return pathlib.Path(root) / CACHE_DIR / f"{kind}-{key}.pickle"


def load(root: pathlib.Path, key: str, kind: str = "result", cls: type = Result):
    """The kept `kind` for `key` (an instance of `cls`), or None (none kept, or unreadable: computed again)."""
    try:
        with _path(root, key, kind).open("rb") as f:
            result = pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    return result if isinstance(result, cls) else None


def store(root: pathlib.Path, key: str, result, kind: str = "result") -> None:
    """Keep `result` under `key` (written atomically; the oldest of its kind beyond KEEP are dropped).
    Failing to write is harmless: the next build computes it again."""
    path = _path(root, key, kind)
    if _write(path, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)):
        _prune(path.parent, f"{kind}-*.pickle", KEEP)


def page_figures(project, figure_macros) -> dict:
    """{(lang, name): Counter of figure ids} each page's source calls (what render-parity compares with), the
    figures of the running example's sentences included (a say("id") prints those of its default variant)."""
    from calculators.example.render import SAYS, default_say_figures

    def ids(page):
        for m in page.macros:
            if m.name in figure_macros and m.args:
                yield m.args[0]
            elif m.name == "say" and m.args and m.args[0] in SAYS:
                yield from default_say_figures(m.args[0], project.catalog)
    return {(lang, name): Counter(ids(page)) for lang, pages in project.pages.items() for name, page in pages.items()}


def _write(path: pathlib.Path, data: bytes) -> bool:
    """Write `data` to `path` whole or not at all (a temporary file, then a rename).

    A reader must never see half a result (a build stopped mid-write, or two
    builds at once). False if it could not be written: harmless, a read-only
    checkout runs the checks again on the next build.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        return False


def _prune(folder: pathlib.Path, pattern: str, keep: int) -> None:
    """Drop all but the `keep` newest files of `folder` matching `pattern`."""
    try:
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
