"""The running example's charts: where a step's time goes, what batching does, and the device's roofline.

Drawn for a `Case` (calculators/example/case.py): the build draws them for the
main article's default example (calculators/article/charts.py names them), the
browser for the reader's after each change of the example control
(calculators/ui/example.py). Here, on the calculators' floor, because they are
drawn with the calculators' SVG helpers (calculators/ui/svg.py).

The step split draws only the batches whose KV cache fits beside the weights
on the example's devices; the batching chart stops at the largest that fits.
"""

from __future__ import annotations

import math

from ..example import names
from ..example.sentences_decode import chart_batches
from ..text import fmt
from ..text.marks import N_
from .svg import (H, N_L, N_R, NW, PAD_B, PAD_L, PAD_R, PAD_T, W, Scale, axes, below_axis, frame, legend_rows, line,
                  narrow_axes, narrow_plot, path, text, text_width, thin, tick_number)

SPLIT_TITLE = N_("Where the time of one decode step goes ({model}, {weights}, {device})")
SPLIT_DESC = N_("With {devices} × {device} and {context} tokens of context per request, a step at batch {b1} spends {w1} on weights, "
                "{k1} on the KV cache and {c1} on arithmetic; at batch {b2} the KV cache takes {k2} and arithmetic {c2}.")
SPLIT_X = N_("Time per decode step (ms)")
SPLIT_BATCH = N_("batch {n}")
SPLIT_LEGEND = (N_("reading weights"), N_("reading KV cache"), N_("arithmetic at peak"))
BATCH_TITLE = N_("Batching: slower for each request, more tokens in total")
BATCH_DESC = N_("From batch {b1} to batch {b2}, each request slows from {p1} to {p2}, while the devices together produce {a1} "
                "instead of {a2}.")
BATCH_X, BATCH_Y = N_("Batch size (requests decoded together)"), N_("Tokens per second")
PER_REQUEST, ALL_REQUESTS = N_("per request"), N_("all requests")
ROOF_TITLE = N_("Roofline of one {device}: decode sits on the memory slope")
ROOF_DESC = N_("The ridge sits at {ridge} FLOP per byte. Decode at batch {b} does about {i1} FLOP per byte and reaches {p1}; prefill "
               "of {n} tokens reaches the peak of {peak}.")
ROOF_DESC_SLOPE = N_("The ridge sits at {ridge} FLOP per byte. Decode at batch {b} does about {i1} FLOP per byte and reaches {p1}; "
                     "prefill of {n} tokens reaches {pn}, still on the memory slope.")
ROOF_X, ROOF_Y = N_("Arithmetic intensity (FLOP per byte read)"), N_("Attainable FLOP/s")
ROOF_LINE = N_("{device} roofline (BF16)")
ROOF_DECODE, ROOF_PREFILL = N_("decode, batch {n}"), N_("prefill, {n} tokens")


def _names(c, lang: str, tr) -> dict:
    return {k: names.name(k, c, lang, tr) for k in ("model", "device", "weights")}


def step_split(c, locale: str, tr) -> str:
    """One decode step split into weight reads, KV reads (and fixed state) and arithmetic, for growing batches."""
    ctx = c.ex.context
    steps = [(b, c.step(b, ctx)) for b in chart_batches(c)]
    tmax = max(max(s.memory_s, s.compute_s) for _, s in steps) * 1e3
    right = W - PAD_R - 40  # the legend's labels are long in some languages
    xs = Scale(0, tmax * 1.05, PAD_L + 30, right)
    row_h = (H - PAD_T - PAD_B) / len(steps)
    ticks = tick_number(locale)
    body = ['<g class="chart-axes">']
    for v in xs.ticks():
        x = xs(v)
        body.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
        body.append(text(x, H - PAD_B + 18, ticks(v)))
    x_label = tr(SPLIT_X)
    body.append(text((PAD_L + W - PAD_R) / 2, H - 12, x_label, cls="chart-title"))
    body.append("</g>")
    labels = [tr(SPLIT_BATCH).format(n=fmt.format_number(b, locale)) for b, _ in steps]
    for i, (b, s) in enumerate(steps):
        y = PAD_T + i * row_h + row_h * 0.15
        bh = min(row_h * 0.32, 28)   # two bars per batch; with few batches they would grow to fill the plot
        x0 = xs(0)
        xw, xk = xs(s.weights_s * 1e3), xs(s.memory_s * 1e3)
        body.append(text(x0 - 8, y + bh + 4, labels[i], "end"))
        body.append(f'<rect class="chart-bar s1" x="{x0:.1f}" y="{y:.1f}" width="{xw - x0:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s2" x="{xw:.1f}" y="{y:.1f}" width="{xk - xw:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s3" x="{x0:.1f}" y="{y + bh + 2:.1f}" width="{xs(s.compute_s * 1e3) - x0:.1f}" height="{bh:.1f}"/>')
    legend = [(i + 1, tr(label)) for i, label in enumerate(SPLIT_LEGEND)]
    for j, (cls, label) in enumerate(legend):
        ly = PAD_T + 10 + j * 20
        body.append(f'<rect class="chart-bar s{cls}" x="{right + 12}" y="{ly - 9}" width="12" height="12"/>')
        body.append(text(right + 30, ly + 1, label, "start"))
    # narrow: each batch's name above its two bars, the legend below
    nxs = Scale(0, tmax * 1.05, N_L, NW - N_R)
    row, bar = 52, 12
    top, bottom = 20, 20 + row * len(steps)
    narrow = narrow_axes(nxs, None, N_L, NW - N_R, top - 8, bottom, x_label, None, ticks, None, thin(nxs.ticks(4)))
    for i, (b, s) in enumerate(steps):
        y = top + i * row + 16
        narrow.append(text(N_L, y - 4, labels[i], "start"))
        x0, xw, xk = nxs(0), nxs(s.weights_s * 1e3), nxs(s.memory_s * 1e3)
        narrow.append(f'<rect class="chart-bar s1" x="{x0:.1f}" y="{y:.1f}" width="{xw - x0:.1f}" height="{bar}"/>')
        narrow.append(f'<rect class="chart-bar s2" x="{xw:.1f}" y="{y:.1f}" width="{xk - xw:.1f}" height="{bar}"/>')
        narrow.append(f'<rect class="chart-bar s3" x="{x0:.1f}" y="{y + bar + 2:.1f}" width="{nxs(s.compute_s * 1e3) - x0:.1f}" height="{bar}"/>')
    legend_y = below_axis(bottom, x_label)
    rows, rows_h = legend_rows([("bar", cls, label) for cls, label in legend], N_L, legend_y, NW - N_L - N_R)
    narrow += rows
    first, last = steps[0][1], steps[-1][1]
    q = lambda v, kind: fmt.format_quantity(v, kind, locale)  # noqa: E731
    desc = tr(SPLIT_DESC).format(
        devices=fmt.format_number(c.ex.devices, locale), device=names.name("device", c, locale, tr),
        context=fmt.format_quantity(ctx, "tokens", locale), b1=fmt.format_number(steps[0][0], locale),
        b2=fmt.format_number(steps[-1][0], locale), w1=q(first.weights_s, "seconds"), k1=q(first.kv_s + first.state_s, "seconds"),
        c1=q(first.compute_s, "seconds"), k2=q(last.kv_s + last.state_s, "seconds"), c2=q(last.compute_s, "seconds"))
    return frame("chart-step-split", tr(SPLIT_TITLE).format(**_names(c, locale, tr)), desc, body,
                 narrow=(narrow, NW, legend_y + rows_h))


def batching(c, locale: str, tr) -> str:
    """Per-request speed falls and aggregate throughput rises as the batch grows (powers of two, as far as they fit)."""
    ctx = c.ex.context
    batches = [b for b in (2 ** i for i in range(0, 8)) if c.fits(c.ex.devices, ctx, b)]
    steps = [(b, c.step(b, ctx)) for b in batches]
    per = [(b, s.tokens_per_s) for b, s in steps]
    agg = [(b, s.aggregate_tokens_per_s) for b, s in steps]
    lo = min(v for _, v in per) * 0.8
    hi = max(v for _, v in agg) * 1.25
    xs = Scale(1, max(batches[-1], 2), PAD_L, W - PAD_R, log=True)
    ys = Scale(10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi)), H - PAD_B, PAD_T, log=True)
    xs.ticks = lambda n=5: batches  # powers of two read better than decades here
    ticks = tick_number(locale)
    x_label, y_label = tr(BATCH_X), tr(BATCH_Y)
    body = axes(xs, ys, x_label, y_label, ticks, ticks)
    body += line(xs, ys, per, 1, tr(PER_REQUEST))
    body += line(xs, ys, agg, 2, tr(ALL_REQUESTS))
    legend = [("line", 1, tr(PER_REQUEST)), ("line", 2, tr(ALL_REQUESTS))]
    top, bottom, legend_y, height = narrow_plot(legend, x_label)
    nxs = Scale(1, max(batches[-1], 2), N_L + 4, NW - N_R, log=True)
    nys = Scale(ys.lo, ys.hi, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, ticks, ticks,
                         sorted(set(batches[::2] + [batches[-1]])))
    narrow += [path(nxs, nys, per, 1), path(nxs, nys, agg, 2)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    q = lambda v: fmt.format_quantity(v, "tok_per_s", locale)  # noqa: E731
    desc = tr(BATCH_DESC).format(b1=fmt.format_number(batches[0], locale), b2=fmt.format_number(batches[-1], locale),
                                 p1=q(per[0][1]), p2=q(per[-1][1]), a1=q(agg[-1][1]), a2=q(agg[0][1]))
    return frame("chart-batching", tr(BATCH_TITLE), desc, body, narrow=(narrow, NW, height))


def roofline(c, locale: str, tr) -> str:
    """Attainable FLOP/s against arithmetic intensity on one device, with decode (batch 1, the example's batch) and prefill."""
    m, d = c.m, c.d
    peak, bw = c.peak(), d.serving.bytes_per_s
    ridge = peak / bw
    weights_flops = 2.0 * m.active_params

    def point(tokens):
        intensity = tokens * weights_flops / c.weights_read(tokens)
        return intensity, min(peak, intensity * bw)

    lo_x = 10 ** math.floor(math.log10(min(0.1, point(1)[0] / 2)))
    hi_x = 10 ** math.ceil(math.log10(max(10_000, ridge * 10)))
    lo_y = 10 ** math.floor(math.log10(lo_x * bw))
    hi_y = 10 ** math.ceil(math.log10(peak * 1.5))
    xs = Scale(lo_x, hi_x, PAD_L, W - PAD_R, log=True)
    ys = Scale(lo_y, hi_y, H - PAD_B, PAD_T, log=True)
    roof = [(lo_x, lo_x * bw), (ridge, peak), (hi_x, peak)]
    prompt = c.ex.context
    marks = [(point(1), tr(ROOF_DECODE).format(n=fmt.format_number(1, locale))),
             (point(c.ex.batch), tr(ROOF_DECODE).format(n=fmt.format_number(c.ex.batch, locale))),
             (point(prompt), tr(ROOF_PREFILL).format(n=fmt.format_number(prompt, locale)))]
    exp_label = lambda v: fmt.format_number(v, locale, decimals=1 if v < 1 else 0)  # noqa: E731
    flops_label = lambda v: fmt.format_quantity(v, "flop_per_s", locale, sig=1)  # noqa: E731
    device = names.name("device", c, locale, tr)
    x_label, y_label, roof_label = tr(ROOF_X), tr(ROOF_Y), tr(ROOF_LINE).format(device=device)
    body = axes(xs, ys, x_label, y_label, exp_label, flops_label)
    body += line(xs, ys, roof, 1, roof_label, label_at=1, above=True)
    for i, ((x, y), label) in enumerate(marks):
        body.append(f'<circle class="chart-point s{i + 2}" cx="{xs(x):.1f}" cy="{ys(y):.1f}" r="5"/>')
        # right of its point, or left of it where the label would run out of the drawing (prefill, in German)
        lx = xs(x) + 8
        anchor = "start" if lx + text_width(label) <= W - 4 else "end"
        body.append(text(lx if anchor == "start" else xs(x) - 8, ys(y) + 16 + 14 * (i % 2), label, anchor, f"chart-label s{i + 2}"))
    # narrow: the roof and the three points, named in the legend below
    legend = [("line", 1, roof_label)] + [("point", i + 2, label) for i, (_, label) in enumerate(marks)]
    top, bottom, legend_y, height = narrow_plot(legend, x_label)
    nxs, nys = Scale(lo_x, hi_x, N_L, NW - N_R, log=True), Scale(lo_y, hi_y, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, exp_label, flops_label,
                         nxs.ticks()[::2] + [hi_x], nys.ticks()[1:])
    narrow.append(path(nxs, nys, roof, 1))
    narrow += [f'<circle class="chart-point s{i + 2}" cx="{nxs(x):.1f}" cy="{nys(y):.1f}" r="5"/>' for i, ((x, y), _) in enumerate(marks)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    (i1, p1), (_, _), (_, pn) = (m_[0] for m_ in marks)
    values = dict(ridge=fmt.format_number(ridge, locale, decimals=0), b=fmt.format_number(1, locale),
                  i1=fmt.format_number(i1, locale, decimals=1), p1=fmt.format_quantity(p1, "flop_per_s", locale),
                  n=fmt.format_number(prompt, locale), peak=fmt.format_quantity(peak, "flop_per_s", locale),
                  pn=fmt.format_quantity(pn, "flop_per_s", locale))
    desc = (tr(ROOF_DESC) if pn >= peak else tr(ROOF_DESC_SLOPE)).format(**values)
    return frame("chart-roofline", tr(ROOF_TITLE).format(device=device), desc, body, narrow=(narrow, NW, height))


CHARTS = {"step_split": step_split, "batching": batching, "roofline": roofline}
