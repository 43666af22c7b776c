"""Translators see what changed: source_commit, the German diff since the review, and how far behind.

Runs in a throw-away git repository made from a copy of the project: a
German edit, committed, makes the translation stale with the right diff
and count; `make reviewed` (tools/translations.py reviewed) clears it; a
recorded commit this clone does not have is reported with a clear reason.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from checkutil import copy_project, edit_line, line_matching
from sitebuild import history, translations
from sitebuild.checks import staleness

NAME = "speed.md"


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    root = copy_project(tmp_path / "repo")
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.org")
    git(root, "config", "user.name", "Test")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    return root


def reviewed(root, rel):
    tool = root / "tools" / "translations.py"
    return subprocess.run([sys.executable, str(tool), "reviewed", rel], capture_output=True, text=True, check=True).stdout


def report(root):
    tool = root / "tools" / "translations.py"
    return subprocess.run([sys.executable, str(tool)], capture_output=True, text=True).stdout


def covers(header: str, n: int) -> bool:
    """Whether a hunk header '@@ -a,b +c,d @@' spans line n of the new file."""
    new = header.split()[2][1:]
    start, _, count = new.partition(",")
    return int(start) <= n < int(start) + int(count or 1)


def edit_german(root, old, new, message):
    path = root / "docs" / "de" / NAME
    n = line_matching(path, rf"^{old}")
    edit_line(path, n, lambda s: s.replace(old, new, 1))
    git(root, "commit", "-q", "-am", message)
    return n


def test_reviewed_records_the_german_commit(repo):
    out = reviewed(repo, f"docs/da/{NAME}")
    head = git(repo, "log", "-1", "--format=%H", "--", f"docs/de/{NAME}").strip()
    assert f"commit {head[:12]}" in out
    assert f"source_commit: {head}" in (repo / "docs" / "da" / NAME).read_text(encoding="utf-8")
    assert staleness.page_status(repo, "da", NAME).state == staleness.CURRENT


def test_german_edits_make_it_stale_with_diff_and_count_and_reviewed_clears_it(repo):
    reviewed(repo, f"docs/da/{NAME}")
    git(repo, "commit", "-q", "-am", "da reviewed")
    reviewed_at = git(repo, "log", "-1", "--format=%H", "--", f"docs/de/{NAME}").strip()
    # two commits that change the German page in substance, one that does not touch it
    path = repo / "docs" / "de" / NAME
    heading = line_matching(path, r"^## ")
    n = line_matching(path, r"^[A-ZÄÖÜ][a-zäöüß]", start=heading)
    first_words = path.read_text(encoding="utf-8").split("\n")[n - 1].split(" ")[0]
    edit_line(path, n, lambda s: s + " Ein neuer Satz über Bandbreite.")
    git(repo, "commit", "-q", "-am", "de: a sentence")
    (repo / "README.txt").write_text("unrelated\n", encoding="utf-8")
    git(repo, "add", "README.txt")
    git(repo, "commit", "-q", "-m", "unrelated")
    edit_line(path, n, lambda s: s.replace("Ein neuer Satz", "Ein zweiter Satz"))
    git(repo, "commit", "-q", "-am", "de: reworded")

    s = staleness.page_status(repo, "da", NAME)
    assert s.state == staleness.STALE
    assert s.commit == reviewed_at
    assert s.behind.commits == 2 and not s.behind.uncommitted       # the unrelated commit does not count
    diff = staleness.diff_lines(repo, s)
    assert f"+{path.read_text(encoding='utf-8').split(chr(10))[n - 1]}" in diff
    assert any(line.startswith("-" + first_words) for line in diff)
    assert any(covers(line, n) for line in diff if line.startswith("@@")), diff   # real line numbers of the German page

    out = report(repo)
    assert f"docs/da/{NAME}" in out and "2 changes behind" in out and "Ein zweiter Satz über Bandbreite." in out

    # the published notice says how far behind, in the page's language, and links to the German page
    tr = lambda msgid, context=None: msgid  # noqa: E731
    text = translations.notice(s.state, tr, s.behind, "../../speed/", "da")
    assert text.startswith("This translation is 2 changes behind the German original.") and "(../../speed/)" in text
    one = history.Behind(1, False)
    assert translations.notice(s.state, tr, one, "x/", "en").startswith("This translation is one change behind")

    reviewed(repo, f"docs/da/{NAME}")
    assert staleness.page_status(repo, "da", NAME).state == staleness.CURRENT


def test_uncommitted_german_edit_counts_as_a_change(repo):
    reviewed(repo, f"docs/it/{NAME}")
    path = repo / "docs" / "de" / NAME
    n = line_matching(path, r"^[A-ZÄÖÜ][a-zäöüß]", start=line_matching(path, r"^## "))
    edit_line(path, n, lambda s: s + " Noch nicht eingecheckt.")
    s = staleness.page_status(repo, "it", NAME)
    assert s.state == staleness.STALE and s.behind.commits == 0 and s.behind.uncommitted
    assert "1 change behind" in staleness.behind_words(s)


def test_unknown_commit_is_reported_and_the_hash_finds_the_review(repo):
    """A shallow clone or a squashed history lose the recorded commit: the report says so, or finds it by hash."""
    reviewed(repo, f"docs/en/{NAME}")
    page = repo / "docs" / "en" / NAME
    text = page.read_text(encoding="utf-8")
    head = git(repo, "log", "-1", "--format=%H", "--", f"docs/de/{NAME}").strip()
    page.write_text(text.replace(head, "0" * 40), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "en reviewed, commit lost")
    edit_german(repo, "Die ", "Diese ", "de: edit")
    s = staleness.page_status(repo, "en", NAME)
    assert s.state == staleness.STALE and s.commit == head and s.behind.commits == 1     # found by the recorded hash
    lost = history.behind(repo, "0" * 40, f"docs/de/{NAME}")
    assert lost.commits is None and "not in this clone" in lost.reason


def test_outside_git_the_hashes_still_work(tmp_path):
    root = copy_project(tmp_path / "plain")
    b = history.behind(root, "abc", f"docs/de/{NAME}")
    assert b.commits is None and "not a git checkout" in b.reason
    assert history.last_commit(root, f"docs/de/{NAME}") is None
