"""The article's inline SVG charts, drawn from the model with localized labels and numbers.

Each chart function takes the page's locale and `tr`, a function from an
English msgid to the translated string (the build passes the .po lookup, the
browser a dict's lookup). Colours come from CSS classes (docs/assets/site.css)
so the charts follow the light and dark palettes; text uses currentColor.
"""

from __future__ import annotations

import math

from ..data import catalog
from . import accuracy
from ..text import fmt
from ..perf import roofline as M
from ..data import scenarios as S
from ..ui.svg import (H, N_L, N_R, NW, PAD_B, PAD_L, PAD_R, PAD_T, W, Scale, axes, below_axis, frame, legend_rows, line,
                      narrow_axes, narrow_plot, path, text, text_width, thin, tick_number)

# ----------------------------------------------------------------- charts

KV_MODELS = ("llama-3.1-70b", "deepseek-v3", "gpt-oss-120b")


def kv_vs_context(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
    """KV cache of one sequence against context length: GQA vs MLA vs sliding window."""
    cat = cat or catalog.load()
    top = S.CONTEXTS[-1]
    xs_data = [i * top // 32 for i in range(33)]
    series = [(cat.models[k], [(x, M.kv_bytes(cat.models[k], x) / 1e9) for x in xs_data]) for k in KV_MODELS]
    ymax = max(p[1] for _, pts in series for p in pts)
    xs = Scale(0, top, PAD_L, W - PAD_R)
    ys = Scale(0, ymax * 1.05, H - PAD_B, PAD_T)
    ticks = tick_number(locale)
    x_label, y_label = tr("Context length (tokens)"), tr("KV cache per sequence (GB)")
    body = axes(xs, ys, x_label, y_label, ticks, ticks)
    for i, (m, pts) in enumerate(series, start=1):
        body += line(xs, ys, pts, i, m.name)
    # narrow: the same lines, their names in a legend below
    legend = [("line", i, m.name) for i, (m, _) in enumerate(series, start=1)]
    plot_top, bottom, legend_y, height = narrow_plot(legend, x_label)    # pixels, not tokens
    nxs, nys = Scale(0, top, N_L, NW - N_R), Scale(0, ymax * 1.05, bottom, plot_top)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, plot_top, bottom, x_label, y_label, ticks, ticks, thin(nxs.ticks(4)))
    narrow += [path(nxs, nys, pts, i) for i, (_, pts) in enumerate(series, start=1)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    values = {f"m{i}": fmt.format_quantity(pts[-1][1] * 1e9, "bytes", locale) for i, (_, pts) in enumerate(series, 1)}
    desc = tr("At {context} tokens the cache holds {m1} for Llama 3.1 70B (grouped-query attention), "
              "{m2} for DeepSeek V3 (multi-head latent attention) and {m3} for gpt-oss-120b (its sliding-window layers stop growing).").format(
        context=fmt.format_quantity(top, "tokens", locale), **values)
    return frame("chart-kv-context", tr("KV cache grows with context, at a slope set by the attention design"), desc, body,
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
    ticks = tick_number(locale)
    body = ['<g class="chart-axes">']
    for v in xs.ticks():
        x = xs(v)
        body.append(f'<line class="chart-grid" x1="{x:.1f}" x2="{x:.1f}" y1="{PAD_T}" y2="{H - PAD_B}"/>')
        body.append(text(x, H - PAD_B + 18, ticks(v)))
    x_label = tr("Time per decode step (ms)")
    body.append(text((PAD_L + W - PAD_R) / 2, H - 12, x_label, cls="chart-title"))
    body.append("</g>")
    names = [tr("batch {n}").format(n=fmt.format_number(b, locale)) for b, _ in steps]
    for i, (b, s) in enumerate(steps):
        y = PAD_T + i * row_h + row_h * 0.15
        bh = row_h * 0.32
        x0 = xs(0)
        xw, xk = xs(s.weights_s * 1e3), xs(s.memory_s * 1e3)
        body.append(text(x0 - 8, y + bh + 4, names[i], "end"))
        body.append(f'<rect class="chart-bar s1" x="{x0:.1f}" y="{y:.1f}" width="{xw - x0:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s2" x="{xw:.1f}" y="{y:.1f}" width="{xk - xw:.1f}" height="{bh:.1f}"/>')
        body.append(f'<rect class="chart-bar s3" x="{x0:.1f}" y="{y + bh + 2:.1f}" width="{xs(s.compute_s * 1e3) - x0:.1f}" height="{bh:.1f}"/>')
    legend = [(1, tr("reading weights")), (2, tr("reading KV cache")), (3, tr("arithmetic at peak"))]
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
        narrow.append(text(N_L, y - 4, names[i], "start"))
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
    return frame("chart-step-split", tr("Where the time of one decode step goes (Llama 3.1 70B, BF16, H100)"), desc, body,
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
    ticks = tick_number(locale)
    x_label, y_label = tr("Batch size (requests decoded together)"), tr("Tokens per second")
    body = axes(xs, ys, x_label, y_label, ticks, ticks)
    body += line(xs, ys, per, 1, tr("per request"))
    body += line(xs, ys, agg, 2, tr("all requests"))
    legend = [("line", 1, tr("per request")), ("line", 2, tr("all requests"))]
    top, bottom, legend_y, height = narrow_plot(legend, x_label)
    nxs = Scale(1, batches[-1], N_L + 4, NW - N_R, log=True)
    nys = Scale(ys.lo, ys.hi, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, ticks, ticks, batches[::2] + [batches[-1]])
    narrow += [path(nxs, nys, per, 1), path(nxs, nys, agg, 2)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    desc = tr("From batch {b1} to batch {b2}, each request slows from {p1} to {p2}, while the GPUs together "
              "produce {a1} instead of {a2}.").format(
        b1=fmt.format_number(batches[0], locale), b2=fmt.format_number(batches[-1], locale),
        p1=fmt.format_quantity(per[0][1], "tok_per_s", locale), p2=fmt.format_quantity(per[-1][1], "tok_per_s", locale),
        a1=fmt.format_quantity(agg[-1][1], "tok_per_s", locale), a2=fmt.format_quantity(agg[0][1], "tok_per_s", locale))
    return frame("chart-batching", tr("Batching: slower for each request, more tokens in total"), desc, body,
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
    nxs, nys = Scale(0.1, 10_000, N_L, NW - N_R, log=True), Scale(1e11, 1e16, bottom, top, log=True)
    narrow = narrow_axes(nxs, nys, N_L, NW - N_R, top, bottom, x_label, y_label, exp_label, flops_label, nxs.ticks()[::2] + [10_000],
                         nys.ticks()[1:])
    narrow.append(path(nxs, nys, roof, 1))
    narrow += [f'<circle class="chart-point s{i + 2}" cx="{nxs(x):.1f}" cy="{nys(y):.1f}" r="5"/>' for i, ((x, y), _) in enumerate(marks)]
    narrow += legend_rows(legend, N_L, legend_y, NW - N_L - N_R)[0]
    desc = tr("The ridge sits at {ridge} FLOP per byte. Decode at batch {b} does about {i1} FLOP per byte "
              "and reaches {p1}; prefill of {n} tokens reaches the peak of {peak}.").format(
        ridge=fmt.format_number(ridge, locale, decimals=0), b=fmt.format_number(1, locale), i1=fmt.format_number(marks[0][0][0], locale, decimals=1),
        p1=fmt.format_quantity(marks[0][0][1], "flop_per_s", locale), n=fmt.format_number(S.SPEED_PROMPT, locale),
        peak=fmt.format_quantity(peak, "flop_per_s", locale))
    return frame("chart-roofline", tr("Roofline of one H100: decode sits on the memory slope"), desc, body,
                  narrow=(narrow, NW, height))


CHARTS = {"kv_vs_context": kv_vs_context, "step_split": step_split, "batching": batching, "roofline": roofline,
          # the accuracy page (calculators/article/accuracy.py); its tables are sitebuild/accuracy_tables.py's
          "accuracy": accuracy.chart}
