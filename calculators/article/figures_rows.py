"""Figures of the measurements table: one set per published measurement, and the terms their formulas read.

Each row (calculators/measured.py) becomes figures, so that the table prints
figures like the prose and every number can be expanded in place: the bytes
each device streams per token (weights read ÷ tensor-parallel degree + the
request's KV cache ÷ the parts it is split into), the ceiling, the
communication of one step, the expected speed, and where a publisher states
speculative decoding, the step and verify-step times and the tokens accepted
per verify step. Where a measurement exceeds its ceiling, the explanation's
numbers: the accepted length in closed form, the fewest proposed tokens that
reach the measurement and the least acceptance that does.

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle).
"""

from __future__ import annotations

from ..perf import comm as K
from ..perf import roofline as M
from ..data import serving as SV
from ..perf import speculative as SP
from ..data.catalog import load
from ..perf.deployment import shape_from_catalog
from .figure_base import registrar
from .figures_deployment import rows_of, serving_of
from ..perf import measured as X

DEFINITIONS = []
figure = registrar(DEFINITIONS)

# Per model: the figure of its KV bytes per token, with the ids the formulas read (calculators/formulas_rows.py).
KV_MODELS = {"llama-3.1-405b": "llama405b", "minimax-m2": "minimax-m2"}   # models whose KV per token is new here


def _row(c, key):
    return rows_of(c)[key]


def _shapes(c, key):
    """The row's model as the deployment sees it: catalog precision, and the precision the publisher states."""
    r = _row(c, key)
    m, pm = c.models[r.model], serving_of(c).measurements.get(key)
    stated = getattr(pm, "weight_precision", None)
    return shape_from_catalog(m), shape_from_catalog(m, weight_precision=stated) if stated else None


def _step(c, key):
    """The row's plain decode step in the stated precision, with efficiency and its messages (comm.py)."""
    r, sv = _row(c, key), serving_of(c)
    plain, stated = _shapes(c, key)
    platform = sv.platforms.get(r.device)
    link = sv.interconnects[platform.interconnect] if platform else None
    bw = c.devices[r.device].serving.bytes_per_s
    return K.decode_step(stated or plain, r.deployment, bw, r.context, efficiency=X.default_efficiency(sv), link=link)


def _spec_of(c, key):
    """The speculative decoding the publisher states with its numbers (k and mean accepted), else None."""
    r, sv = _row(c, key), serving_of(c)
    pm = sv.measurements.get(key)
    return X.published_spec(pm, c.models[r.model].layers, sv, r.model)[0] if pm is not None else None


def _verify_bytes(c, key):
    r = _row(c, key)
    plain, stated = _shapes(c, key)
    return r.deployment.streamed_serial(stated or plain, r.context, 1, tokens=_spec_of(c, key).k + 1)


def _link_of(device):
    platform = SV.load().platforms.get(device)
    return SV.load().interconnects[platform.interconnect] if platform else None


def _row_fig(key, attr):
    def fn(c):
        r = _row(c, key)
        return getattr(r, attr) if attr != "measured" else (r.low if r.low == r.high else (r.low, r.high))
    return fn


# ------------------------------------------------------------------ per-model terms

for _m, _id in KV_MODELS.items():
    for _attr, _what in (("layers", "layers"), ("kv_heads", "KV heads"), ("head_dim", "head dimension")):
        figure(f"model.{_id}.{_attr}", "count", f"catalog: {_what}", [f"models.{_m}"], sig=None, decimals=0)(
            lambda c, m=_m, a=_attr: getattr(c.models[m], a))
    figure(f"kv.{_id}.bytes_per_token", "bytes", "layers × 2 (K and V) × KV heads × head dimension × bytes per value (BF16: 2)",
           [f"models.{_m}"], sig=None, decimals=0, unit="B")(lambda c, m=_m: shape_from_catalog(c.models[m]).kv_bytes(1))


@figure("params.llama405b.read.bf16", "params", "catalog: parameters in BF16 read per token (batch 1)", ["models.llama-3.1-405b"])
def _(c):
    arch = c.models["llama-3.1-405b"].arch
    return sum(arch.read_params_by_group(1).values())


@figure("weights.llama405b.read_per_token", "bytes", "Σ tensor groups read per token × bytes per parameter at each group's precision (batch 1)",
        ["models.llama-3.1-405b"])
def _(c): return M.weight_bytes_read(c.models["llama-3.1-405b"], 1)


@figure("params.deepseek-v3.routed", "params", "catalog: parameters of the routed experts, all layers", ["models.deepseek-v3"])
def _(c): return sum(layer.params().get("experts", 0) for layer in c.models["deepseek-v3"].arch.layers)


for _ik, _link in SV.load().interconnects.items():
    if _link.bytes_per_s is not None and _ik != "nvlink4":   # NVLink 4's is a figure of the deployment model
        figure(f"interconnect.{_ik}.bandwidth", "bytes_per_s", "published: link bandwidth per device and direction (serving.toml)",
               [f"interconnects.{_ik}"], sig=3)(lambda c, k=_ik: serving_of(c).interconnects[k].bytes_per_s)

for _ak in SV.load().acceptance:
    figure(f"acceptance.{_ak}", "percent", "published: acceptance per proposed token, upper end (serving.toml)",
           [f"acceptance.{_ak}"], decimals=0)(lambda c, k=_ak: serving_of(c).acceptance[k].high)


@figure("acceptance.highest", "percent", "the highest acceptance per proposed token published for any method",
        [f"acceptance.{k}" for k in SV.load().acceptance], decimals=0)
def _(c): return max(a.high for a in serving_of(c).acceptance.values())


# ------------------------------------------------------------------ one set per row

# Rows with communication on a link whose bandwidth is published (the others name theirs as not counted).
_COMM = {r.key for r in X.rows(load(), SV.load())
         if any(m.known for m in K.messages(shape_from_catalog(load().models[r.model]), r.deployment, 1, _link_of(r.device)))}


for _rk, _rm in list(load().measurements.items()) + list(SV.load().measurements.items()):
    _in = [f"measurements.{_rk}", f"models.{_rm.model}", f"devices.{_rm.device}"]
    _stated, _spec = getattr(_rm, "weight_precision", None), getattr(_rm, "speculation", None)
    figure(f"row.{_rk}.measured", "tok_per_s", "published measurement", _in[:1], sig=None, decimals=0)(_row_fig(_rk, "measured"))
    figure(f"row.{_rk}.ceiling", "tok_per_s", "memory bandwidth ÷ bytes each device streams per token (catalog precision, 100 %, no communication)",
           _in)(_row_fig(_rk, "ceiling"))
    figure(f"row.{_rk}.expected", "tok_per_s", "stated configuration with the achieved-bandwidth efficiency and communication",
           _in + ["efficiency.flashmla-h800"])(_row_fig(_rk, "expected"))
    if X.states_configuration(_rm):
        figure(f"row.{_rk}.ceiling_served", "tok_per_s", "memory bandwidth ÷ bytes each device streams per token, in the precision and "
               "with the speculative decoding the publisher states (100 %, no communication)",
               _in)(_row_fig(_rk, "ceiling_stated"))
    figure(f"row.{_rk}.ratio", "ratio", "measured (upper end) ÷ ceiling", _in, sig=2)(_row_fig(_rk, "ratio"))
    figure(f"row.{_rk}.streamed", "bytes", "bytes each device streams per token, stage after stage (catalog precision, batch 1)",
           _in)(lambda c, k=_rk: _row(c, k).deployment.streamed_serial(_shapes(c, k)[0], _row(c, k).context, 1))
    figure(f"row.{_rk}.bandwidth", "bytes_per_s", "catalog: the device's serving-tier bandwidth", _in[2:])(
        lambda c, d=_rm.device: c.devices[d].serving.bytes_per_s)
    figure(f"row.{_rk}.kv", "bytes", "KV cache of one request at the row's context (BF16)", _in[1:2])(
        lambda c, k=_rk: _shapes(c, k)[0].kv_bytes(_row(c, k).context))
    if _stated:
        figure(f"row.{_rk}.streamed_served", "bytes", "bytes each device streams per token in the precision the publisher states (batch 1)",
               _in)(lambda c, k=_rk: _row(c, k).deployment.streamed_serial(_shapes(c, k)[1], _row(c, k).context, 1))
    if _rk in _COMM:
        figure(f"row.{_rk}.comm_time", "seconds", "communication of one decode step over the links whose bandwidth is published",
               _in, sig=2)(lambda c, k=_rk: _step(c, k).comm_s)
    if _spec and _spec.k and _spec.mean_accepted:
        figure(f"row.{_rk}.accepted", "count", "published: tokens accepted per verify step, on average", [f"measurements.{_rk}"],
               sig=3)(lambda c, k=_rk: serving_of(c).measurements[k].speculation.mean_accepted)
        figure(f"row.{_rk}.streamed_verify", "bytes", "bytes each device streams in one verify step of k + 1 tokens (more routed experts)",
               _in)(lambda c, k=_rk: _verify_bytes(c, k))
        figure(f"row.{_rk}.step_time", "seconds", "time of one plain decode step: streamed bytes ÷ achieved bandwidth + communication",
               _in, sig=3)(lambda c, k=_rk: _step(c, k).expected_s)
        figure(f"row.{_rk}.verify_time", "seconds", "time of one verify step: its streamed bytes ÷ achieved bandwidth + communication",
               _in, sig=3)(lambda c, k=_rk: K.Step(_verify_bytes(c, k), _step(c, k).peak_bytes_per_s, _step(c, k).efficiency,
                                                    _step(c, k).messages).expected_s)


# Where a measurement exceeds its ceiling: the explanation's numbers (measured.explain), as figures.
def _why(key, attr):
    return lambda c: getattr(_row(c, key).explanation, attr)


for _r in X.rows(load(), SV.load()):
    if _r.explanation is None:
        continue
    _in = [f"measurements.{_r.key}", f"models.{_r.model}", f"devices.{_r.device}"]
    figure(f"row.{_r.key}.why_ceiling", "tok_per_s", "ceiling with the explaining precision and speculation (100 %, no communication)",
           _in)(_why(_r.key, "ceiling_tokens_per_s"))
    if _r.explanation.k:
        figure(f"row.{_r.key}.why_k", "count", "tokens proposed per verify step", _in, sig=None, decimals=0)(_why(_r.key, "k"))
        figure(f"row.{_r.key}.why_acceptance", "percent", "acceptance per proposed token (published, or the least that reaches the measurement)",
               _in, decimals=0)(_why(_r.key, "acceptance"))
        figure(f"row.{_r.key}.why_accepted", "count", "tokens accepted per verify step: (1 − a^(k+1)) ÷ (1 − a)", _in, sig=3)(
            lambda c, k=_r.key: SP.expected_accepted(_row(c, k).explanation.acceptance, _row(c, k).explanation.k))
