"""Glossary terms are marked at their first use per section, never inside code, links, figures or headings."""

from sitebuild import glossary


def _marked(text: str) -> list:
    import re
    return re.findall(r'<abbr class="term" title="[^"]*" tabindex="0">([^<]*)</abbr>', text)


def test_first_use_per_section_only():
    md = "Der KV-Cache wächst. Der KV-Cache wächst weiter.\n\n## Neu\n\nAuch hier der KV-Cache."
    out = glossary.mark_terms("de", md)
    assert _marked(out) == ["KV-Cache", "KV-Cache"]
    first, second = out.split("## Neu")
    assert first.count("<abbr") == 1 and second.count("<abbr") == 1


def test_protected_text_is_left_alone():
    md = "\n".join([
        "## KV-Cache",                                       # a heading
        "`KV-Cache` in code, [KV-Cache](glossary.md) as a link,",
        '<span class="fig" data-fig="x">KV-Cache</span> and <sup class="cite"><a href="#c" title="KV-Cache">1</a></sup>.',
        "    KV-Cache in an indented code block",
        "| KV-Cache | in a table |",
        "```",
        "KV-Cache in a fence",
        "```",
    ])
    assert glossary.mark_terms("de", md) == md


def test_hover_text_is_escaped_for_the_attribute():
    out = glossary.mark_terms("en", "The KV cache grows.")
    assert _marked(out) == ["KV cache"]
    title = out.split('title="', 1)[1].split('"', 1)[0]
    assert "<" not in title and '"' not in title and title


def test_capitalised_at_sentence_start_counts_as_the_same_term():
    out = glossary.mark_terms("en", "KV cache here. Later the KV cache again.")
    assert len(_marked(out)) == 1
