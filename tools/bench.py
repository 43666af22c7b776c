"""`make bench`: speed and size figures, each a ratio against a baseline measured in the same run.

Site build: our full four-language build (macros, model, charts, tables,
hooks) against the same pages with every macro already replaced by its text,
built by plain mkdocs-material + i18n. Target: at most 1.3x.

Runs alternate between the two builds and report medians, so that a busy
machine slows both alike.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


def build(project: pathlib.Path, out: pathlib.Path, extra_env: dict | None = None) -> float:
    """Seconds for one `mkdocs build` of `project` into `out` (a fresh process, as in CI)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra_env or {})}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=project, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"build of {project} failed:\n{proc.stderr}")
    return elapsed


def baseline_project(work: pathlib.Path) -> pathlib.Path:
    """The same site with macros pre-rendered: pages from a dump, config without macros and hooks."""
    dump = work / "dump"
    build(ROOT, work / "dump-site", {"SITE_DUMP_MARKDOWN": str(dump)})
    base = work / "baseline"
    shutil.copytree(ROOT / "overrides", base / "overrides")
    shutil.copytree(dump, base / "docs")
    shutil.copytree(ROOT / "docs" / "assets", base / "docs" / "assets")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = [p for p in config["plugins"] if not (isinstance(p, dict) and "macros" in p) and p != "macros"]
    config.pop("hooks", None)
    (base / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return base


def site_build_ratio(work: pathlib.Path) -> None:
    base = baseline_project(work)
    ours, theirs = [], []
    for i in range(RUNS):
        theirs.append(build(base, work / f"b{i}"))
        ours.append(build(ROOT, work / f"o{i}"))
    o, b = statistics.median(ours), statistics.median(theirs)
    print(f"site build (4 languages): ours {o:.2f} s, baseline without macros {b:.2f} s, "
          f"ratio {o / b:.2f}x (target <= 1.30x; medians of {RUNS})")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        site_build_ratio(pathlib.Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
