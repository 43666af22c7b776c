"""What readers see of the translation state: notices on translated pages, and the "Translation status" page.

Which German version each translation was made from, and what is stale,
missing or unreviewed, is computed by sitebuild/checks/staleness.py; this
module words it for readers, in the page's language (every word a UI
string, tr()).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from html import escape

from . import history
from .checks import Project, locale_checks
from .checks.staleness import (CURRENT, MISSING, ORPHAN, PLACEHOLDER, SOURCE, STALE, UNREVIEWED, PageStatus, page_names,
                               statuses)
from .strings import LANGS, SOURCE_LANG

LANGUAGE_NAMES = {"de": "Deutsch", "en": "English", "da": "Dansk", "it": "Italiano"}


def notice(state: str, tr, behind: history.Behind | None = None, german_url: str | None = None, lang: str = SOURCE_LANG) -> str | None:
    """The short localized notice a page shows, or None.

    A stale page says how many changes (commits to the German page) it is
    behind, when the history knows, and links to the German page.
    """
    if state == STALE and behind is not None and behind.commits is not None:
        from calculators.text import fmt
        from calculators.text import grammar
        n = behind.commits + (1 if behind.uncommitted else 0)
        if n:
            count = fmt.format_number(n, lang)
            if grammar.plural_category(count, lang) == "one":
                # TRANSLATORS: notice on a translated page whose German original changed once since its review.
                text = tr("This translation is one change behind the German original.")
            else:
                # TRANSLATORS: notice on a translated page; {n} is the number of changes to the German original since its review (2 or more).
                text = tr("This translation is {n} changes behind the German original.").format(n=count)
            return text + _german_link(tr, german_url)
    if state in (STALE, UNREVIEWED):
        # TRANSLATORS: shown at the top of a translated page whose German original changed since it was translated.
        return tr("This translation may be out of date: the German original has changed since it was translated.") + \
            _german_link(tr, german_url)
    if state == MISSING:
        # TRANSLATORS: shown at the top of a page that is not translated yet and is shown in German.
        return tr("This page has not been translated yet; it is shown in its German original.")
    return None


def _german_link(tr, url: str | None) -> str:
    # TRANSLATORS: link from a translation's notice to the German page it was translated from.
    label = tr("Read the German original")
    return f" [{label}]({url})" if url else ""


def notice_markdown(markdown: str, text: str) -> str:
    """The page's Markdown with the notice as an admonition right after its title."""
    block = f'!!! warning translation-notice ""\n    {text}\n'
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "\n".join(lines[:i + 1] + ["", block] + lines[i + 1:])
    return block + "\n" + markdown


def _label(state: str, tr) -> str:
    labels = {
        # TRANSLATORS: translation status of a page (status page)
        SOURCE: tr("source"),
        CURRENT: tr("up to date"),
        STALE: tr("out of date"),
        UNREVIEWED: tr("not reviewed"),
        MISSING: tr("not translated"),
        PLACEHOLDER: tr("not translated"),
        ORPHAN: tr("no German source"),
    }
    return labels[state]


def status_html(sts: list, locale_counts: dict, names: list, tr) -> str:
    """The "Translation status" page body: what it is, pages by language, then the locale files."""
    from .html_table import SCROLL_HINT, table

    langs = list(LANGS)
    by = {(s.lang, s.name): s for s in sts}
    # TRANSLATORS: status page; {sections} is a list of German section headings
    changed = tr("changed: {sections}")
    rows = []
    for name in names:
        cells = [f"<code>{escape(name)}</code>"]
        for lang in langs:
            s = by.get((lang, name)) or PageStatus(lang, name, SOURCE)
            detail = ""
            if s.changed:
                secs = ", ".join(escape(h or "–") for h, _, _ in s.changed)
                detail = "<br><small>" + escape(changed).format(sections=secs) + "</small>"
            cells.append(f'<span class="status-{s.state}">{escape(_label(s.state, tr))}</span>{detail}')
        rows.append(cells)
    hint = tr(SCROLL_HINT)
    # TRANSLATORS: the name of a table on the status page (read by screen readers)
    pages_table = table([tr("Page")] + [LANGUAGE_NAMES.get(l, l) for l in langs], rows, "translation-status",
                        tr("Translation status of each page"), hint)
    cols = [tr("Locale file"), tr("Translated"), tr("Untranslated"), tr("Fuzzy"), tr("Extra"), tr("Unused")]
    lrows = []
    for lang, c in locale_counts.items():
        values = [c.get(k, 0) for k in ("translated", "missing", "fuzzy", "extra", "unused")]
        lrows.append([f"<code>locales/{lang}.po</code>"] + [str(v) for v in values])
    # TRANSLATORS: the name of a table on the status page (read by screen readers)
    locale_table = table(cols, lrows, "locale-status", tr("Translation status of the UI strings"), hint)
    # TRANSLATORS: the first sentence of the translation status page, which is linked from the translators' documentation, not from the site's menu
    about = tr("For translators: whether each page's translation matches its current German original, and below, how many "
               "UI strings each language has translated. The command make translations lists the same with file and line.")
    return f'<p class="status-about">{escape(about)}</p>\n\n{pages_table}\n\n{locale_table}'


@dataclass(frozen=True)
class StatusData:
    """What the status page shows: every page's status, each locale file's counts, the page names."""
    statuses: tuple
    counts: dict
    names: tuple


# What this build's checks found (hooks/checks.py publishes it before the pages render): the status page
# shows it rather than computing it again. A build without the checks (SITE_CHECKS=off) computes it here.
_PUBLISHED: dict = {}


def publish(root: pathlib.Path, statuses, counts: dict) -> None:
    _PUBLISHED[pathlib.Path(root).resolve()] = StatusData(tuple(statuses), dict(counts), tuple(page_names(root)))


def status_data(root: pathlib.Path) -> StatusData:
    """What the status page shows: the build's checks' result, or computed now."""
    root = pathlib.Path(root)
    published = _PUBLISHED.get(root.resolve())
    if published is not None:
        return published
    project = Project(root)
    return StatusData(tuple(statuses(root, None, project.pages)), locale_checks(project)[1], tuple(page_names(root)))


def status_page(root: pathlib.Path, tr) -> str:
    """The "Translation status" page body, for `{{ translation_status() }}`."""
    data = status_data(root)
    return status_html(list(data.statuses), data.counts, list(data.names), tr)
