"""Everything the checks read about one project root, read once.

Why a root parameter: the tests copy the project, inject a fault into the
copy and check the copy, without MkDocs. The figures, catalog, charts and
calculators come from the imported `calculators` package (they are code);
pages, locale files and the names list come from the root.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from functools import cached_property, lru_cache

from calculators.ui import worker
from calculators.data import catalog
from calculators.article import charts
from calculators.article import figures

from ..strings import LANGS, SOURCE_LANG
from . import numbers, po, source


class Project:
    def __init__(self, root: pathlib.Path, langs=None, macros: dict | None = None):
        self.root = pathlib.Path(root)
        self.langs = tuple(langs or LANGS)
        self.source_lang = SOURCE_LANG
        self._macros = macros

    # ------------------------------------------------------------- pages
    @cached_property
    def pages(self) -> dict:
        """{lang: {name: Page}} for the checked languages and German (the source of every comparison)."""
        wanted = dict.fromkeys((self.source_lang,) + self.langs)
        return {lang: source.pages(self.root, lang) for lang in wanted}

    def all_pages(self):
        for lang in self.langs:
            yield from self.pages[lang].values()

    # ------------------------------------------------------- vocabulary
    @cached_property
    def figures(self) -> dict:
        return figures.registry()

    @cached_property
    def catalog(self):
        return catalog.load()

    @property
    def charts(self) -> dict:
        return charts.CHARTS

    @property
    def calculators(self) -> dict:
        return worker.ALL   # the four calculators and the running example's controls

    @cached_property
    def names(self):
        return numbers.names_pattern(numbers.load_names(self.root))

    @cached_property
    def macros(self) -> dict:
        """{name: function} the pages may call: given by the adapter, or read from the root's macros.py."""
        return self._macros if self._macros is not None else load_macros(self.root)

    # --------------------------------------------------------- locales
    @cached_property
    def locale_files(self) -> dict:
        """{lang: (entries, syntax errors)} of every locale file (all four: pages of any language use German keys)."""
        out = {}
        for lang in LANGS:
            path = self.root / "locales" / f"{lang}.po"
            out[lang] = po.read(path) if path.exists() else ([], [])
        return out

    @cached_property
    def source_keys(self) -> set:
        entries, _ = self.locale_files[self.source_lang]
        return {e.key for e in entries if e.msgid and not e.obsolete}

    @cached_property
    def code_strings(self) -> dict | None:
        """{(msgid, context): locations} that tools/messages.py collects, or None without the tool."""
        path = self.root / "tools" / "messages.py"
        if not path.exists():
            return None
        return _code_strings(str(self.root), _stamps(self.root))


# What tools/messages.py reads to collect the UI strings: the code, the German pages, the data files.
_STRING_SOURCES = ("macros.py", "calculators/**/*.py", "sitebuild/*.py", "docs/de/*.md", "calculators/**/*.toml")


def _stamps(root: pathlib.Path) -> tuple:
    """(path, mtime, size) of every file the UI strings come from: the key under which they are kept."""
    out = []
    for pattern in _STRING_SOURCES:
        for f in sorted(root.glob(pattern)):
            st = f.stat()
            out.append((str(f), st.st_mtime_ns, st.st_size))
    return tuple(out)


@lru_cache(maxsize=2)
def _code_strings(root: str, _stamps: tuple) -> dict:
    """The UI strings, collected once per state of their files (Babel's extraction of every module takes half
    a second; under `mkdocs serve` a page edit does not change them). Callers must not change the dict."""
    path = pathlib.Path(root) / "tools" / "messages.py"
    return _import(path, f"_site_messages_{abs(hash(root))}").collect()


def _import(path: pathlib.Path, name: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    saved = sys.path[:]
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved        # tools/messages.py puts its root first on the path; keep ours
    return module


class _Recorder:
    """Stands in for mkdocs-macros' env: records what define_env registers, renders nothing."""

    def __init__(self):
        self.macros, self.filters, self.variables, self.conf = {}, {}, {}, {}

    def macro(self, fn=None, name=None):
        if fn is None:
            return lambda f: self.macro(f, name)
        self.macros[name or fn.__name__] = fn
        return fn

    def filter(self, fn=None, name=None):
        if fn is None:
            return lambda f: self.filter(f, name)
        self.filters[name or fn.__name__] = fn
        return fn


def load_macros(root: pathlib.Path) -> dict:
    """The macros a root's macros.py defines, without MkDocs (for tools and tests)."""
    path = pathlib.Path(root) / "macros.py"
    if not path.exists():
        return {}
    module = _import(path, f"_site_macros_{abs(hash(str(path)))}")
    env = _Recorder()
    module.define_env(env)
    return env.macros
