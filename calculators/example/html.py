"""A figure in a page, as HTML: the link to its row on the sources page, with the words its grammar puts around it.

One function for the build (macros.py's `fig`) and the browser (calculators/example/render.py):
a figure the reader's example re-renders must come back exactly as the
static page printed it for the default example, article and counted noun
included (calculators/text/grammar.py decides both from the number as printed).
"""

from __future__ import annotations

from ..text import grammar
from ..text.markup import escape


def figure_html(id: str, text: str, lang: str, art: str | None = None, noun: tuple | None = None,
                href: str | None = None, style: str | None = None) -> str:
    """A figure (a link to its sources row, or a span), with the Italian article before it (`art`: the form before a
    consonant) and the counted noun after it (`noun`: the termbase's singular and plural), agreeing with `text`;
    `style` names the running-text form `text` is in ("times", "words"), so that a test compares it in that form."""
    styled = f' data-style="{escape(style)}"' if style else ""
    if href is None:
        html = f'<span class="fig" data-fig="{escape(id)}"{styled}>{escape(text)}</span>'
    else:
        html = f'<a class="fig" href="{escape(href)}" data-fig="{escape(id)}"{styled}>{escape(text)}</a>'
    if art is not None:
        with_article = grammar.article(text, art, lang)
        html = escape(with_article[: len(with_article) - len(text)], quote=False) + html
    if noun is not None:
        html += "\u00a0" + escape(grammar.noun_form(text, lang, noun[0], noun[1]), quote=False)
    return html


def sources_href(sources: str, id: str) -> str:
    """The link of a figure to its row on the sources page (`sources`: that page's address relative to this one)."""
    return f"{sources}#fig-{id}"
