"""The accuracy page's chart and tables: every published measurement beside the expected value.

Computed at build time from calculators/article/measurements.toml and the packaged constants
(calculators/article/calibration.py): the summary per set (fitting, held-out) with the median and the
largest absolute error and the worst rows, every row with its measured and expected time per output
token and the signed error, and a log-log chart of expected against measured. Numbers are formatted
for the page's language; labels are UI strings (locales/<lang>.po). The page draws the chart with
{{ chart("accuracy") }}; the tables are sitebuild/accuracy_tables.py's ({{ accuracy_summary() }},
{{ accuracy_rows() }}), which name each source with its publisher and date in the page's language.
"""

from __future__ import annotations

import math

from ..data import catalog
from . import measurements as D
from . import calibration as K
from ..text import fmt
from ..text.markup import escape
from ..ui.messages import N_
from ..ui.svg import H, PAD_B, PAD_L, PAD_R, PAD_T, W, Scale, axes, frame, text


SPLITS = {"fit": N_("fitting set"), "held-out": N_("held-out set"), "excluded": N_("not compared")}
REASONS = {"queueing": N_("requests queue: the decode batch is unknown"),
           "speculative-unpublished": N_("speculative decoding with an unpublished acceptance"),
           "long-context-path": N_("long-prompt path far below the hardware (see the row's note)"),
           K.PREEMPTION: N_("the KV cache exceeds the memory: the engine must evict and recompute requests")}
MEASURED = {"tpot_ms": N_("time per output token"), "itl_ms": N_("inter-token latency"),
            "tok_s_per_user": N_("tokens per second per user"), "e2e_latency_s": N_("wall time of an offline batch")}
ENGINES = {"vllm": "vLLM", "sglang": "SGLang", "trtllm": "TensorRT-LLM"}
def signed_percent(x: float, locale: str) -> str:
    """+12 % / −12 % in the page's format."""
    sign = "+" if x > 0 else fmt.MINUS if x < 0 else ""
    return sign + fmt.format_percent(abs(x), locale, decimals=0)


def _ms(s: float, locale: str) -> str:
    return fmt.format_quantity(s, "seconds", locale, sig=3)


def sources(comps) -> dict:
    """source_id -> (number, first row of that source), numbered in table order."""
    out: dict = {}
    for c in comps:
        out.setdefault(c.row.source_id, (len(out) + 1, c.row))
    return out


def ordered(comps):
    order = {"held-out": 0, "fit": 1, "excluded": 2}
    return sorted(comps, key=lambda c: (order[c.split], c.row.source_id, c.row.device, c.row.engine, c.row.concurrency, c.key))


def describe(c, tr, locale: str) -> str:
    cat, ds = catalog.load(), D.load()
    r = c.row
    model = cat.models[ds.checkpoints[r.model].arch].name
    layout = f"TP{r.tp}" + (f" EP{r.ep}" if r.ep > 1 else "") + (f" DP{r.dp_attention}" if r.dp_attention > 1 else "")
    what = escape(tr("{model} on {gpus} × {device}, {engine}, {layout}")).format(
        model=escape(model), gpus=fmt.format_number(r.gpus, locale), device=escape(cat.devices[r.device].name),
        engine=escape(ENGINES[r.engine]), layout=layout)
    load = escape(tr("{input} in, {output} out, {concurrency} at once; {measured}")).format(
        input=fmt.format_number(r.input_tokens, locale), output=fmt.format_number(r.output_tokens, locale),
        concurrency=fmt.format_number(r.concurrency, locale), measured=escape(tr(MEASURED[r.measured])))
    return f"{what}<br><small>{load}</small>"


def chart(locale: str, tr, comps=None) -> str:
    """Expected against measured time per output token, both axes logarithmic; fitting and held-out rows
    marked differently, rows not compared hollow; the diagonal is a perfect prediction."""
    comps = comps or K.comparisons()
    values = [v for c in comps for v in (c.measured_s * 1e3, c.expected_s * 1e3)]
    lo, hi = 10 ** math.floor(math.log10(min(values))), 10 ** math.ceil(math.log10(max(values)))
    xs = Scale(lo, hi, PAD_L, W - PAD_R, log=True)
    ys = Scale(lo, hi, H - PAD_B, PAD_T, log=True)
    ticks = lambda v: fmt.format_number(v, locale, decimals=0 if v >= 1 else 1)  # noqa: E731
    body = axes(xs, ys, tr("Measured time per output token (ms)"), tr("Expected time per output token (ms)"), ticks, ticks)
    body.append(f'<path class="chart-line s4" d="M{xs(lo):.1f},{ys(lo):.1f} L{xs(hi):.1f},{ys(hi):.1f}"/>')
    marks = {"fit": 1, "held-out": 2, "excluded": 3}
    for c in comps:
        x, y = xs(c.measured_s * 1e3), ys(c.expected_s * 1e3)
        cls = marks[c.split]
        if c.split == "held-out":
            body.append(f'<rect class="chart-point s{cls}" x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8"><title>{escape(c.key)}</title></rect>')
        else:
            fill = ' fill-opacity="0.15"' if c.split == "excluded" else ""
            body.append(f'<circle class="chart-point s{cls}" cx="{x:.1f}" cy="{y:.1f}" r="4"{fill}><title>{escape(c.key)}</title></circle>')
    for j, split in enumerate(("fit", "held-out", "excluded")):
        ly = PAD_T + 10 + j * 20
        body.append(f'<circle class="chart-point s{marks[split]}" cx="{W - PAD_R + 18}" cy="{ly - 3}" r="5"/>')
        body.append(text(W - PAD_R + 30, ly + 1, tr(SPLITS[split]), "start"))
    body.append(text(W - PAD_R + 30, PAD_T + 10 + 3 * 20 + 1, tr("expected = measured"), "start", "chart-label s4"))
    fit, held = K.summary(comps, "fit"), K.summary(comps, "held-out")
    desc = tr("{n} measurements from {sources} sources. Median absolute error: {fit} on the {fit_rows} rows the constants "
              "were fitted to, {held} on the {held_rows} held-out rows.").format(
        n=fmt.format_number(len(comps), locale), sources=fmt.format_number(len({c.row.source_id for c in comps}), locale),
        fit=fmt.format_percent(fit.median_abs, locale, decimals=0), fit_rows=fmt.format_number(fit.count, locale),
        held=fmt.format_percent(held.median_abs, locale, decimals=0), held_rows=fmt.format_number(held.count, locale))
    return frame("chart-accuracy", tr("Expected against measured time per output token"), desc, body)
