"""The reader-text lints (sitebuild/checks/prose.py): each catches its fault, leaves the site's own text alone,
and reports it at the file and line it comes from (locale files, calculators, the fact check here; pages in
tests/test_prose_build.py)."""

from __future__ import annotations

import pathlib

import pytest

from checkutil import ROOT, edit_line, line_matching, lines, write_lines
from sitebuild.checks import known, prose, prose_context, reader, rendered
from sitebuild.checks.project import Project
from sitebuild.strings import Strings


@pytest.fixture(scope="module")
def ctx():
    return {lang: prose_context.context(ROOT, lang) for lang in ("de", "en", "da", "it")}


def codes(text, lang, ctx):
    return [(f.code, f.quote) for f in prose.lint(text, lang, ctx[lang])]


# ------------------------------------------------------------------ each lint, on text

@pytest.mark.parametrize("lang, text, quote", [
    ("de", "Erstellt mit Material, made with care", "made with"),
    ("de", "Die Gewichte werden with Absicht gelesen", "with"),
    ("da", "Det er the bedste", "the"),
    ("da", "Alle engines læser vægtene", "engines"),
    ("it", "Il calcolo, which è semplice", "which"),
    ("de", "404 - Not found", "Not found"),
    ("da", "SambaNova SN40L (socket)", "socket"),
    ("it", "(Infercom, 27 May 2026)", "27 May 2026"),
    ("de", "eine vendor claim", "vendor claim"),
])
def test_english_words_on_other_pages(ctx, lang, text, quote):
    assert ("english", quote) in codes(text, lang, ctx)


@pytest.mark.parametrize("lang, text", [
    ("da", "Det er for at vise, hvad det koster at læse, og gælder over og under grænsen."),   # Danish for, at, over, under
    ("de", "Was das bedeutet, will auch an all die Token erinnern."),                          # German was, will, also, an, all
    ("de", "Der Blog des Herstellers, in Not geraten, die Made"),   # German nouns: only lowercase forms count in German
    ("it", "il blog del produttore e il socket della SN40L"),                                   # Italian loanwords, termbase term
    ("de", "Why SambaNova's SN40L Chip is The Best for Inference"),                             # a published title (catalog)
    ("da", "en mixture of experts-model"),                                                      # a termbase term in a compound
    ("de", "Die Zeit bis zum ersten Token (englisch: time to first token, TTFT) vergeht"),      # English quoted as English
    ("en", "the weights are read with every token"),                                            # English on English pages
])
def test_words_of_the_language_names_and_titles_are_not_english(ctx, lang, text):
    assert [c for c in codes(text, lang, ctx) if c[0] == "english"] == []


@pytest.mark.parametrize("lang, text, quote", [
    ("de", "÷ 1 Teile, in die der KV-Cache aufgeteilt ist", "1 Teile"),
    ("de", "(1 vorgeschlagene Token pro Schritt + 1)", "1 vorgeschlagene"),
    ("de", "auf 8 Schicht verteilt", "8 Schicht"),
    ("en", "1 tokens proposed per step", "1 tokens"),
    ("en", "÷ 1 devices each layer is split over", "1 devices"),
    ("da", "÷ 1 acceleratorer, som hvert lag er fordelt på", "1 acceleratorer"),
    ("da", "1,0 dele", "1,0 dele"),
    ("it", "÷ 1 acceleratori su cui è diviso ogni strato", "1 acceleratori"),
])
def test_count_and_noun_disagree(ctx, lang, text, quote):
    assert ("plural", quote) in codes(text, lang, ctx)


@pytest.mark.parametrize("lang, text", [
    ("de", "1 Teil, 8 Teile, 2 Byte, 1,5 Teile"),
    ("en", "one verify step of k + 1 tokens"),
    ("en", "NVLink 4 all-reduce latency"),
    ("it", "70,6 mld di parametri, 1 acceleratore"),
])
def test_counts_that_agree(ctx, lang, text):
    assert [c for c in codes(text, lang, ctx) if c[0] == "plural"] == []


@pytest.mark.parametrize("lang, text, code", [
    ("de", "GPU-Auslastung beim Decode, laut Behauptung: 0,200–0,400 Anteil", "raw-fraction"),
    ("it", "0,800 frazione", "raw-fraction"),
    ("en", "0.200–0.400 fraction", "raw-fraction"),
    ("de", "+ 0,00000230 Latenz pro Nachricht", "no-unit"),
    ("en", "0.00000300 latency per message", "no-unit"),
    ("de", "eine Zeit von 2,34567 ms", "digits"),
    ("de", "erwartet das Rechenmodell bei Batchgröße 1 161 tok/s", "collision"),
    ("en", "at batch size 1 161 tok/s", "collision"),
    ("da", "328 KB pr. token", "kilobyte"),
])
def test_machine_values_colliding_numbers_and_kb(ctx, lang, text, code):
    assert code in [c for c, _ in codes(text, lang, ctx)]


@pytest.mark.parametrize("lang, text", [
    ("de", "Llama 3.1 70B auf einer H100 80 GB mit 20–40 % Auslastung, 2,3 µs, 328 kB, 327.680 Byte"),
    ("en", "Llama 3.1 8B, 1,024 tokens, 0.4% of the time (arXiv 2405.07518), 16 × SN40L"),
    ("it", "il 13% del tempo, 1.000 token, 2,50 GiB"),
])
def test_the_sites_numbers_pass(ctx, lang, text):
    assert codes(text, lang, ctx) == []


# ------------------------------------------------------------------ rendered pages: visible text and source lines

def test_rendered_text_maps_to_the_source_line_of_its_macro(ctx):
    source = "# Titel\n\nEin Satz mit {{ fig(\"a\") }}.\n\n{{ sources_table() }}\n\nSchluss.\n"
    rendered_md = ("# Titel\n\nEin Satz mit <a class=\"fig\" href=\"x\">8</a>.\n\n"
                   "<table>\n<tr><td>eins</td><td>0,200–0,400 Anteil</td></tr>\n<tr><td>zwei</td></tr>\n</table>\n\n"
                   "Schluss made with care.\n")
    found = rendered.check_page("docs/de/x.md", "de", source, rendered_md, ctx["de"])
    assert [(p.line, p.code) for p in found] == [(5, "raw-fraction"), (7, "english")]


def test_tags_attributes_scripts_and_code_are_not_visible():
    md = ('<abbr title="the and with">KV</abbr> <script>var the = 1;</script> `the code` '
          '[Link](https://the.example/with) <td>1</td><td>161</td> <!-- made with -->')
    text = rendered.visible(md)
    assert "the" not in text.split() and "with" not in text and "1 161" not in " ".join(text.split())


# ------------------------------------------------------------------ locale files, calculators, fact check: fault injected

def _contexts(root):
    return prose_context.contexts(root, ("de", "en", "da", "it"))


def test_english_in_a_msgstr_is_reported_on_its_line(proj):
    po = proj / "locales" / "da.po"
    n = line_matching(po, r'^msgstr "Batchstørrelse"')
    edit_line(po, n, lambda s: 'msgstr "Batchstørrelse (the size)"')
    found = reader.locale_findings(Project(proj), _contexts(proj))
    p = next(p for p in found if p.code == "english")
    assert (p.path, p.line) == ("locales/da.po", n) and "'the'" in p.message


def test_a_calculator_message_is_reported_at_its_module_with_the_input(proj):
    po = proj / "locales" / "de.po"
    n = line_matching(po, r'^msgid "Enter a number\."$')
    edit_line(po, n + 1, lambda s: 'msgstr "Bitte geben Sie eine Zahl ein, 1 Teile."')
    found = reader.calculator_findings(_contexts(proj), Strings(proj / "locales"))
    p = next(p for p in found if p.code == "plural" and "1 Teile" in p.message)
    assert p.path.startswith("calculators/ui/") and p.line == 1 and "(empty)" in p.message and "German" in p.message


def test_a_verdict_the_legend_does_not_define(proj):
    page = proj / "docs" / "de" / "factcheck.md"
    content = lines(page)
    write_lines(page, [l.replace(" und **andere Lesart**", "") for l in content])
    found = reader.verdict_findings(Project(proj))
    table = line_matching(page, r"factcheck_table\(\)")
    assert [(p.path, p.line, p.code) for p in found] == [("docs/de/factcheck.md", table, "verdict")]
    assert "'andere Lesart'" in found[0].message


def test_a_refuted_figure_without_a_link_to_the_fact_check(proj):
    page = proj / "docs" / "en" / "decode.md"
    n = line_matching(page, r'fig\("power\.ratio"')
    edit_line(page, n, lambda s: s.replace("[fact check](factcheck.md)", "fact check"))
    found = reader.factcheck_link_findings(Project(proj), {"wrong"})
    assert [(p.path, p.line, p.code) for p in found] == [("docs/en/decode.md", n, "factcheck-link")]
    assert "claim 12" in found[0].message


def test_the_real_project_has_no_reader_text_errors():
    """Locale files, fact check and, not run in the build for its cost, every calculator text (sitebuild/calc_text.py)."""
    from sitebuild.checks import errors, lines
    found = errors(reader.check(Project(ROOT), calculators=True))
    assert found == [], "\n".join(lines(found, annotations=False))


# ------------------------------------------------------------------ known findings

_ENTRY = """
[[known]]
code = "english"
text = "'socket'"
files = ["docs/*"]
reason = "a device name being renamed"
issue = "21"
"""


def test_a_known_finding_is_a_warning_until_its_entry_is_removed():
    entries = known.parse(_ENTRY)
    found = [reader.Problem("docs/de/sources.md", 7, "error", "english", "English word 'socket' on a German page")]
    assert {p.severity for p in known.apply(found, entries)} == {"warning"}
    assert {p.severity for p in known.apply(found, [])} == {"error"}
    elsewhere = [reader.Problem("calculators/ui/fit.py", 7, "error", "english", "English word 'socket' on …")]
    assert {p.severity for p in known.apply(elsewhere, entries)} == {"error"}   # outside the entry's files


def test_known_findings_are_summarized_at_their_entry():
    entries = known.parse(_ENTRY)
    k = entries[0]
    found = known.apply([reader.Problem("docs/de/x.md", 3, "error", "english", "English word 'socket' on …")] * 2, entries)
    shown = known.summary(found, entries)
    assert [(p.path, p.line, p.severity) for p in shown] == [(known.FILE, k.line, "warning")]
    assert "2 time(s) in docs/de/x.md" in shown[0].message


def test_every_known_entry_names_a_lint_and_an_issue():
    for k in known.load(ROOT):
        assert k.code in prose.CODES + ("verdict", "factcheck-link") and k.issue and k.reason
