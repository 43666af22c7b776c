"""Addresses a reader may try that the language layout would leave unanswered (sitebuild/addresses.py says
which and why): /de/ and /de/<page>/ send the reader to the German pages at the root, and a one-language
preview's 404 page says that the other languages are not built."""

from __future__ import annotations

import pathlib
import sys

from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild import addresses  # noqa: E402
from hooks.i18n_builds import inner_build  # noqa: E402
from sitebuild.strings import Strings  # noqa: E402


@event_priority(-200)  # after the i18n plugin (-100) has built every language (and after hooks/root_404.py: listed later)
def on_post_build(config, **kwargs):
    i18n = config.plugins.get("i18n")
    if i18n is None or inner_build(config):
        return
    site = pathlib.Path(config.site_dir)
    strings = Strings()
    preview = getattr(i18n.config, "build_only_locale", None)
    if preview:
        page = site / "404.html"
        if page.is_file():
            names = {lang.locale: lang.name for lang in i18n.config.languages}
            note = strings.get(addresses.PREVIEW_NOTE, preview).format(language=names.get(preview, preview))
            page.write_text(addresses.with_preview_note(page.read_text(encoding="utf-8"), note), encoding="utf-8")
        return
    if any(lang.default and lang.build and lang.locale == "de" for lang in i18n.config.languages):
        addresses.write_german_redirects(site, pathlib.Path(config.docs_dir), config.site_url or "/",
                                         strings.get(addresses.CONTINUE, "de"))
