"""The exit off MkDocs: ProperDocs builds the same site, with the same figures, in all four languages.

`make site BUILDER=properdocs` builds with ProperDocs (a maintained fork of
MkDocs 1.x) from its own pinned set in .venv-properdocs (requirements-properdocs.txt,
installed by `make test` or `make properdocs`), in which MkDocs itself is not
installed. Both builds run here with the checks on; every page of both must
carry the same figures (`data-fig` ids and the text printed for them), in
the same order.
"""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

from conftest import in_ci
from test_site import LANGS, ROOT, Tags, build_site

PD_PYTHON = ROOT / ".venv-properdocs" / "bin" / "python"
SITE_URL = "https://decode.example/"


def build_with_properdocs(out: pathlib.Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "SITE_URL": SITE_URL, "DISABLE_MKDOCS_2_WARNING": "true"}
    return subprocess.run([str(PD_PYTHON), "-m", "properdocs", "build", "--strict", "-q", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    if not PD_PYTHON.exists():
        reason = "ProperDocs is not installed (.venv-properdocs): `make properdocs`, or run `make test`"
        if in_ci():
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    mk, pd = tmp_path_factory.mktemp("mkdocs-site"), tmp_path_factory.mktemp("properdocs-site")
    proc = build_site(mk, extra_env={"SITE_URL": SITE_URL})
    assert proc.returncode == 0, f"mkdocs build failed:\n{proc.stderr}"
    proc = build_with_properdocs(pd)
    assert proc.returncode == 0, f"properdocs build failed:\n{proc.stderr}"
    return mk, pd


def figures_by_page(site: pathlib.Path) -> dict:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        if "assets" in path.relative_to(site).parts:
            continue
        tags = Tags()
        tags.feed(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = tags.figs
    return pages


def test_the_properdocs_venv_has_no_mkdocs():
    if not PD_PYTHON.exists():
        pytest.skip("ProperDocs is not installed (.venv-properdocs): `make properdocs`")
    proc = subprocess.run([str(PD_PYTHON), "-c", "import importlib.util as u; print(u.find_spec('mkdocs') is None)"],
                          capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "True", "MkDocs is installed next to ProperDocs: the build would not prove the exit"


def test_both_builders_print_the_same_figures_on_every_page(both):
    mk, pd = both
    ours, theirs = figures_by_page(mk), figures_by_page(pd)
    assert set(ours) == set(theirs), f"pages only in one build: {sorted(set(ours) ^ set(theirs))}"
    for lang in LANGS:
        prefix = "" if lang == "de" else f"{lang}/"
        pages = [p for p in ours if (p.startswith(prefix) if prefix else p.split("/")[0] not in LANGS)]
        assert sum(len(ours[p]) for p in pages) > 40, f"{lang}: too few figures for the comparison to mean anything"
    for page, figs in ours.items():
        assert figs == theirs[page], f"{page}: the figures differ between MkDocs and ProperDocs"
    generator = (pd / "index.html").read_text(encoding="utf-8")
    assert "ProperDocs" in generator, "the second build was not made by ProperDocs"
