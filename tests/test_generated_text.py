"""Text the build assembles reads as each language writes it (issue 21): catalog data with their units,
the fact check's phrases, the measurements table's notes. Expected strings are written out by hand."""

from __future__ import annotations

import re

import pytest

from calculators.article import claims
from calculators.data import catalog
from sitebuild import tables
from sitebuild.strings import Strings

NB = "\u00a0"
STRINGS = Strings()


def tr_for(lang):
    return lambda msgid, ctx=None: STRINGS.get(msgid, lang, ctx)


def datum(low, high, unit):
    return catalog.Datum("x", low, high, unit, "w", None)


@pytest.mark.parametrize("lang, low, high, unit, text", [
    ("de", 0.2, 0.4, "fraction", f"20–40{NB}%"),        # a share is a percentage, never "0,200–0,400 Anteil"
    ("en", 0.8, 0.8, "fraction", "80%"),
    ("de", 40000, 50000, "W", f"40–50{NB}kW"),           # watts in SI steps, as published (no "40,0")
    ("it", 10, 10, "×", "10×"),                          # a factor glued to its number, no "10 ×"
    ("en", 50, 150, "tok/s", f"50–150{NB}tok/s"),
    ("de", 128, 128, "chips", f"128{NB}Chips"),          # a counted noun, translated
])
def test_a_datum_prints_with_its_unit_as_the_language_writes_it(lang, low, high, unit, text):
    assert tables._datum_value("x", datum(low, high, unit), lang, tr_for(lang)) == text


def test_a_datum_unit_without_a_printed_form_stops_the_build_naming_the_entry():
    with pytest.raises(ValueError, match=r"catalog.toml: data.x: unit 'furlongs'"):
        tables._datum_value("x", datum(1, 1, "furlongs"), "de", tr_for("de"))


def test_a_claim_part_may_say_what_its_value_shows():
    """Claim 15 states no minimum: its part says what the ratio means instead of 'reaches the claimed minimum'."""
    res = next(r for r in claims.results() if r.claim.n == 15)
    cell = tables._part_cell(res.parts[0], tr_for("de"), lambda fid, style=None: "7,2-mal" if style == "times" else "7,2×")
    assert cell.startswith("das Rack hat <strong>7,2-mal</strong> so viel Bandbreite, wie diese Geschwindigkeit braucht")
    measured = next(r for r in claims.results() if r.claim.n == 6).parts[2]
    assert tables._part_cell(measured, tr_for("en"), lambda fid: "49–71 tok/s").startswith("the measured <strong>")


@pytest.mark.parametrize("lang, names, text", [
    ("de", ["A"], "ohne A: Bandbreite der Verbindung nicht veröffentlicht"),
    ("de", ["A", "B"], "ohne A und ohne B: Bandbreite der Verbindung nicht veröffentlicht"),
    ("it", ["A", "B", "C"], "senza A, senza B e senza C: banda del collegamento non pubblicata"),
])
def test_each_unpublished_link_gets_its_own_without(lang, names, text):
    tr = tr_for(lang)
    assert tr(tables._WITHOUT[len(names)]).format(**dict(zip("abc", names))) == text


@pytest.mark.parametrize("lang, one, both", [
    ("de", "7,2-mal", "1,04- bis 1,47-mal"), ("en", "7.2 times", "1.04 to 1.47 times"),
    ("da", "7,2 gange", "1,04 til 1,47 gange"), ("it", "7,2 volte", "da 1,04 a 1,47 volte"),
])
def test_a_factor_in_running_text(lang, one, both):
    from calculators.text import prose
    assert prose.times(7.2, lang, sig=2) == one
    assert prose.times((1.04, 1.47), lang) == both


def test_a_small_count_in_words_and_what_is_refused():
    from calculators.example.figure import Figure
    from calculators.text import prose
    assert Figure("x", 2, "count", "w", (), sig=None, decimals=0).format("de", "words") == "zwei"
    assert Figure("x", 8, "count", "w", (), sig=None, decimals=0).format("it", "words") == "otto"
    assert prose.words(13, "en") == "13"          # a larger count in digits (a running example may make one large)
    with pytest.raises(ValueError, match="whole counts"):
        prose.words(2.5, "en")
    with pytest.raises(ValueError, match="style='times' is for a ratio"):
        Figure("x", 2, "count", "w", (), sig=None, decimals=0).format("en", "times")


def test_a_style_the_figure_has_not_is_a_build_error(proj):
    """fault injection: style="times" on a byte count in a page is reported with file and line."""
    from checkutil import find, line_matching, lines, run, write_lines
    page = proj / "docs" / "de" / "decode.md"
    n = line_matching(page, r'fig\("kv.llama70b.bytes_per_token_long"\)')
    content = lines(page)
    content[n - 1] = content[n - 1].replace('fig("kv.llama70b.bytes_per_token_long")', 'fig("kv.llama70b.bytes_per_token_long", style="times")', 1)
    write_lines(page, content)
    find(run(proj, ["de"]), path="docs/de/decode.md", code="macro-arguments", line=n, contains=("style='times' is for a ratio",))


def test_the_kv_chart_names_the_context_its_numbers_are_for():
    """The caption's context is the chart's last point, 131,072 tokens (it once printed a pixel coordinate, "44").
    Llama 3.1 70B there, by hand: 80 layers × 2 × 8 KV heads × 128 × 2 bytes × 131,072 tokens = 42.95 GB."""
    from calculators.article import charts
    svg = charts.kv_vs_context("en", lambda m, c=None: m)
    desc = re.search(r"<desc[^>]*>([^<]*)<", svg).group(1)
    assert desc.startswith("At 131,072 tokens the cache holds 42.9\u00a0GB for Llama 3.1 70B"), desc


def test_an_expected_time_and_its_range_share_a_unit():
    """Danish review 2026-12-02 #25: "116 s, typisk 91,0 s – 2 min 5 s" mixed units within one row."""
    from calculators.ui.decode import typically
    row = typically("x", 116, 91, 125, "seconds", "da")
    assert dict((k, v) for k, v, _ in row.fill) == {"value": "116\u00a0s", "range": "91,0–125\u00a0s"}
