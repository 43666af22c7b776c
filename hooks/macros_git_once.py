"""Ask git only when a page reads mkdocs-macros' `git` variable, and then once per build process.

mkdocs-macros collects git facts (commit, tag, author, ...) for its `git`
page variable by running a dozen git commands every time its on_config
runs, and mkdocs-static-i18n runs the whole build once per language: four
times here. The facts cannot change within one build, and no page of this
site reads them, so the plugin is handed a mapping that runs its function
on first use and keeps the answer (`make bench` measured the dozen git
processes at about a tenth of a second of the build). A page that does use
`{{ git.commit }}` gets the same facts as before. MkDocs imports hooks while
it reads mkdocs.yml, before any plugin's on_config, so the plugin only ever
sees the lazy version. If a later mkdocs-macros renames the function,
nothing breaks: the build is only slower again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

try:
    from mkdocs_macros import context as _context
except ImportError:  # the macros plugin is not installed: nothing to speed up
    _context = None


class LazyFacts(Mapping):
    """A read-only mapping whose content `compute()` gives on first access (then kept)."""

    def __init__(self, compute):
        self._compute = functools.lru_cache(maxsize=1)(compute)

    def __getitem__(self, key):
        return self._compute()[key]

    def __iter__(self):
        return iter(self._compute())

    def __len__(self):
        return len(self._compute())

    def __repr__(self):
        # mkdocs-macros writes every variable into a debug message at each on_pre_build, with str():
        # that must not be what runs git.
        if self._compute.cache_info().currsize:
            return repr(dict(self))
        return "<read on first use>"

    __str__ = __repr__


if _context is not None and callable(getattr(_context, "get_git_info", None)) \
        and not isinstance(getattr(_context, "_git_facts", None), LazyFacts):
    _context._git_facts = LazyFacts(_context.get_git_info)
    _context.get_git_info = lambda: _context._git_facts
