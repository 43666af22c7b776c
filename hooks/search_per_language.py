"""Give every language its own search index, so a German page finds German pages.

mkdocs-static-i18n merges the entries of all languages into one index at
search/search_index.json (its de-duplication is off, `reconfigure_search:
false`, so a page shown in German on /da/ until translated stays findable
there). After the last language is built, this hook splits
it: German (the default language, at the site root) stays there, every other
language gets <lang>/search/search_index.json with locations relative to its
own root. overrides/main.html points each non-default page's search at its
language root. Runs after the i18n plugin's post_build (priority -200 < -100).
"""

from __future__ import annotations

import json
import pathlib
import sys

from mkdocs.plugins import event_priority

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hooks.i18n_builds import inner_build  # noqa: E402


@event_priority(-200)
def on_post_build(config, **kwargs):
    i18n = config.plugins.get("i18n")
    if i18n is None or inner_build(config):
        return  # no languages to split, or an inner per-language build: the merged index is not final yet
    site = pathlib.Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    if not index_path.exists():
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    default = next(lang.locale for lang in i18n.config.languages if lang.default)
    others = [lang.locale for lang in i18n.config.languages if not lang.default and lang.build]
    split_index(site, index, default, others)


def split_index(site: pathlib.Path, index: dict, default_lang: str, others: list) -> None:
    """Write one index per language; entries of language xx start with 'xx/'."""
    by_lang = {lang: [] for lang in others}
    default = []
    for entry in index["docs"]:
        lang = entry["location"].split("/", 1)[0]
        if lang in by_lang:
            by_lang[lang].append({**entry, "location": entry["location"][len(lang) + 1:]})
        else:
            default.append(entry)
    _write(site / "search" / "search_index.json", index, default, default_lang)
    for lang, docs in by_lang.items():
        _write(site / lang / "search" / "search_index.json", index, docs, lang)


def _write(path: pathlib.Path, index: dict, docs: list, lang: str) -> None:
    config = {**index.get("config", {}), "lang": [lang]}  # stemming and stop words of this language only
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False), encoding="utf-8")
