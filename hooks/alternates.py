"""Language alternates the theme can resolve, and a sitemap under every language root.

Material for MkDocs reads every `<link rel="alternate">` in a page's head as
the root of a language version of the site and fetches `sitemap.xml` under
it, to keep the reader on the same page when the language changes.
mkdocs-static-i18n points those links at the same page in the other
languages (/en/decode/), so every page asked for /en/decode/sitemap.xml and
got a 404 in the console, four times. Here the head keeps the language roots
(/, /en/, /da/, /it/), each of which gets its own sitemap.xml (written from
the site's sitemap, sitebuild/sitemaps.py), while the language selector
keeps the plugin's per-page links (overrides/partials/alternate.html reads
them as `page_alternates`): it works without JavaScript and carries the
calculators' state. Which page is which in another language is stated for
search engines by the sitemap's hreflang links, with absolute URLs under
`site_url`.
"""

from __future__ import annotations

import pathlib
import sys
from copy import deepcopy
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild import sitemaps  # noqa: E402
from hooks.i18n_builds import inner_build  # noqa: E402


def _roots(config) -> dict:
    """Language -> the path of its root, under site_url's path (as the i18n plugin makes its links)."""
    i18n = config.plugins.get("i18n")
    base = urlsplit(config.site_url or "").path.rstrip("/")
    return {lang.locale: lang.fixed_link or f"{base}{lang.link}" for lang in i18n.config.languages if lang.build}


@event_priority(-50)  # after mkdocs-static-i18n (50) has put this page's alternates into extra.alternate
def on_page_context(context, page, config, nav, **kwargs):
    # The plugin sets `config.extra.alternate` as an attribute (which templates read first), not as an item.
    alternates = getattr(config.extra, "alternate", None) or config.extra.get("alternate")
    if config.plugins.get("i18n") is None or not alternates:
        return context
    context["page_alternates"] = deepcopy(alternates)
    roots = _roots(config)
    config.extra.alternate = [{**alt, "link": roots.get(alt["lang"], alt["link"])} for alt in alternates]
    return context


@event_priority(-200)  # after the i18n plugin (-100) has built every language and written the merged sitemap
def on_post_build(config, **kwargs):
    i18n = config.plugins.get("i18n")
    if i18n is None or inner_build(config):
        return
    site = pathlib.Path(config.site_dir)
    if (site / "sitemap.xml").exists():
        sitemaps.split(site, config.site_url, [lang for lang in _roots(config) if not _is_default(i18n, lang)])


def _is_default(i18n, locale: str) -> bool:
    return any(lang.default and lang.locale == locale for lang in i18n.config.languages)
