"""Problems the checks find, and how they are shown in a terminal and in CI.

Why one small type: every check (facts, parity, locale files, staleness)
reports the same way, so the build, `make translations` and the tests read
one list. A problem names the file and line and says what to do; it prints
as `path:line: error: ...` (what editors and CI logs link), and as a GitHub
annotation (`::error file=...,line=...::...`) when GITHUB_ACTIONS=true.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    path: str            # project-relative, POSIX: docs/da/decode.md, locales/da.po
    line: int            # 1-based; 0 when the problem concerns the whole file
    severity: str        # ERROR stops the build; WARNING is reported only
    code: str            # short kind: digit, number-word, figure-parity, stale, missing, ...
    message: str         # what is wrong and what to do
    group: str | None = None   # per-entry locale findings: the build prints one summary line per group

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}: {self.message} [{self.code}]"


def errors(problems) -> list:
    return [p for p in problems if p.severity == ERROR]


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(p: Problem) -> str:
    """A GitHub Actions workflow command: the problem appears on the file's line in the PR."""
    props = f"file={_escape_property(p.path)}"
    if p.line:
        props += f",line={p.line}"
    props += f",title={_escape_property(p.code)}"
    return f"::{p.severity} {props}::{_escape_data(p.message)}"


def lines(problems, *, summarize: bool = True, annotations: bool | None = None) -> list:
    """Printable lines, errors first. With `summarize`, grouped per-entry findings become one line per file.

    The build log stays short (one line saying "locales/da.po: 40 untranslated
    entries"); `make translations` passes summarize=False to list each one.
    """
    if annotations is None:
        annotations = os.environ.get("GITHUB_ACTIONS") == "true"
    shown, groups, codes = [], Counter(), {}
    for p in sorted(problems, key=lambda p: (p.severity != ERROR, p.path, p.line)):
        if summarize and p.group and p.severity != ERROR:
            groups[(p.path, p.severity, p.group)] += 1
            codes.setdefault((p.path, p.severity, p.group), p.code)
        else:
            shown.append(p)
    for (path, severity, group), n in sorted(groups.items()):
        shown.append(Problem(path, 0, severity, codes[(path, severity, group)],
                             f"{group}: {n} (run `make translations` for the list)"))
    out = [str(p) for p in shown]
    if annotations:
        out += [github(p) for p in shown]
    return out
