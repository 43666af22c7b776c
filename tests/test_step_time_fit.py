"""The fit: reproducible with one command, blind to the held-out rows, and the committed constants are its output."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

pytest.importorskip("scipy")

from calculators.article import measurements  # noqa: E402
from calculators.data import catalog, serving  # noqa: E402
from checkutil import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import fit_step_time as F  # noqa: E402


def test_the_committed_constants_are_what_the_tool_writes():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "fit_step_time.py"), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + run.stdout


def test_the_fit_never_reads_a_held_out_row():
    """Triple a held-out row's measured time: the fitted constants do not move."""
    cat, sv = catalog.load(), serving.load()
    ds = measurements.load()
    key = "oci-llama31-405b-fp8-mi300x-tp8-b1"
    assert ds.rows[key].held_out
    text = measurements.text()
    start = text.index(f'[measurements."{key}"]')
    block = text[start:text.index("\n[", start + 1)]
    changed = block.replace("value = 3.53\n", "value = 10.59\n").replace("tpot_ms = 27.58\n", "tpot_ms = 82.74\n")
    assert changed != block
    altered = measurements.load_text(text.replace(block, changed), cat)
    _, a, rows_a = F.fit(cat, ds, sv)
    _, b, rows_b = F.fit(cat, altered, sv)
    assert [r.key for r in rows_a] == [r.key for r in rows_b]
    assert list(a.x) == list(b.x)


def test_the_report_names_the_data_it_was_fitted_to():
    data = tomllib.loads((ROOT / "calculators" / "data" / "step_time.toml").read_text(encoding="utf-8"))
    assert data["fit"]["dataset_sha256"] == F.digest()
    assert data["fit"]["rows_fit"] >= 40
    assert data["report"]["held_out_rows"] >= 15
