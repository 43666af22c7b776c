"""Marking UI strings where they are declared: N_ and P_, and the record of who declared what.

Every string a reader sees is an English msgid marked where it is declared:
`N_("text")`, or `N_("text", "context")` for a msgid that needs a msgctxt
(the running example's sentences, "example"; a formula term, "term"), and
`P_(singular, plural[, context])` for a message that counts. Marking returns
the msgid (or the Plural) unchanged; tools/messages.py collects the marks
into locales/<lang>.po, and the page translates them where they are shown.

Marking also records the key (msgid, context) and the module that declared
it, so that the browser's string tables are every key the modules it runs
declare, with no hand-kept list to forget one in (calculators/ui/messages.py
for the calculators, calculators/example/ for the running example).

Here, on the lowest floor, because every floor above marks strings: the
calculators (ui) and the running example (example), which sits below them.
"""

from __future__ import annotations

import sys

from .message import Plural

_DECLARED: dict = {}     # (msgid, context) -> the modules that declared it (one msgid may serve two modules)
_PLURALS: dict = {}      # (msgid (the singular), context) -> its Plural
_SINGULARS: dict = {}    # msgid (the singular) -> its Plural, whatever its context


def N_(msgid: str, context: str | None = None) -> str:
    """Mark a UI string for extraction (tools/messages.py); it is translated where it is shown."""
    _DECLARED.setdefault((msgid, context), set()).add(sys._getframe(1).f_globals.get("__name__", ""))
    return msgid


def P_(one: str, other: str, context: str | None = None) -> Plural:
    """Mark a message with plural forms ("{n} part …", "{n} parts …"): msgid and msgid_plural in the .po files.

    Positional arguments only: the extractor (Babel, tools/messages.py) reads them by position.
    """
    message = Plural(one, other, context)
    _DECLARED.setdefault((one, context), set()).add(sys._getframe(1).f_globals.get("__name__", ""))
    _PLURALS[(one, context)] = message
    _SINGULARS[one] = message
    return message


def plural(msgid: str, context: str | None = None) -> Plural | None:
    """The Plural a msgid is the singular of (in `context`; without one, in whichever it was declared), or None."""
    found = _PLURALS.get((msgid, context))
    return _SINGULARS.get(msgid) if found is None and context is None else found


def declared(*prefixes: str, exclude: tuple = ()) -> list:
    """Every (msgid, context) declared by a module whose name starts with one of `prefixes` (not `exclude`), sorted:
    a key two modules declare counts for each (the decode chart's legend is also the running example's)."""
    return sorted((k for k, modules in _DECLARED.items()
                   if any(m.startswith(prefixes) and not m.startswith(exclude) for m in modules)),
                  key=lambda k: (k[0], k[1] or ""))
