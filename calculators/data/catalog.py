"""Load and validate the sourced catalog (catalog.toml) into typed records.

The catalog holds every sourced datum the model reads, once: models (each
built from its config.json), the hardware (interconnects, engines, devices and
racks: calculators/data/devices.py reads those), published measurements and
other sourced data. An error names the file, the line, the entry and the field
in one line (calculators/data/sources.py).
"""

from __future__ import annotations

import json
import functools
import os
from dataclasses import dataclass
from importlib import resources

from ..arch import config as A
from ..arch.precision import GROUPS
from . import devices as H
from . import sources as V
from .devices import Device, Engine, Interconnect, MemoryTier, Node, Rack  # noqa: F401 (the catalog's record types)
from .models import Model, WeightGroup, card_agrees  # noqa: F401
from .sources import DataError, Source

PATH = "calculators/data/catalog.toml"
SECTIONS = ("interconnects", "engines", "devices", "racks", "models", "measurements", "data")
# Sections whose names describe in English words ("NVLink 4 through NVSwitch", "vLLM (… default)") rather
# than name a product: a page translates them like UI strings, under this msgctxt (tools/messages.py).
# Model and device names are product names and stay as they are in every language.
WORDED_NAMES = {"racks": "rack-name", "engines": "entry-name", "interconnects": "entry-name"}


@dataclass(frozen=True)
class MeasuredSpeed:
    """What every published speed measurement has: who measured which model on which device, when,
    and the range (tok/s per request). The catalog's and serving.toml's records add their deployment."""

    key: str
    model: str
    who: str
    low: float
    high: float
    date: str
    device: str


@dataclass(frozen=True)
class Measurement(MeasuredSpeed):
    count: int
    deployment_confidence: str
    src: Source


@dataclass(frozen=True)
class Datum:
    """A sourced number or range that is not a model, device or measurement."""

    key: str
    low: float
    high: float
    unit: str
    what: str
    src: Source


@dataclass(frozen=True)
class LatencyRecord:
    """A link's measured per-message latency, as a figure input (`latencies.<link>`): its source is the
    measurement's, not the link's datasheet."""

    name: str
    src: Source


@dataclass(frozen=True, eq=False)
class Catalog:
    """The loaded catalog. Compared and hashed by identity (eq=False): a pure function of a catalog can be
    cached with functools.cache, and a test's altered catalog is another object, so another key."""

    models: dict
    devices: dict
    racks: dict
    measurements: dict
    data: dict
    interconnects: dict
    engines: dict

    @property
    def platforms(self) -> dict:
        """Each device's node (`platforms.<device>` as a figure input names it)."""
        return {k: d.node for k, d in self.devices.items()}

    @property
    def latencies(self) -> dict:
        """Links whose per-message latency is measured, as figure inputs (`latencies.<link>`)."""
        return {k: LatencyRecord(i.name, i.latency_src) for k, i in self.interconnects.items() if i.latency_src is not None}


# ---------------------------------------------------------------- entries


def read_config(name: str) -> dict:
    """A stored config.json of the package (calculators/data/configs/<name>)."""
    text = resources.files("calculators.data").joinpath("configs", name).read_text(encoding="utf-8")
    return json.loads(text)


def _model(key: str, raw: dict, configs=read_config) -> Model:
    entry = f"models.{key}"
    dtypes = V.optional(entry, raw, "tensor_dtypes", dict, {})
    for g, p in dtypes.items():
        if g not in GROUPS:
            raise DataError(entry, f"tensor_dtypes.{g}", f"unknown tensor group; known: {', '.join(GROUPS)}")
        V.precision(entry, f"tensor_dtypes.{g}", p)
    config_file = V.optional(entry, raw, "config", str)
    arch = None
    if config_file:
        try:
            arch = A.from_config(configs(config_file), dtypes)
        except FileNotFoundError:
            raise DataError(entry, "config", f"no file calculators/data/configs/{config_file}") from None
        except (A.ConfigError, json.JSONDecodeError) as e:
            raise DataError(entry, "config", f"{config_file}: {e}") from None
    m = Model(
        key=key,
        name=V.required(entry, raw, "name", str),
        max_context=V.positive(entry, "max_context", V.required(entry, raw, "max_context", int)),
        src=V.source(entry, raw),
        card_total_params=V.positive(entry, "card_total_params", V.required(entry, raw, "card_total_params", float)),
        arch=arch,
        card_active_params=V.positive(entry, "card_active_params", V.optional(entry, raw, "card_active_params", float)),
        card_active_counts_embedding=V.optional(entry, raw, "card_active_counts_embedding", bool, False),
        card_unit=V.optional(entry, raw, "card_unit", float, 0.0),
        config_file=config_file,
    )
    if m.card_active_params and m.card_active_params > m.card_total_params:
        raise DataError(entry, "card_active_params", "exceeds card_total_params")
    if arch:
        _check_card(entry, "card_total_params", arch.total_params(), m.card_total_params, m.card_unit)
        if m.card_active_params:
            _check_card(entry, "card_active_params", arch.active_params(m.card_active_counts_embedding),
                        m.card_active_params, m.card_unit)
    return m


def _check_card(entry: str, name: str, derived: float, card: float, unit: float) -> None:
    """The config and the model card must describe the same model: a wrong config file fails here."""
    if not card_agrees(derived, card, unit):
        raise DataError(entry, name, f"the config gives {derived / 1e9:.2f} B parameters, the card {card / 1e9:.2f} B "
                                        "(more than 1 % apart): check the config file and the card")


def _measurement(key: str, raw: dict, models: dict, devices: dict) -> Measurement:
    entry = f"measurements.{key}"
    model = V.one_of(entry, "model", V.required(entry, raw, "model", str), models)
    dep = V.required(entry, raw, "deployment", dict)
    device = V.one_of(entry, "deployment.device", V.required(f"{entry}.deployment", dep, "device", str), devices, "device")
    low, high = V.measured_range(entry, raw)
    conf = V.required(entry, raw, "deployment_confidence", str)
    if conf not in V.CONFIDENCE:
        raise DataError(entry, "deployment_confidence", f"unknown confidence {conf!r}")
    return Measurement(
        key=key,
        model=model,
        who=V.required(entry, raw, "who", str),
        low=low,
        high=high,
        date=V.required(entry, raw, "date", str),
        device=device,
        count=V.positive(entry, "deployment.count", V.required(f"{entry}.deployment", dep, "count", int)),
        deployment_confidence=conf,
        src=V.source(entry, raw),
    )


def _datum(key: str, raw: dict) -> Datum:
    entry = f"data.{key}"
    value = V.required(entry, raw, "value", list)
    if len(value) != 2:
        raise DataError(entry, "value", "expected [low, high]")
    low, high = (V.positive(entry, "value", V.check_type(entry, "value", v, float)) for v in value)
    if high < low:
        raise DataError(entry, "value", "high is below low")
    return Datum(key, low, high, V.required(entry, raw, "unit", str), V.required(entry, raw, "what", str), V.source(entry, raw))


def parse_catalog(raw: dict) -> Catalog:
    """Validate a parsed TOML document and build the catalog records."""
    for section in SECTIONS:
        if section not in raw:
            raise DataError(section, "(section)", "missing")
        if not isinstance(raw[section], dict):
            raise DataError(section, "(section)", "expected a table of entries")
        for key, value in raw[section].items():
            V.not_split_key(f"{section}.{key}", value)
            if not isinstance(value, dict):
                raise DataError(f"{section}.{key}", "(entry)", "expected a table of fields")
    links = {k: H.interconnect(k, v) for k, v in raw["interconnects"].items()}
    engines = {k: H.engine(k, v) for k, v in raw["engines"].items()}
    devices = {k: H.device(k, v, links, engines) for k, v in raw["devices"].items()}
    racks = {k: H.rack(k, v, devices) for k, v in raw["racks"].items()}
    models = {k: _model(k, v) for k, v in raw["models"].items()}
    measurements = {k: _measurement(k, v, models, devices) for k, v in raw["measurements"].items()}
    data = {k: _datum(k, v) for k, v in raw["data"].items()}
    return Catalog(models, devices, racks, measurements, data, links, engines)


def load_text(text: str, path: str = PATH) -> Catalog:
    """Parse and validate; an error names file and line of the entry it concerns."""
    return V.load_toml(text, path, parse_catalog)


def text() -> str:
    """The packaged catalog.toml, as text."""
    return resources.files("calculators.data").joinpath("catalog.toml").read_text(encoding="utf-8")


def load() -> Catalog:
    """The packaged catalog, parsed once per version of the file: an edit under `mkdocs serve` is read
    again. Where the file cannot be looked at (the browser's worker answers from its memory snapshot
    before it unpacks the wheel's files) the catalog parsed before stands: it is the packaged one."""
    global _LOADED
    stamp = _stamp("catalog.toml")
    if _LOADED is None or (stamp is not None and stamp != _LOADED[0]):
        _LOADED = (stamp, load_text(text()))
    return _LOADED[1]


_LOADED: tuple | None = None     # (the file's stamp, the catalog parsed from it)


@functools.cache
def _path(name: str) -> str:
    """Where a packaged data file is (found once: the stamp below is asked thousands of times a build)."""
    return str(resources.files("calculators.data").joinpath(name))


def _stamp(name: str) -> tuple | None:
    """(modification time, size) of a packaged data file, or None where it cannot be looked at."""
    try:
        st = os.stat(_path(name))
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
