"""The step-time terms, each checked against a hand computation from first principles (the configs'
published numbers and the constants file), not against the code's own intermediate results.

The constants (η_w, τ, s½, u, the band) are read from calculators/data/step_time.toml as data; what is
tested is that the model combines them with bytes, FLOPs, layers and messages as the docstring says.
"""

from __future__ import annotations

import math
import tomllib

import pytest

from calculators.data import catalog, serving
from calculators.perf import step_time as T
from calculators.perf.deployment import Deployment

CAT, SV = catalog.load(), serving.load()
RAW = tomllib.loads(T.constants_text())
P = RAW["parameters"]
TAU_VLLM_NV = P["fixed_per_layer_s"]["vllm/nvidia"]
ETA_NV = P["weights_efficiency"]["nvidia"]


def _setup(model, device, dep, engine="vllm", kv="bf16", **kw):
    return T.setup(CAT.models[model], CAT.devices[device], dep, engine, kv, **kw)


# ----------------------------------------------------------------------- sourced inputs

def test_kv_efficiency_of_hopper_is_the_mean_of_the_published_slopes():
    # Llama 3.1 8B: 32 layers × 2 (K, V) × 8 KV heads × 128 × 2 bytes = 131,072 B per token of context;
    # gpt-oss-20b: only its 12 full-attention layers grow: 12 × 2 × 8 × 64 × 2 = 24,576 B.
    llama = 131_072 / 4.37e-8 / 3.35e12     # 0.8953
    oss = 24_576 / 8.94e-9 / 3.35e12        # 0.8206
    assert T.kv_efficiency("h100-sxm", SV, CAT) == pytest.approx((llama + oss) / 2, rel=1e-9)
    assert T.kv_efficiency("h200", SV, CAT) == T.kv_efficiency("h100-sxm", SV, CAT)   # H200 takes H100's slopes


def test_kv_efficiency_of_mi300x_is_the_measured_bandwidth_over_the_peak():
    assert T.kv_efficiency("mi300x", SV, CAT) == pytest.approx(4.2 / 5.3)


def test_a_device_no_measurement_calibrates_has_no_expected_value():
    assert not T.calibrated("sn40l")
    with pytest.raises(T.StepTimeError, match="calibrates"):
        T.kv_efficiency("sn40l", SV, CAT)


def test_all_reduce_line_through_two_points():
    latency, bw = T.line_fit([(0.0, 10e-6), (1e6, 20e-6)])
    assert latency == pytest.approx(10e-6) and bw == pytest.approx(1e11)


def test_the_vllm_all_reduce_curve_is_the_least_squares_line_of_the_published_points():
    pts = [(512, 10.1e-6), (4096, 9.3e-6), (32768, 11.8e-6), (262144, 24.1e-6), (524288, 30.4e-6), (1048576, 45.0e-6)]
    n = len(pts)
    sx, sy = sum(x for x, _ in pts), sum(y for _, y in pts)
    sxx, sxy = sum(x * x for x, _ in pts), sum(x * y for x, y in pts)
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    latency, bw, largest = T.allreduce_curve("vllm", "nvlink4", SV)
    assert bw == pytest.approx(1 / slope) and latency == pytest.approx((sy - slope * sx) / n) and largest == 1048576
    assert T.allreduce_curve("trtllm", "nvlink4", SV)[0] < latency          # TensorRT-LLM's kernel: lower latency
    assert T.allreduce_curve("vllm", "infinity-fabric", SV) is None         # no published table: none invented


# ----------------------------------------------------------------------- routing

def test_share_of_experts_a_batch_reads():
    # DeepSeek V3: 8 of 256 experts per token; 4 tokens hit 1 − (1 − 8/256)^4 of them
    assert T.expert_hit_share(256, 8, 4) == pytest.approx(1 - (248 / 256) ** 4)


def test_expected_largest_group_of_hit_experts():
    # two groups of one expert, each hit with p = 0.5: E[max] = P(at least one hit) = 0.75
    assert T.expected_max_hits(1, 0.5, 2) == pytest.approx(0.75)
    # one group: the mean, n p
    assert T.expected_max_hits(128, 0.25, 1) == pytest.approx(32)
    # two groups of 128 experts at p = 8/256: the busier group reads more than the mean of 4
    assert T.expected_max_hits(128, 8 / 256, 2) > 4


# ----------------------------------------------------------------------- one step by hand

def test_llama_8b_on_one_h100_at_batch_1_is_weights_at_the_fitted_share_plus_32_layers_of_fixed_cost():
    # Parameters read per token (config: 32 layers, hidden 4096, MLP 14336, 32 query and 8 KV heads of 128,
    # vocabulary 128,256): attention 2 × 4096² + 2 × 4096 × 1024, MLP 3 × 4096 × 14336, two norms of 4096;
    # plus one embedding row, the final norm and the lm_head (128,256 × 4096). BF16: 2 bytes each.
    layer = 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096
    params = 32 * layer + 4096 + 4096 + 128256 * 4096
    assert params == 7_504_928_768
    memory = 2 * params / (ETA_NV * 3.35e12)
    fixed = 32 * TAU_VLLM_NV
    t = T.terms(_setup("llama-3.1-8b", "h100-sxm", Deployment()), T.Workload(1, 0, 1))
    assert t.weights_s == pytest.approx(memory, rel=1e-9)
    assert t.fixed_s == pytest.approx(fixed, rel=1e-12)
    assert t.kv_s == 0 and t.comm_s == 0 and t.experts_s == 0 and t.cpu_s == 0 and t.prefill_s == 0
    # compute: 2 FLOP per active parameter (without the embedding row) at the BF16 peak × u, far below memory
    flops = 2 * (params - 4096)
    assert t.compute_s == pytest.approx(flops / (989e12 * P["compute"]["mfu"]), rel=1e-6)
    assert t.step_s == pytest.approx(memory + fixed, rel=1e-9)
    assert t.bound == "memory"


def test_kv_cache_is_read_at_the_sourced_attention_share():
    # 8 requests at 20,000 tokens of context each: 8 × 20,000 × 131,072 B ÷ (3.35 TB/s × η_kv)
    w = T.Workload(8, 20_000 - 1000, 2000)     # context = input + output ÷ 2 = 20,000
    t = T.terms(_setup("llama-3.1-8b", "h100-sxm", Deployment()), w)
    eta_kv = T.kv_efficiency("h100-sxm", SV, CAT)
    assert t.kv_s == pytest.approx(8 * 20_000 * 131_072 / (3.35e12 * eta_kv), rel=1e-9)


def test_tensor_parallel_all_reduces_are_two_per_layer_of_the_batch_activations():
    # Llama 3.1 70B on 8 H100 with vLLM, batch 4: 160 all-reduces of 4 × 8192 × 2 bytes = 65,536 B each
    latency, bw, _ = T.allreduce_curve("vllm", "nvlink4", SV)
    t = T.terms(_setup("llama-3.1-70b", "h100-sxm", Deployment(tp=8)), T.Workload(4, 100, 2))
    assert t.collectives == 160
    assert t.comm_s == pytest.approx(160 * (latency + 65_536 / bw), rel=1e-9)


def test_a_message_beyond_the_measured_sizes_streams_at_the_ring_rate():
    latency, bw, largest = T.allreduce_curve("vllm", "nvlink4", SV)
    link = CAT.devices["h100-sxm"].link
    four_mib = 4 * 1048576
    got = T.collective_s(four_mib, 8, (latency, bw, largest), link)
    assert got == pytest.approx(latency + largest / bw + (four_mib - largest) * 2 * 7 / 8 / 450e9)


def test_deepseek_expert_slices_stream_at_the_slice_efficiency():
    # DeepSeek V3 on 8 H200, TP8 (experts split 8 ways), batch 1: 58 MoE layers × 8 experts, each expert
    # 3 × 7168 × 2048 parameters in FP8 with one FP32 scale per 128 × 128 block (8 + 32/16384 bits).
    expert = 3 * 7168 * 2048 * (8 + 32 / 16384) / 8
    slice_bytes = expert / 8
    half = P["expert_slice"]["half_bytes"]
    eff = slice_bytes / (slice_bytes + half)
    t = T.terms(_setup("deepseek-v3", "h200", Deployment(tp=8)), T.Workload(1, 1000, 2))
    assert t.bytes_experts == pytest.approx(58 * 8 * slice_bytes, rel=1e-9)
    assert t.slice_efficiency == pytest.approx(eff, rel=1e-12)
    assert t.experts_s == pytest.approx(58 * 8 * slice_bytes / (ETA_NV * eff * 4.8e12), rel=1e-9)


def test_fixed_cost_counts_layer_kinds():
    # DeepSeek V3: 61 latent-attention layers, 58 of them with a MoE MLP: 61 + 58 w_moe + 61 w_latent units
    w = P["layer_weight"]
    t = T.terms(_setup("deepseek-v3", "h200", Deployment(tp=8)), T.Workload(1, 1000, 2))
    assert t.layer_units == pytest.approx(61 + 58 * w["moe"] + 61 * w["latent"])
    assert t.fixed_s == pytest.approx(t.layer_units * TAU_VLLM_NV)


def test_generic_engine_takes_the_geometric_mean_of_the_calibrated_engines():
    taus = [v for k, v in P["fixed_per_layer_s"].items() if k.endswith("/nvidia") and "eager" not in k]
    c = T.constants()
    assert c.tau("generic", "nvidia") == pytest.approx(math.prod(taus) ** (1 / len(taus)))
    with pytest.raises(T.StepTimeError):
        c.tau("trtllm", "amd")


def test_without_graphs_each_request_costs_cpu_time():
    c = P["cpu_per_request_s"]["vllm-eager/amd"]
    t = T.terms(_setup("llama-3.1-405b", "mi300x", Deployment(tp=8), weight_precision="fp8", graphs=False), T.Workload(16, 128, 2048))
    assert t.cpu_s == pytest.approx(16 * c)


def test_other_requests_prefills_land_in_a_serving_benchmarks_steps():
    # concurrency 4, 800 output tokens: each of the 3 other slots starts a request every 800 steps
    s = _setup("llama-3.1-70b", "h100-sxm", Deployment(tp=8))
    step = T.terms(s, T.Workload(4, 3200, 800, "step"))
    online = T.terms(s, T.Workload(4, 3200, 800, "online"))
    one = T.prefill_s(s, 3200, 3200, step, T.constants())
    assert online.prefill_s == pytest.approx(3 / 800 * one, rel=1e-9)
    assert step.prefill_s == 0 and online.step_s == pytest.approx(step.step_s)
    # alone, nothing lands: concurrency 1
    assert T.terms(s, T.Workload(1, 3200, 800, "online")).prefill_s == 0


def test_the_band_is_the_held_out_spread_applied_to_the_expected_time():
    e = T.expected(_setup("llama-3.1-70b", "h100-sxm", Deployment(tp=8)), T.Workload(1, 1000, 2))
    lo, hi = RAW["band"]["low"], RAW["band"]["high"]
    assert e.low_s == pytest.approx(e.time_s * lo) and e.high_s == pytest.approx(e.time_s * hi)
    slow, fast = e.tokens_per_s_range
    assert slow < e.tokens_per_s < fast or lo <= 1 <= hi


def test_expected_is_never_faster_than_the_ceiling():
    from calculators.perf import comm
    for model, device, tp in (("llama-3.1-70b", "h100-sxm", 8), ("deepseek-v3", "h200", 8), ("llama-3.1-8b", "b200", 1)):
        s = _setup(model, device, Deployment(tp=tp))
        for batch in (1, 8, 64):
            ceiling = comm.decode_step(s.shape, s.deployment, CAT.devices[device].serving.bytes_per_s, 2000, batch).ceiling_s
            assert T.terms(s, T.Workload(batch, 1000, 2000, "step")).step_s > ceiling
