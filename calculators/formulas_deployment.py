"""Formula objects of the deployment model: tensor parallelism on 8 H100, deployable device counts,
and each measurement row of the measurements table.
"""

from __future__ import annotations

from .formula_object import F

L70 = "model.llama70b"
FORMULAS = {}
# === deployment model in the prose and the measurements table (issue 9 parts 4 and 5; helper h/prose) ===
# Kept as one block so that it merges cleanly beside other additions to FORMULAS.
# Not given a formula object (their formula text says it): ranges (the formula
# checker takes single values), the largest batch (a floor), the utilisation at
# that batch, and each row's expected speed (efficiency, messages and speculation
# differ per row).
_DEP70 = "deploy.llama70b.h100x8"
FORMULAS.update({
    f"{_DEP70}.allreduces": F("{two} × {layers}", two=("all-reduces per layer", 2), layers=("layers", f"{L70}.layers")),
    f"{_DEP70}.comm_time": F("{n} × {b} ÷ {bw}", n=("all-reduces", f"{_DEP70}.allreduces"), b=("per GPU each", f"{_DEP70}.allreduce_bytes"),
                             bw=("NVLink bandwidth", "interconnect.nvlink4.bandwidth")),
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
FORMULAS.update(_row_formulas())
