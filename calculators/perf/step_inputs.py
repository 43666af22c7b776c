"""The step time's inputs: the fitted constants (calculators/data/step_time.toml) and the sourced ones.

calculators/perf/step_time.py adds the terms up; this module says where each
number it multiplies comes from: the constants `make fit` writes
(tools/fit_step_time.py), and the sourced values of serving.toml (the share of
bandwidth attention reaches per device family, the engines' all-reduce time by
message size). Standard library only: the browser runs it.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources


class StepTimeError(ValueError):
    """No calibrated expected value: an uncalibrated device or engine, or an impossible input."""


# ------------------------------------------------------------------ constants


@dataclass(frozen=True)
class Constants:
    """The fitted constants (step_time.toml) and the held-out band."""

    eta_weights: dict          # vendor -> share of peak bandwidth weight reads reach
    slice_half_bytes: float    # s½: an expert slice this size per device streams at half that share
    mfu: float                 # u: share of the compute peak the matrix products reach
    layer_weight: dict         # "moe", "latent": fixed cost of such a layer part, in dense layers
    fixed_per_layer_s: dict    # "engine/vendor" (engine "vllm-eager" without graphs) -> τ in s
    cpu_per_request_s: dict    # "engine/vendor" without graphs -> c in s per request and step
    band: tuple                # (low, high): measured ÷ expected time, held-out quantiles
    band_quantiles: tuple      # the quantiles the band spans, e.g. (1/6, 5/6)
    report: dict = field(default_factory=dict, compare=False)   # the fit's report, as written

    def tau(self, engine: str, vendor: str, graphs: bool = True) -> float:
        """Fixed cost per dense layer for an engine on a vendor's devices; "generic": the geometric mean
        of the engines calibrated on that vendor (with graphs)."""
        if engine == "generic":
            got = [v for k, v in self.fixed_per_layer_s.items() if k.endswith(f"/{vendor}") and "-eager" not in k]
            if not got:
                raise StepTimeError(f"no engine is calibrated on {vendor} devices")
            return math.exp(sum(math.log(v) for v in got) / len(got))
        key = f"{engine}{'' if graphs else '-eager'}/{vendor}"
        if key not in self.fixed_per_layer_s:
            raise StepTimeError(f"no published measurement calibrates {engine}{'' if graphs else ' without graphs'} on {vendor} devices")
        return self.fixed_per_layer_s[key]

    def cpu(self, engine: str, vendor: str, graphs: bool) -> float:
        if graphs:
            return 0.0
        return self.cpu_per_request_s.get(f"{engine}-eager/{vendor}", 0.0)


def parse_constants(raw: dict) -> Constants:
    p = raw["parameters"]
    band = raw["band"]
    return Constants(dict(p["weights_efficiency"]), float(p["expert_slice"]["half_bytes"]), float(p["compute"]["mfu"]),
                     dict(p["layer_weight"]), dict(p["fixed_per_layer_s"]),
                     dict(p.get("cpu_per_request_s", {})), (float(band["low"]), float(band["high"])),
                     (float(band["quantile_low"]), float(band["quantile_high"])), dict(raw.get("report", {})))


def constants_text() -> str:
    return resources.files("calculators.data").joinpath("step_time.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def constants() -> Constants:
    """The packaged constants, once per process."""
    return parse_constants(tomllib.loads(constants_text()))


# ------------------------------------------------------------------ sourced inputs


def kv_efficiency(device_key: str, serving, cat) -> float:
    """η_kv: the share of peak bandwidth KV reads reach on this device's family (serving.toml).

    From slopes: each slope's KV bytes per token of context (long-context growth, so sliding windows
    add nothing) ÷ the slope ÷ the slope device's peak, averaged over the family's slopes."""
    fam = serving.kv_family(device_key)
    if fam is None:
        raise StepTimeError(f"no published measurement calibrates {device_key}")
    if not fam.slopes:
        return fam.achieved_bytes_per_s / fam.peak_bytes_per_s
    shares = []
    for s in fam.slopes:
        per_token = cat.models[s.model].arch.kv_bytes_per_token(s.kv_precision)
        shares.append(per_token / s.s_per_token / cat.devices[s.device].serving.bytes_per_s)
    return sum(shares) / len(shares)


def vendor_of(device_key: str, serving) -> str:
    fam = serving.kv_family(device_key)
    if fam is None:
        raise StepTimeError(f"no published measurement calibrates {device_key}")
    return fam.vendor


def line_fit(points) -> tuple[float, float]:
    """Least squares t = latency + bytes ÷ bandwidth through (bytes, seconds) points: (latency, bandwidth)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - slope * mx, 1.0 / slope


def allreduce_curve(engine: str, interconnect: str, serving) -> tuple[float, float, float] | None:
    """(latency s, bytes per s, largest message measured) of one all-reduce by message size for the engine
    on the link, or None where none is published."""
    ar = serving.allreduce_for("vllm" if engine == "generic" else engine, interconnect)
    if ar is None:
        return None
    latency, bw = line_fit(ar.points)
    return latency, bw, max(x for x, _ in ar.points)
