"""Measurements against the model, and serving.toml's validation with named errors."""

import copy
import dataclasses
import tomllib
from importlib import resources

import pytest

from calculators.data import catalog
from calculators.data import serving
from calculators.perf import measured as X
from calculators.data.sources import DataError as CatalogError

CAT = catalog.load()
SV = serving.load()
TEXT = resources.files("calculators.data").joinpath("serving.toml").read_text(encoding="utf-8")
TABLE = X.rows(CAT, SV)
BY = {r.key: r for r in TABLE}


def test_every_measurement_has_a_row():
    assert set(BY) == set(CAT.measurements) | set(SV.measurements)


def test_at_least_five_measurements_with_the_hardware_stated_by_the_publisher():
    stated = [m for m in SV.measurements.values() if m.published and not m.fit]
    assert len(stated) >= 5
    for m in stated:
        assert m.src.url.startswith("https://") and m.date


def test_no_measurement_above_the_ceiling_without_a_computed_explanation():
    assert X.unexplained(TABLE) == ()
    for r in TABLE:
        if r.ratio > 1:
            assert r.explanation.ceiling_tokens_per_s >= r.high * (1 - X.REACH_TOLERANCE)   # equal up to the last bits


def test_the_explanation_finds_the_smallest_k():
    """The least acceptance that reaches a measurement gives a ceiling equal to it up to rounding; compared exactly,
    the search skipped k = 2 to 5 for SambaNova's Llama 3.1 70B (1 + a + a² reaches 457 ÷ 183 at a = 82 %)."""
    e = BY["sambanova-llama-3.1-70b"].explanation
    assert e.k == 2 and 0.8 < e.acceptance < 0.85 and e.acceptance_basis == "required"


def test_an_unexplainable_measurement_is_caught():
    # fault injection: Llama 3.1 70B at 100,000 tok/s on 8 H100 has no mechanism
    m = dataclasses.replace(SV.measurements["nvidia-medusa-llama-3.1-70b"], key="fake", low=1e5, high=1e5,
                            device="h100-sxm", speculation=None)
    fake = dataclasses.replace(SV, measurements={"fake": m})
    bad = X.unexplained(X.rows(dataclasses.replace(CAT, measurements={}), fake))
    assert [r.key for r in bad] == ["fake"]


def test_medusa_405b_explained_by_fp8_and_speculation_by_hand():
    # From config.json: hidden 16384, 128 query / 8 KV heads of 128, intermediate 53248, 126 layers, vocab 128256.
    # Per layer 16384 x 34816 attention + 3 x 16384 x 53248 MLP + 2 x 16384 norms = 3,187,703,808 parameters;
    # a token reads all layers, the lm_head, one embedding row and the final norm:
    read = 126 * 3_187_703_808 + 128_256 * 16384 + 16384 + 16384
    # FP8 (1 byte) / 8 GPUs, plus the BF16 cache: 126 layers x 4096 B x 2048 tokens / 8
    per_gpu = read / 8 + 126 * 4096 * 2048 / 8
    fp8 = 4.8e12 / per_gpu
    bf16 = 4.8e12 / (read * 2 / 8 + 126 * 4096 * 2048 / 8)
    r = BY["nvidia-medusa-llama-3.1-405b"]
    assert r.ceiling == pytest.approx(bf16) and r.ratio == pytest.approx(108 / bf16) and r.ratio > 1
    e = r.explanation
    assert e.precision == "fp8" and e.k == 1 and e.acceptance_basis == "required"
    # heads cost nothing extra and a dense model's verify step reads the same bytes: 1 + a = 108 / fp8
    assert e.acceptance == pytest.approx(108 / fp8 - 1, abs=1e-6)


def test_published_mtp_row_uses_the_published_acceptance():
    r = BY["trtllm-deepseek-r1-b200-mtp"]
    assert not r.deployment_assumed and r.ratio < 1
    assert r.ceiling_stated > r.expected  # expected carries efficiency; no link latency is published


def test_expected_never_above_the_stated_ceiling():
    from calculators.perf import step_time
    for r in TABLE:
        if r.expected is None:          # a device no published measurement calibrates has no expected value
            assert not step_time.calibrated(r.device), r.key
            continue
        assert r.expected <= r.ceiling_stated * (1 + 1e-9), r.key
        slow, fast = r.expected_range
        assert slow < r.expected < fast or slow <= r.expected <= fast


# ---------------------------------------------------------------- validation

RAW = tomllib.loads(TEXT)


def _load(edit):
    raw = copy.deepcopy(RAW)
    edit(raw)
    return serving.parse(raw, CAT)


CASES = [
    ("achieved above peak", lambda r: r["efficiency"]["flashmla-h800"].update(achieved_bytes_per_s=4e12),
     "efficiency.flashmla-h800", "achieved_bytes_per_s"),
    ("acceptance 1", lambda r: r["acceptance"]["deepseek-v3-mtp"].update(high=1.0), "acceptance.deepseek-v3-mtp", "high"),
    ("mean accepted above k + 1", lambda r: r["measurements"]["trtllm-deepseek-r1-b200-mtp"]["speculative"].update(mean_accepted=5.0),
     "measurements.trtllm-deepseek-r1-b200-mtp", "speculative.mean_accepted"),
    ("unknown device", lambda r: r["measurements"]["trtllm-deepseek-r1-b200-mtp"]["deployment"].update(device="tpu"),
     "measurements.trtllm-deepseek-r1-b200-mtp", "deployment.device"),
]


@pytest.mark.parametrize("what,edit,entry,field", CASES, ids=[c[0] for c in CASES])
def test_each_mistake_is_named(what, edit, entry, field):
    with pytest.raises(CatalogError) as err:
        _load(edit)
    assert err.value.entry == entry and err.value.field == field


def test_error_names_file_and_line():
    text = TEXT.replace("low = 0.85", "low = 0")
    with pytest.raises(CatalogError) as err:
        serving.load_text(text, CAT)
    line = next(n for n, l in enumerate(text.splitlines(), 1) if l.strip() == "[acceptance.deepseek-v3-mtp]")
    assert str(err.value) == (f"calculators/data/serving.toml:{line}: entry 'acceptance.deepseek-v3-mtp', field 'low': "
                              "must be in (0, 1], got 0.0")
