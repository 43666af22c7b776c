"""Dates as each language writes them: calculators/text/dates.py, the code the browser runs too.

A day in the long form ("27. Mai 2026", "May 27, 2026", "27. maj 2026", "27 maggio 2026"), a month
with its full name ("September 2024"), a year as it is. tests/test_dates.py checks every month of
every language against Babel's CLDR data, so the build and the reader's browser print what Babel would.
"""

from __future__ import annotations

from calculators.text.dates import day, month, published

__all__ = ["day", "month", "published"]
