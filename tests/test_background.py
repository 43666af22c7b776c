"""sitebuild/background.py: a function run in a forked child gives back its value, or its error."""

from __future__ import annotations

import os

import pytest

from sitebuild import background


def test_the_child_computes_and_the_parent_gets_the_value():
    parent = os.getpid()
    job = background.Forked(lambda: {"pid": os.getpid(), "squares": [n * n for n in range(5)]})
    value = job.result()
    assert value["squares"] == [0, 1, 4, 9, 16]
    assert value["pid"] != parent, "the function must run in another process"


def test_an_error_in_the_child_comes_back_with_its_traceback():
    def broken():
        raise ValueError("checks could not read docs/da/decode.md")
    job = background.Forked(broken)
    with pytest.raises(background.BackgroundError, match=r"ValueError: checks could not read docs/da/decode\.md"):
        job.result()


def test_without_fork_the_function_runs_inline(monkeypatch):
    monkeypatch.delattr(os, "fork")
    job = background.Forked(lambda: os.getpid())
    assert job.result() == os.getpid()


def test_a_discarded_job_leaves_no_child_behind():
    job = background.Forked(lambda: 1)
    pid = job._pid
    job.discard()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _checks_hook():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "hooks" / "checks.py"
    spec = importlib.util.spec_from_file_location("_checks_hook_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Config:
    class plugins:  # noqa: N801 - stands in for MkDocs' plugin collection: no i18n, so never an inner build
        @staticmethod
        def get(name):
            return None


def test_render_parity_uses_what_the_checks_process_sent_back():
    """A figure rendered that the checks (in their process) did not see in the source stops the build."""
    from collections import Counter

    from mkdocs.exceptions import PluginError

    from sitebuild.checks import usage
    hook = _checks_hook()
    usage.reset()
    usage.record("da", "da/decode.md", "kv.llama70b.total.8192")
    usage.record("da", "da/decode.md", "kv.llama70b.total.8192")
    hook._state.update(figures={("da", "decode.md"): Counter({"kv.llama70b.total.8192": 1})})
    with pytest.raises(PluginError, match="1 figure"):
        hook._render_parity(_Config())
    hook._state.update(figures={("da", "decode.md"): Counter({"kv.llama70b.total.8192": 2})})
    hook._render_parity(_Config())  # as many as the source has: fine
    usage.reset()
