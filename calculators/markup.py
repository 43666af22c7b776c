"""HTML escaping for the text the calculators and charts put into markup.

Why not `html.escape`: importing the `html` package loads its table of 2,000
named entities, which costs about 40 ms on Pyodide, a sixth of the time the
calculators need from Python's start to their first result. This does what
`html.escape` does (tests/test_calc_ui.py compares the two).
"""

from __future__ import annotations

_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escape(s: str, quote: bool = True) -> str:
    return s.translate(_ATTRIBUTE if quote else _TEXT)
