"""Figures of the deployment model: tensor parallelism on 8 H100, deployable device counts, the largest batch,
and the figures of the 671B comparison (each measurement row's figures: topics/rows.py).

Ceiling: 100 % bandwidth, no communication. Expected: the calibrated step time
(calculators/perf/step_time.py), term by term (topics/steptime.py declares the terms)."""

from __future__ import annotations

from functools import cache

from ...data import scenarios as S
from ...data import serving as SV
from ...data.catalog import load
from ...perf import comm
from ...perf import fit as fitting
from ...perf import step_time as T
from ...perf import measured
from ...perf import roofline as M
from ...perf.deployment import Deployment, shape_from_catalog
from ...example.figure import DEEPSEEK_V3, GPT_OSS_120B, H100, LLAMA_70B, SN40L, declarer
from ...example.formula import F
from .step import ACTIVE, ROW
from .steptime import declare_step

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

L70_IN, DS3_IN, H100_IN, SN40L_IN = [f"models.{LLAMA_70B}"], [f"models.{DEEPSEEK_V3}"], [f"devices.{H100}"], [f"devices.{SN40L}"]
DEP70 = "deploy.llama70b.h100x8"
BF16 = ("per value (BF16)", "precision.bf16.bytes")
HBM_BW = ("HBM bandwidth", "device.h100.bandwidth")
USABLE = ("usable", "engine.vllm.usable")


@cache
def serving_of(c):
    """serving.toml validated against this catalog, once per catalog (tests pass altered ones).
    For the project's own catalog it is serving.load(), the object the measurements table reads
    too, so measured.rows() computes the rows once for both."""
    return SV.load() if c is load() else SV.load_text(SV.text(), c)


@cache
def rows_of(c) -> dict:
    """The measurement rows by key (measured.rows) for this catalog."""
    return {r.key: r for r in measured.rows(c, serving_of(c))}


def _tp8_step70(c):
    """Llama 3.1 70B, BF16, TP over the speed example's H100s, batch 1, its prompt as context."""
    sv = serving_of(c)
    link = c.devices[H100].link
    return comm.decode_step(shape_from_catalog(c.models[LLAMA_70B]), Deployment(tp=S.SPEED_DEVICES), c.devices[H100].serving.bytes_per_s,
                            S.SPEED_PROMPT, efficiency=measured.default_efficiency(sv), link=link)


def _tp8_setup70(c, precision=None):
    """Llama 3.1 70B over the speed example's H100s, tensor parallel, served by an engine the site does not name."""
    return T.setup(c.models[LLAMA_70B], c.devices[H100], Deployment(tp=S.SPEED_DEVICES), "generic", "bf16", precision)


@figure(f"{DEP70}.allreduces", "count", "2 all-reduces per layer × layers (tensor parallelism, one decode step)", L70_IN, sig=None, decimals=0,
        expression=F("{two} × {layers}", two=("all-reduces per layer", 2), layers=("layers", "model.llama70b.layers")))
def tp8_allreduces(c): return sum(m.count for m in _tp8_step70(c).messages if m.what == "tp-allreduce")


@figure(f"{DEP70}.ceiling", "tok_per_s", "HBM bandwidth ÷ bytes each GPU streams per token (TP, batch 1, 100 %, no communication)",
        L70_IN + H100_IN, expression=F("{bw} ÷ {b}", bw=HBM_BW, b=("per GPU and token", f"{DEP70}.bytes_per_gpu")))
def tp8_ceiling(c): return _tp8_step70(c).ceiling_tokens_per_s


# The expected step, term by term: batch 1 at the speed example's context, in BF16 and in FP8.
_ONE = T.Workload(1, S.SPEED_PROMPT)
declare_step(DEP70, _tp8_setup70, _ONE, L70_IN + H100_IN + ["kv_bandwidth.hopper", "allreduce.vllm-custom"])
declare_step(f"{DEP70}.fp8", lambda c: _tp8_setup70(c, "fp8"), _ONE, L70_IN + H100_IN + ["kv_bandwidth.hopper", "allreduce.vllm-custom"])


@figure("deploy.aa-gpu-llama-3.1-70b.over_expected", "percent", "measured GPU providers' speed ÷ expected speed on 8 H100",
        ["measurements.aa-gpu-llama-3.1-70b"] + L70_IN + H100_IN + ["fits.step-time"], decimals=0,
        expression=F("{m} ÷ {e}", m=("measured on GPUs", "measured.aa-gpu-llama-3.1-70b"), e=("expected", f"{DEP70}.expected")))
def over_expected(c):
    m, e = c.measurements["aa-gpu-llama-3.1-70b"], 1 / T.terms(_tp8_setup70(c), _ONE, serving=serving_of(c), cat=c).step_s
    return (m.low / e, m.high / e)


# The 671B comparison with deployable counts: whole nodes of eight and the engine's reserve, at 8K context, batch 1.
FIT_CONTEXT = S.CONTEXTS[0]


def _fit_ds3(c, device):
    return fitting.fit_device(shape_from_catalog(c.models[DEEPSEEK_V3]), c.devices[device], FIT_CONTEXT, 1)


_HELD = ("to hold", "deploy.deepseek-v3.held_8k")


@figure("engine.reserve", "percent", "1 − the share of memory vLLM lets weights and KV cache use", ["engines.vllm"], decimals=0,
        expression=F("{one} − {u}", one=("", 1), u=USABLE))
def engine_reserve(c): return 1 - c.engines["vllm"].usable_fraction


@figure("node.h100.gpus", "count", "published: GPUs per HGX node", ["platforms.h100-sxm"], sig=None, decimals=0)
def h100_node_gpus(c): return c.devices[H100].node.size


@figure("fit.deepseek-v3.h100.deployable", "count", "whole nodes of GPUs holding FP8 weights + KV cache (8K, batch 1) within the engine's share",
        DS3_IN + H100_IN + ["engines.vllm", "platforms.h100-sxm"], sig=None, decimals=0,
        expression=F("⌈⌈{held} ÷ ({mem} × {u})⌉ ÷ {node}⌉ × {node}", held=_HELD, mem=("HBM per GPU", "device.h100.memory"), u=USABLE,
                     node=("GPUs per node", "node.h100.gpus")))
def deepseek_h100_deployable(c): return _fit_ds3(c, H100).deployable_devices


@figure("fit.deepseek-v3.sn40l.deployable", "count", "whole nodes of SN40L sockets holding FP8 weights + KV cache (8K, batch 1)",
        DS3_IN + SN40L_IN + ["platforms.sn40l"], sig=None, decimals=0,
        expression=F("⌈⌈{held} ÷ {mem}⌉ ÷ {node}⌉ × {node}", held=_HELD, mem=("HBM per socket", "sn40l.socket.hbm"),
                     node=("sockets per node", "sn40l.node.sockets")))
def deepseek_sn40l_deployable(c): return _fit_ds3(c, SN40L).deployable_devices


@figure("fit.deepseek-v3.reduction_deployable", "percent", "1 − deployable SN40L sockets ÷ deployable H100 GPUs", DS3_IN + H100_IN + SN40L_IN,
        decimals=0, expression=F("{one} − {sn} ÷ {gpu}", one=("", 1), sn=("SN40L sockets", "fit.deepseek-v3.sn40l.deployable"),
                                 gpu=("H100 GPUs", "fit.deepseek-v3.h100.deployable")))
def deepseek_reduction_deployable(c): return 1 - _fit_ds3(c, SN40L).deployable_devices / _fit_ds3(c, H100).deployable_devices


# The GPU providers' gpt-oss-120b range against the ceiling of the deployment the site assumes for them.
@figure("deploy.aa-gpu-gpt-oss-120b.over_ceiling", "percent", "measured speed ÷ ceiling (assumed: one B200, the fewest that hold the model)",
        ["measurements.aa-gpu-gpt-oss-120b", f"models.{GPT_OSS_120B}", "devices.b200"], decimals=1,
        expression=F("{m} ÷ {c}", m=("measured on GPUs", "measured.aa-gpu-gpt-oss-120b"), c=("ceiling", "row.aa-gpu-gpt-oss-120b.ceiling")))
def gpt_oss_over_ceiling(c):
    r = rows_of(c)["aa-gpu-gpt-oss-120b"]
    return (r.ratio_low, r.ratio)


# Terms of the formula objects above.
@figure(f"{DEP70}.bytes_per_gpu", "bytes", "weights and KV cache each GPU streams per token (TP, batch 1)", L70_IN,
        expression=F("{w} ÷ {n} + {kv} × {ctx} ÷ {split}", w=("read per token", "weights.llama70b.read_per_token"),
                     n=("GPUs", "speed.devices"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"),
                     ctx=("tokens of context", "speed.prompt"), split=("parts the KV cache is split into", "speed.devices")))
def tp8_bytes_per_gpu(c): return _tp8_step70(c).streamed_bytes


@figure("interconnect.nvlink4.bandwidth", "bytes_per_s", "published: NVLink 4 bandwidth per GPU and direction",
        ["interconnects.nvlink4"], sig=3)
def nvlink4_bandwidth(c): return c.interconnects["nvlink4"].bytes_per_s


@figure("engine.vllm.usable", "percent", "published default: share of GPU memory vLLM lets weights and KV cache use",
        ["engines.vllm"], decimals=0)
def vllm_usable(c): return c.engines["vllm"].usable_fraction


@figure("deploy.deepseek-v3.held_8k", "bytes", "FP8 weights + MLA cache of one request at 8K context", DS3_IN,
        expression=F("{w} + {kv} × {ctx}", w=("of weights (FP8)", "weights.deepseek-v3.bytes"),
                     kv=("KV cache per token", "kv.deepseek-v3.bytes_per_token_long"), ctx=("tokens of context", "context.8192")))
def deepseek_held_8k(c):
    shape = shape_from_catalog(c.models[DEEPSEEK_V3])
    return shape.weights_stored() + shape.kv_bytes(FIT_CONTEXT)


@figure("flops.llama70b.per_token_8k", "flop", "2 × parameters + attention FLOP per token at 8K context", L70_IN,
        expression=F("{w} + {attn}", w=("for the weights", "flops.llama70b.per_token"), attn=("for attention", "flops.llama70b.attention.8192")))
def llama70b_flops_8k(c): return M.flops_per_token(c.models[LLAMA_70B], FIT_CONTEXT)


# Claim 14: at 8K context the KV cache grows with the batch as fast as the arithmetic does,
# so utilisation approaches a limit that no batch size passes.
def _util_limit(c, context):
    one = M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=1, context=context)
    return one.compute_s / one.kv_s


def _largest_batch(c, context):
    """Requests whose KV cache fits beside the weights in the engine's share of the speed example's GPUs."""
    m, d = c.models[LLAMA_70B], c.devices[H100]
    room = S.SPEED_DEVICES * d.serving.bytes * c.engines["vllm"].usable_fraction - M.weight_bytes_stored(m)
    return int(room // (context * M.kv_bytes_per_token(m, "bf16")))


_KV8K = dict(ctx=("tokens of context each", "context.8192"), kv=("KV cache per token", "kv.llama70b.bytes_per_token"))


@figure("util.llama70b.limit_8k", "percent", "compute time ÷ KV read time per request (the limit as the batch grows, 8K context)",
        L70_IN + H100_IN, decimals=0,
        expression=F("({f} ÷ {peak}) ÷ ({ctx} × {kv} ÷ {bw})", f=("per token", "flops.llama70b.per_token_8k"),
                     peak=("BF16 peak", "device.h100.peak_bf16"), ctx=("tokens", "context.8192"),
                     kv=("KV cache per token", "kv.llama70b.bytes_per_token"), bw=HBM_BW))
def util_limit_8k(c): return _util_limit(c, FIT_CONTEXT)


# The largest batch: whole requests whose KV cache fits beside the weights in the engine's share of the GPUs.
@figure("batch.llama70b.max_8k", "count", "(GPUs × HBM × engine share − weights) ÷ KV cache per request (8K context)",
        L70_IN + H100_IN + ["engines.vllm"], sig=None, decimals=0,
        expression=F("⌊({n} × {mem} × {u} − {w}) ÷ ({ctx} × {kv})⌋", n=("GPUs", "speed.devices"), mem=("HBM per GPU", "device.h100.memory"),
                     u=USABLE, w=("of weights (BF16)", "weights.llama70b.bytes"), **_KV8K))
def max_batch_8k(c): return _largest_batch(c, FIT_CONTEXT)


def _max_batch_step(c):
    return M.decode_step(c.models[LLAMA_70B], c.devices[H100], devices=S.SPEED_DEVICES, batch=_largest_batch(c, FIT_CONTEXT),
                         context=FIT_CONTEXT)


_MAXB = "util.llama70b.max_batch_8k"
_B = ("requests", "batch.llama70b.max_8k")


# The utilisation at that batch: the roofline step (topics/step.py), with the batch a figure.
@figure(_MAXB, "percent", "compute time ÷ step time at the largest batch that fits (8K context)", L70_IN + H100_IN + ["engines.vllm"],
        decimals=0, expression=F("{c} ÷ max({m}, {c})", m=("memory time", f"{_MAXB}.memory_time"), c=("compute time", f"{_MAXB}.compute_time")))
def util_max_batch(c): return _max_batch_step(c).compute_utilisation


@figure(f"{_MAXB}.memory_time", "seconds", "memory time of one decode step: (weight bytes + KV bytes) ÷ (GPUs × HBM bandwidth)", L70_IN + H100_IN,
        expression=F("(({act} + {b} × {row}) × {bytes} + {b} × {ctx} × {kv}) ÷ ({n} × {bw})", act=ACTIVE, row=ROW, b=_B, bytes=BF16,
                     **_KV8K, n=("GPUs", "speed.devices"), bw=("HBM bandwidth each", "device.h100.bandwidth")))
def max_batch_memory_time(c): return _max_batch_step(c).memory_s


@figure(f"{_MAXB}.compute_time", "seconds", "compute time of one decode step: batch × FLOP per token ÷ (GPUs × dense peak)", L70_IN + H100_IN,
        expression=F("{b} × ({flops} + {attn}) ÷ ({n} × {peak})", b=_B, flops=("per token", "flops.llama70b.per_token"),
                     attn=("for attention", "flops.llama70b.attention.8192"), n=("GPUs", "speed.devices"),
                     peak=("BF16 peak each", "device.h100.peak_bf16")))
def max_batch_compute_time(c): return _max_batch_step(c).compute_s
