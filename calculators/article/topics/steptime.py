"""Figures of the calibrated step time (calculators/perf/step_time.py): its constants, a step's terms, and
the article's worked examples of where a decode step's time goes.

Every expected value on the site is a sum of named terms; `declare_step` declares one figure per term
of a step with the formula object that adds it up, so the popover beside an expected value shows
memory, fixed cost per layer and communication with each constant's value. The constants are figures
too: the fitted ones say "fitted" and name the data (calculators/article/measurements.toml), the sourced
ones their source (serving.toml).
"""

from __future__ import annotations

from ...data import serving as SV
from ...data.catalog import load
from ...perf import step_time as T
from ...example.figure import declarer
from ...example.formula import F, Q

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

FIT_IN = ["fits.step-time"]
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "trtllm": "TensorRT-LLM"}   # names: the same in every language


def consts():
    return T.constants()


def serving_of(c):
    return SV.load() if c is load() else SV.load_text(SV.text(), c)


# ------------------------------------------------------------------ the constants as figures

for _v in ("nvidia", "amd"):
    figure(f"steptime.weights.{_v}", "percent", "fitted: share of peak bandwidth the engines' weight reads reach on these devices",
           FIT_IN, decimals=0)(lambda c, v=_v: consts().eta_weights[v])

_SV = SV.load()
for _k, _fam in _SV.kv_bandwidth.items():
    if _fam.slopes:
        _terms, _parts = {}, []
        cat0 = load()
        for _i, _s in enumerate(_fam.slopes):
            _terms[f"b{_i}"] = ("KV bytes one more token adds", Q(cat0.models[_s.model].arch.kv_bytes_per_token(_s.kv_precision), "bytes"))
            _terms[f"s{_i}"] = ("published slope per token", Q(_s.s_per_token, "seconds"))
            _terms[f"p{_i}"] = ("peak bandwidth", Q(cat0.devices[_s.device].serving.bytes_per_s, "bytes_per_s"))
            _parts.append(f"{{b{_i}}} ÷ {{s{_i}}} ÷ {{p{_i}}}")
        _terms["n"] = ("slopes", len(_fam.slopes))
        _expr = F("(" + " + ".join(_parts) + ") ÷ {n}", **_terms)
    else:
        _expr = F("{a} ÷ {p}", a=("measured bandwidth", Q(_fam.achieved_bytes_per_s, "bytes_per_s")), p=("peak bandwidth", Q(_fam.peak_bytes_per_s, "bytes_per_s")))
    figure(f"steptime.kv.{_k}", "percent", "sourced: share of peak bandwidth decode attention reaches reading the KV cache",
           [f"kv_bandwidth.{_k}"], decimals=0, expression=_expr)(
        lambda c, d=_fam.devices[0]: T.kv_efficiency(d, serving_of(c), c))


@figure("steptime.slice_half", "bytes", "fitted: an expert slice of this size per device streams at half the weight-read share", FIT_IN)
def slice_half(c): return consts().slice_half_bytes


@figure("steptime.slice_half_share", "percent", "slice efficiency at that slice size: s ÷ (s + s½)", FIT_IN, decimals=0,
        expression=F("{s} ÷ ({s} + {s})", s=("slice", "steptime.slice_half")))
def slice_half_share(c): return 0.5


@figure("steptime.mfu", "percent", "fitted: share of the compute peak the matrix products reach", FIT_IN, decimals=0)
def mfu(c): return consts().mfu


for _part in ("moe", "latent"):
    figure(f"steptime.layer_weight.{_part}", "ratio", {"moe": "fitted: fixed cost a mixture of experts adds to a layer, in dense layers",
                                                       "latent": "fitted: fixed cost multi-head latent attention adds to a layer, in dense layers"}[_part],
           FIT_IN, sig=2)(lambda c, p=_part: consts().layer_weight[p])

_TAUS = dict(T.constants().fixed_per_layer_s)
for _g in _TAUS:
    _e, _v = _g.split("/")
    figure(f"steptime.tau.{_e}.{_v}", "seconds", "fitted: fixed cost per dense layer and step for this engine on these devices",
           FIT_IN, sig=2)(lambda c, g=_g: consts().fixed_per_layer_s[g])

for _v in ("nvidia", "amd"):
    _mine = [g for g in _TAUS if g.endswith(f"/{_v}") and "-eager" not in g]
    _t = {f"t{i}": (ENGINE_NAMES[g.split("/")[0]], f"steptime.tau.{g.split('/')[0]}.{_v}") for i, g in enumerate(_mine)}
    figure(f"steptime.tau.generic.{_v}", "seconds", "unspecified engine: the geometric mean of the calibrated engines' fixed costs",
           FIT_IN, sig=2, expression=F("(" + " × ".join("{" + s + "}" for s in _t) + ")^({one} ÷ {n})", one=("", 1),
                                       n=("engines", len(_mine)), **_t))(lambda c, v=_v: consts().tau("generic", v))

for _g, _cpu in T.constants().cpu_per_request_s.items():
    _e, _v = _g.split("/")
    figure(f"steptime.cpu.{_e}.{_v}", "seconds", "fitted: CPU time per request and step without CUDA/HIP graphs", FIT_IN, sig=2)(
        lambda c, g=_g: consts().cpu_per_request_s[g])

for _ak, _ar in _SV.allreduce.items():
    figure(f"steptime.allreduce.{_ak}.latency", "seconds", "published points, least squares: latency of one all-reduce",
           [f"allreduce.{_ak}"], sig=2)(lambda c, k=_ak: T.line_fit(serving_of(c).allreduce[k].points)[0])
    figure(f"steptime.allreduce.{_ak}.bandwidth", "bytes_per_s", "published points, least squares: message bytes per second of one all-reduce",
           [f"allreduce.{_ak}"], sig=3)(lambda c, k=_ak: T.line_fit(serving_of(c).allreduce[k].points)[1])


@figure("steptime.band", "ratio", "dataset: measured ÷ expected time per token over the held-out measurements, between the quantiles 1/6 and 5/6",
        FIT_IN, sig=2)
def band(c): return consts().band


# ------------------------------------------------------------------ one step, term by term


def _curve_key(s: T.Setup):
    ar = _SV.allreduce_for("vllm" if s.engine == "generic" else s.engine, s.device.node.interconnect)
    return ar.key if ar else None


def declare_step(prefix: str, get_setup, workload: T.Workload, inputs: list, speed: bool = True):
    """Declare the figures of one step of `get_setup(c)` under `workload`: its bytes, the memory time, the
    arithmetic, the fixed cost, the collectives, the step, and (speed) the expected speed and its band.
    The formula objects are built from the packaged catalog's step (which terms it has)."""
    cat = load()
    s0 = get_setup(cat)
    t0 = T.terms(s0, workload)
    vendor = T.vendor_of(s0.device.key, _SV)
    fam = _SV.kv_family(s0.device.key).key
    engine = s0.engine if s0.engine == "generic" else s0.engine + ("" if s0.graphs else "-eager")
    terms = lambda c: T.terms(get_setup(c), workload, consts(), serving_of(c), c)  # noqa: E731
    ins = inputs + FIT_IN
    bw = ("peak bandwidth", Q(s0.device.serving.bytes_per_s, "bytes_per_s"))

    dep, shape = s0.deployment, s0.shape
    dense_all = sum(l.dense_bytes for l in shape.layers) + shape.outside_read_bytes
    figure(f"{prefix}.bytes_weights", "bytes", "dense weights and the unembedding each device reads per step, at the stated precision",
           inputs, expression=F("{d} ÷ {tp}", d=("dense weights and unembedding of the model", Q(dense_all, "bytes")),
                                tp=("devices each layer is split over", dep.tp)))(lambda c: terms(c).bytes_weights)
    mem = "{w} ÷ ({bw} × {ew})"
    mem_terms = dict(w=("dense weights", f"{prefix}.bytes_weights"), bw=bw, ew=("weight reads", f"steptime.weights.{vendor}"))
    if t0.bytes_experts:
        moe = [l for l in shape.layers if l.experts]
        groups = s0.ep_groups if s0.ep_groups > 1 else 1
        figure(f"{prefix}.slice", "bytes", "one expert's slice on one device", inputs,
               expression=F("{e} ÷ {d}", e=("one expert", Q(moe[0].expert_bytes / moe[0].experts, "bytes")),
                            d=("devices an expert is split over", dep.stage_devices // groups)))(
            lambda c: T._experts(get_setup(c), workload.batch * workload.tokens, consts())[1])
        figure(f"{prefix}.bytes_experts", "bytes", "routed experts the busiest device reads per step (uniform routing)", inputs,
               expression=F("{m} × {h} × {sl}", m=("layers with a mixture of experts", len(moe)),
                            h=("experts hit per layer (uniform routing)", t0.expert_hits), sl=("slice", f"{prefix}.slice")))(
            lambda c: terms(c).bytes_experts)
        mem += " + {x} ÷ ({bw} × {ew} × {sl} ÷ ({sl} + {sh}))"
        mem_terms.update(x=("expert slices", f"{prefix}.bytes_experts"), sl=("slice", f"{prefix}.slice"),
                         sh=("slice at half the share", "steptime.slice_half"))
    if t0.bytes_kv:
        figure(f"{prefix}.bytes_kv", "bytes", "KV cache each device reads per step", inputs,
               expression=F("{r} × {kv} ÷ {split}", r=("requests per device group", dep.requests_per_group(workload.batch)),
                            kv=("KV cache of one request", Q(shape.kv_bytes(workload.context), "bytes")),
                            split=("parts the KV cache is split into", dep.kv_split(shape))))(lambda c: terms(c).bytes_kv)
        mem += " + {kv} ÷ ({bw} × {ek})"
        mem_terms.update(kv=("KV cache", f"{prefix}.bytes_kv"), ek=("KV reads", f"steptime.kv.{fam}"))
    figure(f"{prefix}.t_memory", "seconds", "memory time: bytes ÷ (bandwidth × the share reads reach)", ins, sig=3,
           expression=F(mem, **mem_terms))(lambda c: terms(c).memory_s)

    peak = T._peak(s0)
    dense_f, routed_f = T._flops_split(s0.model, workload.context)
    tokens = workload.tokens
    f_expr, f_terms = "{td} × {fd} ÷ {tp}", dict(td=("tokens per device group", dep.requests_per_group(workload.batch) * tokens),
                                                  fd=("FLOPs per token outside the routed experts", Q(dense_f, "flop")),
                                                  tp=("devices each layer is split over", dep.tp))
    if routed_f:
        f_expr += " + {tr} × {fr} ÷ {st}"
        f_terms.update(tr=("tokens", workload.batch * tokens), fr=("FLOPs per token in the routed experts", Q(routed_f, "flop")),
                       st=("devices of the stage", dep.stage_devices))
    figure(f"{prefix}.flops", "flop", "arithmetic each device does per step", inputs, expression=F(f_expr, **f_terms))(
        lambda c: terms(c).compute_s * T._peak(get_setup(c)) * consts().mfu)
    figure(f"{prefix}.t_compute", "seconds", "arithmetic time: FLOPs ÷ (peak × the share products reach)", ins, sig=3,
           expression=F("{f} ÷ ({p} × {u})", f=("FLOPs", f"{prefix}.flops"), p=("peak", Q(peak, "flop_per_s")), u=("reached", "steptime.mfu")))(
        lambda c: terms(c).compute_s)

    layers = s0.model.arch.layers
    n_moe = sum(1 for l in layers if type(l.mlp).__name__ == "MoEMLP")
    n_lat = sum(1 for l in layers if type(l.attention).__name__ == "LatentAttention")
    unit_expr, unit_terms = "{n}", dict(n=("layers", len(layers)))
    if n_moe:
        unit_expr += " + {m} × {wm}"
        unit_terms.update(m=("layers with a mixture of experts", n_moe), wm=("each", "steptime.layer_weight.moe"))
    if n_lat:
        unit_expr += " + {a} × {wl}"
        unit_terms.update(a=("layers with multi-head latent attention", n_lat), wl=("each", "steptime.layer_weight.latent"))
    figure(f"{prefix}.layer_units", "count", "layers, each weighted by its kind (dense layer = 1)", ins, sig=None, decimals=0,
           expression=F(unit_expr, **unit_terms))(lambda c: terms(c).layer_units)
    figure(f"{prefix}.t_fixed", "seconds", "fixed cost: weighted layers × the engine's fixed cost per layer", ins, sig=3,
           expression=F("{u} × {tau}", u=("weighted layers", f"{prefix}.layer_units"),
                        tau=("per layer", f"steptime.tau.{engine}.{vendor}")))(lambda c: terms(c).fixed_s)

    step_expr = "max({mem}, {comp}) + {fixed}"
    step_terms = dict(mem=("memory", f"{prefix}.t_memory"), comp=("arithmetic", f"{prefix}.t_compute"),
                      fixed=("fixed", f"{prefix}.t_fixed"))
    if t0.comm_s:
        key = _curve_key(s0)
        n_moe_layers = sum(1 for l in shape.layers if l.experts)
        per = (("collectives per layer", 2), ("layers", len(shape.layers))) if dep.dp == 1 else \
            (("collectives per layer", 1), ("layers", len(shape.layers))) if not dep.ep else \
            (("collectives per layer with a mixture of experts", 2), ("layers with a mixture of experts", n_moe_layers))
        figure(f"{prefix}.collectives", "count", "collectives per step across the devices", inputs, sig=None, decimals=0,
               expression=F("{k} × {n}", k=per[0], n=per[1]))(lambda c: terms(c).collectives)
        if key and s0.deployment.dp == 1:
            message = s0.deployment.requests_per_group(workload.batch * workload.tokens) * s0.shape.hidden * T.ACT_BYTES
            largest = T.allreduce_curve(s0.engine, s0.device.node.interconnect, _SV)[2]
            if message > largest:
                raise ValueError(f"{prefix}: a message beyond the measured all-reduce sizes needs its own formula")
            comm = F("{n} × ({lat} + {msg} ÷ {bw})", n=("collectives", f"{prefix}.collectives"),
                     lat=("latency", f"steptime.allreduce.{key}.latency"), msg=("message", Q(message, "bytes")),
                     bw=("all-reduce bandwidth", f"steptime.allreduce.{key}.bandwidth"))
        else:
            comm = None
        figure(f"{prefix}.t_comm", "seconds", "collectives: count × (latency + message ÷ bandwidth), measured all-reduce by size",
               ins, sig=3, expression=comm)(lambda c: terms(c).comm_s)
        step_expr += " + {comm}"
        step_terms["comm"] = ("collectives", f"{prefix}.t_comm")
    if t0.cpu_s:
        raise ValueError(f"{prefix}: a step without graphs needs its CPU term declared")
    figure(f"{prefix}.step", "seconds", "expected step: max(memory, arithmetic) + fixed cost + collectives", ins, sig=3,
           expression=F(step_expr, **step_terms))(lambda c: terms(c).step_s)
    if speed:
        figure(f"{prefix}.expected", "tok_per_s", "expected speed per request: 1 ÷ the expected step", ins,
               expression=F("{one} ÷ {t}", one=("token", 1), t=("expected step", f"{prefix}.step")))(lambda c: 1 / terms(c).step_s)
        figure(f"{prefix}.expected_range", "tok_per_s", "typical range: the expected speed ÷ the held-out spread of measured ÷ expected time",
               ins, expression=F("{e} ÷ {b}", e=("expected", f"{prefix}.expected"), b=("held-out spread", "steptime.band")))(
            lambda c: tuple(sorted((1 / terms(c).step_s / consts().band[1], 1 / terms(c).step_s / consts().band[0]))))
    return prefix

