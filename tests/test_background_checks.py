"""The checks' background process (sitebuild/checks/background.py): a result comes back, a failure
is not swallowed, and arguments need not be picklable (the macros plugin's callables are not)."""

from __future__ import annotations

import pytest

from sitebuild.checks import background

pytestmark = pytest.mark.skipif(not background.available(), reason="no fork or a single core: the checks run in the build process")


def test_a_result_comes_back_and_unpicklable_arguments_are_fine():
    job = background.start(lambda f, n: f(n) + 1, lambda n: n * 2, 20)   # lambdas cannot be pickled
    assert job.result() == 41


def test_an_exception_in_the_child_is_raised_in_the_parent_with_its_traceback():
    def broken():
        raise ValueError("catalog.toml:12: no such field")
    with pytest.raises(RuntimeError, match="catalog.toml:12: no such field"):
        background.start(broken).result()


def test_a_child_that_dies_without_a_result_is_reported():
    import os
    with pytest.raises(RuntimeError, match="without a result"):
        background.start(os._exit, 3).result()


def test_cancel_stops_a_running_child():
    import time
    job = background.start(time.sleep, 60)
    started = time.monotonic()
    job.cancel()
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("parallel", ["on", "off"])
def test_a_fault_fails_the_build_with_file_and_line_either_way(site_proj, tmp_path, parallel):
    """Beside the build or before it, a hand-typed number stops `mkdocs build` and names its line."""
    import re
    from checkutil import build, edit_line, prose_line
    page = site_proj / "docs" / "en" / "about.md"
    n = prose_line(page, start=5)
    edit_line(page, n, lambda s: s + " It costs 4711 euros.")
    proc = build(site_proj, tmp_path / "site", {"SITE_CHECKS_PARALLEL": parallel, "SITE_CHECKS_CACHE": "off", "SITE_LANG": "en"})
    assert proc.returncode != 0
    assert re.search(rf"^docs/en/about\.md:{n}: error: hand-typed number '4711'", proc.stderr, re.M), proc.stderr[-2000:]


def test_a_page_that_stops_the_build_first_still_gets_the_checks_findings(site_proj, tmp_path):
    """A broken placeholder makes mkdocs-macros exit (code 100) while the checks still run beside the
    build; their finding, with file and line, is printed on the way out."""
    import re
    from checkutil import build
    po = site_proj / "locales" / "da.po"
    text = po.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(text, 1) if line.startswith('msgstr "Ved {context} tokens og batch'))
    text[n - 1] = text[n - 1].replace("{context}", "{oops}", 1)
    po.write_text("\n".join(text) + "\n", encoding="utf-8")
    proc = build(site_proj, tmp_path / "site", {"SITE_CHECKS_CACHE": "off"})
    assert proc.returncode != 0
    assert re.search(r"^locales/da\.po:\d+: error: placeholders .*\[po-placeholder\]$", proc.stderr, re.M), proc.stderr[-2000:]
