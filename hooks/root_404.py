"""Keep the German 404 page at the site root.

mkdocs-static-i18n builds every language into the same site folder, and each
build writes 404.html at the root: the last language built (Italian) would
win, so a German, English or Danish reader who mistypes an address would get
an Italian page. The default language's build runs first (the others run
inside its post_build); its 404 page is kept when it is rendered and written
back after all languages are built.
"""

from __future__ import annotations

import pathlib

from mkdocs.plugins import event_priority

_saved: dict = {}


def _outer(config) -> bool:
    i18n = config.plugins.get("i18n")
    return i18n is None or not getattr(i18n, "building", False)


def on_post_template(output_content, template_name, config, **kwargs):
    if template_name == "404.html" and _outer(config):
        _saved[config.site_dir] = output_content
    return output_content


@event_priority(-200)  # after the i18n plugin (-100) has built the other languages
def on_post_build(config, **kwargs):
    if _outer(config) and config.site_dir in _saved:
        (pathlib.Path(config.site_dir) / "404.html").write_text(_saved.pop(config.site_dir), encoding="utf-8")
