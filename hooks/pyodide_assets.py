"""Put the calculators' browser runtime into the built site: Pyodide's core files and our wheel.

Where they go and under which URLs is decided in sitebuild/runtime.py, which
the page macros ask too. This hook only triggers the work at the right time:
on_config checks the runtime and starts building the wheel (once per process,
in the background while the pages render), so that a missing runtime fails
the build before any page is rendered; on_post_build copies the files.

mkdocs-static-i18n runs one build per language into the same site_dir, the
other languages from inside the default build's on_post_build (with its
`building` flag set); the files are shared by all languages, so they are
copied once, by the outer build. It also writes the service worker that
keeps them for repeat visits (sitebuild/service_worker.py), after every
language is built: it lists the built pages.
"""

from __future__ import annotations

import logging
import pathlib
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sitebuild import runtime, service_worker  # noqa: E402
from sitebuild.strings import Strings  # noqa: E402
from hooks.i18n_builds import inner_build  # noqa: E402

log = logging.getLogger("mkdocs.hooks.pyodide_assets")


def on_config(config):
    try:
        runtime.info(config.extra)
    except runtime.RuntimeSetupError as exc:
        raise PluginError(f"calculators runtime: {exc}") from None
    return config


def _language_roots(config) -> dict:
    """{root folder of a language in the site ("", "en/"): its locale}, for the built languages ({} without i18n:
    the service worker then answers a page it does not keep offline with the browser's own error)."""
    languages = getattr(getattr(config.plugins.get("i18n"), "config", None), "languages", None) or ()
    return {lang.link.strip("/") + "/" if lang.link.strip("/") else "": lang.locale for lang in languages if lang.build}


@event_priority(-200)  # after the i18n plugin (-100) has built every language: the service worker lists their pages
def on_post_build(config, **kwargs):
    if inner_build(config):
        return  # an inner per-language build: the outer one copies for all languages
    try:
        rt = runtime.info(config.extra)
        written = runtime.install(pathlib.Path(config.site_dir), rt)
        strings = Strings()
        written += [p for p in [service_worker.write(pathlib.Path(config.site_dir), rt, _language_roots(config),
                                                     lambda msgid, lang: strings.get(msgid, lang))] if p]
    except (runtime.RuntimeSetupError, RuntimeError, OSError) as exc:  # the wheel build's errors arrive here
        raise PluginError(f"calculators runtime: {exc}") from None
    log.debug("calculators runtime: %d files copied", len(written))
