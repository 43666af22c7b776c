"""Give the theme's templates the site's translator (sitebuild/theme_strings.py says which strings and why).

`site_t(msgid, lang)` in a template is the msgid in `lang` from locales/<lang>.po;
overrides/partials/language.html, partials/copyright.html and 404.html call it.
The heading anchors' title is one setting for all languages in mkdocs.yml (the
toc extension's permalink_title); each page gets it in its own language here.
"""

from __future__ import annotations

import pathlib
import sys
from html import escape

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild import theme_strings  # noqa: E402
from sitebuild.strings import SOURCE_LANG, Strings  # noqa: E402

_STRINGS = Strings()


def _language(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or SOURCE_LANG


def site_t(msgid: str, lang: str) -> str:
    return _STRINGS.get(msgid, lang)


def on_env(env, config, files, **kwargs):
    env.globals["site_t"] = site_t
    env.globals["site_theme_keys"] = theme_strings.THEME_KEYS
    env.globals["site_messages"] = theme_strings
    return env


def on_page_content(html, page, config, files, **kwargs):
    configured = config.mdx_configs.get("toc", {}).get("permalink_title")
    if not configured:
        return html
    wanted = _STRINGS.get(theme_strings.PERMALINK, _language(config))
    return html.replace(f'title="{escape(configured)}"', f'title="{escape(wanted)}"')
