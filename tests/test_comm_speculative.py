"""Communication, ceiling vs expected, and speculative decoding: hand values and properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.data import catalog
from calculators.data import serving
from calculators.perf import comm as K
from calculators.perf import deployment as D
from calculators.perf import speculative as S

CAT = catalog.load()
SV = serving.load()
L70 = D.shape_from_catalog(CAT.models["llama-3.1-70b"])
NVLINK4 = CAT.interconnects["nvlink4"]


def test_tp8_allreduce_llama_70b_by_hand():
    # message = hidden 8192 x 2 bytes (BF16) x batch; ring: 2 (n-1)/n of it per GPU; two per layer, 80 layers
    latency = 5e-6  # this test's own input: no vendor publishes NVLink per-message latency
    for batch in (1, 4):
        message = 8192 * 2 * batch
        wire = 2 * 7 / 8 * message
        per = latency + wire / 450e9            # NVLink 4: 900 GB/s both ways = 450 GB/s per direction
        msgs = K.messages(L70, D.Deployment(tp=8), batch, NVLINK4, latency_s=latency)
        (ar,) = msgs
        assert ar.what == "tp-allreduce" and ar.count == 160
        assert ar.wire_bytes == pytest.approx(wire) and ar.time_s == pytest.approx(160 * per)
    assert 160 * (2 * 7 / 8 * 16384 / 450e9) == pytest.approx(10.19e-6, rel=1e-3)


def test_llama_70b_on_8_h100_ceiling_and_expected():
    # From config.json: hidden 8192, 64 query / 8 KV heads of 128, intermediate 28672, 80 layers, vocab 128256.
    # Per layer 8192 x (8192 + 2 x 1024 + 8192) attention + 3 x 8192 x 28672 MLP + 2 x 8192 norms = 855,654,400;
    # a token reads every layer, the lm_head (128256 x 8192), one embedding row and the final norm, in BF16:
    read = 2 * (80 * 855_654_400 + 128_256 * 8192 + 8192 + 8192)
    # ceiling: those bytes / 8 + KV 8K (2.68 GB / 8 heads) per GPU at 3.35 TB/s
    per_gpu = read / 8 + 80 * 2 * 8 * 128 * 2 * 8192 / 8
    ceiling = 3.35e12 / per_gpu
    eff = SV.efficiency["flashmla-h800"].fraction
    step = K.decode_step(L70, D.Deployment(tp=8), 3.35e12, 8192, efficiency=eff, link=NVLINK4, latency_s=5e-6)
    assert step.ceiling_tokens_per_s == pytest.approx(ceiling)
    expected = 1 / (per_gpu / 3.35e12 / eff + 160 * (5e-6 + 2 * 7 / 8 * 16384 / 450e9))
    assert step.expected_tokens_per_s == pytest.approx(expected)
    assert step.expected_tokens_per_s < step.ceiling_tokens_per_s


def test_efficiency_default_is_the_published_kernel_ratio():
    e = SV.efficiency["flashmla-h800"]
    assert e.fraction == pytest.approx(3000e9 / 3.35e12)


def test_bad_efficiency_and_latency_are_refused():
    for eff in (0.0, 1.2, -0.1):
        with pytest.raises(K.CommError):
            K.Step(1e9, 1e12, eff)
    with pytest.raises(K.CommError):
        K.messages(L70, D.Deployment(tp=2), 1, NVLINK4, latency_s=-1e-6)


def test_unpublished_link_is_named_not_counted():
    step = K.decode_step(L70, D.Deployment(tp=16), 1.6e12, 1000, link=CAT.interconnects["sn40l-p2p"])
    assert step.unknown == ("tp-allreduce",) and step.comm_s == 0


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 64), batch=st.integers(1, 64), latency=st.floats(0, 1e-4),
       pp=st.integers(1, 8), ep=st.booleans())
def test_comm_never_negative_and_grows_with_tp(n, batch, latency, pp, ep):
    # the all-reduces grow with the TP degree; the expert all-to-all per device shrinks with more
    # devices (each sends its share of the tokens), so only the total's sign is asserted for it
    moe = D.shape_from_catalog(CAT.models["gpt-oss-120b"])
    msgs = lambda d: K.messages(moe, d, batch, NVLINK4, latency_s=latency)  # noqa: E731
    tp = lambda d: sum(m.time_s for m in msgs(d) if m.what == "tp-allreduce")  # noqa: E731
    a, b = D.Deployment(tp=n, pp=pp, ep=ep), D.Deployment(tp=n + 1, pp=pp, ep=ep)
    assert all(m.time_s >= 0 for m in msgs(a) + msgs(b))
    assert tp(b) > tp(a) >= 0


@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 16), batch=st.integers(1, 32), ctx=st.integers(0, 131072),
       eff=st.floats(0.05, 1.0), latency=st.floats(0, 1e-4))
def test_expected_never_exceeds_ceiling(n, batch, ctx, eff, latency):
    step = K.decode_step(L70, D.Deployment(tp=n), 3.35e12, ctx, batch, efficiency=eff, link=NVLINK4, latency_s=latency)
    assert step.expected_tokens_per_s <= step.ceiling_tokens_per_s * (1 + 1e-12)


# --------------------------------------------------------------- speculative


def test_expected_accepted_closed_form_by_hand():
    # a = 0.8, k = 4: 1 + 0.8 + 0.64 + 0.512 + 0.4096
    assert S.expected_accepted(0.8, 4) == pytest.approx(3.3616)
    assert S.expected_accepted(0.8, 4) == pytest.approx((1 - 0.8 ** 5) / (1 - 0.8))
    assert S.expected_accepted(0.0, 5) == 1 and S.expected_accepted(1.0, 3) == 4


def test_mtp_speed_by_hand():
    # DeepSeek-style: one MTP module of one layer against 61; target step 10 ms; k = 1, a = 0.9
    spec = S.Speculative(S.MTPModules(1, 61), 1, 0.9)
    step = 0.010 / 61 + 0.010
    assert spec.tokens_per_s(0.010) == pytest.approx(1.9 / step)
    assert spec.speedup(0.010) == pytest.approx(1.9 / (1 + 1 / 61))


def test_published_mean_accepted_gives_the_acceptance():
    # TensorRT-LLM: one MTP layer accepts 1.92 tokens per step -> a = 0.92
    assert S.acceptance_for(1.92, 1) == pytest.approx(0.92)
    a = SV.acceptance["deepseek-v3-mtp"]
    assert (a.low, a.high) == (0.85, 0.90)


def test_bad_speculative_inputs_are_refused():
    for a, k in ((1.2, 2), (-0.1, 2), (0.5, 0)):
        with pytest.raises(S.SpeculativeError):
            S.Speculative(S.ParallelHeads(), k, a)


drafts = st.one_of(
    st.builds(S.DraftModel, st.floats(0, 0.05)),
    st.builds(S.MTPModules, st.floats(0, 4), st.integers(1, 126)),
    st.builds(S.ParallelHeads, st.floats(0, 0.5)),
)


@settings(max_examples=100, deadline=None)
@given(draft=drafts, k=st.integers(1, 8), step=st.floats(1e-4, 1.0))
def test_acceptance_zero_is_never_faster(draft, k, step):
    assert S.Speculative(draft, k, 0.0).tokens_per_s(step) <= 1 / step * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(k=st.integers(1, 8), a=st.floats(0, 0.99))
def test_required_acceptance_inverts_the_speedup(k, a):
    draft = S.MTPModules(1, 61)
    target = S.Speculative(draft, k, a).speedup(1.0)
    got = S.required_acceptance(target, k, draft)
    assert got is not None and got <= a + 1e-9
