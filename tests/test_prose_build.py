"""The reader-text lints in a real build: faults injected into pages (and known entries removed) stop
`mkdocs build` with the source file, the line and what to do; a clean project builds (tests/test_site.py)."""

from __future__ import annotations

import re

from checkutil import build, edit_line, line_matching, prose_line


def test_faults_in_rendered_pages_stop_the_build_with_file_and_line(site_proj, tmp_path):
    root = site_proj
    da = root / "docs" / "da" / "about.md"
    n_da = prose_line(da)
    edit_line(da, n_da, lambda s: s + " Se the kilder.")

    it = root / "docs" / "it" / "speed.md"
    n_it = prose_line(it)
    edit_line(it, n_it, lambda s: s + " (KB)")

    de = root / "docs" / "de" / "decode.md"
    n_de = line_matching(de, r'Batchgröße \{\{ fig\("batch\.size\.1"\) \}\} ergibt das ')
    edit_line(de, n_de, lambda s: s.replace('{{ fig("batch.size.1") }} ergibt das ', '{{ fig("batch.size.1") }} ', 1))

    en = root / "docs" / "en" / "decode.md"
    n_en = line_matching(en, r'batch size \{\{ fig\("batch\.size\.1"\) \}\}, that comes to')
    edit_line(en, n_en, lambda s: s.replace('{{ fig("batch.size.1") }}, that comes to', '{{ fig("batch.size.1") }} requests, that comes to', 1))

    # English in a catalog name reaches the tables (reported at the page's macro line); English in the
    # theme's text (a copyright line) is reported at mkdocs.yml
    catalog = root / "calculators" / "data" / "catalog.toml"
    catalog.write_text(catalog.read_text(encoding="utf-8").replace('name = "SambaNova SN40L"', 'name = "SambaNova SN40L (socket)"'),
                       encoding="utf-8")
    n_table = line_matching(root / "docs" / "de" / "sources.md", r"sources_table\(\)")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "\ncopyright: Made by the people who run this site\n", encoding="utf-8")
    n_theme = line_matching(config, r"^theme:")

    proc = build(root, tmp_path / "out")
    assert proc.returncode != 0
    log = proc.stderr
    expected = [
        (f"docs/da/about.md:{n_da}", "english", "'the'"),
        (f"docs/it/speed.md:{n_it}", "kilobyte", "'kB'"),
        (f"docs/de/decode.md:{n_de}", "collision", "two numbers next to each other"),
        (f"docs/en/decode.md:{n_en}", "plural", "'1 requests'"),
        (f"docs/de/sources.md:{n_table}", "english", "'socket'"),
        (f"mkdocs.yml:{n_theme}", "english", "'the'"),
    ]
    for where, code, text in expected:
        pattern = re.compile(rf"^{re.escape(where)}: error: .*{re.escape(text)}.*\[{code}\]$", re.M)
        assert pattern.search(log), f"expected {where} [{code}] with {text} in the build log:\n{log[-6000:]}"
    assert "error(s) in the text readers see" in log
