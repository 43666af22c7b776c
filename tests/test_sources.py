"""Sources that can be checked: every catalog entry links its document, offline link checks,
footnote citations, and translated source labels.

No test here touches the network: a link is checked for its form (https, a
host name), for duplicates that name one address with two titles, and for
being present at all; whether the page behind it still says what the catalog
quotes is the reviewer's job, recorded by the access date.
"""

from __future__ import annotations

import re

import pytest

from calculators.data import catalog, sources
from checkutil import ROOT, build, find, run
from sitebuild import citations

SECTIONS = ("models", "devices", "racks", "measurements", "data")


def _records():
    cat = catalog.load()
    for section in SECTIONS:
        for key, rec in getattr(cat, section).items():
            yield f"{section}.{key}", rec.src


@pytest.mark.parametrize("entry,src", list(_records()), ids=[e for e, _ in _records()])
def test_every_entry_links_its_source_or_says_why_not(entry, src):
    assert src.url or src.url_reason, f"{entry} has neither url nor url_reason"
    if src.url:
        assert sources.url_problem(src.url) == "", src.url
        assert src.url.startswith("https://")
    assert src.kind in sources.SOURCE_KINDS


def test_one_address_one_title():
    """Two entries citing one document must name it the same way (else the footnote list shows two titles)."""
    titles = {}
    for entry, src in _records():
        if src.url:
            titles.setdefault(src.url, set()).add(src.source)
    clashes = {url: t for url, t in titles.items() if len(t) > 1}
    assert not clashes, clashes


def test_papers_link_their_arxiv_or_doi_page():
    for entry, src in _records():
        if src.kind == "paper":
            assert re.match(r"https://(arxiv\.org/abs/\d{4}\.\d{4,5}|doi\.org/10\.)", src.url), (entry, src.url)


@pytest.mark.parametrize("url,problem", [
    ("http://example.com/x", "not an https address"),
    ("https://localhost/x", "no valid host name"),
    ("https://exa mple.com/x", "no valid host name"),
    ("ftp://example.com", "not an https address"),
    ("example.com/x", "not an https address"),
])
def test_malformed_addresses_are_named(url, problem):
    assert problem in sources.url_problem(url)


def _catalog_text_without(field_line: str) -> tuple:
    """The catalog text with the first line starting with `field_line` removed, and the entry it was in."""
    text = (ROOT / "calculators" / "data" / "catalog.toml").read_text(encoding="utf-8")
    lines = text.split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith(field_line))
    header = next(n for n in range(i, -1, -1) if lines[n].startswith("["))
    del lines[i]
    return "\n".join(lines), header + 1, lines[header]


def test_entry_without_url_names_file_line_and_fix():
    text, header_line, header = _catalog_text_without('url = "https://www.nvidia.com/en-us/data-center/h100/"')
    with pytest.raises(catalog.DataError) as err:
        catalog.load_text(text)
    message = str(err.value)
    entry = header.strip("[]").replace('"', "")
    assert message == (f"calculators/data/catalog.toml:{header_line}: entry '{entry}', field 'url': "
                       "missing: give the document's https address, or say in url_reason why there is none"), message


def test_plain_http_is_refused_with_the_entry():
    text = (ROOT / "calculators" / "data" / "catalog.toml").read_text(encoding="utf-8")
    broken = text.replace('url = "https://arxiv.org/abs/2405.07518"', 'url = "http://arxiv.org/abs/2405.07518"', 1)
    with pytest.raises(catalog.DataError, match=r"catalog\.toml:\d+: .*'url'.*not an https address"):
        catalog.load_text(broken)


def test_unknown_source_kind_is_refused():
    text = (ROOT / "calculators" / "data" / "catalog.toml").read_text(encoding="utf-8")
    broken = text.replace('kind = "datasheet"', 'kind = "rumour"', 1)
    with pytest.raises(catalog.DataError, match=r"'kind'.*unknown source kind 'rumour'"):
        catalog.load_text(broken)


def test_a_reason_replaces_the_url():
    text, _, _ = _catalog_text_without('url = "https://www.cerebras.ai/chip"')
    fixed = text.replace('[devices.wse-3]\n', '[devices.wse-3]\nurl_reason = "A talk without slides."\n', 1)
    assert catalog.load_text(fixed).devices["wse-3"].src.url_reason == "A talk without slides."


# ------------------------------------------------------------------ footnotes


def test_same_document_keeps_its_number_and_order():
    cat = catalog.load()
    cites = citations.PageCitations()
    first = cites.cite(cat.measurements["infercom-gpt-oss-120b"].src)
    other = cites.cite(cat.devices["sn40l"].src)
    again = cites.cite(cat.data["typical-gpu-serving-tok-s"].src)   # the same Infercom article
    assert (first, other, again) == ((1, 1), (2, 1), (1, 2))
    html = citations.footnotes(cites, "en", lambda m, c=None: m, lambda s, lang: s.accessed)
    assert html.count("<li ") == 2 and 'href="https://infercom.ai/' in html and 'href="#cite-ref-1-1"' in html


def test_unknown_entry_is_named():
    with pytest.raises(KeyError, match="src\\(\\): unknown catalog entry 'devices.h900'"):
        citations.record("devices.h900", catalog.load())


def test_untranslated_source_label_is_an_error_with_file_and_line(proj):
    po = proj / "locales" / "it.po"
    text = po.read_text(encoding="utf-8")
    m = re.search(r'msgctxt "source-kind"\nmsgid "datasheet"\nmsgstr "[^"]+"', text)
    assert m, "it.po has no translated datasheet label"
    po.write_text(text[:m.start()] + 'msgctxt "source-kind"\nmsgid "datasheet"\nmsgstr ""' + text[m.end():], encoding="utf-8")
    line = text[:m.start()].count("\n") + 2   # the msgid line
    p = find(run(proj, ["it"]), path="locales/it.po", code="label-untranslated", line=line, severity="error")
    assert "'datasheet'" in p.message


def test_built_pages_link_their_sources_in_each_language(tmp_path):
    out = tmp_path / "site"
    result = build(ROOT, out)
    assert result.returncode == 0, result.stderr[-2000:]
    heads = {"": "Quellen auf dieser Seite", "en/": "Sources cited on this page", "da/": "Kilder på denne side",
             "it/": "Fonti citate in questa pagina"}
    for prefix, head in heads.items():
        html = (out / prefix / "decode" / "index.html").read_text(encoding="utf-8")
        assert f"<strong>{head}</strong>" in html
        markers = re.findall(r'<sup class="cite" id="cite-ref-(\d+)-\d+"><a href="#cite-(\d+)"', html)
        assert markers and all(a == b for a, b in markers)
        for n in {b for _, b in markers}:
            assert f'<li id="cite-{n}">' in html
        assert "abgerufen am" not in html or prefix == ""
        assert 'href="https://infercom.ai/de/blog/how-dataflow-delivers-speed"' in html
