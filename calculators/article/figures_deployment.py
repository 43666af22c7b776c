"""Figures of the deployment model: tensor parallelism on 8 H100, deployable device counts, the largest batch,
and the figures of the 671B comparison (each measurement row's figures: calculators/figures_rows.py).

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle)."""

from __future__ import annotations

from ..perf import roofline as M
from ..data import scenarios as S
from .figure_base import L70, DS3, M_L70, M_GPT, M_DS3, H100, SN40L, D_H100, D_SN40L, registrar
from ..data.catalog import load

DEFINITIONS = []
figure = registrar(DEFINITIONS)


# === deployment model in the prose and the measurements table (issue 9 parts 4 and 5) ===
# Ceiling: 100 % bandwidth, no communication. Expected: the sourced achieved-bandwidth
# efficiency (serving.toml) and the step's messages (comm.py), each with the link's
# measured per-message latency where one is published (serving.toml, latency_source). Every measurement's row of
# measured.rows() becomes figures, so that the table prints figures like the prose.
from ..perf import comm as _K  # noqa: E402
from ..perf import fit as _FIT  # noqa: E402
from ..perf import measured as _X  # noqa: E402
from ..data import serving as _SV  # noqa: E402
from ..perf.deployment import Deployment as _Dep, shape_from_catalog as _shape  # noqa: E402
from ..memo import by_identity  # noqa: E402

_SERVING_TEXT = _SV.resources.files("calculators.data").joinpath("serving.toml").read_text(encoding="utf-8")


@by_identity(maxsize=1)
def serving_of(c):
    """serving.toml validated against this catalog, once per catalog (tests pass altered ones).
    For the project's own catalog it is serving.load(), the object the measurements table reads
    too, so measured.rows() computes the rows once for both."""
    return _SV.load() if c is load() else _SV.load_text(_SERVING_TEXT, c)


@by_identity(maxsize=1)
def rows_of(c) -> dict:
    """The measurement rows by key (measured.rows) for this catalog."""
    return {r.key: r for r in _X.rows(c, serving_of(c))}


def _tp8_step70(c):
    """Llama 3.1 70B, BF16, TP over the speed example's H100s, batch 1, its prompt as context."""
    sv = serving_of(c)
    link = sv.interconnects[sv.platforms[H100].interconnect]
    return _K.decode_step(_shape(c.models[L70]), _Dep(tp=S.SPEED_DEVICES), c.devices[H100].serving.bytes_per_s,
                          S.SPEED_PROMPT, efficiency=_X.default_efficiency(sv), link=link)


@figure("efficiency.default", "percent", "published: achieved share of peak HBM bandwidth in a decode kernel (FlashMLA on H800, serving.toml)",
        ["efficiency.flashmla-h800"], decimals=1)
def _(c): return _X.default_efficiency(serving_of(c))


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
    return _FIT.fit_device(_shape(c.models[DS3]), c.devices[device], serving_of(c), FIT_CONTEXT, 1)


@figure("engine.reserve", "percent", "1 − the share of memory vLLM lets weights and KV cache use", ["engines.vllm"], decimals=0)
def _(c): return 1 - serving_of(c).engines["vllm"].usable_fraction


@figure("node.h100.gpus", "count", "published: GPUs per HGX node (serving.toml)", ["platforms.h100-sxm"], sig=None, decimals=0)
def _(c): return serving_of(c).platforms[H100].node_size


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
    r = rows_of(c)["aa-gpu-gpt-oss-120b"]
    return (r.ratio_low, r.ratio)


# Terms of the formula objects above (calculators/formulas.py, block "deployment model").
@figure("deploy.llama70b.h100x8.bytes_per_gpu", "bytes", "weights and KV cache each GPU streams per token (TP, batch 1)", [M_L70])
def _(c): return _tp8_step70(c).streamed_bytes


@figure("deploy.llama70b.h100x8.allreduce_bytes", "bytes", "ring all-reduce bytes per GPU per message: 2 × (GPUs − 1) ÷ GPUs × hidden × 2 bytes",
        [M_L70], sig=3)
def _(c): return next(m.wire_bytes for m in _tp8_step70(c).messages if m.what == "tp-allreduce")


@figure("interconnect.nvlink4.latency", "seconds", "published: measured NVLink 4 all-reduce latency per message (serving.toml)", ["latencies.nvlink4"], sig=2)
def _(c): return serving_of(c).interconnects["nvlink4"].latency_s


@figure("interconnect.nvlink4.bandwidth", "bytes_per_s", "published: NVLink 4 bandwidth per GPU and direction (serving.toml)", ["interconnects.nvlink4"], sig=3)
def _(c): return serving_of(c).interconnects["nvlink4"].bytes_per_s


@figure("engine.vllm.usable", "percent", "published default: share of GPU memory vLLM lets weights and KV cache use (serving.toml)", ["engines.vllm"], decimals=0)
def _(c): return serving_of(c).engines["vllm"].usable_fraction


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
    room = S.SPEED_DEVICES * d.serving.bytes * serving_of(c).engines["vllm"].usable_fraction - M.weight_bytes_stored(m)
    return int(room // (context * M.kv_bytes_per_token(m, "bf16")))


@figure("util.llama70b.limit_8k", "percent", "compute time ÷ KV read time per request (the limit as the batch grows, 8K context)",
        [M_L70, D_H100], decimals=0)
def _(c): return _util_limit(c, FIT_CONTEXT)


@figure("batch.llama70b.max_8k", "count", "(GPUs × HBM × engine share − weights) ÷ KV cache per request (8K context)",
        [M_L70, D_H100, "engines.vllm"], sig=None, decimals=0)
def _(c): return _largest_batch(c, FIT_CONTEXT)


def _max_batch_step(c):
    return M.decode_step(c.models[L70], c.devices[H100], devices=S.SPEED_DEVICES, batch=_largest_batch(c, FIT_CONTEXT), context=FIT_CONTEXT)


@figure("util.llama70b.max_batch_8k", "percent", "compute time ÷ step time at the largest batch that fits (8K context)", [M_L70, D_H100, "engines.vllm"], decimals=0)
def _(c): return _max_batch_step(c).compute_utilisation


# The two sides of that step's roofline (the terms of its formula; texts as in figure_terms.py).
@figure("util.llama70b.max_batch_8k.memory_time", "seconds", "memory time of one decode step: (weight bytes + KV bytes) ÷ (GPUs × HBM bandwidth)",
        [M_L70, D_H100])
def _(c): return _max_batch_step(c).memory_s


@figure("util.llama70b.max_batch_8k.compute_time", "seconds", "compute time of one decode step: batch × FLOP per token ÷ (GPUs × dense peak)",
        [M_L70, D_H100])
def _(c): return _max_batch_step(c).compute_s
