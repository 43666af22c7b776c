"""A cache keyed by the identity of its arguments, for functions of unhashable, never-mutated objects.

The catalog, serving.toml and their models are frozen dataclasses holding dicts and
lists, so functools.lru_cache cannot hash them; a build asks the same questions of
the same loaded objects in every language. A test's altered catalog is another
object, so another key; the cached arguments are kept alive, so an id cannot be
reused while its entry exists.
"""

from __future__ import annotations

import functools


def by_identity(maxsize: int = 256):
    def wrap(fn):
        cache: dict = {}

        @functools.wraps(fn)
        def cached(*args, **kwargs):
            key = (tuple(id(a) for a in args), tuple(sorted(kwargs.items())))
            hit = cache.get(key)
            if hit is None or any(a is not b for a, b in zip(hit[0], args)):
                if len(cache) >= maxsize:
                    cache.clear()
                hit = cache[key] = (args, fn(*args, **kwargs))
            return hit[1]

        cached.cache = cache
        return cached
    return wrap
