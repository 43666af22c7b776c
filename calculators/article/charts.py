"""The article's inline SVG charts, drawn from the model with localized labels and numbers.

Each chart function takes the page's locale and `tr`, a function from an
English msgid to the translated string (the build passes the .po lookup, the
browser a dict's lookup). Colours come from CSS classes (docs/assets/site.css)
so the charts follow the light and dark palettes; text uses currentColor.
"""

from __future__ import annotations

from ..data import catalog
from . import accuracy
from ..text import fmt
from ..perf import roofline as M
from ..data import scenarios as S
from ..example.declare import default_case
from ..ui import example_charts
from ..ui.svg import (H, N_L, N_R, NW, PAD_B, PAD_L, PAD_R, PAD_T, W, Scale, axes, frame, legend_rows, line, narrow_axes,
                      narrow_plot, path, thin, tick_number)

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


def _example(draw):
    """A chart of the running example, drawn for the main article's default example (the browser redraws it for the
    reader's: calculators/ui/example_charts.py)."""
    def chart(locale: str, tr, cat: catalog.Catalog | None = None) -> str:
        return draw(default_case(cat or catalog.load(), "decode"), locale, tr)
    chart.__name__ = draw.__name__
    return chart


EXAMPLE_CHARTS = ("step_split", "batching", "roofline")


CHARTS = {"kv_vs_context": kv_vs_context, **{name: _example(example_charts.CHARTS[name]) for name in EXAMPLE_CHARTS},
          # the accuracy page (calculators/article/accuracy.py); its tables are sitebuild/accuracy_tables.py's
          "accuracy": accuracy.chart}
