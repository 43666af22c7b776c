"""Which figures each page actually rendered, recorded by the macros.

Why: the checks read figures off the sources ({{ fig("id") }} calls). A
figure reached another way (a Jinja loop, a variable, an include) would slip
past them; comparing what the macros rendered with what the sources say
closes that gap. macros.py records, the build hook compares after the build.
"""

from __future__ import annotations

from collections import defaultdict

_rendered: dict = defaultdict(list)


def record(lang: str, src_uri: str, figure_id: str) -> None:
    _rendered[(lang, src_uri)].append(figure_id)


def reset() -> None:
    _rendered.clear()


def rendered() -> dict:
    """{(language built, source file docs-relative): [figure ids in render order]}."""
    return dict(_rendered)
