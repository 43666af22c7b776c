"""What changed in a German page since a translation was reviewed: its git history.

Why git and not only the section hashes (sitebuild/translations.py): the
hashes say *which* sections changed; a translator also needs *what* changed
and how far behind the translation is. `make reviewed` records the commit of
the German page (`source_commit` in the translation's front matter); the
report shows the German diff since that commit for the changed sections,
and the published page says how many changes (commits touching the German
page) it is behind.

Git may be missing, the checkout shallow, or the recorded commit unknown
(a squash, a fresh shallow clone in CI): every function here then returns
None with a reason, and the callers fall back to the section hashes alone.
"""

from __future__ import annotations

import difflib
import pathlib
import subprocess
from dataclasses import dataclass
from functools import lru_cache

COMMIT_KEY = "source_commit"


@dataclass(frozen=True)
class Behind:
    commits: int | None          # commits touching the German page since the recorded one (None: unknown)
    uncommitted: bool            # the German page has edits not committed yet
    reason: str = ""             # why `commits` is unknown


def _git(root: pathlib.Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _is_repo(root: pathlib.Path) -> bool:
    return (_git(root, "rev-parse", "--is-inside-work-tree") or "").strip() == "true"


def last_commit(root: pathlib.Path, rel: str) -> str | None:
    """The last commit that touched `rel` (None outside git or for a file never committed)."""
    out = _git(root, "log", "-1", "--format=%H", "--", rel)
    return out.strip() or None if out is not None else None


def has_uncommitted(root: pathlib.Path, rel: str) -> bool:
    out = _git(root, "status", "--porcelain", "--", rel)
    return bool(out and out.strip())


def _known(root: pathlib.Path, commit: str) -> bool:
    return _git(root, "cat-file", "-e", f"{commit}^{{commit}}") is not None


def _shallow(root: pathlib.Path) -> bool:
    return (_git(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true"


def behind(root: pathlib.Path, commit, rel: str) -> Behind:
    """How many commits touched the German page `rel` since `commit`, or why that is unknown."""
    root = pathlib.Path(root)
    if not commit:
        return Behind(None, False, "no source_commit recorded yet: run `make reviewed` once the page is up to date")
    if not _is_repo(root):
        return Behind(None, False, "not a git checkout: the history is unknown")
    dirty = has_uncommitted(root, rel)
    if not _known(root, str(commit)):
        hint = " (this clone is shallow: `git fetch --unshallow` brings the history)" if _shallow(root) else \
               " (rewritten history? review the page and run `make reviewed` to record a current commit)"
        return Behind(None, dirty, f"the recorded commit {str(commit)[:12]} is not in this clone{hint}")
    out = _git(root, "rev-list", "--count", f"{commit}..HEAD", "--", rel)
    return Behind(int(out.strip()) if out else None, dirty, "" if out else "git rev-list failed")


def find_commit(root: pathlib.Path, rel: str, matches, limit: int = 50) -> str | None:
    """The newest commit whose version of `rel` satisfies `matches(text)`: for a translation reviewed
    before source_commit was recorded, the commit whose German text has the recorded hash."""
    if not _is_repo(pathlib.Path(root)):
        return None
    out = _git(pathlib.Path(root), "log", f"-{limit}", "--format=%H", "--", rel) or ""
    for commit in out.split():
        text = text_at(root, commit, rel)
        if text is not None and matches(text):
            return commit
    return None


def text_at(root: pathlib.Path, commit: str, rel: str) -> str | None:
    return _cached_show(str(root), str(commit), rel) if commit else None


@lru_cache(maxsize=64)
def _cached_show(root: str, commit: str, rel: str) -> str | None:
    return _git(pathlib.Path(root), "show", f"{commit}:{rel}")


def _section_lines(text: str) -> list:
    """[(first line number, [lines])] per section: the part before the first `## `, then one per `## `."""
    out, start, current = [], 1, []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("## ") and (current or n > 1):
            out.append((start, current))
            start, current = n, []
        current.append(line)
    out.append((start, current))
    return out


def section_diff(old_text: str, new_text: str, rel: str, commit: str, changed: list) -> list:
    """Unified-diff lines for the changed German sections, old vs now.

    `changed`: [(index now, index at the review or None)] as the section
    hashes aligned them (sitebuild/translations.py); a section without an
    old counterpart shows whole. Hunk headers carry the German page's real
    line numbers.
    """
    old, new = _section_lines(old_text), _section_lines(new_text)
    out = []
    for j, i in changed:
        if j >= len(new):
            continue
        start_new, lines_new = new[j]
        start_old, lines_old = old[i] if i is not None and i < len(old) else (0, [])
        body = list(difflib.unified_diff(lines_old, lines_new, f"{rel}@{commit[:12]}", f"{rel} (now)", lineterm="", n=1))
        if out:
            body = body[2:]          # the ---/+++ file header once per page
        for line in body:
            if line.startswith("@@"):
                line = _shift(line, start_old - 1, start_new - 1)
            out.append(line)
    return out


def _shift(header: str, old_offset: int, new_offset: int) -> str:
    """A hunk header '@@ -a,b +c,d @@' with section-relative numbers made file-relative."""
    parts = header.split()
    def move(token, offset):
        sign, rest = token[0], token[1:]
        first, _, count = rest.partition(",")
        return f"{sign}{int(first) + offset if int(first) else int(first)}" + (f",{count}" if count else "")
    return " ".join([parts[0], move(parts[1], old_offset), move(parts[2], new_offset)] + parts[3:])
