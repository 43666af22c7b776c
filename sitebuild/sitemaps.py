"""One sitemap.xml per language root, cut from the site's sitemap.

Why: the theme looks for `sitemap.xml` under each language root it finds in a
page's head (hooks/alternates.py), and the sitemaps protocol lets a sitemap
list only addresses under its own folder. mkdocs-static-i18n writes one
sitemap for all languages at the site root; each other language gets the
entries under its root (with their hreflang links to the other languages)
at <lang>/sitemap.xml. Standard library only: this knows nothing of MkDocs.
"""

from __future__ import annotations

import pathlib
import xml.etree.ElementTree as ET

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9", "xhtml": "http://www.w3.org/1999/xhtml"}
ET.register_namespace("", NS["sm"])
ET.register_namespace("xhtml", NS["xhtml"])


def language_root(site_url: str, lang: str) -> str:
    return f"{site_url.rstrip('/')}/{lang}/"


def split(site: pathlib.Path, site_url: str, langs: list) -> list:
    """Write <lang>/sitemap.xml for every language in `langs`; returns the paths written."""
    tree = ET.parse(site / "sitemap.xml")
    urls = tree.getroot().findall("sm:url", NS)
    written = []
    for lang in langs:
        root = language_root(site_url, lang)
        own = ET.Element(tree.getroot().tag)
        own.text, own.tail = tree.getroot().text, "\n"
        own.extend(u for u in urls if (u.findtext("sm:loc", "", NS) or "").startswith(root))
        path = site / lang / "sitemap.xml"
        path.parent.mkdir(parents=True, exist_ok=True)
        ET.ElementTree(own).write(path, encoding="UTF-8", xml_declaration=True)
        written.append(path)
    return written
