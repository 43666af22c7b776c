"""Build the pure-Python `calculators` wheel that Pyodide installs.

The browser and the parity tests must run exactly what the standard build
tools package from this repository, so this is a thin wrapper around
``python -m build`` (or ``pip wheel`` where ``build`` is not installed), not a
hand-rolled zip.

The build runs on a temporary copy of the repository: setuptools writes
``build/`` and ``*.egg-info`` next to ``pyproject.toml``, and the site build
must never pick those up. Copying also means we never delete a ``build/``
folder somebody made on purpose.

Usage as a script: ``python tools/build_wheel.py OUT_DIR`` prints the wheel path.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

# Top-level entries that are never part of the package source: VCS data,
# the npm runtime, the built site, earlier build output and virtualenvs.
_SKIP_TOP = {".git", "node_modules", "site", "build", "dist", ".venv", "venv"}
# Litter skipped at any depth, so stale bytecode or metadata never leaks in.
_SKIP_ANY_SUFFIX = (".egg-info", ".pyc")
_SKIP_ANY_NAME = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}

# A fixed timestamp makes the wheel byte-for-byte reproducible (the wheel
# writer honours SOURCE_DATE_EPOCH); 1980-01-01 is the earliest zip date.
_DEFAULT_EPOCH = "315532800"


class WheelBuildError(RuntimeError):
    """The build tool failed; the message carries its command and output."""


def _ignore_for(root: Path):
    """Return a copytree ignore callback that knows which level is the top."""

    def ignore(directory: str, names: list[str]) -> set[str]:
        top = Path(directory) == root
        skipped = set()
        for name in names:
            if name in _SKIP_ANY_NAME or name.endswith(_SKIP_ANY_SUFFIX):
                skipped.add(name)
            elif top and name in _SKIP_TOP:
                skipped.add(name)
        return skipped

    return ignore


def _copy_sources(repo_root: Path, dest: Path) -> None:
    """Copy the repository (minus build litter) to ``dest`` for building."""
    if not (repo_root / "pyproject.toml").is_file():
        raise WheelBuildError(f"no pyproject.toml in {repo_root}; nothing to build")
    shutil.copytree(repo_root, dest, ignore=_ignore_for(repo_root), symlinks=True)


def _build_command(src: Path, out: Path) -> list[str]:
    """Prefer PyPA `build`; fall back to `pip wheel` with the same semantics.

    No isolation: the build must work offline with the tools already in the
    environment (CI installs them; isolated builds would hit the network).
    """
    if importlib.util.find_spec("build") is not None:
        return [sys.executable, "-m", "build", "--wheel", "--no-isolation",
                "--outdir", str(out), str(src)]
    return [sys.executable, "-m", "pip", "wheel", "--no-deps",
            "--no-build-isolation", "--wheel-dir", str(out), str(src)]


def _run(cmd: list[str], cwd: Path) -> None:
    """Run the build tool; on failure raise with everything it printed."""
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", _DEFAULT_EPOCH)
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise WheelBuildError(
            f"wheel build failed (exit {proc.returncode}): {' '.join(cmd)}\n"
            f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
        )


def _single_wheel(folder: Path) -> Path:
    """The staging folder is fresh, so exactly one wheel means success."""
    wheels = sorted(folder.glob("*.whl"))
    if len(wheels) != 1:
        raise WheelBuildError(f"expected one wheel in {folder}, found {wheels}")
    return wheels[0]


def build_wheel(out_dir: str | os.PathLike, repo_root: str | os.PathLike = REPO_ROOT) -> Path:
    """Build the wheel of ``repo_root`` into ``out_dir`` and return its path.

    An existing wheel of the same name in ``out_dir`` is replaced.
    """
    out = Path(out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="calculators-wheel-") as tmp:
        src, staging = Path(tmp) / "src", Path(tmp) / "dist"
        _copy_sources(Path(repo_root).resolve(), src)
        _run(_build_command(src, staging), cwd=src)
        built = _single_wheel(staging)
        target = out / built.name
        shutil.copyfile(built, target)
    return target


def main(argv: list[str] | None = None) -> int:
    """CLI entry: build, then print only the wheel path (scripts capture it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", help="folder to write the .whl into")
    parser.add_argument("--root", default=str(REPO_ROOT),
                        help="repository to build (default: this repo)")
    args = parser.parse_args(argv)
    try:
        print(build_wheel(args.out_dir, args.root))
    except WheelBuildError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
