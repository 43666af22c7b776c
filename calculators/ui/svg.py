"""SVG primitives the charts share: scales, ticks, text, axes, lines, the figure frame.

Why hand-written SVG instead of a plotting library: the same code must run in
the browser on Pyodide with the standard library only (matplotlib would add
megabytes to the page), and a few line and bar charts need little. The
calculators' charts (calculators/ui/charts.py) and the article's fixed charts
(calculators/article/charts.py) draw with these. Colours come from CSS classes
(docs/assets/site.css) so the charts follow the light and dark palettes; text
uses currentColor.
"""

from __future__ import annotations

import math
from ..text.markup import escape

from ..text import fmt

W, H = 720, 380
PAD_L, PAD_R, PAD_T, PAD_B = 96, 176, 36, 56  # room for 'TFLOP/s' ticks and longer legends


# ----------------------------------------------------------------- scales


class Scale:
    """Maps data values to pixels, linearly or logarithmically."""

    def __init__(self, lo: float, hi: float, p0: float, p1: float, log: bool = False):
        if log and lo <= 0:
            raise ValueError("a log scale needs positive bounds")
        self.lo, self.hi, self.p0, self.p1, self.log = lo, hi, p0, p1, log

    def __call__(self, v: float) -> float:
        f = (lambda x: math.log10(x)) if self.log else (lambda x: x)
        span = f(self.hi) - f(self.lo) or 1.0
        return self.p0 + (f(v) - f(self.lo)) / span * (self.p1 - self.p0)

    def ticks(self, n: int = 5) -> list:
        if self.log:
            first, last = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            return [10.0 ** e for e in range(first, last + 1) if self.lo <= 10.0 ** e <= self.hi]
        step = nice_step((self.hi - self.lo) / n)
        start = math.ceil(self.lo / step) * step
        return [start + i * step for i in range(int((self.hi - start) / step + 1e-9) + 1)]


def nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten: ticks a reader can add up in their head."""
    exp = math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * 10 ** exp >= raw:
            return m * 10 ** exp
    return 10 ** (exp + 1)


# ------------------------------------------------------------- primitives


def text(x, y, s, anchor="middle", cls="chart-label", extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}"{extra}>{escape(s)}</text>'


def frame(chart_id: str, title: str, desc: str, body: list, width: int = W, height: int = H) -> str:
    t_id, d_id = f"{chart_id}-title", f"{chart_id}-desc"
    return (
        f'<figure class="chart" id="{chart_id}">'
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-labelledby="{t_id} {d_id}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{t_id}">{escape(title)}</title><desc id="{d_id}">{escape(desc)}</desc>'
        + "".join(body)
        + f'</svg><figcaption>{escape(title)}. {escape(desc)}</figcaption></figure>'
    )


def axes(xs: Scale, ys: Scale, x_label: str, y_label: str, x_fmt, y_fmt) -> list:
    out = ['<g class="chart-axes">']
    for v in ys.ticks():
        y = ys(v)
        out.append(f'<line class="chart-grid" x1="{PAD_L}" x2="{W - PAD_R}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(text(PAD_L - 6, y + 4, y_fmt(v), "end"))
    for v in xs.ticks():
        x = xs(v)
        out.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
        out.append(text(x, H - PAD_B + 18, x_fmt(v)))
    out.append(f'<line class="chart-axis" x1="{PAD_L}" x2="{W - PAD_R}" y1="{H - PAD_B}" y2="{H - PAD_B}"/>')
    out.append(f'<line class="chart-axis" x1="{PAD_L}" x2="{PAD_L}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
    out.append(text((PAD_L + W - PAD_R) / 2, H - 12, x_label, cls="chart-title"))
    out.append(text(16, (PAD_T + H - PAD_B) / 2, y_label, cls="chart-title",
                     extra=f' transform="rotate(-90 16 {(PAD_T + H - PAD_B) / 2:.1f})"'))
    out.append("</g>")
    return out


def line(xs: Scale, ys: Scale, points: list, series: int, label: str, label_at: int = -1, above: bool = False) -> list:
    """A series as a path, labelled at one of its points (the last by default), beside it or above it."""
    path = " ".join(f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(y):.1f}" for i, (x, y) in enumerate(points))
    lx, ly = xs(points[label_at][0]), ys(points[label_at][1])
    tag = text(lx, ly - 10, label, "middle", f"chart-label s{series}") if above else \
        text(lx + 6, ly + 4, label, "start", f"chart-label s{series}")
    return [f'<path class="chart-line s{series}" d="{path}"/>', tag]


def tick_number(locale):
    """Tick labels: as few digits as the tick needs (5, 2.5, 0.01)."""
    def f(v):
        d = fmt.round_decimal(v, sig=3).normalize()
        decimals = max(0, -d.as_tuple().exponent)
        return fmt.format_number(v, locale, decimals=decimals)
    return f
