"""SVG primitives the charts share: scales, ticks, text and its width, axes, lines, legends, the figure frame.

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

from ..text import fmt
from ..text.markup import escape

W, H = 720, 380
PAD_L, PAD_R, PAD_T, PAD_B = 96, 176, 36, 56  # room for 'TFLOP/s' ticks and longer legends

# A narrow screen (a phone: the content column is 290 to 360 px) gets its own drawing of each chart in
# the same figure, and the page's CSS shows one of the two by the figure's width (docs/assets/site.css):
# scaling the wide drawing down would shrink its 12 px labels to 7 px, and letting it scroll would
# hide half of it. The narrow drawing is as wide as a phone's column, so its labels stay 11 to 12 px:
# y ticks sit on their grid lines inside the plot, the y title above it, fewer x ticks, and the
# labels that sit right of the lines in the wide drawing form a legend below.
NW = 320
N_L, N_R, N_T = 10, 12, 44        # the y title and the top tick label sit above the plot
N_PLOT_H = 210
LEGEND_ROW = 20
X_TICKS_NARROW = 5


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


def thin(ticks: list, most: int = X_TICKS_NARROW) -> list:
    """Every k-th tick, from the first, so that at most `most` remain."""
    step = max(1, math.ceil(len(ticks) / most))
    return list(ticks[::step])


# Widths of the characters of a 12 px sans-serif label, in px (a little generous): the layouts make
# room for the labels they draw from these, so that no label runs out of its drawing in any language.
_NARROW_CHARS = set("iljtfI.,:;'!|()[] ")
_WIDE_CHARS = set("mwMWGOQDHNU@%×÷")


def text_width(s: str, size: float = 12) -> int:
    """About how wide `s` is drawn at `size` px (the page's sans-serif font; errs on the wide side), in whole px.

    Summed in integers: CPython 3.12 sums floats more exactly than 3.11, and the build (3.11) and the
    browser (Pyodide's 3.14) must draw the same chart to the last digit."""
    per_mille = sum(340 if c in _NARROW_CHARS else 920 if c in _WIDE_CHARS else 740 if c.isupper() else 600 for c in s)
    return math.ceil(per_mille * size * 108 / 100_000)


def wrap(words: str, width: float, size: float = 12, bold: bool = False) -> list:  # noqa: ARG001 (bold: see below)
    """`text` in lines no wider than `width` (at word breaks; a single long word keeps its line)."""
    lines, line = [], ""
    for word in words.split(" "):
        candidate = f"{line} {word}" if line else word
        # text_width errs wide by 6-29 % for 13 px semibold titles in Chromium (14-37 % at 12 px regular): enough room
        if line and text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + [line]


TITLE_SIZE, TITLE_LINE = 13, 16  # .chart-title in docs/assets/site.css


def below_axis(bottom: float, x_label: str) -> float:
    """Where a narrow drawing's legend starts: under the x ticks and the x title's lines."""
    return bottom + 30 + TITLE_LINE * len(wrap(x_label, NW - N_L - N_R, TITLE_SIZE, bold=True)) + 14


# ------------------------------------------------------------- primitives


def text(x, y, s, anchor="middle", cls="chart-label", extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}"{extra}>{escape(s)}</text>'


def svg(svg_id: str, title: str, desc: str, body: list, width: int, height: int, cls: str | None) -> str:
    t_id, d_id = f"{svg_id}-title", f"{svg_id}-desc"
    klass = f' class="{cls}"' if cls else ""
    return (f'<svg{klass} viewBox="0 0 {width} {height:.0f}" role="img" aria-labelledby="{t_id} {d_id}" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="{t_id}">{escape(title)}</title><desc id="{d_id}">{escape(desc)}</desc>'
            + "".join(body) + "</svg>")


def frame(chart_id: str, title: str, desc: str, body: list, width: int = W, height: int = H,
           narrow: tuple | None = None) -> str:
    """The chart's figure; `narrow`: (body, width, height) of its drawing for a narrow screen, in the same figure."""
    svgs = svg(chart_id, title, desc, body, width, height, "chart-wide" if narrow else None)
    if narrow:
        svgs += svg(f"{chart_id}-n", title, desc, narrow[0], narrow[1], narrow[2], "chart-narrow")
    return (f'<figure class="chart" id="{chart_id}">{svgs}'
            f'<figcaption>{escape(title)}. {escape(desc)}</figcaption></figure>')


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


def narrow_axes(xs: Scale, ys: Scale | None, left: float, right: float, top: float, bottom: float,
                x_label: str, y_label: str | None, x_fmt, y_fmt, x_ticks: list, y_ticks: list | None = None) -> list:
    """Axes of a narrow drawing: y ticks on their grid lines inside the plot (left-aligned, with a halo),
    the y title above the plot, x ticks below it and the x title under them (from bottom + 34, in as many
    lines as it needs: below_axis() says where they end)."""
    out = ['<g class="chart-axes">']
    if ys is not None:
        for v in (ys.ticks() if y_ticks is None else y_ticks):
            y = ys(v)
            out.append(f'<line class="chart-grid" x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>')
            out.append(text(left + 3, y - 3, y_fmt(v), "start", "chart-label chart-tick"))
    for i, v in enumerate(x_ticks):
        x = xs(v)
        out.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{bottom}"/>')
        anchor = "start" if x - text_width(x_fmt(v)) / 2 < left - 4 else "end" if x + text_width(x_fmt(v)) / 2 > right + 6 else "middle"
        out.append(text(x, bottom + 16, x_fmt(v), anchor))
    out.append(f'<line class="chart-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>')
    if ys is not None:
        out.append(f'<line class="chart-axis" x1="{left}" x2="{left}" y1="{top}" y2="{bottom}"/>')
    for i, row in enumerate(wrap(x_label, right - left, TITLE_SIZE, bold=True)):
        out.append(text(left, bottom + 34 + i * TITLE_LINE, row, "start", "chart-title"))
    if y_label:
        out.append(text(left, top - 22, y_label, "start", "chart-title"))
    out.append("</g>")
    return out


def legend_rows(entries: list, x: float, y: float, width: float) -> tuple:
    """A legend below a narrow drawing: (kind, series, label) entries, kind "line", "dash", "bar" or
    "point", one per row (a long label in any language still fits). Returns (body, height)."""
    out = []
    for j, (kind, series, label) in enumerate(entries):
        ly = y + j * LEGEND_ROW
        if kind == "bar":
            out.append(f'<rect class="chart-bar s{series}" x="{x:.1f}" y="{ly - 9:.1f}" width="12" height="12"/>')
        elif kind == "point":
            out.append(f'<circle class="chart-point s{series}" cx="{x + 6:.1f}" cy="{ly - 3:.1f}" r="5"/>')
        else:
            dash = ' stroke-dasharray="6 4"' if kind == "dash" else ""
            out.append(f'<path class="chart-line s{series}"{dash} d="M{x:.1f},{ly - 3:.1f} L{x + 16:.1f},{ly - 3:.1f}"/>')
        out.append(text(x + 22, ly + 1, label, "start"))
    return out, len(entries) * LEGEND_ROW


def line(xs: Scale, ys: Scale, points: list, series: int, label: str, label_at: int = -1, above: bool = False) -> list:
    """A series as a path, labelled at one of its points (the last by default), beside it or above it."""
    path = " ".join(f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(y):.1f}" for i, (x, y) in enumerate(points))
    lx, ly = xs(points[label_at][0]), ys(points[label_at][1])
    tag = text(lx, ly - 10, label, "middle", f"chart-label s{series}") if above else \
        text(lx + 6, ly + 4, label, "start", f"chart-label s{series}")
    return [f'<path class="chart-line s{series}" d="{path}"/>', tag]


def path(xs: Scale, ys: Scale, points: list, series: int) -> str:
    return f'<path class="chart-line s{series}" d="' + " ".join(
        f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(y):.1f}" for i, (x, y) in enumerate(points)) + '"/>'


def narrow_plot(legend: list, x_label: str) -> tuple:
    """(top, bottom, legend y, height) of a narrow line chart with `legend` entries below it."""
    top, bottom = N_T, N_T + N_PLOT_H
    legend_y = below_axis(bottom, x_label)
    return top, bottom, legend_y, legend_y + len(legend) * LEGEND_ROW


def tick_number(locale):
    """Tick labels: as few digits as the tick needs (5, 2.5, 0.01)."""
    def f(v):
        d = fmt.round_decimal(v, sig=3).normalize()
        decimals = max(0, -d.as_tuple().exponent)
        return fmt.format_number(v, locale, decimals=decimals)
    return f
