"""Every published measurement beside the model: deployment, ceiling, expected, ratio.

For each measurement (catalog.toml's, whose hardware is mostly assumed, and
serving.toml's, whose publisher states it) this computes the deployment the
model assumes (flagged where it is an assumption), the ceiling (catalog
precision, 100 % bandwidth, no communication, no speculation), the expected
speed under the stated configuration (precision, speculation, and the
calibrated step time of calculators/perf/step_time.py with its held-out band;
none on devices no published measurement calibrates), and measured / ceiling. Where the ratio
exceeds 1, `explain` searches for a mechanism that lifts the ceiling above the
measurement: a lower precision, speculative decoding with a published or a
required acceptance (no higher than the highest published one), or both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import speculative as S
from .deployment import Deployment, shape_from_catalog
from .fit import fit as fit_search

# Catalog measurements do not state a context; the ceiling barely moves with it at batch 1.
ASSUMED_CONTEXT = 1000
MAX_K = 8
PRECISION_LADDER = ("fp8", "fp4")   # lower precisions a provider may serve instead of the release
# The least acceptance that reaches a measurement gives a ceiling equal to it up to rounding in the last
# bits; compared exactly, the search skipped every k whose ceiling came out 1 ulp short (k = 6 instead of 2).
REACH_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Explanation:
    """What lifts the ceiling above the measurement, with the numbers that do it."""

    precision: str | None
    k: int | None
    acceptance: float | None
    acceptance_basis: str          # "published", "sourced range", "required" or ""
    ceiling_tokens_per_s: float

    @property
    def mechanism(self) -> str:
        parts = (["precision"] if self.precision else []) + (["speculative"] if self.k else [])
        return "+".join(parts)


@dataclass(frozen=True)
class Row:
    key: str
    model: str
    device: str
    who: str
    deployment: Deployment
    deployment_assumed: bool
    context: int
    context_assumed: bool
    low: float
    high: float
    ceiling: float                 # tokens/s, plain: catalog precision, no speculation, 100 %, no communication
    ceiling_stated: float          # tokens/s, stated precision and speculation, 100 %, no communication
    expected: float | None         # tokens/s, stated configuration, calibrated step time; None: uncalibrated device
    unknown_links: tuple[str, ...]
    explanation: Explanation | None
    expected_range: tuple | None = None   # (slowest, fastest) tokens/s of the held-out band
    terms: object = None           # step_time.Terms of the plain step (stated precision)
    verify_terms: object = None    # step_time.Terms of the verify step, with published speculation
    engine: str = "generic"

    @property
    def ratio(self) -> float:
        return self.high / self.ceiling

    @property
    def ratio_low(self) -> float:
        return self.low / self.ceiling


def _ceiling_with(shape, dep, bw, context, spec=None) -> float:
    """Tokens/s at 100 % bandwidth without communication, optionally with speculation."""
    plain_s = dep.streamed_serial(shape, context, 1) / bw
    if spec is None:
        return 1.0 / plain_s
    verify_s = dep.streamed_serial(shape, context, 1, tokens=spec.k + 1) / bw
    return spec.tokens_per_s(plain_s, verify_s)


def _draft(kind: str, layers: int):
    """The draft class for a published kind; heads cost nothing extra (an optimistic bound)."""
    return {"mtp": S.MTPModules(1, layers), "heads": S.ParallelHeads(0.0)}.get(kind, S.ParallelHeads(0.0))


def _family_acceptance(serving, model_key: str) -> float | None:
    highs = [a.high for a in serving.acceptance.values() if a.family == model_key]
    return max(highs) if highs else None


def published_spec(pm, layers, serving, model_key):
    """The Speculative object a publisher's statement supports, and on what basis; None if unknown."""
    s = getattr(pm, "speculation", None)
    if s is None:
        return None, ""
    if s.k and s.mean_accepted:
        return S.Speculative(_draft(s.kind, layers), s.k, S.acceptance_for(s.mean_accepted, s.k)), "published"
    a = _family_acceptance(serving, model_key)
    if s.k and a is not None:
        return S.Speculative(_draft(s.kind, layers), s.k, a), "sourced range"
    return None, ""


def explain(model, dep, bw, context, measured, serving, stated_precision=None, pm=None) -> Explanation | None:
    """The simplest mechanism that lifts the ceiling to `measured`, or None if none does.

    Precisions tried: the stated one (or the catalog's), then, unless the
    publisher states the precision, the lower ones of PRECISION_LADDER. For
    each, first the precision alone, then with speculation: as published, else
    with the model family's published acceptance, else with the least
    acceptance that reaches the measurement, accepted only up to the highest
    acceptance published for any method.
    """
    layers = model.layers
    precisions = [stated_precision]
    if pm is None or not pm.precision_published:
        precisions += [p for p in PRECISION_LADDER if p != stated_precision]
    kind = pm.speculation.kind if pm is not None and pm.speculation else "heads"
    highest = max(a.high for a in serving.acceptance.values())
    pub_spec, basis = published_spec(pm, layers, serving, model.key) if pm is not None else (None, "")
    family = _family_acceptance(serving, model.key)
    draft = _draft(kind, layers)

    def spec_options(plain):
        if pub_spec is not None:
            yield pub_spec, basis
            return
        for k in range(1, MAX_K + 1):
            if family is not None:
                yield S.Speculative(draft, k, family), "sourced range"
                continue
            a = S.required_acceptance(measured / plain, k, draft)
            if a is not None and a <= highest:
                yield S.Speculative(draft, k, a), "required"

    reaches = lambda ceiling: ceiling >= measured * (1 - REACH_TOLERANCE)  # noqa: E731
    for p in precisions:
        shape = shape_from_catalog(model, weight_precision=p)
        plain = _ceiling_with(shape, dep, bw, context)
        if reaches(plain):
            return Explanation(p, None, None, "", plain)
        for spec, why in spec_options(plain):
            c = _ceiling_with(shape, dep, bw, context, spec)
            if reaches(c):
                return Explanation(p, spec.k, spec.acceptance, why, c)
    return None


def step_setup(model, device, dep, weight_precision=None, pm=None):
    """The step-time set-up of a measurement: the engine and expert-parallel groups its publisher names."""
    from . import step_time as T   # here, not at the top: the calculators' start-up snapshot imports this module
    return T.setup(model, device, dep, getattr(pm, "engine", "generic"), "bf16", weight_precision,
                   getattr(pm, "ep_groups", 0))


def _row(key, model, device, who, dep, assumed, context, ctx_assumed, low, high, cat, serving, pm=None):
    bw = device.serving.bytes_per_s
    plain = shape_from_catalog(model)
    ceiling = _ceiling_with(plain, dep, bw, context)
    stated_p = getattr(pm, "weight_precision", None)
    shape = shape_from_catalog(model, weight_precision=stated_p) if stated_p else plain
    spec, _ = published_spec(pm, model.layers, serving, model.key) if pm is not None else (None, "")
    stated = _ceiling_with(shape, dep, bw, context, spec) if spec is not None else _ceiling_with(shape, dep, bw, context)
    expected = span = terms = verify = None
    from . import step_time as T   # (see step_setup)
    if T.calibrated(device.key, serving):
        s = step_setup(model, device, dep, stated_p, pm)
        consts = T.constants()
        terms = T.terms(s, T.Workload(1, context), consts, serving, cat)
        lo, hi = consts.band
        if spec is None:
            step = terms.step_s
            expected = 1.0 / step
        else:
            verify = T.terms(s, T.Workload(1, context, tokens=spec.k + 1), consts, serving, cat)
            expected = spec.tokens_per_s(terms.step_s, verify.step_s)
        span = (expected / hi, expected / lo)
    explanation = None
    if high > ceiling:
        explanation = explain(model, dep, bw, context, high, serving, stated_p, pm)
    unknown = tuple(m for m in ("tp-allreduce",) if dep.stage_devices > 1 and device.link.bytes_per_s is None)
    return Row(key, model.key, device.key, who, dep, assumed, context, ctx_assumed, low, high,
               ceiling, stated, expected, unknown, explanation, span, terms, verify, getattr(pm, "engine", "generic"))


def states_configuration(m) -> bool:
    """A measurement whose publisher names the precision or the speculative decoding it served with:
    that configuration's own ceiling is shown beside the plain one (catalog measurements name neither)."""
    return bool(getattr(m, "weight_precision", None) or getattr(m, "speculation", None))


def default_efficiency(serving) -> float:
    """The published decode-kernel ratio (FlashMLA on H800): a best kernel, an upper bound on a whole step.
    The calculators' efficiency field still offers it; expected values come from step_time."""
    return serving.efficiency["flashmla-h800"].fraction


@lru_cache(maxsize=4)
def rows(cat, serving) -> tuple[Row, ...]:
    """One row per measurement in catalog.toml and serving.toml, once per pair of loaded files (the build
    asks in every language; both are compared by identity, so a test's altered catalog is another key)."""
    out = []
    for m in cat.measurements.values():
        model, device = cat.models[m.model], cat.devices[m.device]
        dep = Deployment(tp=m.count)
        out.append(_row(m.key, model, device, m.who, dep, m.deployment_confidence != "high",
                        ASSUMED_CONTEXT, True, m.low, m.high, cat, serving))
    for m in serving.measurements.values():
        model, device = cat.models[m.model], cat.devices[m.device]
        if m.fit:
            shape = shape_from_catalog(model, weight_precision=m.weight_precision)
            dep = fit_search(shape, device.serving.bytes, m.context, 1).best.deployment
        else:
            dep = Deployment(tp=m.tp, pp=m.pp, dp=m.dp, ep=m.ep)
        out.append(_row(m.key, model, device, m.who, dep, not m.published or m.fit,
                        m.context, False, m.low, m.high, cat, serving, m))
    return tuple(out)


def unexplained(table) -> tuple[Row, ...]:
    """Rows whose measurement exceeds the ceiling with no mechanism found: must be empty."""
    return tuple(r for r in table if r.ratio > 1 and r.explanation is None)
