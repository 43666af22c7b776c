"""The layering written in the README holds: imports go one way, no module imports in a circle, none is long.

calculators/ is built in floors: text (numbers and words per locale) <- arch
(precision, layer specs, the config reader) <- data (catalog, serving data,
pasted configs) <- perf (roofline, deployment, fit, measurements) <- example
(the running example: its figures, sentences and charts as functions of it,
in the browser too) <- ui (the calculators the browser runs) <- article (the site's figures and charts, build
only). sitebuild/ (checks, tables, strings of the build) stands on all of
them. A module may import from its own floor and the floors below, never
above; an import inside a function counts the same as one at the top (a lazy
import hides a circle, it does not remove it). No module is longer than
MAX_LINES: a longer one holds two things and is split by what they are.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Lowest first. A package not named here (calculators itself) sits below every floor.
FLOORS = ("calculators.text", "calculators.arch", "calculators.data", "calculators.perf",
          "calculators.example", "calculators.ui", "calculators.article", "sitebuild")
SCANNED = ("calculators", "sitebuild", "hooks", "tools")
MAX_LINES = 400


@dataclass(frozen=True)
class Import:
    module: str      # the importing module, dotted
    target: str      # the imported module, dotted and absolute
    where: str       # file:line


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: pathlib.Path, root: pathlib.Path, known: set) -> list:
    """Every import in `path` of a module of the project (`known`), resolved to its dotted name."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import mod` imports the module pkg.mod where there is one, else names of pkg
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.append(Import(name, t, f"{path.relative_to(root)}:{node.lineno}"))
    return found


def project(root: pathlib.Path) -> tuple:
    files = [p for part in SCANNED for p in sorted((root / part).rglob("*.py")) if "__pycache__" not in p.parts]
    known = {module_name(p, root) for p in files}
    return files, [i for p in files for i in imports(p, root, known)]


def floor(module: str) -> int:
    for i, prefix in reversed(list(enumerate(FLOORS))):
        if module == prefix or module.startswith(prefix + "."):
            return i
    return -1 if module.split(".")[0] == "calculators" else len(FLOORS)


def upward(edges: list) -> list:
    return [f"{e.where}: {e.module} imports {e.target}, a floor above it ({FLOORS[floor(e.target)]}): "
            f"move what it needs down, or the importing code up"
            for e in edges if floor(e.target) > floor(e.module)]


def circles(edges: list) -> list:
    """Each import circle once, as 'a -> b -> a' with the file and line of its first step."""
    graph: dict = {}
    for e in edges:
        graph.setdefault(e.module, {}).setdefault(e.target, e.where)
    found, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt, where in sorted(graph.get(node, {}).items()):
            if state.get(nxt) == 1:
                loop = path[path.index(nxt):] + [nxt]
                found.append(f"{graph[loop[0]][loop[1]]}: import circle {' -> '.join(loop)}: "
                             f"move what both need into a module both import")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    return found


def long_modules(files: list, root: pathlib.Path) -> list:
    out = []
    for p in files:
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out.append(f"{p.relative_to(root)}:{MAX_LINES + 1}: {n} lines, more than {MAX_LINES}: "
                       f"split it by what its parts hold")
    return out


def test_imports_go_one_way():
    files, edges = project(ROOT)
    assert len(files) > 60 and any(e.module.startswith("calculators.ui") for e in edges)
    problems = upward(edges)
    assert not problems, "\n".join(problems)


def test_no_import_circle():
    problems = circles(project(ROOT)[1])
    assert not problems, "\n".join(problems)


def test_no_long_module():
    problems = long_modules(project(ROOT)[0], ROOT)
    assert not problems, "\n".join(problems)


def _tree(tmp_path: pathlib.Path, files: dict) -> pathlib.Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return tmp_path


BASE = {
    "calculators/__init__.py": "",
    "calculators/text/__init__.py": "",
    "calculators/text/fmt.py": "import math\n",
    "calculators/perf/__init__.py": "",
    "calculators/perf/roofline.py": "from ..text import fmt\n",
    "calculators/ui/__init__.py": "",
    "calculators/ui/decode.py": "from calculators.perf import roofline\n",
    "sitebuild/__init__.py": "",
    "sitebuild/checks/__init__.py": "from .report import x\n",
    "sitebuild/checks/report.py": "x = 1\n",
}


def test_a_clean_tree_passes(tmp_path):
    root = _tree(tmp_path, BASE)
    files, edges = project(root)
    assert {(e.module, e.target) for e in edges} == {
        ("calculators.perf.roofline", "calculators.text.fmt"),
        ("calculators.ui.decode", "calculators.perf.roofline"),
        ("sitebuild.checks", "sitebuild.checks.report")}
    assert upward(edges) == [] and circles(edges) == [] and long_modules(files, root) == []


def test_an_upward_import_inside_a_function_is_found(tmp_path):
    root = _tree(tmp_path, {**BASE, "calculators/text/fmt.py": "import math\n\ndef f():\n    from ..ui import decode\n"})
    problems = upward(project(root)[1])
    assert problems == ["calculators/text/fmt.py:4: calculators.text.fmt imports calculators.ui.decode, "
                        "a floor above it (calculators.ui): move what it needs down, or the importing code up"]


def test_a_circle_is_found_with_its_first_line(tmp_path):
    root = _tree(tmp_path, {**BASE, "sitebuild/checks/report.py": "x = 1\n\n\ndef g():\n    from . import y\n",
                            "sitebuild/checks/y.py": "from sitebuild import checks\n"})
    problems = circles(project(root)[1])
    assert len(problems) == 1 and "import circle" in problems[0]
    assert "sitebuild.checks -> sitebuild.checks.report -> sitebuild.checks.y -> sitebuild.checks" in problems[0]
    assert problems[0].startswith("sitebuild/checks/__init__.py:1:")


@pytest.mark.parametrize("lines,bad", [(MAX_LINES, False), (MAX_LINES + 1, True)])
def test_a_long_module_is_named(tmp_path, lines, bad):
    root = _tree(tmp_path, {**BASE, "sitebuild/long.py": "x = 1\n" * lines})
    problems = long_modules(project(root)[0], root)
    assert bool(problems) is bad
    if bad:
        assert problems[0].startswith(f"sitebuild/long.py:{MAX_LINES + 1}: {MAX_LINES + 1} lines")
