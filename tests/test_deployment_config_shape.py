"""The deployment protocol fed from config.json numbers, as the coming per-layer specs will.

DeepSeek-V3's config.json (deepseek-ai/DeepSeek-V3): hidden 7168, 61 layers,
the first 3 dense (intermediate 18432), then MoE with 256 routed experts
(8 per token) and 1 shared expert of intermediate 2048; MLA with q_lora_rank
1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head 128, 128 heads;
vocabulary 129280. Weights in FP8 (1 byte). The published totals (671 B
parameters, 37 B active) are checks on the derived counts here.
"""

import math

import pytest

from calculators.perf import deployment as D
from calculators.perf import fit as F

H, HEADS = 7168, 128
ATTN = (H * 1536 + 1536 * HEADS * (128 + 64) + H * (512 + 64) + 512 * HEADS * (128 + 128) + HEADS * 128 * H)
DENSE_MLP = 3 * H * 18432
EXPERT = 3 * H * 2048
ROUTER = 256 * H
EMB = 129280 * H
KV_TOKEN_LAYER = (512 + 64) * 2  # BF16 latent + rope key


def _layer(i):
    if i < 3:
        return D.Layer(ATTN + DENSE_MLP, kv_bytes_per_token=KV_TOKEN_LAYER)
    return D.Layer(ATTN + EXPERT + ROUTER, 256 * EXPERT, 256, 8, KV_TOKEN_LAYER)


SHAPE = D.Shape("DeepSeek-V3 (config.json)", tuple(_layer(i) for i in range(61)), 2 * EMB, EMB, H, None)


def test_derived_counts_match_the_published_totals():
    assert SHAPE.weights_stored() == pytest.approx(671e9, rel=0.005)
    # batch 1: a token reads every dense byte, 8 of 256 experts per MoE layer, and the unembedding
    read = sum(l.dense_bytes + l.expert_bytes * 8 / 256 for l in SHAPE.layers) + EMB
    assert read == pytest.approx(37e9, rel=0.03)
    assert D.Deployment().streamed_serial(SHAPE, 0, 1) == pytest.approx(read)


def test_h100_kv_split_by_request_with_the_real_dense_share():
    # 32K x batch 8: 8 groups, one request's latent each; attention, dense MLPs and shared experts
    # replicated per group (split tp ways), routed experts over all devices, embeddings split tp ways
    kv_one = KV_TOKEN_LAYER * 61 * 32768
    dense = sum(l.dense_bytes for l in SHAPE.layers)
    routed = 58 * 256 * EXPERT

    def held(n):
        dp, tp = 8, n // 8
        return (dense + 2 * EMB) / tp + routed / n + kv_one

    # pipeline-free layout: one stage holds everything, so the formula is the whole device
    n = next(n for n in range(8, 200, 8) if held(n) <= 80e9)
    got = F.DataParallelAttention().smallest(SHAPE, 80e9, 32768, 8)
    assert got.devices == n == 16
    assert got.held_per_device(SHAPE, 32768, 8) == pytest.approx(held(16))


def test_wse3_by_request_beats_tp_when_the_dense_share_is_small():
    kv_one = KV_TOKEN_LAYER * 61 * 32768
    f = F.fit(SHAPE, 44e9, 32768, 8)
    by = {s.scheme: s.devices for s in f.schemes}
    # TP keeps 8 whole latents (18.4 GB) on every wafer
    n = math.ceil(SHAPE.weights_stored() / (44e9 - 8 * kv_one))
    assert by["tp"] == 2 ** math.ceil(math.log2(n))   # the smallest power-of-two degree that holds it
    # with power-of-two degrees both come to 32 wafers; split by request, each wafer holds less
    assert by["dp-attention"] <= by["tp"]
    held = {s.scheme: s.held_bytes for s in f.schemes}
    assert held["dp-attention"] < held["tp"]
    assert f.lower_bound == math.ceil((SHAPE.weights_stored() + 8 * kv_one) / 44e9) == 16
