"""Formula objects: how a figure is computed, with its inputs' values put in.

A figure's `formula` says in words what it is; a Formula here says it as
arithmetic over named terms, each term another figure (itself explained one
level down) or a constant with a name. The popover next to a number, the
sources page and the tests read the same object: the tests evaluate every
expression and require the printed value, which also recomputes the model's
result along a second path.

Expressions use the signs a reader sees (× ÷ + −, brackets, ⌈ ⌉ for rounding
up to a whole device, max(…, …) and min(…, …) for a roofline's slower side)
and only {slots} and plain numbers, so evaluating one needs no eval(): a
small parser of the standard library's `ast` does it.

Ranges: a term whose figure is a range (49–71 tok/s) makes the formula a
range. It is evaluated for every choice of each ranged term's low or high
end; the smallest and largest results are the figure's ends, and the reader
sees both substitutions ("713 ÷ 683 … 713 ÷ 485 = 1.04–1.47×"), the one
that gives the low end first. A term can instead read one end of a range
(`end="high"`: "the fastest GPU route"), and then it is a single number.

Sums over a model's mixed per-layer specs (attention kinds, precision
groups) read intermediate figures, one per group (calculators/figure_terms.py),
so each term is itself expandable.

Figures that read one catalog datum or one scenario assumption need no
entry: their formula is the datum itself (see `for_figure`).
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import math
import operator
from dataclasses import dataclass

from . import fmt
from . import scenarios as S

ENDS = {"low": 0, "high": 1}


@dataclass(frozen=True)
class Term:
    """One named input of an expression: a figure's value, or a named constant."""

    slot: str
    label: str                  # what it is, a UI string (msgctxt "term")
    figure: str | None = None   # the figure it reads, or None for a constant
    value: float | None = None  # the constant's value
    end: str | None = None      # of a range figure, read only this end ("low" or "high")


@dataclass(frozen=True)
class Formula:
    expr: str                   # e.g. "{layers} × 2 × {kv_heads} × {head_dim} × {bytes}"
    terms: tuple

    def _ranged(self, registry: dict) -> list:
        """Slots whose figure is a range read as a whole: they make the result a range."""
        return [t.slot for t in self.terms if t.figure and t.end is None and isinstance(registry[t.figure].value, tuple)]

    def _value(self, t: Term, registry: dict, pick: dict):
        if not t.figure:
            return t.value
        v = registry[t.figure].value
        if isinstance(v, tuple):
            return v[ENDS[t.end]] if t.end else v[pick[t.slot]]
        return v

    def values(self, registry: dict, pick: dict | None = None) -> dict:
        """Each slot's number; `pick` says which end (0 low, 1 high) a ranged term contributes."""
        return {t.slot: self._value(t, registry, pick or {}) for t in self.terms}

    def _at(self, registry: dict, pick: dict) -> float:
        values = self.values(registry, pick)
        text = self.expr
        for slot in values:
            text = text.replace("{" + slot + "}", f"__{slot.replace('.', '_')}")
        text = text.replace("×", "*").replace("÷", "/").replace("−", "-").replace("⌈", "ceil(").replace("⌉", ")")
        names = {f"__{slot.replace('.', '_')}": v for slot, v in values.items()}
        return _eval(ast.parse(text, mode="eval").body, names)

    def ends(self, registry: dict) -> list:
        """[(pick, value)] for the low and the high result: every low/high choice of the ranged terms is tried."""
        ranged = self._ranged(registry)
        tried = [(pick, self._at(registry, pick)) for pick in
                 (dict(zip(ranged, choice)) for choice in itertools.product((0, 1), repeat=len(ranged)))]
        return [min(tried, key=lambda pv: pv[1]), max(tried, key=lambda pv: pv[1])]

    def evaluate(self, registry: dict):
        """The expression's value with every term put in (no eval: a tiny arithmetic parser);
        a (low, high) pair where a term is a range."""
        if not self._ranged(registry):
            return self._at(registry, {})
        (_, low), (_, high) = self.ends(registry)
        return (low, high)

    def substituted(self, registry: dict, locale: str, tr) -> str:
        """The expression as a reader of `locale` sees it, each term as its printed value and label;
        for a range, the substitution that gives the low end, then the one that gives the high end."""
        if not self._ranged(registry):
            return self._substitute(registry, locale, tr, {})
        return " … ".join(self._substitute(registry, locale, tr, pick) for pick, _ in self.ends(registry))

    def _substitute(self, registry: dict, locale: str, tr, pick: dict) -> str:
        text = self.expr
        values = self.values(registry, pick)
        for t in self.terms:
            label = tr(t.label, "term") if t.label else ""
            if t.figure:
                fig = registry[t.figure]
                number = dataclasses.replace(fig, value=values[t.slot]).format(locale)
            else:
                number = fmt.format_number(int(t.value), locale) if float(t.value).is_integer() else fmt.format_number(t.value, locale, sig=3)
            text = text.replace("{" + t.slot + "}", f"{number} {label}".strip())
        return text


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
# Functions a formula may call (fewest and most arguments, what they do): rounding up to whole devices,
# a roofline's slower side (max) or a bound's tighter one (min).
_CALLS = {"ceil": (1, 1, lambda xs: math.ceil(xs[0])), "max": (2, 8, max), "min": (2, 8, min)}


def _eval(node, names: dict) -> float:
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, names), _eval(node.right, names))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in names:
        return float(names[node.id])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS and not node.keywords:
        fewest, most, fn = _CALLS[node.func.id]
        if fewest <= len(node.args) <= most:
            return float(fn([_eval(a, names) for a in node.args]))
    raise ValueError(f"not an arithmetic expression over named terms: {ast.dump(node)}")


def F(expr: str, **terms) -> Formula:
    """Shorthand: F("{a} ÷ {b}", a=("label", "figure.id"), b=("label", 2.0), c=("label", "range.id", "high"))."""
    out = []
    for slot, (label, ref, *end) in terms.items():
        if isinstance(ref, str):
            if end and end[0] not in ENDS:
                raise ValueError(f"term {slot!r}: end must be one of {', '.join(ENDS)}, got {end[0]!r}")
            out.append(Term(slot, label, figure=ref, end=end[0] if end else None))
        else:
            out.append(Term(slot, label, value=float(ref)))
    return Formula(expr, tuple(out))


L70 = "model.llama70b"
_FORMULAS = {
    "kv.llama70b.bytes_per_token": F("{layers} × {kv} × {heads} × {dim} × {bytes}",
                                     layers=("layers", f"{L70}.layers"), kv=("K and V", 2), heads=("KV heads", f"{L70}.kv_heads"),
                                     dim=("values per head", f"{L70}.head_dim"), bytes=("per value (BF16)", "precision.bf16.bytes")),
    "kv.llama70b.bytes_per_token_mha": F("{layers} × {kv} × {heads} × {dim} × {bytes}",
                                         layers=("layers", f"{L70}.layers"), kv=("K and V", 2), heads=("query heads", f"{L70}.query_heads"),
                                         dim=("values per head", f"{L70}.head_dim"), bytes=("per value (BF16)", "precision.bf16.bytes")),
    "gqa.llama70b.factor": F("{q} ÷ {kv}", q=("query heads", f"{L70}.query_heads"), kv=("KV heads", f"{L70}.kv_heads")),
    "flops.llama70b.per_token": F("{two} × {params}", two=("FLOP per parameter", 2), params=("parameters", "params.llama70b.active")),
    "weights.llama70b.bytes": F("{params} × {bytes}", params=("parameters", "params.llama70b"), bytes=("per parameter (BF16)", "precision.bf16.bytes")),
    "step.llama70b.h100.compute_time": F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("BF16 peak", "device.h100.peak_bf16")),
    "step.llama70b.h100.compute_time_fp8": F("{flops} ÷ {peak}", flops=("per token", "flops.llama70b.per_token"), peak=("FP8 peak", "device.h100.peak_fp8")),
    "step.llama70b.h100.memory_time": F("{weights} ÷ {bw}", weights=("read per token", "weights.llama70b.read_per_token"), bw=("HBM bandwidth", "device.h100.bandwidth")),
    "ceiling.llama70b.h100.memory": F("{one} ÷ {t}", one=("token", 1), t=("memory time per token", "step.llama70b.h100.memory_time")),
    "ceiling.llama70b.h100.compute": F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time")),
    "ceiling.llama70b.h100.compute_fp8": F("{one} ÷ {t}", one=("token", 1), t=("compute time per token", "step.llama70b.h100.compute_time_fp8")),
    "ratio.llama70b.h100.memory_over_compute": F("{m} ÷ {c}", m=("memory time", "step.llama70b.h100.memory_time"),
                                                   c=("compute time", "step.llama70b.h100.compute_time")),
    "device.h100.ridge": F("{peak} ÷ {bw}", peak=("BF16 peak", "device.h100.peak_bf16"), bw=("HBM bandwidth", "device.h100.bandwidth")),
    "intensity.llama70b.batch1": F("{flops} ÷ {weights}", flops=("per token", "flops.llama70b.per_token"), weights=("read per token", "weights.llama70b.read_per_token")),
    "share.deepseek-v3.active": F("{active} ÷ {total}", active=("active parameters", "params.deepseek-v3.active"),
                                  total=("parameters in total", "params.deepseek-v3.total")),
    "sn40l.rack.sram": F("{socket} × {n}", socket=("per socket", "sn40l.socket.sram"), n=("sockets", "sn40l.rack.sockets")),
    "sn40l.rack.hbm": F("{socket} × {n}", socket=("per socket", "sn40l.socket.hbm"), n=("sockets", "sn40l.rack.sockets")),
    "sn40l.rack.ddr": F("{socket} × {n}", socket=("per socket", "sn40l.socket.ddr"), n=("sockets", "sn40l.rack.sockets")),
    "sn40l.node.ddr": F("{socket} × {n}", socket=("per socket", "sn40l.socket.ddr"), n=("sockets per node", "sn40l.node.sockets")),
    "sn40l.rack.hbm_bandwidth": F("{bw} × {n}", bw=("per socket", "device.sn40l.hbm_bandwidth"), n=("sockets", "sn40l.rack.sockets")),
    "ddr.sn40l-rack.over_deepseek-v3": F("{ddr} ÷ {w}", ddr=("DDR per rack", "sn40l.rack.ddr"), w=("of weights", "weights.deepseek-v3.bytes")),
    "ratio.sram.groq_over_h100": F("{sram} ÷ {hbm}", sram=("SRAM bandwidth", "device.groq-lpu.bandwidth"), hbm=("HBM bandwidth", "device.h100.bandwidth")),
    "ratio.sram.wse3_over_h100": F("{sram} ÷ {hbm}", sram=("SRAM bandwidth", "device.wse-3.bandwidth"), hbm=("HBM bandwidth", "device.h100.bandwidth")),
    "fit.deepseek-v3.reduction": F("{one} − {sn} ÷ {gpu}", one=("", 1), sn=("SN40L sockets", "fit.deepseek-v3.sn40l.devices"),
                                   gpu=("H100 GPUs", "fit.deepseek-v3.h100.devices")),
    "power.ratio_per_chip": F("({gpu} ÷ {gpus}) ÷ ({sn} ÷ {sockets})", gpu=("at most", "power.dgx-h100-rack"), gpus=("GPUs", "power.dgx-h100-rack.gpus"),
                              sn=("on average", "power.sn40l-rack"), sockets=("sockets", "sn40l.rack.sockets")),
    "energy.infercom-gpt-oss-120b.per_token": F("{p} ÷ {s}", p=("rack power", "power.sn40l-rack"), s=("measured", "measured.infercom-gpt-oss-120b")),
    "energy.infercom-minimax-m2.per_token": F("{p} ÷ {s}", p=("rack power", "power.sn40l-rack"), s=("measured", "measured.infercom-minimax-m2")),
    "agent.time.dataflow": F("{n} × ({ttft} + {tokens} ÷ {speed})", n=("calls", "agent.steps"), ttft=("to the first token", "agent.ttft"),
                             tokens=("tokens per call", "agent.tokens_per_step"), speed=("measured", "measured.infercom-minimax-m2")),
    "agent.ratio": F("{gpu} ÷ {df}", gpu=("on GPUs", "agent.time.gpu"), df=("on dataflow", "agent.time.dataflow")),
    "speed.e2e": F("{ttft} + {out} ÷ {speed}", ttft=("to the first token", "speed.ttft"), out=("output tokens", "speed.output"),
                   speed=("per request", "speed.per_request")),
    "speed.step_time": F("{one} ÷ {speed}", one=("token", 1), speed=("per request", "speed.per_request")),
    "speed.decode_time": F("{out} ÷ {speed}", out=("output tokens", "speed.output"), speed=("per request", "speed.per_request")),
    "speed.ttft_share": F("{ttft} ÷ {e2e}", ttft=("to the first token", "speed.ttft"), e2e=("end to end", "speed.e2e")),
    "speed.aggregate": F("{b} × {speed}", b=("requests in the batch", "speed.batch"), speed=("per request", "speed.per_request_batched")),
    "speed.aggregate_gain": F("{agg} ÷ {one}", agg=("for the batch", "speed.aggregate"), one=("at batch 1", "speed.per_request")),
    "speed.per_request_drop": F("{one} − {b} ÷ {s}", one=("", 1), b=("in the batch", "speed.per_request_batched"), s=("alone", "speed.per_request")),
}
_FORMULAS.update({
    "fit.llama70b.h100.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (BF16)", "weights.llama70b.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "claim.gpu.h100_needed_671b_fp8": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "fit.deepseek-v3.h100.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "fit.deepseek-v3.sn40l.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per socket", "sn40l.socket.hbm")),
    "fit.llama70b.groq-lpu.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (BF16)", "weights.llama70b.bytes"), mem=("SRAM per chip", "device.groq-lpu.sram")),
    "switch.gpt-oss-120b.sn40l-rack": F("{w} ÷ ({bw} × {n})", w=("of weights", "weights.gpt-oss-120b.bytes"),
                                        bw=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth"), n=("sockets", "sn40l.rack.sockets")),
    "switch.deepseek-v3.sn40l-rack": F("{w} ÷ ({bw} × {n})", w=("of weights", "weights.deepseek-v3.bytes"),
                                       bw=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth"), n=("sockets", "sn40l.rack.sockets")),
    "implied_bw.infercom-gpt-oss-120b": F("{w} × {s}", w=("read per token", "weights.gpt-oss-120b.read_per_token"),
                                          s=("measured", "measured.infercom-gpt-oss-120b")),
    "implied_bw_share.infercom-gpt-oss-120b": F("{need} ÷ {have}", need=("needed", "implied_bw.infercom-gpt-oss-120b"),
                                                have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth")),
    "headroom.infercom-gpt-oss-120b": F("{have} ÷ {need}", have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth"),
                                        need=("needed", "implied_bw.infercom-gpt-oss-120b")),
    "precision.bf16.bytes": F("{bits} ÷ {eight}", bits=("bits per BF16 value", 16), eight=("bits per byte", 8)),
})
_SPEED = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"), w=("read per token", "weights.llama70b.read_per_token"),
              ctx=("tokens of context each", "speed.prompt"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"))
_FORMULAS.update({
    "infercom.chips_from_racks": F("{racks} × {n}", racks=("racks", "infercom.racks"), n=("sockets per rack", "sn40l.rack.sockets")),
    "kv.llama70b.bytes_per_token_short": F("{x}", x=("", "kv.llama70b.bytes_per_token")),
    "speed.per_request": F("{n} × {bw} ÷ ({w} + {ctx} × {kv})", **_SPEED),
    "speed.per_request_batched": F("{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", b=("requests", "speed.batch"), **_SPEED),
    "speed.e2e_batched": F("{ttft} + {out} ÷ {speed}", ttft=("to the first token", "speed.ttft"), out=("output tokens", "speed.output"),
                           speed=("per request in the batch", "speed.per_request_batched")),
})
_FORMULAS.update({
    "weights.llama70b.read_per_token": F("({active} + {row}) × {bytes}", active=("parameters a token multiplies with", "params.llama70b.active"),
                                         row=("values in one embedding row", "model.llama70b.hidden"),
                                         bytes=("per parameter (BF16)", "precision.bf16.bytes")),
    "tp.llama70b.weights_per_gpu": F("{w} ÷ {n}", w=("of weights", "weights.llama70b.bytes"), n=("GPUs", "speed.devices")),
    "pp.llama70b.layers_per_gpu": F("{layers} ÷ {n}", layers=("layers", f"{L70}.layers"), n=("H100 GPUs", "fit.llama70b.h100.devices")),
    "ep.gpt-oss-120b.experts_per_gpu": F("{e} ÷ {n}", e=("experts per layer", "model.gpt-oss-120b.experts"), n=("GPUs", "speed.devices")),
    "device.h100.peak_bf16_sparse": F("{peak} × {group} ÷ {kept}", peak=("dense BF16 peak", "device.h100.peak_bf16"),
                                      group=("values per group", "sparsity.group"), kept=("may be non-zero", "sparsity.kept")),
    "precision.fp8.bytes": F("{bits} ÷ {eight}", bits=("bits per FP8 value", 8), eight=("bits per byte", 8)),
    "precision.mxfp4.bits": F("{four} + {scale} ÷ {block}", four=("bits per value", 4), scale=("bits of the shared scale", 8),
                              block=("values per block", 32)),
    "ratio.sn40l.hbm_over_ddr": F("{hbm} ÷ {ddr}", hbm=("HBM bandwidth per socket", "device.sn40l.hbm_bandwidth"),
                                  ddr=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth")),
    "implied_bw.infercom-minimax-m2": F("{w} × {s}", w=("read per token", "weights.minimax-m2.read_per_token"),
                                        s=("measured", "measured.infercom-minimax-m2")),
    "implied_bw_share.infercom-minimax-m2": F("{need} ÷ {have}", need=("needed", "implied_bw.infercom-minimax-m2"),
                                              have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth")),
    "implied_bw.sambanova-deepseek-r1": F("{w} × {s}", w=("read per token", "weights.deepseek-v3.read_per_token"),
                                          s=("measured", "measured.sambanova-deepseek-r1")),
    "implied_bw_share.sambanova-deepseek-r1": F("{need} ÷ {have}", need=("needed", "implied_bw.sambanova-deepseek-r1"),
                                                have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth")),
})
for _ctx in (8192, 32768, 131072):
    _FORMULAS[f"kv.llama70b.total_gib.{_ctx}"] = F("{per} × {ctx}", per=("per token", "kv.llama70b.bytes_per_token"),
                                                   ctx=("tokens", f"context.{_ctx}"))
for _b in (1, 8, 32, 64, 128):
    _FORMULAS[f"batch.llama70b.per_request.{_b}"] = F(
        "{n} × {bw} ÷ ({w} + {b} × {ctx} × {kv})", n=("GPUs", "batch.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
        w=("read per token", "weights.llama70b.read_per_token"), b=("requests", f"batch.size.{_b}"), ctx=("tokens of context each", "batch.context"),
        kv=("KV cache per token", "kv.llama70b.bytes_per_token"))
    _FORMULAS[f"batch.llama70b.aggregate.{_b}"] = F("{b} × {speed}", b=("requests", f"batch.size.{_b}"),
                                                     speed=("per request", f"batch.llama70b.per_request.{_b}"))
for _ctx in (8192, 32768, 131072):
    _FORMULAS[f"kv.llama70b.total.{_ctx}"] = F("{per} × {ctx}", per=("per token", "kv.llama70b.bytes_per_token"),
                                               ctx=("tokens", f"context.{_ctx}"))


# === deployment model in the prose and the measurements table (issue 9 parts 4 and 5; helper h/prose) ===
# Kept as one block so that it merges cleanly beside other additions to _FORMULAS.
# Not given a formula object (their formula text says it): ranges (the formula
# checker takes single values), the largest batch (a floor), the utilisation at
# that batch, and each row's expected speed (efficiency, messages and speculation
# differ per row).
_DEP70 = "deploy.llama70b.h100x8"
_FORMULAS.update({
    f"{_DEP70}.allreduces": F("{two} × {layers}", two=("all-reduces per layer", 2), layers=("layers", f"{L70}.layers")),
    f"{_DEP70}.comm_time": F("{n} × ({b} ÷ {bw} + {lat})", n=("all-reduces", f"{_DEP70}.allreduces"), b=("per GPU each", f"{_DEP70}.allreduce_bytes"),
                             bw=("NVLink bandwidth", "interconnect.nvlink4.bandwidth"), lat=("latency per message", "interconnect.nvlink4.latency")),
    f"{_DEP70}.ceiling": F("{bw} ÷ {b}", bw=("HBM bandwidth", "device.h100.bandwidth"), b=("per GPU and token", f"{_DEP70}.bytes_per_gpu")),
    f"{_DEP70}.expected": F("{one} ÷ ({b} ÷ ({bw} × {eff}) + {comm})", one=("token", 1), b=("per GPU and token", f"{_DEP70}.bytes_per_gpu"),
                            bw=("HBM bandwidth", "device.h100.bandwidth"), eff=("achieved", "efficiency.default"),
                            comm=("all-reduces", f"{_DEP70}.comm_time")),
    f"{_DEP70}.allreduce_bytes": F("{two} × ({n} − {one}) ÷ {n} × {hidden} × {bytes}", two=("", 2), one=("", 1), n=("GPUs", "speed.devices"),
                                   hidden=("values per token", f"{L70}.hidden"), bytes=("per value (BF16)", "precision.bf16.bytes")),
    "engine.reserve": F("{one} − {u}", one=("", 1), u=("usable", "engine.vllm.usable")),
    "fit.deepseek-v3.h100.deployable": F("⌈⌈{held} ÷ ({mem} × {u})⌉ ÷ {node}⌉ × {node}", held=("to hold", "deploy.deepseek-v3.held_8k"),
                                         mem=("HBM per GPU", "device.h100.memory"), u=("usable", "engine.vllm.usable"),
                                         node=("GPUs per node", "node.h100.gpus")),
    "fit.deepseek-v3.sn40l.deployable": F("⌈⌈{held} ÷ {mem}⌉ ÷ {node}⌉ × {node}", held=("to hold", "deploy.deepseek-v3.held_8k"),
                                          mem=("HBM per socket", "sn40l.socket.hbm"), node=("sockets per node", "sn40l.node.sockets")),
    "fit.deepseek-v3.reduction_deployable": F("{one} − {sn} ÷ {gpu}", one=("", 1), sn=("SN40L sockets", "fit.deepseek-v3.sn40l.deployable"),
                                              gpu=("H100 GPUs", "fit.deepseek-v3.h100.deployable")),
    "util.llama70b.limit_8k": F("({f} ÷ {peak}) ÷ ({ctx} × {kv} ÷ {bw})", f=("per token", "flops.llama70b.per_token_8k"),
                                peak=("BF16 peak", "device.h100.peak_bf16"), ctx=("tokens", "context.8192"),
                                kv=("KV cache per token", "kv.llama70b.bytes_per_token"), bw=("HBM bandwidth", "device.h100.bandwidth")),
})


def _row_formulas() -> dict:
    """Each measurement row's ceiling (and, for a single measured value, its ratio)."""
    from .catalog import load
    from .serving import load as load_serving
    out = {}
    for key, m in list(load().measurements.items()) + list(load_serving().measurements.items()):
        out[f"row.{key}.ceiling"] = F("{bw} ÷ {b}", bw=("bandwidth per device", f"row.{key}.bandwidth"), b=("per device chain and token", f"row.{key}.streamed"))
        if m.low == m.high:
            out[f"row.{key}.ratio"] = F("{m} ÷ {c}", m=("measured", f"row.{key}.measured"), c=("ceiling", f"row.{key}.ceiling"))
    return out


_FORMULAS.update(_row_formulas())
# === end of the deployment-model block ===
# Ranges: a ranged term makes the formula a range (both substitutions are shown); `end` reads one end.
for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    _FORMULAS[f"speedup.{_mk}.vs_typical"] = F("{v} ÷ {gpu}", v=("measured", f"measured.{_mk}"),
                                                gpu=("typical on GPUs", "typical_gpu_serving"))
for _key, _gpu in (("gpt-oss-120b", "aa-gpu-gpt-oss-120b"), ("minimax-m2", "gpu-minimax-m2")):
    _FORMULAS[f"speedup.{_key}.vs_gpu_measured"] = F("{v} ÷ {gpu}", v=("Infercom, measured", f"measured.infercom-{_key}"),
                                                      gpu=("measured on GPUs", f"measured.{_gpu}"))
_FORMULAS.update({
    "power.ratio": F("{gpu} ÷ {sn}", gpu=("GPU rack", "power.gpu-rack"), sn=("SN40L rack", "power.sn40l-rack")),
    "agent.time.gpu": F("{n} × ({ttft} + {tokens} ÷ {speed})", n=("calls", "agent.steps"), ttft=("to the first token", "agent.ttft"),
                        tokens=("tokens per call", "agent.tokens_per_step"), speed=("fastest GPU route", "measured.gpu-minimax-m2", "high")),
})

# Sums over mixed per-layer specs: one term per attention kind or precision group (calculators/figure_terms.py).
_GPT_KV = dict(full=("layers with full attention", "model.gpt-oss-120b.layers_full"),
               sliding=("sliding-window layers", "model.gpt-oss-120b.layers_sliding"),
               per=("per layer", "kv.gpt-oss-120b.bytes_per_token_layer"))
_B2, _BITS8 = ("per value (BF16)", "precision.bf16.bytes"), ("bits per byte", 8)
_MX, _FP8 = ("bits per MXFP4 value", "precision.mxfp4.bits"), ("bits per FP8 value with block scales", "precision.fp8_b128.bits")
_FORMULAS.update({
    "kv.llama70b.bytes_per_token_long": _FORMULAS["kv.llama70b.bytes_per_token"],
    "kv.deepseek-v3.bytes_per_token_long": F("{layers} × ({latent} + {rope}) × {bytes}", layers=("layers", "model.deepseek-v3.layers"),
                                             latent=("values of the latent", "model.deepseek-v3.kv_lora_rank"),
                                             rope=("values of the RoPE key", "model.deepseek-v3.rope_dim"), bytes=_B2),
    "kv.gpt-oss-120b.bytes_per_token_long": F("{full} × {per} + {sliding} × {none}", none=("bytes once the window is full", 0), **_GPT_KV),
    "kv.gpt-oss-120b.bytes_per_token_short": F("{full} × {per} + {sliding} × {per}", **_GPT_KV),
    "kv.gpt-oss-120b.bytes_per_token_layer": F("{kv} × {heads} × {dim} × {bytes}", kv=("K and V", 2),
                                               heads=("KV heads", "model.gpt-oss-120b.kv_heads"),
                                               dim=("values per head", "model.gpt-oss-120b.head_dim"), bytes=_B2),
    "weights.gpt-oss-120b.bytes": F("{bf16} × {b2} + {mx} × {bits} ÷ {eight}", bf16=("parameters in BF16", "params.gpt-oss-120b.bf16"),
                                    b2=_B2, mx=("parameters in MXFP4", "params.gpt-oss-120b.mxfp4"), bits=_MX, eight=_BITS8),
    "weights.gpt-oss-120b.read_per_token": F("{bf16} × {b2} + {mx} × {bits} ÷ {eight}",
                                             bf16=("parameters in BF16", "params.gpt-oss-120b.read.bf16"), b2=_B2,
                                             mx=("parameters in MXFP4", "params.gpt-oss-120b.read.mxfp4"), bits=_MX, eight=_BITS8),
    "weights.gpt-oss-120b.bytes_bf16": F("({bf16} + {mx}) × {b2}", bf16=("parameters in BF16", "params.gpt-oss-120b.bf16"),
                                         mx=("parameters in MXFP4", "params.gpt-oss-120b.mxfp4"), b2=_B2),
    "weights.deepseek-v3.bytes": F("{bf16} × {b2} + {fp8} × {bits} ÷ {eight}", bf16=("parameters in BF16", "params.deepseek-v3.bf16"),
                                   b2=_B2, fp8=("parameters in FP8", "params.deepseek-v3.fp8"), bits=_FP8, eight=_BITS8),
    "weights.deepseek-v3.read_per_token": F("{bf16} × {b2} + {fp8} × {bits} ÷ {eight}",
                                            bf16=("parameters in BF16", "params.deepseek-v3.read.bf16"), b2=_B2,
                                            fp8=("parameters in FP8", "params.deepseek-v3.read.fp8"), bits=_FP8, eight=_BITS8),
    "weights.minimax-m2.read_per_token": F("{bf16} × {b2} + {fp32} × {b4} + {fp8} × {bits} ÷ {eight}",
                                           bf16=("parameters in BF16", "params.minimax-m2.read.bf16"), b2=_B2,
                                           fp32=("parameters in FP32 (the router)", "params.minimax-m2.read.fp32"),
                                           b4=("bytes per FP32 value", 4),
                                           fp8=("parameters in FP8", "params.minimax-m2.read.fp8"), bits=_FP8, eight=_BITS8),
    "precision.gpt-oss-120b.experts_bits": F("{mx}", mx=_MX),
    "precision.deepseek-v3.bits": F("{fp8}", fp8=_FP8),
    "precision.fp8_b128.bits": F("{eight} + {scale} ÷ ({side} × {side})", eight=("bits per FP8 value", 8),
                                 scale=("bits of the FP32 scale", 32), side=("values per block side", 128)),
    "params.llama70b.active": F("{total} − {vocab} × {row}", total=("parameters", "params.llama70b"),
                                vocab=("rows of the embedding table", "model.llama70b.vocab"),
                                row=("values per row", "model.llama70b.hidden")),
})

# Roofline steps: the slower of memory time and compute time sets the pace, max(…, …).
_ACT, _ROW = ("parameters a token multiplies with", "params.llama70b.active"), ("values in one embedding row", "model.llama70b.hidden")
_STEP = dict(n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth"),
             kv=("KV cache per token", "kv.llama70b.bytes_per_token"), flops=("per token", "flops.llama70b.per_token"))
_ATTN = {"speed.prompt": S.SPEED_PROMPT, f"context.{S.CONTEXTS[0]}": S.CONTEXTS[0]}   # context figure -> its tokens
for _ctx_fig, _n in _ATTN.items():
    _FORMULAS[f"flops.llama70b.attention.{_n}"] = F(
        "{layers} × {four} × {heads} × {dim} × {ctx}", layers=("layers", f"{L70}.layers"),
        four=("FLOP per value and cached token", 4), heads=("query heads", f"{L70}.query_heads"),
        dim=("values per head", f"{L70}.head_dim"), ctx=("tokens of context", _ctx_fig))
for _stem, _b, _ctx, _bytes, _peak in (
        ("speed", None, "speed.prompt", _B2, ("BF16 peak each", "device.h100.peak_bf16")),
        ("speed.fp8", None, "speed.prompt", ("per value (FP8)", "precision.fp8.bytes"), ("FP8 peak each", "device.h100.peak_fp8")),
        ("util.llama70b.batch1", None, f"context.{S.CONTEXTS[0]}", _B2, ("BF16 peak each", "device.h100.peak_bf16")),
        ("util.llama70b.batch_large", f"batch.size.{S.UTIL_BATCH}", f"context.{S.CONTEXTS[0]}", _B2, ("BF16 peak each", "device.h100.peak_bf16"))):
    _ctx_term = dict(ctx=("tokens of context each", _ctx), attn=("for attention", f"flops.llama70b.attention.{_ATTN[_ctx]}"))
    if _b:
        _FORMULAS[f"{_stem}.memory_time"] = F("(({act} + {b} × {row}) × {bytes} + {b} × {ctx} × {kv}) ÷ ({n} × {bw})",
                                             b=("requests", _b), act=_ACT, row=_ROW, bytes=_bytes, **_ctx_term, **_STEP)
        _FORMULAS[f"{_stem}.compute_time"] = F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=("requests", _b), peak=_peak,
                                              **_ctx_term, **_STEP)
    else:
        _FORMULAS[f"{_stem}.memory_time"] = F("(({act} + {row}) × {bytes} + {ctx} × {kv}) ÷ ({n} × {bw})",
                                             act=_ACT, row=_ROW, bytes=_bytes, **_ctx_term, **_STEP)
        _FORMULAS[f"{_stem}.compute_time"] = F("({flops} + {attn}) ÷ ({n} × {peak})", peak=_peak, **_ctx_term, **_STEP)
_SIDES = lambda stem: dict(m=("memory time", f"{stem}.memory_time"), c=("compute time", f"{stem}.compute_time"))  # noqa: E731
_FORMULAS.update({
    "speed.per_request_fp8": F("{one} ÷ max({m}, {c})", one=("token", 1), **_SIDES("speed.fp8")),
    "speed.util": F("{c} ÷ max({m}, {c})", **_SIDES("speed")),
    "util.llama70b.batch1": F("{c} ÷ max({m}, {c})", **_SIDES("util.llama70b.batch1")),
    "util.llama70b.batch_large": F("{c} ÷ max({m}, {c})", **_SIDES("util.llama70b.batch_large")),
    "speed.ttft": F("max({c}, {m})", c=("compute time of the prompt", "speed.ttft.compute"), m=("memory time", "speed.ttft.memory")),
    "speed.ttft.compute": F("({p} × {flops} + {attn} × ({p} + {one}) ÷ {two}) ÷ ({n} × {peak})", p=("prompt tokens", "speed.prompt"),
                            one=("", 1), two=("", 2), attn=("for attention at the full prompt", f"flops.llama70b.attention.{S.SPEED_PROMPT}"),
                            peak=("BF16 peak each", "device.h100.peak_bf16"), **{k: v for k, v in _STEP.items() if k != "kv"}),
    "speed.ttft.memory": F("({act} + {p} × {row}) × {bytes} ÷ ({n} × {bw})", act=_ACT, p=("prompt tokens", "speed.prompt"), row=_ROW,
                           bytes=_B2, n=_STEP["n"], bw=_STEP["bw"]),
    "intensity.llama70b.batch.64": F("{b} × {flops} ÷ (({act} + {b} × {row}) × {bytes})", b=("requests", "batch.size.64"),
                                     flops=_STEP["flops"], act=_ACT, row=_ROW, bytes=_B2),
})


def for_figure(fig_id: str) -> Formula | None:
    """The figure's formula object, or None where the figure is a catalog datum or an assumption itself."""
    return _FORMULAS.get(fig_id)


def all_formulas() -> dict:
    return dict(_FORMULAS)
