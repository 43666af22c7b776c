"""Deployments and the fit search, against values derived by hand here.

Hand derivations use the public architecture numbers written out in each
test (Llama 3.1 70B: 80 layers, 8 KV heads of 128; DeepSeek V3: 671 B
parameters, 37 B read per token, MLA latent 512 + 64 on 61 layers), never the
code under test.
"""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.data import catalog
from calculators.data import serving
from calculators.perf import deployment as D
from calculators.perf import fit as F
from calculators.perf import roofline as M

CAT = catalog.load()
SV = serving.load()
# The deployment arithmetic is checked on shapes written by hand (layers of equal size, nothing outside
# them), so that the expected counts below follow from the numbers in each test alone; the adapter
# from the real per-layer specs is checked on its own (test_adapter_keeps_the_catalog_totals).
L70 = D.Shape("Llama 3.1 70B (hand)", tuple(D.Layer(70.6e9 * 2 / 80, kv_bytes_per_token=2 * 8 * 128 * 2) for _ in range(80)),
              0.0, 0.0, 8192, 8)
DS3 = D.Shape("DeepSeek V3 (hand)", tuple(D.Layer(37e9 / 61, 634e9 / 61, 256, 8, (512 + 64) * 2) for _ in range(61)),
              0.0, 0.0, 7168, None)


def test_adapter_keeps_the_catalog_totals():
    for m in CAT.models.values():
        if getattr(m, "arch", None) is None:
            with pytest.raises(D.DeploymentError, match="no config.json"):
                D.shape_from_catalog(m)
            continue
        s = D.shape_from_catalog(m)
        assert s.weights_stored() == pytest.approx(M.weight_bytes_stored(m), rel=1e-9), m.key
        assert s.kv_bytes(8192, 3) == pytest.approx(M.kv_bytes(m, 8192, 3), rel=1e-9), m.key


def test_groq_llama_70b_pipeline_fit_by_hand():
    # 70.6e9 params x 2 bytes over 80 layers; KV 2 (K,V) x 8 heads x 128 x 2 bytes per token and layer
    layer = 70.6e9 * 2 / 80
    kv_layer = 2 * 8 * 128 * 2 * 8192
    sram = 230e6
    # a layer does not fit one chip, so no pure pipeline, and TP alone replicates KV beyond 8 heads:
    # 8192 tokens x 80 layers x 4096 B / 8 shards = 335 MB > 230 MB on every chip
    assert layer > sram and 80 * kv_layer / 8 > sram
    # 8-way tensor split inside each stage: one layer per stage of 8 chips
    per_chip = layer / 8 + kv_layer / 8
    assert per_chip <= sram < 2 * per_chip
    expected = 8 * 80
    f = F.fit_device(L70, CAT.devices["groq-lpu"], 8192, 1)
    by = {s.scheme: s for s in f.schemes}
    assert by["tp"].deployment is None and by["pp"].deployment is None
    assert by["tp-pp"].devices == expected == 640
    assert by["tp-pp"].held_bytes == pytest.approx(per_chip)
    # no layout beats bytes / capacity: (141.2 GB + 2.68 GB) / 230 MB = 626
    assert f.lower_bound == math.ceil((70.6e9 * 2 + 80 * kv_layer) / sram) == 626
    assert f.best.devices == 640 and not f.reason


def test_deepseek_v3_tp_keeps_the_whole_latent_on_every_rank():
    # 32K x batch 8: (512 + 64) x 61 x 2 bytes x 32768 x 8 = 18.4 GB on every H100 under TP
    kv = (512 + 64) * 61 * 2 * 32768 * 8
    n = math.ceil(671e9 / (80e9 - kv))
    assert n == 11
    # a tensor-parallel degree is a power of two (heads split evenly): the next one up from 11
    f = F.fit(DS3, 80e9, 32768, 8)
    assert {s.scheme: s.devices for s in f.schemes}["tp"] == 2 ** math.ceil(math.log2(n)) == 16


def test_deepseek_v3_h100_kv_split_by_request():
    # DP attention: 8 groups, each one request's latent (2.3 GB); the 37 GB read every step are
    # replicated per group (split tp ways inside it), the 634 GB of experts over all devices.
    kv_one = (512 + 64) * 61 * 2 * 32768
    dense, experts = 37e9, 634e9

    def held(n):
        dp = min(8, n)
        tp = n // dp
        return dense / tp + experts / (tp * dp) + kv_one

    n = next(n for n in range(1, 100) if held(n) <= 80e9)
    f = F.fit(DS3, 80e9, 32768, 8)
    fit = {s.scheme: s for s in f.schemes}["dp-attention"]
    assert fit.devices == n == 16
    assert fit.deployment == D.Deployment(tp=2, dp=8, ep=True)
    assert fit.held_bytes == pytest.approx(held(16))


def test_deepseek_v3_wse3_by_layer_and_by_request():
    kv_one = (512 + 64) * 61 * 2 * 32768
    total = 671e9 + 8 * kv_one
    f = F.fit(DS3, 44e9, 32768, 8)
    by = {s.scheme: s.devices for s in f.schemes}
    # TP: 671/n + 18.4 GB latent on every wafer <= 44 GB
    n = math.ceil(671e9 / (44e9 - 8 * kv_one))
    assert n == 27 and by["tp"] == 2 ** math.ceil(math.log2(n)) == 32   # degrees are powers of two
    # bytes over capacity: no layout beats 16 wafers
    assert f.lower_bound == math.ceil(total / 44e9) == 16
    # TP2 inside each stage: half a layer's weights, but the whole latent, per wafer; 7 layers a stage
    item = 671e9 / 61 / 2 + 8 * kv_one / 61
    assert 7 * item <= 44e9 < 8 * item
    assert by["tp-pp"] == 2 * math.ceil(61 / 7) == 18
    # by request: 8 groups each holding one request's latent; dense 37 GB per group split tp ways
    held = lambda n: 37e9 / (n // 8) + 634e9 / (8 * (n // 8)) + kv_one  # noqa: E731
    # 8 groups of a power-of-two TP degree: 8, 16, 32 wafers (24 would need TP3, which no engine splits heads into)
    assert next(n for n in range(8, 200) if held(n) <= 44e9) == 24
    assert by["dp-attention"] == next(n for n in (8, 16, 32, 64) if held(n) <= 44e9) == 32
    # whole layers: 11 GB + 8 requests' latent per layer; 3 layers per wafer, 61 layers -> 21
    per_layer = 671e9 / 61 + 8 * kv_one / 61
    assert 3 * per_layer <= 44e9 < 4 * per_layer
    assert by["pp"] == math.ceil(61 / 3) == 21


def test_never_only_when_no_scheme_fits_with_a_reason():
    f = F.fit(L70, 1e6, 8192, 1)  # a 1 MB device: one layer's KV for one request (33.5 MB) never fits
    assert f.best is None and "KV cache" in f.reason
    g = F.fit_device(L70, CAT.devices["groq-lpu"], 8192, 1)
    assert g.best is not None  # the old model said "never" here
    with pytest.raises(M.ModelError):
        M.min_devices(CAT.models["llama-3.1-70b"], CAT.devices["groq-lpu"], 8192, 1, limit=2000)


def test_deployable_rounds_up_to_nodes_at_the_engine_reserve():
    # DeepSeek V3 on H100 at 8K, batch 1: 671 GB / (0.9 x 80 GB) = 9.3 -> 10 GPUs -> 2 nodes of 8
    f = F.fit_device(DS3, CAT.devices["h100-sxm"], 8192, 1)
    assert f.best.devices == 9
    assert f.usable_fraction == 0.9 and f.node_size == 8
    assert f.best_deployable.devices == math.ceil((671e9 + (512 + 64) * 61 * 2 * 8192) / 72e9) == 10
    assert f.deployable_devices == 16


def test_deployable_count_within_and_across_nodes():
    assert [F.deployable_count(n, 8) for n in (1, 2, 3, 5, 8, 9, 16, 17)] == [1, 2, 4, 8, 8, 16, 16, 24]
    assert F.deployable_count(3, 1) == 3


def test_pipeline_stages_beyond_layers_are_refused():
    with pytest.raises(D.DeploymentError):
        D.Deployment(pp=81).held_per_device(L70, 1, 1)
    with pytest.raises(D.DeploymentError):
        D.Deployment(tp=0)


def test_pipeline_streams_the_whole_model_per_token():
    # stages run one after another for one request: PP4 streams what TP1 streams
    one = D.Deployment().streamed_serial(L70, 8192, 1)
    assert D.Deployment(pp=4).streamed_serial(L70, 8192, 1) == pytest.approx(one)
    assert D.Deployment(tp=8).streamed_serial(L70, 8192, 1) == pytest.approx(one / 8)


# ------------------------------------------------------------------ properties

layers = st.builds(
    D.Layer,
    dense_bytes=st.floats(1e3, 1e10),
    expert_bytes=st.floats(0, 1e11),
    experts=st.sampled_from([0, 8, 64, 256]),
    experts_active=st.just(4),
    kv_bytes_per_token=st.floats(0, 1e5),
    kv_window=st.sampled_from([None, 128, 4096]),
)
shapes = st.builds(
    D.Shape, name=st.just("random"), layers=st.lists(layers, min_size=1, max_size=40).map(tuple),
    outside_bytes=st.floats(0, 1e10), outside_read_bytes=st.just(0.0), hidden=st.just(4096),
    kv_heads=st.sampled_from([None, 1, 4, 8, 16]),
)


@settings(max_examples=60, deadline=None)
@given(shape=shapes, n=st.integers(1, 64), batch=st.integers(1, 16), context=st.integers(0, 65536))
def test_more_devices_never_hold_more(shape, n, batch, context):
    # any TP degree as a deployment (the fit search offers powers of two only), pipeline, DP attention
    layouts = (lambda k: D.Deployment(tp=k), lambda k: F.PipelineParallel().layout(shape, k, batch),
               lambda k: D.Deployment(tp=k // min(batch, k), dp=min(batch, k), ep=True))
    for layout in layouts:
        a, b = layout(n), layout(n + 1)
        assert b.held_per_device(shape, context, batch) <= a.held_per_device(shape, context, batch) * (1 + 1e-9)
    for tp in (1, 2, 8):
        pp = min(n, len(shape.layers))
        pp2 = min(n + 1, len(shape.layers))
        a, b = D.Deployment(tp=tp, pp=pp), D.Deployment(tp=tp, pp=pp2)
        assert b.held_per_device(shape, context, batch) <= a.held_per_device(shape, context, batch) * (1 + 1e-9)
        assert D.Deployment(tp=2 * tp, pp=pp).held_per_device(shape, context, batch) <= \
            a.held_per_device(shape, context, batch) * (1 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(shape=shapes, capacity=st.floats(1e8, 1e11), batch=st.integers(1, 8))
def test_fit_answers_fit_and_one_fewer_does_not(shape, capacity, batch):
    for scheme in (F.TensorParallel(), F.PipelineParallel(), F.DataParallelAttention()):
        d = scheme.smallest(shape, capacity, 4096, batch, limit=4096)
        if d is None:
            continue
        assert d.held_per_device(shape, 4096, batch) <= capacity
        fewer = scheme.layout(shape, d.devices - 1, batch) if d.devices > 1 else None
        if fewer is not None and fewer.devices < d.devices:
            assert fewer.held_per_device(shape, 4096, batch) > capacity



@settings(max_examples=200, deadline=None)
@given(items=st.lists(st.floats(0, 1e10), min_size=1, max_size=8), parts=st.integers(1, 5))
def test_balanced_split_is_the_best_cut(items, parts):
    """Against every way of cutting a short list into at most `parts` runs: the split covers the items
    in order, uses no more runs than asked, and its largest run is the smallest possible."""
    runs = D.balanced_split(items, parts)
    assert len(runs) <= parts and runs[0][0] == 0 and runs[-1][1] == len(items)
    assert all(a < b for a, b in runs) and all(r[1] == s[0] for r, s in zip(runs, runs[1:]))
    best = min(max(sum(items[a:b]) for a, b in zip((0,) + cuts, cuts + (len(items),)))
               for k in range(min(parts, len(items)))
               for cuts in itertools.combinations(range(1, len(items)), k))
    assert max(sum(items[a:b]) for a, b in runs) <= best * (1 + 1e-8) + 1e-6


def test_kept_split_is_by_value_and_not_shared():
    """The split is kept per (items, parts): by hand, 1+2+3 | 4 (largest run 6) beats 1+2 | 3+4 (7);
    asking again, with a list or a tuple of the same values, gives the same split, and a caller that
    changes the list it got cannot change what the next caller gets."""
    first = D.balanced_split([1.0, 2.0, 3.0, 4.0], 2)
    assert first == [(0, 3), (3, 4)]
    first.append((9, 9))
    assert D.balanced_split((1.0, 2.0, 3.0, 4.0), 2) == [(0, 3), (3, 4)]
    assert D.balanced_split([1.0, 2.0, 3.0, 4.0], 3) == [(0, 2), (2, 3), (3, 4)]
