"""Figures of the hardware: SN40L sockets, nodes and racks, SRAM accelerators, how many devices hold a model,
precision and sparsity, power and energy."""

from __future__ import annotations

from ...arch import precision
from ...arch.layers import MoEMLP
from ...data import scenarios as S
from ...perf import roofline as M
from ...example.figure import DEEPSEEK_V3, GPT_OSS_120B, H100, LLAMA_70B, SN40L, datum, declarer
from ...example.formula import F
from .models import FP8_B128, MXFP4, bf16_and

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

L70_IN, GPT_IN, DS3_IN = [f"models.{LLAMA_70B}"], [f"models.{GPT_OSS_120B}"], [f"models.{DEEPSEEK_V3}"]
H100_IN, SN40L_IN, RACK_IN = [f"devices.{H100}"], [f"devices.{SN40L}"], ["racks.sn40l-16"]
SOCKETS = ("sockets", "sn40l.rack.sockets")


def _fewest(weights: tuple, memory: tuple) -> F:
    """Fewest devices whose memory holds the weights: ⌈weights ÷ memory per device⌉."""
    return F("⌈{w} ÷ {mem}⌉", w=weights, mem=memory)


# ---------------------------------------------------- section 6: dataflow

@figure("dataflow.differences", "words", "number of architectural differences listed", [], sig=None)
def dataflow_differences(c): return len(S.DATAFLOW_DIFFERENCES)


for _tier in ("SRAM", "HBM", "DDR"):
    @figure(f"sn40l.socket.{_tier.lower()}", "bytes", f"datasheet: {_tier} per socket", SN40L_IN, sig=2)
    def socket_tier(c, t=_tier): return c.devices[SN40L].tier(t).bytes

    @figure(f"sn40l.rack.{_tier.lower()}", "bytes", f"{_tier} per socket × sockets per rack", SN40L_IN + RACK_IN,
            expression=F("{socket} × {n}", socket=("per socket", f"sn40l.socket.{_tier.lower()}"), n=SOCKETS))
    def rack_tier(c, t=_tier): return M.tier_total(c.devices[SN40L], t, c.racks["sn40l-16"].count)["bytes"]


@figure("sn40l.rack.sockets", "count", "catalog: sockets per rack", RACK_IN, sig=None, decimals=0)
def rack_sockets(c): return c.racks["sn40l-16"].count


@figure("sn40l.rack.hbm_bandwidth", "bytes_per_s", "HBM bandwidth per socket × sockets", SN40L_IN + RACK_IN,
        expression=F("{bw} × {n}", bw=("per socket", "device.sn40l.hbm_bandwidth"), n=SOCKETS))
def rack_hbm_bandwidth(c): return M.tier_total(c.devices[SN40L], "HBM", c.racks["sn40l-16"].count)["bytes_per_s"]


_STORED = {GPT_OSS_120B: bf16_and("params.gpt-oss-120b", "MXFP4", MXFP4), DEEPSEEK_V3: bf16_and("params.deepseek-v3", "FP8", FP8_B128)}
for _m, _weights in _STORED.items():
    @figure(f"switch.{_m}.sn40l-rack", "seconds", "weight bytes ÷ (DDR bandwidth per socket × sockets)", [f"models.{_m}"] + SN40L_IN + RACK_IN,
            expression=F("{w} ÷ ({bw} × {n})", w=("of weights", f"weights.{_m}.bytes"),
                         bw=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth"), n=SOCKETS))
    def switch_time(c, m=_m): return M.switch_time(c.models[m], c.devices[SN40L], c.racks["sn40l-16"].count, "DDR")

    @figure(f"weights.{_m}.bytes", "bytes", "Σ weight groups × bytes per parameter at each group's precision", [f"models.{_m}"],
            expression=_weights)
    def weights_stored(c, m=_m): return M.weight_bytes_stored(c.models[m])


_DS3_FP8 = ("of weights (FP8)", "weights.deepseek-v3.bytes")
_H100_HBM = ("HBM per GPU", "device.h100.memory")


@figure("fit.deepseek-v3.h100.devices", "count", "fewest H100 whose HBM holds the FP8 weights", DS3_IN + H100_IN, sig=None, decimals=0,
        expression=_fewest(_DS3_FP8, _H100_HBM))
def fit_deepseek_h100(c): return M.min_devices(c.models[DEEPSEEK_V3], c.devices[H100])


@figure("fit.deepseek-v3.sn40l.devices", "count", "fewest SN40L sockets whose HBM holds the FP8 weights", DS3_IN + SN40L_IN, sig=None, decimals=0,
        expression=_fewest(_DS3_FP8, ("HBM per socket", "sn40l.socket.hbm")))
def fit_deepseek_sn40l(c): return M.min_devices(c.models[DEEPSEEK_V3], c.devices[SN40L])


@figure("fit.deepseek-v3.reduction", "percent", "1 − SN40L sockets ÷ H100 GPUs (negative: more chips)", DS3_IN + H100_IN + SN40L_IN, decimals=0,
        expression=F("{one} − {sn} ÷ {gpu}", one=("", 1), sn=("SN40L sockets", "fit.deepseek-v3.sn40l.devices"),
                     gpu=("H100 GPUs", "fit.deepseek-v3.h100.devices")))
def fit_deepseek_reduction(c):
    return 1 - M.min_devices(c.models[DEEPSEEK_V3], c.devices[SN40L]) / M.min_devices(c.models[DEEPSEEK_V3], c.devices[H100])


# ------------------------------------------------------------ section 8: energy

@figure("power.sn40l-rack", "watts", "catalog: average rack power", RACK_IN, sig=2)
def power_sn40l_rack(c): return c.racks["sn40l-16"].power_w


@figure("power.gpu-rack", "watts", "catalog: GPU rack power", ["data.gpu-rack-power-w"], sig=2)
def power_gpu_rack(c): return datum(c, "gpu-rack-power-w")


@figure("power.dgx-h100-rack", "watts", "catalog: power of a rack of DGX H100 systems at maximum", ["racks.dgx-h100-x4"], sig=2)
def power_dgx_rack(c): return c.racks["dgx-h100-x4"].power_w


@figure("claimed.utilization.decode", "percent", "as claimed (catalog): GPU utilization during decode", ["data.decode-gpu-utilization"], decimals=0)
def claimed_decode(c): return datum(c, "decode-gpu-utilization")


@figure("claimed.utilization.prefill", "percent", "as claimed (catalog): GPU utilization during prefill, at least",
        ["data.prefill-gpu-utilization"], decimals=0)
def claimed_prefill(c): return datum(c, "prefill-gpu-utilization")


@figure("infercom.racks", "count", "catalog: SN40L racks Infercom runs", ["data.infercom-racks"], sig=None, decimals=0)
def infercom_racks(c): return datum(c, "infercom-racks")


@figure("infercom.chips", "count", "catalog: SN40L chips Infercom runs", ["data.infercom-chips"], sig=None, decimals=0)
def infercom_chips(c): return datum(c, "infercom-chips")


@figure("power.ratio", "ratio", "GPU rack power ÷ SN40L rack power", ["data.gpu-rack-power-w"] + RACK_IN, sig=2,
        expression=F("{gpu} ÷ {sn}", gpu=("GPU rack", "power.gpu-rack"), sn=("SN40L rack", "power.sn40l-rack")))
def power_ratio(c):
    lo, hi = datum(c, "gpu-rack-power-w")
    p = c.racks["sn40l-16"].power_w
    return (lo / p, hi / p)


def _bits_of_group(m, group: str | None = None) -> float:
    """Bits per parameter the released checkpoint stores for a weight group (the first group if none is named)."""
    g = next(g for g in m.weights if group is None or g.group == group)
    return g.precision.bits


@figure("precision.gpt-oss-120b.experts_bits", "bits", "bits per parameter of the released expert weights (MXFP4 with block scales)", GPT_IN,
        sig=3, expression=F("{mx}", mx=MXFP4))
def gpt_oss_expert_bits(c): return _bits_of_group(c.models[GPT_OSS_120B], "experts")


@figure("precision.deepseek-v3.bits", "bits", "bits per parameter of the released weights (FP8)", DS3_IN, sig=None, decimals=0,
        expression=F("{fp8}", fp8=FP8_B128))
def deepseek_bits(c): return _bits_of_group(c.models[DEEPSEEK_V3], "experts")


@figure("power.ratio_per_chip", "ratio", "(DGX H100 rack power ÷ its GPUs) ÷ (SN40L rack power ÷ its sockets)", ["racks.dgx-h100-x4"] + RACK_IN,
        sig=2, expression=F("({gpu} ÷ {gpus}) ÷ ({sn} ÷ {sockets})", gpu=("at most", "power.dgx-h100-rack"),
                            gpus=("GPUs", "power.dgx-h100-rack.gpus"), sn=("on average", "power.sn40l-rack"), sockets=SOCKETS))
def power_ratio_per_chip(c):
    gpu, sn = c.racks["dgx-h100-x4"], c.racks["sn40l-16"]
    return (gpu.power_w / gpu.count) / (sn.power_w / sn.count)


@figure("sn40l.node.sockets", "count", "scenario: sockets per SN40L node", [], sig=None, decimals=0)
def node_sockets(c): return S.SN40L_NODE_SOCKETS


@figure("sn40l.node.ddr", "bytes", "DDR per socket × sockets per node (one SN40L node)", SN40L_IN, sig=2,
        expression=F("{socket} × {n}", socket=("per socket", "sn40l.socket.ddr"), n=("sockets per node", "sn40l.node.sockets")))
def node_ddr(c): return M.tier_total(c.devices[SN40L], "DDR", S.SN40L_NODE_SOCKETS)["bytes"]


@figure("power.dgx-h100-rack.gpus", "count", "catalog: GPUs in the DGX H100 rack", ["racks.dgx-h100-x4"], sig=None, decimals=0)
def dgx_rack_gpus(c): return c.racks["dgx-h100-x4"].count


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    @figure(f"energy.{_mk}.per_token", "joules", "rack power ÷ measured tokens per second (one request at a time)",
            RACK_IN + [f"measurements.{_mk}"],
            expression=F("{p} ÷ {s}", p=("rack power", "power.sn40l-rack"), s=("measured", f"measured.{_mk}")))
    def energy_per_token(c, k=_mk): return M.energy_per_token(c.racks["sn40l-16"].power_w, c.measurements[k].high)


# --------------------------------------------------- figures behind the claims

@figure("claim.gpu.h100_needed_671b_fp8", "count", "fewest H100 holding 671B FP8 weights", DS3_IN + H100_IN, sig=None, decimals=0,
        expression=_fewest(_DS3_FP8, _H100_HBM))
def h100_needed_671b(c): return M.min_devices(c.models[DEEPSEEK_V3], c.devices[H100])


@figure("ratio.sram.groq_over_h100", "ratio", "Groq SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.groq-lpu"] + H100_IN, sig=2,
        expression=F("{sram} ÷ {hbm}", sram=("SRAM bandwidth", "device.groq-lpu.bandwidth"), hbm=("HBM bandwidth", "device.h100.bandwidth")))
def groq_over_h100(c): return c.devices["groq-lpu"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


@figure("ratio.sram.wse3_over_h100", "ratio", "WSE-3 SRAM bandwidth ÷ H100 HBM bandwidth", ["devices.wse-3"] + H100_IN, sig=2,
        expression=F("{sram} ÷ {hbm}", sram=("SRAM bandwidth", "device.wse-3.bandwidth"), hbm=("HBM bandwidth", "device.h100.bandwidth")))
def wse3_over_h100(c): return c.devices["wse-3"].serving.bytes_per_s / c.devices[H100].serving.bytes_per_s


# Section 6: how much larger the rack's DDR tier is than the largest model's weights.
@figure("ddr.sn40l-rack.over_deepseek-v3", "ratio", "DDR per socket × sockets ÷ DeepSeek V3 weight bytes", DS3_IN + SN40L_IN + RACK_IN, sig=2,
        expression=F("{ddr} ÷ {w}", ddr=("DDR per rack", "sn40l.rack.ddr"), w=("of weights", "weights.deepseek-v3.bytes")))
def ddr_over_deepseek(c):
    return M.tier_total(c.devices[SN40L], "DDR", c.racks["sn40l-16"].count)["bytes"] / M.weight_bytes_stored(c.models[DEEPSEEK_V3])


# Glossary: sourced vendor claim on fused operator pipelines (SN40L paper).
@figure("fused_ops.dataflow", "count", "catalog: operators fused into one kernel call on SN40L (lower bound)", ["data.dataflow-fused-operators"],
        sig=None, decimals=0)
def fused_dataflow(c): return c.data["dataflow-fused-operators"].low


@figure("fused_ops.gpu", "count", "catalog: operators per kernel call in typical GPU fusion", ["data.gpu-fused-operators"], sig=None, decimals=0)
def fused_gpu(c): return datum(c, "gpu-fused-operators")


# The H100's bandwidth where a page compares a measurement with it (not the running example's device, which the reader
# chooses: device.h100.bandwidth).
@figure("device.h100-sxm.bandwidth", "bytes_per_s", "datasheet: HBM bandwidth", H100_IN)
def h100_sxm_bandwidth(c): return c.devices[H100].serving.bytes_per_s


# Glossary: the memory of the dataflow and SRAM accelerators (RDU, LPU, WSE).
@figure("device.sn40l.hbm_bandwidth", "bytes_per_s", "catalog: HBM bandwidth per SN40L socket", SN40L_IN, sig=2)
def sn40l_hbm_bandwidth(c): return c.devices[SN40L].tier("HBM").bytes_per_s


@figure("device.sn40l.ddr_bandwidth", "bytes_per_s", "catalog: DDR bandwidth per SN40L socket", SN40L_IN, sig=2)
def sn40l_ddr_bandwidth(c): return c.devices[SN40L].tier("DDR").bytes_per_s


@figure("device.groq-lpu.sram", "bytes", "vendor: SRAM per chip", ["devices.groq-lpu"])
def groq_sram(c): return c.devices["groq-lpu"].tier("SRAM").bytes


@figure("device.groq-lpu.bandwidth", "bytes_per_s", "vendor: SRAM bandwidth per chip", ["devices.groq-lpu"], sig=2)
def groq_bandwidth(c): return c.devices["groq-lpu"].tier("SRAM").bytes_per_s


@figure("fit.llama70b.groq-lpu.devices", "count", "fewest Groq LPUs whose SRAM holds the BF16 weights", L70_IN + ["devices.groq-lpu"],
        sig=None, decimals=0,
        expression=_fewest(("of weights (BF16)", "weights.llama70b.bytes"), ("SRAM per chip", "device.groq-lpu.sram")))
def fit_llama70b_groq(c): return M.min_devices(c.models[LLAMA_70B], c.devices["groq-lpu"])


@figure("device.wse-3.sram", "bytes", "vendor: SRAM per wafer", ["devices.wse-3"], sig=2)
def wse3_sram(c): return c.devices["wse-3"].tier("SRAM").bytes


@figure("device.wse-3.bandwidth", "bytes_per_s", "vendor: SRAM bandwidth per wafer", ["devices.wse-3"], sig=2)
def wse3_bandwidth(c): return c.devices["wse-3"].tier("SRAM").bytes_per_s


# Expert parallelism: gpt-oss-120b's experts per layer, those a token uses, and their spread over GPUs.
def _expert_group(c, key):
    return next(layer.mlp for layer in c.models[key].arch.layers if isinstance(layer.mlp, MoEMLP))


@figure("model.gpt-oss-120b.experts", "count", "catalog: experts per layer", GPT_IN, sig=None, decimals=0)
def gpt_oss_experts(c): return _expert_group(c, GPT_OSS_120B).experts


@figure("model.gpt-oss-120b.experts_active", "count", "catalog: experts per token and layer", GPT_IN, sig=None, decimals=0)
def gpt_oss_experts_active(c): return _expert_group(c, GPT_OSS_120B).active


@figure("ep.gpt-oss-120b.experts_per_gpu", "count", "experts per layer ÷ GPUs (speed scenario)", GPT_IN, sig=None, decimals=0,
        expression=F("{e} ÷ {n}", e=("experts per layer", "model.gpt-oss-120b.experts"), n=("GPUs", "speed.devices")))
def gpt_oss_experts_per_gpu(c): return _expert_group(c, GPT_OSS_120B).experts / S.SPEED_DEVICES


# Sparsity: NVIDIA's 2:4 structured sparsity keeps at most two values in every group of four,
# which is why the datasheets' sparse peaks are twice the dense ones (printed as digits, like the pattern's name).
SPARSITY_KEPT, SPARSITY_GROUP = 2, 4


@figure("sparsity.kept", "count", "2:4 structured sparsity: values that may be non-zero per group", [], definition=True, sig=None, decimals=0)
def sparsity_kept(c): return SPARSITY_KEPT


@figure("sparsity.group", "count", "2:4 structured sparsity: values per group", [], definition=True, sig=None, decimals=0)
def sparsity_group(c): return SPARSITY_GROUP


@figure("device.h100.peak_bf16_sparse", "flop_per_s", "dense BF16 peak × values per group ÷ values kept (2:4 sparsity)", H100_IN,
        sig=3, unit="TFLOP/s",
        expression=F("{peak} × {group} ÷ {kept}", peak=("dense BF16 peak", "device.h100.peak_bf16"),
                     group=("values per group", "sparsity.group"), kept=("may be non-zero", "sparsity.kept")))
def h100_peak_sparse(c): return c.devices[H100].peak_flops["bf16"] * SPARSITY_GROUP / SPARSITY_KEPT


# Number formats: bytes per FP8 value, bits per MXFP4 value, gpt-oss-120b as if stored in BF16.
@figure("precision.fp8.bytes", "bytes", "bits per FP8 value ÷ 8", [], definition=True, sig=None, decimals=0, unit="B",
        expression=F("{bits} ÷ {eight}", bits=("bits per FP8 value", 8), eight=("bits per byte", 8)))
def fp8_bytes(c): return precision.FP8.bytes


@figure("precision.mxfp4.bits", "count", "4 bits per value + one 8-bit scale per block of 32 values", [], definition=True, sig=None, decimals=2,
        expression=F("{four} + {scale} ÷ {block}", four=("bits per value", 4), scale=("bits of the shared scale", 8),
                     block=("values per block", 32)))
def mxfp4_bits(c): return precision.MXFP4.bits


@figure("weights.gpt-oss-120b.bytes_bf16", "bytes", "Σ weight groups × 2 bytes (every group in BF16)", GPT_IN,
        expression=F("({bf16} + {mx}) × {b2}", bf16=("parameters in BF16", "params.gpt-oss-120b.bf16"),
                     mx=("parameters in MXFP4", "params.gpt-oss-120b.mxfp4"), b2=("per value (BF16)", "precision.bf16.bytes")))
def gpt_oss_bf16_bytes(c): return M.weight_bytes_stored(c.models[GPT_OSS_120B], "bf16")


# DDR against HBM on one SN40L socket.
@figure("ratio.sn40l.hbm_over_ddr", "ratio", "HBM bandwidth per SN40L socket ÷ DDR bandwidth per socket", SN40L_IN, sig=2,
        expression=F("{hbm} ÷ {ddr}", hbm=("HBM bandwidth per socket", "device.sn40l.hbm_bandwidth"),
                     ddr=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth")))
def sn40l_hbm_over_ddr(c): return c.devices[SN40L].tier("HBM").bytes_per_s / c.devices[SN40L].tier("DDR").bytes_per_s
