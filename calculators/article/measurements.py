"""Load and validate measurements.toml: published decode times per output token, and the split.

The file holds the measurements the step-time model (calculators/perf/step_time.py) is fitted to
and judged on. Each row says what was measured (TPOT, ITL, tokens per second per user, or the wall
time of an offline batch), on which checkpoint, device, engine and layout, at which input and output
lengths and concurrency, and where it was published. `[checkpoints]` says which catalog
architecture a published checkpoint is and which tensor groups it stores in which precision.

The split into a fitting set and a held-out set is part of the data (`[split]`), fixed before any
fit: held-out are whole sources (`held_out_sources`) and the second workload of sources that publish
two (`held_out_workloads`). The fit tool (tools/fit_step_time.py) reads only the fitting set.

Same rules as catalog.toml and serving.toml: every row carries its source (title, kind, url,
accessed, confidence); an error names the file, the line of the row and the field, in one line.
Build-only, like the rest of calculators.article: the accuracy page, the fit and the tests read
it; the browser never does (the wheel leaves the package out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

from ..arch.precision import GROUPS, PRECISIONS
from ..data import catalog as C
from ..data import sources as V
from ..data.sources import DataError, Source

PATH = "calculators/article/measurements.toml"
FILE = "measurements.toml"

ENGINES = ("vllm", "sglang", "trtllm")
# What a row's `value` is; the time per output token (`tpot_ms`) follows from it as `derive` says.
MEASURED = ("tpot_ms", "itl_ms", "tok_s_per_user", "e2e_latency_s")
SPEC_KINDS = ("mtp", "draft-model", "heads")
# Why a row cannot be compared with a decode-step model; each has a translated label on the accuracy page.
EXCLUDE_REASONS = ("queueing", "speculative-unpublished", "long-context-path")
KV_LABELS = ("fp8-skip-sliding-window",)   # published KV formats the precision table does not name
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
# tpot_ms as derived from value: the published number and the derived one agree to this share.
AGREE = 1e-3


@dataclass(frozen=True)
class Checkpoint:
    """A published checkpoint: the catalog architecture it has and the precision of its tensor groups."""

    key: str                 # the checkpoint's published name ("meta-llama/Llama-3.1-405B-FP8")
    arch: str                # catalog model key whose config.json describes its layers
    groups: dict             # tensor group -> precision key, where it differs from that config
    src: Source


@dataclass(frozen=True)
class Measurement:
    key: str
    model: str               # checkpoint key
    engine: str
    engine_version: str
    device: str              # catalog device key
    gpus: int
    tp: int
    pp: int
    ep: int
    dp_attention: int        # data-parallel attention groups (1: none)
    graphs: bool             # False: run without CUDA/HIP graphs (--enforce-eager)
    weight_precision: str    # as published (informational; the checkpoint's groups are what the model reads)
    kv_precision: str        # as published ("" where not stated)
    kv_assumed: str | None   # what the model takes where kv_precision is not a precision key
    speculative: dict | None
    input_tokens: int
    output_tokens: int
    concurrency: int
    arrivals: str            # "continuous": other requests' prefills land in the measured steps; "none"
    measured: str
    value: float
    tpot_ms: float
    statistic: str
    date: str
    source_id: str
    commit: str
    src: Source
    exclude: str | None = None
    exclude_note: str = ""
    held_out: bool = False

    @property
    def kv(self) -> str:
        """The KV precision the model computes with."""
        return self.kv_precision if self.kv_precision in PRECISIONS else self.kv_assumed

    @property
    def tpot_s(self) -> float:
        return self.tpot_ms / 1e3

    @property
    def split(self) -> str:
        """"excluded", "held-out" or "fit"."""
        return "excluded" if self.exclude else "held-out" if self.held_out else "fit"


@dataclass(frozen=True, eq=False)
class Dataset:
    """The loaded file, compared and hashed by identity (as catalog.Catalog)."""

    checkpoints: dict
    rows: dict
    held_out_sources: tuple
    held_out_workloads: tuple     # (source_id, input_tokens, output_tokens)
    target_median: float = 0.15   # held-out median absolute error the expected values must not exceed
    target_max: float = 0.40      # held-out largest absolute error the site aims below

    def of_split(self, split: str) -> list:
        return [r for r in self.rows.values() if r.split == split]


def derive(measured: str, value: float, output_tokens: int) -> float:
    """Time per output token in ms from a published value: itself for TPOT and ITL, 1000 ÷ value for
    tokens per second per user, value × 1000 ÷ output tokens for the wall time of an offline batch."""
    if measured in ("tpot_ms", "itl_ms"):
        return value
    if measured == "tok_s_per_user":
        return 1000.0 / value
    return value * 1000.0 / output_tokens


def _checkpoint(key, raw, models):
    e = f"checkpoints.{key}"
    arch = V.required(e, raw, "arch", str)
    if arch not in models or models[arch].arch is None:
        raise DataError(e, "arch", f"unknown architecture {arch!r}: name a catalog model with a config")
    groups = V.required(e, raw, "groups", dict)
    for g, p in groups.items():
        if g not in GROUPS:
            raise DataError(e, f"groups.{g}", f"unknown tensor group; known: {', '.join(GROUPS)}")
        V.precision(e, f"groups.{g}", p)
    return Checkpoint(key, arch, dict(groups), V.source(e, raw))


def _count(e, raw, name):
    return V.positive(e, name, V.required(e, raw, name, int))


def _row(key, raw, checkpoints, devices):
    e = f"measurements.{key}"
    model = V.one_of(e, "model", V.required(e, raw, "model", str), checkpoints, "checkpoint",
                     " (add it under [checkpoints])")
    device = V.one_of(e, "device", V.required(e, raw, "device", str), devices)
    engine = V.required(e, raw, "engine", str)
    if engine not in ENGINES:
        raise DataError(e, "engine", f"unknown engine {engine!r}; use one of {', '.join(ENGINES)}")
    gpus, tp, pp, ep, dp = (_count(e, raw, n) for n in ("gpus", "tp", "pp", "ep", "dp_attention"))
    if tp * pp != gpus:
        raise DataError(e, "gpus", f"{gpus} GPUs but tp {tp} × pp {pp} = {tp * pp}")
    if tp % dp or gpus % ep:
        raise DataError(e, "dp_attention", f"data-parallel attention ({dp}) must divide tp ({tp}) and ep ({ep}) the GPUs ({gpus})")
    kv = V.required(e, raw, "kv_precision", str)
    assumed = V.optional(e, raw, "kv_precision_assumed", str)
    if kv not in PRECISIONS:
        if kv and kv not in KV_LABELS:
            raise DataError(e, "kv_precision", f"unknown KV format {kv!r}; use a precision key, one of {KV_LABELS} or \"\"")
        if assumed is None:
            raise DataError(e, "kv_precision_assumed", "missing: the KV format is not a precision, so say what the model takes (and why, in kv_note)")
    if assumed is not None:
        V.precision(e, "kv_precision_assumed", assumed)
        V.required(e, raw, "kv_note", str)
    spec = raw.get("speculative", "none")
    if spec != "none":
        if not isinstance(spec, dict) or spec.get("kind") not in SPEC_KINDS:
            raise DataError(e, "speculative", f"\"none\" or {{ kind = one of {SPEC_KINDS}, k = ... }}, got {spec!r}")
    measured = V.required(e, raw, "measured", str)
    if measured not in MEASURED:
        raise DataError(e, "measured", f"unknown quantity {measured!r}; use one of {', '.join(MEASURED)}")
    value = V.positive(e, "value", V.required(e, raw, "value", float))
    tpot = V.positive(e, "tpot_ms", V.required(e, raw, "tpot_ms", float))
    out_tokens = _count(e, raw, "output_tokens")
    derived = derive(measured, value, out_tokens)
    if abs(derived - tpot) > AGREE * tpot:
        raise DataError(e, "tpot_ms", f"{tpot:g} ms does not follow from {measured} = {value:g} ({derived:.6g} ms)")
    in_tokens = V.required(e, raw, "input_tokens", int)
    if in_tokens < 0:
        raise DataError(e, "input_tokens", "must not be negative")
    date = V.required(e, raw, "date", str)
    if date and not _DATE.match(date):
        raise DataError(e, "date", f"not YYYY, YYYY-MM or YYYY-MM-DD: {date!r}")
    if not date:
        V.required(e, raw, "date_note", str)
    commit = V.optional(e, raw, "commit", str, "")
    if commit and not _COMMIT.match(commit):
        raise DataError(e, "commit", f"not a 40-digit commit hash: {commit!r}")
    exclude = V.optional(e, raw, "exclude", str)
    if exclude is not None and exclude not in EXCLUDE_REASONS:
        raise DataError(e, "exclude", f"unknown reason {exclude!r}; use one of {', '.join(EXCLUDE_REASONS)}")
    note = V.required(e, raw, "exclude_note", str) if exclude else ""
    src = V.source(e, raw)
    if not src.note:
        raise DataError(e, "note", "missing: say how the value was read and what the run was")
    return Measurement(
        key, model, engine, V.required(e, raw, "engine_version", str), device, gpus, tp, pp, ep, dp,
        V.required(e, raw, "graphs", bool), V.required(e, raw, "weight_precision", str), kv, assumed,
        None if spec == "none" else dict(spec), in_tokens, out_tokens, _count(e, raw, "concurrency"),
        _arrivals(e, raw), measured, value, tpot, V.required(e, raw, "statistic", str), date, V.required(e, raw, "source_id", str),
        commit, src, exclude, note)


ARRIVALS = ("continuous", "none")


def _arrivals(e, raw):
    a = V.required(e, raw, "arrivals", str)
    if a not in ARRIVALS:
        raise DataError(e, "arrivals", f"use one of {ARRIVALS}, got {a!r}")
    return a


def _split(raw, rows):
    split = V.required("split", raw, "split", dict)
    sources = V.required("split", split, "held_out_sources", list)
    known = {r.source_id for r in rows.values()}
    for s in sources:
        if s not in known:
            raise DataError("split", "held_out_sources", f"no row has source_id {s!r}")
    workloads = []
    for w in V.required("split", split, "held_out_workloads", list):
        if not isinstance(w, dict):
            raise DataError("split", "held_out_workloads", f"expected tables, got {w!r}")
        t = (V.required("split", w, "source_id", str), V.required("split", w, "input_tokens", int),
             V.required("split", w, "output_tokens", int))
        if not any((r.source_id, r.input_tokens, r.output_tokens) == t for r in rows.values()):
            raise DataError("split", "held_out_workloads", f"no row has source_id, input and output tokens {t}")
        workloads.append(t)
    return tuple(sources), tuple(workloads)


def is_held_out(r: Measurement, sources, workloads) -> bool:
    """The split rule: a whole held-out source, or a held-out workload of its source."""
    return r.source_id in sources or (r.source_id, r.input_tokens, r.output_tokens) in workloads


def parse(raw: dict, cat) -> Dataset:
    for section in ("checkpoints", "measurements"):
        if section not in raw:
            raise DataError(section, "(section)", "missing")
        for key, value in raw[section].items():
            V.not_split_key(f"{section}.{key}", value)
    checkpoints = {k: _checkpoint(k, v, cat.models) for k, v in raw["checkpoints"].items()}
    rows = {k: _row(k, v, checkpoints, cat.devices) for k, v in raw["measurements"].items()}
    sources, workloads = _split(raw, rows)
    rows = {k: _with_split(r, sources, workloads) for k, r in rows.items()}
    targets = V.required("targets", raw, "targets", dict)
    median = V.fraction("targets", "held_out_median_abs_error", V.required("targets", targets, "held_out_median_abs_error", float))
    largest = V.fraction("targets", "held_out_max_abs_error", V.required("targets", targets, "held_out_max_abs_error", float))
    return Dataset(checkpoints, rows, sources, workloads, median, largest)


def _with_split(r, sources, workloads):
    return replace(r, held_out=is_held_out(r, sources, workloads))


def load_text(text: str, cat=None, path: str = PATH) -> Dataset:
    """Parse and validate against the catalog; an error names file and line."""
    return V.load_toml(text, path, lambda raw: parse(raw, cat or C.load()))


def text() -> str:
    return resources.files("calculators.article").joinpath(FILE).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def load() -> Dataset:
    """The packaged measurements, validated against the packaged catalog, once per process."""
    return load_text(text())
