"""One formula object: how a figure is computed, with its inputs' values put in.

A figure's `words` say what it is; a Formula here says it as
arithmetic over named terms, each term another figure (itself explained one
level down) or a constant with a name. The popover next to a number, the
sources page and the tests read the same object: the tests evaluate every
expression and require the printed value, which also recomputes the model's
result along a second path.

Expressions use the signs a reader sees (× ÷ + −, brackets, ⌈ ⌉ for rounding
up to a whole device, ⌊ ⌋ for whole requests that fit, a^b for a power,
ln(…) for the natural logarithm, max(…, …) and min(…, …) for a roofline's
slower side)
and only {slots} and plain numbers, so evaluating one needs no eval(): a
small parser of the standard library's `ast` does it.

Ranges: a term whose figure is a range (49–71 tok/s) makes the formula a
range. It is evaluated for every choice of each ranged term's low or high
end; the smallest and largest results are the figure's ends, and the reader
sees both substitutions ("713 ÷ 683 … 713 ÷ 485 = 1.04–1.47×"), the one
that gives the low end first. A term can instead read one end of a range
(`end="high"`: "the fastest GPU route"), and then it is a single number.

Sums over a model's mixed per-layer specs (attention kinds, precision
groups) read intermediate figures, one per group, so each term is itself
expandable.

A formula object is part of its figure's declaration (calculators/example/figure.py),
in the module that computes the figure (calculators/article/topics/, or calculators/example/
for the running example's figures, whose formulas are functions of the example).
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
from dataclasses import dataclass

from ..text import fmt
from ..text import message
from ..text.marks import P_

ENDS = {"low": 0, "high": 1}


@dataclass(frozen=True)
class Q:
    """A constant with its unit kind (calculators/text/units.py): printed "43.7 ns", "3.35 TB/s", not "0.0000000437"."""

    value: float
    kind: str


@dataclass(frozen=True)
class Term:
    """One named input of an expression: a figure's value, or a named constant."""

    slot: str
    label: str                  # what it is, a UI string (msgctxt "term"); a counted one is in COUNTED
    figure: str | None = None   # the figure it reads, or None for a constant
    value: float | None = None  # the constant's value
    end: str | None = None      # of a range figure, read only this end ("low" or "high")
    kind: str | None = None     # a constant printed as a quantity of this unit kind (fmt.format_quantity: "params", "bytes")


@dataclass(frozen=True)
class Formula:
    expr: str                   # e.g. "{layers} × 2 × {kv_heads} × {head_dim} × {bytes}"
    terms: tuple

    def _ranged(self, registry: dict) -> list:
        """Slots whose figure is a range read as a whole: they make the result a range."""
        return [t.slot for t in self.terms if t.figure and t.end is None and isinstance(registry[t.figure].value, tuple)]

    def _value(self, t: Term, registry: dict, pick: dict):
        if not t.figure:
            return t.value
        v = registry[t.figure].value
        if isinstance(v, tuple):
            return v[ENDS[t.end]] if t.end else v[pick[t.slot]]
        return v

    def values(self, registry: dict, pick: dict | None = None) -> dict:
        """Each slot's number; `pick` says which end (0 low, 1 high) a ranged term contributes."""
        return {t.slot: self._value(t, registry, pick or {}) for t in self.terms}

    def _at(self, registry: dict, pick: dict) -> float:
        values = self.values(registry, pick)
        text = self.expr
        for slot in values:
            text = text.replace("{" + slot + "}", f"__{slot.replace('.', '_')}")
        if "**" in text:
            raise ValueError("a power is written a^b, not a ** b")
        text = text.replace("×", "*").replace("÷", "/").replace("−", "-").replace("^", "**")
        text = text.replace("⌈", "ceil(").replace("⌉", ")").replace("⌊", "floor(").replace("⌋", ")")
        names = {f"__{slot.replace('.', '_')}": v for slot, v in values.items()}
        return _eval(ast.parse(text, mode="eval").body, names)

    def ends(self, registry: dict) -> list:
        """[(pick, value)] for the low and the high result: every low/high choice of the ranged terms is tried."""
        ranged = self._ranged(registry)
        tried = [(pick, self._at(registry, pick)) for pick in
                 (dict(zip(ranged, choice)) for choice in itertools.product((0, 1), repeat=len(ranged)))]
        return [min(tried, key=lambda pv: pv[1]), max(tried, key=lambda pv: pv[1])]

    def evaluate(self, registry: dict):
        """The expression's value with every term put in (no eval: a tiny arithmetic parser);
        a (low, high) pair where a term is a range."""
        if not self._ranged(registry):
            return self._at(registry, {})
        (_, low), (_, high) = self.ends(registry)
        return (low, high)

    def substituted(self, registry: dict, locale: str, tr) -> str:
        """The expression as a reader of `locale` sees it, each term as its printed value and label;
        for a range, the substitution that gives the low end, then the one that gives the high end."""
        if not self._ranged(registry):
            return self._substitute(registry, locale, tr, {})
        return " … ".join(self._substitute(registry, locale, tr, pick) for pick, _ in self.ends(registry))

    def _substitute(self, registry: dict, locale: str, tr, pick: dict) -> str:
        text = self.expr
        values = self.values(registry, pick)
        for t in self.terms:
            if t.figure:
                fig, value = registry[t.figure], values[t.slot]
                # The figure's own value prints as the figure does (its text is kept); a range's end is another value.
                number = fig.format(locale) if value == fig.value else fig.with_value(value).format(locale)
            elif t.kind == "percent":    # a share: "89.6%", as the pages write shares (never "0.896")
                number = fmt.format_percent(t.value, locale, decimals=1)
            elif t.kind is not None:
                number = fmt.format_quantity(t.value, t.kind, locale)
            else:
                number = fmt.format_number(int(t.value), locale) if float(t.value).is_integer() else fmt.format_number(t.value, locale, sig=3)
            if t.label in COUNTED:       # "1 part the KV cache is split into", "8 parts …": one message, two forms
                said = message.say(tr, COUNTED[t.label], locale, n=number)
            else:
                said = f"{number} {tr(t.label, 'term')}".strip() if t.label else number
            text = text.replace("{" + t.slot + "}", said)
        return text


# Term labels that count something: the number and its words are one message with a singular and a plural,
# chosen by the number as printed (calculators/text/message.py). Keyed by the label a term declares.
COUNTED = {
    "requests": P_("{n} request", "{n} requests", "term"),
    "layers": P_("{n} layer", "{n} layers", "term"),
    "GPUs": P_("{n} GPU", "{n} GPUs", "term"),
    "devices": P_("{n} device", "{n} devices", "term"),
    "all-reduces": P_("{n} all-reduce", "{n} all-reduces", "term"),
    "calls": P_("{n} call", "{n} calls", "term"),
    "racks": P_("{n} rack", "{n} racks", "term"),
    "sockets": P_("{n} socket", "{n} sockets", "term"),
    "tokens": P_("{n} token", "{n} tokens", "term"),
    "parameters": P_("{n} parameter", "{n} parameters", "term"),
    "devices each layer is split over": P_("{n} device each layer is split over",
                                           "{n} devices each layer is split over", "term"),
    "parts the KV cache is split into": P_("{n} part the KV cache is split into",
                                           "{n} parts the KV cache is split into", "term"),
    "tokens proposed per step": P_("{n} token proposed per step", "{n} tokens proposed per step", "term"),
    "tokens accepted per verify step": P_("{n} token accepted per verify step",
                                          "{n} tokens accepted per verify step", "term"),
    "devices an expert is split over": P_("{n} device an expert is split over", "{n} devices an expert is split over", "term"),
    "devices of the stage": P_("{n} device of the stage", "{n} devices of the stage", "term"),
    "requests per device group": P_("{n} request per device group", "{n} requests per device group", "term"),
    "tokens per device group": P_("{n} token per device group", "{n} tokens per device group", "term"),
    "requests in the batch": P_("{n} request in the batch", "{n} requests in the batch", "term"),
    "KV heads": P_("{n} KV head", "{n} KV heads", "term"),
    "tokens of context": P_("{n} token of context", "{n} tokens of context", "term"),
}


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv, ast.Pow: operator.pow}
# Functions a formula may call (fewest and most arguments, what they do): rounding up to whole devices (ceil, ⌈ ⌉),
# down to whole requests (floor, ⌊ ⌋), the natural logarithm (the fewest proposed tokens that reach a speed),
# a roofline's slower side (max) or a bound's tighter one (min).
_CALLS = {"ceil": (1, 1, lambda xs: math.ceil(xs[0])), "floor": (1, 1, lambda xs: math.floor(xs[0])),
          "ln": (1, 1, lambda xs: math.log(xs[0])), "max": (2, 8, max), "min": (2, 8, min)}


def _eval(node, names: dict) -> float:
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, names), _eval(node.right, names))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in names:
        return float(names[node.id])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS and not node.keywords:
        fewest, most, fn = _CALLS[node.func.id]
        if fewest <= len(node.args) <= most:
            return float(fn([_eval(a, names) for a in node.args]))
    raise ValueError(f"not an arithmetic expression over named terms: {ast.dump(node)}")


def F(expr: str, **terms) -> Formula:
    """Shorthand: F("{a} ÷ {b}", a=("label", "figure.id"), b=("label", 2.0), c=("label", "range.id", "high"),
    d=("label", Q(3.35e12, "bytes_per_s")), e=("label", 3.6e10, "params")): a figure, a constant, one end of a range,
    a constant printed with its unit (Q, or its unit kind as a third element)."""
    out = []
    for slot, (label, ref, *end) in terms.items():
        if isinstance(ref, Q):
            out.append(Term(slot, label, value=float(ref.value), kind=ref.kind))
        elif isinstance(ref, str):
            if end and end[0] not in ENDS:
                raise ValueError(f"term {slot!r}: end must be one of {', '.join(ENDS)}, got {end[0]!r}")
            out.append(Term(slot, label, figure=ref, end=end[0] if end else None))
        else:
            out.append(Term(slot, label, value=float(ref), kind=end[0] if end else None))
    return Formula(expr, tuple(out))
