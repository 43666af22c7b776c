"""Print the deployment tables of issue 9 (phase 1) as Markdown.

1. Every measurement: deployment (assumed or published), ceiling, stated
   ceiling, expected, measured / ceiling, explanation where it exceeds 1.
2. Fit answers for every catalog model on every device at 8K context, batch 1:
   before (model.min_devices, TP only) and after (each scheme, the best, the
   deployable count at the engine reserve in whole nodes).

Usage: .venv/bin/python tools/deploy_tables.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calculators.data import catalog
from calculators.data import serving  # noqa: E402
from calculators.perf import deployment as D  # noqa: E402
from calculators.perf import fit as F  # noqa: E402
from calculators.perf import measured as X  # noqa: E402
from calculators.perf import roofline as M  # noqa: E402


def measurements(cat, sv) -> list[str]:
    out = ["| measurement | device | deployment | measured tok/s | ceiling | stated ceiling | expected | measured/ceiling | explanation |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in X.rows(cat, sv):
        dep = r.deployment.label() + (" (assumed)" if r.deployment_assumed else " (published)")
        meas = f"{r.low:.0f}" if r.low == r.high else f"{r.low:.0f}–{r.high:.0f}"
        e = r.explanation
        why = ""
        if e:
            why = e.mechanism + (f" {e.precision.upper()}" if e.precision else "")
            if e.k:
                why += f", k={e.k}, a={e.acceptance:.2f} ({e.acceptance_basis})"
            why += f" → {e.ceiling_tokens_per_s:.0f}"
        unk = f" [not counted: {', '.join(r.unknown_links)}]" if r.unknown_links else ""
        out.append(f"| {r.key} | {r.device} | {dep} | {meas} | {r.ceiling:.0f} | {r.ceiling_stated:.0f} | "
                   f"{r.expected:.0f}{unk} | {r.ratio:.2f} | {why} |")
    return out


def fits(cat, sv, context=8192, batch=1) -> list[str]:
    out = ["| model | device | before | TP | PP | TP×PP | DP-attn | best | lower bound | deployable (reserve, nodes) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for m in cat.models.values():
        if m.arch is None:   # no config.json: its layers are unknown, so no layout can be computed
            out.append(f"| {m.key} (no config.json) | – | – | – | – | – | – | – | – | – |")
            continue
        shape = D.shape_from_catalog(m)
        for dev in cat.devices.values():
            try:
                before = str(M.min_devices(m, dev, context, batch))
            except M.ModelError:
                before = "never"
            f = F.fit_device(shape, dev, sv, context, batch)
            cells = [str(s.devices) if s.devices else "–" for s in f.schemes]
            best = f"{f.best.devices} ({f.best.deployment.label()})" if f.best else f"never: {f.reason}"
            dep = str(f.deployable_devices) if f.deployable_devices else "–"
            note = "" if shape.kv_known else " (KV not modelled)"
            out.append(f"| {m.key}{note} | {dev.key} | {before} | " + " | ".join(cells) +
                       f" | {best} | {f.lower_bound} | {dep} |")
    return out


if __name__ == "__main__":
    cat, sv = catalog.load(), serving.load()
    print("\n".join(measurements(cat, sv)))
    print()
    print("\n".join(fits(cat, sv)))
