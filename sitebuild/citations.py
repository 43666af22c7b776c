"""Citations as footnotes: a numbered marker in the prose, one source list per page.

Why footnotes: an inline "(source, accessed on date)" after every sourced
number interrupts the sentence twenty times per article. A marker keeps the
prose readable; the list at the end of the page names each document once, with
its title (in its own language), a translated label of what kind of document it
is, a link, and the access date. Pure functions of the catalog and the page's
citations, so that the MkDocs adapter only keeps the per-page state.
"""

from __future__ import annotations

from html import escape

from calculators.data import catalog
from calculators.ui.messages import N_

from calculators.example import provenance


def record(ref: str, cat: catalog.Catalog):
    """The catalog record `ref` ("section.key") points to, or a KeyError naming it."""
    section, _, key = ref.partition(".")
    try:
        return getattr(cat, section)[key]
    except (AttributeError, KeyError):
        raise KeyError(f"src(): unknown catalog entry {ref!r}") from None


class PageCitations:
    """The sources one page cites, numbered in order of first citation.

    Entries that cite the same document (same URL, or same title where there
    is none) share one number, so the list names each document once.
    """

    def __init__(self):
        self.documents: list = []     # [(document key, Source)] in order of first citation
        self._uses: dict = {}         # document key -> how often cited so far

    def cite(self, src: catalog.Source) -> tuple:
        """Register one citation; returns (number, occurrence) for the marker."""
        doc = src.url or src.source
        if doc not in self._uses:
            self.documents.append((doc, src))
            self._uses[doc] = 0
        self._uses[doc] += 1
        number = 1 + [d for d, _ in self.documents].index(doc)
        return number, self._uses[doc]


def marker(number: int, occurrence: int, title: str) -> str:
    """The superscript link in the prose; its title attribute names the document for a hover."""
    return (f'<sup class="cite" id="cite-ref-{number}-{occurrence}">'
            f'<a href="#cite-{number}" title="{escape(title)}">{number}</a></sup>')


# A document as the site names it (title, publisher, date in the page's language): calculators/example/provenance.py,
# where the running example's explanations, rebuilt in the browser, name their sources the same way.
describe = provenance.describe


def source_line(src: catalog.Source, lang: str, tr, accessed_text: str) -> str:
    """One document: linked title with its kind, access date (and why no link, where there is none)."""
    title = escape(describe(src, lang, tr, with_kind=True))
    linked = f'<a href="{escape(src.url)}" rel="noopener">{title}</a>' if src.url else title
    accessed = escape(tr("accessed"))
    reason = f'. <small>{escape(tr(src.url_reason, "url-reason"))}</small>' if src.url_reason else ""   # a sentence of its own
    return f"{linked}, {accessed} {accessed_text}{reason}"


def footnotes(cites: PageCitations, lang: str, tr, accessed) -> str:
    """The page's source list (HTML), or "" if the page cites nothing.

    `accessed(src, lang)` formats the access date for the language.
    """
    if not cites.documents:
        return ""
    items = []
    for n, (doc, src) in enumerate(cites.documents, 1):
        back = escape(tr("back to the text"))
        items.append(f'<li id="cite-{n}">{source_line(src, lang, tr, accessed(src, lang))} '
                     f'<a class="cite-back" href="#cite-ref-{n}-1" aria-label="{back}">↩</a></li>')
    heading = escape(tr("Sources cited on this page"))
    return (f'<section class="citations" aria-label="{heading}"><p class="citations-title"><strong>{heading}</strong></p>'
            f'<ol>{"".join(items)}</ol></section>')
