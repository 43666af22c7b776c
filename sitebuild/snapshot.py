"""The calculators' Pyodide memory snapshot: made once per content digest, kept in .cache/snapshots/.

The worker starts Python from a dump of Pyodide's heap taken after the
package was imported (tools/make_snapshot.mjs says how and why), instead of
booting it: a fraction of the time. The dump is tied to the exact Pyodide
build and to the wheel it imported, so its digest covers both (Pyodide's
version and BUILD_ID, the wheel's source digest) and the script that makes
it. Making one costs about 3 s of Node; an unchanged build reuses the cached
file, and the build starts making it in the background while pages render,
like the wheel (sitebuild/runtime.py).

Only for the local Pyodide: with an external PYODIDE_URL the site does not
serve the files the dump was made from, so there is no snapshot and the
worker boots as before.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache

REPO = pathlib.Path(__file__).resolve().parent.parent
MAKER = REPO / "tools" / "make_snapshot.mjs"
PAGES = REPO / "docs" / "assets" / "snapshot-pages.mjs"  # the format it writes: part of what a snapshot is
CACHE = REPO / ".cache" / "snapshots"
ASSETS_FOLDER = "calculators"  # under the site's assets/, beside the wheel
FILENAME = "pyodide-snapshot.pages.gz"  # a gzipped page map (docs/assets/snapshot-pages.mjs)
TIMEOUT_S = 300
KEEP = 4  # snapshots kept in the cache (6 MB each): the current one and a few to switch back to

_MAKER_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="calculators-snapshot")


class SnapshotError(RuntimeError):
    """The snapshot could not be made; the message says why."""


def build_id(pyodide_dir: pathlib.Path) -> str:
    """The BUILD_ID Pyodide writes into every dump and checks on restore."""
    match = re.search(r'BUILD_ID:"([0-9a-f]+)"', (pyodide_dir / "pyodide.mjs").read_text(encoding="utf-8"))
    if not match:
        raise SnapshotError(f"no BUILD_ID in {pyodide_dir / 'pyodide.mjs'}: this Pyodide cannot restore snapshots")
    return match.group(1)


def digest(pyodide_dir: pathlib.Path, wheel_digest: str) -> str:
    """Content digest of a snapshot: Pyodide's version and build, the wheel's sources, the maker and its format."""
    version = json.loads((pyodide_dir / "package.json").read_text(encoding="utf-8"))["version"]
    h = hashlib.sha256()
    for part in (version, build_id(pyodide_dir), wheel_digest):
        h.update(part.encode() + b"\0")
    h.update(MAKER.read_bytes() + b"\0" + PAGES.read_bytes())
    return h.hexdigest()[:12]


def url(snapshot_digest: str) -> str:
    """Where the snapshot goes, relative to assets/ (its digest in the path: a new one is a new URL)."""
    return f"{ASSETS_FOLDER}/snapshot-{snapshot_digest}/{FILENAME}"


def _prune(cache: pathlib.Path, keep: pathlib.Path) -> None:
    """Drop all but the KEEP newest finished snapshots (never `keep`, the one just made)."""
    done = sorted((d for d in cache.iterdir() if (d / FILENAME).is_file() and d != keep),
                  key=lambda d: d.stat().st_mtime, reverse=True)
    for old in done[KEEP - 1:]:
        shutil.rmtree(old, ignore_errors=True)


@lru_cache(maxsize=4)
def start(snapshot_digest: str, wheel: Future) -> Future:
    """Start making the snapshot (once per process and digest) once the wheel is built."""
    return _MAKER_POOL.submit(lambda: cached_or_made(snapshot_digest, wheel.result()))


def cached_or_made(snapshot_digest: str, wheel: pathlib.Path, cache: pathlib.Path = CACHE) -> pathlib.Path:
    """The snapshot from cache/<digest>/, else made there by tools/make_snapshot.mjs."""
    target = cache / snapshot_digest / FILENAME
    if target.is_file():
        return target
    node = shutil.which("node")
    if node is None:
        raise SnapshotError("Node.js is needed to make the calculators' Pyodide snapshot (`node` is not on PATH)")
    cache.mkdir(parents=True, exist_ok=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f"{snapshot_digest}-", dir=cache))
    try:
        proc = subprocess.run([node, str(MAKER), "--wheel", str(wheel), "--out", str(staging / FILENAME)],
                              capture_output=True, text=True, timeout=TIMEOUT_S)
        if proc.returncode != 0:
            raise SnapshotError(f"tools/make_snapshot.mjs failed (exit {proc.returncode}):\n{proc.stderr.strip()}")
        (staging / "made.json").write_text(proc.stdout, encoding="utf-8")  # sizes and timings, for `make bench`
        try:
            staging.rename(target.parent)  # atomic: a parallel build either wins or finds the cache filled
        except OSError:
            pass
        _prune(cache, keep=target.parent)
        return target if target.is_file() else staging / FILENAME
    finally:
        if staging.exists():
            atexit.register(shutil.rmtree, staging, True)
