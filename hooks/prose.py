"""Build hook: the reader-text lints (sitebuild/checks/prose.py) on every page as rendered, and on the theme's text.

The adapter's part of the lints: only here is the rendered Markdown of a page
(after the macros wrote its figures, tables, charts and calculators) and the
theme's HTML around it. The lints themselves, the tracing of a finding back
to its source line (sitebuild/checks/rendered.py) and the known findings
(sitebuild/checks/known.py) know nothing of MkDocs.

- on_page_markdown (after mkdocs-macros, before hooks/checks.py adds its
  notice): lint the page's visible text in the language being built; a page
  shown from the German source (a missing translation) is linted in the German build.
- on_post_page / on_post_template: the theme's text around the content (header,
  navigation, footer) once per language, and the 404 page; reported at the
  `theme:` line of mkdocs.yml, where the theme and its overrides are set up.
- on_post_build (outer build): print every finding as `path:line: error: ...`;
  an error stops the build. SITE_CHECKS=off skips the lints with the checks.
"""

from __future__ import annotations

import os
import pathlib
import re
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hooks.data_errors import one_line  # noqa: E402
from hooks.i18n_builds import inner_build  # noqa: E402

with one_line():
    from sitebuild import checks  # noqa: E402
    from sitebuild.checks import known, prose, prose_context, rendered  # noqa: E402
from sitebuild.strings import LANGS, SOURCE_LANG  # noqa: E402

_state: dict = {"findings": [], "contexts": {}, "theme": set(), "theme_langs": set()}
_ARTICLE = re.compile(r"<article\b.*?</article>", re.S)


def _enabled() -> bool:
    return os.environ.get("SITE_CHECKS", "on").strip().lower() not in ("off", "0", "false", "no")


def _root(config) -> pathlib.Path:
    return pathlib.Path(config.config_file_path).resolve().parent


def _lang(config) -> str:
    i18n = config.plugins.get("i18n")
    return i18n.current_language if i18n is not None else SOURCE_LANG


def _context(config, lang: str) -> prose.Context:
    if lang not in _state["contexts"]:
        _state["contexts"][lang] = prose_context.context(_root(config), lang)
    return _state["contexts"][lang]


def on_pre_build(config, **kwargs):
    if inner_build(config):
        return
    _state.update(findings=[], contexts={}, theme=set(), theme_langs=set(), config=config)
    if _enabled():   # read now, before hooks/checks.py starts the checks' process, which then has them too
        for lang in LANGS:
            _context(config, lang)


@event_priority(-45)   # after mkdocs-macros (0), before hooks/checks.py's notice (-50)
def on_page_markdown(markdown, page, config, files, **kwargs):
    if not _enabled():
        return markdown
    lang = _lang(config)
    if getattr(page.file, "locale", lang) != lang:
        return markdown        # the German page shown for a missing translation: linted in the German build
    src = pathlib.Path(page.file.abs_src_path)
    rel = src.resolve().relative_to(_root(config)).as_posix()
    source = src.read_text(encoding="utf-8")
    _state["findings"] += rendered.check_page(rel, lang, source, markdown, _context(config, lang))
    return markdown


def _theme(config, html: str, where: str) -> None:
    """Lint the theme's text of a page once per language (every page has the same header and footer)."""
    lang = _lang(config)
    text = rendered.visible(html)
    line = _theme_line(config)
    for f in prose.lint(text, lang, _context(config, lang)):
        key = (lang, where, f.code, f.quote)
        if key not in _state["theme"]:
            _state["theme"].add(key)
            _state["findings"].append(checks.Problem("mkdocs.yml", line, checks.ERROR, f.code,
                                                     f"theme text of the {prose.LANGUAGE[lang]} {where}: {f.message}"))


def _theme_line(config) -> int:
    try:
        lines = pathlib.Path(config.config_file_path).read_text(encoding="utf-8").split("\n")
        return next(n for n, line in enumerate(lines, 1) if line.startswith("theme:"))
    except (OSError, StopIteration):
        return 0


def on_post_page(output, page, config, **kwargs):
    lang = _lang(config)
    if _enabled() and lang not in _state["theme_langs"]:   # the same header and footer on every page of a language
        _state["theme_langs"].add(lang)
        _theme(config, _ARTICLE.sub("\u00a6", output), "pages (header, navigation, footer)")
    return output


def on_post_template(output_content, template_name, config, **kwargs):
    if _enabled() and template_name == "404.html" and not inner_build(config):
        _theme(config, output_content, "404 page")     # only the German one is kept (hooks/root_404.py)
    return output_content


def _report(config) -> list:
    """Print the findings (once); returns the errors among them."""
    findings, _state["findings"] = _state["findings"], []
    entries = known.load(_root(config))
    found = known.summary(known.apply(sorted(set(findings), key=lambda p: (p.path, p.line, p.code, p.message)), entries),
                          entries)
    for line in checks.lines(found, summarize=False):
        print(line, file=sys.stderr)
    return checks.errors(found)


@event_priority(-210)  # after mkdocs-static-i18n has built the other languages, and after the checks' report
def on_post_build(config, **kwargs):
    if inner_build(config) or not _enabled():
        return
    errors = _report(config)
    if errors:
        raise PluginError(f"{len(errors)} error(s) in the text readers see, listed above with file and line "
                          f"(sitebuild/checks/prose.py says what each lint wants)")


def on_build_error(error, **kwargs):
    """Another hook stopped the build (the checks, at on_post_build): the pages' findings are printed all the same."""
    if _state.get("config") is not None and _state["findings"]:
        _report(_state["config"])
