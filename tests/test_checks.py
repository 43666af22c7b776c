"""The fact checks catch each injected fault, naming the right file and line.

Most tests run the checks as functions on a broken copy of the project
(sitebuild.checks.run); the tests marked `build` run `mkdocs build --strict`
on the copy and expect it to fail with the same message. Faults: a
hand-typed number in each language, a number word in each language, a name
with digits missing from the list, a figure dropped or doubled in a
translation, a heading, list item, link or chart dropped in a translation,
a count that no longer matches its list, an undefined figure id, macro,
catalog entry, chart, calculator or UI string, and claims out of tolerance.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from checkutil import run, LANGS, ROOT, build, copy_project, edit_line, find, line_matching, lines, prose_line, write_lines
from sitebuild import checks
from sitebuild.checks import numbers, report, source


def page(root, lang, name="decode.md") -> pathlib.Path:
    return root / "docs" / lang / name


# --------------------------------------------------------------- no hand-typed figures

TYPED = {"de": " Rund 8K Token.", "en": " About 70B parameters.", "da": " Omkring 2,5 GB.", "it": " Circa 50 tok/s."}


@pytest.mark.parametrize("lang", LANGS)
def test_hand_typed_number_in_each_language(proj, lang):
    path = page(proj, lang)
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + TYPED[lang])
    p = find(run(proj, [lang]), path=f"docs/{lang}/decode.md", code="digit", line=n, severity="error")
    assert "hand-typed number" in p.message and "allowed_names.txt" in p.message


WORDS = {"de": ("zwei", " Das dauert zwei Schritte."), "en": ("twice", " It is twice as fast."),
         "da": ("fire", " Der er fire trin."), "it": ("tre", " Servono tre passi.")}


@pytest.mark.parametrize("lang", LANGS)
def test_spelled_out_number_in_each_language(proj, lang):
    word, sentence = WORDS[lang]
    path = page(proj, lang)
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + sentence)
    p = find(run(proj, [lang]), path=f"docs/{lang}/decode.md", code="number-word", line=n, severity="error")
    assert f"'{word}'" in p.message


ARTICLES = {"de": " Ein Token, eine Anfrage, einmal, einfach.", "en": " One token at a time, once.",
            "da": " En token og et svar.", "it": " Un token, una richiesta, uno studio."}


@pytest.mark.parametrize("lang", LANGS)
def test_articles_are_not_number_words(proj, lang):
    path = page(proj, lang)
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + ARTICLES[lang])
    assert not [p for p in run(proj, [lang]) if p.code == "number-word" and p.path == f"docs/{lang}/decode.md" and p.line == n]


def test_number_words_are_per_language(proj):
    """Danish 'fire' is four; in an English sentence it is fire."""
    assert numbers.is_number_word("fire", "da") and not numbers.is_number_word("fire", "en")
    assert numbers.is_number_word("due", "it") and not numbers.is_number_word("due", "en")
    path = page(proj, "en")
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + " A fire alarm is not a count.")
    assert not [p for p in run(proj, ["en"]) if p.code == "number-word" and p.path == "docs/en/decode.md" and p.line == n]


def test_names_with_digits_come_from_the_reviewed_list(proj):
    path = page(proj, "de")
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + " Das gilt für H100 und H100s, aber nicht für H101.")
    here = lambda p: p.code == "digit" and p.path == "docs/de/decode.md" and p.line == n
    found = [p for p in run(proj, ["de"]) if here(p)]
    assert len(found) == 1 and "'H101'" in found[0].message
    names = proj / "sitebuild" / "allowed_names.txt"
    names.write_text(names.read_text(encoding="utf-8") + "H101\n", encoding="utf-8")
    assert not [p for p in run(proj, ["de"]) if here(p)]


def test_code_links_macros_and_comments_are_not_prose():
    text = ("# Titel\n\nText `code 42` und [Link](decode.md#x-2 \"t\") und <https://x.org/3> und https://y.org/4\n"
            "<!-- Notiz 5 -->\n{{ fig(\"context.8192\") }} und <span data-x=\"6\">s</span> &#160; {: #id-7 }\n\n"
            "1. erstens\n2. zweitens\n\n```\nx = 8\n```\n\n[^9]: Fußnote\n[ref10]: https://z.org/11\n")
    page_ = source.parse(text, "docs/de/x.md")
    digits = [p for p in numbers.check_page(page_, None) if p.code == "digit"]
    assert not digits, digits
    assert [m.call for m in page_.macros] == ["fig('context.8192')"]
    assert [l.target for l in page_.links] == ["decode.md#x-2", "https://x.org/3", "https://z.org/11"]


# ---------------------------------------------------------------- figure and structure parity

def _fig_line(path: pathlib.Path, start: int = 5) -> int:
    return line_matching(path, r'\{\{ *fig\("', start)


def test_figure_dropped_from_one_translation(proj):
    da = page(proj, "da")
    n = _fig_line(da, start=20)
    content = lines(da)
    first = re.search(r'\{\{ *fig\("([^"]+)"\) *\}\}', content[n - 1])
    content[n - 1] = content[n - 1].replace(first.group(0), "", 1)
    write_lines(da, content)
    de_line = line_matching(page(proj, "de"), re.escape(first.group(0)))
    p = find(run(proj, ["da"]), path="docs/da/decode.md", code="figure-parity", severity="error",
             contains=(first.group(1), f"docs/de/decode.md:{de_line}", "missing"))
    assert p.line >= 1


def test_figure_present_twice_in_a_translation(proj):
    it = page(proj, "it")
    n = _fig_line(it, start=20)
    call = re.search(r'\{\{ *fig\("[^"]+"\) *\}\}', lines(it)[n - 1]).group(0)
    edit_line(it, n, lambda s: s + " " + call)
    find(run(proj, ["it"]), path="docs/it/decode.md", code="figure-parity", line=n, severity="error",
         contains=("present 2 times", "docs/de/decode.md:"))


def test_figures_swapped_within_a_section(proj):
    en = page(proj, "en")
    n = line_matching(en, r'fig\("[^"]+"\).*fig\("[^"]+"\)', 20)
    def swap(s):
        calls = re.findall(r'\{\{ *fig\("[^"]+"\) *\}\}', s)
        a, b = calls[0], next(c for c in calls[1:] if c != calls[0])
        return s.replace(a, "\0").replace(b, a, 1).replace("\0", b, 1)
    edit_line(en, n, swap)
    find(run(proj, ["en"]), path="docs/en/decode.md", code="figure-parity", line=n, contains=("out of order",))


def test_heading_dropped_from_one_translation(proj):
    it, de = page(proj, "it"), page(proj, "de")
    # the second `##` heading of each (line numbers differ: a translation carries front matter)
    n = line_matching(it, r"^## ", line_matching(it, r"^## "))
    de_heading = lines(de)[line_matching(de, r"^## ", line_matching(de, r"^## ")) - 1][3:]
    content = lines(it)
    del content[n - 1]
    write_lines(it, content)
    find(run(proj, ["it"]), path="docs/it/decode.md", code="heading-parity", severity="error",
         contains=(de_heading, "docs/de/decode.md:", "has no counterpart"))


def test_list_item_dropped_from_one_translation(proj):
    en = page(proj, "en")
    n = line_matching(en, r"^- ", 0)
    content = lines(en)
    del content[n - 1]
    write_lines(en, content)
    find(run(proj, ["en"]), path="docs/en/decode.md", code="list-parity", line=n, severity="error",
         contains=("docs/de/decode.md:",))


def test_link_dropped_from_one_translation(proj):
    da = page(proj, "da")
    n = line_matching(da, r"\]\((?!http)[a-z]+\.md", 0)
    old = edit_line(da, n, lambda s: re.sub(r"\[([^\]]+)\]\((?!http)[a-z]+\.md[^)]*\)", r"\1", s, count=1))
    target = re.search(r"\]\(((?!http)[a-z]+\.md)", old).group(1)
    find(run(proj, ["da"]), path="docs/da/decode.md", code="link-parity", severity="error",
         contains=(repr(target), "missing", "docs/de/decode.md:"))


def test_chart_dropped_from_one_translation(proj):
    en = page(proj, "en")
    n = line_matching(en, r'\{\{ *chart\("', 0)
    edit_line(en, n, lambda s: "")
    find(run(proj, ["en"]), path="docs/en/decode.md", code="macro-parity", severity="error",
         contains=("chart(", "missing", "docs/de/decode.md:"))


def test_count_word_must_match_its_list(proj):
    de = page(proj, "de")
    n = line_matching(de, r'fig\("dataflow\.differences"\)', 0)
    item = line_matching(de, r"^- ", n)
    content = lines(de)
    del content[item - 1]
    write_lines(de, content)
    find(run(proj, ["de"]), path="docs/de/decode.md", code="count", line=n, severity="error",
         contains=("vier", f"docs/de/decode.md:{item}", "3 items"))


def test_orphan_translation(proj):
    (proj / "docs" / "da" / "extra.md").write_text("# Ekstra\n", encoding="utf-8")
    find(run(proj, ["da"]), path="docs/da/extra.md", code="orphan", line=1, severity="error")


# ---------------------------------------------------------------- unknown names

def test_undefined_figure_id(proj):
    path = page(proj, "da")
    n = _fig_line(path, 20)
    edit_line(path, n, lambda s: re.sub(r'fig\("([^"]+)"\)', r'fig("\1.typo")', s, count=1))
    find(run(proj, ["da"]), path="docs/da/decode.md", code="unknown-figure", line=n, severity="error",
         contains=(".typo", "did you mean"))


@pytest.mark.parametrize("call,code", [('{{ figure("context.8192") }}', "unknown-macro"),
                                       ('{{ src("measurements.nowhere") }}', "unknown-source"),
                                       ('{{ chart("pie") }}', "unknown-chart"),
                                       ('{{ calculator("abacus") }}', "unknown-calculator"),
                                       ('{{ t("A string nobody wrote") }}', "unknown-string"),
                                       ('{{ fig(name) }}', "macro-syntax"),
                                       ('{{ fig("context.8192", 3) }}', "macro-arguments")])
def test_unknown_names_are_errors_with_file_and_line(proj, call, code):
    path = page(proj, "de")
    n = prose_line(path, 5)
    edit_line(path, n, lambda s: s + " " + call)
    find(run(proj, ["de"]), path="docs/de/decode.md", code=code, line=n, severity="error")


# ---------------------------------------------------------------- claims

def _claim_line(proj, claim):
    path = page(proj, "de")
    n = prose_line(path, 5)
    edit_line(path, n, lambda s: s + " Rund " + claim + ".")
    return n


def test_claim_within_tolerance_passes(proj):
    n = _claim_line(proj, '{{ claim("kv.llama70b.total.8192", about=2.7, scale=1e9) }}')
    assert not [p for p in run(proj, ["de"]) if p.line == n and p.path == "docs/de/decode.md"]


def test_claim_out_of_tolerance(proj):
    n = _claim_line(proj, '{{ claim("kv.llama70b.total.8192", about=3.2e9) }}')
    find(run(proj, ["de"]), path="docs/de/decode.md", code="claim", line=n, severity="error",
         contains=("kv.llama70b.total.8192", "the model computes 2.68", "the claim says within 3% of 3.2"))


def test_claim_bound_violated(proj):
    n = _claim_line(proj, '{{ claim("ceiling.llama70b.h100.memory", at_least=100) }}')
    find(run(proj, ["de"]), path="docs/de/decode.md", code="claim", line=n, contains=("at least",))


# ---------------------------------------------------------------- reporting

def test_problem_formats_for_terminal_and_github():
    p = report.Problem("docs/da/decode.md", 42, "error", "digit", "hand-typed number '8K': 50% done, a,b")
    assert str(p) == "docs/da/decode.md:42: error: hand-typed number '8K': 50% done, a,b [digit]"
    assert report.github(p) == "::error file=docs/da/decode.md,line=42,title=digit::hand-typed number '8K': 50%25 done, a,b"
    out = report.lines([p], annotations=True)
    assert out[0] == str(p) and out[1].startswith("::error ")


def test_warnings_of_a_kind_are_summarized_in_the_build_log():
    many = [report.Problem("locales/da.po", n, "warning", "missing", f"untranslated {n}", group="untranslated entries")
            for n in range(1, 6)]
    assert report.lines(many, annotations=False) == [
        "locales/da.po: warning: untranslated entries: 5 (run `make translations` for the list) [missing]"]
    assert len(report.lines(many, summarize=False, annotations=False)) == 5


# ---------------------------------------------------------------- end to end (mkdocs build --strict)

@pytest.mark.parametrize("fault", ["digit", "unknown-figure", "claim"])
def test_build_fails_with_file_and_line(site_proj, tmp_path, fault):
    lang = {"digit": "it", "unknown-figure": "da", "claim": "de"}[fault]
    path = page(site_proj, lang)
    n = prose_line(path, 5)
    add = {"digit": " Circa 50 tok/s.", "unknown-figure": ' {{ fig("no.such.figure") }}',
           "claim": ' {{ claim("kv.llama70b.total.8192", about=3.2e9) }}'}[fault]
    edit_line(path, n, lambda s: s + add)
    proc = build(site_proj, tmp_path / "site", {"GITHUB_ACTIONS": "true"})
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert re.search(rf"^docs/{lang}/decode\.md:{n}: error: .*\[{fault}\]$", proc.stderr, re.M), proc.stderr[-3000:]
    assert f"::error file=docs/{lang}/decode.md,line={n},title={fault}::" in proc.stderr


def test_checks_run_once_per_build_and_can_be_switched_off(site_proj, tmp_path):
    path = page(site_proj, "en")
    n = prose_line(path, 5)
    edit_line(path, n, lambda s: s + " About 70B parameters.")
    proc = build(site_proj, tmp_path / "site")
    assert proc.returncode != 0
    # one report per problem (the termbase also flags "70B" as a billion written "B"): none may repeat
    reported = [l for l in proc.stderr.splitlines() if l.startswith(f"docs/en/decode.md:{n}: error:")]
    assert reported and len(reported) == len(set(reported)), "the checks ran more than once (i18n rebuilds per language)"
    assert sum("hand-typed number" in l for l in reported) == 1
    off = build(site_proj, tmp_path / "site-off", {"SITE_CHECKS": "off"})
    assert off.returncode == 0, off.stderr[-3000:]


# ---------------------------------------------------------------- the real project

def test_the_real_project_passes_every_check():
    """THE REAL PROJECT: passes once the pages are written and translated and `make messages` has run
    (warnings, e.g. unreviewed translations, are allowed; errors are listed with file and line)."""
    errs = checks.errors(checks.run(ROOT))
    assert not errs, "\n".join(str(p) for p in errs)
