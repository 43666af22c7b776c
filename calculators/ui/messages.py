"""The calculators' UI strings: how they are marked, and which of them the browser needs.

Every string a calculator shows is an English msgid marked with `N_(...)` where
it is declared (its field, its result rows, its chart, its messages); the page
translates it through locales/<lang>.po (tools/messages.py collects the marks).
Marking also records the msgid here, so the browser's string table is every
msgid the calculators' modules declare — no hand-kept list to forget one in.
"""

from __future__ import annotations

import sys

from ..text.message import Plural

_DECLARED: dict = {}     # msgid -> the module that declared it
_PLURALS: dict = {}      # msgid (the singular) -> its Plural


def N_(msgid: str) -> str:
    """Mark a UI string for extraction (tools/messages.py); it is translated where it is shown."""
    _DECLARED.setdefault(msgid, sys._getframe(1).f_globals.get("__name__", ""))
    return msgid


def P_(one: str, other: str, context: str | None = None) -> Plural:
    """Mark a message with plural forms ("{n} part …", "{n} parts …"): msgid and msgid_plural in the .po files.

    Positional arguments only: the extractor (Babel, tools/messages.py) reads them by position.
    """
    message = Plural(one, other, context)
    _DECLARED.setdefault(one, sys._getframe(1).f_globals.get("__name__", ""))
    _PLURALS[one] = message
    return message


def plural(msgid: str) -> Plural | None:
    """The Plural a msgid is the singular of, or None for a plain message."""
    return _PLURALS.get(msgid)


def browser_strings() -> list:
    """Every msgid the browser may need Python to translate: the strings the calculators' modules declare
    (calculators.ui and the modules it imports; not the article's, which only the build prints)."""
    return sorted(m for m, module in _DECLARED.items() if module.startswith("calculators.") and
                  not module.startswith("calculators.article"))


# Texts the page script shows before Python runs (so they travel in the page's JSON, not through Python).
STATUS = {
    "runtime": N_("Loading the calculator: Python runtime…"),
    "package": N_("Loading the calculator: model code…"),
    "first": N_("Loading the calculator: first result…"),
}
READ_ONLY = N_("Read-only: the interactive calculator could not start here, so it shows the result for the default inputs.")
STALE = N_("Not updated: an input is invalid, so the result below is for the last valid input.")
FAILED = N_("These inputs cannot be computed.")
CHOICE = N_("Choose one of the listed options.")
UNKNOWN = "\u2013"         # shown where the model has no answer (no published peak, does not fit)
