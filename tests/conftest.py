"""Fixtures shared by the check and translation tests: a throw-away copy of the project to break."""

import pathlib

import pytest

from checkutil import copy_project


@pytest.fixture
def proj(tmp_path) -> pathlib.Path:
    return copy_project(tmp_path / "proj")


@pytest.fixture
def site_proj(tmp_path) -> pathlib.Path:
    """A copy for a full `mkdocs build`: UI strings extracted first, as `make messages` would."""
    return copy_project(tmp_path / "proj", messages=True)
