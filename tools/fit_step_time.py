"""Fit the step-time constants to the fitting set of the published measurements; write them with the fit's report.

    make fit        (or: .venv/bin/python tools/fit_step_time.py [--out PATH] [--check])

Reads calculators/article/measurements.toml (only rows whose split is "fit": the held-out rows are never
read by the fit) and the sourced inputs of serving.toml, and minimises Σ log(expected ÷ measured)²
over the fitting rows with scipy's least_squares (trust-region reflective, from fixed starting
values: the same data gives the same constants). The constants the calculators read go to
calculators/data/step_time.toml with: the 68 % interval of each (from the Jacobian at the optimum),
the error report for the fitting and held-out sets (median and largest absolute error, worst rows),
and the band: the held-out spread of measured ÷ expected between the quantiles 1/6 and 5/6 (two in
three held-out rows fall inside it).

--check  fit again and fail if the result differs from the committed file (CI: the file is this
         tool's output, not hand-edited).

Build-time tool: numpy and scipy (pinned in requirements.txt); the calculators read the result with
the standard library.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import pathlib
import platform
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import scipy  # noqa: E402
from scipy.optimize import least_squares  # noqa: E402

from calculators.data import catalog as C  # noqa: E402
from calculators.article import measurements as D  # noqa: E402
from calculators.data import serving as SV  # noqa: E402
from calculators.article import calibration as K  # noqa: E402
from calculators.perf import step_time as T  # noqa: E402

OUT = ROOT / "calculators" / "data" / "step_time.toml"
BAND_QUANTILES = (1 / 6, 5 / 6)
VENDORS = ("nvidia", "amd")


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


class Parameters:
    """The fitted constants as one vector (shares through a logit, positive quantities through a log)."""

    def __init__(self, groups: list, eager: list):
        self.groups, self.eager = groups, eager
        self.names = ([f"weights_efficiency.{v}" for v in VENDORS] + ["expert_slice.half_bytes", "compute.mfu",
                      "layer_weight.moe", "layer_weight.latent"] + [f"fixed_per_layer_s.{g}" for g in groups]
                      + [f"cpu_per_request_s.{g}" for g in eager])

    SHARES = ("eta_weights", "compute.mfu")

    def _is_share(self, name):
        return name.startswith("weights_efficiency") or name == "compute.mfu"

    def start(self) -> np.ndarray:
        first = {"weights_efficiency.nvidia": 0.6, "weights_efficiency.amd": 0.4, "expert_slice.half_bytes": 3e6, "compute.mfu": 0.5, "layer_weight.moe": 2.0, "layer_weight.latent": 8.0}
        values = [first.get(n, 2e-4 if n.startswith("cpu") else 3e-5) for n in self.names]
        return np.array([logit(v) if self._is_share(n) else math.log(v) for n, v in zip(self.names, values)])

    def values(self, x) -> dict:
        return {n: (sigmoid(v) if self._is_share(n) else math.exp(v)) for n, v in zip(self.names, x)}

    def constants(self, x, band=(1.0, 1.0)) -> T.Constants:
        v = self.values(x)
        return T.Constants({k: v[f"weights_efficiency.{k}"] for k in VENDORS}, v["expert_slice.half_bytes"], v["compute.mfu"],
                           {"moe": v["layer_weight.moe"], "latent": v["layer_weight.latent"]},
                           {g: v[f"fixed_per_layer_s.{g}"] for g in self.groups},
                           {g: v[f"cpu_per_request_s.{g}"] for g in self.eager}, band, BAND_QUANTILES)


def group_of(s: T.Setup, serving) -> str:
    return f"{s.engine}{'' if s.graphs else '-eager'}/{T.vendor_of(s.device.key, serving)}"


def fit(cat, ds, serving):
    rows = [r for r in ds.rows.values() if r.split == "fit"]
    setups = {r.key: (K.setup_of(r, cat, ds), K.workload_of(r)) for r in rows}
    rows = [r for r in rows if not K.preempts(*setups[r.key], cat)]
    groups = sorted({group_of(setups[r.key][0], serving) for r in rows})
    eager = sorted({g for g in groups if "-eager" in g})
    params = Parameters(groups, eager)

    def residuals(x):
        consts = params.constants(x)
        return np.array([math.log(T.terms(*setups[r.key], consts, serving, cat).per_token_s / r.tpot_s) for r in rows])

    result = least_squares(residuals, params.start(), method="trf", x_scale="jac", max_nfev=5000)
    return params, result, rows


def intervals(params, result) -> dict:
    """68 % interval of each constant: ±1 standard error in the fitted (logit or log) coordinate, mapped back."""
    j = result.jac
    dof = max(1, len(result.fun) - len(result.x))
    s2 = float(result.fun @ result.fun) / dof
    try:
        cov = np.linalg.inv(j.T @ j) * s2
        se = np.sqrt(np.clip(np.diag(cov), 0, None))
    except np.linalg.LinAlgError:
        se = np.full(len(result.x), np.nan)
    out = {}
    for i, name in enumerate(params.names):
        lo, hi = result.x.copy(), result.x.copy()
        lo[i] -= se[i]
        hi[i] += se[i]
        out[name] = (params.values(lo)[name], params.values(hi)[name])
    return out


def digest() -> str:
    return hashlib.sha256(D.text().encode("utf-8")).hexdigest()


def _num(v: float) -> str:
    return repr(float(f"{v:.6g}"))


def render(params, result, rows, comps, band, ivals) -> str:
    v = params.values(result.x)
    fitrep, heldrep = K.summary(comps, "fit"), K.summary(comps, "held-out")
    excluded = [c for c in comps if c.split == "excluded"]
    lines = [
        "# Written by tools/fit_step_time.py (make fit): do not edit by hand; tests/test_step_time_fit.py checks",
        "# that this file is what the tool writes from calculators/article/measurements.toml.",
        "# The constants calculators/perf/step_time.py reads, each with its 68 % interval (±1 standard error",
        "# of the least-squares fit, mapped back from the coordinate it was fitted in), the band beside every",
        "# expected value and the fit's report. Units: shares of peak, bytes, tokens, seconds.",
        "",
        "[fit]",
        'method = "scipy.optimize.least_squares (trf) on log(expected ÷ measured) over the fitting set"',
        f'dataset_sha256 = "{digest()}"',
        f"rows_fit = {len(rows)}",
        f"parameters = {len(params.names)}",
        f'python = "{platform.python_version()}"',
        f'numpy = "{np.__version__}"',
        f'scipy = "{scipy.__version__}"',
        f"cost = {_num(result.cost)}",
        "",
    ]
    sections = {}
    for name in params.names:
        section, key = name.split(".", 1)
        sections.setdefault(section, []).append((key, v[name], ivals[name]))
    for section, items in sections.items():
        lines.append(f"[parameters.{section}]")
        for key, value, _ in items:
            lines.append(f'"{key}" = {_num(value)}' if "/" in key else f"{key} = {_num(value)}")
        lines.append("")
    for section, items in sections.items():
        lines.append(f"[interval.{section}]")
        for key, _, (lo, hi) in items:
            k = f'"{key}"' if "/" in key else key
            lines.append(f"{k} = [{_num(min(lo, hi))}, {_num(max(lo, hi))}]")
        lines.append("")
    lines += [
        "# measured ÷ expected time per token over the held-out rows, between these quantiles",
        "[band]",
        f"quantile_low = {_num(BAND_QUANTILES[0])}",
        f"quantile_high = {_num(BAND_QUANTILES[1])}",
        f"low = {_num(band[0])}",
        f"high = {_num(band[1])}",
        "",
        "# signed error: expected ÷ measured − 1, time per output token",
        "[report]",
    ]
    for label, rep in (("fit", fitrep), ("held_out", heldrep)):
        lines += [f"{label}_rows = {rep.count}", f"{label}_median_abs_error = {_num(rep.median_abs)}",
                  f"{label}_max_abs_error = {_num(rep.max_abs)}",
                  f"{label}_worst = [{', '.join(repr(c.key).replace(chr(39), chr(34)) for c in rep.worst)}]"]
    lines += [f"excluded_rows = {len(excluded)}", ""]
    return "\n".join(lines)


def run(out: pathlib.Path | None, check: bool, quiet: bool = False) -> int:
    cat, ds, serving = C.load(), D.load(), SV.load()
    params, result, rows = fit(cat, ds, serving)
    provisional = params.constants(result.x)
    comps = K.compare(provisional, cat, ds, serving)
    band = K.band(comps, *BAND_QUANTILES)
    text = render(params, result, rows, comps, band, intervals(params, result))
    if check:
        committed = OUT.read_text(encoding="utf-8")
        if _numbers(committed) != _numbers(text):
            print("calculators/data/step_time.toml is not what tools/fit_step_time.py writes from the dataset: run `make fit`",
                  file=sys.stderr)
            return 1
        print("step_time.toml: up to date")
        return 0
    (out or OUT).write_text(text, encoding="utf-8")
    fitrep, heldrep = K.summary(comps, "fit"), K.summary(comps, "held-out")
    print(f"fit: {fitrep.count} rows, median |error| {fitrep.median_abs:.1%}, largest {fitrep.max_abs:.1%}")
    if not quiet:
        print(f"held-out: {heldrep.count} rows, median |error| {heldrep.median_abs:.1%}, largest {heldrep.max_abs:.1%}")
    print(f"wrote {(out or OUT).relative_to(ROOT) if (out or OUT).is_relative_to(ROOT) else out}")
    return 0


def _numbers(text: str) -> dict:
    """The file's data without the interpreter versions (a fit on another machine may print other patch versions)."""
    data = tomllib.loads(text)
    data.get("fit", {}).pop("python", None)
    return data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--quiet-held-out", action="store_true", help="print only the fitting set's errors (while developing the model)")
    a = ap.parse_args(argv)
    return run(a.out, a.check, a.quiet_held_out)


if __name__ == "__main__":
    sys.exit(main())
