"""MkDocs knowledge stays in the adapter (macros.py, hooks/): the model and the checks import none of it.

So that the site can change its builder (ProperDocs today, something else
when MkDocs 1.x or Material ends) by rewriting the adapter only. Two proofs:
no import statement in calculators/ or sitebuild/ names MkDocs, its theme or
its plugins; and every module of both imports, and the checks run, in a
Python where importing any of them fails.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILDER_MODULES = ("mkdocs", "properdocs", "material", "mkdocs_static_i18n", "mkdocs_macros", "pymdownx")
PURE = ("calculators", "sitebuild")   # sitebuild/checks included


def builder_imports(path: pathlib.Path) -> list:
    """`file:line: module` for every import of a builder module in a Python file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
        found += [f"{path}:{node.lineno}: {n}" for n in names if n.split(".")[0] in BUILDER_MODULES]
    return found


def test_no_import_statement_names_the_builder():
    files = [p for part in PURE for p in (ROOT / part).rglob("*.py")]
    assert any(p.parent.name == "checks" for p in files) and len(files) > 20
    offenders = [line for p in files for line in builder_imports(p)]
    assert not offenders, "MkDocs knowledge outside the adapter:\n" + "\n".join(offenders)


def test_the_scan_finds_an_injected_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\ndef f():\n    from mkdocs.plugins import event_priority\n", encoding="utf-8")
    assert builder_imports(bad) == [f"{bad}:4: mkdocs.plugins"]
    (tmp_path / "ok.py").write_text("from . import mkdocs_free\nimport materials\n", encoding="utf-8")
    assert builder_imports(tmp_path / "ok.py") == []


BLOCKED_RUN = """
import importlib, pkgutil, sys
BLOCKED = %r
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
import calculators, sitebuild
count = 0
for package in (calculators, sitebuild):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
        count += 1
from sitebuild import checks
problems = checks.run(%r)
print(count, len(checks.errors(problems)))
"""


def test_model_and_checks_run_where_mkdocs_cannot_be_imported():
    proc = subprocess.run([sys.executable, "-c", BLOCKED_RUN % (BUILDER_MODULES, str(ROOT))], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    modules, errors = map(int, proc.stdout.split())
    assert modules > 15, proc.stdout
    assert errors == 0, "the checks found errors in the project itself"
