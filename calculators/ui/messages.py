"""The calculators' UI strings: how they are marked, and which of them the browser needs.

Every string a calculator shows is an English msgid marked with `N_(...)` where
it is declared (its field, its result rows, its chart, its messages); the page
translates it through locales/<lang>.po (tools/messages.py collects the marks).
Marking also records the msgid (calculators/text/marks.py, where N_ and P_
live), so the browser's string table is every msgid the calculators' modules
declare — no hand-kept list to forget one in.
"""

from __future__ import annotations

from ..text.marks import N_, P_, declared, plural  # noqa: F401  (marked here, recorded on the text floor)


def browser_keys() -> list:
    """Every (msgid, msgctxt) the browser may need Python to translate: the strings the calculators' modules declare
    (calculators.ui and the modules it imports; not the article's, which only the build prints, nor the running
    example's, which only its pages need: calculators/example/strings.py). A plural message keeps its msgctxt."""
    return [(m, c) for m, c in declared("calculators.", exclude=("calculators.article", "calculators.example",
                                                                  "calculators.ui.example")) if c is None or plural(m, c)]


def browser_strings() -> list:
    """The msgids of `browser_keys()` (a plural message by its singular)."""
    return sorted({m for m, _ in browser_keys()})


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
