"""Which German version each translated page was made from, and what is stale, missing or unused.

Why hashes of a normalized text (as MDN records a source commit and
Kubernetes compares structure): a translation records, in its front matter,
a hash of the German page and one per section at the time it was reviewed:

    ---
    source_hash: 1a2b3c4d5e6f
    source_sections: [0a1b2c3d, 4e5f6a7b, ...]
    source_commit: 9f8e7d6c...   # the last commit of the German page at the review
    ---

The hash covers words, figures and links, not formatting: re-wrapping a
paragraph, blank lines, list markers (- or *, 1. or 3.), emphasis markers
and the spacing or quoting inside a macro call leave it unchanged, so only
an edit in substance marks translations stale, and the sections that
changed are named. `tools/translations.py reviewed <page>` writes the record.
The commit (sitebuild/history.py) adds what the hashes cannot say: the
German diff since the review and how many changes behind the translation is.

The same module gives the published pages their notices (a stale or
unreviewed translation, a page not translated yet) and renders the
"Translation status" page; all its words are UI strings (tr()).
"""

from __future__ import annotations

import difflib
import hashlib
import pathlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape

import yaml

from . import history
from .checks import source
from .checks.report import WARNING, Problem
from .strings import LANGS, SOURCE_LANG

LANGUAGE_NAMES = {"de": "Deutsch", "en": "English", "da": "Dansk", "it": "Italiano"}
HASH_KEY, SECTIONS_KEY = "source_hash", "source_sections"

# ------------------------------------------------------------------ hashing

_MACRO = re.compile(r"\{\{(.*?)\}\}", re.S)
_BULLET = re.compile(r"^[-*+][ \t]+")
_NUMBERED = re.compile(r"^\d+([.)])[ \t]+")
_HEADING_END = re.compile(r"[ \t]+#+[ \t]*$")
_STRONG = re.compile(r"\*\*|__")
_EMPHASIS = re.compile(r"(?<![\w*])[*_](?=\S)|(?<=\S)[*_](?![\w*])")


def _canonical_macro(m: re.Match) -> str:
    call = source.parse_macro(m.group(1), 0)
    return "{{" + (call.call if not call.error else " ".join(m.group(1).split())) + "}}"


def normalized_sections(text: str) -> list:
    """[(German heading or None, normalized text)] per section: words only, formatting gone."""
    page = source.parse(text, "docs/x/x.md")
    body = "\n".join(text.splitlines()[page.meta_line_count:])
    body = source.HTML_COMMENT.sub(" ", _MACRO.sub(_canonical_macro, body))
    sections, heading, lines = [], None, []
    for raw in body.splitlines():
        line = raw.strip()
        if line.startswith("## "):
            sections.append((heading, lines))
            heading, lines = line[3:].strip(), []
        line = _HEADING_END.sub("", line)
        line = _BULLET.sub("- ", line)
        line = _NUMBERED.sub(r"1\1 ", line)
        parts = re.split(r"(\{\{.*?\}\}|`[^`]*`)", line)      # leave macros and code alone
        line = "".join(p if i % 2 else _EMPHASIS.sub("", _STRONG.sub("", p)) for i, p in enumerate(parts))
        lines.append(line)
    sections.append((heading, lines))
    return [(h, " ".join(" ".join(ls).split())) for h, ls in sections]


def _digest(text: str, n: int) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:n]


def record(german_text: str) -> dict:
    """The front-matter record of a German text: whole-page hash and one hash per section."""
    whole, sections = _record(german_text)
    return {HASH_KEY: whole, SECTIONS_KEY: list(sections)}


@lru_cache(maxsize=64)
def _record(german_text: str) -> tuple:
    """Hashed once per German text: three translations compare against the same page."""
    sections = tuple(_digest(t, 8) for _, t in normalized_sections(german_text))
    return _digest(" ".join(sections), 12), sections


# ------------------------------------------------------------------- status

CURRENT, STALE, UNREVIEWED, MISSING, PLACEHOLDER, ORPHAN, SOURCE = (
    "current", "stale", "unreviewed", "missing", "placeholder", "orphan", "source")


@dataclass
class PageStatus:
    lang: str
    name: str
    state: str
    changed: list = field(default_factory=list)    # [(German heading or None, German line, translation line)]
    removed: int = 0                               # German sections removed since the review
    changed_index: list = field(default_factory=list)   # [(index now, index at the review or None)] of changed German sections
    commit: str | None = None                      # source_commit recorded at the review
    behind: history.Behind | None = None           # how far behind the German page (stale pages)

    @property
    def rel(self) -> str:
        return f"docs/{self.lang}/{self.name}"


def _section_lines(page) -> list:
    return [s.heading.line if s.heading else 1 for s in page.sections]


def page_status(root: pathlib.Path, lang: str, name: str, german=None, translation=None) -> PageStatus:
    root = pathlib.Path(root)
    de_path, tr_path = root / "docs" / SOURCE_LANG / name, root / "docs" / lang / name
    if lang == SOURCE_LANG:
        return PageStatus(lang, name, SOURCE)
    if not de_path.exists():
        return PageStatus(lang, name, ORPHAN)
    if not tr_path.exists():
        return PageStatus(lang, name, MISSING)
    german = german or source.load(root, f"docs/{SOURCE_LANG}/{name}")
    translation = translation or source.load(root, f"docs/{lang}/{name}")
    if translation.is_placeholder:
        return PageStatus(lang, name, PLACEHOLDER)
    stored_hash, stored = translation.meta.get(HASH_KEY), translation.meta.get(SECTIONS_KEY)
    if not stored_hash or not isinstance(stored, list):
        return PageStatus(lang, name, UNREVIEWED)
    now = record(german.text)
    if now[HASH_KEY] == str(stored_hash) and now[SECTIONS_KEY] == [str(s) for s in stored]:
        return PageStatus(lang, name, CURRENT)
    status = PageStatus(lang, name, STALE)
    status.commit, status.behind = _reviewed_commit(root, f"docs/{SOURCE_LANG}/{name}", translation.meta, str(stored_hash))
    de_lines, tr_lines = _section_lines(german), _section_lines(translation)
    headings = [s.heading.text if s.heading else None for s in german.sections]
    ops = difflib.SequenceMatcher(a=[str(s) for s in stored], b=now[SECTIONS_KEY], autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag in ("replace", "insert"):
            for j in range(j1, j2):
                status.changed_index.append((j, i1 + j - j1 if tag == "replace" and i1 + j - j1 < i2 else None))
                tr_line = tr_lines[j] if j < len(tr_lines) else 1
                status.changed.append((headings[j] if j < len(headings) else None, de_lines[j] if j < len(de_lines) else 1, tr_line))
        if tag in ("replace", "delete"):
            status.removed += max(0, (i2 - i1) - (j2 - j1))
    return status


def _reviewed_commit(root: pathlib.Path, german_rel: str, meta: dict, stored_hash: str) -> tuple:
    """(commit, history.Behind) of the German version a translation was reviewed against.

    The recorded source_commit if this clone has it; otherwise (not recorded
    yet, or lost to a squash or a shallow clone) the newest commit whose
    German text has the recorded hash, if the history holds one.
    """
    recorded = meta.get(history.COMMIT_KEY)
    recorded = str(recorded) if recorded else None
    found = history.behind(root, recorded, german_rel)
    if found.commits is None:
        alt = history.find_commit(root, german_rel, lambda text: record(text)[HASH_KEY] == stored_hash)
        if alt:
            return alt, history.behind(root, alt, german_rel)
    return recorded, found


def page_names(root: pathlib.Path) -> list:
    names = set()
    for lang in LANGS:
        base = pathlib.Path(root) / "docs" / lang
        if base.is_dir():
            names.update(p.relative_to(base).as_posix() for p in base.rglob("*.md"))
    return sorted(names)


def statuses(root: pathlib.Path, langs=None, pages: dict | None = None) -> list:
    """PageStatus for every page name and every translated language. `pages`: already parsed {lang: {name: Page}}."""
    pages = pages or {}
    out = []
    for lang in langs or LANGS:
        if lang == SOURCE_LANG:
            continue
        for name in page_names(root):
            out.append(page_status(root, lang, name, pages.get(SOURCE_LANG, {}).get(name), pages.get(lang, {}).get(name)))
    return out


def problems(sts: list) -> list:
    """Stale, unreviewed and missing translations as warnings (orphans are errors, reported by the checks)."""
    out = []
    for s in sts:
        how = f"`make reviewed PAGE={s.rel}`"
        if s.state == STALE:
            far = behind_words(s)
            for heading, de_line, tr_line in s.changed:
                label = f"section '{heading}'" if heading else "the part before the first ## heading"
                out.append(Problem(s.rel, tr_line, WARNING, "stale",
                                   f"stale: the German {label} (docs/{SOURCE_LANG}/{s.name}:{de_line}) changed since this "
                                   f"translation was reviewed{far}: update the translation, then run {how}"))
            if s.removed:
                out.append(Problem(s.rel, 1, WARNING, "stale",
                                   f"stale: {s.removed} section(s) were removed from docs/{SOURCE_LANG}/{s.name} since this "
                                   f"translation was reviewed: update it, then run {how}"))
        elif s.state == UNREVIEWED:
            out.append(Problem(s.rel, 1, WARNING, "unreviewed",
                               f"no record of the German version this was translated from: compare it with "
                               f"docs/{SOURCE_LANG}/{s.name}, then run {how}"))
        elif s.state == MISSING:
            out.append(Problem(s.rel, 0, WARNING, "missing",
                               f"not translated yet: readers get docs/{SOURCE_LANG}/{s.name} with a notice; "
                               f"translate it into {s.rel}"))
        elif s.state == PLACEHOLDER:
            out.append(Problem(s.rel, 1, WARNING, "missing",
                               f"placeholder (a title only): not translated yet; translate it, or delete the file so "
                               f"readers get the German page with a notice"))
    return out


def behind_words(s: PageStatus) -> str:
    """' (2 changes behind, since 1a2b3c4d5e6f)' for a report line, or why the history is unknown."""
    b = s.behind
    if b is None:
        return ""
    if b.commits is None:
        return f" ({b.reason})"
    n = b.commits + (1 if b.uncommitted else 0)
    extra = ", counting uncommitted edits" if b.uncommitted else ""
    return f" ({n} change{'s' if n != 1 else ''} behind, since {s.commit[:12]}{extra})"


def diff_lines(root: pathlib.Path, s: PageStatus) -> list:
    """The German diff since the review, for the sections that changed (empty when git cannot say)."""
    if s.state != STALE or not s.commit or s.behind is None or s.behind.reason:
        return []
    rel = f"docs/{SOURCE_LANG}/{s.name}"
    old = history.text_at(root, s.commit, rel)
    if old is None:
        return []
    now = (pathlib.Path(root) / rel).read_text(encoding="utf-8")
    return history.section_diff(old, now, rel, s.commit, s.changed_index)


# ------------------------------------------------------------ mark reviewed

def mark_reviewed(root: pathlib.Path, rel: str) -> dict:
    """Record the current German version in a translation's front matter; returns the record."""
    root = pathlib.Path(root)
    parts = pathlib.PurePosixPath(rel).parts
    if len(parts) < 3 or parts[0] != "docs" or parts[1] not in LANGS or parts[1] == SOURCE_LANG:
        raise ValueError(f"{rel}: expected a translated page docs/<{'|'.join(l for l in LANGS if l != SOURCE_LANG)}>/<name>.md")
    name = "/".join(parts[2:])
    german, path = root / "docs" / SOURCE_LANG / name, root / rel
    if not german.exists():
        raise ValueError(f"{rel}: there is no German source docs/{SOURCE_LANG}/{name}")
    if not path.exists():
        raise ValueError(f"{rel} does not exist: translate docs/{SOURCE_LANG}/{name} into it first")
    text = path.read_text(encoding="utf-8")
    page = source.parse(text, rel)
    if page.errors and page.meta_line_count == 0 and text.startswith("---"):
        raise ValueError(f"{rel}: fix the front matter first ({page.errors[0][1]})")
    rec = record(german.read_text(encoding="utf-8"))
    meta = {k: v for k, v in page.meta.items() if k not in (HASH_KEY, SECTIONS_KEY, history.COMMIT_KEY)}
    meta.update(rec)
    commit = history.last_commit(root, f"docs/{SOURCE_LANG}/{name}")
    if commit:
        meta[history.COMMIT_KEY] = commit
        rec = {**rec, history.COMMIT_KEY: commit}
    body = "".join(text.splitlines(True)[page.meta_line_count:])
    head = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False, default_flow_style=None, width=1000)
    path.write_text(f"---\n{head}---\n{body}", encoding="utf-8")
    return rec


# ------------------------------------------------------------ what readers see

def notice(state: str, tr, behind: history.Behind | None = None, german_url: str | None = None, lang: str = SOURCE_LANG) -> str | None:
    """The short localized notice a page shows, or None.

    A stale page says how many changes (commits to the German page) it is
    behind, when the history knows, and links to the German page.
    """
    if state == STALE and behind is not None and behind.commits is not None:
        from calculators import fmt, grammar
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


_STATUS_CACHE: dict = {}


@dataclass(frozen=True)
class StatusData:
    """What the status page shows: every page's status, each locale file's counts, the page names."""
    statuses: tuple
    counts: dict
    names: tuple


def _fingerprint(root: pathlib.Path) -> tuple:
    files = list((root / "docs").rglob("*.md")) + list((root / "locales").glob("*.po"))
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in files))


def status_data(root: pathlib.Path) -> StatusData:
    """The status page's data: kept in .cache/checks/ by the digest of everything it reads (the checks'
    digest, sitebuild/checks/cache.py), since it parses every page and locale file and asks git.
    The checks' modules are imported only when the data is not kept (importing them took longer than
    the rest of this page's rendering)."""
    from .checks import cache

    key = cache.digest(root, LANGS, None)
    data = cache.load(root, key, "status", StatusData)
    if data is None:
        from .checks import Project, locale_checks

        project = Project(root)
        data = StatusData(tuple(statuses(root, None, project.pages)), locale_checks(project)[1], tuple(page_names(root)))
        cache.store(root, key, data, "status")
    return data


def status_page(root: pathlib.Path, tr) -> str:
    """The "Translation status" page body, for `{{ translation_status() }}` (computed once while the files stay the same)."""
    root = pathlib.Path(root)
    key = (str(root), _fingerprint(root))
    if key not in _STATUS_CACHE:
        _STATUS_CACHE.clear()
        _STATUS_CACHE[key] = status_data(root)
    data = _STATUS_CACHE[key]
    return status_html(list(data.statuses), data.counts, list(data.names), tr)
