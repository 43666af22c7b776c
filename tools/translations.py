"""The translators' command: what is missing, fuzzy, stale or unused, per language; mark a page reviewed.

    .venv/bin/python tools/translations.py                 # the report (make translations)
    .venv/bin/python tools/translations.py reviewed docs/da/decode.md [...]   (make reviewed PAGE=...)

The report runs the same checks as the build (sitebuild/checks) and lists
every finding with file and line, grouped by language, and for a stale
page the German diff since the review and how many changes behind it is
(sitebuild/history.py); it exits non-zero
only when there is an error (a warning, such as a stale page or an
untranslated string, leaves the build green). `reviewed` records in the
translation's front matter which German version it now matches, after
you have brought it up to date.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild import checks  # noqa: E402
from sitebuild.checks import staleness  # noqa: E402
from sitebuild.strings import LANGS, SOURCE_LANG  # noqa: E402

STATE_WORDS = {staleness.CURRENT: "up to date", staleness.STALE: "stale", staleness.UNREVIEWED: "not reviewed",
               staleness.MISSING: "not translated", staleness.PLACEHOLDER: "not translated (placeholder)",
               staleness.ORPHAN: "no German source"}


def _language_of(path: str) -> str | None:
    parts = pathlib.PurePosixPath(path).parts
    if len(parts) >= 2 and parts[0] == "docs" and parts[1] in LANGS:
        return parts[1]
    if len(parts) == 2 and parts[0] == "locales" and parts[1].endswith(".po"):
        return parts[1][:-3]
    return None


def report(root: pathlib.Path, out=sys.stdout) -> int:
    project = checks.Project(root)
    problems = checks.run(root, project=project)
    sts = staleness.statuses(root, None, project.pages)
    counts = checks.locale_checks(project)[1]
    by_lang: dict = {}
    for p in problems:
        by_lang.setdefault(_language_of(p.path), []).append(p)
    for lang in LANGS:
        print(f"== {lang} ({staleness.LANGUAGE_NAMES.get(lang, lang)}){' – source language' if lang == SOURCE_LANG else ''} ==", file=out)
        mine = [s for s in sts if s.lang == lang]
        if mine:
            tally: dict = {}
            for s in mine:
                tally[STATE_WORDS[s.state]] = tally.get(STATE_WORDS[s.state], 0) + 1
            print("pages: " + ", ".join(f"{n} {w}" for w, n in sorted(tally.items())), file=out)
        c = counts.get(lang, {})
        print(f"locales/{lang}.po: {c.get('translated', 0)} translated, {c.get('missing', 0)} untranslated, "
              f"{c.get('fuzzy', 0)} fuzzy, {c.get('extra', 0)} extra, {c.get('unused', 0)} unused", file=out)
        for line in checks.lines(by_lang.get(lang, []), summarize=False, annotations=False):
            print(line, file=out)
        for s in mine:
            _print_changes(root, s, out)
        print(file=out)
    others = by_lang.get(None, [])
    if others:
        print("== shared (code, catalog) ==", file=out)
        for line in checks.lines(others, summarize=False, annotations=False):
            print(line, file=out)
        print(file=out)
    n_err = len(checks.errors(problems))
    print(f"{n_err} error(s), {len(problems) - n_err} warning(s)", file=out)
    return 1 if n_err else 0


def _print_changes(root: pathlib.Path, s, out) -> None:
    """For a stale page: how far behind it is, and the German diff of the changed sections since the review."""
    if s.state != staleness.STALE:
        return
    german = f"docs/{SOURCE_LANG}/{s.name}"
    print(f"--- {s.rel}: what changed in {german} since the review{staleness.behind_words(s)}", file=out)
    diff = staleness.diff_lines(root, s)
    if not diff:
        print("    (no diff available: the sections named above changed; compare them with the German page)", file=out)
    for line in diff:
        print(f"    {line}", file=out)


def reviewed(root: pathlib.Path, pages: list, out=sys.stdout) -> int:
    status = 0
    for page in pages:
        p = pathlib.Path(page)
        if p.is_absolute() or (not (root / p).exists() and p.exists()):
            rel = p.resolve().relative_to(root).as_posix()
        else:
            rel = p.as_posix()
        try:
            rec = staleness.mark_reviewed(root, rel)
        except ValueError as exc:
            print(f"{exc}", file=sys.stderr)
            status = 1
            continue
        german = f"docs/{SOURCE_LANG}/{'/'.join(pathlib.PurePosixPath(rel).parts[2:])}"
        commit = rec.get(staleness.history.COMMIT_KEY)
        at = f", commit {commit[:12]}" if commit else ", no git commit (not a git checkout, or the German page was never committed)"
        print(f"{rel}: marked as reviewed against {german} (source_hash {rec[staleness.HASH_KEY]}{at})", file=out)
        if commit and staleness.history.has_uncommitted(root, german):
            print(f"{rel}: note: {german} has uncommitted edits; the record names its last commit, "
                  f"so commit the German page first for an exact count of changes", file=out)
        lang = pathlib.PurePosixPath(rel).parts[1]
        left = [p for p in checks.run(root, [lang]) if p.path == rel and p.severity == checks.ERROR]
        for line in checks.lines(left, annotations=False):
            print(line, file=out)
    return status


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("report", help="list what is missing, fuzzy, stale and unused (default)")
    rev = sub.add_parser("reviewed", help="mark translated pages as matching the current German source")
    rev.add_argument("pages", nargs="+", help="e.g. docs/da/decode.md")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.command == "reviewed":
        return reviewed(root, args.pages)
    return report(root)


if __name__ == "__main__":
    raise SystemExit(main())
