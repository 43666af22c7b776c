"""The calculators' runtime in the site: where Pyodide and the wheel go, and the setting for another Pyodide.

No site build here (tests/test_browser.py serves a real one): sitebuild.runtime
and hooks/pyodide_assets.py are called directly, on a temporary site folder.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import types

import pytest

from sitebuild import runtime

ROOT = pathlib.Path(__file__).resolve().parent.parent

needs_pyodide = pytest.mark.skipif(not (runtime.PYODIDE_DIR / "pyodide.mjs").is_file(),
                                   reason="node_modules/pyodide missing (npm ci)")


def _hook():
    spec = importlib.util.spec_from_file_location("pyodide_assets_hook", ROOT / "hooks" / "pyodide_assets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_pyodide
def test_local_runtime_is_copied_once_under_versioned_and_hashed_paths(tmp_path, monkeypatch):
    monkeypatch.delenv(runtime.ENV_URL, raising=False)
    rt = runtime.info({})
    version = json.loads((runtime.PYODIDE_DIR / "package.json").read_text())["version"]
    assert rt.pyodide_url == f"pyodide/{version}/"
    assert rt.wheel_url == f"calculators/{runtime.source_digest()}/{rt.wheel.name}"
    written = runtime.install(tmp_path, rt)
    assert {p.name for p in written} == set(runtime.CORE_FILES) | {rt.wheel.name, rt.snapshot.name}
    assert runtime.install(tmp_path, rt) == [], "a second build into the same folder copies nothing"
    assert runtime.info({}).wheel == rt.wheel, "the wheel is built once per process"


def test_the_wheel_path_changes_with_the_sources(tmp_path, monkeypatch):
    """Cache busting: the URL carries a digest of what the wheel is built from."""
    for part in ("calculators/ui", "tools"):
        (tmp_path / part).mkdir(parents=True)
    for rel in ("calculators/__init__.py", "calculators/ui/worker.py", "tools/build_wheel.py", "pyproject.toml"):
        (tmp_path / rel).write_bytes((ROOT / rel).read_bytes())
    monkeypatch.setattr(runtime, "REPO", tmp_path)
    before = runtime.source_digest()
    assert before == runtime.source_digest()
    (tmp_path / "calculators" / "ui" / "worker.py").write_text("# changed\n", encoding="utf-8")
    assert runtime.source_digest() != before


def test_another_pyodide_url_is_a_documented_setting(tmp_path, monkeypatch):
    monkeypatch.setenv(runtime.ENV_URL, "https://example.org/pyodide/")
    rt = runtime.info({})
    assert rt.pyodide_url == "https://example.org/pyodide/" and rt.pyodide_dir is None
    assert [p.name for p in runtime.install(tmp_path, rt)] == [rt.wheel.name], "only the wheel is ours to copy"
    monkeypatch.delenv(runtime.ENV_URL)
    assert runtime.info({runtime.EXTRA_URL: "https://example.net/p/"}).pyodide_url == "https://example.net/p/"
    with pytest.raises(runtime.RuntimeSetupError, match="end with '/'"):
        runtime.info({runtime.EXTRA_URL: "https://example.net/p"})
    assert "pyodide_url" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_missing_pyodide_fails_with_the_fix(monkeypatch, tmp_path):
    monkeypatch.delenv(runtime.ENV_URL, raising=False)
    monkeypatch.setattr(runtime, "PYODIDE_DIR", tmp_path / "node_modules" / "pyodide")
    with pytest.raises(runtime.RuntimeSetupError, match="make setup"):
        runtime.info({})


@needs_pyodide
def test_hook_copies_in_the_outer_build_only(tmp_path, monkeypatch):
    """mkdocs-static-i18n builds the other languages from inside the default build: they must not copy again."""
    monkeypatch.delenv(runtime.ENV_URL, raising=False)
    hook = _hook()
    inner = types.SimpleNamespace(site_dir=str(tmp_path / "inner"), extra={},
                                  plugins={"i18n": types.SimpleNamespace(building=True)})
    hook.on_post_build(inner)
    assert not (tmp_path / "inner").exists()
    outer = types.SimpleNamespace(site_dir=str(tmp_path / "outer"), extra={},
                                  plugins={"i18n": types.SimpleNamespace(building=False)})
    hook.on_post_build(outer)
    assert (tmp_path / "outer" / "assets" / runtime.info({}).wheel_url).is_file()
