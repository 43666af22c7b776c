"""The measurements table (fact-check page) and the prose figures of the deployment model.

The table is rendered as the build renders it, in four languages; its numbers
must be the same figures in each; rows above their ceiling must show the
computed explanation; an unexplained row must stop the build. One row and the
utilisation limit are recomputed by hand from the public config and datasheets.
"""

import dataclasses
import html
import re

import pytest

from calculators.data import catalog
from calculators.article import claims
from calculators.article import figures
from calculators.text import fmt, parse
from calculators.data import serving
from calculators.perf import measured as X
from sitebuild import tables
from sitebuild.strings import Strings

LANGS = ("de", "en", "da", "it")
STRINGS = Strings()
SPAN = re.compile(r'<span class="fig" data-fig="([^"]+)">([^<]*)</span>')


def _render(lang, cites=None):
    tr = lambda msgid, ctx=None: STRINGS.get(msgid, lang, ctx)  # noqa: E731
    fig = lambda i, style=None: f'<span class="fig" data-fig="{i}">{html.escape(figures.get(i).format(lang, style))}</span>'  # noqa: E731
    cite = (lambda src: cites.append(src) or "") if cites is not None else (lambda src: "")
    return tables.measurements_table(lang, tr, fig, cite)


def _first_number(text: str, lang: str) -> float:
    """The first number of a printed figure ('12.200 tok/s', '0,97×', '4,0 %–5,6 %'), parsed as that locale writes it."""
    m = re.match(r"[\d.,\u00a0\u202f]+\d|\d", html.unescape(text))
    return parse.parse_number(m.group(0), lang)


RENDERED = {lang: _render(lang) for lang in LANGS}


def test_the_table_shows_the_same_figures_with_the_same_values_in_four_languages():
    spans = {lang: SPAN.findall(out) for lang, out in RENDERED.items()}
    ids = [i for i, _ in spans["de"]]
    rows = X.rows(catalog.load(), serving.load())
    served = [k for k, m in serving.load().measurements.items() if m.weight_precision or m.speculation]
    # 3 per row, the expected value and its typical range where a measurement calibrates the device, the
    # as-served ceiling where the publisher states a configuration, and the explanations
    calibrated = sum(1 for r in rows if r.expected is not None)
    assert len(ids) == 3 * len(rows) + 2 * calibrated + len(served) + sum(3 if r.explanation.k else 1 for r in rows if r.explanation)
    assert {f'row.{k}.ceiling_served' for k in served} <= set(ids)
    for lang in LANGS:
        assert [i for i, _ in spans[lang]] == ids, lang
    for n, fig_id in enumerate(ids):
        values = {lang: _first_number(spans[lang][n][1], lang) for lang in LANGS}
        assert len(set(values.values())) == 1, (fig_id, values)


def test_headers_and_labels_are_translated():
    for lang, out in RENDERED.items():
        heads = re.findall(r"<th[^>]*>([^<]*)</th>", out)
        assert len(heads) == 8   # date under who measured, context under the deployment
        if lang != "en":
            assert heads != re.findall(r"<th[^>]*>([^<]*)</th>", RENDERED["en"]), lang
        assert "{" not in re.sub(r"<[^>]+>", "", out), lang     # no placeholder left unfilled


def test_rows_above_the_ceiling_show_their_explanation_and_assumed_deployments_are_marked():
    table = X.rows(catalog.load(), serving.load())
    above = [r for r in table if r.ratio > 1]
    assert above, "the catalog holds measurements above the plain ceiling"
    for lang, out in RENDERED.items():
        body = out.split("<tbody>")[1]
        rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
        assert len(rows) == len(table)
        for r, row in zip(table, rows):
            assert f'data-fig="row.{r.key}.ratio"' in row
            if r.ratio > 1:
                assert f'data-fig="row.{r.key}.why_ceiling"' in row, (lang, r.key)
                assert figures.get(f"row.{r.key}.why_ceiling").value >= r.high * (1 - 1e-9)   # equal up to rounding
            marker = STRINGS.get("assumed" if r.deployment_assumed else "published", lang, "deployment")
            assert f"({html.escape(marker)})" in row, (lang, r.key)


def test_every_published_measurement_cites_its_source():
    cites = []
    _render("en", cites)
    cat, sv = catalog.load(), serving.load()
    expected = [(cat.measurements.get(k) or sv.measurements[k]).src for k in [r.key for r in X.rows(cat, sv)]]
    assert cites == expected
    assert all(s.url.startswith("https://") for s in cites if s in [m.src for m in sv.measurements.values()])


def test_an_unexplained_measurement_stops_the_table(monkeypatch):
    # fault injection: Llama 3.1 70B at 100,000 tok/s on 8 H100 has no mechanism that reaches it
    cat, sv = catalog.load(), serving.load()
    fake = dataclasses.replace(sv.measurements["nvidia-medusa-llama-3.1-70b"], key="fake-70b", low=1e5, high=1e5,
                               device="h100-sxm", speculation=None)
    rows = X.rows(dataclasses.replace(cat, measurements={}), dataclasses.replace(sv, measurements={"fake-70b": fake}))
    monkeypatch.setattr(X, "rows", lambda c, s: rows)
    with pytest.raises(ValueError, match=r"fake-70b \(serving.toml: measured 100000 tok/s"):
        _render("de")


def test_medusa_llama_70b_row_by_hand():
    # Llama 3.1 70B config.json: hidden 8192, 64 query / 8 KV heads of 128, intermediate 28672, 80 layers, vocab 128256.
    per_layer = 8192 * (8192 + 1024 + 1024 + 8192) + 3 * 8192 * 28672 + 2 * 8192
    read = 80 * per_layer + 128_256 * 8192 + 8192 + 8192     # layers, lm_head, one embedding row, final norm
    # the catalog's precision is BF16 (2 bytes); TP8 on H200 (4.8 TB/s); BF16 cache: 80 x 2 x 8 x 128 x 2 B x 2048 tokens
    per_gpu = read * 2 / 8 + 80 * 2 * 8 * 128 * 2 * 2048 / 8
    ceiling = 4.8e12 / per_gpu
    assert figures.get("row.nvidia-medusa-llama-3.1-70b.ceiling").value == pytest.approx(ceiling)
    assert figures.get("row.nvidia-medusa-llama-3.1-70b.ratio").value == pytest.approx(268 / ceiling)
    assert 268 / ceiling < 1      # below the plain ceiling: no explanation needed


def test_utilisation_limit_at_8k_by_hand():
    # FLOP per token: 2 x parameters a token multiplies with (all but the embedding table) + attention,
    # 4 x layers x context x query heads x head dim; per request the step reads 8192 tokens of 327,680 B of cache.
    active = 80 * (8192 * 18432 + 3 * 8192 * 28672 + 2 * 8192) + 128_256 * 8192 + 8192
    flops = 2 * active + 4 * 80 * 8192 * 64 * 128
    limit = (flops / 989e12) / (8192 * 327_680 / 3.35e12)
    assert figures.get("util.llama70b.limit_8k").value == pytest.approx(limit, rel=0.02)
    assert figures.get("util.llama70b.max_batch_8k").value < figures.get("util.llama70b.limit_8k").value


def test_tp8_expected_below_ceiling_and_allreduces_by_hand():
    assert figures.get("deploy.llama70b.h100x8.allreduces").value == 2 * 80
    ceiling, expected = figures.get("deploy.llama70b.h100x8.ceiling").value, figures.get("deploy.llama70b.h100x8.expected").value
    parts = sum(figures.get(f"deploy.llama70b.h100x8.{t}").value for t in ("t_memory", "t_fixed", "t_comm"))
    assert expected == pytest.approx(1 / parts)          # memory outweighs arithmetic at batch 1
    assert expected < ceiling
    slow, fast = figures.get("deploy.llama70b.h100x8.expected_range").value
    assert slow < expected < fast


def test_deepseek_deployable_counts_are_whole_nodes_and_not_below_the_bare_minimum():
    for dev in ("h100", "sn40l"):
        bare, deployable = figures.get(f"fit.deepseek-v3.{dev}.devices").value, figures.get(f"fit.deepseek-v3.{dev}.deployable").value
        assert deployable >= bare and deployable % 8 == 0
    red = figures.get("fit.deepseek-v3.reduction_deployable").value
    assert red == pytest.approx(1 - figures.get("fit.deepseek-v3.sn40l.deployable").value / figures.get("fit.deepseek-v3.h100.deployable").value)


@pytest.mark.parametrize("lang", LANGS)
def test_claim_notes_print_their_computed_figures(lang):
    fig = lambda i, style=None: f'<span class="fig" data-fig="{i}">{html.escape(figures.get(i).format(lang, style))}</span>'  # noqa: E731
    out = tables.factcheck_table(lang, lambda m, c=None: STRINGS.get(m, lang, c), fig)
    for n in (6, 14):
        claim = next(c for c in claims.CLAIMS if c.n == n)
        for slot, fig_id in claim.note_figures:
            assert f'data-fig="{fig_id}">{html.escape(figures.get(fig_id).format(lang))}<' in out, (lang, n, slot)
    assert not re.search(r"\{[a-z_0-9]+\}", re.sub(r"<[^>]+>", "", out))


def test_a_claims_own_phrase_takes_the_factor_in_words():
    """German review 2026-12-02: "das Rack hat 7,2× so viel Bandbreite" reads "7,2-mal so viel" in German prose."""
    lang = "de"
    fig = lambda i, style=None: html.escape(figures.get(i).format(lang, style))  # noqa: E731
    out = tables.factcheck_table(lang, lambda m, c=None: STRINGS.get(m, lang, c), fig)
    factor = figures.get("headroom.infercom-gpt-oss-120b").format(lang, "times")
    assert factor.endswith("-mal") and f"das Rack hat <strong>{factor}</strong> so viel Bandbreite" in out
