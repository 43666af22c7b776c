"""Devices, the links between them and the engines' memory reserve: catalog.toml's hardware, validated whole.

A device is one entry in calculators/data/catalog.toml with everything any
calculator needs: its memory tiers (the serving tier with its bandwidth), its
dense peaks per precision (or why none is published), its power, the engine
whose memory reserve applies (`engine`), and how it is sold (`[devices.<key>.node]`:
devices per node and the interconnect between them, with that fact's own source).
A device that lacks any of it does not load: the error names the file, the line,
the entry and the field, in one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import sources as V
from .sources import DataError, Source


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
class Engine:
    """A serving engine's memory reserve: the share of device memory it lets weights and KV cache use."""

    key: str
    name: str
    usable_fraction: float
    src: Source


@dataclass(frozen=True)
class Node:
    """How a device is sold: devices per node and the link between them (the `node` table of a device)."""

    device: str
    size: int
    interconnect: str
    src: Source

    @property
    def node_size(self) -> int:   # the name the fit search and the article's figures use
        return self.size


@dataclass(frozen=True)
class MemoryTier:
    tier: str
    bytes: float
    bytes_per_s: float | None = None
    confidence: str = "high"


@dataclass(frozen=True, eq=False)
class Device:
    key: str
    name: str
    memory: tuple[MemoryTier, ...]
    serving_tier: str
    peak_flops: dict                 # precision key -> dense FLOP/s (or OP/s for integer formats)
    src: Source
    node: Node
    engine: Engine
    link: Interconnect
    power_w: float | None = None
    peak_flops_sparse: dict = field(default_factory=dict)
    peak_unpublished: str = ""       # why there is no dense peak, where there is none
    prose: dict = field(default_factory=dict)   # how sentences name it: {"name": "H100", "en": "an", "de": "f", ...}

    def tier(self, name: str) -> MemoryTier:
        for t in self.memory:
            if t.tier == name:
                return t
        raise KeyError(f"device '{self.key}' has no memory tier '{name}'")

    @property
    def serving(self) -> MemoryTier:
        """The memory tier that holds weights and KV cache while decoding."""
        return self.tier(self.serving_tier)

    @property
    def usable_fraction(self) -> float:
        return self.engine.usable_fraction


@dataclass(frozen=True)
class Rack:
    key: str
    name: str
    device: str
    count: int
    power_w: float
    src: Source


# ---------------------------------------------------------------- readers


def interconnect(key: str, raw: dict) -> Interconnect:
    e = f"interconnects.{key}"
    bw = V.positive(e, "bytes_per_s", V.optional(e, raw, "bytes_per_s", float))
    lat = V.positive(e, "latency_s", V.optional(e, raw, "latency_s", float))
    why = V.optional(e, raw, "unpublished", str, "").strip()
    if (bw is None or lat is None) and not why:
        raise DataError(e, "unpublished", "bandwidth or latency missing: say in `unpublished` what is not published")
    lat_src, lat_note = None, ""
    if lat is not None:
        # the latency is a measurement, not the datasheet's: it carries its own source (latency_source, ...)
        sub = {k[len("latency_"):]: v for k, v in raw.items() if k.startswith("latency_") and k != "latency_s"}
        if "source" not in sub:
            raise DataError(e, "latency_source", "a latency needs the measurement it comes from (latency_source, latency_url, ...)")
        try:
            lat_src = V.source(e, sub)
        except DataError as err:   # name the field as the file spells it
            raise DataError(e, f"latency_{err.field}", err.problem) from None
        lat_note = V.required(e, raw, "latency_note", str).strip()
        if not lat_note:
            raise DataError(e, "latency_note", "say what was measured: message size, GPU count, software")
    return Interconnect(key, V.required(e, raw, "name", str), bw, lat, V.source(e, raw), why, lat_src, lat_note)


def engine(key: str, raw: dict) -> Engine:
    e = f"engines.{key}"
    frac = V.fraction(e, "usable_fraction", V.required(e, raw, "usable_fraction", float))
    return Engine(key, V.required(e, raw, "name", str), frac, V.source(e, raw))


def _tiers(entry: str, raw: dict) -> tuple:
    tiers = []
    for i, t in enumerate(V.required(entry, raw, "memory", list)):
        where = f"{entry}.memory[{i}]"
        if not isinstance(t, dict):
            raise DataError(entry, f"memory[{i}]", "expected a table { tier = ..., bytes = ..., bytes_per_s = ... }")
        tiers.append(MemoryTier(
            tier=V.required(where, t, "tier", str),
            bytes=V.positive(where, "bytes", V.required(where, t, "bytes", float)),
            bytes_per_s=V.positive(where, "bytes_per_s", V.optional(where, t, "bytes_per_s", float)),
            confidence=V.optional(where, t, "confidence", str, "high"),
        ))
    if not tiers:
        raise DataError(entry, "memory", "needs at least one memory tier")
    return tuple(tiers)


def _peaks(entry: str, raw: dict, name: str) -> dict:
    out = {}
    for prec, value in V.optional(entry, raw, name, dict, {}).items():
        V.precision(entry, f"{name}.{prec}", prec)
        out[prec] = V.positive(entry, f"{name}.{prec}", V.check_type(entry, f"{name}.{prec}", value, float))
    return out


# How a sentence names a device (the running example, calculators/example/names.py): a short name, the same in
# every language, and per language what the articles before it need, as data (never guessed from the name):
# English "a" or "an" (how the name is read aloud: "an H100", "a B200"); German gender m, f, n ("die H100",
# "der Trainium2"); Danish common (c) or neuter (n); Italian m or f, "-lo" for lo/uno, "-elide" for l'/un'.
PROSE_CLASSES = {"en": ("a", "an"), "de": ("m", "f", "n"), "da": ("c", "n"), "it": ("m", "f", "m-lo", "m-elide", "f-elide")}


def _prose(entry: str, raw: dict) -> dict:
    prose = V.optional(entry, raw, "prose", dict, {})
    if not prose:
        return {}
    out = {"name": V.required(f"{entry}.prose", prose, "name", str)}
    for lang, classes in PROSE_CLASSES.items():
        value = V.required(f"{entry}.prose", prose, lang, str)
        if value not in classes:
            raise DataError(entry, f"prose.{lang}", f"{value!r} is none of {', '.join(classes)}")
        out[lang] = value
    return out


def device(key: str, raw: dict, links: dict, engines: dict) -> Device:
    """A device entry, whole: a missing or unknown part is a DataError naming the field."""
    entry = f"devices.{key}"
    tiers = _tiers(entry, raw)
    if "peak_flops" not in raw:
        raise DataError(entry, "peak_flops", "missing: give the dense peaks per precision, e.g. { bf16 = 989e12, fp8 = 1979e12 }")
    peaks = _peaks(entry, raw, "peak_flops")
    unpublished = V.optional(entry, raw, "peak_unpublished", str, "").strip()
    if not peaks and not unpublished:
        raise DataError(entry, "peak_unpublished", "no dense peak given: say in peak_unpublished why none is published")
    engine_key = V.one_of(entry, "engine", V.required(entry, raw, "engine", str), engines)
    node_raw = V.required(entry, raw, "node", dict)
    node_entry = f"{entry}.node"
    link_key = V.one_of(node_entry, "interconnect", V.required(node_entry, node_raw, "interconnect", str), links)
    node = Node(key, V.positive(node_entry, "size", V.required(node_entry, node_raw, "size", int)), link_key,
                V.source(node_entry, node_raw))
    d = Device(
        key=key,
        name=V.required(entry, raw, "name", str),
        memory=tiers,
        serving_tier=V.required(entry, raw, "serving_tier", str),
        peak_flops=peaks,
        peak_flops_sparse=_peaks(entry, raw, "peak_flops_sparse"),
        peak_unpublished=unpublished,
        prose=_prose(entry, raw),
        power_w=V.positive(entry, "power_w", V.optional(entry, raw, "power_w", float)),
        src=V.source(entry, raw),
        node=node,
        engine=engines[engine_key],
        link=links[link_key],
    )
    try:
        serving = d.serving
    except KeyError:
        known = ", ".join(t.tier for t in tiers)
        raise DataError(entry, "serving_tier", f"names no tier in memory: {d.serving_tier!r} (tiers: {known})") from None
    if serving.bytes_per_s is None:
        raise DataError(entry, "serving_tier", "the serving tier needs bytes_per_s (its bandwidth)")
    return d


def rack(key: str, raw: dict, devices: dict) -> Rack:
    entry = f"racks.{key}"
    dev = V.one_of(entry, "device", V.required(entry, raw, "device", str), devices)
    return Rack(
        key=key,
        name=V.required(entry, raw, "name", str),
        device=dev,
        count=V.positive(entry, "count", V.required(entry, raw, "count", int)),
        power_w=V.positive(entry, "power_w", V.required(entry, raw, "power_w", float)),
        src=V.source(entry, raw),
    )
