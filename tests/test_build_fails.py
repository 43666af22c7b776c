"""A build with a fault stops, naming the file and line of the fault (hooks/checks.py runs the checks
before the pages are built)."""

from __future__ import annotations



def test_a_fault_fails_the_build_with_file_and_line(site_proj, tmp_path):
    """A hand-typed number stops `mkdocs build` and names its line."""
    import re
    from checkutil import build, edit_line, prose_line
    page = site_proj / "docs" / "en" / "about.md"
    n = prose_line(page, start=5)
    edit_line(page, n, lambda s: s + " It costs 4711 euros.")
    proc = build(site_proj, tmp_path / "site", {"SITE_CHECKS_CACHE": "off", "SITE_LANG": "en"})
    assert proc.returncode != 0
    assert re.search(rf"^docs/en/about\.md:{n}: error: hand-typed number '4711'", proc.stderr, re.M), proc.stderr[-2000:]


def test_a_broken_placeholder_is_reported_before_a_page_fails_on_it(site_proj, tmp_path):
    """A broken placeholder would make mkdocs-macros exit (code 100) on the page that uses it; the checks
    run first and name the file and line."""
    import re
    from checkutil import build
    po = site_proj / "locales" / "da.po"
    text = po.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(text, 1) if line.startswith('msgstr "Ved {context} tokens og batch'))
    text[n - 1] = text[n - 1].replace("{context}", "{oops}", 1)
    po.write_text("\n".join(text) + "\n", encoding="utf-8")
    proc = build(site_proj, tmp_path / "site", {"SITE_CHECKS_CACHE": "off"})
    assert proc.returncode != 0
    assert re.search(r"^locales/da\.po:\d+: error: placeholders .*\[po-placeholder\]$", proc.stderr, re.M), proc.stderr[-2000:]


def test_a_catalog_error_is_one_line_without_a_traceback(site_proj, tmp_path):
    """A device naming a memory tier it does not have: the build says file, line, entry and field in one line."""
    import re
    from checkutil import build
    cat = site_proj / "calculators" / "data" / "catalog.toml"
    text = cat.read_text(encoding="utf-8")
    cat.write_text(text.replace('serving_tier = "HBM3"', 'serving_tier = "HBM9"', 1), encoding="utf-8")
    proc = build(site_proj, tmp_path / "site", {"SITE_LANG": "en"})
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    assert re.search(r"calculators/data/catalog\.toml:\d+: entry 'devices\.h100-sxm', field 'serving_tier': "
                     r"names no tier in memory: 'HBM9'", proc.stderr), proc.stderr[-3000:]
