"""Formula objects of the hardware: racks and nodes, how many devices hold a model, power and energy.
"""

from __future__ import annotations

from .formula import F

FORMULAS = {}
# The rack's memory per tier, as figures_hardware's tier loop computes it.
for _tier in ("sram", "hbm", "ddr"):
    FORMULAS[f"sn40l.rack.{_tier}"] = F("{socket} × {n}", socket=("per socket", f"sn40l.socket.{_tier}"),
                                        n=("sockets", "sn40l.rack.sockets"))
FORMULAS.update({
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
    "fit.llama70b.h100.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (BF16)", "weights.llama70b.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "claim.gpu.h100_needed_671b_fp8": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "fit.deepseek-v3.h100.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per GPU", "device.h100.memory")),
    "fit.deepseek-v3.sn40l.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (FP8)", "weights.deepseek-v3.bytes"), mem=("HBM per socket", "sn40l.socket.hbm")),
    "fit.llama70b.groq-lpu.devices": F("⌈{w} ÷ {mem}⌉", w=("of weights (BF16)", "weights.llama70b.bytes"), mem=("SRAM per chip", "device.groq-lpu.sram")),
    "switch.gpt-oss-120b.sn40l-rack": F("{w} ÷ ({bw} × {n})", w=("of weights", "weights.gpt-oss-120b.bytes"),
                                        bw=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth"), n=("sockets", "sn40l.rack.sockets")),
    "switch.deepseek-v3.sn40l-rack": F("{w} ÷ ({bw} × {n})", w=("of weights", "weights.deepseek-v3.bytes"),
                                       bw=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth"), n=("sockets", "sn40l.rack.sockets")),
    "infercom.chips_from_racks": F("{racks} × {n}", racks=("racks", "infercom.racks"), n=("sockets per rack", "sn40l.rack.sockets")),
    "device.h100.peak_bf16_sparse": F("{peak} × {group} ÷ {kept}", peak=("dense BF16 peak", "device.h100.peak_bf16"),
                                      group=("values per group", "sparsity.group"), kept=("may be non-zero", "sparsity.kept")),
    "ratio.sn40l.hbm_over_ddr": F("{hbm} ÷ {ddr}", hbm=("HBM bandwidth per socket", "device.sn40l.hbm_bandwidth"),
                                  ddr=("DDR bandwidth per socket", "device.sn40l.ddr_bandwidth")),
    "power.ratio": F("{gpu} ÷ {sn}", gpu=("GPU rack", "power.gpu-rack"), sn=("SN40L rack", "power.sn40l-rack")),
})
