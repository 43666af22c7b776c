"""Load and validate serving.toml: interconnects, platforms, engine reserve,
achieved-bandwidth efficiency, speculative acceptance rates and measurements
with published deployments.

Same rules as catalog.toml (catalog._source checks source, kind, url,
accessed, confidence), and errors name file, line, entry and field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..arch.precision import PRECISIONS
from . import catalog as C
from .catalog import CatalogError, Source, _measured_range, _opt, _positive, _req, _source

SECTIONS = ("interconnects", "platforms", "engines", "efficiency", "acceptance", "measurements")


@dataclass(frozen=True)
class Interconnect:
    """A device-to-device link: bandwidth per device and direction, latency per message.

    None means unpublished; `unpublished` says what is missing and why.
    """

    key: str
    name: str
    bytes_per_s: float | None
    latency_s: float | None
    src: Source
    unpublished: str = ""
    latency_src: Source | None = None   # the measurement latency_s comes from (no datasheet states it)
    latency_note: str = ""              # what was measured: message size, GPU count, software


@dataclass(frozen=True)
class Platform:
    """How a device is sold and wired: devices per node and the link between them."""

    device: str
    node_size: int
    interconnect: str
    src: Source


@dataclass(frozen=True)
class Engine:
    """A serving engine's memory reserve: the share of device memory it lets weights and KV use."""

    key: str
    name: str
    usable_fraction: float
    devices: tuple[str, ...]
    src: Source


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


@dataclass(frozen=True, eq=False)
class Serving:
    """The loaded serving data, compared and hashed by identity (as catalog.Catalog)."""

    interconnects: dict
    platforms: dict
    engines: dict
    efficiency: dict
    acceptance: dict
    measurements: dict

    @property
    def latencies(self) -> dict:
        """Links whose per-message latency is measured, as figure inputs (`latencies.<link>`): a
        latency's source is the measurement's (latency_src), not the link's datasheet."""
        return {k: _LatencyRecord(i.name, i.latency_src)
                for k, i in self.interconnects.items() if i.latency_src is not None}


@dataclass(frozen=True)
class _LatencyRecord:
    name: str
    src: Source


def _fraction(entry, name, value):
    if not 0 < value <= 1:
        raise CatalogError(entry, name, f"must be in (0, 1], got {value!r}")
    return value


def _interconnect(key, raw):
    e = f"interconnects.{key}"
    bw = _positive(e, "bytes_per_s", _opt(e, raw, "bytes_per_s", float))
    lat = _positive(e, "latency_s", _opt(e, raw, "latency_s", float))
    why = _opt(e, raw, "unpublished", str, "").strip()
    if (bw is None or lat is None) and not why:
        raise CatalogError(e, "unpublished", "bandwidth or latency missing: say in `unpublished` what is not published")
    lat_src, lat_note = None, ""
    if lat is not None:
        # the latency is a measurement, not the datasheet's: it carries its own source (latency_source, ...)
        sub = {k[len("latency_"):]: v for k, v in raw.items() if k.startswith("latency_") and k != "latency_s"}
        if "source" not in sub:
            raise CatalogError(e, "latency_source", "a latency needs the measurement it comes from (latency_source, latency_url, ...)")
        try:
            lat_src = _source(e, sub)
        except CatalogError as err:   # name the field as the file spells it
            raise CatalogError(e, f"latency_{err.field}", err.problem) from None
        lat_note = _req(e, raw, "latency_note", str).strip()
        if not lat_note:
            raise CatalogError(e, "latency_note", "say what was measured: message size, GPU count, software")
    return Interconnect(key, _req(e, raw, "name", str), bw, lat, _source(e, raw), why, lat_src, lat_note)


def _platform(key, raw, devices, links):
    e = f"platforms.{key}"
    if key not in devices:
        raise CatalogError(e, "(key)", f"unknown device {key!r}")
    link = _req(e, raw, "interconnect", str)
    if link not in links:
        raise CatalogError(e, "interconnect", f"unknown interconnect {link!r}")
    return Platform(key, _positive(e, "node_size", _req(e, raw, "node_size", int)), link, _source(e, raw))


def _engine(key, raw, devices):
    e = f"engines.{key}"
    devs = tuple(_req(e, raw, "devices", list))
    for d in devs:
        if d not in devices:
            raise CatalogError(e, "devices", f"unknown device {d!r}")
    frac = _fraction(e, "usable_fraction", _req(e, raw, "usable_fraction", float))
    return Engine(key, _req(e, raw, "name", str), frac, devs, _source(e, raw))


def _efficiency(key, raw):
    e = f"efficiency.{key}"
    got = _positive(e, "achieved_bytes_per_s", _req(e, raw, "achieved_bytes_per_s", float))
    peak = _positive(e, "peak_bytes_per_s", _req(e, raw, "peak_bytes_per_s", float))
    if got > peak:
        raise CatalogError(e, "achieved_bytes_per_s", "exceeds the peak")
    return Efficiency(key, got, peak, _source(e, raw))


def _acceptance(key, raw):
    e = f"acceptance.{key}"
    low = _fraction(e, "low", _req(e, raw, "low", float))
    high = _fraction(e, "high", _req(e, raw, "high", float))
    if high < low or high >= 1:
        raise CatalogError(e, "high", "must be at least low and below 1")
    return Acceptance(key, _req(e, raw, "family", str), _req(e, raw, "method", str), low, high, _source(e, raw))


SPEC_KINDS = ("mtp", "draft-model", "heads")


def _measurement(key, raw, models, devices):
    e = f"measurements.{key}"
    model = _req(e, raw, "model", str)
    if model not in models:
        raise CatalogError(e, "model", f"unknown model {model!r}")
    dep = _req(e, raw, "deployment", dict)
    device = _req(e, dep, "device", str)
    if device not in devices:
        raise CatalogError(e, "deployment.device", f"unknown device {device!r}")
    prec = _opt(e, raw, "weight_precision", str)
    if prec is not None and prec not in PRECISIONS:
        raise CatalogError(e, "weight_precision", f"unknown precision {prec!r}")
    spec = None
    if "speculative" in raw:
        s = _req(e, raw, "speculative", dict)
        kind = _req(e, s, "kind", str)
        if kind not in SPEC_KINDS:
            raise CatalogError(e, "speculative.kind", f"unknown kind {kind!r}; use one of {SPEC_KINDS}")
        k = _positive(e, "speculative.k", _opt(e, s, "k", int))
        mean = _opt(e, s, "mean_accepted", float)
        if mean is not None and (k is None or not 1 <= mean <= k + 1):
            raise CatalogError(e, "speculative.mean_accepted", f"must lie in [1, k + 1], got {mean!r}")
        spec = Speculation(kind, k, mean)
    low, high = _measured_range(e, raw)
    deg = lambda name: _positive(e, f"deployment.{name}", _opt(e, dep, name, int, 1))  # noqa: E731
    return PublishedMeasurement(
        key, model, _req(e, raw, "who", str), low, high, _req(e, raw, "date", str), device,
        deg("tp"), deg("pp"), deg("dp"), bool(_opt(e, dep, "ep", bool, False)), prec, spec,
        _positive(e, "context", _req(e, raw, "context", int)), _source(e, raw),
        bool(_req(e, dep, "published", bool)), bool(_opt(e, dep, "fit", bool, False)),
        bool(_opt(e, raw, "precision_published", bool, True)))


def parse(raw: dict, cat) -> Serving:
    for section in SECTIONS:
        if section not in raw:
            raise CatalogError(section, "(section)", "missing")
    links = {k: _interconnect(k, v) for k, v in raw["interconnects"].items()}
    return Serving(
        links,
        {k: _platform(k, v, cat.devices, links) for k, v in raw["platforms"].items()},
        {k: _engine(k, v, cat.devices) for k, v in raw["engines"].items()},
        {k: _efficiency(k, v) for k, v in raw["efficiency"].items()},
        {k: _acceptance(k, v) for k, v in raw["acceptance"].items()},
        {k: _measurement(k, v, cat.models, cat.devices) for k, v in raw["measurements"].items()},
    )


def load_text(text: str, cat=None, path: str = "calculators/data/serving.toml") -> Serving:
    """Parse and validate against the catalog; an error names file and line."""
    try:
        return parse(tomllib.loads(text), cat or C.load())
    except CatalogError as err:
        line = C.entry_line(text, err.entry)
        err.args = (f"{path}:{line}: {err}" if line else f"{path}: {err}",)
        raise


def text() -> str:
    """The packaged serving.toml, as text."""
    return resources.files("calculators.data").joinpath("serving.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def load() -> Serving:
    """The packaged serving data, validated against the packaged catalog, once per process."""
    return load_text(text())


def usable_fraction(serving: Serving, device: str) -> tuple[float, str]:
    """The engine reserve that applies to `device` (1.0 where no engine publishes one) and its key."""
    for eng in serving.engines.values():
        if device in eng.devices:
            return eng.usable_fraction, eng.key
    return 1.0, ""
