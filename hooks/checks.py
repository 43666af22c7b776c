"""Build hook: run the fact and translation checks once per build, and put translation notices on pages.

The adapter between MkDocs and sitebuild/checks (which knows nothing of
MkDocs). mkdocs-static-i18n re-runs the whole build once per language from
its on_post_build; those inner builds are recognised by the plugin's
`building` flag and skipped, so the checks run once per `mkdocs build` (and
once per rebuild under `mkdocs serve`).

- on_pre_build: every check; problems print as `path:line: error: ...`
  (plus GitHub annotations when GITHUB_ACTIONS=true); an error stops the build.
  SITE_CHECKS=off skips them (for `make bench`'s comparison, or a quick look).
- on_page_markdown: a stale or unreviewed translation, or a page shown in
  German because its translation is missing, gets a short notice in the
  page's language (a stale one says how many changes behind the German
  page it is, from git, and links to it).
- on_post_build: the figures the macros rendered must be the ones the checks
  read on the sources (nothing reached a page around them).

A result without errors is kept by the digest of everything the checks read
(sitebuild/checks/cache.py): an unchanged project does not run them again.
SITE_CHECKS_CACHE=off runs them every time (`make bench` reports both). They
run before the pages are built, in the build's process: their result also
feeds the translation notices and the status page, and under `mkdocs serve`
what they read stays parsed between rebuilds.
"""

from __future__ import annotations

import os
import pathlib
import sys
from collections import Counter
from html import escape

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hooks.data_errors import one_line  # noqa: E402
from hooks.i18n_builds import inner_build  # noqa: E402

with one_line():
    from sitebuild import checks, translations  # noqa: E402
    from sitebuild.checks import cache, staleness, usage  # noqa: E402
    from sitebuild.strings import LANGS, SOURCE_LANG, Strings  # noqa: E402

_STRINGS = Strings()
_state: dict = {}
_serving = {"on": False}     # under `mkdocs serve`: errors are shown on every page instead of stopping the build


def on_startup(command, dirty, **kwargs):
    _serving["on"] = command == "serve"


def _flag(name: str) -> bool:
    return os.environ.get(name, "on").strip().lower() not in ("off", "0", "false", "no")


def _enabled() -> bool:
    return _flag("SITE_CHECKS")


def _languages(config) -> list:
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return [SOURCE_LANG]
    return [lang.locale for lang in i18n.config.languages if lang.build]


def _root(config) -> pathlib.Path:
    return pathlib.Path(config.config_file_path).resolve().parent


def _emit(problems, summarize=True) -> None:
    for line in checks.lines(problems, summarize=summarize):
        print(line, file=sys.stderr)


def on_pre_build(config, **kwargs):
    if inner_build(config):
        return
    root = _root(config)
    _state.clear()
    _state["root"] = root
    usage.reset()
    if not _enabled():
        return
    macros_plugin = config.plugins.get("macros")
    macros = getattr(macros_plugin, "macros", None) or None
    langs = _languages(config)
    keep = _flag("SITE_CHECKS_CACHE")
    key = cache.digest(root, langs, macros) if keep else None
    result = cache.load(root, key) if keep else None
    if result is None:
        result = _check(root, langs, macros)
    _take(result, root, key if keep else None)


def _take(result: cache.Result, root: pathlib.Path, key: str | None) -> None:
    """Report the checks' result; an error stops the build. A clean result is kept under `key`."""
    if key is not None and not checks.errors(result.problems):
        cache.store(root, key, result)
    problems = list(result.problems)
    _state["figures"] = result.page_figures
    _state.setdefault("status", {}).update({(s.lang, s.name): s for s in result.statuses})
    translations.publish(root, result.statuses, result.locale_counts)   # the status page shows what the checks found
    _emit(problems)
    errs = checks.errors(problems)
    if errs and _serving["on"]:
        # A failed rebuild would leave `mkdocs serve` answering no request until the error is fixed: the
        # pages are built and each shows the errors at its top, as the terminal does.
        _state["errors"] = list(checks.lines(errs, summarize=False))
    elif errs:
        raise PluginError(f"{len(errs)} fact or translation check error(s), listed above with file and line "
                          f"(SITE_CHECKS=off builds without the checks)")


def _check(root: pathlib.Path, langs: list, macros: dict | None) -> cache.Result:
    """Every check, and what the build needs of them afterwards (translation statuses, each page's figures)."""
    project = checks.Project(root, langs, macros)
    problems, statuses, counts = checks.run_with_statuses(project)
    return cache.Result(tuple(problems), tuple(statuses), cache.page_figures(project, checks.refs.FIGURE_MACROS), counts)


def _status(root: pathlib.Path, lang: str, name: str):
    key = (lang, name)
    cache = _state.setdefault("status", {})
    if key not in cache:
        cache[key] = staleness.page_status(root, lang, name)
    return cache[key]


def _tr(lang: str):
    def tr(msgid: str, context: str | None = None) -> str:
        try:
            return _STRINGS.get(msgid, lang, context)
        except KeyError:      # not extracted yet (`make messages`): the English msgid, reported by the checks
            return msgid
    return tr


@event_priority(-50)   # after mkdocs-macros has rendered the page
def on_page_markdown(markdown, page, config, files, **kwargs):
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return markdown
    lang = i18n.current_language
    if lang == SOURCE_LANG:
        return markdown
    root = _state.get("root") or _root(config)
    src = pathlib.PurePosixPath(page.file.src_uri)
    name = "/".join(src.parts[1:]) if src.parts and src.parts[0] in LANGS else src.as_posix()
    shown_from = getattr(page.file, "locale", lang)
    status = None if shown_from != lang else _status(root, lang, name)
    state = staleness.MISSING if status is None else status.state
    german_url = get_relative_url(_german_url(page.url or "", lang), page.url or "")
    text = translations.notice(state, _tr(lang), getattr(status, "behind", None), german_url, lang)
    return translations.notice_markdown(markdown, text) if text else markdown


def _german_url(url: str, lang: str) -> str:
    """The German page's URL for a translated page's URL ("da/decode/" -> "decode/")."""
    prefix = f"{lang}/"
    return url[len(prefix):] if url.startswith(prefix) else url


def on_post_page(output, page, config, **kwargs):
    """Under `mkdocs serve`, a build with errors shows them at the top of every page (file, line, what to do)."""
    errors = _state.get("errors")
    if not errors:
        return output
    items = "".join(f"<li><code>{escape(line)}</code></li>" for line in errors)
    banner = (f'<div class="build-errors" role="alert"><p><strong>{len(errors)} build error(s)</strong> '
              f'(fix them and save: this page rebuilds)</p><ul>{items}</ul></div>')
    head, sep, rest = output.partition("<body")
    if not sep:
        return banner + output
    tag_end = rest.index(">") + 1
    return head + sep + rest[:tag_end] + banner + rest[tag_end:]


@event_priority(-200)  # after mkdocs-static-i18n has built the other languages
def on_post_build(config, **kwargs):
    if inner_build(config) or not _enabled():
        return
    if "figures" not in _state:
        return
    problems = []
    for (lang, src_uri), ids in sorted(usage.rendered().items()):
        rel = f"docs/{src_uri}"
        parts = pathlib.PurePosixPath(src_uri).parts
        static = _state["figures"].get((parts[0], "/".join(parts[1:]))) if parts else None
        if static is None:
            continue
        extra = Counter(ids) - static
        for fid in sorted(extra):
            problems.append(checks.Problem(rel, 0, checks.ERROR, "render-parity",
                                           f"the {lang} build rendered figure {fid!r} that the checks did not see in the source: "
                                           f"write it as a literal {{{{ fig(\"{fid}\") }}}} call"))
    _emit(problems)
    if problems and not _serving["on"]:
        raise PluginError(f"{len(problems)} figure(s) reached a page around the checks, listed above")
