"""The running example's string table for the browser: every key its re-render can translate.

Keys are (msgid, msgctxt): the variants' sentences ("example"), the figures'
words ("formula") and formula terms' labels ("term") of every example a reader
can choose (marked where they are written: calculators/example/declare.py W and L),
the charts' and the control's words (calculators/ui/example*.py), and the
words a source's explanation needs (its kind, its confidence). The page
carries their translations (sitebuild/widgets.py); the worker looks them up
by `key` (a msgctxt and the msgid joined as gettext joins them, with \\x04).
"""

from __future__ import annotations

from ..data import sources
from ..text.marks import declared, plural

SEPARATOR = "\x04"


def key(msgid: str, context: str | None) -> str:
    return f"{context}{SEPARATOR}{msgid}" if context else msgid


def keys() -> list:
    """Every (msgid, context) the running example may show in the browser."""
    out = declared("calculators.example", "calculators.ui.example")
    out += [(kind, "source-kind") for kind in sources.SOURCE_KINDS] + [(level, "confidence") for level in sources.CONFIDENCE]
    return out


def table(tr) -> dict:
    """{key: translation} of `keys()` in one language: a string, or the list of a plural message's forms."""
    out = {}
    for msgid, context in keys():
        p = plural(msgid, context)
        out[key(msgid, context)] = list(tr(p)) if p else tr(msgid, context)
    return out


def translator(strings: dict):
    """`tr(msgid, context=None)` over a table made by `table` (the English msgid where it has none)."""
    from ..text.message import Plural

    def tr(msgid, context=None):
        if isinstance(msgid, Plural):
            forms = strings.get(key(msgid.one, msgid.context))
            return tuple(forms) if isinstance(forms, list) and forms else (msgid.one, msgid.other)
        found = strings.get(key(msgid, context))
        return found if isinstance(found, str) and found else msgid
    return tr
