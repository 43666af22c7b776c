"""Where a datum comes from, and the validation every data file shares.

Every record of the data files (catalog.toml, serving.toml) carries a `Source`:
the document's title, what kind of document it is, its address (or why there is
none), when it was read and how confident the reading is. The helpers below read
a field of the expected type or fail with a `DataError` naming the entry and the
field; `locate` adds the file and the line of the entry, so that whoever edits a
data file reads one line that says what to fix.

Why a validator of our own instead of a schema library: the package must run
in the browser on Pyodide with the standard library only.
"""

from __future__ import annotations

import datetime as _dt
import re
import tomllib
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..arch.precision import PRECISIONS

CONFIDENCE = ("high", "medium", "low")
# What kind of document a source is: a closed list, because each kind's label
# is translated through the locale files (msgctxt "source-kind") and a page
# must never show an English label inside German, Danish or Italian text.
SOURCE_KINDS = ("datasheet", "paper", "model-card", "config", "code", "vendor-page", "vendor-blog",
                "benchmark-page", "conference-talk", "press-coverage", "press-release-reprint", "article", "issue-thread",
                "this-site")   # this site's own assumption or computation: its `source` is our text, translated


class DataError(ValueError):
    """A data file's entry is missing a field or holds an impossible value.

    Its message is one line: file, line, entry, field and the problem (with what to do)."""

    def __init__(self, entry: str, field_name: str, problem: str):
        self.entry, self.field, self.problem = entry, field_name, problem
        self.path, self.line = "", 0
        super().__init__(self._text())

    def _text(self) -> str:
        where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: " if self.path else ""
        return f"{where}entry '{self.entry}', field '{self.field}': {self.problem}"

    def locate(self, path: str, text: str) -> "DataError":
        """Name the file, and the line of the entry's table header in `text`."""
        self.path, self.line = path, entry_line(text, self.entry)
        self.args = (self._text(),)
        return self


@dataclass(frozen=True)
class Source:
    """Where a datum comes from; every record has one."""

    source: str               # the document's title as published, in its own language (never translated)
    accessed: str
    confidence: str
    note: str = ""
    kind: str = "article"     # one of SOURCE_KINDS
    url: str = ""             # https address of the document
    url_reason: str = ""      # why there is no url (a talk without slides, ...)
    publisher: str = ""       # who published it (a name, never translated)
    published: str = ""       # when: "2026-05-27", "2024-09" or "2026" (each page writes it in its language)


def load_toml(text: str, path: str, parse):
    """`parse(raw)` of a data file's text; a syntax or data error names the file and the line of its entry."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DataError("(file)", "(syntax)", f"not valid TOML: {err}").locate(path, "") from None
    try:
        return parse(raw)
    except DataError as err:
        raise err.locate(path, text) from None


# ---------------------------------------------------------------- field readers


def required(entry: str, raw: dict, name: str, kind):
    """A required field of the given type, or a DataError naming entry and field."""
    if name not in raw:
        raise DataError(entry, name, "missing")
    return check_type(entry, name, raw[name], kind)


def optional(entry: str, raw: dict, name: str, kind, default=None):
    return check_type(entry, name, raw[name], kind) if name in raw else default


def check_type(entry, name, value, kind):
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise DataError(entry, name, f"expected a number, got {value!r}")
        return float(value)
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(entry, name, f"expected a whole number, got {value!r}")
        return value
    if not isinstance(value, kind):
        raise DataError(entry, name, f"expected {kind.__name__}, got {value!r}")
    return value


def positive(entry, name, value):
    if value is not None and not value > 0:
        raise DataError(entry, name, f"must be greater than zero, got {value!r}")
    return value


def fraction(entry, name, value):
    if not 0 < value <= 1:
        raise DataError(entry, name, f"must be in (0, 1], got {value!r}")
    return value


def precision(entry, name, value):
    if value not in PRECISIONS:
        raise DataError(entry, name, f"unknown precision {value!r}; known: {', '.join(PRECISIONS)}")
    return value


def one_of(entry, name, value, known, what: str | None = None, hint: str = ""):
    """A key that names another entry (a device's engine, its interconnect, a measurement's model);
    `what` names it in the message where the field's name does not ("device" for deployment.device)."""
    if value not in known:
        raise DataError(entry, name, f"unknown {what or name} {value!r}{hint}; known: {', '.join(known) or 'none'}")
    return value


def measured_range(entry: str, raw: dict) -> tuple[float, float]:
    """A measured speed's low and high ends (equal for a single value), both positive, low first."""
    low = positive(entry, "low", required(entry, raw, "low", float))
    high = positive(entry, "high", required(entry, raw, "high", float))
    if high < low:
        raise DataError(entry, "high", "is below low")
    return low, high


def source(entry: str, raw: dict) -> Source:
    accessed = required(entry, raw, "accessed", str)
    try:
        _dt.date.fromisoformat(accessed)
    except ValueError:
        raise DataError(entry, "accessed", f"not an ISO date (YYYY-MM-DD): {accessed!r}") from None
    confidence = required(entry, raw, "confidence", str)
    if confidence not in CONFIDENCE:
        raise DataError(entry, "confidence", f"unknown confidence {confidence!r}; use one of {CONFIDENCE}")
    title = required(entry, raw, "source", str)
    if not title.strip():
        raise DataError(entry, "source", "empty")
    kind = required(entry, raw, "kind", str)
    if kind not in SOURCE_KINDS:
        raise DataError(entry, "kind", f"unknown source kind {kind!r}; use one of {', '.join(SOURCE_KINDS)}")
    url, reason = optional(entry, raw, "url", str, ""), optional(entry, raw, "url_reason", str, "").strip()
    if url:
        problem = url_problem(url)
        if problem:
            raise DataError(entry, "url", problem)
    elif not reason:
        raise DataError(entry, "url", "missing: give the document's https address, or say in url_reason why there is none")
    published = optional(entry, raw, "published", str, "")
    if published and not _PUBLISHED.match(published):
        raise DataError(entry, "published", f"not a date: {published!r}; write YYYY-MM-DD, YYYY-MM or YYYY")
    return Source(title, accessed, confidence, optional(entry, raw, "note", str, ""), kind, url, reason,
                  optional(entry, raw, "publisher", str, "").strip(), published)


_PUBLISHED = re.compile(r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$")


def url_problem(url: str) -> str:
    """Why `url` is not a well-formed https address, or "" (checked offline: form only, no request)."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return f"{url!r} is not an https address"
    host = parts.hostname or ""
    if "." not in host or any(c.isspace() for c in url) or host.startswith(".") or host.endswith("."):
        return f"{url!r} has no valid host name"
    return ""


def not_split_key(entry: str, value) -> None:
    """TOML reads [models.llama-3.1-8b] as nested tables; say so instead of 'field missing'."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        raise DataError(entry, "(key)", "holds only sub-tables: a key with a dot must be quoted, e.g. [models.\"llama-3.1-8b\"]")


def entry_line(text: str, entry: str) -> int:
    """The line of the table header `[section.key]` (key quoted or not; a sub-table's own header first), or
    of `[entry]` for a table that is not a keyed entry ("split"), or 0."""
    if "." not in entry:
        return next((n for n, line in enumerate(text.splitlines(), 1) if line.strip() == f"[{entry}]"), 0)
    section, _, key = entry.partition(".")
    key = key.split(".deployment")[0]
    candidates = [key]
    if "." in key:   # a sub-table ("h100-sxm.node") or a key with a dot ("llama-3.1-8b")
        base, _, sub = key.rpartition(".")
        candidates = [key, base]
        wanted_sub = {f"[{section}.{base}.{sub}]", f'[{section}."{base}".{sub}]'}
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip() in wanted_sub:
                return n
    for k in candidates:
        wanted = {f"[{section}.{k}]", f'[{section}."{k}"]'}
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip() in wanted:
                return n
    return 0
