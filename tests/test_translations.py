"""The translators' workflow: locale files validated, stale and missing pages reported and marked.

Faults injected into a copy of the project: a broken .po file, a changed
placeholder, a <script> in a translation, a duplicate msgid, a wrong
charset (all stop the build); untranslated, fuzzy, extra and unused
entries (reported, the page shows German); a substantive edit to a German
page (the translation is reported stale, with the sections, and shows a
notice); a formatting-only edit (not stale); a missing translation
(German with a notice).
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

from checkutil import run, ROOT, build, copy_project, edit_line, find, line_matching, lines, prose_line, write_lines
from sitebuild import checks, translations
from sitebuild.checks import staleness
from sitebuild.strings import Strings


def _entries(po: pathlib.Path, pattern: str = r"\w") -> list:
    """[(msgid line, msgstr line)] of the translated single-line entries whose msgid matches."""
    content = lines(po)
    return [(i + 1, i + 2) for i, line in enumerate(content)
            if line.startswith('msgid "') and line != 'msgid ""' and re.search(pattern, line)
            and content[i + 1].startswith('msgstr "') and content[i + 1] != 'msgstr ""']


def _entry(po: pathlib.Path, pattern: str) -> tuple:
    found = _entries(po, pattern)
    assert found, f"{po}: no translated entry matches {pattern!r}"
    return found[0]


# ---------------------------------------------------------------- locale files

def test_broken_po_file_is_an_error_with_its_line(proj):
    po = proj / "locales" / "it.po"
    _, n = _entry(po, r"\w")
    edit_line(po, n, lambda s: s.rstrip('"'))           # unterminated string
    find(run(proj, ["it"]), path="locales/it.po", code="po-syntax", line=n, severity="error", contains=("quoted string",))


def test_placeholder_changed_in_a_translation(proj):
    po = proj / "locales" / "da.po"
    msgid_line, n = _entry(po, r"\{[a-z_0-9]+\}")
    name = re.search(r"\{([a-z_0-9]+)\}", lines(po)[msgid_line - 1]).group(1)
    edit_line(po, n, lambda s: s.replace("{" + name + "}", "{" + name + "_x}"))
    find(run(proj, ["da"]), path="locales/da.po", code="po-placeholder", line=msgid_line, severity="error",
          contains=("{" + name + "}", "{" + name + "_x}"))


def test_script_in_a_translation(proj):
    po = proj / "locales" / "en.po"
    msgid_line, n = _entry(po, r"\w")
    edit_line(po, n, lambda s: s[:-1] + '<script>alert(1)</script>"')
    find(run(proj, ["en"]), path="locales/en.po", code="po-markup", line=msgid_line, severity="error",
         contains=("<script>",))


def test_duplicate_msgid(proj):
    po = proj / "locales" / "da.po"
    msgid_line, n = _entry(po, r"\w")
    content = lines(po)
    entry = content[msgid_line - 1:n]
    write_lines(po, content + [""] + entry + [""])
    dup_line = len(content) + 2
    find(run(proj, ["da"]), path="locales/da.po", code="po-duplicate", line=dup_line, severity="error",
         contains=(f"line {msgid_line}",))


def test_charset_must_be_utf8(proj):
    po = proj / "locales" / "it.po"
    n = line_matching(po, r"Content-Type")
    edit_line(po, n, lambda s: s.replace("utf-8", "latin-1").replace("UTF-8", "latin-1"))
    find(run(proj, ["it"]), path="locales/it.po", code="po-charset", severity="error")


def test_untranslated_and_fuzzy_entries_are_warnings_and_fall_back_to_german(proj):
    po = proj / "locales" / "da.po"
    (fuzzy_id, _), (_, empty_str) = _entries(po)[:2]
    fuzzy_msgid = lines(po)[fuzzy_id - 1][7:-1]
    edit_line(po, empty_str, lambda s: 'msgstr ""')
    content = lines(po)
    content.insert(fuzzy_id - 1, "#, fuzzy")
    write_lines(po, content)
    problems = run(proj, ["da"])
    assert not [p for p in problems if p.path == "locales/da.po" and p.severity == "error"]
    find(problems, path="locales/da.po", code="fuzzy", line=fuzzy_id + 1, severity="warning")
    find(problems, path="locales/da.po", code="missing", severity="warning")
    strings = Strings(proj / "locales")
    german = strings.get(fuzzy_msgid, "de")
    assert strings.get(fuzzy_msgid, "da") == german
    assert ("da", fuzzy_msgid, None) in strings.fallbacks


def test_extra_and_unused_entries_are_warnings(proj):
    for lang, text in (("it", 'msgid "Nobody asked for this"\nmsgstr "Nessuno"\n'), ("de", 'msgid "Left over"\nmsgstr "Übrig"\n')):
        po = proj / "locales" / f"{lang}.po"
        po.write_text(po.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    problems = run(proj, ["it"])
    find(problems, path="locales/it.po", code="extra", severity="warning", contains=("Nobody asked for this",))
    find(problems, path="locales/de.po", code="unused", severity="warning", contains=("Left over",))


def test_broken_po_stops_the_build(site_proj, tmp_path):
    po = site_proj / "locales" / "da.po"
    msgid_line, n = _entry(po, r"\{[a-z_0-9]+\}")
    edit_line(po, n, lambda s: re.sub(r"\{[a-z_0-9]+\}", "{oops}", s, count=1))
    proc = build(site_proj, tmp_path / "site")
    assert proc.returncode != 0
    assert re.search(rf"^locales/da\.po:{msgid_line}: error: placeholders .*\[po-placeholder\]$", proc.stderr, re.M), proc.stderr[-3000:]


# ---------------------------------------------------------------- stale, reviewed, missing

def _review_all(root: pathlib.Path, lang: str) -> None:
    for path in sorted((root / "docs" / lang).glob("*.md")):
        staleness.mark_reviewed(root, path.relative_to(root).as_posix())


def test_reviewed_records_the_source_and_keeps_the_page_valid(proj):
    _review_all(proj, "da")
    text = (proj / "docs" / "da" / "decode.md").read_text(encoding="utf-8")
    assert text.startswith("---\nsource_hash: ") and "source_sections: [" in text
    assert staleness.page_status(proj, "da", "decode.md").state == staleness.CURRENT
    problems = run(proj, ["da"])
    assert not [p for p in problems if p.path.startswith("docs/da/") and p.code in ("unreviewed", "stale")]
    assert not checks.errors([p for p in problems if p.path.startswith("docs/da/")])


def test_substantive_german_edit_makes_translations_stale(proj):
    _review_all(proj, "da")
    de = proj / "docs" / "de" / "decode.md"
    sections = [i + 1 for i, line in enumerate(lines(de)) if line.startswith("## ")]
    heading_line = sections[1]                      # the second ## section
    heading = lines(de)[heading_line - 1][3:]
    n = prose_line(de, heading_line)
    edit_line(de, n, lambda s: s.replace(" ", " nicht ", 1))
    da = proj / "docs" / "da" / "decode.md"
    da_heading_line = [i + 1 for i, line in enumerate(lines(da)) if line.startswith("## ")][1]
    p = find(run(proj, ["da"]), path="docs/da/decode.md", code="stale", line=da_heading_line, severity="warning",
             contains=(f"'{heading}'", f"docs/de/decode.md:{heading_line}", "make reviewed PAGE=docs/da/decode.md"))
    assert p
    status = staleness.page_status(proj, "da", "decode.md")
    assert status.state == staleness.STALE and [h for h, _, _ in status.changed] == [heading]


def test_formatting_only_german_edit_is_not_stale(proj):
    _review_all(proj, "it")
    de = proj / "docs" / "de" / "decode.md"
    text = de.read_text(encoding="utf-8")
    n = prose_line(de, 5)
    content = text.split("\n")
    words = content[n - 1].split(" ")
    half = len(words) // 2
    content[n - 1] = " ".join(words[:half]) + "   \n" + "  ".join(words[half:])   # re-wrapped, extra spaces
    text = "\n".join(content).replace("\n\n", "\n\n\n", 3)                        # extra blank lines
    text = re.sub(r"\{\{ *fig\(\"", '{{fig( "', text, count=2)                     # macro spacing
    text = re.sub(r"^- ", "* ", text, count=2, flags=re.M)                         # list markers
    text = text.replace("**", "__", 2)                                              # emphasis style
    de.write_text(text, encoding="utf-8")
    assert staleness.page_status(proj, "it", "decode.md").state == staleness.CURRENT
    assert not [p for p in run(proj, ["it"]) if p.path == "docs/it/decode.md" and p.code == "stale"]


def test_missing_translation_is_reported(proj):
    (proj / "docs" / "en" / "speed.md").unlink()
    find(run(proj, ["en"]), path="docs/en/speed.md", code="missing", severity="warning", contains=("docs/de/speed.md",))


def test_stale_and_missing_pages_build_with_notices(site_proj, tmp_path):
    _review_all(site_proj, "da")
    de = site_proj / "docs" / "de" / "decode.md"
    edit_line(de, prose_line(de, 5), lambda s: s.replace(" ", " wirklich ", 1))
    (site_proj / "docs" / "it" / "speed.md").unlink()
    proc = build(site_proj, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count("docs/da/decode.md:") == 1 and "[stale]" in proc.stderr
    assert re.search(r"^docs/it/speed\.md: warning: not translated yet", proc.stderr, re.M)
    stale_html = (tmp_path / "site" / "da" / "decode" / "index.html").read_text(encoding="utf-8")
    assert "translation-notice" in stale_html
    fallback_html = (tmp_path / "site" / "it" / "speed" / "index.html").read_text(encoding="utf-8")
    assert "translation-notice" in fallback_html and 'lang="it"' in fallback_html
    assert "translation-notice" not in (tmp_path / "site" / "decode" / "index.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- report, status page, one-language preview

def _tool(root: pathlib.Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "--root", str(root), *args],
                          capture_output=True, text=True, timeout=300)


def test_report_lists_per_language_and_fails_only_on_errors(site_proj):
    po = site_proj / "locales" / "da.po"
    _, n = _entry(po, r"\w")
    edit_line(po, n, lambda s: 'msgstr ""')
    ok = _tool(site_proj)
    assert ok.returncode == 0, ok.stdout[-2000:] + ok.stderr
    assert "== da (Dansk) ==" in ok.stdout and re.search(r"^locales/da\.po:\d+: warning: untranslated", ok.stdout, re.M)
    edit_line(po, n, lambda s: 'msgstr "<b>"')
    bad = _tool(site_proj)
    assert bad.returncode == 1 and "[po-markup]" in bad.stdout


def test_reviewed_command(proj):
    out = _tool(proj, "reviewed", "docs/it/index.md")
    assert out.returncode == 0, out.stderr
    assert "docs/it/index.md: marked as reviewed against docs/de/index.md" in out.stdout
    assert staleness.page_status(proj, "it", "index.md").state == staleness.CURRENT
    assert _tool(proj, "reviewed", "docs/de/index.md").returncode == 1


def test_translation_status_page(site_proj, tmp_path):
    for lang, title in (("de", "Übersetzungsstand"), ("en", "Translation status"), ("da", "Oversættelsesstatus"), ("it", "Stato delle traduzioni")):
        (site_proj / "docs" / lang / "status.md").write_text(f"# {title}\n\n{{{{ translation_status() }}}}\n", encoding="utf-8")
    staleness.mark_reviewed(site_proj, "docs/en/decode.md")
    da = site_proj / "docs" / "da" / "decode.md"     # a translation without its source record: unreviewed
    da.write_text(re.sub(r"\A---\n.*?\n---\n", "", da.read_text(encoding="utf-8"), flags=re.S), encoding="utf-8")
    proc = build(site_proj, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr[-3000:]
    html = (tmp_path / "site" / "en" / "status" / "index.html").read_text(encoding="utf-8")
    assert 'class="data-table translation-status"' in html and 'class="data-table locale-status"' in html
    assert 'class="status-about"' in html, "the page says what it is"
    row = re.search(r"<code>decode\.md</code>(.*?)</tr>", html).group(1)
    assert 'class="status-current"' in row and 'class="status-unreviewed"' in row


def test_one_language_preview(site_proj, tmp_path):
    proc = build(site_proj, tmp_path / "site", {"SITE_LANG": "da"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    html = (tmp_path / "site" / "decode" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="da"' in html and not (tmp_path / "site" / "en").exists()
    # `make serve SITE_LANG=da` serves this build under /da/; any other address gets its 404 page, which says why
    assert "Denne forhåndsvisning bygger kun ét sprog (Dansk)" in (tmp_path / "site" / "404.html").read_text(encoding="utf-8")
    assert not (tmp_path / "site" / "de").exists(), "no German redirects where German is not built"


def test_make_serve_takes_a_port_and_serves_a_preview_language_under_its_folder():
    """make -n: the commands make would run (the Makefile's serve rule)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "SITE_LANG", "PORT")}

    def serve(*args):
        out = subprocess.run(["make", "--no-print-directory", "-n", "serve", *args], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        return next(line for line in out.stdout.splitlines() if "tools/serve.py" in line)
    assert serve().endswith("tools/serve.py --port 8000 --builder \".venv/bin/python -m mkdocs\"")
    assert "tools/serve.py --port 8831 " in serve("PORT=8831")
    da = serve("SITE_LANG=da", "PORT=8831")
    assert da.startswith("SITE_LANG=da SITE_URL=http://127.0.0.1:8831/da/ ") and " --port 8831 " in da
    assert serve("SITE_LANG=de").startswith("SITE_LANG=de SITE_URL=http://127.0.0.1:8000/ "), "German stays at the root"
