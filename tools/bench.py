"""`make bench`: speed and size figures, each a ratio against a baseline measured in the same run.

Site build: our full four-language build (macros, model, charts, tables,
hooks) against the same pages with every macro already replaced by its text,
built by plain mkdocs-material + i18n. Target: at most 1.25x.

Checks: the same full build with the fact and translation checks and the
reader-text lints on (hooks/checks.py, hooks/prose.py) against SITE_CHECKS=off,
in wall-clock and CPU time. Target: at most +15 %.

Runs alternate between the two builds and report medians, so that a busy
machine slows both alike.

Calculators in the browser (tools/bench_browser.py): start-up against a bare
loadPyodide() (target <= 0.35x: Python is restored from the build's memory
snapshot), the same on a repeat visit once the service worker keeps the
runtime (<= 0.2x), input-to-result time (median < 50 ms), and the bytes a
calculator page transfers before one is touched (< 150 KB).

The translator's loop (tools/bench_reload.py): from saving a page to the
page served by `mkdocs serve` showing it, one language and four, against the
same with bare mkdocs (target: one language within 2 s).

The running example (tools/bench_example.py, `--only example`): on the real main article, from a
change in the example control to the article re-rendered (median < 100 ms), and what the article
transfers before the control is touched (nothing of Pyodide).

Explanations in place: the bytes the figures' provenance data and the popover
script add to a page, gzip, reported against the page's HTML.
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

import bench_browser  # tools/, next to this script
import bench_example
import bench_reload

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


class Timing(float):
    """Wall-clock seconds of one build (what the ratios use), with the CPU seconds it spent beside."""

    cpu: float

    def __new__(cls, wall: float, cpu: float):
        t = super().__new__(cls, wall)
        t.cpu = cpu
        return t


def build(project: pathlib.Path, out: pathlib.Path, extra_env: dict | None = None) -> Timing:
    """One `mkdocs build` of `project` into `out` (a fresh process, as in CI): its wall-clock seconds,
    and the CPU seconds of the process and of what it waited for (git, a checks process)."""
    # Python's default bytecode cache for both builds (the Makefile's setting, also when this script is run
    # directly): the baseline's libraries were compiled when pip installed them; our modules are then too.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "", **(extra_env or {})}
    before = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=project, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"build of {project} failed:\n{proc.stderr}")
    return Timing(elapsed, _children_cpu() - before)


def _children_cpu() -> float:
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_note(ours: list, theirs: list) -> str:
    """The same comparison in CPU seconds: steadier than wall-clock time on a machine doing other work."""
    o, b = statistics.median(t.cpu for t in ours), statistics.median(t.cpu for t in theirs)
    return f"; CPU {o:.2f} s against {b:.2f} s, {o / b:.2f}x"


class _ConfigLoader(yaml.SafeLoader):
    """safe_load plus MkDocs' !ENV tag (resolved as MkDocs would: the first set variable, else the default)."""


def _env_tag(loader, node):
    items = [loader.construct_scalar(node)] if isinstance(node, yaml.ScalarNode) else loader.construct_sequence(node)
    names, default = (items[:-1], items[-1]) if len(items) > 1 else (items, None)
    return next((os.environ[n] for n in names if n in os.environ), default)


_ConfigLoader.add_constructor("!ENV", _env_tag)


def load_config(path: pathlib.Path) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_ConfigLoader)


def baseline_project(work: pathlib.Path) -> pathlib.Path:
    """The same site with macros pre-rendered: pages from a dump, config without macros and hooks."""
    dump = work / "dump"
    build(ROOT, work / "dump-site", {"SITE_DUMP_MARKDOWN": str(dump)})
    base = work / "baseline"
    shutil.copytree(ROOT / "overrides", base / "overrides")
    shutil.copytree(dump, base / "docs")
    shutil.copytree(ROOT / "docs" / "assets", base / "docs" / "assets")
    config = load_config(ROOT / "mkdocs.yml")
    config["plugins"] = [p for p in config["plugins"] if not (isinstance(p, dict) and "macros" in p) and p != "macros"]
    config.pop("hooks", None)
    config.pop("watch", None)   # our extra folders (locales, the catalog): not part of the bare pages
    (base / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return base


def site_build_ratio(work: pathlib.Path) -> pathlib.Path:
    """Ours against the baseline, alternating. Ours as an unchanged project builds again: the wheel, the
    snapshot, the UI strings and the checks' result come from .cache/ (each kept by its inputs' digest)."""
    base = baseline_project(work)
    ours, theirs = [], []
    for i in range(RUNS):
        theirs.append(build(base, work / f"b{i}"))
        ours.append(build(ROOT, work / f"o{i}"))
    o, b = statistics.median(ours), statistics.median(theirs)
    print(f"site build (4 languages): ours {o:.2f} s, baseline without macros {b:.2f} s, "
          f"ratio {o / b:.2f}x (target <= 1.25x; medians of {RUNS}{_cpu_note(ours, theirs)})")
    return base


def uncached_checks_ratio(work: pathlib.Path, base: pathlib.Path) -> None:
    """The same comparison with the checks run every time (SITE_CHECKS_CACHE=off), as after any edit."""
    ours, theirs = [], []
    for i in range(RUNS):
        theirs.append(build(base, work / f"b{i}"))
        ours.append(build(ROOT, work / f"u{i}", {"SITE_CHECKS_CACHE": "off"}))
    o, b = statistics.median(ours), statistics.median(theirs)
    print(f"site build, checks not kept (SITE_CHECKS_CACHE=off, as after an edit): ours {o:.2f} s, "
          f"baseline {b:.2f} s, ratio {o / b:.2f}x (medians of {RUNS}{_cpu_note(ours, theirs)})")


def checks_cost(work: pathlib.Path) -> None:
    """The full build with the checks on against the same build with SITE_CHECKS=off, alternating.
    The checks run every time here (SITE_CHECKS_CACHE=off): their cost, not that of reading a kept result."""
    on, off = [], []
    for i in range(RUNS):
        off.append(build(ROOT, work / f"off{i}", {"SITE_CHECKS": "off"}))
        on.append(build(ROOT, work / f"on{i}", {"SITE_CHECKS": "on", "SITE_CHECKS_CACHE": "off"}))
    a, b = statistics.median(on), statistics.median(off)
    ca, cb = statistics.median(t.cpu for t in on), statistics.median(t.cpu for t in off)
    print(f"checks (facts, parity, locales, staleness, reader-text lints): on {a:.2f} s, off {b:.2f} s, "
          f"{(a / b - 1) * 100:+.1f} % (target <= +15 %; medians of {RUNS}; CPU {ca:.2f} s against {cb:.2f} s, "
          f"{(ca / cb - 1) * 100:+.1f} %)")


def explanation_weight(site: pathlib.Path) -> None:
    """Bytes the explanations in place add to a page (gzip, as a host sends them): the per-page
    provenance JSON and the popover script, against the page's own HTML. No Pyodide is involved."""
    import gzip
    import re
    script = len(gzip.compress((site / "assets" / "explain.js").read_bytes()))
    rows = []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        m = re.search(r'<script type="application/json" id="fig-provenance">(.*?)</script>', html, re.S)
        if m:
            data = len(gzip.compress(m.group(1).encode()))
            rows.append((data, len(gzip.compress(html.encode())), page.relative_to(site).parent.as_posix() or "/"))
    data, whole, name = max(rows)
    print(f"explanations in place: largest page {name} +{data / 1000:.1f} KB gzip of provenance data "
          f"({data / whole * 100:.0f} % of its {whole / 1000:.1f} KB HTML), explain.js {script / 1000:.1f} KB gzip once; "
          f"no Pyodide before a calculator is touched")


SECTIONS = ("build", "checks", "reload", "browser", "example")


def main(argv: list[str] | None = None) -> int:
    """Every section by default; `--only build` (or checks, browser, comma-separated) runs just those,
    e.g. to repeat one figure while working on it (BENCH_RUNS sets the repetitions)."""
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections to run, of {', '.join(SECTIONS)} (default: all)")
    only = set(parser.parse_args(argv).only.split(","))
    if only - set(SECTIONS):
        parser.error(f"unknown section(s): {', '.join(sorted(only - set(SECTIONS)))}")
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        base = None
        if "build" in only:
            base = site_build_ratio(pathlib.Path(tmp))
            uncached_checks_ratio(pathlib.Path(tmp), base)
            explanation_weight(pathlib.Path(tmp) / "o0")
        if "reload" in only:
            bench_reload.measure(pathlib.Path(tmp), base or baseline_project(pathlib.Path(tmp)), RUNS)
        if "checks" in only:
            checks_cost(pathlib.Path(tmp))
        if "browser" in only:
            bench_browser.measure(pathlib.Path(tmp) / "browser")
        if "example" in only:
            bench_example.measure(pathlib.Path(tmp), RUNS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
