"""Fixtures shared by the tests: a throw-away copy of the project to break, and the browser's executable."""

import os
import pathlib
import sys

import pytest

from checkutil import copy_project

sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
import calc_site  # noqa: E402

# What a reader of `make test` needs to know when the browser tests did not run (pytest -ra prints it once:
# every browser test skips from the same line below).
BROWSER_HOWTO = ("browser tests skipped: no Chromium at {path}. To run them: apt-get install chromium "
                 "(Debian; .ci/run does it), or CHROMIUM_PATH=/path/to/chromium make test")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture(scope="session")
def chromium() -> pathlib.Path:
    """The Chromium executable the browser tests drive (calc_site.CHROMIUM, CHROMIUM_PATH overrides it).

    Without it every browser test skips with one line saying how to run them; under CI (CI=true) they
    fail instead, so that a CI machine without Chromium cannot pass silently.
    """
    path = calc_site.CHROMIUM
    if path.is_file() and os.access(path, os.X_OK):
        return path
    reason = BROWSER_HOWTO.format(path=path)
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this fails instead of skipping)", pytrace=False)
    _skip_browser_tests(reason)


@pytest.fixture(scope="session")
def browser(chromium):
    """One headless Chromium for every browser test of the run (each test opens its own context)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium), args=calc_site.CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def calc_site_dir(tmp_path_factory) -> pathlib.Path:
    """The calculator fixture site (tools/calc_site.py), built once for every module that drives it in the browser."""
    from test_site import build_site
    project = calc_site.project_copy(tmp_path_factory.mktemp("browser") / "project")
    out = tmp_path_factory.mktemp("browser-site")
    proc = build_site(out, project, {"SITE_CHECKS": "off"})
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture(scope="module")
def server(site):
    """The module's built site (its own `site` fixture), served on 127.0.0.1."""
    from static_server import StaticServer
    with StaticServer(site) as srv:
        yield srv


def _skip_browser_tests(reason: str) -> None:
    pytest.skip(reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Report every browser-test skip from one place, so that `pytest -ra` sums them up in one line."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and isinstance(report.longrepr, tuple) and report.longrepr[2].startswith("Skipped: browser tests"):
        report.longrepr = (os.path.relpath(__file__), _skip_browser_tests.__code__.co_firstlineno + 1, report.longrepr[2])


@pytest.fixture
def proj(tmp_path) -> pathlib.Path:
    return copy_project(tmp_path / "proj")


@pytest.fixture
def site_proj(tmp_path) -> pathlib.Path:
    """A copy for a full `mkdocs build`: UI strings extracted first, as `make messages` would."""
    return copy_project(tmp_path / "proj", messages=True)
