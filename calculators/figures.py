"""The registry of named figures: every number the site prints comes from here.

A figure has a stable id, a value computed by the model (or read from the
catalog), a unit kind and a rounding rule (both part of its definition, not of
the page), a formula a reader can follow, and the catalog entries it reads.
Pages call figures by id; the sources page lists them; the checks compare
them against prose and claims.

To add a figure: write a small function of the catalog under `@figure(...)`
below, in the section of the page that needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import fmt
from . import precision
from .figure_terms import DEFINITIONS as _TERM_DEFINITIONS
from . import model as M
from . import scenarios as S
from .catalog import Catalog, load


@dataclass(frozen=True)
class Figure:
    id: str
    value: float | tuple          # a number, or (low, high) for a range
    kind: str                     # unit kind understood by fmt.format_quantity, or "percent", "words"
    formula: str
    inputs: tuple                 # catalog entries read, e.g. "models.llama-3.1-70b"
    sig: int | None = 3
    decimals: int | None = None
    unit: str | None = None       # force one unit (e.g. "B" for an exact byte count)

    @property
    def is_range(self) -> bool:
        return isinstance(self.value, tuple)

    def format(self, locale: str) -> str:
        """The figure as a reader of `locale` sees it, unit included."""
        if self.is_range:
            return self._format_range(locale)
        return self._format_one(self.value, locale)

    def _format_one(self, value: float, locale: str) -> str:
        if self.kind == "words":
            return fmt.format_count_words(int(value), locale)
        if self.kind == "percent":
            return fmt.format_percent(value, locale, decimals=self.decimals or 0)
        return fmt.format_quantity(value, self.kind, locale, sig=self.sig, decimals=self.decimals, unit=self.unit)

    def _format_range(self, locale: str) -> str:
        """'49–71 tok/s': both ends in the unit the upper end scales to, the unit once."""
        low, high = self.value
        if self.kind in ("words", "percent", "count", "tokens"):
            return fmt.format_range(self._format_one(low, locale), self._format_one(high, locale), locale)
        high_text = self._format_one(high, locale)
        if fmt.NBSP not in high_text:  # unit glued to the number (ratios, params)
            return fmt.format_range(self._format_one(low, locale), high_text, locale)
        number_high, unit = high_text.rsplit(fmt.NBSP, 1)
        low_text = fmt.format_quantity(low, self.kind, locale, sig=self.sig, decimals=self.decimals, unit=unit)
        return fmt.format_range(low_text.rsplit(fmt.NBSP, 1)[0], number_high, locale) + fmt.NBSP + unit


_DEFINITIONS = []


def figure(id, kind, formula, inputs=(), sig=3, decimals=None, unit=None):
    """Register a figure computed by the decorated function of the catalog."""

    def wrap(fn):
        _DEFINITIONS.append((id, kind, formula, tuple(inputs), sig, decimals, unit, fn))
        return fn

    return wrap


@lru_cache(maxsize=1)
def registry() -> dict:
    """All figures, computed once per process (four language builds share them)."""
    return build(load())


def build(cat: Catalog) -> dict:
    """Compute every registered figure from a catalog (tests pass altered ones)."""
    out = {}
    for id, kind, formula, inputs, sig, decimals, unit, fn in _DEFINITIONS:
        if id in out:
            raise ValueError(f"figure id {id!r} is defined twice")
        out[id] = Figure(id, fn(cat), kind, formula, inputs, sig, decimals, unit)
    return out


def get(id: str) -> Figure:
    try:
        return registry()[id]
    except KeyError:
        raise KeyError(f"unknown figure id {id!r}") from None


# Short names for catalog records used below.
L70, GPT, MM, DS3 = "llama-3.1-70b", "gpt-oss-120b", "minimax-m2", "deepseek-v3"
M_L70, M_GPT, M_MM, M_DS3 = (f"models.{k}" for k in (L70, GPT, MM, DS3))
H100, SN40L = "h100-sxm", "sn40l"
D_H100, D_SN40L, R_SN = "devices.h100-sxm", "devices.sn40l", "racks.sn40l-16"


def _meas(cat, key):
    m = cat.measurements[key]
    return m.low if m.low == m.high else (m.low, m.high)


def _datum(cat, key):
    d = cat.data[key]
    return d.low if d.low == d.high else (d.low, d.high)


def _step70(cat, precision="bf16", **kw):
    return M.decode_step(cat.models[L70], cat.devices[H100], compute_precision=precision, **kw)


# ------------------------------------------------------------- headline

# ------------------------------------------------- section 2: KV cache size

@figure("kv.llama70b.bytes_per_token", "bytes", "layers × 2 (K and V) × KV heads × head dimension × bytes per value (BF16: 2)", [M_L70], sig=None, decimals=0, unit="B")
def _(c): return M.kv_bytes_per_token(c.models[L70], "bf16")


@figure("kv.llama70b.bytes_per_token_short", "bytes", "the same, in kilobytes", [M_L70])
def _(c): return M.kv_bytes_per_token(c.models[L70], "bf16")


@figure("model.llama70b.layers", "count", "catalog: layers", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].layers


@figure("model.llama70b.kv_heads", "count", "catalog: KV heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].kv_heads


@figure("model.llama70b.head_dim", "count", "catalog: head dimension", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].head_dim


for _ctx in S.CONTEXTS:
    @figure(f"context.{_ctx}", "tokens", "context length in tokens (1K = 1,024)", [], sig=None, decimals=0)
    def _(c, n=_ctx): return n

    @figure(f"kv.llama70b.total.{_ctx}", "bytes", "KV bytes per token × context tokens", [M_L70])
    def _(c, n=_ctx): return M.kv_bytes(c.models[L70], n)

    @figure(f"kv.llama70b.total_gib.{_ctx}", "bytes", "the same total in binary gibibytes (2^30 bytes)", [M_L70], unit="GiB")
    def _(c, n=_ctx): return M.kv_bytes(c.models[L70], n)


# ------------------------------------- section 3: one decode step on one GPU

@figure("flops.llama70b.per_token", "flop", "2 × active parameters", [M_L70])
def _(c): return M.flops_per_token_weights(c.models[L70])


@figure("params.llama70b", "params", "catalog: parameters", [M_L70])
def _(c): return c.models[L70].total_params


@figure("params.llama70b.active", "params", "parameters a token multiplies with: all but the input embedding table", [M_L70])
def _(c): return c.models[L70].active_params


@figure("device.h100.peak_bf16", "flop_per_s", "datasheet: dense BF16 peak", [D_H100], sig=None, decimals=0, unit="TFLOP/s")
def _(c): return c.devices[H100].peak_flops["bf16"]


@figure("device.h100.peak_fp8", "flop_per_s", "datasheet: dense FP8 peak", [D_H100], sig=None, decimals=0, unit="TFLOP/s")
def _(c): return c.devices[H100].peak_flops["fp8"]


@figure("device.h100.bandwidth", "bytes_per_s", "datasheet: HBM bandwidth", [D_H100])
def _(c): return c.devices[H100].serving.bytes_per_s


@figure("device.h100.memory", "bytes", "datasheet: HBM capacity", [D_H100], sig=None, decimals=0)
def _(c): return c.devices[H100].serving.bytes


@figure("step.llama70b.h100.compute_time", "seconds", "FLOP per token ÷ dense BF16 peak", [M_L70, D_H100])
def _(c): return _step70(c).compute_s


@figure("step.llama70b.h100.compute_time_fp8", "seconds", "FLOP per token ÷ dense FP8 peak", [M_L70, D_H100])
def _(c): return _step70(c, "fp8").compute_s


@figure("weights.llama70b.bytes", "bytes", "parameters × 2 bytes (BF16)", [M_L70])
def _(c): return M.weight_bytes_stored(c.models[L70])


@figure("weights.llama70b.read_per_token", "bytes", "bytes read per token: every tensor but the input embedding table, of which one row (BF16)", [M_L70])
def _(c): return M.weight_bytes_read(c.models[L70], 1)


@figure("step.llama70b.h100.memory_time", "seconds", "weight bytes ÷ HBM bandwidth", [M_L70, D_H100])
def _(c): return _step70(c).weights_s


@figure("ceiling.llama70b.h100.compute", "tok_per_s", "1 ÷ compute time (BF16 peak)", [M_L70, D_H100], sig=2)
def _(c): return 1.0 / _step70(c).compute_s


@figure("ceiling.llama70b.h100.compute_fp8", "tok_per_s", "1 ÷ compute time (FP8 peak)", [M_L70, D_H100], sig=2)
def _(c): return 1.0 / _step70(c, "fp8").compute_s


@figure("ceiling.llama70b.h100.memory", "tok_per_s", "1 ÷ memory time", [M_L70, D_H100], sig=3)
def _(c): return _step70(c).tokens_per_s


@figure("ratio.llama70b.h100.memory_over_compute", "ratio", "memory time ÷ compute time", [M_L70, D_H100], sig=None, decimals=0)
def _(c):
    s = _step70(c)
    return s.weights_s / s.compute_s


@figure("fit.llama70b.h100.devices", "count", "fewest H100 whose HBM holds the BF16 weights", [M_L70, D_H100], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[L70], c.devices[H100])


# ------------------------------------------------ section 4: mixture of experts

@figure("params.deepseek-v3.total", "params", "catalog: total parameters", [M_DS3])
def _(c): return c.models[DS3].total_params


@figure("params.deepseek-v3.active", "params", "catalog: active parameters per token", [M_DS3], sig=2)
def _(c): return c.models[DS3].active_params


@figure("share.deepseek-v3.active", "percent", "active ÷ total parameters", [M_DS3], decimals=1)
def _(c): return c.models[DS3].active_params / c.models[DS3].total_params


for _key, _m in (("llama70b", L70), ("deepseek-v3", DS3), ("gpt-oss-120b", GPT)):
    @figure(f"kv.{_key}.bytes_per_token_long", "bytes", "KV bytes one more token adds at long context (BF16 cache)", [f"models.{_m}"])
    def _(c, m=_m): return M.kv_bytes_per_token(c.models[m], "bf16")


@figure("kv.gpt-oss-120b.bytes_per_token_short", "bytes", "KV bytes per token while the context fits the sliding window (all layers grow)", [M_GPT])
def _(c): return M.kv_bytes_per_token(c.models[GPT], "bf16", context=1)


@figure("model.gpt-oss-120b.window", "tokens", "catalog: sliding window", [M_GPT], sig=None, decimals=0)
def _(c): return c.models[GPT].sliding_window


# ----------------------------------------------------- section 5: batching

for _b in S.BATCHES:
    @figure(f"batch.llama70b.per_request.{_b}", "tok_per_s", "1 ÷ step time at batch B", [M_L70, D_H100])
    def _(c, b=_b): return M.decode_step(c.models[L70], c.devices[H100], devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT).tokens_per_s

    @figure(f"batch.llama70b.aggregate.{_b}", "tok_per_s", "B ÷ step time at batch B", [M_L70, D_H100])
    def _(c, b=_b): return M.decode_step(c.models[L70], c.devices[H100], devices=S.BATCH_DEVICES, batch=b, context=S.BATCH_CONTEXT).aggregate_tokens_per_s

    @figure(f"batch.size.{_b}", "count", "batch size", [], sig=None, decimals=0)
    def _(c, b=_b): return b


@figure("batch.devices", "count", "GPUs in the tensor-parallel group", [], sig=None, decimals=0)
def _(c): return S.BATCH_DEVICES


@figure("batch.context", "tokens", "context per request", [], sig=None, decimals=0)
def _(c): return S.BATCH_CONTEXT


# ---------------------------------------------------- section 6: dataflow

@figure("dataflow.differences", "words", "number of architectural differences listed", [], sig=None)
def _(c): return len(S.DATAFLOW_DIFFERENCES)


for _tier in ("SRAM", "HBM", "DDR"):
    @figure(f"sn40l.socket.{_tier.lower()}", "bytes", f"datasheet: {_tier} per socket", [D_SN40L], sig=2)
    def _(c, t=_tier): return c.devices[SN40L].tier(t).bytes

    @figure(f"sn40l.rack.{_tier.lower()}", "bytes", f"{_tier} per socket × sockets per rack", [D_SN40L, R_SN])
    def _(c, t=_tier): return M.tier_total(c.devices[SN40L], t, c.racks["sn40l-16"].count)["bytes"]


@figure("sn40l.rack.sockets", "count", "catalog: sockets per rack", [R_SN], sig=None, decimals=0)
def _(c): return c.racks["sn40l-16"].count


@figure("sn40l.rack.hbm_bandwidth", "bytes_per_s", "HBM bandwidth per socket × sockets", [D_SN40L, R_SN])
def _(c): return M.tier_total(c.devices[SN40L], "HBM", c.racks["sn40l-16"].count)["bytes_per_s"]


for _key, _m in (("gpt-oss-120b", GPT), ("deepseek-v3", DS3)):
    @figure(f"switch.{_key}.sn40l-rack", "seconds", "weight bytes ÷ (DDR bandwidth per socket × sockets)", [f"models.{_m}", D_SN40L, R_SN])
    def _(c, m=_m): return M.switch_time(c.models[m], c.devices[SN40L], c.racks["sn40l-16"].count, "DDR")

    @figure(f"weights.{_key}.bytes", "bytes", "Σ weight groups × bytes per parameter at each group's precision", [f"models.{_m}"])
    def _(c, m=_m): return M.weight_bytes_stored(c.models[m])


@figure("fit.deepseek-v3.h100.devices", "count", "fewest H100 whose HBM holds the FP8 weights", [M_DS3, D_H100], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[DS3], c.devices[H100])


@figure("fit.deepseek-v3.sn40l.devices", "count", "fewest SN40L sockets whose HBM holds the FP8 weights", [M_DS3, D_SN40L], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[DS3], c.devices[SN40L])


@figure("fit.deepseek-v3.reduction", "percent", "1 − SN40L sockets ÷ H100 GPUs (negative: more chips)", [M_DS3, D_H100, D_SN40L], decimals=0)
def _(c): return 1 - M.min_devices(c.models[DS3], c.devices[SN40L]) / M.min_devices(c.models[DS3], c.devices[H100])


# -------------------------------------------------- section 7: measured numbers

for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2", "sambanova-deepseek-r1", "aa-gpu-gpt-oss-120b",
            "aa-sambanova-gpt-oss-120b", "aa-sambanova-minimax-m2", "aa-cerebras-gpt-oss-120b", "gpu-minimax-m2",
            "aa-gpu-llama-3.1-70b"):
    @figure(f"measured.{_mk}", "tok_per_s", "published measurement", [f"measurements.{_mk}"], sig=None, decimals=0)
    def _(c, k=_mk): return _meas(c, k)


for _key, _m in (("minimax-m2", "minimax-m2"), ("deepseek-v3", DS3)):
    @figure(f"weights.{_key}.read_per_token", "bytes", "Σ tensor groups read per token × bytes per parameter at each group's precision (batch 1)", [f"models.{_m}"])
    def _(c, m=_m): return M.weight_bytes_read(c.models[m], 1)


@figure("model.llama70b.hidden", "count", "catalog: hidden size (values in one embedding row)", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].hidden


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2", "sambanova-deepseek-r1"):
    @figure(f"implied_bw.{_mk}", "bytes_per_s", "weight bytes read per token × measured tokens per second (batch 1)", [f"measurements.{_mk}"])
    def _(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high)

    @figure(f"implied_bw_share.{_mk}", "percent", "implied bandwidth ÷ HBM bandwidth of the rack", [f"measurements.{_mk}", D_SN40L, R_SN], decimals=0)
    def _(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high) / M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"]


@figure("typical_gpu_serving", "tok_per_s", "industry rule of thumb", ["data.typical-gpu-serving-tok-s"], sig=None, decimals=0)
def _(c): return _datum(c, "typical-gpu-serving-tok-s")


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    @figure(f"speedup.{_mk}.vs_typical", "ratio", "measured speed ÷ typical GPU range (upper to lower end)", [f"measurements.{_mk}", "data.typical-gpu-serving-tok-s"], sig=3)
    def _(c, k=_mk):
        lo, hi = _datum(c, "typical-gpu-serving-tok-s")
        v = c.measurements[k].high
        return (v / hi, v / lo)


@figure("speedup.gpt-oss-120b.vs_gpu_measured", "ratio", "Infercom speed ÷ measured GPU range (high to low)", ["measurements.infercom-gpt-oss-120b", "measurements.aa-gpu-gpt-oss-120b"], sig=3)
def _(c):
    g = c.measurements["aa-gpu-gpt-oss-120b"]
    v = c.measurements["infercom-gpt-oss-120b"].high
    return (v / g.high, v / g.low)


@figure("speedup.minimax-m2.vs_gpu_measured", "ratio", "Infercom speed ÷ measured GPU range (high to low)", ["measurements.infercom-minimax-m2", "measurements.gpu-minimax-m2"], sig=3)
def _(c):
    g = c.measurements["gpu-minimax-m2"]
    v = c.measurements["infercom-minimax-m2"].high
    return (v / g.high, v / g.low)


# ------------------------------------------------------------ section 8: energy

@figure("power.sn40l-rack", "watts", "catalog: average rack power", [R_SN], sig=2)
def _(c): return c.racks["sn40l-16"].power_w


@figure("power.gpu-rack", "watts", "catalog: GPU rack power", ["data.gpu-rack-power-w"], sig=2)
def _(c): return _datum(c, "gpu-rack-power-w")


@figure("power.dgx-h100-rack", "watts", "catalog: power of a rack of DGX H100 systems at maximum", ["racks.dgx-h100-x4"], sig=2)
def _(c): return c.racks["dgx-h100-x4"].power_w


@figure("claimed.utilisation.decode", "percent", "as claimed (catalog): GPU utilization during decode", ["data.decode-gpu-utilisation"], decimals=0)
def _(c): return _datum(c, "decode-gpu-utilisation")


@figure("claimed.utilisation.prefill", "percent", "as claimed (catalog): GPU utilization during prefill, at least", ["data.prefill-gpu-utilisation"], decimals=0)
def _(c): return _datum(c, "prefill-gpu-utilisation")


@figure("infercom.racks", "count", "catalog: SN40L racks Infercom runs", ["data.infercom-racks"], sig=None, decimals=0)
def _(c): return _datum(c, "infercom-racks")


@figure("infercom.chips", "count", "catalog: SN40L chips Infercom runs", ["data.infercom-chips"], sig=None, decimals=0)
def _(c): return _datum(c, "infercom-chips")


@figure("power.ratio", "ratio", "GPU rack power ÷ SN40L rack power", ["data.gpu-rack-power-w", R_SN], sig=2)
def _(c):
    lo, hi = _datum(c, "gpu-rack-power-w")
    p = c.racks["sn40l-16"].power_w
    return (lo / p, hi / p)


def _bits_of_group(m, group: str | None = None) -> float:
    """Bits per parameter the released checkpoint stores for a weight group (the first group if none is named)."""
    g = next(g for g in m.weights if group is None or g.group == group)
    return precision.bytes_per_value(g.precision) * 8


@figure("precision.gpt-oss-120b.experts_bits", "bits", "bits per parameter of the released expert weights (MXFP4 with block scales)", [M_GPT], sig=3)
def _(c): return _bits_of_group(c.models[GPT], "experts")


@figure("precision.deepseek-v3.bits", "bits", "bits per parameter of the released weights (FP8)", [M_DS3], sig=None, decimals=0)
def _(c): return _bits_of_group(c.models[DS3], "experts")


@figure("power.ratio_per_chip", "ratio", "(DGX H100 rack power ÷ its GPUs) ÷ (SN40L rack power ÷ its sockets)", ["racks.dgx-h100-x4", R_SN], sig=2)
def _(c):
    gpu, sn = c.racks["dgx-h100-x4"], c.racks["sn40l-16"]
    return (gpu.power_w / gpu.count) / (sn.power_w / sn.count)


@figure("sn40l.node.sockets", "count", "scenario: sockets per SN40L node", [], sig=None, decimals=0)
def _(c): return S.SN40L_NODE_SOCKETS


@figure("sn40l.node.ddr", "bytes", "DDR per socket × sockets per node (one SN40L node)", [D_SN40L], sig=2)
def _(c): return M.tier_total(c.devices[SN40L], "DDR", S.SN40L_NODE_SOCKETS)["bytes"]


@figure("power.dgx-h100-rack.gpus", "count", "catalog: GPUs in the DGX H100 rack", ["racks.dgx-h100-x4"], sig=None, decimals=0)
def _(c): return c.racks["dgx-h100-x4"].count


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    @figure(f"energy.{_mk}.per_token", "joules", "rack power ÷ measured tokens per second (one request at a time)", [R_SN, f"measurements.{_mk}"])
    def _(c, k=_mk): return M.energy_per_token(c.racks["sn40l-16"].power_w, c.measurements[k].high)


# ---------------------------------------------------- section 9: agent loop

@figure("agent.steps", "count", "scenario: model calls in the loop", [], sig=None, decimals=0)
def _(c): return S.AGENT_STEPS


@figure("agent.tokens_per_step", "tokens", "scenario: output tokens per call", [], sig=None, decimals=0)
def _(c): return S.AGENT_TOKENS_PER_STEP


@figure("agent.ttft", "seconds", "scenario: time to first token per call", [])
def _(c): return S.AGENT_TTFT_S


@figure("agent.time.dataflow", "seconds", "steps × (TTFT + tokens ÷ Infercom speed)", ["measurements.infercom-minimax-m2"])
def _(c): return M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["infercom-minimax-m2"].high)


@figure("agent.time.gpu", "seconds", "steps × (TTFT + tokens ÷ fastest GPU route)", ["measurements.gpu-minimax-m2"])
def _(c): return M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["gpu-minimax-m2"].high)


# ------------------------------------------- "inference speed explained" page

def _speed_step(c, batch=1, context=S.SPEED_PROMPT):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=batch, context=context)


@figure("speed.prompt", "tokens", "scenario: prompt tokens", [], sig=None, decimals=0)
def _(c): return S.SPEED_PROMPT


@figure("speed.output", "tokens", "scenario: output tokens", [], sig=None, decimals=0)
def _(c): return S.SPEED_OUTPUT


@figure("speed.ttft", "seconds", "(prompt × 2 × parameters + causal attention) ÷ (GPUs × BF16 peak)", [M_L70, D_H100])
def _(c): return M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)


@figure("speed.per_request", "tok_per_s", "1 ÷ decode step time at batch 1", [M_L70, D_H100])
def _(c): return _speed_step(c).tokens_per_s


@figure("speed.per_request_fp8", "tok_per_s", "1 ÷ decode step time at batch 1, FP8 weights", [M_L70, D_H100])
def _(c):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=S.SPEED_PROMPT,
                         weight_precision="fp8", compute_precision="fp8").tokens_per_s


@figure("speed.e2e", "seconds", "TTFT + output tokens ÷ per-request speed", [M_L70, D_H100])
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate", "tok_per_s", "batch ÷ step time", [M_L70, D_H100])
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s


@figure("speed.per_request_batched", "tok_per_s", "1 ÷ step time at the batch", [M_L70, D_H100])
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s


@figure("speed.util", "percent", "compute time ÷ step time at batch 1 in the speed example", [M_L70, D_H100], decimals=1)
def _(c): return _speed_step(c).compute_utilisation


@figure("speed.batch", "count", "scenario: batch size", [], sig=None, decimals=0)
def _(c): return S.SPEED_BATCH


@figure("speed.devices", "count", "scenario: GPUs", [], sig=None, decimals=0)
def _(c): return S.SPEED_DEVICES


# --------------------------------------------------- figures behind the claims

@figure("claim.gpu.h100_needed_671b_fp8", "count", "fewest H100 holding 671B FP8 weights", [M_DS3, D_H100], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[DS3], c.devices[H100])


@figure("ratio.sram.groq_over_h100", "ratio", "Groq SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.groq-lpu", D_H100], sig=2)
def _(c): return c.devices["groq-lpu"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


@figure("ratio.sram.wse3_over_h100", "ratio", "WSE-3 SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.wse-3", D_H100], sig=2)
def _(c): return c.devices["wse-3"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


@figure("util.llama70b.batch1", "percent", "compute time ÷ step time at batch 1 (speed scenario GPUs, first article context)", [M_L70, D_H100], decimals=1)
def _(c): return _speed_step(c, 1, S.CONTEXTS[0]).compute_utilisation


@figure("util.llama70b.batch_large", "percent", "compute time ÷ step time at batch 64 (speed scenario GPUs, first article context)", [M_L70, D_H100], decimals=0)
def _(c): return _speed_step(c, S.UTIL_BATCH, S.CONTEXTS[0]).compute_utilisation


@figure("params.deepseek-v4-pro.total", "params", "catalog: total parameters", ["models.deepseek-v4-pro"], sig=2)
def _(c): return c.models["deepseek-v4-pro"].total_params


@figure("params.deepseek-v4-pro.active", "params", "catalog: active parameters per token", ["models.deepseek-v4-pro"], sig=2)
def _(c): return c.models["deepseek-v4-pro"].active_params


@figure("infercom.chips_from_racks", "count", "racks × sockets per rack", ["data.infercom-racks", R_SN], sig=None, decimals=0)
def _(c): return c.data["infercom-racks"].low * c.racks["sn40l-16"].count


@figure("headroom.infercom-gpt-oss-120b", "ratio", "rack HBM bandwidth ÷ bandwidth the measured speed implies at batch 1", ["measurements.infercom-gpt-oss-120b", D_SN40L, R_SN], sig=2)
def _(c):
    m = c.measurements["infercom-gpt-oss-120b"]
    return M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"] / M.implied_bandwidth(c.models[m.model], m.high)


# === figures added for the article (docs/*/decode.md) ===

# Section 2: bytes per BF16 value, the last factor of the KV and weight formulas.
@figure("precision.bf16.bytes", "bytes", "bits per BF16 value ÷ 8", [], sig=None, decimals=0, unit="B")
def _(c): return M._bytes("bf16")


# Section 3: the roofline of one H100 and where decode at batch 1 sits on it.
@figure("device.h100.ridge", "count", "dense BF16 peak ÷ HBM bandwidth (FLOP per byte)", [D_H100], sig=None, decimals=0)
def _(c): return c.devices[H100].peak_flops["bf16"] / c.devices[H100].serving.bytes_per_s


@figure("intensity.llama70b.batch1", "count", "FLOP per token ÷ weight bytes read per token (FLOP per byte, batch 1)", [M_L70], sig=None, decimals=1)
def _(c): return M.flops_per_token_weights(c.models[L70]) / M.weight_bytes_read(c.models[L70], 1)


# Section 6: how much larger the rack's DDR tier is than the largest model's weights.
@figure("ddr.sn40l-rack.over_deepseek-v3", "ratio", "DDR per socket × sockets ÷ DeepSeek V3 weight bytes", [M_DS3, D_SN40L, R_SN], sig=2)
def _(c): return M.tier_total(c.devices[SN40L], "DDR", c.racks["sn40l-16"].count)["bytes"] / M.weight_bytes_stored(c.models[DS3])


# Section 7: weight bytes gpt-oss-120b reads for one token (active experts, attention, unembedding).
@figure("weights.gpt-oss-120b.read_per_token", "bytes", "Σ weight groups read per token × bytes per parameter (batch 1)", [M_GPT])
def _(c): return M.weight_bytes_read(c.models[GPT], 1)


# Section 9: how much longer the agent loop takes at the GPU speed.
@figure("agent.ratio", "ratio", "agent loop time at the fastest GPU route ÷ at the Infercom speed", ["measurements.infercom-minimax-m2", "measurements.gpu-minimax-m2"], sig=2)
def _(c):
    gpu = M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["gpu-minimax-m2"].high)
    df = M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["infercom-minimax-m2"].high)
    return gpu / df



# === figures added for the other pages (index, speed, glossary, calculators) ===

# Glossary: sourced vendor claim on fused operator pipelines (SN40L paper).
@figure("fused_ops.dataflow", "count", "catalog: operators fused into one kernel call on SN40L (lower bound)", ["data.dataflow-fused-operators"], sig=None, decimals=0)
def _(c): return c.data["dataflow-fused-operators"].low


@figure("fused_ops.gpu", "count", "catalog: operators per kernel call in typical GPU fusion", ["data.gpu-fused-operators"], sig=None, decimals=0)
def _(c): return _datum(c, "gpu-fused-operators")


# Glossary: the memory of the dataflow and SRAM accelerators (RDU, LPU, WSE).
@figure("device.sn40l.hbm_bandwidth", "bytes_per_s", "catalog: HBM bandwidth per SN40L socket", [D_SN40L], sig=2)
def _(c): return c.devices[SN40L].tier("HBM").bytes_per_s


@figure("device.sn40l.ddr_bandwidth", "bytes_per_s", "catalog: DDR bandwidth per SN40L socket", [D_SN40L], sig=2)
def _(c): return c.devices[SN40L].tier("DDR").bytes_per_s


@figure("device.groq-lpu.sram", "bytes", "vendor: SRAM per chip", ["devices.groq-lpu"])
def _(c): return c.devices["groq-lpu"].tier("SRAM").bytes


@figure("device.groq-lpu.bandwidth", "bytes_per_s", "vendor: SRAM bandwidth per chip", ["devices.groq-lpu"], sig=2)
def _(c): return c.devices["groq-lpu"].tier("SRAM").bytes_per_s


@figure("fit.llama70b.groq-lpu.devices", "count", "fewest Groq LPUs whose SRAM holds the BF16 weights", [M_L70, "devices.groq-lpu"], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[L70], c.devices["groq-lpu"])


@figure("device.wse-3.sram", "bytes", "vendor: SRAM per wafer", ["devices.wse-3"], sig=2)
def _(c): return c.devices["wse-3"].tier("SRAM").bytes


@figure("device.wse-3.bandwidth", "bytes_per_s", "vendor: SRAM bandwidth per wafer", ["devices.wse-3"], sig=2)
def _(c): return c.devices["wse-3"].tier("SRAM").bytes_per_s


# Glossary: grouped-query attention against full multi-head attention.
@figure("model.llama70b.query_heads", "count", "catalog: query heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].query_heads


@figure("kv.llama70b.bytes_per_token_mha", "bytes", "as KV bytes per token, with one KV head per query head (multi-head attention)", [M_L70])
def _(c):
    m = c.models[L70]
    return M.kv_bytes_per_token(m.variant(num_key_value_heads=m.query_heads), "bf16")


@figure("gqa.llama70b.factor", "ratio", "query heads ÷ KV heads", [M_L70], sig=None, decimals=0)
def _(c): return c.models[L70].query_heads / c.models[L70].kv_heads


# "Inference speed explained": derived quantities of the worked example.
@figure("speed.step_time", "seconds", "1 ÷ per-request speed (time between two tokens, batch 1)", [M_L70, D_H100])
def _(c): return _speed_step(c).time_s


@figure("speed.decode_time", "seconds", "output tokens ÷ per-request speed", [M_L70, D_H100])
def _(c): return S.SPEED_OUTPUT / _speed_step(c).tokens_per_s


@figure("speed.ttft_share", "percent", "TTFT ÷ end-to-end latency", [M_L70, D_H100], decimals=1)
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return ttft / M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c).tokens_per_s)


@figure("speed.aggregate_gain", "ratio", "aggregate throughput at the batch ÷ throughput at batch 1", [M_L70, D_H100], sig=2)
def _(c): return _speed_step(c, batch=S.SPEED_BATCH).aggregate_tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.per_request_drop", "percent", "1 − per-request speed at the batch ÷ per-request speed at batch 1", [M_L70, D_H100], decimals=0)
def _(c): return 1 - _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s / _speed_step(c).tokens_per_s


@figure("speed.e2e_batched", "seconds", "TTFT + output tokens ÷ per-request speed at the batch", [M_L70, D_H100])
def _(c):
    ttft = M.prefill_time(c.models[L70], c.devices[H100], S.SPEED_PROMPT, devices=S.SPEED_DEVICES)
    return M.end_to_end_latency(ttft, S.SPEED_OUTPUT, _speed_step(c, batch=S.SPEED_BATCH).tokens_per_s)


# === figures added for the glossary's new entries (docs/*/glossary.md, issue 10 part 4) ===

# Arithmetic intensity: one read of the weights serves every request of the batch.
@figure("intensity.llama70b.batch.64", "count", "batch × FLOP per token ÷ weight bytes read per step (FLOP per byte, batch 64)", [M_L70], sig=None, decimals=0)
def _(c): return 64 * M.flops_per_token_weights(c.models[L70]) / M.weight_bytes_read(c.models[L70], 64)


# Tensor parallelism: every GPU of the speed example holds and reads a slice of each layer.
@figure("tp.llama70b.weights_per_gpu", "bytes", "BF16 weight bytes ÷ GPUs (speed scenario)", [M_L70])
def _(c): return M.weight_bytes_stored(c.models[L70]) / S.SPEED_DEVICES


# Pipeline parallelism: the fewest H100 that hold the weights, each with a run of whole layers.
@figure("pp.llama70b.layers_per_gpu", "count", "layers ÷ fewest H100 whose HBM holds the BF16 weights", [M_L70, D_H100], sig=None, decimals=0)
def _(c): return c.models[L70].layers / M.min_devices(c.models[L70], c.devices[H100])


# Expert parallelism: gpt-oss-120b's experts per layer, those a token uses, and their spread over GPUs.
def _expert_group(c, key):
    return next(layer.mlp for layer in c.models[key].arch.layers if hasattr(layer.mlp, "experts"))


@figure("model.gpt-oss-120b.experts", "count", "catalog: experts per layer", [M_GPT], sig=None, decimals=0)
def _(c): return _expert_group(c, GPT).experts


@figure("model.gpt-oss-120b.experts_active", "count", "catalog: experts per token and layer", [M_GPT], sig=None, decimals=0)
def _(c): return _expert_group(c, GPT).active


@figure("ep.gpt-oss-120b.experts_per_gpu", "count", "experts per layer ÷ GPUs (speed scenario)", [M_GPT], sig=None, decimals=0)
def _(c): return _expert_group(c, GPT).experts / S.SPEED_DEVICES


# Sparsity: NVIDIA's 2:4 structured sparsity keeps at most two values in every group of four,
# which is why the datasheets' sparse peaks are twice the dense ones (printed as digits, like the pattern's name).
SPARSITY_KEPT, SPARSITY_GROUP = 2, 4


@figure("sparsity.kept", "count", "2:4 structured sparsity: values that may be non-zero per group", [], sig=None, decimals=0)
def _(c): return SPARSITY_KEPT


@figure("sparsity.group", "count", "2:4 structured sparsity: values per group", [], sig=None, decimals=0)
def _(c): return SPARSITY_GROUP


@figure("device.h100.peak_bf16_sparse", "flop_per_s", "dense BF16 peak × values per group ÷ values kept (2:4 sparsity)", [D_H100], sig=3, unit="TFLOP/s")
def _(c): return c.devices[H100].peak_flops["bf16"] * SPARSITY_GROUP / SPARSITY_KEPT


# Number formats: bytes per FP8 value, bits per MXFP4 value, gpt-oss-120b as if stored in BF16.
@figure("precision.fp8.bytes", "bytes", "bits per FP8 value ÷ 8", [], sig=None, decimals=0, unit="B")
def _(c): return M._bytes("fp8")


@figure("precision.mxfp4.bits", "count", "4 bits per value + one 8-bit scale per block of 32 values", [], sig=None, decimals=2)
def _(c): return M._bytes("mxfp4") * 8


@figure("weights.gpt-oss-120b.bytes_bf16", "bytes", "Σ weight groups × 2 bytes (every group in BF16)", [M_GPT])
def _(c): return M.weight_bytes_stored(c.models[GPT], "bf16")


# Multi-head latent attention: what DeepSeek V3 caches per token and layer.
@figure("model.deepseek-v3.layers", "count", "catalog: layers", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].layers


@figure("model.deepseek-v3.kv_lora_rank", "count", "catalog: values in the compressed latent per token and layer", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].kv_lora_rank


@figure("model.deepseek-v3.rope_dim", "count", "catalog: values of the positional (RoPE) key per token and layer", [M_DS3], sig=None, decimals=0)
def _(c): return c.models[DS3].qk_rope_head_dim


# DDR against HBM on one SN40L socket.
@figure("ratio.sn40l.hbm_over_ddr", "ratio", "HBM bandwidth per SN40L socket ÷ DDR bandwidth per socket", [D_SN40L], sig=2)
def _(c): return c.devices[SN40L].tier("HBM").bytes_per_s / c.devices[SN40L].tier("DDR").bytes_per_s


# === deployment model in the prose and the measurements table (issue 9 parts 4 and 5) ===
# Ceiling: 100 % bandwidth, no communication. Expected: the sourced achieved-bandwidth
# efficiency (serving.toml) and the step's messages (comm.py), latency 0 s as the
# calculators' default (no vendor publishes it). Every measurement's row of
# measured.rows() becomes figures, so that the table prints figures like the prose.
from . import comm as _K  # noqa: E402
from . import fit as _FIT  # noqa: E402
from . import measured as _X  # noqa: E402
from . import serving as _SV  # noqa: E402
from .deployment import Deployment as _Dep, shape_from_catalog as _shape  # noqa: E402

_SERVING = {}
_SERVING_TEXT = _SV.resources.files("calculators").joinpath("serving.toml").read_text(encoding="utf-8")


def _serving(c):
    """serving.toml validated against this catalog, once per catalog (tests pass altered ones)."""
    key = id(c)
    if key not in _SERVING:
        _SERVING.clear()
        sv = _SV.load_text(_SERVING_TEXT, c)
        _SERVING[key] = (c, sv, {r.key: r for r in _X.rows(c, sv)})
    return _SERVING[key][1]


def _rows(c) -> dict:
    _serving(c)
    return _SERVING[id(c)][2]


def _tp8_step70(c):
    """Llama 3.1 70B, BF16, TP over the speed example's H100s, batch 1, its prompt as context."""
    sv = _serving(c)
    link = sv.interconnects[sv.platforms[H100].interconnect]
    return _K.decode_step(_shape(c.models[L70]), _Dep(tp=S.SPEED_DEVICES), c.devices[H100].serving.bytes_per_s,
                          S.SPEED_PROMPT, efficiency=_X.default_efficiency(sv), link=link)


@figure("efficiency.default", "percent", "published: achieved share of peak HBM bandwidth in a decode kernel (FlashMLA on H800, serving.toml)",
        ["efficiency.flashmla-h800"], decimals=1)
def _(c): return _X.default_efficiency(_serving(c))


@figure("deploy.llama70b.h100x8.allreduces", "count", "2 all-reduces per layer × layers (tensor parallelism, one decode step)", [M_L70], sig=None, decimals=0)
def _(c): return sum(m.count for m in _tp8_step70(c).messages if m.what == "tp-allreduce")


@figure("deploy.llama70b.h100x8.comm_time", "seconds", "all-reduces × (ring bytes per GPU ÷ NVLink bandwidth + measured latency per message)",
        [M_L70, "interconnects.nvlink4", "latencies.nvlink4"], sig=2)
def _(c): return _tp8_step70(c).comm_s


@figure("deploy.llama70b.h100x8.ceiling", "tok_per_s", "HBM bandwidth ÷ bytes each GPU streams per token (TP, batch 1, 100 %, no communication)", [M_L70, D_H100])
def _(c): return _tp8_step70(c).ceiling_tokens_per_s


@figure("deploy.llama70b.h100x8.expected", "tok_per_s", "1 ÷ (bytes per GPU ÷ (bandwidth × efficiency) + all-reduce time)",
        [M_L70, D_H100, "efficiency.flashmla-h800", "interconnects.nvlink4"])
def _(c): return _tp8_step70(c).expected_tokens_per_s


@figure("deploy.aa-gpu-llama-3.1-70b.over_expected", "percent", "measured GPU providers' speed ÷ expected speed on 8 H100",
        ["measurements.aa-gpu-llama-3.1-70b", M_L70, D_H100, "efficiency.flashmla-h800"], decimals=0)
def _(c):
    m, e = c.measurements["aa-gpu-llama-3.1-70b"], _tp8_step70(c).expected_tokens_per_s
    return (m.low / e, m.high / e)


# The 671B comparison with deployable counts: whole nodes of eight and the engine's reserve, at 8K context, batch 1.
FIT_CONTEXT = S.CONTEXTS[0]


def _fit_ds3(c, device):
    return _FIT.fit_device(_shape(c.models[DS3]), c.devices[device], _serving(c), FIT_CONTEXT, 1)


@figure("engine.reserve", "percent", "1 − the share of memory vLLM lets weights and KV cache use", ["engines.vllm"], decimals=0)
def _(c): return 1 - _serving(c).engines["vllm"].usable_fraction


@figure("node.h100.gpus", "count", "published: GPUs per HGX node (serving.toml)", ["platforms.h100-sxm"], sig=None, decimals=0)
def _(c): return _serving(c).platforms[H100].node_size


@figure("fit.deepseek-v3.h100.deployable", "count", "whole nodes of GPUs holding FP8 weights + KV cache (8K, batch 1) within the engine's share",
        [M_DS3, D_H100, "engines.vllm", "platforms.h100-sxm"], sig=None, decimals=0)
def _(c): return _fit_ds3(c, H100).deployable_devices


@figure("fit.deepseek-v3.sn40l.deployable", "count", "whole nodes of SN40L sockets holding FP8 weights + KV cache (8K, batch 1)",
        [M_DS3, D_SN40L, "platforms.sn40l"], sig=None, decimals=0)
def _(c): return _fit_ds3(c, SN40L).deployable_devices


@figure("fit.deepseek-v3.reduction_deployable", "percent", "1 − deployable SN40L sockets ÷ deployable H100 GPUs", [M_DS3, D_H100, D_SN40L], decimals=0)
def _(c): return 1 - _fit_ds3(c, SN40L).deployable_devices / _fit_ds3(c, H100).deployable_devices


# The GPU providers' gpt-oss-120b range against the ceiling of the deployment the site assumes for them.
@figure("deploy.aa-gpu-gpt-oss-120b.over_ceiling", "percent", "measured speed ÷ ceiling (assumed: one B200, the fewest that hold the model)",
        ["measurements.aa-gpu-gpt-oss-120b", M_GPT, "devices.b200"], decimals=1)
def _(c):
    r = _rows(c)["aa-gpu-gpt-oss-120b"]
    return (r.ratio_low, r.ratio)


# Terms of the formula objects above (calculators/formulas.py, block "deployment model").
@figure("deploy.llama70b.h100x8.bytes_per_gpu", "bytes", "weights and KV cache each GPU streams per token (TP, batch 1)", [M_L70])
def _(c): return _tp8_step70(c).streamed_bytes


@figure("deploy.llama70b.h100x8.allreduce_bytes", "bytes", "ring all-reduce bytes per GPU per message: 2 × (GPUs − 1) ÷ GPUs × hidden × 2 bytes",
        [M_L70], sig=3)
def _(c): return next(m.wire_bytes for m in _tp8_step70(c).messages if m.what == "tp-allreduce")


@figure("interconnect.nvlink4.latency", "seconds", "published: measured NVLink 4 all-reduce latency per message (serving.toml)", ["latencies.nvlink4"], sig=2)
def _(c): return _serving(c).interconnects["nvlink4"].latency_s


@figure("interconnect.nvlink4.bandwidth", "bytes_per_s", "published: NVLink 4 bandwidth per GPU and direction (serving.toml)", ["interconnects.nvlink4"], sig=3)
def _(c): return _serving(c).interconnects["nvlink4"].bytes_per_s


@figure("engine.vllm.usable", "percent", "published default: share of GPU memory vLLM lets weights and KV cache use (serving.toml)", ["engines.vllm"], decimals=0)
def _(c): return _serving(c).engines["vllm"].usable_fraction


@figure("deploy.deepseek-v3.held_8k", "bytes", "FP8 weights + MLA cache of one request at 8K context", [M_DS3])
def _(c):
    shape = _shape(c.models[DS3])
    return shape.weights_stored() + shape.kv_bytes(FIT_CONTEXT)


@figure("flops.llama70b.per_token_8k", "flop", "2 × parameters + attention FLOP per token at 8K context", [M_L70])
def _(c): return M.flops_per_token(c.models[L70], FIT_CONTEXT)


# Claim 14: at 8K context the KV cache grows with the batch as fast as the arithmetic does,
# so utilisation approaches a limit that no batch size passes.
def _util_limit(c, context):
    m, d = c.models[L70], c.devices[H100]
    one = M.decode_step(m, d, devices=S.SPEED_DEVICES, batch=1, context=context)
    return one.compute_s / one.kv_s


def _largest_batch(c, context):
    """Requests whose KV cache fits beside the weights in the engine's share of the speed example's GPUs."""
    m, d = c.models[L70], c.devices[H100]
    room = S.SPEED_DEVICES * d.serving.bytes * _serving(c).engines["vllm"].usable_fraction - M.weight_bytes_stored(m)
    return int(room // (context * M.kv_bytes_per_token(m, "bf16")))


@figure("util.llama70b.limit_8k", "percent", "compute time ÷ KV read time per request (the limit as the batch grows, 8K context)",
        [M_L70, D_H100], decimals=0)
def _(c): return _util_limit(c, FIT_CONTEXT)


@figure("batch.llama70b.max_8k", "count", "(GPUs × HBM × engine share − weights) ÷ KV cache per request (8K context)",
        [M_L70, D_H100, "engines.vllm"], sig=None, decimals=0)
def _(c): return _largest_batch(c, FIT_CONTEXT)


@figure("util.llama70b.max_batch_8k", "percent", "compute time ÷ step time at the largest batch that fits (8K context)", [M_L70, D_H100, "engines.vllm"], decimals=0)
def _(c):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=_largest_batch(c, FIT_CONTEXT),
                         context=FIT_CONTEXT).compute_utilisation


def _streamed(c, key):
    r = _rows(c)[key]
    return r.deployment.streamed_serial(_shape(c.models[r.model]), r.context, 1)


# One set of figures per measurement row (the measurements table prints them).
def _row_fig(key, attr):
    def fn(c):
        r = _rows(c)[key]
        return getattr(r, attr) if attr != "measured" else (r.low if r.low == r.high else (r.low, r.high))
    return fn


for _rk, _rm in list(load().measurements.items()) + list(_SV.load().measurements.items()):
    _in = [f"measurements.{_rk}", f"models.{_rm.model}", f"devices.{_rm.device}"]
    figure(f"row.{_rk}.measured", "tok_per_s", "published measurement", _in[:1], sig=None, decimals=0)(_row_fig(_rk, "measured"))
    figure(f"row.{_rk}.ceiling", "tok_per_s", "HBM bandwidth ÷ bytes each device streams per token (catalog precision, 100 %, no communication)",
           _in)(_row_fig(_rk, "ceiling"))
    figure(f"row.{_rk}.expected", "tok_per_s", "stated configuration with the achieved-bandwidth efficiency and communication",
           _in + ["efficiency.flashmla-h800"])(_row_fig(_rk, "expected"))
    if getattr(_rm, "weight_precision", None) or getattr(_rm, "speculation", None):
        figure(f"row.{_rk}.ceiling_served", "tok_per_s", "HBM bandwidth ÷ bytes each device streams per token, in the precision and "
               "with the speculative decoding the publisher states (100 %, no communication)",
               _in)(_row_fig(_rk, "ceiling_stated"))
    figure(f"row.{_rk}.ratio", "ratio", "measured (upper end) ÷ ceiling", _in, sig=2)(_row_fig(_rk, "ratio"))
    figure(f"row.{_rk}.streamed", "bytes", "bytes each device streams per token, stage after stage (catalog precision, batch 1)",
           _in)(lambda c, k=_rk: _streamed(c, k))
    figure(f"row.{_rk}.bandwidth", "bytes_per_s", "catalog: the device's serving-tier bandwidth", _in[2:])(lambda c, d=_rm.device: c.devices[d].serving.bytes_per_s)


# Where a measurement exceeds its ceiling: the explanation's numbers (measured.explain), as figures.
def _why(key, attr):
    return lambda c: getattr(_rows(c)[key].explanation, attr)


for _r in _X.rows(load(), _SV.load()):
    if _r.explanation is None:
        continue
    _in = [f"measurements.{_r.key}", f"models.{_r.model}", f"devices.{_r.device}"]
    figure(f"row.{_r.key}.why_ceiling", "tok_per_s", "ceiling with the explaining precision and speculation (100 %, no communication)",
           _in)(_why(_r.key, "ceiling_tokens_per_s"))
    if _r.explanation.k:
        figure(f"row.{_r.key}.why_k", "count", "tokens proposed per verify step", _in, sig=None, decimals=0)(_why(_r.key, "k"))
        figure(f"row.{_r.key}.why_acceptance", "percent", "acceptance per proposed token (published, or the least that reaches the measurement)",
               _in, decimals=0)(_why(_r.key, "acceptance"))
# Figures that make formulas readable (groups of a sum, sides of a roofline): calculators/figure_terms.py.
_DEFINITIONS.extend(_TERM_DEFINITIONS)
