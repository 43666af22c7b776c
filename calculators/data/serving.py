"""Load and validate serving.toml: achieved-bandwidth efficiency, speculative acceptance rates and
measurements with published deployments.

Same rules as catalog.toml (calculators/data/sources.py checks source, kind, url,
accessed, confidence), and errors name file, line, entry and field in one line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..arch.precision import PRECISIONS
from . import catalog as C
from . import sources as V
from .sources import DataError, Source

PATH = "calculators/data/serving.toml"
SECTIONS = ("efficiency", "acceptance", "measurements")
OPTIONAL_SECTIONS = ("allocators",)


@dataclass(frozen=True)
class Efficiency:
    """Achieved over peak memory bandwidth, from a published decode-kernel measurement."""

    key: str
    achieved_bytes_per_s: float
    peak_bytes_per_s: float
    src: Source

    @property
    def fraction(self) -> float:
        return self.achieved_bytes_per_s / self.peak_bytes_per_s


@dataclass(frozen=True)
class Acceptance:
    """A published per-token acceptance range of a draft method for a model family."""

    key: str
    family: str
    method: str
    low: float
    high: float
    src: Source


@dataclass(frozen=True)
class Speculation:
    """Speculative decoding as a measurement's publisher states it."""

    kind: str                    # "mtp" or "draft-model" or "heads"
    k: int | None                # tokens proposed per step (None: not published)
    mean_accepted: float | None  # tokens per verify step, if published


@dataclass(frozen=True)
class PublishedMeasurement(C.MeasuredSpeed):
    """A measurement whose publisher states the hardware (and often precision and speculation)."""

    tp: int
    pp: int
    dp: int
    ep: bool
    weight_precision: str | None
    speculation: Speculation | None
    context: int
    src: Source
    published: bool = True       # False: the layout is the site's assumption
    fit: bool = False            # True: no count published; the smallest fitting layout is assumed
    precision_published: bool = True

    @property
    def count(self) -> int:
        return self.tp * self.pp * self.dp


@dataclass(frozen=True)
class Allocator:
    """How an engine's paged allocator lays out cache and state (calculators/perf/engine_memory.py).

    block_tokens: tokens per page of a model with attention layers only; align_tokens and
    latent_align_tokens: the kernel block alignment that a hybrid model's attention block size is
    a multiple of (latent: MLA); state_slots: state pages a request holds per state layer."""

    key: str
    name: str
    block_tokens: int
    latent_block_tokens: int
    align_tokens: int
    latent_align_tokens: int
    state_slots: int
    src: Source


@dataclass(frozen=True, eq=False)
class Serving:
    """The loaded serving data, compared and hashed by identity (as catalog.Catalog)."""

    efficiency: dict
    acceptance: dict
    measurements: dict
    allocators: dict = None


def _efficiency(key, raw):
    e = f"efficiency.{key}"
    got = V.positive(e, "achieved_bytes_per_s", V.required(e, raw, "achieved_bytes_per_s", float))
    peak = V.positive(e, "peak_bytes_per_s", V.required(e, raw, "peak_bytes_per_s", float))
    if got > peak:
        raise DataError(e, "achieved_bytes_per_s", "exceeds the peak")
    return Efficiency(key, got, peak, V.source(e, raw))


def _acceptance(key, raw):
    e = f"acceptance.{key}"
    low = V.fraction(e, "low", V.required(e, raw, "low", float))
    high = V.fraction(e, "high", V.required(e, raw, "high", float))
    if high < low or high >= 1:
        raise DataError(e, "high", "must be at least low and below 1")
    return Acceptance(key, V.required(e, raw, "family", str), V.required(e, raw, "method", str), low, high, V.source(e, raw))


SPEC_KINDS = ("mtp", "draft-model", "heads")


def _measurement(key, raw, models, devices):
    e = f"measurements.{key}"
    model = V.required(e, raw, "model", str)
    if model not in models:
        raise DataError(e, "model", f"unknown model {model!r}")
    dep = V.required(e, raw, "deployment", dict)
    device = V.required(e, dep, "device", str)
    if device not in devices:
        raise DataError(e, "deployment.device", f"unknown device {device!r}")
    prec = V.optional(e, raw, "weight_precision", str)
    if prec is not None and prec not in PRECISIONS:
        raise DataError(e, "weight_precision", f"unknown precision {prec!r}")
    spec = None
    if "speculative" in raw:
        s = V.required(e, raw, "speculative", dict)
        kind = V.required(e, s, "kind", str)
        if kind not in SPEC_KINDS:
            raise DataError(e, "speculative.kind", f"unknown kind {kind!r}; use one of {SPEC_KINDS}")
        k = V.positive(e, "speculative.k", V.optional(e, s, "k", int))
        mean = V.optional(e, s, "mean_accepted", float)
        if mean is not None and (k is None or not 1 <= mean <= k + 1):
            raise DataError(e, "speculative.mean_accepted", f"must lie in [1, k + 1], got {mean!r}")
        spec = Speculation(kind, k, mean)
    low, high = V.measured_range(e, raw)
    deg = lambda name: V.positive(e, f"deployment.{name}", V.optional(e, dep, name, int, 1))  # noqa: E731
    return PublishedMeasurement(
        key, model, V.required(e, raw, "who", str), low, high, V.required(e, raw, "date", str), device,
        deg("tp"), deg("pp"), deg("dp"), bool(V.optional(e, dep, "ep", bool, False)), prec, spec,
        V.positive(e, "context", V.required(e, raw, "context", int)), V.source(e, raw),
        bool(V.required(e, dep, "published", bool)), bool(V.optional(e, dep, "fit", bool, False)),
        bool(V.optional(e, raw, "precision_published", bool, True)))


def _allocator(key, raw):
    e = f"allocators.{key}"
    count = lambda name: V.positive(e, name, V.required(e, raw, name, int))  # noqa: E731
    return Allocator(key, V.required(e, raw, "name", str), count("block_tokens"), count("latent_block_tokens"),
                     count("align_tokens"), count("latent_align_tokens"), count("state_slots"), V.source(e, raw))


def parse(raw: dict, cat) -> Serving:
    for section in SECTIONS:
        if section not in raw:
            raise DataError(section, "(section)", "missing")
    for section in SECTIONS + OPTIONAL_SECTIONS:
        for key, value in raw.get(section, {}).items():
            V.not_split_key(f"{section}.{key}", value)
    return Serving(
        {k: _efficiency(k, v) for k, v in raw["efficiency"].items()},
        {k: _acceptance(k, v) for k, v in raw["acceptance"].items()},
        {k: _measurement(k, v, cat.models, cat.devices) for k, v in raw["measurements"].items()},
        {k: _allocator(k, v) for k, v in raw.get("allocators", {}).items()},
    )


def load_text(text: str, cat=None, path: str = PATH) -> Serving:
    """Parse and validate against the catalog; an error names file and line."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataError("(file)", "(syntax)", f"not valid TOML: {err}").locate(path, "") from None
    try:
        return parse(raw, cat or C.load())
    except DataError as err:
        raise err.locate(path, text) from None


def text() -> str:
    """The packaged serving.toml, as text."""
    return resources.files("calculators.data").joinpath("serving.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def load() -> Serving:
    """The packaged serving data, validated against the packaged catalog, once per process."""
    return load_text(text())
