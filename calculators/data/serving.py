"""Load and validate serving.toml: achieved-bandwidth efficiency, speculative acceptance rates and
measurements with published deployments.

Same rules as catalog.toml (calculators/data/sources.py checks source, kind, url,
accessed, confidence), and errors name file, line, entry and field in one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources

from ..arch.precision import PRECISIONS
from . import catalog as C
from . import sources as V
from .sources import DataError, Source

PATH = "calculators/data/serving.toml"
SECTIONS = ("efficiency", "acceptance", "measurements", "kv_bandwidth", "allreduce", "fits")
VENDORS = ("nvidia", "amd")
OPTIONAL_SECTIONS = ("allocators",)
WORDED_NAMES = {"fits": "entry-name", "allocators": "entry-name"}   # as catalog.WORDED_NAMES


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
    engine: str = "generic"      # the serving engine the publisher names (step_time.ENGINES), else "generic"
    ep_groups: int = 0           # expert-parallel groups the publisher names (0: experts split evenly)

    @property
    def count(self) -> int:
        return self.tp * self.pp * self.dp


@dataclass(frozen=True)
class Slope:
    """A published slope of inter-token latency against context: seconds one more token of context adds."""

    device: str
    model: str
    kv_precision: str
    s_per_token: float


@dataclass(frozen=True)
class KVBandwidth:
    """The share of peak bandwidth KV-cache reads reach on a family of devices: from published slopes
    (KV bytes per token ÷ slope ÷ peak, averaged), or from a published bandwidth measurement."""

    key: str
    devices: tuple
    vendor: str
    slopes: tuple                       # Slope, ...
    achieved_bytes_per_s: float | None
    peak_bytes_per_s: float | None
    src: Source


@dataclass(frozen=True)
class AllReduce:
    """An engine's all-reduce kernel over a link, measured by message size: (bytes per GPU, seconds) points."""

    key: str
    engines: tuple
    interconnects: tuple
    tp: int
    points: tuple                       # ((bytes, seconds), ...)
    src: Source


@dataclass(frozen=True)
class Fit:
    """A set of constants this site fits to published data: named, with where the fit and its data are."""

    key: str
    name: str
    src: Source


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
    kv_bandwidth: dict = field(default_factory=dict)
    allreduce: dict = field(default_factory=dict)
    fits: dict = field(default_factory=dict)
    allocators: dict = field(default_factory=dict)   # engines' paged allocators (perf/engine_memory.py)

    def kv_family(self, device: str) -> KVBandwidth | None:
        """The KV-bandwidth family a device belongs to, or None (a device no measurement calibrates)."""
        return next((f for f in self.kv_bandwidth.values() if device in f.devices), None)

    def allreduce_for(self, engine: str, interconnect: str) -> AllReduce | None:
        return next((a for a in self.allreduce.values() if engine in a.engines and interconnect in a.interconnects), None)


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
    model = V.one_of(e, "model", V.required(e, raw, "model", str), models)
    dep = V.required(e, raw, "deployment", dict)
    device = V.one_of(e, "deployment.device", V.required(e, dep, "device", str), devices, "device")
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
        bool(V.optional(e, raw, "precision_published", bool, True)), _engine(e, dep),
        V.optional(e, dep, "ep_groups", int, 0))


MEASUREMENT_ENGINES = ("vllm", "sglang", "trtllm", "generic")


def _engine(e, dep):
    engine = V.optional(e, dep, "engine", str, "generic")
    if engine not in MEASUREMENT_ENGINES:
        raise DataError(e, "deployment.engine", f"unknown engine {engine!r}; use one of {MEASUREMENT_ENGINES}")
    return engine


def _kv_bandwidth(key, raw, cat):
    e = f"kv_bandwidth.{key}"
    devices = V.required(e, raw, "devices", list)
    for d in devices:
        V.one_of(e, "devices", d, cat.devices)
    vendor = V.required(e, raw, "vendor", str)
    if vendor not in VENDORS:
        raise DataError(e, "vendor", f"unknown vendor {vendor!r}; use one of {VENDORS}")
    slopes = []
    for i, sl in enumerate(V.optional(e, raw, "slopes", list, [])):
        f = f"slopes[{i}]"
        if not isinstance(sl, dict):
            raise DataError(e, f, f"expected a table, got {sl!r}")
        dev = V.one_of(e, f"{f}.device", V.required(e, sl, "device", str), cat.devices)
        model = V.required(e, sl, "model", str)
        if model not in cat.models or cat.models[model].arch is None:
            raise DataError(e, f"{f}.model", f"unknown model {model!r} (a catalog model with a config)")
        prec = V.precision(e, f"{f}.kv_precision", V.required(e, sl, "kv_precision", str))
        ms = V.positive(e, f"{f}.ms_per_token", V.required(e, sl, "ms_per_token", float))
        slopes.append(Slope(dev, model, prec, ms / 1e3))
    got = V.optional(e, raw, "achieved_bytes_per_s", float)
    peak = V.optional(e, raw, "peak_bytes_per_s", float)
    if not slopes and (got is None or peak is None):
        raise DataError(e, "slopes", "missing: give published slopes, or achieved_bytes_per_s and peak_bytes_per_s")
    if got is not None and (peak is None or not 0 < got <= peak):
        raise DataError(e, "achieved_bytes_per_s", "must be positive and at most peak_bytes_per_s")
    return KVBandwidth(key, tuple(devices), vendor, tuple(slopes), got, peak, V.source(e, raw))


def _allreduce(key, raw, cat):
    e = f"allreduce.{key}"
    engines = tuple(V.required(e, raw, "engines", list))
    links = tuple(V.one_of(e, "interconnects", i, cat.interconnects) for i in V.required(e, raw, "interconnects", list))
    points = []
    for p in V.required(e, raw, "points", list):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, (int, float)) and x > 0 for x in p)):
            raise DataError(e, "points", f"each point is [bytes, seconds], both positive; got {p!r}")
        points.append((float(p[0]), float(p[1])))
    if len(points) < 2:
        raise DataError(e, "points", "at least two points: a latency and a bandwidth are fitted to them")
    return AllReduce(key, engines, links, V.positive(e, "tp", V.required(e, raw, "tp", int)), tuple(points), V.source(e, raw))


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
        {k: _kv_bandwidth(k, v, cat) for k, v in raw["kv_bandwidth"].items()},
        {k: _allreduce(k, v, cat) for k, v in raw["allreduce"].items()},
        {k: Fit(k, V.required(f"fits.{k}", v, "name", str), V.source(f"fits.{k}", v)) for k, v in raw["fits"].items()},
        {k: _allocator(k, v) for k, v in raw.get("allocators", {}).items()},
    )


def load_text(text: str, cat=None, path: str = PATH) -> Serving:
    """Parse and validate against the catalog; an error names file and line."""
    return V.load_toml(text, path, lambda raw: parse(raw, cat or C.load()))


def text() -> str:
    """The packaged serving.toml, as text."""
    return resources.files("calculators.data").joinpath("serving.toml").read_text(encoding="utf-8")


def load() -> Serving:
    """The packaged serving data, validated against the packaged catalog, once per version of either file
    (as catalog.load: the data parsed before stands where the file cannot be looked at)."""
    global _LOADED
    stamp, cat = C._stamp("serving.toml"), C.load()
    if _LOADED is None or _LOADED[1] is not cat or (stamp is not None and stamp != _LOADED[0]):
        _LOADED = (stamp, cat, load_text(text(), cat))
    return _LOADED[2]


_LOADED: tuple | None = None     # (the file's stamp, the catalog it was checked against, the serving data)
