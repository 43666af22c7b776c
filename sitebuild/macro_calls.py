"""The arguments of a macro call in a page, when they are all literals.

Why a module of its own: mkdocs-macros loads macros.py afresh for each
language's build, and with it any cache kept there; the four languages'
pages make the same calls, so the parse is kept here, once per process.
"""

from __future__ import annotations

import ast
import functools


@functools.lru_cache(maxsize=4096)
def literal_arguments(text: str) -> tuple | None:
    """(args, kwargs) of a call's argument text (`"id", art="il"`) when all are literals, else None."""
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        return None
    values = [*call.args, *(k.value for k in call.keywords)]
    if not all(isinstance(v, ast.Constant) for v in values) or any(k.arg is None for k in call.keywords):
        return None
    return tuple(a.value for a in call.args), tuple((k.arg, k.value.value) for k in call.keywords)
