"""Formula objects of the deployment model: Llama 3.1 70B over 8 H100 (TP8), deployable device counts,
the largest batch at 8K context and the utilisation it reaches (each measurement row's: formulas_rows.py).
"""

from __future__ import annotations

from .formula import F

L70 = "model.llama70b"
FORMULAS = {}
# The TP8 example: bytes each GPU streams, its all-reduces, ceiling and expected speed.
_DEP70 = "deploy.llama70b.h100x8"
FORMULAS.update({
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

# What each GPU streams per token (TP over the speed example's GPUs, its prompt as context): its share of the
# weights read and of the request's KV cache, split by KV head (8 heads over 8 GPUs).
_ACT, _ROW = ("parameters a token multiplies with", "params.llama70b.active"), ("values in one embedding row", "model.llama70b.hidden")
_MAXB = "util.llama70b.max_batch_8k"
FORMULAS.update({
    f"{_DEP70}.bytes_per_gpu": F("{w} ÷ {n} + {kv} × {ctx} ÷ {split}", w=("read per token", "weights.llama70b.read_per_token"),
                                 n=("GPUs", "speed.devices"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"),
                                 ctx=("tokens of context", "speed.prompt"), split=("parts the KV cache is split into", "speed.devices")),
    "deploy.deepseek-v3.held_8k": F("{w} + {kv} × {ctx}", w=("of weights (FP8)", "weights.deepseek-v3.bytes"),
                                    kv=("KV cache per token", "kv.deepseek-v3.bytes_per_token_long"), ctx=("tokens of context", "context.8192")),
    "flops.llama70b.per_token_8k": F("{w} + {attn}", w=("for the weights", "flops.llama70b.per_token"),
                                     attn=("for attention", "flops.llama70b.attention.8192")),
    "deploy.aa-gpu-gpt-oss-120b.over_ceiling": F("{m} ÷ {c}", m=("measured on GPUs", "measured.aa-gpu-gpt-oss-120b"),
                                                 c=("ceiling", "row.aa-gpu-gpt-oss-120b.ceiling")),
    "deploy.aa-gpu-llama-3.1-70b.over_expected": F("{m} ÷ {e}", m=("measured on GPUs", "measured.aa-gpu-llama-3.1-70b"),
                                                   e=("expected", f"{_DEP70}.expected")),
    # The largest batch: whole requests whose KV cache fits beside the weights in the engine's share of the GPUs.
    "batch.llama70b.max_8k": F("⌊({n} × {mem} × {u} − {w}) ÷ ({ctx} × {kv})⌋", n=("GPUs", "speed.devices"),
                               mem=("HBM per GPU", "device.h100.memory"), u=("usable", "engine.vllm.usable"),
                               w=("of weights (BF16)", "weights.llama70b.bytes"), ctx=("tokens of context each", "context.8192"),
                               kv=("KV cache per token", "kv.llama70b.bytes_per_token")),
    # The utilisation at that batch: the roofline step, as in formulas_step.py, with the batch a figure.
    f"{_MAXB}.memory_time": F("(({act} + {b} × {row}) × {bytes} + {b} × {ctx} × {kv}) ÷ ({n} × {bw})", act=_ACT, row=_ROW,
                              b=("requests", "batch.llama70b.max_8k"), bytes=("per value (BF16)", "precision.bf16.bytes"),
                              ctx=("tokens of context each", "context.8192"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"),
                              n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth")),
    f"{_MAXB}.compute_time": F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=("requests", "batch.llama70b.max_8k"),
                               flops=("per token", "flops.llama70b.per_token"), attn=("for attention", "flops.llama70b.attention.8192"),
                               n=("GPUs", "speed.devices"), peak=("BF16 peak each", "device.h100.peak_bf16")),
    _MAXB: F("{c} ÷ max({m}, {c})", m=("memory time", f"{_MAXB}.memory_time"), c=("compute time", f"{_MAXB}.compute_time")),
})
