"""Every published measurement of calculators/article/measurements.toml beside the expected value.

For each row: the set-up it describes (checkpoint, device, layout, engine, graphs), the workload
(batch, input and output lengths, and how its time per token is counted: calculators/perf/step_time.py),
the expected time per token and the signed error, expected ÷ measured − 1 (negative: the model
expects a faster step than was measured). Rows the model cannot compare are set apart with a reason:
the dataset's own (`exclude`), or "preemption" where the KV cache the run needed exceeds what the
engine can hold beside the weights, so that the scheduler must evict and recompute requests (a cost no
step model describes).

The fit tool (tools/fit_step_time.py) and the accuracy page read the same comparisons; the summary
statistics (median and largest absolute error, the worst rows) are computed here, at build time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..data import catalog as C
from ..data import serving as SV
from ..perf import comm
from ..perf import step_time as T
from ..perf.deployment import Deployment
from . import measurements as D

PREEMPTION = "preemption"


def workload_of(r: D.Measurement) -> T.Workload:
    """How a row's time per token is counted (step_time.Workload kinds)."""
    if r.measured == "e2e_latency_s":
        kind = "offline"
    elif r.arrivals == "none" or (r.measured == "itl_ms" and r.statistic.startswith("median")):
        kind = "step"
    elif r.measured == "tok_s_per_user":
        kind = "online-own"
    else:
        kind = "online"
    return T.Workload(r.concurrency, r.input_tokens, r.output_tokens, kind)


def setup_of(r: D.Measurement, cat=None, ds=None) -> T.Setup:
    cat = cat or C.load()
    ds = ds or D.load()
    ck = ds.checkpoints[r.model]
    model = T.model_with(cat.models[ck.arch], ck.groups)
    dp = r.dp_attention
    dep = Deployment(tp=r.tp // dp, pp=r.pp, dp=dp, ep=r.ep > 1)
    return T.setup(model, cat.devices[r.device], dep, r.engine, r.kv, None, r.ep if r.ep > 1 else 0, r.graphs)


def preempts(s: T.Setup, w: T.Workload, cat=None) -> bool:
    """The KV cache the run holds at once (offline: every request at its last token; online: the mean over
    a generation) does not fit beside the weights in the engine's share of the devices' memory."""
    cat = cat or C.load()
    context = w.input_tokens + (w.output_tokens if w.kind == "offline" else w.output_tokens // 2)
    held = s.deployment.held_per_device(s.shape, context, w.batch)
    return held > s.device.serving.bytes * cat.engines["vllm"].usable_fraction


@dataclass(frozen=True)
class Comparison:
    key: str
    row: D.Measurement
    workload: T.Workload
    terms: T.Terms
    measured_s: float
    expected_s: float
    split: str                 # "fit", "held-out" or "excluded"
    reason: str = ""           # exclusion: the dataset's reason key or "preemption"
    ceiling_s: float = 0.0     # physics: the step's bytes ÷ peak bandwidth (no overhead, no prefill)
    previous_s: float = 0.0    # the expected value before calibration: bytes ÷ (published kernel share × bandwidth)
                               # + per message the link's published latency (comm.decode_step)

    @property
    def error(self) -> float:
        """Signed: expected ÷ measured − 1 (time per token)."""
        return self.expected_s / self.measured_s - 1.0

    @property
    def ratio(self) -> float:
        """measured ÷ expected (the band is a spread of this)."""
        return self.measured_s / self.expected_s


def compare_row(r: D.Measurement, consts=None, cat=None, ds=None, serving=None) -> Comparison:
    cat, ds, serving = cat or C.load(), ds or D.load(), serving or SV.load()
    s, w = setup_of(r, cat, ds), workload_of(r)
    t = T.terms(s, w, consts, serving, cat)
    reason = r.exclude or (PREEMPTION if preempts(s, w, cat) else "")
    split = "excluded" if reason else r.split
    ceiling = s.deployment.streamed_serial(s.shape, w.context, w.batch, w.batch * w.tokens) / s.device.serving.bytes_per_s
    previous = comm.decode_step(s.shape, s.deployment, s.device.serving.bytes_per_s, w.context, w.batch,
                                efficiency=serving.efficiency["flashmla-h800"].fraction, link=s.device.link).expected_s
    return Comparison(r.key, r, w, t, r.tpot_s, t.per_token_s, split, reason, ceiling, previous)


def compare(consts=None, cat=None, ds=None, serving=None) -> tuple[Comparison, ...]:
    """Every row of the dataset beside the model (with the packaged constants unless given)."""
    ds = ds or D.load()
    return tuple(compare_row(r, consts, cat, ds, serving) for r in ds.rows.values())


@lru_cache(maxsize=1)
def comparisons() -> tuple[Comparison, ...]:
    """The packaged dataset beside the packaged constants, once per process (the build asks in every language)."""
    return compare()


def median(values) -> float:
    v = sorted(values)
    n = len(v)
    if not n:
        raise ValueError("median of nothing")
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def quantile(values, q: float) -> float:
    """Linear interpolation between order statistics (numpy's default), q in [0, 1]."""
    v = sorted(values)
    pos = q * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


@dataclass(frozen=True)
class Summary:
    split: str
    count: int
    median_abs: float
    max_abs: float
    worst: tuple               # Comparisons, largest absolute error first
    under: int                 # rows whose expected time is shorter than measured

    @property
    def sources(self) -> int:
        return len({c.row.source_id for c in self.worst})


def summary(comps, split: str, worst: int = 3) -> Summary:
    rows = [c for c in comps if c.split == split]
    errs = [abs(c.error) for c in rows]
    ranked = tuple(sorted(rows, key=lambda c: -abs(c.error)))
    return Summary(split, len(rows), median(errs), max(errs), ranked[:worst], sum(1 for c in rows if c.error < 0))


def band(comps, q_low: float, q_high: float) -> tuple[float, float]:
    """The held-out spread of measured ÷ expected time between two quantiles: the band beside every expected value."""
    ratios = [c.ratio for c in comps if c.split == "held-out"]
    return quantile(ratios, q_low), quantile(ratios, q_high)
