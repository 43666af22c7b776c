"""Inline SVG charts drawn from the model, with localized labels and numbers.

Why hand-written SVG instead of a plotting library: the same code must run in
the browser on Pyodide with the standard library only (matplotlib would add
megabytes to the page), and a few line and bar charts need little.

Each chart function takes the page's locale and `tr`, a function from an
English msgid to the translated string (the build passes the .po lookup, the
browser a dict's lookup). Colours come from CSS classes (docs/assets/site.css)
so the charts follow the light and dark palettes; text uses currentColor.
"""

from __future__ import annotations

import math

from . import catalog, fmt
from . import model as M
from . import scenarios as S
from .markup import escape

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
        step = _nice_step((self.hi - self.lo) / n)
        start = math.ceil(self.lo / step) * step
        return [start + i * step for i in range(int((self.hi - start) / step + 1e-9) + 1)]


def _nice_step(raw: float) -> float:
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


def wrap(text: str, width: float, size: float = 12, bold: bool = False) -> list:  # noqa: ARG001 (bold: see below)
    """`text` in lines no wider than `width` (at word breaks; a single long word keeps its line)."""
    lines, line = [], ""
    for word in text.split(" "):
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


def _text(x, y, s, anchor="middle", cls="chart-label", extra=""):
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{cls}"{extra}>{escape(s)}</text>'


def _svg(svg_id: str, title: str, desc: str, body: list, width: int, height: int, cls: str | None) -> str:
    t_id, d_id = f"{svg_id}-title", f"{svg_id}-desc"
    klass = f' class="{cls}"' if cls else ""
    return (f'<svg{klass} viewBox="0 0 {width} {height:.0f}" role="img" aria-labelledby="{t_id} {d_id}" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="{t_id}">{escape(title)}</title><desc id="{d_id}">{escape(desc)}</desc>'
            + "".join(body) + "</svg>")


def _frame(chart_id: str, title: str, desc: str, body: list, width: int = W, height: int = H,
           narrow: tuple | None = None) -> str:
    """The chart's figure; `narrow`: (body, width, height) of its drawing for a narrow screen, in the same figure."""
    svgs = _svg(chart_id, title, desc, body, width, height, "chart-wide" if narrow else None)
    if narrow:
        svgs += _svg(f"{chart_id}-n", title, desc, narrow[0], narrow[1], narrow[2], "chart-narrow")
    return (f'<figure class="chart" id="{chart_id}">{svgs}'
            f'<figcaption>{escape(title)}. {escape(desc)}</figcaption></figure>')


def _axes(xs: Scale, ys: Scale, x_label: str, y_label: str, x_fmt, y_fmt) -> list:
    out = ['<g class="chart-axes">']
    for v in ys.ticks():
        y = ys(v)
        out.append(f'<line class="chart-grid" x1="{PAD_L}" x2="{W - PAD_R}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(_text(PAD_L - 6, y + 4, y_fmt(v), "end"))
    for v in xs.ticks():
        x = xs(v)
        out.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
        out.append(_text(x, H - PAD_B + 18, x_fmt(v)))
    out.append(f'<line class="chart-axis" x1="{PAD_L}" x2="{W - PAD_R}" y1="{H - PAD_B}" y2="{H - PAD_B}"/>')
    out.append(f'<line class="chart-axis" x1="{PAD_L}" x2="{PAD_L}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
    out.append(_text((PAD_L + W - PAD_R) / 2, H - 12, x_label, cls="chart-title"))
    out.append(_text(16, (PAD_T + H - PAD_B) / 2, y_label, cls="chart-title",
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
            out.append(_text(left + 3, y - 3, y_fmt(v), "start", "chart-label chart-tick"))
    for i, v in enumerate(x_ticks):
        x = xs(v)
        out.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{bottom}"/>')
        anchor = "start" if x - text_width(x_fmt(v)) / 2 < left - 4 else "end" if x + text_width(x_fmt(v)) / 2 > right + 6 else "middle"
        out.append(_text(x, bottom + 16, x_fmt(v), anchor))
    out.append(f'<line class="chart-axis" x1="{left}" x2="{right}" y1="{bottom}" y2="{bottom}"/>')
    if ys is not None:
        out.append(f'<line class="chart-axis" x1="{left}" x2="{left}" y1="{top}" y2="{bottom}"/>')
    for i, line in enumerate(wrap(x_label, right - left, TITLE_SIZE, bold=True)):
        out.append(_text(left, bottom + 34 + i * TITLE_LINE, line, "start", "chart-title"))
    if y_label:
        out.append(_text(left, top - 22, y_label, "start", "chart-title"))
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
        out.append(_text(x + 22, ly + 1, label, "start"))
    return out, len(entries) * LEGEND_ROW


def _line(xs: Scale, ys: Scale, points: list, series: int, label: str, label_at: int = -1, above: bool = False) -> list:
    """A series as a path, labelled at one of its points (the last by default), beside it or above it."""
    path = " ".join(f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(y):.1f}" for i, (x, y) in enumerate(points))
    lx, ly = xs(points[label_at][0]), ys(points[label_at][1])
    text = _text(lx, ly - 10, label, "middle", f"chart-label s{series}") if above else \
        _text(lx + 6, ly + 4, label, "start", f"chart-label s{series}")
    return [f'<path class="chart-line s{series}" d="{path}"/>', text]


def _path(xs: Scale, ys: Scale, points: list, series: int) -> str:
    return f'<path class="chart-line s{series}" d="' + " ".join(
        f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(y):.1f}" for i, (x, y) in enumerate(points)) + '"/>'


def _narrow_plot(legend: list, x_label: str) -> tuple:
    """(top, bottom, legend y, height) of a narrow line chart with `legend` entries below it."""
    top, bottom = N_T, N_T + N_PLOT_H
    legend_y = below_axis(bottom, x_label)
    return top, bottom, legend_y, legend_y + len(legend) * LEGEND_ROW


def _tick_number(locale):
    """Tick labels: as few digits as the tick needs (5, 2.5, 0.01)."""
    def f(v):
        d = fmt.round_decimal(v, sig=3).normalize()
        decimals = max(0, -d.as_tuple().exponent)
        return fmt.format_number(v, locale, decimals=decimals)
    return f


# ----------------------------------------------------------------- charts

KV_MODELS = ("llama-3.1-70b", "deepseek-v3", "gpt-oss-120b")


def kv_vs_context(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
    """KV cache of one sequence against context length: GQA vs MLA vs sliding window."""
    cat = cat or catalog.load()
    top = top_ctx = S.CONTEXTS[-1]
    xs_data = [i * top // 32 for i in range(33)]
    series = [(cat.models[k], [(x, M.kv_bytes(cat.models[k], x) / 1e9) for x in xs_data]) for k in KV_MODELS]
    ymax = max(p[1] for _, pts in series for p in pts)
    xs = Scale(0, top, PAD_L, W - PAD_R)
    ys = Scale(0, ymax * 1.05, H - PAD_B, PAD_T)
    ticks = _tick_number(locale)
    x_label, y_label = tr("Context length (tokens)"), tr("KV cache per sequence (GB)")
    body = _axes(xs, ys, x_label, y_label, ticks, ticks)
    for i, (m, pts) in enumerate(series, start=1):
        body += _line(xs, ys, pts, i, m.name)
    # narrow: the same lines, their names in a legend below
    legend = [("line", i, m.name) for i, (m, _) in enumerate(series, start=1)]
    top, bottom, legend_y, height = _narrow_plot(legend, x_label)
    nxs, nys = Scale(0, top_ctx, N_L, NW - N_R), Scale(0, ymax * 1.05, bottom, top)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, ticks, ticks, thin(nxs.ticks(4)))
    narrow += [_path(nxs, nys, pts, i) for i, (_, pts) in enumerate(series, start=1)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    values = {f"m{i}": fmt.format_quantity(pts[-1][1] * 1e9, "bytes", locale) for i, (_, pts) in enumerate(series, 1)}
    desc = tr("At {context} tokens the cache holds {m1} for Llama 3.1 70B (grouped-query attention), "
              "{m2} for DeepSeek V3 (multi-head latent attention) and {m3} for gpt-oss-120b (its sliding-window layers stop growing).").format(
        context=fmt.format_quantity(top, "tokens", locale), **values)
    return _frame("chart-kv-context", tr("KV cache grows with context, at a slope set by the attention design"), desc, body,
                  narrow=(narrow, NW, height))


def step_split(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
    """One decode step split into weight reads, KV reads and arithmetic, for growing batches."""
    cat = cat or catalog.load()
    m, d = cat.models["llama-3.1-70b"], cat.devices["h100-sxm"]
    steps = [(b, M.decode_step(m, d, devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT)) for b in S.BATCHES]
    tmax = max(max(s.memory_s, s.compute_s) for _, s in steps) * 1e3
    right = W - PAD_R - 40  # the legend's labels are long in some languages
    xs = Scale(0, tmax * 1.05, PAD_L + 30, right)
    row_h = (H - PAD_T - PAD_B) / len(steps)
    ticks = _tick_number(locale)
    body = ['<g class="chart-axes">']
    for v in xs.ticks():
        x = xs(v)
        body.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
        body.append(_text(x, H - PAD_B + 18, ticks(v)))
    x_label = tr("Time per decode step (ms)")
    body.append(_text((PAD_L + W - PAD_R) / 2, H - 12, x_label, cls="chart-title"))
    body.append("</g>")
    names = [tr("batch {n}").format(n=fmt.format_number(b, locale)) for b, _ in steps]
    for i, (b, s) in enumerate(steps):
        y = PAD_T + i * row_h + row_h * 0.15
        bh = row_h * 0.32
        x0 = xs(0)
        xw, xk = xs(s.weights_s * 1e3), xs(s.memory_s * 1e3)
        body.append(_text(x0 - 8, y + bh + 4, names[i], "end"))
        body.append(f'<rect class="chart-bar s1" x="{x0:.1f}" y="{y:.1f}" width="{xw - x0:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s2" x="{xw:.1f}" y="{y:.1f}" width="{xk - xw:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s3" x="{x0:.1f}" y="{y + bh + 2:.1f}" width="{xs(s.compute_s * 1e3) - x0:.1f}" height="{bh:.1f}"/>')
    legend = [(1, tr("reading weights")), (2, tr("reading KV cache")), (3, tr("arithmetic at peak"))]
    for j, (cls, label) in enumerate(legend):
        ly = PAD_T + 10 + j * 20
        body.append(f'<rect class="chart-bar s{cls}" x="{right + 12}" y="{ly - 9}" width="12" height="12"/>')
        body.append(_text(right + 30, ly + 1, label, "start"))
    # narrow: each batch's name above its two bars, the legend below
    nxs = Scale(0, tmax * 1.05, N_L, NW - N_R)
    row, bar = 52, 12
    top, bottom = 20, 20 + row * len(steps)
    narrow = narrow_axes(nxs, None, N_L, NW - N_R, top - 8, bottom, x_label, None, ticks, None, thin(nxs.ticks(4)))
    for i, (b, s) in enumerate(steps):
        y = top + i * row + 16
        narrow.append(_text(N_L, y - 4, names[i], "start"))
        x0, xw, xk = nxs(0), nxs(s.weights_s * 1e3), nxs(s.memory_s * 1e3)
        narrow.append(f'<rect class="chart-bar s1" x="{x0:.1f}" y="{y:.1f}" width="{xw - x0:.1f}" height="{bar}"/>')
        narrow.append(f'<rect class="chart-bar s2" x="{xw:.1f}" y="{y:.1f}" width="{xk - xw:.1f}" height="{bar}"/>')
        narrow.append(f'<rect class="chart-bar s3" x="{x0:.1f}" y="{y + bar + 2:.1f}" width="{nxs(s.compute_s * 1e3) - x0:.1f}" height="{bar}"/>')
    legend_y = below_axis(bottom, x_label)
    rows, rows_h = legend_rows([("bar", cls, label) for cls, label in legend], N_L, legend_y, NW - N_L - N_R)
    narrow += rows
    first, last = steps[0][1], steps[-1][1]
    desc = tr("With {devices} GPUs and {context} tokens of context per request, a step at batch {b1} spends {w1} on weights, "
              "{k1} on the KV cache and {c1} on arithmetic; at batch {b2} the KV cache takes {k2} and arithmetic {c2}.").format(
        devices=fmt.format_number(S.BATCH_DEVICES, locale), context=fmt.format_quantity(S.BATCH_CONTEXT, "tokens", locale),
        b1=fmt.format_number(steps[0][0], locale), b2=fmt.format_number(steps[-1][0], locale),
        w1=fmt.format_quantity(first.weights_s, "seconds", locale), k1=fmt.format_quantity(first.kv_s, "seconds", locale),
        c1=fmt.format_quantity(first.compute_s, "seconds", locale), k2=fmt.format_quantity(last.kv_s, "seconds", locale),
        c2=fmt.format_quantity(last.compute_s, "seconds", locale))
    return _frame("chart-step-split", tr("Where the time of one decode step goes (Llama 3.1 70B, BF16, H100)"), desc, body,
                  narrow=(narrow, NW, legend_y + rows_h))


def batching(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
    """Per-request speed falls and aggregate throughput rises as the batch grows."""
    cat = cat or catalog.load()
    m, d = cat.models["llama-3.1-70b"], cat.devices["h100-sxm"]
    batches = [2 ** i for i in range(0, 8)]  # up to the largest batch the article quotes
    steps = [(b, M.decode_step(m, d, devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT)) for b in batches]
    per = [(b, s.tokens_per_s) for b, s in steps]
    agg = [(b, s.aggregate_tokens_per_s) for b, s in steps]
    lo = min(v for _, v in per) * 0.8
    hi = max(v for _, v in agg) * 1.25
    xs = Scale(1, batches[-1], PAD_L, W - PAD_R, log=True)
    ys = Scale(10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi)), H - PAD_B, PAD_T, log=True)
    xs.ticks = lambda n=5: batches  # powers of two read better than decades here
    ticks = _tick_number(locale)
    x_label, y_label = tr("Batch size (requests decoded together)"), tr("Tokens per second")
    body = _axes(xs, ys, x_label, y_label, ticks, ticks)
    body += _line(xs, ys, per, 1, tr("per request"))
    body += _line(xs, ys, agg, 2, tr("all requests"))
    legend = [("line", 1, tr("per request")), ("line", 2, tr("all requests"))]
    top, bottom, legend_y, height = _narrow_plot(legend, x_label)
    nxs = Scale(1, batches[-1], N_L + 4, NW - N_R, log=True)
    nys = Scale(ys.lo, ys.hi, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, ticks, ticks, batches[::2] + [batches[-1]])
    narrow += [_path(nxs, nys, per, 1), _path(nxs, nys, agg, 2)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    desc = tr("From batch {b1} to batch {b2}, each request slows from {p1} to {p2}, while the GPUs together "
              "produce {a1} instead of {a2}.").format(
        b1=fmt.format_number(batches[0], locale), b2=fmt.format_number(batches[-1], locale),
        p1=fmt.format_quantity(per[0][1], "tok_per_s", locale), p2=fmt.format_quantity(per[-1][1], "tok_per_s", locale),
        a1=fmt.format_quantity(agg[-1][1], "tok_per_s", locale), a2=fmt.format_quantity(agg[0][1], "tok_per_s", locale))
    return _frame("chart-batching", tr("Batching: slower for each request, more tokens in total"), desc, body,
                  narrow=(narrow, NW, height))


def roofline(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
    """Attainable FLOP/s against arithmetic intensity on one H100, with decode and prefill marked."""
    cat = cat or catalog.load()
    m, d = cat.models["llama-3.1-70b"], cat.devices["h100-sxm"]
    peak, bw = d.peak_flops["bf16"], d.serving.bytes_per_s
    xs = Scale(0.1, 10_000, PAD_L, W - PAD_R, log=True)
    ys = Scale(1e11, 1e16, H - PAD_B, PAD_T, log=True)
    ridge = peak / bw
    roof = [(0.1, 0.1 * bw), (ridge, peak), (10_000, peak)]

    def point(batch_tokens):
        flops = batch_tokens * M.flops_per_token_weights(m)
        intensity = flops / M.weight_bytes_read(m, batch_tokens)
        return intensity, min(peak, intensity * bw)

    marks = [(point(1), tr("decode, batch {n}").format(n=fmt.format_number(1, locale))),
             (point(S.UTIL_BATCH), tr("decode, batch {n}").format(n=fmt.format_number(S.UTIL_BATCH, locale))),
             (point(S.SPEED_PROMPT), tr("prefill, {n} tokens").format(n=fmt.format_number(S.SPEED_PROMPT, locale)))]
    exp_label = lambda v: fmt.format_number(v, locale, decimals=1 if v < 1 else 0)  # noqa: E731
    flops_label = lambda v: fmt.format_quantity(v, "flop_per_s", locale, sig=1)  # noqa: E731
    x_label, y_label, roof_label = tr("Arithmetic intensity (FLOP per byte read)"), tr("Attainable FLOP/s"), tr("H100 roofline (BF16)")
    body = _axes(xs, ys, x_label, y_label, exp_label, flops_label)
    body += _line(xs, ys, roof, 1, roof_label, label_at=1, above=True)
    for i, ((x, y), label) in enumerate(marks):
        body.append(f'<circle class="chart-point s{i + 2}" cx="{xs(x):.1f}" cy="{ys(y):.1f}" r="5"/>')
        # right of its point, or left of it where the label would run out of the drawing (prefill, in German)
        lx = xs(x) + 8
        anchor = "start" if lx + text_width(label) <= W - 4 else "end"
        body.append(_text(lx if anchor == "start" else xs(x) - 8, ys(y) + 16 + 14 * (i % 2), label, anchor, f"chart-label s{i + 2}"))
    # narrow: the roof and the three points, named in the legend below
    legend = [("line", 1, roof_label)] + [("point", i + 2, label) for i, (_, label) in enumerate(marks)]
    top, bottom, legend_y, height = _narrow_plot(legend, x_label)
    nxs, nys = Scale(0.1, 10_000, N_L, NW - N_R, log=True), Scale(1e11, 1e16, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, exp_label, flops_label, nxs.ticks()[::2] + [10_000],
                         nys.ticks()[1:])
    narrow.append(_path(nxs, nys, roof, 1))
    narrow += [f'<circle class="chart-point s{i + 2}" cx="{nxs(x):.1f}" cy="{nys(y):.1f}" r="5"/>' for i, ((x, y), _) in enumerate(marks)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    desc = tr("The ridge sits at {ridge} FLOP per byte. Decode at batch {b} does about {i1} FLOP per byte "
              "and reaches {p1}; prefill of {n} tokens reaches the peak of {peak}.").format(
        ridge=fmt.format_number(ridge, locale, decimals=0), b=fmt.format_number(1, locale), i1=fmt.format_number(marks[0][0][0], locale, decimals=1),
        p1=fmt.format_quantity(marks[0][0][1], "flop_per_s", locale), n=fmt.format_number(S.SPEED_PROMPT, locale),
        peak=fmt.format_quantity(peak, "flop_per_s", locale))
    return _frame("chart-roofline", tr("Roofline of one H100: decode sits on the memory slope"), desc, body,
                  narrow=(narrow, NW, height))


CHARTS = {"kv_vs_context": kv_vs_context, "step_split": step_split, "batching": batching, "roofline": roofline}
