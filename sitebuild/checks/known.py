"""Known findings: reader-text findings whose fix is under way elsewhere, reported as warnings until then.

Why a list and not a weaker rule: the lints must stay strict, or the next
"1 Teile" slips through. Text that someone is already rewriting (the generated
tables, the catalog's source strings, the theme footer, dates) would otherwise
stop every build until then. Each entry in sitebuild/checks/known_findings.toml
names the lint (code), a quote the finding contains, optionally the files it
is in, the reason and the issue item; a finding it covers is printed as a
warning with that reason. Removing the entry makes the finding an error
again, so the list can only shrink by fixing the text.
"""

from __future__ import annotations

import fnmatch
import pathlib
import tomllib
from dataclasses import dataclass, replace

from .report import WARNING, Problem

FILE = "sitebuild/checks/known_findings.toml"


@dataclass(frozen=True)
class Known:
    code: str
    text: str              # a quote the finding's message contains ("socket", "0,00000230")
    files: tuple           # glob patterns of the files it is in; empty: any
    reason: str
    issue: str
    line: int = 0          # line of its [[known]] header

    def covers(self, p: Problem) -> bool:
        return (p.code == self.code and self.text in p.message
                and (not self.files or any(fnmatch.fnmatch(p.path, f) for f in self.files)))


def parse(text: str) -> list:
    data = tomllib.loads(text)
    headers = [n for n, line in enumerate(text.split("\n"), 1) if line.strip() == "[[known]]"]
    out = []
    for n, entry in enumerate(data.get("known", []), 1):
        missing = [k for k in ("code", "text", "reason", "issue") if not entry.get(k)]
        if missing:
            raise ValueError(f"{FILE}: entry {n} needs {', '.join(missing)}")
        out.append(Known(entry["code"], entry["text"], tuple(entry.get("files", ())), entry["reason"], entry["issue"],
                         headers[n - 1] if n <= len(headers) else 0))
    return out


def load(root: pathlib.Path) -> list:
    path = pathlib.Path(root) / FILE
    return parse(path.read_text(encoding="utf-8")) if path.exists() else []


def apply(problems: list, entries: list) -> list:
    """The problems, those a known entry covers as warnings that say why (marked with the entry's text as group)."""
    out = []
    for p in problems:
        k = next((k for k in entries if k.covers(p)), None)
        if k is None:
            out.append(p)
        else:
            out.append(replace(p, severity=WARNING, group=f"known:{k.line}",
                               message=f"{p.message} (known, {k.issue}: {k.reason})"))
    return out


def summary(problems: list, entries: list, shown: int = 3) -> list:
    """Known findings as one warning per entry, at the entry's line, with how many there are and where (the build
    log stays short); every other problem as it is."""
    out, by_entry = [], {}
    for p in problems:
        if p.group and p.group.startswith("known:") and p.severity == WARNING:
            by_entry.setdefault(int(p.group.split(":")[1]), []).append(p)
        else:
            out.append(p)
    for k in entries:
        found = by_entry.get(k.line, [])
        if not found:
            continue
        # the files, not file:line (a generated table's findings all sit on its macro's line; and the log's
        # file:line entries stay the findings' own)
        files = list(dict.fromkeys(p.path for p in found))
        where = ", ".join(files[:shown]) + (f" and {len(files) - shown} more files" if len(files) > shown else "")
        out.append(Problem(FILE, k.line, WARNING, k.code,
                           f"known finding {k.text!r}, {len(found)} time(s) in {where}; {k.reason} ({k.issue}); "
                           f"remove this entry once fixed, and the lint guards the fix"))
    return out
