"""Figures of the measurements table: one set per published measurement, and the terms their formulas read.

Each row (calculators/perf/measured.py) becomes figures, so that the table prints
figures like the prose and every number can be expanded in place. Per row: the
bytes each device streams per token are the weights read per token ÷ the
tensor-parallel degree + the request's KV cache ÷ the parts it is split into
(one per KV head up to the degree; an MLA latent is whole on every device); the
ceiling is the bandwidth ÷ those bytes; the expected speed is 1 ÷ the calibrated
step (calculators/perf/step_time.py, its terms declared by topics/steptime.py),
on devices published measurements calibrate. With published speculative
decoding the expected speed is the tokens accepted per verify step ÷ (k draft
proposals + one verify step). Where a measurement exceeds its ceiling, the
explanation: the accepted length in closed form, the fewest proposed tokens k
that reach the measurement at the highest published acceptance (from
(1 − a^(k+1)) ÷ (1 − a) ≥ measured ÷ ceiling, solved for k), and the least
acceptance that does, shown as the condition it satisfies
(a = 1 − (1 − a^(k+1)) × ceiling ÷ measured) rather than the search that found it.

The deployment (degrees, context, link latency) enters as named constants: it
is the row's input, printed in the table's deployment column.
"""

from __future__ import annotations

from ...arch.precision import PRECISION_BITS
from ...data import serving as SV
from ...data.catalog import load
from ...perf import measured as X
from ...perf import step_time as T
from ...perf import roofline as M
from ...perf import speculative as SP
from ...perf.deployment import shape_from_catalog
from ...example.figure import declarer
from ...example.formula import F
from .deployment import rows_of, serving_of
from .models import B2
from .steptime import declare_step

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

# Per model: the figures the row formulas read (weights read per token; KV bytes per token; parameters read per token).
WEIGHTS_READ = {"llama-3.1-70b": "weights.llama70b.read_per_token", "llama-3.1-405b": "weights.llama405b.read_per_token",
                "gpt-oss-120b": "weights.gpt-oss-120b.read_per_token", "minimax-m2": "weights.minimax-m2.read_per_token",
                "deepseek-v3": "weights.deepseek-v3.read_per_token"}
KV_PER_TOKEN = {"llama-3.1-70b": "kv.llama70b.bytes_per_token", "llama-3.1-405b": "kv.llama405b.bytes_per_token",
                "minimax-m2": "kv.minimax-m2.bytes_per_token", "deepseek-v3": "kv.deepseek-v3.bytes_per_token_long"}
PARAMS_READ = {"llama-3.1-70b": (("parameters a token multiplies with", "params.llama70b.active"),
                                 ("values in one embedding row", "model.llama70b.hidden")),
               "llama-3.1-405b": (("parameters the release keeps in BF16", "params.llama405b.read.bf16"),),
               "deepseek-v3": (("parameters the release keeps in BF16", "params.deepseek-v3.read.bf16"),
                               ("parameters the release keeps in FP8", "params.deepseek-v3.read.fp8"))}
SERVED_BITS = "bits per value as served"   # the provider's stated precision, whatever the release keeps
LAYERS = {"deepseek-v3": "model.deepseek-v3.layers"}
ONE, EIGHT = ("", 1), ("bits per byte", 8)
KV_MODELS = {"llama-3.1-405b": "llama405b", "minimax-m2": "minimax-m2"}   # models whose KV per token is new here


# ------------------------------------------------------------------ per-model terms

for _m, _id in KV_MODELS.items():
    for _attr, _what in (("layers", "layers"), ("kv_heads", "KV heads"), ("head_dim", "head dimension")):
        figure(f"model.{_id}.{_attr}", "count", f"catalog: {_what}", [f"models.{_m}"], sig=None, decimals=0)(
            lambda c, m=_m, a=_attr: getattr(c.models[m], a))
    figure(f"kv.{_id}.bytes_per_token", "bytes", "layers × 2 (K and V) × KV heads × head dimension × bytes per value (BF16: 2)",
           [f"models.{_m}"], sig=None, decimals=0, unit="B",
           expression=F("{layers} × {kv} × {heads} × {dim} × {bytes}", layers=("layers", f"model.{_id}.layers"), kv=("K and V", 2),
                        heads=("KV heads", f"model.{_id}.kv_heads"), dim=("values per head", f"model.{_id}.head_dim"), bytes=B2))(
        lambda c, m=_m: shape_from_catalog(c.models[m]).kv_bytes(1))


@figure("params.llama405b.read.bf16", "params", "catalog: parameters in BF16 read per token (batch 1)", ["models.llama-3.1-405b"])
def llama405b_read_params(c):
    arch = c.models["llama-3.1-405b"].arch
    return sum(arch.read_params_by_group(1).values())


@figure("weights.llama405b.read_per_token", "bytes", "Σ tensor groups read per token × bytes per parameter at each group's precision (batch 1)",
        ["models.llama-3.1-405b"], expression=F("{p} × {bytes}", p=("parameters in BF16", "params.llama405b.read.bf16"), bytes=B2))
def llama405b_read(c): return M.weight_bytes_read(c.models["llama-3.1-405b"], 1)


@figure("params.deepseek-v3.routed", "params", "catalog: parameters of the routed experts, all layers", ["models.deepseek-v3"])
def deepseek_routed(c): return sum(layer.params().get("experts", 0) for layer in c.models["deepseek-v3"].arch.layers)


for _ik, _link in load().interconnects.items():
    if _link.bytes_per_s is not None and _ik != "nvlink4":   # NVLink 4's is a figure of the deployment model
        figure(f"interconnect.{_ik}.bandwidth", "bytes_per_s", "published: link bandwidth per device and direction",
               [f"interconnects.{_ik}"], sig=3)(lambda c, k=_ik: c.interconnects[k].bytes_per_s)

for _ak in SV.load().acceptance:
    figure(f"acceptance.{_ak}", "percent", "published: acceptance per proposed token, upper end",
           [f"acceptance.{_ak}"], decimals=0)(lambda c, k=_ak: serving_of(c).acceptance[k].high)

_ACCEPT = [f"acceptance.{k}" for k in SV.load().acceptance]


@figure("acceptance.highest", "percent", "the highest acceptance per proposed token published for any method", _ACCEPT, decimals=0,
        expression=F(("max(" + ", ".join(f"{{a{i}}}" for i in range(len(_ACCEPT))) + ")") if len(_ACCEPT) > 1 else "{a0}",
                     **{f"a{i}": ("published", fid) for i, fid in enumerate(_ACCEPT)}))
def highest_acceptance(c): return max(a.high for a in serving_of(c).acceptance.values())


# ------------------------------------------------------------------ the formulas of one row

def _kv(r):
    """The request's KV cache at the row's context: per token × context, or per attention kind where a window caps one."""
    ctx = ("tokens of context", r.context)
    if r.model == "gpt-oss-120b":
        return F("{full} × {per} × {ctx} + {sliding} × {per} × min({ctx}, {window})", ctx=ctx,
                 full=("layers with full attention", "model.gpt-oss-120b.layers_full"),
                 sliding=("sliding-window layers", "model.gpt-oss-120b.layers_sliding"),
                 per=("per layer", "kv.gpt-oss-120b.bytes_per_token_layer"), window=("sliding window", "model.gpt-oss-120b.window"))
    return F("{per} × {ctx}", per=("KV cache per token", KV_PER_TOKEN[r.model]), ctx=ctx)


def _split(r, shape) -> dict:
    return dict(tp=("devices each layer is split over", r.deployment.tp), kv=("KV cache of the request", f"row.{r.key}.kv"),
                split=("parts the KV cache is split into", r.deployment.kv_split(shape)))


def _params(model) -> tuple:
    """'({p0} + {p1})' and its terms: the parameters read per token, counted by the precision the release keeps them in."""
    terms = {f"p{i}": t for i, t in enumerate(PARAMS_READ[model])}
    text = " + ".join("{" + s + "}" for s in terms)
    return (f"({text})" if len(terms) > 1 else text), terms


def _expressions(r, cat, sv) -> dict:
    """The formula objects of one row's figures, by the figure id's last part."""
    key, model, pm = r.key, cat.models[r.model], sv.measurements.get(r.key)
    shape = shape_from_catalog(model)
    bw = ("bandwidth per device", f"row.{key}.bandwidth")
    out = {"kv": _kv(r),
           "streamed": F("{w} ÷ {tp} + {kv} ÷ {split}", w=("read per token", WEIGHTS_READ[r.model]), **_split(r, shape)),
           "ceiling": F("{bw} ÷ {b}", bw=bw, b=("per device chain and token", f"row.{key}.streamed"))}
    measured = ("measured", f"row.{key}.measured") if r.low == r.high else ("measured, upper end", f"row.{key}.measured", "high")
    out["ratio"] = F("{m} ÷ {c}", m=measured, c=("ceiling", f"row.{key}.ceiling"))
    stated = getattr(pm, "weight_precision", None)
    streamed = f"row.{key}.streamed"
    if stated:
        params, p_terms = _params(r.model)
        out["streamed_served"] = F(f"{params} × {{bits}} ÷ {{eight}} ÷ {{tp}} + {{kv}} ÷ {{split}}",
                                   bits=(SERVED_BITS, PRECISION_BITS[stated]), eight=EIGHT, **p_terms, **_split(r, shape))
        streamed = f"row.{key}.streamed_served"
    spec = X.published_spec(pm, model.layers, sv, r.model)[0] if pm is not None else None
    if spec is None:
        if X.states_configuration(pm):
            out["ceiling_served"] = F("{bw} ÷ {s}", bw=bw, s=("per device chain and token", streamed))
    else:
        params, p_terms = _params(r.model)
        moe = next(l for l in shape.layers if l.experts)
        out["streamed_verify"] = F(
            f"({params} − {{routed}} × {{act}} ÷ {{experts}} + {{routed}} × ({{one}} − ({{one}} − {{act}} ÷ {{experts}})^({{k}} + {{one}})))"
            " × {bits} ÷ {eight} ÷ {tp} + {kv} ÷ {split}", routed=("routed expert parameters", "params.deepseek-v3.routed"),
            act=("experts per token", moe.experts_active), experts=("experts per layer", moe.experts), one=ONE,
            k=("tokens proposed per step", spec.k), bits=(SERVED_BITS, PRECISION_BITS[stated]), eight=EIGHT, **p_terms,
            **_split(r, shape))
        draft = dict(L=("tokens accepted per verify step", f"row.{key}.accepted"), k=("tokens proposed per step", spec.k),
                     module=("layer per MTP module", 1), layers=("layers", LAYERS[r.model]))
        out["ceiling_served"] = F("{L} ÷ ({k} × {s} ÷ {bw} × {module} ÷ {layers} + {sv} ÷ {bw})", bw=bw, **draft,
                                  s=("per device chain and token", streamed),
                                  sv=("per device chain, verify step", f"row.{key}.streamed_verify"))
        out["expected"] = F("{L} ÷ ({k} × {t} × {module} ÷ {layers} + {tv})", **draft,
                            t=("expected step", f"row.{key}.step"), tv=("expected verify step", f"row.{key}.verify.step"))
    e = r.explanation
    if e is not None and e.k:
        # The explaining precision is the stated one (or the release's): its ceiling without speculation.
        plain = f"row.{key}.ceiling_served" if e.precision and e.precision == stated else f"row.{key}.ceiling"
        a, k = ("acceptance per proposed token", f"row.{key}.why_acceptance"), ("tokens proposed per step", f"row.{key}.why_k")
        c, m = ("ceiling", plain), ("measured", f"row.{key}.measured", "high")
        out["why_accepted"] = F("({one} − {a}^({k} + {one})) ÷ ({one} − {a})", one=ONE, a=a, k=k)
        out["why_ceiling"] = F("{L} × {c}", L=("tokens accepted per verify step", f"row.{key}.why_accepted"), c=c)
        out["why_k"] = F("max({one}, ⌈ln({one} − {m} ÷ {c} × ({one} − {amax})) ÷ ln({amax})⌉ − {one})", one=ONE, m=m, c=c,
                         amax=("highest published acceptance", "acceptance.highest"))
        out["why_acceptance"] = F("{one} − ({one} − {a}^({k} + {one})) × {c} ÷ {m}", one=ONE, a=a, k=k, c=c, m=m)
    return out


# ------------------------------------------------------------------ one set per row

def _row(c, key):
    return rows_of(c)[key]


def _shapes(c, key):
    """The row's model as the deployment sees it: catalog precision, and the precision the publisher states."""
    r = _row(c, key)
    m, pm = c.models[r.model], serving_of(c).measurements.get(key)
    stated = getattr(pm, "weight_precision", None)
    return shape_from_catalog(m), shape_from_catalog(m, weight_precision=stated) if stated else None


def _step_setup(c, key):
    """The row's step-time set-up: stated precision, the engine and expert-parallel groups the publisher names."""
    r, sv = _row(c, key), serving_of(c)
    pm = sv.measurements.get(key)
    return X.step_setup(c.models[r.model], c.devices[r.device], r.deployment, getattr(pm, "weight_precision", None), pm)


def _spec_of(c, key):
    """The speculative decoding the publisher states with its numbers (k and mean accepted), else None."""
    r, sv = _row(c, key), serving_of(c)
    pm = sv.measurements.get(key)
    return X.published_spec(pm, c.models[r.model].layers, sv, r.model)[0] if pm is not None else None


def _verify_bytes(c, key):
    r = _row(c, key)
    plain, stated = _shapes(c, key)
    return r.deployment.streamed_serial(stated or plain, r.context, 1, tokens=_spec_of(c, key).k + 1)


def _row_fig(key, attr):
    def fn(c):
        r = _row(c, key)
        return getattr(r, attr) if attr != "measured" else (r.low if r.low == r.high else (r.low, r.high))
    return fn


_CAT, _SV = load(), SV.load()
_ROWS = X.rows(_CAT, _SV)
for _r in _ROWS:
    _rk = _r.key
    _rm = _SV.measurements.get(_rk) or _CAT.measurements[_rk]
    _e = _expressions(_r, _CAT, _SV)
    _in = [f"measurements.{_rk}", f"models.{_rm.model}", f"devices.{_rm.device}"]
    _stated, _spec = getattr(_rm, "weight_precision", None), getattr(_rm, "speculation", None)
    figure(f"row.{_rk}.measured", "tok_per_s", "published measurement", _in[:1], sig=None, decimals=0)(_row_fig(_rk, "measured"))
    figure(f"row.{_rk}.ceiling", "tok_per_s", "memory bandwidth ÷ bytes each device streams per token (catalog precision, 100 %, no communication)",
           _in, expression=_e["ceiling"])(_row_fig(_rk, "ceiling"))
    if _r.expected is not None:
        _setup = (lambda c, k=_rk: _step_setup(c, k))
        _sin = _in + ["fits.step-time"]
        if _e.get("expected") is None:      # plain decoding: the declared step gives the expected speed and its band
            declare_step(f"row.{_rk}", _setup, T.Workload(1, _r.context), _in)
        else:                               # published speculation: a plain step, a verify step, and their combination
            _k = _spec.k
            declare_step(f"row.{_rk}", _setup, T.Workload(1, _r.context), _in, speed=False)
            declare_step(f"row.{_rk}.verify", _setup, T.Workload(1, _r.context, tokens=_k + 1), _in, speed=False)
            figure(f"row.{_rk}.expected", "tok_per_s", "tokens accepted per verify step ÷ (k draft proposals + one verify step), calibrated steps",
                   _sin, expression=_e["expected"])(_row_fig(_rk, "expected"))
            figure(f"row.{_rk}.expected_range", "tok_per_s", "typical range: the expected speed ÷ the held-out spread of measured ÷ expected time",
                   _sin, expression=F("{e} ÷ {b}", e=("expected", f"row.{_rk}.expected"), b=("held-out spread", "steptime.band")))(
                _row_fig(_rk, "expected_range"))
    if X.states_configuration(_rm):
        figure(f"row.{_rk}.ceiling_served", "tok_per_s", "memory bandwidth ÷ bytes each device streams per token, in the precision and "
               "with the speculative decoding the publisher states (100 %, no communication)",
               _in, expression=_e["ceiling_served"])(_row_fig(_rk, "ceiling_stated"))
    figure(f"row.{_rk}.ratio", "ratio", "measured (upper end) ÷ ceiling", _in, sig=2, expression=_e["ratio"])(_row_fig(_rk, "ratio"))
    figure(f"row.{_rk}.streamed", "bytes", "bytes each device streams per token, stage after stage (catalog precision, batch 1)",
           _in, expression=_e["streamed"])(
        lambda c, k=_rk: _row(c, k).deployment.streamed_serial(_shapes(c, k)[0], _row(c, k).context, 1))
    figure(f"row.{_rk}.bandwidth", "bytes_per_s", "catalog: the device's serving-tier bandwidth", _in[2:])(
        lambda c, d=_rm.device: c.devices[d].serving.bytes_per_s)
    figure(f"row.{_rk}.kv", "bytes", "KV cache of one request at the row's context (BF16)", _in[1:2], expression=_e["kv"])(
        lambda c, k=_rk: _shapes(c, k)[0].kv_bytes(_row(c, k).context))
    if _stated:
        figure(f"row.{_rk}.streamed_served", "bytes", "bytes each device streams per token in the precision the publisher states (batch 1)",
               _in, expression=_e["streamed_served"])(
            lambda c, k=_rk: _row(c, k).deployment.streamed_serial(_shapes(c, k)[1], _row(c, k).context, 1))
    if _spec and _spec.k and _spec.mean_accepted:
        figure(f"row.{_rk}.accepted", "count", "published: tokens accepted per verify step, on average", [f"measurements.{_rk}"],
               sig=3)(lambda c, k=_rk: serving_of(c).measurements[k].speculation.mean_accepted)
        figure(f"row.{_rk}.streamed_verify", "bytes", "bytes each device streams in one verify step of k + 1 tokens (more routed experts)",
               _in, expression=_e["streamed_verify"])(lambda c, k=_rk: _verify_bytes(c, k))


# Where a measurement exceeds its ceiling: the explanation's numbers (measured.explain), as figures.
def _why(key, attr):
    return lambda c: getattr(_row(c, key).explanation, attr)


for _r in _ROWS:
    if _r.explanation is None:
        continue
    _e = _expressions(_r, _CAT, _SV)
    _in = [f"measurements.{_r.key}", f"models.{_r.model}", f"devices.{_r.device}"]
    figure(f"row.{_r.key}.why_ceiling", "tok_per_s", "ceiling with the explaining precision and speculation (100 %, no communication)",
           _in, expression=_e.get("why_ceiling"))(_why(_r.key, "ceiling_tokens_per_s"))
    if _r.explanation.k:
        figure(f"row.{_r.key}.why_k", "count", "tokens proposed per verify step", _in, sig=None, decimals=0,
               expression=_e["why_k"])(_why(_r.key, "k"))
        figure(f"row.{_r.key}.why_acceptance", "percent", "acceptance per proposed token (published, or the least that reaches the measurement)",
               _in, decimals=0, expression=_e["why_acceptance"])(_why(_r.key, "acceptance"))
        figure(f"row.{_r.key}.why_accepted", "count", "tokens accepted per verify step: (1 − a^(k+1)) ÷ (1 − a)", _in, sig=3,
               expression=_e["why_accepted"])(
            lambda c, k=_r.key: SP.expected_accepted(_row(c, k).explanation.acceptance, _row(c, k).explanation.k))
