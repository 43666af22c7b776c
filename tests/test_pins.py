"""The pins: exact, never a pre-release, inside constraints.txt (mkdocs<2), and the two builders' sets agree."""

from __future__ import annotations

import pathlib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = pathlib.Path(__file__).resolve().parent.parent
SETS = ("requirements.txt", "requirements-properdocs.txt")


def read(name: str, root: pathlib.Path = ROOT) -> list:
    lines = (root / name).read_text(encoding="utf-8").splitlines()
    return [Requirement(line.split("#")[0].strip()) for line in lines if line.split("#")[0].strip()]


def pins(name: str, root: pathlib.Path = ROOT) -> dict:
    """{package: version}; fails on anything but `name==version`."""
    out = {}
    for req in read(name, root):
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"{name}: {req} is not pinned exactly"
        out[canonicalize_name(req.name)] = Version(specs[0].version)
    return out


def problems(root: pathlib.Path = ROOT) -> list:
    limits = {canonicalize_name(r.name): r.specifier for r in read("constraints.txt", root)}
    found = []
    for name in SETS:
        for package, version in pins(name, root).items():
            if version.is_prerelease or version.is_devrelease:
                found.append(f"{name}: {package}=={version} is a pre-release")
            if package in limits and not limits[package].contains(version):
                found.append(f"{name}: {package}=={version} breaks constraints.txt ({limits[package]})")
    return found


def test_every_pin_is_exact_final_and_within_the_constraints():
    assert problems() == []


def test_mkdocs_is_held_below_2():
    limits = {canonicalize_name(r.name): str(r.specifier) for r in read("constraints.txt")}
    assert limits["mkdocs"] == "<2"
    assert pins("requirements.txt")["mkdocs"] < Version("2")


def test_the_properdocs_set_leaves_mkdocs_out_and_agrees_with_the_main_set():
    main, pd = pins("requirements.txt"), pins("requirements-properdocs.txt")
    assert "properdocs" in pd and "mkdocs" not in pd and "mkdocs-get-deps" not in pd
    differ = {p: (main[p], pd[p]) for p in set(main) & set(pd) if main[p] != pd[p]}
    assert not differ, f"the same package pinned twice, differently: {differ}"
    for plugin in ("mkdocs-material", "mkdocs-static-i18n", "mkdocs-macros-plugin"):
        assert plugin in pd, plugin


def test_a_pre_release_or_a_mkdocs_2_pin_is_caught(tmp_path):
    for name in ("constraints.txt", *SETS):
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    main = (tmp_path / "requirements.txt").read_text(encoding="utf-8")
    (tmp_path / "requirements.txt").write_text(main.replace("mkdocs==1.6.1", "mkdocs==2.0.0rc2"), encoding="utf-8")
    found = problems(tmp_path)
    assert "requirements.txt: mkdocs==2.0.0rc2 is a pre-release" in found
    assert "requirements.txt: mkdocs==2.0.0rc2 breaks constraints.txt (<2)" in found
