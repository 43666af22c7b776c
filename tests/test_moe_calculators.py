"""The calculators use the config-built models: expert share, KV precision, integer peaks, counts."""

from calculators.data import catalog
from calculators.text import fmt
from calculators.ui import decode, inputs
from calculators.ui import worker as ui
from calculators.perf import roofline as M
from sitebuild import tables

CAT = catalog.load()


def _rows(name, **inputs):
    return {r.label: r.value for r in ui.CALCULATORS[name].run(inputs, "en", catalog.load()).rows}


def test_decode_shows_the_expert_share_for_moe_only():
    moe = _rows("decode", model="qwen3-235b-a22b", device="h200", devices=8, batch=32, context=8192,
                weight_precision="fp8")
    # 1 - (1 - 8/128)^32 = 0.873: the batch reads 87 % of the experts, so the bound is about 125 tok/s
    assert moe[decode.EXPERT_SHARE] == "87%"
    assert moe["Speed per request, ceiling"] == "125\u00a0tok/s"
    assert decode.EXPERT_SHARE not in _rows("decode", model="llama-3.1-70b")


def test_decode_kv_precision_changes_the_kv_time():
    bf16 = inputs.step(dict(ui.CALCULATORS["decode"].defaults, batch=16, context=32768), CAT)
    fp8 = inputs.step(dict(ui.CALCULATORS["decode"].defaults, batch=16, context=32768, kv_precision="fp8"), CAT)
    assert fp8.kv_s * 2 == bf16.kv_s and fp8.weights_s == bf16.weights_s


def test_every_kv_calculator_offers_kv_precision():
    for name in ("kv_cache", "decode", "fit", "latency"):
        assert "kv_precision" in [f.name for f in ui.CALCULATORS[name].fields], name


def test_latency_kv_precision_reaches_the_decode_speed():
    slow = inputs.latency_parts(dict(ui.CALCULATORS["latency"].defaults, prompt=100_000), CAT)["speed"]
    fast = inputs.latency_parts(dict(ui.CALCULATORS["latency"].defaults, prompt=100_000, kv_precision="fp8"), CAT)["speed"]
    assert fast > slow


def test_fit_uses_per_tensor_precision():
    # DeepSeek V3 as released: FP8 linear layers with block scales, BF16 embedding and lm_head = about 673 GB
    assert _rows("fit", model="deepseek-v3")["Weights"] == "673\u00a0GB"
    assert M.weight_bytes_stored(CAT.models["deepseek-v3"], "fp8") < 672e9


def test_integer_peaks_are_tops_and_counts_are_integers():
    assert fmt.format_quantity(750e12, "ops_per_s", "en") == "750\u00a0TOPS"
    summary = tables._device_summary(CAT.devices["groq-lpu"], "en", lambda s, *a: s)
    assert "INT8 750\u00a0TOPS" in summary and "FP16 188\u00a0TFLOP/s" in summary
    assert tables._datum_number(8.0, "de") == "8"
    assert tables._datum_number(0.2, "en") == "0.200"
