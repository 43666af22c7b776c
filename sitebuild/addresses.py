"""Addresses a reader may try that the language layout would leave unanswered (hooks/language_redirects.py).

- `/de/` and `/de/<page>/`: German, the default language, lives at the site's
  root (/, /decode/), while the other languages have a folder (/en/, /da/,
  /it/). A reader who guesses /de/ by analogy, or edits /en/decode/ into
  /de/decode/, is sent to the German page (the query and fragment, which carry
  a calculator's state, go along). A small page per German page: any static
  host serves it, no server rule needed.
- In a one-language preview (`make serve SITE_LANG=da`), the other languages
  are not built: the preview's 404 page says so.
"""

from __future__ import annotations

import json
import pathlib
from html import escape

from calculators.ui.messages import N_

# TRANSLATORS: the link on the small page at /de/ that sends the reader to the German pages at the site's root
CONTINUE = N_("Continue to the German page")
# TRANSLATORS: on the 404 page of a one-language preview (make serve SITE_LANG=da); {language} is the language's name
PREVIEW_NOTE = N_("This preview builds one language only ({language}), so the other languages' pages are not here. "
                  "make serve without SITE_LANG builds all four.")

_REDIRECT = """<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<title>{title}</title><link rel="canonical" href="{canonical}">
<meta http-equiv="refresh" content="0; url={target}">
<script>location.replace({target_js} + location.search + location.hash)</script>
</head><body><p><a href="{target}">{title}</a></p></body></html>
"""


def german_pages(docs: pathlib.Path) -> list:
    """Paths from the site root of the German pages ("", "decode/"), from docs/de/*.md."""
    return sorted("" if p.stem == "index" else f"{p.stem}/" for p in (pathlib.Path(docs) / "de").glob("*.md"))


def redirect_page(path: str, site_url: str, title: str) -> str:
    """The page at de/<path> that sends the reader to <path> at the site's root (relative: any host, any base path)."""
    target = "../" * (1 + path.count("/")) + path
    return _REDIRECT.format(title=escape(title), canonical=escape(site_url.rstrip("/") + "/" + path, quote=True),
                            target=escape(target, quote=True), target_js=json.dumps(target).replace("<", "\\u003c"))


def write_german_redirects(site: pathlib.Path, docs: pathlib.Path, site_url: str, title: str) -> list:
    """Write de/index.html and de/<page>/index.html; returns the files written."""
    written = []
    for path in german_pages(docs):
        target = pathlib.Path(site) / "de" / path / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(redirect_page(path, site_url, title), encoding="utf-8")
        written.append(target)
    return written


def with_preview_note(html_404: str, note: str) -> str:
    """The 404 page with the one-language preview's note under its heading."""
    at = html_404.find("</h1>")
    if at < 0:
        return html_404
    return html_404[:at + 5] + f'\n<p class="preview-note">{escape(note)}</p>' + html_404[at + 5:]
