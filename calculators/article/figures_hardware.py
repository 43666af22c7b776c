"""Figures of the hardware: SN40L sockets, nodes and racks, SRAM accelerators, how many devices hold a model,
precision and sparsity, power and energy.

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle)."""

from __future__ import annotations

from ..arch import precision
from ..perf import roofline as M
from ..data import scenarios as S
from .figure_base import L70, GPT, DS3, M_L70, M_GPT, M_DS3, H100, SN40L, D_H100, D_SN40L, R_SN, datum, registrar

DEFINITIONS = []
figure = registrar(DEFINITIONS)


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


# ------------------------------------------------------------ section 8: energy

@figure("power.sn40l-rack", "watts", "catalog: average rack power", [R_SN], sig=2)
def _(c): return c.racks["sn40l-16"].power_w


@figure("power.gpu-rack", "watts", "catalog: GPU rack power", ["data.gpu-rack-power-w"], sig=2)
def _(c): return datum(c, "gpu-rack-power-w")


@figure("power.dgx-h100-rack", "watts", "catalog: power of a rack of DGX H100 systems at maximum", ["racks.dgx-h100-x4"], sig=2)
def _(c): return c.racks["dgx-h100-x4"].power_w


@figure("claimed.utilisation.decode", "percent", "as claimed (catalog): GPU utilization during decode", ["data.decode-gpu-utilisation"], decimals=0)
def _(c): return datum(c, "decode-gpu-utilisation")


@figure("claimed.utilisation.prefill", "percent", "as claimed (catalog): GPU utilization during prefill, at least", ["data.prefill-gpu-utilisation"], decimals=0)
def _(c): return datum(c, "prefill-gpu-utilisation")


@figure("infercom.racks", "count", "catalog: SN40L racks Infercom runs", ["data.infercom-racks"], sig=None, decimals=0)
def _(c): return datum(c, "infercom-racks")


@figure("infercom.chips", "count", "catalog: SN40L chips Infercom runs", ["data.infercom-chips"], sig=None, decimals=0)
def _(c): return datum(c, "infercom-chips")


@figure("power.ratio", "ratio", "GPU rack power ÷ SN40L rack power", ["data.gpu-rack-power-w", R_SN], sig=2)
def _(c):
    lo, hi = datum(c, "gpu-rack-power-w")
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


# --------------------------------------------------- figures behind the claims

@figure("claim.gpu.h100_needed_671b_fp8", "count", "fewest H100 holding 671B FP8 weights", [M_DS3, D_H100], sig=None, decimals=0)
def _(c): return M.min_devices(c.models[DS3], c.devices[H100])


@figure("ratio.sram.groq_over_h100", "ratio", "Groq SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.groq-lpu", D_H100], sig=2)
def _(c): return c.devices["groq-lpu"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


@figure("ratio.sram.wse3_over_h100", "ratio", "WSE-3 SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.wse-3", D_H100], sig=2)
def _(c): return c.devices["wse-3"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


# Section 6: how much larger the rack's DDR tier is than the largest model's weights.
@figure("ddr.sn40l-rack.over_deepseek-v3", "ratio", "DDR per socket × sockets ÷ DeepSeek V3 weight bytes", [M_DS3, D_SN40L, R_SN], sig=2)
def _(c): return M.tier_total(c.devices[SN40L], "DDR", c.racks["sn40l-16"].count)["bytes"] / M.weight_bytes_stored(c.models[DS3])


# === figures added for the other pages (index, speed, glossary, calculators) ===

# Glossary: sourced vendor claim on fused operator pipelines (SN40L paper).
@figure("fused_ops.dataflow", "count", "catalog: operators fused into one kernel call on SN40L (lower bound)", ["data.dataflow-fused-operators"], sig=None, decimals=0)
def _(c): return c.data["dataflow-fused-operators"].low


@figure("fused_ops.gpu", "count", "catalog: operators per kernel call in typical GPU fusion", ["data.gpu-fused-operators"], sig=None, decimals=0)
def _(c): return datum(c, "gpu-fused-operators")


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



# DDR against HBM on one SN40L socket.
@figure("ratio.sn40l.hbm_over_ddr", "ratio", "HBM bandwidth per SN40L socket ÷ DDR bandwidth per socket", [D_SN40L], sig=2)
def _(c): return c.devices[SN40L].tier("HBM").bytes_per_s / c.devices[SN40L].tier("DDR").bytes_per_s
