"""The termbase (locales/terms/<lang>.toml) and its lint, with injected faults.

Each fault is put into a copy of the project: a forbidden variant in a page,
in a .po string and in a chart label, a British spelling in English, broken
termbase files, an Italian article typed before a figure. Each must be
reported with file and line (errors stop the build).
"""

from __future__ import annotations

import re

import pytest

from checkutil import LANGS, ROOT, build, edit_line, find, line_matching, lines, prose_line, run, write_lines
from sitebuild import glossary, spelling, termbase


def add_forbidden(root, lang, term_id, variant):
    """Append a forbidden variant to a term of the copy's termbase."""
    path = root / "locales" / "terms" / f"{lang}.toml"
    text = path.read_text(encoding="utf-8")
    header = f"[terms.{term_id}]\n"
    assert header in text
    start = text.index(header) + len(header)
    nxt = text.find("\n[", start)
    block = text[start:nxt if nxt >= 0 else len(text)]
    if "forbidden = [" in block:
        new_block = block.replace("forbidden = [", f'forbidden = ["{variant}", ', 1)
    else:
        new_block = block.rstrip("\n") + f'\nforbidden = ["{variant}"]\n'
    path.write_text(text[:start] + new_block + text[start + len(block):], encoding="utf-8")


# ------------------------------------------------------------------ the real files

def test_the_real_termbase_files_are_valid_and_agree():
    assert termbase.problems(ROOT) == []
    ids = [set(termbase.load(ROOT, lang).terms) for lang in LANGS]
    assert all(i == ids[0] for i in ids)
    assert set(termbase.REQUIRED_IDS) <= ids[0]


def test_symbols_in_the_termbase_are_what_the_figures_print():
    from calculators.text import fmt
    for lang in LANGS:
        tb = termbase.load(ROOT, lang)
        assert tb.get("billion-symbol").term in fmt.format_quantity(70.55e9, "params", lang)
        assert tb.get("byte-symbol").term in fmt.format_quantity(512, "bytes", lang)


# ---------------------------------------------------------------- forbidden variants

@pytest.mark.parametrize("lang, term_id, variant", [
    ("de", "kv-cache", "Schlüsselwertspeicher"), ("en", "kv-cache", "key-value store"),
    ("da", "memory-bandwidth", "lagerbåndbredde"), ("it", "kv-cache", "memoria chiave-valore"),
])
def test_forbidden_variant_in_a_page(proj, lang, term_id, variant):
    add_forbidden(proj, lang, term_id, variant)
    path = proj / "docs" / lang / "decode.md"
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + f" Das {variant} hier.")
    p = find(run(proj, [lang]), path=f"docs/{lang}/decode.md", code="term", line=n, severity="error")
    assert variant in p.message and termbase.load(proj, lang).get(term_id).term in p.message


def test_a_forbidden_variant_inside_a_macro_code_or_url_is_not_prose(proj):
    add_forbidden(proj, "da", "kv-cache", "KV-lager")
    path = proj / "docs" / "da" / "decode.md"
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + " `KV-lager` <https://example.org/KV-lager> <span title=\"KV-lager\">x</span>")
    assert not [p for p in run(proj, ["da"]) if p.code == "term"]


def test_forbidden_variant_in_a_po_string(proj):
    add_forbidden(proj, "da", "throughput", "gennemstrømning")
    po = proj / "locales" / "da.po"
    n = line_matching(po, r'^msgstr "\S', start=20)   # past the header entry
    edit_line(po, n, lambda s: s[:-1] + ' gennemstrømning"')
    p = find(run(proj, ["da"]), path="locales/da.po", code="term", line=n, severity="error")
    assert "gennemstrømning" in p.message and "gennemløb" in p.message


def test_a_placeholder_named_like_a_forbidden_word_is_not_prose(proj):
    """'{tokens} token di contesto': the slot's name is code; the same word as text is still caught."""
    po = proj / "locales" / "it.po"
    n = line_matching(po, r'^msgstr "\S', start=20)
    edit_line(po, n, lambda s: 'msgstr "{tokens} token di contesto"')
    assert not [p for p in run(proj, ["it"]) if p.code == "term" and p.line == n]
    edit_line(po, n, lambda s: 'msgstr "{tokens} tokens di contesto"')
    p = find(run(proj, ["it"]), path="locales/it.po", code="term", line=n, severity="error")
    assert "'tokens'" in p.message


def test_forbidden_variant_in_a_chart_label(proj):
    """A chart's label is a UI string: the msgstr line is reported, naming the chart code."""
    add_forbidden(proj, "it", "arithmetic-intensity", "densità aritmetica")
    po = proj / "locales" / "it.po"
    n = line_matching(po, r'^msgid "Arithmetic intensity \(FLOP per byte read\)"') + 1
    edit_line(po, n, lambda s: 'msgstr "Densità aritmetica (FLOP per byte letto), densità aritmetica"')
    p = find(run(proj, ["it"]), path="locales/it.po", code="term", line=n, severity="error")
    assert "chart label (calculators/ui/example_charts.py:" in p.message and "intensità aritmetica" in p.message


def test_british_spelling_in_english_page_po_and_code(proj):
    page = proj / "docs" / "en" / "decode.md"
    n = prose_line(page, start=5)
    edit_line(page, n, lambda s: s + " The GPU is under-utilised; its behaviour is known.")
    po = proj / "locales" / "en.po"
    m = line_matching(po, r'^msgid "Arithmetic intensity') + 1
    edit_line(po, m, lambda s: 'msgstr "Arithmetic intensity (FLOP per byte read), a colour"')
    found = run(proj, ["en"])
    find(found, path="docs/en/decode.md", code="term", line=n, contains=("'behaviour'", "'behavior'"))
    find(found, path="locales/en.po", code="term", line=m, contains=("chart label", "'colour'", "'color'"))
    # "under-utilised": the hyphenated prefix is not a word boundary we trust; the stem itself is caught
    assert list(spelling.british("utilised")) == [(0, "utilised", "utilized")]


def test_us_spelling_list_leaves_us_words_alone():
    text = "precise raise otherwise expertise analyses parallelism emphasis organism promise utilization catalog"
    assert list(spelling.british(text)) == []
    assert [w for _, w, _ in spelling.british("Optimised quantisation, catalogue, modelling, colours")] == [
        "Optimised", "quantisation", "catalogue", "modelling", "colours"]


# --------------------------------------------------------------- broken termbase files

def test_termbase_syntax_error_names_the_line(proj):
    path = proj / "locales" / "terms" / "it.toml"
    content = lines(path)
    n = next(i for i, line in enumerate(content) if line.startswith("term = ")) + 1
    content[n - 1] = 'term = "cache KV'
    write_lines(path, content)
    p = find(run(proj, ["it"]), path="locales/terms/it.toml", code="termbase", line=n, severity="error")
    assert "TOML" in p.message
    with pytest.raises(termbase.TermbaseError, match="locales/terms/it.toml"):
        termbase.load(proj, "it")


def test_termbase_ids_missing_or_extra_and_forbidden_equal_to_term(proj):
    da = proj / "locales" / "terms" / "da.toml"
    text = da.read_text(encoding="utf-8")
    block = re.search(r"\[terms\.rack\]\n(?:[^\[].*\n|\n)*", text).group(0)
    da.write_text(text.replace(block, ""), encoding="utf-8")                 # drop a required id
    de = proj / "locales" / "terms" / "de.toml"
    de.write_text(de.read_text(encoding="utf-8") + '\n[terms.only-german]\nterm = "Nur"\n', encoding="utf-8")
    add_forbidden(proj, "en", "kv-cache", "KV cache")                         # the chosen term itself
    found = run(proj, LANGS)
    find(found, path="locales/terms/da.toml", code="termbase", contains=("[terms.rack]", "required"))
    find(found, path="locales/terms/en.toml", code="termbase", contains=("[terms.only-german]", "de.toml"))
    n = line_matching(proj / "locales" / "terms" / "en.toml", r"^\[terms\.kv-cache\]")
    find(found, path="locales/terms/en.toml", code="termbase", line=n, contains=("'KV cache'", "chosen term"))


def test_termbase_meta_and_symbols(proj):
    it = proj / "locales" / "terms" / "it.toml"
    it.write_text(it.read_text(encoding="utf-8").replace('language = "it"', 'language = "en"')
                  .replace('term = "mld"', 'term = "Mrd."'), encoding="utf-8")
    found = run(proj, ["it"])
    find(found, path="locales/terms/it.toml", code="termbase", line=1, contains=("language",))
    find(found, path="locales/terms/it.toml", code="termbase", contains=("billion-symbol", "calculators/text/units.py", "'mld'"))


def test_missing_termbase_file(proj):
    (proj / "locales" / "terms" / "da.toml").unlink()
    find(run(proj, ["da"]), path="locales/terms/da.toml", code="termbase", contains=("missing",))


# ------------------------------------------------------------------- glossary and term()

def test_glossary_headings_and_hover_texts_come_from_the_termbase(proj):
    tb = proj / "locales" / "terms" / "da.toml"
    tb.write_text(tb.read_text(encoding="utf-8").replace('term = "KV-cache"', 'term = "KV-lager"')
                  .replace('plural = "KV-caches"', ''), encoding="utf-8")
    glossary.terms.cache_clear()
    terms = glossary.terms("da", proj / "docs")
    assert "KV-lager" in terms and "KV-cache" not in terms
    real = glossary.terms("da", ROOT / "docs")
    assert "KV-cache" in real and real["KV-cache"] == terms["KV-lager"]


def test_unknown_term_id_is_an_error(proj):
    path = proj / "docs" / "en" / "decode.md"
    n = prose_line(path, start=5)
    edit_line(path, n, lambda s: s + ' {{ term("kv-cash") }}')
    p = find(run(proj, ["en"]), path="docs/en/decode.md", code="unknown-term", line=n)
    assert "kv-cache" in p.message


def test_glossary_heading_that_is_not_a_term(proj):
    path = proj / "docs" / "it" / "glossary.md"
    n = line_matching(path, r"^## ")
    edit_line(path, n, lambda s: "## Memorizzazione chiave-valore")
    find(run(proj, ["it"]), path="docs/it/glossary.md", code="term", line=n, contains=("not a term",))


# -------------------------------------------------------- Italian article before a figure

@pytest.mark.parametrize("typed", ["al {{ fig(\"util.llama70b.batch1\") }}", "l'{{ fig(\"util.llama70b.batch1\") }}",
                                   "dell’{{ fig(\"util.llama70b.batch1\") }}", "Lo {{fig(\"util.llama70b.batch1\")}}"])
def test_italian_article_typed_before_a_figure_is_flagged(proj, typed):
    path = proj / "docs" / "it" / "index.md"
    n = prose_line(path, start=3)
    edit_line(path, n, lambda s: s + " pari " + typed + ".")
    p = find(run(proj, ["it"]), path="docs/it/index.md", code="it-article", line=n)
    assert "art=" in p.message


def test_art_and_noun_are_language_only_arguments(proj):
    """fig("id", art="al") in Italian matches fig("id") in German; art= elsewhere or a bad form is an error."""
    it = proj / "docs" / "it" / "decode.md"
    n = line_matching(it, r'\{\{ fig\("')
    edit_line(it, n, lambda s: re.sub(r'\{\{ fig\("([^"]+)"\) \}\}', r'{{ fig("\1", art="al") }}', s, count=1))
    de = proj / "docs" / "de" / "decode.md"
    m = line_matching(de, r'\{\{ fig\("')
    edit_line(de, m, lambda s: re.sub(r'\{\{ fig\("([^"]+)"\) \}\}', r'{{ fig("\1", art="xx") }}', s, count=1))
    found = run(proj, ["de", "it"])
    assert not [p for p in found if p.code == "figure-parity" and p.path == "docs/it/decode.md"]
    find(found, path="docs/de/decode.md", code="macro-arguments", line=m, contains=("Italian",))


# ------------------------------------------------------------------ end to end

def test_build_fails_on_a_forbidden_variant_with_file_and_line(site_proj, tmp_path):
    add_forbidden(site_proj, "de", "kv-cache", "Schlüsselwertspeicher")
    path = site_proj / "docs" / "de" / "index.md"
    n = prose_line(path, start=3)
    edit_line(path, n, lambda s: s + " Der Schlüsselwertspeicher wächst.")
    proc = build(site_proj, tmp_path / "site", {"GITHUB_ACTIONS": "true"})
    assert proc.returncode != 0
    assert re.search(rf"^docs/de/index\.md:{n}: error: forbidden variant 'Schlüsselwertspeicher'.*\[term\]$",
                     proc.stderr, re.M), proc.stderr[-3000:]
