"""Load and validate the sourced catalog (catalog.toml) into typed records.

Why a validator of our own instead of a schema library: the package must run
in the browser on Pyodide with the standard library only, and the errors must
name the entry and the field so that whoever edits the TOML can fix it at once.
"""

from __future__ import annotations

import datetime as _dt
import json
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from urllib.parse import urlsplit

from ..arch import architecture as A
from .models import Model, WeightGroup, card_agrees  # noqa: F401 (re-exported)
from ..arch.precision import GROUPS, PRECISIONS

# Bits per stored value live in calculators/precision.py (re-exported here for
# the validators below and older callers).
ATTENTION_KINDS = ("gqa", "alternating_sliding", "mla", "unmodelled")
CONFIDENCE = ("high", "medium", "low")
# What kind of document a source is: a closed list, because each kind's label
# is translated through the locale files (msgctxt "source-kind") and a page
# must never show an English label inside German, Danish or Italian text.
SOURCE_KINDS = ("datasheet", "paper", "model-card", "config", "code", "vendor-page", "vendor-blog",
                "benchmark-page", "conference-talk", "press-coverage", "article", "issue-thread")


class CatalogError(ValueError):
    """A catalog entry is missing a field or holds an impossible value."""

    def __init__(self, entry: str, field_name: str, problem: str):
        self.entry, self.field, self.problem = entry, field_name, problem
        super().__init__(f"catalog entry '{entry}', field '{field_name}': {problem}")


@dataclass(frozen=True)
class Source:
    """Where a datum comes from; every record has one."""

    source: str               # the document's title, in its own language
    accessed: str
    confidence: str
    note: str = ""
    kind: str = "article"     # one of SOURCE_KINDS
    url: str = ""             # https address of the document
    url_reason: str = ""      # why there is no url (a talk without slides, ...)


@dataclass(frozen=True)
class MemoryTier:
    tier: str
    bytes: float
    bytes_per_s: float | None = None
    confidence: str = "high"


@dataclass(frozen=True)
class Device:
    key: str
    name: str
    memory: tuple[MemoryTier, ...]
    serving_tier: str
    peak_flops: dict
    src: Source
    power_w: float | None = None
    peak_flops_sparse: dict = field(default_factory=dict)

    def tier(self, name: str) -> MemoryTier:
        for t in self.memory:
            if t.tier == name:
                return t
        raise KeyError(f"device '{self.key}' has no memory tier '{name}'")

    @property
    def serving(self) -> MemoryTier:
        return self.tier(self.serving_tier)


@dataclass(frozen=True)
class Rack:
    key: str
    name: str
    device: str
    count: int
    power_w: float
    src: Source


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


@dataclass(frozen=True, eq=False)
class Catalog:
    """The loaded catalog. Compared and hashed by identity (eq=False): a pure function of a catalog can be
    cached with functools.cache, and a test's altered catalog is another object, so another key."""

    models: dict
    devices: dict
    racks: dict
    measurements: dict
    data: dict


# ---------------------------------------------------------------- validation


def _req(entry: str, raw: dict, name: str, kind):
    """Fetch a required field of the given type, or fail naming entry and field."""
    if name not in raw:
        raise CatalogError(entry, name, "missing")
    return _check_type(entry, name, raw[name], kind)


def _opt(entry: str, raw: dict, name: str, kind, default=None):
    return _check_type(entry, name, raw[name], kind) if name in raw else default


def _check_type(entry, name, value, kind):
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise CatalogError(entry, name, f"expected a number, got {value!r}")
        return float(value)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise CatalogError(entry, name, f"expected a whole number, got {value!r}")
        return value
    if not isinstance(value, kind):
        raise CatalogError(entry, name, f"expected {kind.__name__}, got {value!r}")
    return value


def _positive(entry, name, value):
    if value is not None and not value > 0:
        raise CatalogError(entry, name, f"must be greater than zero, got {value!r}")
    return value


def _source(entry: str, raw: dict) -> Source:
    accessed = _req(entry, raw, "accessed", str)
    try:
        _dt.date.fromisoformat(accessed)
    except ValueError:
        raise CatalogError(entry, "accessed", f"not an ISO date (YYYY-MM-DD): {accessed!r}") from None
    confidence = _req(entry, raw, "confidence", str)
    if confidence not in CONFIDENCE:
        raise CatalogError(entry, "confidence", f"unknown confidence {confidence!r}; use one of {CONFIDENCE}")
    source = _req(entry, raw, "source", str)
    if not source.strip():
        raise CatalogError(entry, "source", "empty")
    kind = _req(entry, raw, "kind", str)
    if kind not in SOURCE_KINDS:
        raise CatalogError(entry, "kind", f"unknown source kind {kind!r}; use one of {', '.join(SOURCE_KINDS)}")
    url, reason = _opt(entry, raw, "url", str, ""), _opt(entry, raw, "url_reason", str, "").strip()
    if url:
        problem = url_problem(url)
        if problem:
            raise CatalogError(entry, "url", problem)
    elif not reason:
        raise CatalogError(entry, "url", "missing: give the document's https address, or say in url_reason why there is none")
    return Source(source, accessed, confidence, _opt(entry, raw, "note", str, ""), kind, url, reason)


def url_problem(url: str) -> str:
    """Why `url` is not a well-formed https address, or "" (checked offline: form only, no request)."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return f"{url!r} is not an https address"
    host = parts.hostname or ""
    if "." not in host or any(c.isspace() for c in url) or host.startswith(".") or host.endswith("."):
        return f"{url!r} has no valid host name"
    return ""


def _precision(entry, name, value):
    if value not in PRECISIONS:
        raise CatalogError(entry, name, f"unknown precision {value!r}; known: {', '.join(PRECISIONS)}")
    return value


def read_config(name: str) -> dict:
    """A stored config.json of the package (calculators/configs/<name>)."""
    text = resources.files("calculators.data").joinpath("configs", name).read_text(encoding="utf-8")
    return json.loads(text)


def _model(key: str, raw: dict, configs=read_config) -> Model:
    entry = f"models.{key}"
    dtypes = _opt(entry, raw, "tensor_dtypes", dict, {})
    for g, p in dtypes.items():
        if g not in GROUPS:
            raise CatalogError(entry, f"tensor_dtypes.{g}", f"unknown tensor group; known: {', '.join(GROUPS)}")
        _precision(entry, f"tensor_dtypes.{g}", p)
    config_file = _opt(entry, raw, "config", str)
    arch = None
    if config_file:
        try:
            arch = A.from_config(configs(config_file), dtypes)
        except FileNotFoundError:
            raise CatalogError(entry, "config", f"no file calculators/configs/{config_file}") from None
        except (A.ConfigError, json.JSONDecodeError) as e:
            raise CatalogError(entry, "config", f"{config_file}: {e}") from None
    m = Model(
        key=key,
        name=_req(entry, raw, "name", str),
        max_context=_positive(entry, "max_context", _req(entry, raw, "max_context", int)),
        src=_source(entry, raw),
        card_total_params=_positive(entry, "card_total_params", _req(entry, raw, "card_total_params", float)),
        arch=arch,
        card_active_params=_positive(entry, "card_active_params", _opt(entry, raw, "card_active_params", float)),
        card_active_counts_embedding=_opt(entry, raw, "card_active_counts_embedding", bool, False),
        card_unit=_opt(entry, raw, "card_unit", float, 0.0),
        config_file=config_file,
    )
    if m.card_active_params and m.card_active_params > m.card_total_params:
        raise CatalogError(entry, "card_active_params", "exceeds card_total_params")
    if arch:
        _check_card(entry, "card_total_params", arch.total_params(), m.card_total_params, m.card_unit)
        if m.card_active_params:
            _check_card(entry, "card_active_params", arch.active_params(m.card_active_counts_embedding),
                        m.card_active_params, m.card_unit)
    return m


def _check_card(entry: str, name: str, derived: float, card: float, unit: float) -> None:
    """The config and the model card must describe the same model: a wrong config file fails here."""
    if not card_agrees(derived, card, unit):
        raise CatalogError(entry, name, f"the config gives {derived / 1e9:.2f} B parameters, the card {card / 1e9:.2f} B "
                                        "(more than 1 % apart): check the config file and the card")


def _device(key: str, raw: dict) -> Device:
    entry = f"devices.{key}"
    tiers = []
    for i, t in enumerate(_req(entry, raw, "memory", list)):
        where = f"{entry}.memory[{i}]"
        tiers.append(
            MemoryTier(
                tier=_req(where, t, "tier", str),
                bytes=_positive(where, "bytes", _req(where, t, "bytes", float)),
                bytes_per_s=_positive(where, "bytes_per_s", _opt(where, t, "bytes_per_s", float)),
                confidence=_opt(where, t, "confidence", str, "high"),
            )
        )
    if not tiers:
        raise CatalogError(entry, "memory", "needs at least one memory tier")
    peaks = {}
    for name in ("peak_flops", "peak_flops_sparse"):
        table = _opt(entry, raw, name, dict, {})
        for prec, value in table.items():
            _precision(entry, f"{name}.{prec}", prec)
            peaks.setdefault(name, {})[prec] = _positive(entry, f"{name}.{prec}", _check_type(entry, f"{name}.{prec}", value, float))
    d = Device(
        key=key,
        name=_req(entry, raw, "name", str),
        memory=tuple(tiers),
        serving_tier=_req(entry, raw, "serving_tier", str),
        peak_flops=peaks.get("peak_flops", {}),
        peak_flops_sparse=peaks.get("peak_flops_sparse", {}),
        power_w=_positive(entry, "power_w", _opt(entry, raw, "power_w", float)),
        src=_source(entry, raw),
    )
    try:
        serving = d.serving
    except KeyError:
        raise CatalogError(entry, "serving_tier", f"names no tier in memory: {d.serving_tier!r}") from None
    if serving.bytes_per_s is None:
        raise CatalogError(entry, "serving_tier", "the serving tier needs bytes_per_s")
    return d


def _rack(key: str, raw: dict, devices: dict) -> Rack:
    entry = f"racks.{key}"
    device = _req(entry, raw, "device", str)
    if device not in devices:
        raise CatalogError(entry, "device", f"unknown device {device!r}")
    return Rack(
        key=key,
        name=_req(entry, raw, "name", str),
        device=device,
        count=_positive(entry, "count", _req(entry, raw, "count", int)),
        power_w=_positive(entry, "power_w", _req(entry, raw, "power_w", float)),
        src=_source(entry, raw),
    )


def _measurement(key: str, raw: dict, models: dict, devices: dict) -> Measurement:
    entry = f"measurements.{key}"
    model = _req(entry, raw, "model", str)
    if model not in models:
        raise CatalogError(entry, "model", f"unknown model {model!r}")
    dep = _req(entry, raw, "deployment", dict)
    device = _req(f"{entry}.deployment", dep, "device", str)
    if device not in devices:
        raise CatalogError(entry, "deployment.device", f"unknown device {device!r}")
    low, high = _measured_range(entry, raw)
    conf = _req(entry, raw, "deployment_confidence", str)
    if conf not in CONFIDENCE:
        raise CatalogError(entry, "deployment_confidence", f"unknown confidence {conf!r}")
    return Measurement(
        key=key,
        model=model,
        who=_req(entry, raw, "who", str),
        low=low,
        high=high,
        date=_req(entry, raw, "date", str),
        device=device,
        count=_positive(entry, "deployment.count", _req(f"{entry}.deployment", dep, "count", int)),
        deployment_confidence=conf,
        src=_source(entry, raw),
    )


def _measured_range(entry: str, raw: dict) -> tuple[float, float]:
    """A measured speed's low and high ends (equal for a single value), both positive, low first."""
    low = _positive(entry, "low", _req(entry, raw, "low", float))
    high = _positive(entry, "high", _req(entry, raw, "high", float))
    if high < low:
        raise CatalogError(entry, "high", "is below low")
    return low, high


def _datum(key: str, raw: dict) -> Datum:
    entry = f"data.{key}"
    value = _req(entry, raw, "value", list)
    if len(value) != 2:
        raise CatalogError(entry, "value", "expected [low, high]")
    low, high = (_positive(entry, "value", _check_type(entry, "value", v, float)) for v in value)
    if high < low:
        raise CatalogError(entry, "value", "high is below low")
    return Datum(key, low, high, _req(entry, raw, "unit", str), _req(entry, raw, "what", str), _source(entry, raw))


def _not_split_key(entry: str, value) -> None:
    """TOML reads [models.llama-3.1-8b] as nested tables; say so instead of 'field missing'."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        raise CatalogError(entry, "(key)", "holds only sub-tables: a key with a dot must be quoted, e.g. [models.\"llama-3.1-8b\"]")


def parse_catalog(raw: dict) -> Catalog:
    """Validate a parsed TOML document and build the catalog records."""
    for section in ("models", "devices", "racks", "measurements", "data"):
        if section not in raw:
            raise CatalogError(section, "(section)", "missing")
    for section in ("models", "devices", "racks", "measurements", "data"):
        for key, value in raw[section].items():
            _not_split_key(f"{section}.{key}", value)
    models = {k: _model(k, v) for k, v in raw["models"].items()}
    devices = {k: _device(k, v) for k, v in raw["devices"].items()}
    racks = {k: _rack(k, v, devices) for k, v in raw["racks"].items()}
    measurements = {k: _measurement(k, v, models, devices) for k, v in raw["measurements"].items()}
    data = {k: _datum(k, v) for k, v in raw["data"].items()}
    return Catalog(models, devices, racks, measurements, data)


def load_text(text: str, path: str = "calculators/data/catalog.toml") -> Catalog:
    """Parse and validate; an error names file and line of the entry it concerns."""
    try:
        return parse_catalog(tomllib.loads(text))
    except CatalogError as err:
        line = entry_line(text, err.entry)
        err.args = (f"{path}:{line}: {err}" if line else f"{path}: {err}",)
        raise


def entry_line(text: str, entry: str) -> int:
    """The line of the table header `[section.key]` (key quoted or not), or 0."""
    section, _, key = entry.partition(".")
    key = key.split(".deployment")[0]
    wanted = {f"[{section}.{key}]", f'[{section}."{key}"]'}
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() in wanted:
            return n
    return 0


@lru_cache(maxsize=1)
def load() -> Catalog:
    """The packaged catalog, parsed once per process (it never changes at run time)."""
    text = resources.files("calculators.data").joinpath("catalog.toml").read_text(encoding="utf-8")
    return load_text(text)
