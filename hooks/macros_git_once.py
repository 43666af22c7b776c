"""Ask git once per build process instead of once per language.

mkdocs-macros collects git facts (commit, tag, author, ...) for its `git`
page variable by running about ten git commands every time its on_config
runs, and mkdocs-static-i18n runs the whole build once per language: four
times here, a quarter of a second that `make bench` showed as the largest
single cost the macros add. The facts cannot change within one build, so the
function is wrapped in a cache. MkDocs imports hooks while it reads
mkdocs.yml, before any plugin's on_config, so even the first call is cached.
If a later mkdocs-macros renames the function, nothing breaks: the build is
only slower again.
"""

from __future__ import annotations

import functools

try:
    from mkdocs_macros import context as _context
except ImportError:  # the macros plugin is not installed: nothing to speed up
    _context = None

if _context is not None and callable(getattr(_context, "get_git_info", None)) \
        and not hasattr(_context.get_git_info, "cache_info"):
    _context.get_git_info = functools.lru_cache(maxsize=1)(_context.get_git_info)
