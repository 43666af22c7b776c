"""Parity: the browser's Pyodide prints exactly the figures the build prints.

Invariant 2 of the design ("the browser runs the build's code") is only true
if the wheel the site ships, imported by Pyodide's Python 3.14 in WebAssembly,
produces the same strings as the repository imported by CPython at build time.
This module builds that wheel with the standard tools, runs it once in Node's
Pyodide (cold start takes seconds, so one process serves every test) and
compares the full snapshot of figures and claim verdicts key by key.

Skipping is allowed only on a developer machine without Node or
``node_modules/pyodide``; under CI a missing runtime is a failure, so CI can
never pass without having tested parity.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "pyodide_run.mjs"
PYODIDE_ENTRY = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
TIMEOUT_S = 120
MIN_KEYS = 50
SHOW_AT_MOST = 20

# Evaluated verbatim on both interpreters, so both sides run the same code.
SNAPSHOT_CODE = (
    "import json, calculators.article.parity as s; "
    "RESULT = json.dumps(s.snapshot(), ensure_ascii=False, sort_keys=True)\n"
)
# On Pyodide we also report where the run happened: the interpreter version
# and platform prove it was not the host CPython, the module path proves the
# code came from the installed wheel.
PYODIDE_CODE = SNAPSHOT_CODE + (
    "import sys\n"
    "RESULT = json.dumps({'version': list(sys.version_info[:2]),"
    " 'platform': sys.platform, 'module_file': s.__file__,"
    " 'snapshot': RESULT}, ensure_ascii=False)\n"
)

# The CPython side must import the repository's source, not some installed copy.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _load_build_wheel():
    """Import tools/build_wheel.py by path (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("build_wheel", ROOT / "tools" / "build_wheel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_wheel


def _in_ci() -> bool:
    """CI systems set CI (GitHub: CI=true); an explicit false/0 means local."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _node_or_none() -> str | None:
    return shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").is_file() else None)


def _text(data) -> str:
    """TimeoutExpired carries bytes even when the run asked for text."""
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return data or ""


def run_on_pyodide(node: str, wheel: Path, code: str, workdir: Path,
                   snapshot: Path | None = None, extra: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` through tools/pyodide_run.mjs with ``wheel`` installed (restored from ``snapshot`` if given),
    and the files of the zip ``extra`` (the build-only article package) beside it."""
    code_file = workdir / "code.py"
    code_file.write_text(code, encoding="utf-8")
    cmd = [node, str(RUNNER), "--wheel", str(wheel), "--code-file", str(code_file)]
    if snapshot is not None:
        cmd += ["--snapshot", str(snapshot)]
    if extra is not None:
        cmd += ["--extra", str(extra)]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                              timeout=TIMEOUT_S, cwd=workdir)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"Pyodide run timed out after {TIMEOUT_S} s: {' '.join(cmd)}\n"
                    f"stderr so far:\n{_text(exc.stderr)}", pytrace=False)


def _check_str_dict(value, side: str) -> dict[str, str]:
    """The snapshot contract: a flat dict of str -> str."""
    assert isinstance(value, dict), f"{side} snapshot is {type(value).__name__}, not dict"
    bad = [k for k, v in value.items() if not isinstance(k, str) or not isinstance(v, str)]
    assert not bad, f"{side} snapshot has non-str keys/values, e.g. {bad[:5]!r}"
    return value


def describe_differences(cpython: dict[str, str], pyodide: dict[str, str]) -> list[str]:
    """One line per differing key, first SHOW_AT_MOST only (no giant dumps)."""
    missing = object()
    keys = sorted(cpython.keys() | pyodide.keys())
    differing = [k for k in keys if cpython.get(k, missing) != pyodide.get(k, missing)]
    # Keys present on one side only usually explain the rest, so list them first.
    differing.sort(key=lambda k: (k in cpython and k in pyodide, k))
    if not differing:
        return []
    shown = differing[:SHOW_AT_MOST]
    lines = [f"{len(differing)} of {len(keys)} snapshot keys differ between CPython "
             f"{sys.version_info.major}.{sys.version_info.minor} and Pyodide "
             f"(showing {len(shown)}):"]
    for key in shown:
        left = repr(cpython[key]) if key in cpython else "<missing>"
        right = repr(pyodide[key]) if key in pyodide else "<missing>"
        lines.append(f"  {key!r}: CPython={left}  Pyodide={right}")
    return lines


def _is_build_only(name: str) -> bool:
    """Wheel entries that must never reach the browser."""
    path = PurePosixPath(name)
    top = path.parts[0]
    if top != "calculators" and not top.endswith(".dist-info"):
        return True  # tests/, tools/, macros.py, *.data/ ... anything outside the package
    return (
        path.name in ("macros.py", "conftest.py")
        or path.name.startswith("test_")
        or "tests" in path.parts
        or "__pycache__" in path.parts
        or path.suffix == ".pyc"
        or path.parts[:2] == ("calculators", "article")   # the article's figures, claims and charts: build-only
    )


@pytest.fixture(scope="module")
def node() -> str:
    """Node binary, after checking the Pyodide runtime is installed."""
    node = _node_or_none()
    missing = []
    if node is None:
        missing.append("Node.js (`node` not on PATH)")
    if not PYODIDE_ENTRY.is_file():
        missing.append(f"{PYODIDE_ENTRY.relative_to(ROOT)} (run `npm ci`)")
    if missing:
        reason = "Pyodide parity cannot run, missing: " + "; ".join(missing)
        if _in_ci():
            pytest.fail(f"{reason}. CI is set, so this fails instead of skipping.", pytrace=False)
        pytest.skip(reason)
    return node


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The calculators wheel, built exactly as the site build ships it."""
    return _load_build_wheel()(tmp_path_factory.mktemp("wheel"))


def article_zip(folder: Path) -> Path:
    """The build-only calculators/article package as a zip: the wheel leaves it out (the browser never
    imports it), but the parity test compares the article's figures on Pyodide too; with its data
    (measurements.toml, the published measurements the accuracy figures compare)."""
    path = folder / "article.zip"
    article = ROOT / "calculators" / "article"
    with zipfile.ZipFile(path, "w") as archive:
        for source in sorted([*article.rglob("*.py"), *article.rglob("*.toml")]):
            archive.write(source, source.relative_to(ROOT).as_posix())
    return path


@pytest.fixture(scope="module")
def pyodide_payload(node, wheel, tmp_path_factory) -> dict:
    """The one Pyodide run for the module: snapshot plus where it ran."""
    work = tmp_path_factory.mktemp("pyodide-run")
    proc = run_on_pyodide(node, wheel, PYODIDE_CODE, work, extra=article_zip(work))
    if proc.returncode != 0:
        pytest.fail(f"Pyodide run failed (exit {proc.returncode}); stderr:\n{proc.stderr}",
                    pytrace=False)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        pytest.fail(f"Pyodide stdout is not the RESULT JSON ({exc}); stdout starts "
                    f"{proc.stdout[:300]!r}; stderr:\n{proc.stderr}", pytrace=False)


@pytest.fixture(scope="module")
def cpython_snapshot() -> dict[str, str]:
    """The same snapshot code, evaluated in this (CPython) process."""
    namespace: dict = {}
    exec(SNAPSHOT_CODE, namespace)  # noqa: S102 - fixed code, see SNAPSHOT_CODE
    module_file = Path(sys.modules["calculators.article.parity"].__file__).resolve()
    assert ROOT in module_file.parents, (
        f"CPython imported calculators from {module_file}, not {ROOT}")
    return _check_str_dict(json.loads(namespace["RESULT"]), "CPython")


def test_run_happened_on_pyodide(pyodide_payload):
    assert tuple(pyodide_payload["version"]) == (3, 14), (
        f"expected Pyodide's Python 3.14, got {pyodide_payload['version']}")
    assert pyodide_payload["platform"] == "emscripten"
    assert "site-packages" in pyodide_payload["module_file"], (
        f"calculators was not imported from the installed wheel: {pyodide_payload['module_file']}")


def test_pyodide_snapshot_equals_cpython(pyodide_payload, cpython_snapshot):
    pyodide_snapshot = _check_str_dict(json.loads(pyodide_payload["snapshot"]), "Pyodide")
    differences = describe_differences(cpython_snapshot, pyodide_snapshot)
    if differences:
        pytest.fail("\n".join(differences), pytrace=False)


def test_snapshot_covers_the_site(cpython_snapshot):
    assert len(cpython_snapshot) >= MIN_KEYS, (
        f"snapshot has {len(cpython_snapshot)} keys, expected at least {MIN_KEYS}: "
        "parity over a near-empty snapshot proves nothing")


def test_wheel_ships_catalog_and_nothing_build_only(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    data = PurePosixPath("calculators/data")
    in_wheel = {n for n in names if PurePosixPath(n).parent == data and n.endswith(".toml")}
    assert in_wheel, f"no calculators/data/*.toml in {wheel.name}: package data is not configured"
    in_source = {f"{data}/{p.name}" for p in (ROOT / "calculators" / "data").glob("*.toml")}
    missing = sorted(in_source - in_wheel)
    assert not missing, f"catalog files missing from the wheel: {missing}"
    stray = sorted(n for n in names if _is_build_only(n))
    assert not stray, f"build-only files in the browser wheel: {stray[:SHOW_AT_MOST]}"


def test_harness_fails_on_python_errors(node, wheel, tmp_path):
    """Parity passing must mean something: a raising run must not look like success."""
    marker = "parity-harness-negative-probe"
    proc = run_on_pyodide(node, wheel, f"raise RuntimeError({marker!r})\n", tmp_path)
    assert proc.returncode == 1, f"exit {proc.returncode}; stderr:\n{proc.stderr}"
    assert f"RuntimeError: {marker}" in proc.stderr, (
        f"traceback missing from stderr:\n{proc.stderr}")
    assert proc.stdout == "", f"stdout must stay empty on error, got {proc.stdout[:200]!r}"


# ------------------------------------------------------------ the same, restored from the build's snapshot
#
# The site's worker does not boot Pyodide: it restores the memory snapshot the
# build made (sitebuild/snapshot.py) and unpacks the wheel after it. The
# modules the reader's answers come from were imported at build time, in Node,
# and frozen; parity must hold for them too.

RESTORED_CODE = "import sys\nPRELOADED = 'calculators.ui.worker' in sys.modules\n" + PYODIDE_CODE + (
    "RESULT = json.dumps(dict(json.loads(RESULT), preloaded=PRELOADED), ensure_ascii=False)\n")


@pytest.fixture(scope="module")
def restored_payload(node, wheel, tmp_path_factory) -> dict:
    """The snapshot code run on Pyodide restored from the snapshot of this wheel (made or taken from .cache)."""
    from sitebuild import runtime, snapshot

    digest = snapshot.digest(runtime.PYODIDE_DIR, runtime.source_digest())
    made = snapshot.cached_or_made(digest, wheel)
    work = tmp_path_factory.mktemp("pyodide-restored")
    proc = run_on_pyodide(node, wheel, RESTORED_CODE, work, made, extra=article_zip(work))
    if proc.returncode != 0:
        pytest.fail(f"Pyodide run from the snapshot failed (exit {proc.returncode}); stderr:\n{proc.stderr}",
                    pytrace=False)
    return json.loads(proc.stdout)


def test_restored_runtime_ran_from_the_snapshot(restored_payload):
    assert restored_payload["preloaded"] is True, "calculators.ui.worker was not in the snapshot: this was a plain boot"
    assert tuple(restored_payload["version"]) == (3, 14)
    assert "site-packages" in restored_payload["module_file"]


def test_restored_snapshot_equals_cpython(restored_payload, cpython_snapshot):
    restored = _check_str_dict(json.loads(restored_payload["snapshot"]), "Pyodide (restored)")
    differences = describe_differences(cpython_snapshot, restored)
    if differences:
        pytest.fail("\n".join(differences), pytrace=False)
