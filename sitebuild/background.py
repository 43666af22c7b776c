"""Run a function in a forked child process while the build goes on; collect its result later.

Why: the fact and translation checks (sitebuild/checks) read every page and
locale file, about a fifth of what the site adds to a bare MkDocs build.
They need nothing the build produces, so the build hook starts them when the
build starts and waits for them before any translated page is built (which
needs their translation statuses): on a machine with a second core they cost
the build almost no time. A fork, not a new interpreter, because the child
then starts at once with every module already imported and pays no imports
again. Where there is no fork (Windows), the function runs at once, inline.
Standard library only.
"""

from __future__ import annotations

import os
import pickle
import traceback


class BackgroundError(RuntimeError):
    """The function raised in the child; the message carries its traceback."""


class Forked:
    """`job = Forked(fn)` starts fn() in a child process; `job.result()` waits for it and returns its value."""

    def __init__(self, fn):
        self._pid = self._fd = None
        if not hasattr(os, "fork"):
            self._inline = _call(fn)
            return
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running the parent's exit handlers
            os.close(read_fd)
            try:
                with os.fdopen(write_fd, "wb") as out:
                    out.write(pickle.dumps(_call(fn)))
            finally:
                os._exit(0)
        os.close(write_fd)
        self._pid, self._fd = pid, read_fd

    def result(self):
        if self._pid is None:
            ok, value = self._inline
        else:
            with os.fdopen(self._fd, "rb") as data:
                payload = data.read()
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
            if not payload:
                raise BackgroundError(f"the child process ended without a result (wait status {status})")
            ok, value = pickle.loads(payload)
        if not ok:
            raise BackgroundError(value)
        return value

    def discard(self) -> None:
        """Wait for the child and drop its result (a build that stopped before asking for it)."""
        if self._pid is not None:
            try:
                self.result()
            except BackgroundError:
                pass


def _call(fn) -> tuple:
    try:
        return True, fn()
    except BaseException:  # noqa: BLE001 - everything goes back to the parent, which reports it
        return False, traceback.format_exc()
