"""The model against values derived by hand here, and its properties.

Hand derivations use only the catalog's architecture numbers, written out in
each test, so a wrong formula in model.py cannot agree with itself.
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.data import catalog
from calculators.perf import roofline as M

CAT = catalog.load()
L70 = CAT.models["llama-3.1-70b"]
DS3 = CAT.models["deepseek-v3"]
GPT = CAT.models["gpt-oss-120b"]
H100 = CAT.devices["h100-sxm"]
SN40L = CAT.devices["sn40l"]


# ------------------------------------------------------------ KV cache, exact


def test_llama70b_kv_per_token_bf16():
    # 80 layers x 2 (K, V) x 8 KV heads x 128 head dim x 2 bytes
    assert M.kv_bytes_per_token(L70, "bf16") == 80 * 2 * 8 * 128 * 2 == 327_680


def test_llama70b_kv_uses_head_dim_not_hidden_over_heads():
    # hidden / query heads = 8192 / 64 = 128 happens to agree for Llama; gpt-oss shows why
    # the field matters: 2880 / 64 = 45, but its head dim is 64.
    assert GPT.hidden // GPT.query_heads != GPT.head_dim
    assert GPT.arch.layers[0].attention.kv_values_per_token() == 2 * 8 * 64


def test_kv_precision_halves_with_fp8():
    assert M.kv_bytes_per_token(L70, "fp8") == 327_680 / 2


def test_deepseek_v3_mla_per_token():
    # (kv_lora_rank 512 + rope 64) x 61 layers x 2 bytes, no factor 2 for K and V
    assert M.kv_bytes_per_token(DS3, "bf16") == (512 + 64) * 61 * 2 == 70_272


def test_gpt_oss_sliding_layers_capped_at_window():
    per_layer_token = 2 * 8 * 64 * 2  # bytes
    # 18 full layers grow with context, 18 sliding layers stop at 128 tokens
    for context in (1, 100, 128, 129, 8192, 131072):
        expected = per_layer_token * (18 * context + 18 * min(context, 128))
        assert M.kv_bytes(GPT, context) == expected
    assert M.kv_bytes_per_token(GPT) == 18 * per_layer_token
    assert M.kv_bytes_per_token(GPT, context=64) == 36 * per_layer_token


def test_kv_total_scales_with_batch():
    assert M.kv_bytes(L70, 8192, batch=4) == 4 * 8192 * 327_680


def test_unmodelled_attention_raises_with_reason():
    with pytest.raises(M.ModelError, match="not modelled"):
        M.kv_bytes(CAT.models["deepseek-v4-pro"], 1000)


# --------------------------------------------------------------- weights


# gpt-oss-120b from its config: hidden 2880, 36 layers, 64 query heads and 8 KV heads of
# dimension 64 (with biases and one sink per head), 128 experts of intermediate 2880
# (gate_up 2880 x 5760 + bias, down 2880 x 2880 + bias), a router with bias, vocab 201088.
GPT_EXPERT = 2880 * 5760 + 5760 + 2880 * 2880 + 2880
GPT_ATTN = 2880 * (4096 + 2 * 512) + 4096 * 2880 + (4096 + 2 * 512 + 2880) + 64
GPT_ROUTER = 2880 * 128 + 128
GPT_NORMS = 36 * 2 * 2880 + 2880
GPT_VOCAB = 201088 * 2880


def test_gpt_oss_weights_match_model_card_checkpoint():
    # experts MXFP4 (4.25 bit), everything else BF16; the model card's checkpoint is 60.8 GiB.
    stored = 36 * 128 * GPT_EXPERT * 4.25 / 8 + (36 * (GPT_ATTN + GPT_ROUTER) + GPT_NORMS + 2 * GPT_VOCAB) * 2
    assert M.weight_bytes_stored(GPT) == pytest.approx(stored)
    assert stored / 2**30 == pytest.approx(60.8, abs=0.15)


def test_gpt_oss_reads_active_experts_and_unembedding_only():
    share = 1 - (1 - 4 / 128)  # batch 1: four of 128 experts
    read = 36 * 128 * share * GPT_EXPERT * 4.25 / 8 + (36 * (GPT_ATTN + GPT_ROUTER) + GPT_NORMS + GPT_VOCAB + 2880) * 2
    assert M.weight_bytes_read(GPT, 1) == pytest.approx(read)
    # and the params read agree with the model card's 5.13 B active within 1 %
    assert M.read_params(GPT) == pytest.approx(5.13e9, rel=0.01)


def test_moe_batch_reads_more_experts_but_never_more_than_all():
    reads = [M.weight_bytes_read(GPT, b) for b in (1, 2, 8, 64, 10_000)]
    assert reads == sorted(reads) and reads[0] < reads[-1]
    assert reads[-1] <= M.weight_bytes_stored(GPT) + 1


# Llama 3.1 70B from its config: hidden 8192, 80 layers, 64 query and 8 KV heads of 128,
# gated MLP of 28672, untied vocabulary of 128256, two norms per layer plus the final one.
L70_LAYER = 8192 * (8192 + 2 * 1024) + 8192 * 8192 + 3 * 8192 * 28672 + 2 * 8192
L70_VOCAB = 128256 * 8192
L70_TOTAL = 80 * L70_LAYER + 8192 + 2 * L70_VOCAB
L70_READ = 80 * L70_LAYER + 8192 + L70_VOCAB      # + one embedding row per token


def test_dense_batch_shares_one_weight_read():
    # everything but the embedding table is read once per step, whatever the batch
    assert M.weight_bytes_read(L70, 1) == (L70_READ + 8192) * 2
    assert M.weight_bytes_read(L70, 64) == (L70_READ + 64 * 8192) * 2


def test_precision_override_and_unknown_precision():
    assert M.weight_bytes_stored(L70, "fp8") == L70_TOTAL
    with pytest.raises(M.ModelError, match="unknown precision 'fp7'"):
        M.weight_bytes_stored(L70, "fp7")


# ---------------------------------------------------------- one decode step


def test_llama70b_h100_step_by_hand():
    step = M.decode_step(L70, H100)
    read = (L70_READ + 8192) * 2
    assert step.weights_s == pytest.approx(read / 3.35e12)
    assert step.compute_s == pytest.approx(2 * (L70_TOTAL - L70_VOCAB) / 989e12)
    assert step.bound == "memory"
    assert step.tokens_per_s == pytest.approx(3.35e12 / read)


def test_attention_flops_grow_with_context():
    # 4 x 64 query heads x 128 head dim x 80 layers per attended token
    assert M.flops_per_token(L70, 1000) - M.flops_per_token(L70, 0) == 4 * 64 * 128 * 80 * 1000


def test_large_batch_becomes_compute_bound_without_kv():
    step = M.decode_step(L70, H100, devices=8, batch=4096, context=0)
    assert step.bound == "compute"


def test_device_without_dense_peak_reports_unknown_compute():
    wse = CAT.devices["wse-3"]
    step = M.decode_step(GPT, wse, devices=2)
    assert step.compute_s is None and step.bound == "memory"
    with pytest.raises(M.ModelError, match="no published dense BF16 peak"):
        M.peak_flops(wse, "bf16")


def test_bad_step_inputs():
    for kw in ({"batch": 0}, {"devices": 0}, {"context": -1}, {"efficiency": 0}, {"efficiency": 1.5}):
        with pytest.raises(M.ModelError):
            M.decode_step(L70, H100, **kw)


def test_efficiency_slows_memory_time():
    assert M.decode_step(L70, H100, efficiency=0.5).weights_s == pytest.approx(2 * M.decode_step(L70, H100).weights_s)


# ------------------------------------------------------ tensor parallelism


def test_kv_heads_replicate_beyond_their_count():
    assert M.kv_shards(L70, 4) == 4
    assert M.kv_shards(L70, 8) == 8
    assert M.kv_shards(L70, 16) == 8  # 8 KV heads: 16 devices hold each head twice
    assert M.kv_shards(DS3, 16) == 1  # MLA latent is kept whole on every device


def test_min_devices_by_hand():
    assert M.min_devices(L70, H100) == math.ceil(141.2e9 / 80e9) == 2
    assert M.min_devices(DS3, H100) == math.ceil(671e9 / 80e9) == 9
    # with a long context for a batch, the cache needs more devices
    assert M.min_devices(L70, H100, context=131072, batch=8) > 2


def test_min_devices_gives_up_with_reason():
    with pytest.raises(M.ModelError, match="does not fit"):
        M.min_devices(DS3, H100, context=163840, batch=1000, limit=64)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 64), ctx=st.integers(0, 131072), batch=st.integers(1, 64))
def test_tensor_parallelism_never_increases_per_device_bytes(n, ctx, batch):
    for m in (L70, DS3, GPT):
        one = M.per_device_bytes(m, n, ctx, batch)["total"]
        more = M.per_device_bytes(m, n + 1, ctx, batch)["total"]
        assert more <= one


@settings(max_examples=60, deadline=None)
@given(ctx=st.integers(0, 200_000), extra=st.integers(1, 10_000), batch=st.integers(1, 256))
def test_kv_monotonic_in_context_and_batch(ctx, extra, batch):
    for m in (L70, DS3, GPT):
        assert M.kv_bytes(m, ctx + extra, batch) >= M.kv_bytes(m, ctx, batch)
        assert M.kv_bytes(m, ctx, batch + 1) >= M.kv_bytes(m, ctx, batch)


@settings(max_examples=60, deadline=None)
@given(batch=st.integers(1, 512), ctx=st.integers(0, 131072))
def test_batching_trades_per_request_speed_for_throughput(batch, ctx):
    a = M.decode_step(L70, H100, devices=8, batch=batch, context=ctx)
    b = M.decode_step(L70, H100, devices=8, batch=batch + 1, context=ctx)
    assert b.tokens_per_s <= a.tokens_per_s
    assert b.aggregate_tokens_per_s >= a.aggregate_tokens_per_s * (1 - 1e-12)


# ------------------------------------------------------ prefill and latency


def test_prefill_is_compute_bound_for_long_prompts():
    t = M.prefill_time(L70, H100, 4000, devices=8)
    flops = 4000 * 2 * (L70_TOTAL - L70_VOCAB) + 4 * 64 * 128 * 80 * 4000 * 4001 / 2
    assert t == pytest.approx(flops / (8 * 989e12))


def test_prefill_of_one_token_costs_one_weight_read():
    assert M.prefill_time(L70, H100, 1, devices=2) == pytest.approx((L70_READ + 8192) * 2 / 2 / 3.35e12)


def test_latency_and_agent_loop():
    assert M.end_to_end_latency(0.5, 1000, 500) == pytest.approx(2.5)
    assert M.agent_loop_time(10, 0.5, 1000, 500) == pytest.approx(25.0)
    with pytest.raises(M.ModelError):
        M.end_to_end_latency(0.5, 10, 0)
    with pytest.raises(M.ModelError):
        M.agent_loop_time(0, 0.5, 10, 10)


# ---------------------------------------------------------- tiers, energy


def test_rack_tiers_and_switch_time():
    rack = CAT.racks["sn40l-16"]
    assert M.tier_total(SN40L, "HBM", rack.count) == {"bytes": 16 * 64e9, "bytes_per_s": 16 * 1.6e12}
    assert M.tier_total(SN40L, "DDR", rack.count)["bytes"] == 24e12
    assert M.switch_time(DS3, SN40L, 16, "DDR") == pytest.approx(M.weight_bytes_stored(DS3) / (16 * 100e9))
    # DeepSeek V3 stores about 673 GB: FP8 linear layers with block scales, BF16 embedding and lm_head
    assert M.weight_bytes_stored(DS3) == pytest.approx(673e9, rel=0.002)
    with pytest.raises(M.ModelError, match="no published bandwidth"):
        M.switch_time(DS3, SN40L, 16, "SRAM")


def test_energy_and_implied_bandwidth():
    assert M.energy_per_token(10_000, 713) == pytest.approx(10_000 / 713)
    assert M.implied_bandwidth(L70, 10) == pytest.approx((L70_READ + 8192) * 2 * 10)


# ------------------------------------- measurements against the model's ceiling


@pytest.mark.parametrize("key", sorted(CAT.measurements))
def test_no_measurement_exceeds_its_batch1_ceiling(key):
    """A published speed above the model's batch-1 bound needs a reason in the catalog."""
    meas = CAT.measurements[key]
    step = M.decode_step(CAT.models[meas.model], CAT.devices[meas.device], devices=meas.count)
    if meas.high > step.tokens_per_s:
        assert "speculative" in meas.src.note, f"{key}: {meas.high} tok/s exceeds the ceiling {step.tokens_per_s:.0f}"


def test_ceiling_check_can_fail():
    """The same check flags a measurement on hardware too slow for it."""
    meas = CAT.measurements["aa-gpu-gpt-oss-120b"]
    step = M.decode_step(CAT.models[meas.model], H100, devices=1)
    assert meas.high > step.tokens_per_s  # 683 tok/s on one H100 would exceed the bound
