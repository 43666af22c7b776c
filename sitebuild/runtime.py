"""Where the calculators' browser runtime lives in the built site, and what goes there.

Two consumers in one build process: the page macros (sitebuild/widgets.py,
through macros.py) write the runtime's URLs into each calculator page, and
hooks/pyodide_assets.py copies the files to those URLs. Both ask `info()`,
so they cannot disagree. The wheel is built once per process (again only
when the package's sources change, as under `mkdocs serve`), in a background
thread while the pages render: its URL carries the digest of the sources it
is built from (the build is reproducible), so pages need not wait for it.

By default nothing leaves the origin (DESIGN invariant 4): Pyodide's core
files come from the pinned npm package in node_modules/pyodide. Setting
PYODIDE_URL (environment) or `extra: pyodide_url:` (mkdocs.yml) to a folder
URL ending in "/" loads Pyodide from there instead; the wheel is always ours.

URLs are relative to the site's assets/ folder, where the page script
(docs/assets/calculators.js) lives and resolves them from its own URL.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache

from sitebuild import snapshot

REPO = pathlib.Path(__file__).resolve().parent.parent
PYODIDE_DIR = REPO / "node_modules" / "pyodide"
CORE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
SCRIPTS = tuple(REPO / "docs" / "assets" / name for name in ("calculators.js", "calc-worker.js", "snapshot-pages.mjs"))
PACKAGE_SOURCES = ("calculators/**/*.py", "calculators/**/*.toml", "calculators/**/*.json", "pyproject.toml", "tools/build_wheel.py")
SERVICE_WORKER = "calc-sw.js"  # at the site root (sitebuild/service_worker.py writes it)
ENV_URL, EXTRA_URL = "PYODIDE_URL", "pyodide_url"


class RuntimeSetupError(RuntimeError):
    """The runtime cannot be put into the site; the message says how to fix it."""


@dataclass(frozen=True)
class Runtime:
    pyodide_url: str                 # Pyodide's folder, relative to assets/ or absolute; ends with "/"
    pyodide_dir: pathlib.Path | None  # local files to copy there; None when Pyodide is external
    wheel_url: str                   # relative to assets/, with the digest of the wheel's sources in the path
    scripts_version: str             # content hash of the page and worker scripts (cache busting)
    building: Future = field(repr=False, compare=False)  # the wheel build, running in the background
    snapshot_url: str | None = None  # the Pyodide memory snapshot, relative to assets/; None: boot without
    snapshot_building: Future | None = field(default=None, repr=False, compare=False)

    @property
    def snapshot(self) -> pathlib.Path | None:
        """The made snapshot (waits for it; its errors surface here), or None without one."""
        if self.snapshot_building is None:
            return None
        try:
            return self.snapshot_building.result()
        except (snapshot.SnapshotError, OSError, subprocess.SubprocessError) as exc:
            raise RuntimeSetupError(f"Pyodide snapshot: {exc}") from None

    @property
    def wheel(self) -> pathlib.Path:
        """The built wheel (waits for the build; its errors surface here)."""
        path = self.building.result()
        if path.name != pathlib.PurePosixPath(self.wheel_url).name:
            raise RuntimeSetupError(f"the build made {path.name}, the pages link {self.wheel_url}")
        return path

    def page_urls(self) -> dict:
        """What the page script needs, relative to assets/."""
        urls = {"pyodide": self.pyodide_url, "wheel": self.wheel_url,
                "worker": f"calc-worker.js?v={self.scripts_version}", "service_worker": f"../{SERVICE_WORKER}"}
        if self.snapshot_url:
            urls["snapshot"] = self.snapshot_url
        return urls


def _stamp(path: pathlib.Path) -> tuple:
    """What changes when a file is written: its path, size and modification time (ns)."""
    st = path.stat()
    return str(path), st.st_size, st.st_mtime_ns


def _digest(paths, size: int = 12) -> str:
    """Digest of the files' names and contents; read again only when a file's stamp changes.

    The pages and hooks ask for the runtime once per language and per calculator
    page; reading and hashing the package each time cost a few percent of a build.
    """
    return _content_digest(tuple(_stamp(p) for p in paths), size)


@lru_cache(maxsize=64)
def _content_digest(stamps: tuple, size: int) -> str:
    h = hashlib.sha256()
    for name, _size, _mtime in stamps:
        path = pathlib.Path(name)
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:size]


def source_digest() -> str:
    """Digest of everything the wheel is built from: the same digest, the same wheel."""
    return _digest(sorted(p for pattern in PACKAGE_SOURCES for p in REPO.glob(pattern)))


def _version() -> str:
    text = (REPO / "calculators" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)


_BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="calculators-wheel")


@lru_cache(maxsize=4)
def _wheel(source_digest: str) -> Future:
    """Start building the wheel (once per process and sources); the pages render meanwhile."""
    return _BUILDER.submit(_build_wheel, source_digest)


WHEEL_CACHE = REPO / ".cache" / "wheels"


def _build_wheel(source_digest: str) -> pathlib.Path:
    """The wheel for these sources: from the cache in .cache/wheels/<digest>/, else built with tools/build_wheel.py.

    The build is reproducible, so a wheel made from the same sources can be
    reused by every later build (a build costs about half a second of CPU,
    a third of a whole site build).
    """
    cached = WHEEL_CACHE / source_digest
    wheels = sorted(cached.glob("*.whl")) if cached.is_dir() else []
    if wheels:
        return wheels[0]
    spec = importlib.util.spec_from_file_location("build_wheel", REPO / "tools" / "build_wheel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f"{source_digest}-", dir=WHEEL_CACHE))
    try:
        built = module.build_wheel(staging)
        try:
            staging.rename(cached)  # atomic: a parallel build either wins or finds the cache filled
        except OSError:
            pass
        return next(cached.glob("*.whl"), None) or built
    finally:
        if staging.exists():
            atexit.register(shutil.rmtree, staging, True)


def _external_url(extra: dict | None) -> str | None:
    url = os.environ.get(ENV_URL) or (extra or {}).get(EXTRA_URL)
    if not url:
        return None
    if not url.endswith("/"):
        raise RuntimeSetupError(f"the Pyodide URL must name a folder and end with '/': {url!r} ({ENV_URL} or extra.{EXTRA_URL})")
    return url


def _local_pyodide() -> tuple:
    missing = [name for name in CORE_FILES if not (PYODIDE_DIR / name).is_file()]
    if missing:
        raise RuntimeSetupError(f"Pyodide's core files are missing from {PYODIDE_DIR}: {', '.join(missing)}. "
                            "Run `make setup` (npm ci), or set PYODIDE_URL to load Pyodide from elsewhere.")
    return f"pyodide/{_pyodide_version(_stamp(PYODIDE_DIR / 'package.json'))}/", PYODIDE_DIR


@lru_cache(maxsize=4)
def _pyodide_version(package_json: tuple) -> str:
    return json.loads(pathlib.Path(package_json[0]).read_text(encoding="utf-8"))["version"]


def info(extra: dict | None = None) -> Runtime:
    """The runtime for this build: Pyodide's URL and files, the wheel, the scripts' version."""
    external = _external_url(extra)
    url, folder = (external, None) if external else _local_pyodide()
    digest = source_digest()
    wheel_url = f"calculators/{digest}/calculators-{_version()}-py3-none-any.whl"
    wheel = _wheel(digest)
    snap_url = snap_building = None
    if folder is not None:  # a snapshot only of the Pyodide files the site itself serves
        try:
            snap_digest = snapshot.digest(folder, digest)
        except snapshot.SnapshotError as exc:
            raise RuntimeSetupError(str(exc)) from None
        snap_url, snap_building = snapshot.url(snap_digest), snapshot.start(snap_digest, wheel)
    return Runtime(url, folder, wheel_url, _digest(SCRIPTS, 10), wheel, snap_url, snap_building)


def install(site_dir: pathlib.Path, rt: Runtime) -> list:
    """Copy Pyodide's core files (unless external) and the wheel into the site; returns the files written."""
    assets = pathlib.Path(site_dir) / "assets"
    pairs = [(rt.wheel, assets / rt.wheel_url)]
    if rt.snapshot_url:
        pairs.append((rt.snapshot, assets / rt.snapshot_url))
    if rt.pyodide_dir is not None:
        pairs += [(rt.pyodide_dir / name, assets / rt.pyodide_url / name) for name in CORE_FILES]
    written = []
    for src, dest in pairs:
        if dest.is_file() and dest.stat().st_size == src.stat().st_size and dest.stat().st_mtime == src.stat().st_mtime:
            continue  # already there from an earlier build into the same folder
        dest.parent.mkdir(parents=True, exist_ok=True)
        _place(src, dest)
        written.append(dest)
    return written


def _place(src: pathlib.Path, dest: pathlib.Path) -> None:
    """A hard link where the file system allows one (about 40 MB of runtime per build cost a copy), else a copy.

    The site's copy is never written to, so sharing the file with node_modules or the cache is safe.
    """
    dest.unlink(missing_ok=True)
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)
