"""Run a function in a forked process and collect its result later.

The build's checks read the project's sources and take about as long as one
language build; on a machine with a second core they can run beside the
builds instead of before them. A forked child inherits the parent's memory,
so the function and its arguments (the macros plugin's callables among them)
need not be picklable; only the result travels back, through a pipe.

The standard library's ProcessPoolExecutor would pickle the arguments, and
threads would not help (the checks are Python code, held by the GIL).
"""

from __future__ import annotations

import multiprocessing
import os
import traceback


def available() -> bool:
    """Forking is there (Linux, macOS) and there is a second core to run on."""
    return "fork" in multiprocessing.get_all_start_methods() and (os.cpu_count() or 1) > 1


class Job:
    """A function running in a child process; `result()` waits for it."""

    def __init__(self, fn, *args):
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_run, args=(send, fn, args), daemon=True)
        self._proc.start()
        send.close()

    def result(self):
        """The function's return value; its exception (with the child's traceback) is raised here."""
        try:
            ok, value = self._recv.recv()
        except EOFError:
            self._proc.join()
            raise RuntimeError(f"the background checks ended without a result (exit code {self._proc.exitcode})") from None
        self._proc.join()
        if not ok:
            raise RuntimeError(f"the background checks failed:\n{value}")
        return value

    def cancel(self) -> None:
        if self._proc.is_alive():
            self._proc.terminate()
        self._proc.join()


def _run(send, fn, args) -> None:
    try:
        send.send((True, fn(*args)))
    except BaseException:  # noqa: BLE001 - reported in the parent with the child's traceback
        send.send((False, traceback.format_exc()))
    finally:
        send.close()


def start(fn, *args) -> Job:
    return Job(fn, *args)
