"""The build's caches of work done before (sitebuild/checks/cache.py, sitebuild/runtime.py)
are reused only while their inputs stay the same.

Faults injected: a catalog value, a page, a locale file, a check's own code and
a package source changed after a result was kept; each must give a new key (the
kept result is not reused), and a full build of a project whose checks passed
and were kept must still fail once a fault is typed into a page.
"""

from __future__ import annotations

import os
import pathlib
import re

import pytest

from checkutil import build, edit_line, prose_line
from sitebuild import runtime, translations
from sitebuild.checks import cache

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("de", "en", "da", "it")


def _key(root: pathlib.Path) -> str:
    return cache.digest(root, LANGS, None)


def _replace(path: pathlib.Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# ------------------------------------------------------------ the checks' key

@pytest.mark.parametrize("fault", ["catalog value", "page", "locale file", "check code", "termbase"])
def test_any_input_of_the_checks_changes_their_key(proj, fault):
    before = _key(proj)
    assert _key(proj) == before, "an unchanged project must keep its key"
    if fault == "catalog value":
        _replace(proj / "calculators" / "data" / "catalog.toml", "bytes_per_s = 3.35e12", "bytes_per_s = 3.36e12")
    elif fault == "page":
        path = proj / "docs" / "da" / "decode.md"
        edit_line(path, prose_line(path, 5), lambda s: s + " Omkring 2,5 GB.")
    elif fault == "locale file":
        _replace(proj / "locales" / "it.po", 'msgstr "', 'msgstr "x')
    elif fault == "check code":
        with (proj / "sitebuild" / "checks" / "numbers.py").open("a", encoding="utf-8") as f:
            f.write("\n# changed\n")
    else:
        with (proj / "locales" / "terms" / "en.toml").open("a", encoding="utf-8") as f:
            f.write("\n# changed\n")
    assert _key(proj) != before, f"a changed {fault} must not find the result kept before it"


def test_languages_and_macros_are_part_of_the_key(proj):
    assert cache.digest(proj, ("de", "en"), None) != _key(proj)
    assert cache.digest(proj, LANGS, {"fig": lambda id: id}) != _key(proj)
    assert cache.digest(proj, LANGS, {"fig": lambda id, art=None: id}) != cache.digest(proj, LANGS, {"fig": lambda id: id})


def test_a_kept_result_is_found_by_its_key_only(tmp_path):
    result = cache.Result((), (), {("de", "index.md"): {}}, {"de": {"translated": 1}})
    cache.store(tmp_path, "k1", result)
    assert cache.load(tmp_path, "k1") == result
    assert cache.load(tmp_path, "k2") is None
    (tmp_path / cache.CACHE_DIR / "result-k1.pickle").write_bytes(b"not a pickle")
    assert cache.load(tmp_path, "k1") is None, "an unreadable result means: check again"


def test_the_cache_keeps_only_the_newest_results(tmp_path):
    for i in range(cache.KEEP + 2):
        cache.store(tmp_path, f"k{i}", cache.Result((), (), {}, {}))
        os.utime(tmp_path / cache.CACHE_DIR / f"result-k{i}.pickle", (i, i))
    kept = sorted(p.name for p in (tmp_path / cache.CACHE_DIR).glob("result-*.pickle"))
    assert kept == sorted(f"result-k{i}.pickle" for i in range(2, cache.KEEP + 2)), kept


def test_the_status_page_shows_what_the_checks_found_and_follows_the_pages(proj):
    """Without a published result the page computes it from the pages; a German page changed after its
    translation was reviewed shows up. A published result (the build's checks) is what the page shows."""
    first = translations.status_data(proj)
    name = "decode.md"
    path = proj / "docs" / "de" / name   # the German source changes: its translations fall behind
    path.write_text(path.read_text(encoding="utf-8") + "\n\n## Ein neuer Abschnitt\n\nEin neuer Absatz.\n", encoding="utf-8")
    again = translations.status_data(proj)
    old = {(s.lang, s.name): s for s in first.statuses}[("en", name)]
    new = {(s.lang, s.name): s for s in again.statuses}[("en", name)]
    assert new != old, "the status of a changed page must be computed again"
    translations.publish(proj, first.statuses[:1], {"de": {"translated": 7}})
    try:
        shown = translations.status_data(proj)
        assert shown.statuses == first.statuses[:1] and shown.counts == {"de": {"translated": 7}}
    finally:
        translations._PUBLISHED.clear()


def test_a_kept_result_does_not_hide_a_new_fault(site_proj, tmp_path):
    """First build: the checks pass and their result is kept. Then a hand-typed number goes into a page:
    the second build must run the checks again and fail on it, with file and line."""
    ok = build(site_proj, tmp_path / "site1")
    assert ok.returncode == 0, ok.stderr[-3000:]
    again = build(site_proj, tmp_path / "site1b")   # unchanged: the kept result is used
    assert again.returncode == 0, again.stderr[-3000:]
    path = site_proj / "docs" / "it" / "decode.md"
    n = prose_line(path, 5)
    edit_line(path, n, lambda s: s + " Circa 50 tok/s.")
    failed = build(site_proj, tmp_path / "site2")
    assert failed.returncode != 0, "the checks' kept result was reused for a changed page"
    assert re.search(rf"^docs/it/decode\.md:{n}: error: .*\[digit\]$", failed.stderr, re.M), failed.stderr[-3000:]


# ------------------------------------------------------------ the runtime's digests

def test_the_wheel_digest_follows_a_changed_source(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.toml"
    a.write_text("x = 1\n")
    b.write_text("[t]\n")
    before = runtime._digest([a, b])
    assert runtime._digest([a, b]) == before
    a.write_text("x = 2\n")          # same size: only the content and the time differ
    st = a.stat()
    os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert runtime._digest([a, b]) != before, "a changed source must give a new wheel digest"


# ------------------------------------------------------------ the parsed termbases

def test_a_changed_termbase_is_parsed_again_not_read_from_the_kept_one(proj):
    from sitebuild import termbase
    before = termbase.load(proj, "en")
    path = termbase.path(proj, "en")
    text = path.read_text(encoding="utf-8")
    first = re.search(r'^term = "([^"]+)"', text, re.M)
    path.write_text(text[:first.start(1)] + "Zq" + text[first.start(1):], encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    after = termbase.load(proj, "en")
    assert any(t.term == "Zq" + first.group(1) for t in after.terms.values()), "the kept parse of the old file was reused"
    assert not any(t.term == "Zq" + first.group(1) for t in before.terms.values())
    path.write_text(text.replace("[meta]", "[meta", 1), encoding="utf-8")   # broken TOML: an error, never a kept parse
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000))
    with pytest.raises(termbase.TermbaseError, match="not valid TOML"):
        termbase.load(proj, "en")
