"""Files the build keeps in .cache/ between runs: written whole or not at all, the oldest dropped.

Why one place: the checks' result, the parsed locale catalogs, the formatted
dates and the extracted UI strings are all kept this way, and a reader of
.cache/ must never see half a file (a build stopped mid-write, or two builds
at once). Failing to write is harmless everywhere: a read-only checkout
computes the same again on the next build.
"""

from __future__ import annotations

import os
import pathlib


def write(path: pathlib.Path, data: bytes) -> bool:
    """Write `data` to `path` atomically (a temporary file, then a rename); False if it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        return True
    except OSError:
        return False


def prune(folder: pathlib.Path, pattern: str, keep: int) -> None:
    """Drop all but the `keep` newest files of `folder` matching `pattern`."""
    try:
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in files[keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
