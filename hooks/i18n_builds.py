"""Which of mkdocs-static-i18n's builds is running.

The plugin builds the default language, then every other language from
inside that build's on_post_build, with its `building` flag set. Work done
once for all languages (checks, copying the runtime, splitting the search
index, keeping the root 404 page) runs only in the outer build; the hooks
ask here so that they cannot disagree on how to tell. (Not a hook itself:
mkdocs.yml does not list it; the hooks import it as `hooks.i18n_builds`.)
"""

from __future__ import annotations


def inner_build(config) -> bool:
    """True inside a per-language build started by the i18n plugin; False in the outer build or without i18n."""
    i18n = config.plugins.get("i18n")
    return bool(i18n is not None and getattr(i18n, "building", False))
