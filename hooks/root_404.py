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
import sys

from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hooks.i18n_builds import inner_build  # noqa: E402

_saved: dict = {}


def on_post_template(output_content, template_name, config, **kwargs):
    if template_name == "404.html" and not inner_build(config):
        _saved[config.site_dir] = output_content
    return output_content


@event_priority(-200)  # after the i18n plugin (-100) has built the other languages
def on_post_build(config, **kwargs):
    if not inner_build(config) and config.site_dir in _saved:
        (pathlib.Path(config.site_dir) / "404.html").write_text(_saved.pop(config.site_dir), encoding="utf-8")
