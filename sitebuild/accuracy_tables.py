"""The accuracy page's tables: the summary per set and every measurement beside the expected value.

The numbers come from calculators/article/calibration.py (every row of calculators/article/
measurements.toml beside the calibrated step time); the rows are described by
calculators/article/accuracy.py. Here they take the site's table shape (sitebuild/html_table.py: a
card per row on a phone) and each source is named with its publisher and date in the page's language
(sitebuild/citations.py). The page calls {{ accuracy_summary() }} and {{ accuracy_rows() }}.
"""

from __future__ import annotations

import dataclasses

from html import escape

from calculators.article import accuracy as A
from calculators.article import calibration as K
from calculators.text import fmt
from calculators.ui.messages import N_

from . import citations, html_table

LABELS = {"accuracy-summary": N_("Error of the expected values, per set of measurements"),
          "accuracy-rows": N_("Every measurement beside its expected value")}


def _table(headers, rows, cls, tr) -> str:
    return html_table.table(headers, rows, cls, tr(LABELS[cls]), tr(html_table.SCROLL_HINT))


def summary(lang: str, tr, comps=None) -> str:
    """Per set: rows, median and largest absolute error, the worst rows (named as readers know them)."""
    comps = comps or K.comparisons()
    heads = [tr("Set"), tr("Rows"), tr("Median absolute error"), tr("Largest absolute error"), tr("Worst rows")]
    rows = []
    for split in ("fit", "held-out"):
        s = K.summary(comps, split)
        worst = "<br>".join(f'<a href="#m-{escape(c.key)}">{A.describe(c, tr, lang).split("<br>")[0]}</a>: '
                            f"{A.signed_percent(c.error, lang)}" for c in s.worst)
        rows.append([escape(tr(A.SPLITS[split])), fmt.format_number(s.count, lang),
                     fmt.format_percent(s.median_abs, lang, decimals=0), fmt.format_percent(s.max_abs, lang, decimals=0),
                     f"<small>{worst}</small>"])
    return _table(heads, rows, "accuracy-summary", tr)


def _dated(r):
    """The row's source, dated by the measurement where the source names no date of its own: one
    parenthesis, "(dstack, March 2025)", not "(dstack) (March 2025)"."""
    return r.src if r.src.published or not r.date else dataclasses.replace(r.src, published=r.date)


def rows(lang: str, tr, comps=None) -> str:
    """Every row: what was measured, its source, measured and expected time per output token, the signed
    error and the set (with the reason where a row is not compared); then the numbered sources."""
    comps = A.ordered(comps or K.comparisons())
    sources = A.sources(comps)
    heads = [tr("Measurement"), tr("Source"), tr("Measured"), tr("Expected"), tr("Error"), tr("Set")]
    out = []
    for c in comps:
        n = sources[c.row.source_id][0]
        where = escape(tr(A.SPLITS[c.split]))
        if c.reason:
            where += f"<br><small>{escape(tr(A.REASONS[c.reason]))}</small>"
        ms = lambda s: fmt.format_quantity(s, "seconds", lang, sig=3)  # noqa: E731
        out.append([f'<span id="m-{escape(c.key)}">{A.describe(c, tr, lang)}</span>',
                    f'<a href="#accuracy-source-{n}">[{n}]</a>', ms(c.measured_s), ms(c.expected_s),
                    A.signed_percent(c.error, lang), where])
    listed = "".join(f'<li id="accuracy-source-{n}"><a href="{escape(r.src.url)}" rel="noopener">'
                     f"{escape(citations.describe(_dated(r), lang, tr))}</a></li>"
                     for n, r in sources.values())
    return _table(heads, out, "accuracy-rows", tr) + f'<ol class="accuracy-sources">{listed}</ol>'
