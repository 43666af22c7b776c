"""Formula objects of the measurements table: each row's bytes, ceiling, communication and expected speed.

Per row: the bytes each device streams per token are the weights read per
token ÷ the tensor-parallel degree + the request's KV cache ÷ the parts it
is split into (one per KV head up to the degree; an MLA latent is whole on
every device); the ceiling is the bandwidth ÷ those bytes; the expected speed
is 1 ÷ (bytes ÷ (bandwidth × efficiency) + communication), each collective
priced as count × (bytes per device ÷ link bandwidth + latency). With
published speculative decoding the expected speed is the tokens accepted per
verify step ÷ (k draft proposals + one verify step). Where a measurement
exceeds its ceiling, the explanation: the accepted length in closed form,
the fewest proposed tokens k that reach the measurement at the highest
published acceptance (from (1 − a^(k+1)) ÷ (1 − a) ≥ measured ÷ ceiling,
solved for k), and the least acceptance that does, shown as the condition it
satisfies (a = 1 − (1 − a^(k+1)) × ceiling ÷ measured) rather than the
search that found it.

The deployment (degrees, context, link latency) enters as named constants:
it is the row's input, printed in the table's deployment column.
"""

from __future__ import annotations

from ..perf import comm as K
from ..perf import measured as X
from ..data import serving as SV
from ..data.catalog import PRECISION_BITS, load
from ..perf.deployment import shape_from_catalog
from .formula import F

FORMULAS = {}

# Per model: the figures the row formulas read (weights read per token; KV bytes per token; parameters read per token).
WEIGHTS_READ = {"llama-3.1-70b": "weights.llama70b.read_per_token", "llama-3.1-405b": "weights.llama405b.read_per_token",
                "gpt-oss-120b": "weights.gpt-oss-120b.read_per_token", "minimax-m2": "weights.minimax-m2.read_per_token",
                "deepseek-v3": "weights.deepseek-v3.read_per_token"}
KV_PER_TOKEN = {"llama-3.1-70b": "kv.llama70b.bytes_per_token", "llama-3.1-405b": "kv.llama405b.bytes_per_token",
                "minimax-m2": "kv.minimax-m2.bytes_per_token", "deepseek-v3": "kv.deepseek-v3.bytes_per_token_long"}
PARAMS_READ = {"llama-3.1-70b": (("parameters a token multiplies with", "params.llama70b.active"),
                                 ("values in one embedding row", "model.llama70b.hidden")),
               "llama-3.1-405b": (("parameters in BF16", "params.llama405b.read.bf16"),),
               "deepseek-v3": (("parameters in BF16", "params.deepseek-v3.read.bf16"), ("parameters in FP8", "params.deepseek-v3.read.fp8"))}
LAYERS = {"deepseek-v3": "model.deepseek-v3.layers"}
ONE, EIGHT = ("", 1), ("bits per byte", 8)

# ------------------------------------------------------------------ per-model terms

for _id in ("llama405b", "minimax-m2"):
    FORMULAS[f"kv.{_id}.bytes_per_token"] = F("{layers} × {kv} × {heads} × {dim} × {bytes}", layers=("layers", f"model.{_id}.layers"),
                                              kv=("K and V", 2), heads=("KV heads", f"model.{_id}.kv_heads"),
                                              dim=("values per head", f"model.{_id}.head_dim"), bytes=("per value (BF16)", "precision.bf16.bytes"))
FORMULAS["weights.llama405b.read_per_token"] = F("{p} × {bytes}", p=("parameters in BF16", "params.llama405b.read.bf16"),
                                                 bytes=("per value (BF16)", "precision.bf16.bytes"))
_ACCEPT = [f"acceptance.{k}" for k in SV.load().acceptance]
FORMULAS["acceptance.highest"] = F(("max(" + ", ".join(f"{{a{i}}}" for i in range(len(_ACCEPT))) + ")") if len(_ACCEPT) > 1 else "{a0}",
                                   **{f"a{i}": ("published", fid) for i, fid in enumerate(_ACCEPT)})


# ------------------------------------------------------------------ one set per row

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


def _comm(r, shape, link_key, link):
    """Σ count × (bytes per device ÷ link bandwidth + latency) over the step's messages on a link with published bandwidth."""
    msgs = [m for m in K.messages(shape, r.deployment, 1, link) if m.known]
    if not msgs:
        return None
    dep, hidden = r.deployment, ("values per token", shape.hidden)
    terms = dict(bw=("link bandwidth", f"interconnect.{link_key}.bandwidth"), lat=("latency per message", msgs[0].latency_s),
                 hidden=hidden, act=("per value (BF16)", "precision.bf16.bytes"), one=ONE)
    parts = []
    for m in msgs:
        if m.what == "tp-allreduce":
            terms.update(n_ar=("all-reduces", m.count), two=("", 2), tp=("devices each layer is split over", dep.tp))
            parts.append("{n_ar} × ({two} × ({tp} − {one}) ÷ {tp} × {hidden} × {act} ÷ {bw} + {lat})")
        elif m.what == "pp-handoff":
            terms.update(n_pp=("hand-offs between stages", m.count))
            parts.append("{n_pp} × ({hidden} × {act} ÷ {bw} + {lat})")
        elif m.what == "ep-all-to-all":
            moe = next(l for l in shape.layers if l.experts)
            terms.update(n_ep=("all-to-alls", m.count), dev=("devices per stage", dep.stage_devices),
                         active=("experts per token", moe.experts_active))
            parts.append("{n_ep} × ({one} ÷ {dev} × {active} × {hidden} × {act} × ({dev} − {one}) ÷ {dev} ÷ {bw} + {lat})")
    return F(" + ".join(parts), **terms)


def _row_formulas() -> dict:
    cat, sv = load(), SV.load()
    out = {}
    for r in X.rows(cat, sv):
        key, model, pm = r.key, cat.models[r.model], sv.measurements.get(r.key)
        shape = shape_from_catalog(model)
        platform = sv.platforms.get(r.device)
        link_key = platform.interconnect if platform else None
        link = sv.interconnects[link_key] if platform else None
        bw = ("bandwidth per device", f"row.{key}.bandwidth")
        out[f"row.{key}.kv"] = _kv(r)
        out[f"row.{key}.streamed"] = F("{w} ÷ {tp} + {kv} ÷ {split}", w=("read per token", WEIGHTS_READ[r.model]), **_split(r, shape))
        out[f"row.{key}.ceiling"] = F("{bw} ÷ {b}", bw=bw, b=("per device chain and token", f"row.{key}.streamed"))
        measured = ("measured", f"row.{key}.measured") if r.low == r.high else ("measured, upper end", f"row.{key}.measured", "high")
        out[f"row.{key}.ratio"] = F("{m} ÷ {c}", m=measured, c=("ceiling", f"row.{key}.ceiling"))
        stated = getattr(pm, "weight_precision", None)
        streamed = f"row.{key}.streamed"
        if stated:
            params, p_terms = _params(r.model)
            bits = ("bits per value", PRECISION_BITS[stated])
            out[f"row.{key}.streamed_served"] = F(f"{params} × {{bits}} ÷ {{eight}} ÷ {{tp}} + {{kv}} ÷ {{split}}", bits=bits, eight=EIGHT,
                                                  **p_terms, **_split(r, shape))
            streamed = f"row.{key}.streamed_served"
        comm = _comm(r, shape, link_key, link)
        if comm is not None:
            out[f"row.{key}.comm_time"] = comm
        eff = ("achieved", "efficiency.default")
        comm_term = dict(comm=("communication", f"row.{key}.comm_time")) if comm is not None else {}
        step_text = "{s} ÷ ({bw} × {eff})" + (" + {comm}" if comm is not None else "")
        spec = X.published_spec(pm, model.layers, sv, r.model)[0] if pm is not None else None
        if spec is None:
            if X.states_configuration(pm):
                out[f"row.{key}.ceiling_served"] = F("{bw} ÷ {s}", bw=bw, s=("per device chain and token", streamed))
            out[f"row.{key}.expected"] = F("{one} ÷ (" + step_text + ")", one=("token", 1), s=("per device chain and token", streamed),
                                           bw=bw, eff=eff, **comm_term)
        else:
            params, p_terms = _params(r.model)
            moe = next(l for l in shape.layers if l.experts)
            out[f"row.{key}.streamed_verify"] = F(
                f"({params} − {{routed}} × {{act}} ÷ {{experts}} + {{routed}} × ({{one}} − ({{one}} − {{act}} ÷ {{experts}})^({{k}} + {{one}})))"
                " × {bits} ÷ {eight} ÷ {tp} + {kv} ÷ {split}", routed=("routed expert parameters", "params.deepseek-v3.routed"),
                act=("experts per token", moe.experts_active), experts=("experts per layer", moe.experts), one=ONE,
                k=("tokens proposed per step", spec.k), bits=("bits per value", PRECISION_BITS[stated]), eight=EIGHT, **p_terms, **_split(r, shape))
            draft = dict(L=("tokens accepted per verify step", f"row.{key}.accepted"), k=("tokens proposed per step", spec.k),
                         module=("layer per MTP module", 1), layers=("layers", LAYERS[r.model]))
            out[f"row.{key}.ceiling_served"] = F("{L} ÷ ({k} × {s} ÷ {bw} × {module} ÷ {layers} + {sv} ÷ {bw})", bw=bw, **draft,
                                                 s=("per device chain and token", streamed), sv=("per device chain, verify step", f"row.{key}.streamed_verify"))
            out[f"row.{key}.step_time"] = F(step_text, s=("per device chain and token", streamed), bw=bw, eff=eff, **comm_term)
            out[f"row.{key}.verify_time"] = F(step_text, s=("per device chain, verify step", f"row.{key}.streamed_verify"), bw=bw, eff=eff,
                                              **comm_term)
            out[f"row.{key}.expected"] = F("{L} ÷ ({k} × {t} × {module} ÷ {layers} + {tv})", **draft,
                                           t=("step time", f"row.{key}.step_time"), tv=("verify step time", f"row.{key}.verify_time"))
        e = r.explanation
        if e is not None and e.k:
            # The explaining precision is the stated one (or the release's): its ceiling without speculation.
            plain = f"row.{key}.ceiling_served" if e.precision and e.precision == stated else f"row.{key}.ceiling"
            a, k = ("acceptance per proposed token", f"row.{key}.why_acceptance"), ("tokens proposed per step", f"row.{key}.why_k")
            c, m = ("ceiling", plain), ("measured", f"row.{key}.measured", "high")
            out[f"row.{key}.why_accepted"] = F("({one} − {a}^({k} + {one})) ÷ ({one} − {a})", one=ONE, a=a, k=k)
            out[f"row.{key}.why_ceiling"] = F("{L} × {c}", L=("tokens accepted per verify step", f"row.{key}.why_accepted"), c=c)
            out[f"row.{key}.why_k"] = F("max({one}, ⌈ln({one} − {m} ÷ {c} × ({one} − {amax})) ÷ ln({amax})⌉ − {one})", one=ONE, m=m, c=c,
                                        amax=("highest published acceptance", "acceptance.highest"))
            out[f"row.{key}.why_acceptance"] = F("{one} − ({one} − {a}^({k} + {one})) × {c} ÷ {m}", one=ONE, a=a, k=k, c=c, m=m)
    return out


FORMULAS.update(_row_formulas())
