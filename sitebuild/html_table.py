"""One HTML shape for the site's generated tables (sources, figures, fact check, measurements, status).

Why one shape: each table must read on a 390 px phone and fit the 720 px
content column (docs/assets/site.css lays them out):
- every cell carries its column's header (`data-label`), so that on a narrow
  screen a row becomes a card of labelled values instead of a strip of
  columns that runs off the screen;
- the table sits in a scroller of its own, named for assistive technology
  (`role="region"`, `aria-label`) and reachable by keyboard, with a hint that
  docs/assets/scrollers.js shows where the table still has to scroll (a
  browser without container queries, a very narrow screen);
- explicit table roles, because a table whose rows are laid out as blocks or
  grids loses its table semantics in some browsers;
- cells and rows are separated by white space and the header row is left out
  of the search index, so that a search result from a table page reads as
  text ("1. A dense 70B model … 328 KB (rounding) …"), not as
  "ClaimThe site's calculationVerdictWhy1…".
"""

from __future__ import annotations

from html import escape

from calculators.ui.messages import N_

# TRANSLATORS: under a wide table or chart on a narrow screen; the arrows show the direction
SCROLL_HINT = N_("Scroll sideways to see all of it ↔")


def table(headers: list, rows: list, cls: str, label: str, hint: str, searched: bool = True) -> str:
    """The table's HTML: `headers` and `label`/`hint` are plain text (escaped here), `rows` hold cell HTML.

    `searched=False` keeps the whole table out of the search index (Material's `data-search-exclude`)."""
    head = "".join(f'<th role="columnheader">{escape(h)}</th>' for h in headers)
    labels = [escape(h, quote=True) for h in headers]
    body = "\n".join('<tr role="row">' + " ".join(f'<td role="cell" data-label="{labels[i]}">{c}</td>' for i, c in enumerate(row))
                     + "</tr>" for row in rows)
    exclude = "" if searched else ' data-search-exclude="true"'
    return (f'<div class="table-scroller" data-scroller role="region" tabindex="0" aria-label="{escape(label, quote=True)}"{exclude}>'
            f'<table class="data-table {cls}" role="table">'
            f'<thead data-search-exclude="true"><tr role="row">{head}</tr></thead>\n'
            f"<tbody>{body}</tbody></table></div>"
            f'<p class="scroll-hint" hidden data-search-exclude="true">{escape(hint)}</p>')
