"""`make test` on a machine without Chromium: the browser tests skip together, saying once how to run them.

A test of the test runner: pytest runs the browser test modules in a
subprocess whose Chromium path (CHROMIUM_PATH) names a file that does not
exist, as on a fresh machine. Without CI the run passes, every browser test
is skipped and one summary line says how to run them (the tests that need no
browser still run); with CI=true the same run fails, as `.ci/run` requires.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BROWSER_MODULES = ["tests/test_browser.py", "tests/test_pages_clean.py"]


def run_pytest(tmp_path: pathlib.Path, modules: list, ci: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "GITHUB_ACTIONS", "PYTEST_ADDOPTS")}
    env["CHROMIUM_PATH"] = str(tmp_path / "no-such-dir" / "chromium")
    if ci:
        env["CI"] = "true"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider",
                           "--basetemp", str(tmp_path / "basetemp"), *modules],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def test_without_chromium_the_browser_tests_skip_with_one_line(tmp_path):
    proc = run_pytest(tmp_path, BROWSER_MODULES, ci=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|skipped|failed|errors?)", out.splitlines()[-1]))
    assert counts.get("skipped", 0) >= 20 and not counts.get("failed") and not counts.get("error"), out[-2000:]
    assert counts.get("passed", 0) >= 1, "the tests that need no browser must still run"
    lines = [line for line in out.splitlines() if "browser tests skipped" in line]
    assert len(lines) == 1, "\n".join(lines)
    assert f"[{counts['skipped']}]" in lines[0], lines[0]
    assert "apt-get install chromium" in lines[0] and "CHROMIUM_PATH=" in lines[0], lines[0]


def test_under_ci_a_missing_chromium_fails(tmp_path):
    proc = run_pytest(tmp_path, ["tests/test_pages_clean.py"], ci=True)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out[-4000:]
    assert "CI is set, so this fails instead of skipping" in out, out[-3000:]
    assert not re.search(r"\d+ passed", out.splitlines()[-1]) or "error" in out.splitlines()[-1], out[-2000:]
