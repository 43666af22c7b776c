"""The calculators' charts: small SVGs drawn from the reader's inputs.

Why they live apart from calculators/article/charts.py: those are the
article's fixed charts; these take a calculator's checked inputs and are
redrawn in the browser (on Pyodide) after every change, so they must be cheap
and must never fail on an input the calculator accepted. The build draws the
defaults with the same functions, so the static page shows exactly what the
browser would draw. Each calculator's `chart` (calculators/ui/<calculator>.py)
calls its function here.

Every string is a module constant marked with N_ (calculators/ui/messages.py
hands the browser the translations of all of them).
"""

from __future__ import annotations

import math

from ..perf import roofline as M
from ..text import fmt
from ..text.message import say
from . import inputs as I
from .fields import CUSTOM
from .messages import N_, P_, UNKNOWN
from .svg import NW, Scale, below_axis, frame, legend_rows, narrow_axes, text, text_width, thin, tick_number

W, H = 640, 250
LEFT, RIGHT, TOP, BOTTOM = 74, 110, 20, 50
BAR_W, LEGEND_W = 700, 230   # the bar charts keep room on the right for a legend in any of the four languages
# The drawing for a narrow screen (svg.NW wide; see calculators/article/charts.py): labels above their bars,
# y ticks inside the plot, legends below.
N_L, N_R = 10, 12

X_CONTEXT = N_("Context length (tokens)")
Y_KV = N_("KV cache ({unit})")
L_KV = N_("KV cache")
L_DEVICE_MEMORY = N_("memory of one device")
T_KV = N_("KV cache against context length")
D_KV = N_("At {context} tokens and batch {batch}, the KV cache of {model} takes {total}, "
          "{share} of the memory of one {device}.")

X_STEP = N_("Time per decode step ({unit})")
R_MEMORY, R_COMPUTE = N_("memory"), N_("arithmetic")
L_WEIGHTS, L_KV_READ, L_PEAK = N_("reading weights"), N_("reading KV cache"), N_("arithmetic at peak")
L_NO_PEAK = N_("no published peak")
T_DECODE = N_("One decode step: reading memory against arithmetic")
D_DECODE = N_("Reading the weights takes {weights} and reading the KV cache {kv}; "
              "the arithmetic takes {compute} at peak. Verdict: {verdict}.")
D_DECODE_NO_PEAK = N_("Reading the weights takes {weights} and reading the KV cache {kv}; "
                      "no compute peak is published for this device, so the arithmetic time is unknown. Verdict: {verdict}.")

X_DEVICES = N_("Devices needed (logarithmic scale)")
L_NO_FIT = N_("does not fit")
T_FIT = N_("How many devices hold the weights and the KV cache")
D_FIT = N_("Fewest devices of each kind that hold {model} with {kv} of KV cache: {counts}.")

X_TIME = N_("Time ({unit})")
R_CALL = N_("one call")
R_LOOP = P_("agent loop, {n} call", "agent loop, {n} calls", "chart")
L_TTFT, L_GENERATE, L_TOOLS = N_("time to first token"), N_("generating the answer"), N_("tools")
T_LATENCY = N_("Where the time of an agent loop goes")
# The chart's description, one whole sentence per case: the first token's wait known or not (no published
# BF16 peak), tool time or none; each agrees with the number of calls {n}.
D_LATENCY = {
    (True, True): P_("Each call waits {ttft} for its first token and {decode} for the rest of the answer; "
                     "with {tool} for tools, {n} call takes {loop}.",
                     "Each call waits {ttft} for its first token and {decode} for the rest of the answer; "
                     "with {tool} for tools after each call, {n} calls take {loop}.", "chart"),
    (True, False): P_("Each call waits {ttft} for its first token and {decode} for the rest of the answer; "
                      "{n} call takes {loop}.",
                      "Each call waits {ttft} for its first token and {decode} for the rest of the answer; "
                      "{n} calls in a row take {loop}.", "chart"),
    (False, True): P_("The wait for the first token is unknown (no published dense BF16 peak), so the bars leave it out: "
                      "the call takes {decode} for its answer; with {tool} for tools, {n} call takes {loop} "
                      "plus its wait for the first token.",
                      "The wait for the first token is unknown (no published dense BF16 peak), so the bars leave it out: "
                      "each call takes {decode} for its answer; with {tool} for tools after each call, {n} calls "
                      "take {loop} plus their waits for the first token.", "chart"),
    (False, False): P_("The wait for the first token is unknown (no published dense BF16 peak), so the bars leave it out: "
                       "the call takes {decode} for its answer; {n} call takes {loop} plus its wait for the first token.",
                       "The wait for the first token is unknown (no published dense BF16 peak), so the bars leave it out: "
                       "each call takes {decode} for its answer; {n} calls in a row take {loop} plus their waits "
                       "for the first token.", "chart"),
}


# ------------------------------------------------------------------ helpers


def _unit(value: float, units) -> tuple:
    """The largest (symbol, factor) whose factor the value reaches; the smallest otherwise."""
    chosen = units[0]
    for unit in units:
        if value >= unit[1]:
            chosen = unit
    return chosen


BYTE_UNITS = (("B", 1.0), ("kB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15))
SECOND_UNITS = (("\u00b5s", 1e-6), ("ms", 1e-3), ("s", 1.0), ("min", 60.0), ("h", 3600.0))


def _grid_x(xs: Scale, top: float, bottom: float, ticks, label) -> list:
    out = []
    for v in ticks:
        x = xs(v)
        out.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{top:.1f}" y2="{bottom:.1f}"/>')
        out.append(text(x, bottom + 16, label(v)))
    return out


def _legend(entries: list, x: float, y: float) -> list:
    out = []
    for j, (series, label) in enumerate(entries):
        ly = y + j * 20
        out.append(f'<rect class="chart-bar s{series}" x="{x:.1f}" y="{ly - 9:.1f}" width="12" height="12"/>')
        out.append(text(x + 18, ly + 1, label, "start"))
    return out


def _hbars(xs: Scale, y: float, height: float, parts: list) -> list:
    """One horizontal bar on a linear scale, stacked from (value, series) parts, left to right."""
    out, x0 = [], xs(0)
    for value, series in parts:
        x1 = x0 + (xs(value) - xs(0))
        out.append(f'<rect class="chart-bar s{series}" x="{x0:.1f}" y="{y:.1f}" width="{max(0.0, x1 - x0):.1f}" height="{height:.1f}"/>')
        x0 = x1
    return out


# TRANSLATORS: the custom model inside the KV chart's sentence, after "of" ("the KV cache of a custom model takes …")
CUSTOM_IN_SENTENCE = N_("a custom model")


def _model_name(inputs: dict, m, tr) -> str:
    """The model as the chart's sentence names it: a catalog model by its name; the custom one in words that
    fit the sentence (not the menu's label, "la cache KV di modello personalizzato")."""
    return tr(CUSTOM_IN_SENTENCE) if inputs["model"] == CUSTOM else m.name


# ------------------------------------------------------------------- charts


def kv_cache(inputs: dict, locale: str, tr, chart_id: str, cat) -> str:
    """Total KV cache against context for the chosen model, batch and precision, with the device's memory."""
    m, d = I.model(inputs, cat), cat.devices[inputs["device"]]
    ctx, batch, prec = int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"]
    limit = m.max_context if inputs["model"] != CUSTOM else 2 * ctx
    top = max(ctx, min(limit, 2 * ctx), 16)
    xs_data = {top * i // 32 for i in range(33)} | {ctx}
    if m.sliding_window and m.sliding_window < top:
        xs_data.add(m.sliding_window)  # the kink where sliding layers stop growing
    points = [(x, M.kv_bytes(m, x, batch, prec)) for x in sorted(xs_data)]
    memory = d.serving.bytes
    symbol, factor = _unit(max(points[-1][1], memory), BYTE_UNITS)
    ymax = max(points[-1][1], memory) * 1.08 / factor
    top_x = top
    xs, ys = Scale(0, top, LEFT, W - RIGHT), Scale(0, ymax, H - BOTTOM, TOP)
    ticks = tick_number(locale)
    body = ['<g class="chart-axes">']
    body += _grid_x(xs, TOP, H - BOTTOM, xs.ticks(), ticks)
    for v in ys.ticks():
        y = ys(v)
        body.append(f'<line class="chart-grid" x1="{LEFT}" x2="{W - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>')
        body.append(text(LEFT - 6, y + 4, ticks(v), "end"))
    body.append(text((LEFT + W - RIGHT) / 2, H - 10, tr(X_CONTEXT), cls="chart-title"))
    mid = (TOP + H - BOTTOM) / 2
    body.append(text(16, mid, tr(Y_KV).format(unit=symbol), cls="chart-title", extra=f' transform="rotate(-90 16 {mid:.1f})"'))
    body.append("</g>")
    path = " ".join(f"{'M' if i == 0 else 'L'}{xs(x):.1f},{ys(v / factor):.1f}" for i, (x, v) in enumerate(points))
    body.append(f'<path class="chart-line s1" d="{path}"/>')
    body.append(text(xs(points[-1][0]) + 6, ys(points[-1][1] / factor) + 4, tr(L_KV), "start", "chart-label s1"))
    ym = ys(memory / factor)
    body.append(f'<path class="chart-line s2" stroke-dasharray="6 4" d="M{LEFT},{ym:.1f} L{W - RIGHT},{ym:.1f}"/>')
    body.append(text(W - RIGHT, ym - 6, tr(L_DEVICE_MEMORY), "end", "chart-label s2"))  # long in German: inside
    total = M.kv_bytes(m, ctx, batch, prec)
    body.append(f'<circle class="chart-point s1" cx="{xs(ctx):.1f}" cy="{ys(total / factor):.1f}" r="5"/>')
    # narrow: the same curve, line and point; the labels in a legend below
    top, bottom = 40, 40 + 150
    nxs, nys = Scale(0, top_x, N_L, NW - N_R), Scale(0, ymax, bottom, top)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, tr(X_CONTEXT), tr(Y_KV).format(unit=symbol), ticks, ticks,
                         thin(nxs.ticks(4), 4))
    narrow.append('<path class="chart-line s1" d="' + " ".join(
        f"{'M' if i == 0 else 'L'}{nxs(x):.1f},{nys(v / factor):.1f}" for i, (x, v) in enumerate(points)) + '"/>')
    nym = nys(memory / factor)
    narrow.append(f'<path class="chart-line s2" stroke-dasharray="6 4" d="M{N_L},{nym:.1f} L{NW - N_R},{nym:.1f}"/>')
    narrow.append(f'<circle class="chart-point s1" cx="{nxs(ctx):.1f}" cy="{nys(total / factor):.1f}" r="5"/>')
    legend_y = below_axis(bottom, tr(X_CONTEXT))
    rows, rows_h = legend_rows([("line", 1, tr(L_KV)), ("dash", 2, tr(L_DEVICE_MEMORY))], N_L, legend_y, NW - N_L - N_R)
    narrow += rows
    desc = tr(D_KV).format(
        context=fmt.format_quantity(ctx, "tokens", locale), batch=fmt.format_number(batch, locale),
        model=_model_name(inputs, m, tr), total=fmt.format_quantity(total, "bytes", locale),
        share=fmt.format_percent(total / memory, locale, decimals=0), device=d.name)
    return frame(chart_id, tr(T_KV), desc, body, W, H, narrow=(narrow, NW, legend_y + rows_h))


def _two_bar_axes(seconds_max: float, left: float, height: int, x_title: str, locale: str) -> tuple:
    """Time axis, grid and title for a chart of two horizontal bars; returns the scale, the body so far,
    the unit factor, the row height and the bar thickness."""
    symbol, factor = _unit(seconds_max, SECOND_UNITS)
    xs = Scale(0, seconds_max * 1.05 / factor, left, BAR_W - LEGEND_W)
    body = ['<g class="chart-axes">']
    body += _grid_x(xs, TOP, height - BOTTOM, xs.ticks(4), tick_number(locale))
    body.append(text((left + BAR_W - LEGEND_W) / 2, height - 10, x_title.format(unit=symbol), cls="chart-title"))
    body.append("</g>")
    row_h = (height - TOP - BOTTOM) / 2
    return xs, body, factor, row_h, row_h * 0.6


def _row_left(labels: list, least: float) -> float:
    """Room left of the bars for their row labels (drawn right-aligned, 8 px from the bars): in no
    language may a label run out of the drawing ("Agentenschleife, 20 Aufrufe")."""
    return max(least, max(text_width(label) for label in labels) + 16)


def _narrow_bars(seconds_max: float, rows: list, legend: list, x_title: str, locale: str) -> tuple:
    """The narrow drawing of a two-bar chart: each row's label above its bar, the time axis, the legend
    below. `rows`: (label, parts or None, text for None); returns (body, height)."""
    symbol, factor = _unit(seconds_max, SECOND_UNITS)
    xs = Scale(0, seconds_max * 1.05 / factor, N_L, NW - N_R)
    row, bar, top = 44, 16, 8
    bottom = top + row * len(rows)
    body = narrow_axes(xs, None, N_L, NW - N_R, top, bottom, x_title.format(unit=symbol), None, tick_number(locale), None,
                       thin(xs.ticks(4), 4))
    for i, (label, parts, empty) in enumerate(rows):
        y = top + i * row + 20
        body.append(text(N_L, y - 5, label, "start"))
        if parts is None:
            body.append(text(N_L + 6, y + bar / 2 + 4, empty, "start"))
        else:
            body += _hbars(xs, y, bar, [(v / factor, series) for v, series in parts])
    legend_y = below_axis(bottom, x_title.format(unit=symbol))
    rows_body, rows_h = legend_rows([("bar", series, label) for series, label in legend], N_L, legend_y, NW - N_L - N_R)
    return body + rows_body, legend_y + rows_h


def decode(inputs: dict, locale: str, tr, chart_id: str, cat) -> str:
    """One step as two bars: memory time (weights + KV) against arithmetic time at peak."""
    s = I.step(inputs, cat)
    height = 170
    left = _row_left([tr(R_MEMORY), tr(R_COMPUTE)], 110)
    longest = max(s.memory_s, s.compute_s or 0.0)
    xs, body, factor, row_h, bar = _two_bar_axes(longest, left, height, tr(X_STEP), locale)
    rows = [(tr(R_MEMORY), [(s.weights_s, 1), (s.kv_s, 2)]),
            (tr(R_COMPUTE), None if s.compute_s is None else [(s.compute_s, 3)])]
    for i, (label, parts) in enumerate(rows):
        y = TOP + i * row_h + (row_h - bar) / 2
        body.append(text(left - 8, y + bar / 2 + 4, label, "end"))
        if parts is None:
            body.append(text(left + 6, y + bar / 2 + 4, tr(L_NO_PEAK), "start"))
        else:
            body += _hbars(xs, y, bar, [(v / factor, series) for v, series in parts])
    legend = [(1, tr(L_WEIGHTS)), (2, tr(L_KV_READ)), (3, tr(L_PEAK))]
    body += _legend(legend, BAR_W - LEGEND_W + 12, TOP + 10)
    narrow = _narrow_bars(longest, [(label, parts, tr(L_NO_PEAK)) for label, parts in rows], legend, tr(X_STEP), locale)
    verdict = I.verdict(s)  # the step is already computed: no second run of the calculator
    times = {"weights": fmt.format_quantity(s.weights_s, "seconds", locale),
             "kv": fmt.format_quantity(s.kv_s, "seconds", locale), "verdict": tr(verdict)}
    if s.compute_s is None:
        desc = tr(D_DECODE_NO_PEAK).format(**times)
    else:
        desc = tr(D_DECODE).format(compute=fmt.format_quantity(s.compute_s, "seconds", locale), **times)
    return frame(chart_id, tr(T_DECODE), desc, body, BAR_W, height, narrow=(narrow[0], NW, narrow[1]))


def fit(inputs: dict, locale: str, tr, chart_id: str, cat) -> str:
    """Devices needed per device kind, on a logarithmic axis (1 to thousands)."""
    m = I.model(inputs, cat)
    counts = [(d.name, f.best.devices if f.best else None) for d, f, _ in I.fits(inputs, cat)]
    row_h = 24
    left = _row_left([name for name, _ in counts], 180)
    height = TOP + row_h * len(counts) + BOTTOM
    most = max([n for _, n in counts if n is not None] or [1])
    xs = Scale(1, 10.0 ** max(1, math.ceil(math.log10(most * 1.5))), left, W - 60, log=True)
    body = ['<g class="chart-axes">']
    body += _grid_x(xs, TOP, height - BOTTOM, xs.ticks(), lambda v: fmt.format_number(round(v), locale))
    body.append(text((left + W - 60) / 2, height - 10, tr(X_DEVICES), cls="chart-title"))
    body.append("</g>")
    for i, (name, n) in enumerate(counts):
        y = TOP + i * row_h + 4
        body.append(text(left - 8, y + 12, name, "end"))
        if n is None:
            body.append(text(left + 6, y + 12, tr(L_NO_FIT), "start"))
            continue
        x1 = max(xs(n), left + 3)
        body.append(f'<rect class="chart-bar s1" x="{left}" y="{y:.1f}" width="{x1 - left:.1f}" height="{row_h - 8}"/>')
        body.append(text(x1 + 6, y + 12, fmt.format_number(n, locale), "start"))
    # narrow: each device's name above its bar, the count at the bar's end (inside it where it would run out)
    nrow, nbar, ntop = 38, 14, 8
    nbottom = ntop + nrow * len(counts)
    nxs = Scale(1, xs.hi, N_L, NW - N_R, log=True)
    narrow = narrow_axes(nxs, None, N_L, NW - N_R, ntop, nbottom, tr(X_DEVICES), None,
                         lambda v: fmt.format_number(round(v), locale), None, thin(nxs.ticks(), 5))
    for i, (name, n) in enumerate(counts):
        y = ntop + i * nrow + 18
        narrow.append(text(N_L, y - 4, name, "start"))
        if n is None:
            narrow.append(text(N_L + 6, y + nbar - 3, tr(L_NO_FIT), "start"))
            continue
        x1 = max(nxs(n), N_L + 3)
        label = fmt.format_number(n, locale)
        narrow.append(f'<rect class="chart-bar s1" x="{N_L}" y="{y:.1f}" width="{x1 - N_L:.1f}" height="{nbar}"/>')
        inside = x1 + 6 + text_width(label) > NW - 2
        narrow.append(text(x1 - 4 if inside else x1 + 6, y + nbar - 3, label, "end" if inside else "start",
                           "chart-label chart-on-bar" if inside else "chart-label"))
    listed = "; ".join(f"{name}: {UNKNOWN if n is None else fmt.format_number(n, locale)}" for name, n in counts)
    kv = M.kv_bytes(m, int(inputs["context"]), int(inputs["batch"]), inputs["kv_precision"])
    desc = tr(D_FIT).format(model=m.name, kv=fmt.format_quantity(kv, "bytes", locale), counts=listed)
    return frame(chart_id, tr(T_FIT), desc, body, W, height, narrow=(narrow, NW, below_axis(nbottom, tr(X_DEVICES)) - 10))


def latency(inputs: dict, locale: str, tr, chart_id: str, cat) -> str:
    """One call and the whole agent loop as stacked bars: first token, generation, tools."""
    p = I.latency_parts(inputs, cat)
    n, ttft = p["steps"], p["ttft"] or 0.0     # no published BF16 peak: the first token's wait is left out, and said so
    count = fmt.format_number(n, locale)
    rows = [(tr(R_CALL), [(ttft, 1), (p["decode"], 2)]),
            (say(tr, R_LOOP, locale, n=count), [(n * ttft, 1), (n * p["decode"], 2), (n * p["tool"], 3)])]
    height = 170
    left = _row_left([label for label, _ in rows], 150)
    xs, body, factor, row_h, bar = _two_bar_axes(p["loop"], left, height, tr(X_TIME), locale)
    for i, (label, parts) in enumerate(rows):
        y = TOP + i * row_h + (row_h - bar) / 2
        body.append(text(left - 8, y + bar / 2 + 4, label, "end"))
        body += _hbars(xs, y, bar, [(v / factor, series) for v, series in parts])
    legend = [(1, tr(L_TTFT)), (2, tr(L_GENERATE)), (3, tr(L_TOOLS))]
    body += _legend(legend, BAR_W - LEGEND_W + 12, TOP + 10)
    narrow = _narrow_bars(p["loop"], [(label, parts, "") for label, parts in rows], legend, tr(X_TIME), locale)
    seconds = {k: fmt.format_quantity(p[k], "seconds", locale) for k in ("decode", "tool", "loop")}
    if p["ttft"] is not None:
        seconds["ttft"] = fmt.format_quantity(p["ttft"], "seconds", locale)
    desc = say(tr, D_LATENCY[(p["ttft"] is not None, p["tool"] > 0)], locale, n=count, **seconds)
    return frame(chart_id, tr(T_LATENCY), desc, body, BAR_W, height, narrow=(narrow[0], NW, narrow[1]))
