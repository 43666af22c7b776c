"""The fit and decode calculators on the deployment model (issue 9): what the reader sees.

Numbers are derived here by hand from public configs and datasheets
(Llama 3.1 70B config.json, Groq's 230 MB of SRAM per LPU, H100's 3.35 TB/s,
NVLink 4's 450 GB/s per direction), not read back from the code under test.
"""

from __future__ import annotations

import math

import pytest

from calculators.data import catalog
from calculators.text import fmt
from calculators.data import serving
from calculators.perf import step_time as T
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from sitebuild.strings import Strings

CAT = catalog.load()
SV = serving.load()
STRINGS = Strings()
LANGS = fmt.LOCALES

# Llama 3.1 70B (config.json): hidden 8192, 80 layers, 64 query / 8 KV heads of 128, MLP 28672, vocab 128256.
HIDDEN, LAYERS, KV_HEADS, HEAD, MLP, VOCAB = 8192, 80, 8, 128, 28672, 128256


def _fit_rows(inputs, lang="en"):
    tr = (lambda m: m) if lang == "en" else (lambda m: STRINGS.get(m, lang))
    return {r.label: r.text(tr).replace("\u00a0", " ") for r in ui.CALCULATORS["fit"].run(inputs, lang, catalog.load()).rows}


def test_groq_holds_llama_70b_at_8k_by_tensor_times_pipeline():
    # per layer: attention (q, o: 8192^2 each; k, v: 8192 x 1024 each) + MLP (3 x 8192 x 28672), BF16
    layer = (2 * HIDDEN * HIDDEN + 2 * HIDDEN * KV_HEADS * HEAD + 3 * HIDDEN * MLP) * 2
    kv_layer = 2 * KV_HEADS * HEAD * 2 * 8192          # K and V, BF16, 8K tokens
    embed = VOCAB * HIDDEN * 2                          # the embedding; the lm_head is as large
    sram = 230e6
    # 8-way tensor split: the embedding's share alone (2.1 GB / 8 = 263 MB) exceeds a chip,
    assert embed / 8 > sram
    # 16-way: KV splits by head only 8 ways; two layers share a stage, the embedding and lm_head one each
    per_layer = layer / 16 + kv_layer / 8
    assert 2 * per_layer <= sram < 3 * per_layer and embed / 16 + per_layer > sram
    stages = LAYERS // 2 + 2
    expected = 16 * stages
    assert expected == 672
    row = _fit_rows({"model": "llama-3.1-70b", "context": 8192, "batch": 1})["Groq LPU"]
    assert row.startswith(f"{expected} (tensor parallel × pipeline: TP16×PP{stages})"), row
    # no layout beats bytes / capacity: about 626
    assert expected >= math.ceil((LAYERS * (layer + kv_layer) + 2 * embed) / sram)


def test_deployable_count_fills_whole_nodes_with_the_engine_reserve():
    # DeepSeek V3 default case (32K x batch 8): weights 673 GB, cache 18.4 GB; H100 80 GB, engines leave 90 %
    rows = _fit_rows({})
    h100 = rows["NVIDIA H100 SXM"]
    n = int(h100.split(" ")[0])
    usable = 80e9 * 0.9
    assert n >= math.ceil((673e9 + 18.4e9) / 80e9)
    deployed = int(h100.split("deployed: ")[1].split(" ")[0])
    assert deployed % 8 == 0 and deployed * usable >= 673e9 + 18.4e9
    assert "90% of memory usable, 8 per node" in h100


def test_groq_holds_deepseek_v3_by_splitting_the_latent_by_layer_and_request():
    # DeepSeek V3 at 32K x 8 (issue 19): one request's MLA latent is (512 + 64) x 61 layers x 2 bytes x 32768
    # = 2.30 GB, more than Groq's 230 MB, but a latent splits by layer (37.7 MB per layer) and by request,
    # only not by head: pipeline stages of data-parallel groups hold it
    latent, per_layer = (512 + 64) * 61 * 2 * 32768, (512 + 64) * 2 * 32768
    assert latent > 230e6 > per_layer == pytest.approx(37.7e6, rel=0.002)
    row = _fit_rows({})["Groq LPU"]
    assert not row.startswith(messages.UNKNOWN) and "data-parallel attention" in row, row
    layout = row.split("data-parallel attention: ")[1].split(")")[0]           # e.g. TP32×PP60×DP4 EP
    tp, pp, dp = (int(part.lstrip("TPD").split(" ")[0]) for part in layout.split("×"))
    assert tp * pp * dp == int(row.split(" ")[0].replace(",", ""))
    # a MoE layer on one device: attention / tp (FP8, 187.1 M parameters), its 256 routed experts / (tp x dp)
    # (FP8, 3 x 7168 x 2048 each), the shared expert and router / tp, and the latent of batch / dp requests
    attention = 7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168
    experts = 256 * 3 * 7168 * 2048
    held = (attention + 3 * 7168 * 2048) / tp + experts / (tp * dp) + 256 * 7168 * 2 / tp + math.ceil(8 / dp) * per_layer
    assert held <= 230e6
    # the other devices give a count too
    assert not any(v.startswith(messages.UNKNOWN) for v in _fit_rows({}).values())


@pytest.mark.parametrize("lang", LANGS)
def test_fit_rows_are_translated_and_filled(lang):
    rows = _fit_rows({"model": "llama-3.1-70b", "context": 8192, "batch": 1}, lang)
    groq = rows["Groq LPU"]
    assert groq.startswith(fmt.format_number(672, lang)) and "{" not in groq and "TP16×PP42" in groq
    scheme = fit_calc.SCHEME_NAMES["tp-pp"]     # the scheme's name in the page's language (locales/<lang>.po)
    assert (scheme if lang == "en" else STRINGS.get(scheme, lang)) in groq and (lang == "en" or scheme not in groq)
    dsv3 = _fit_rows({}, lang)["Groq LPU"]
    scheme = fit_calc.SCHEME_NAMES["dp-attention"]
    assert "{" not in dsv3 and (scheme if lang == "en" else STRINGS.get(scheme, lang)) in dsv3


def test_fit_chart_draws_the_new_counts():
    out = ui.evaluate("fit", dict(ui.default_texts("fit", "en"), context="8K", batch="1", model="llama-3.1-70b"),
                      "en", lambda m: m)
    assert out["ok"] and "Groq LPU: 672" in out["chart"]


# ------------------------------------------------------------------ decode: ceiling and expected


def _decode(inputs, lang="en"):
    tr = (lambda m: m) if lang == "en" else (lambda m: STRINGS.get(m, lang))
    return {r.label: r.text(tr).replace("\u00a0", " ") for r in ui.CALCULATORS["decode"].run(inputs, lang, catalog.load()).rows}


def test_tp8_ceiling_from_bytes_and_bandwidth():
    # Llama 3.1 70B, 8 x H100 SXM (3.35 TB/s HBM3), batch 1, 8K, BF16: every device streams an eighth of the
    # weights and of the K and V cache at full bandwidth (the expected step: tests/test_calc_step_time.py)
    attention = 2 * HIDDEN * HIDDEN + 2 * HIDDEN * KV_HEADS * HEAD
    per_layer = attention + 3 * HIDDEN * MLP + 2 * HIDDEN
    read = (LAYERS * per_layer + VOCAB * HIDDEN + HIDDEN) * 2          # every layer and the lm_head, BF16
    kv = 8192 * LAYERS * 2 * KV_HEADS * HEAD * 2                        # K and V of 8K tokens
    memory_s = (read + kv) / 8 / 3.35e12
    rows = _decode({})
    ceiling = float(rows["Speed per request, ceiling"].split(" ")[0])
    assert ceiling == pytest.approx(1 / memory_s, rel=0.01)
    expected = float(rows["Speed per request, expected"].split(" ")[0])
    assert 50 < expected < 150 < ceiling     # realistic serving at batch 1 stays well under the ceiling


def test_the_engine_replaces_the_efficiency_and_latency_fields():
    for name in ("decode", "latency"):
        calc = ui.CALCULATORS[name]
        assert "efficiency" not in calc.defaults and "latency_us" not in calc.defaults
        assert calc.defaults["engine"] == fields.GENERIC_ENGINE and ui.default_texts(name, "de")["engine"] == "generic"
        assert [k for k, _ in calc.field("engine").options(CAT, lambda m: m)] == ["generic", "vllm", "sglang", "trtllm"]
    assert "engine" not in ui.CALCULATORS["fit"].defaults and "engine" not in ui.CALCULATORS["kv_cache"].defaults


@pytest.mark.parametrize("given", [{}, {"devices": 1}, {"devices": 4, "batch": 64}, {"engine": "vllm"}, {"engine": "trtllm"},
                                   {"engine": "sglang", "device": "mi300x"}, {"device": "b200", "context": 100_000},
                                   {"model": "deepseek-v3", "devices": 16, "batch": 32}, {"pp": 2}])
def test_expected_is_never_faster_than_the_ceiling(given):
    merged = dict(ui.CALCULATORS["decode"].defaults, **given)
    s = inputs.step(merged, CAT)
    served = inputs.served(merged, CAT, T.Workload(int(merged["batch"]), int(merged["context"])))
    assert served.expected is not None
    assert served.expected.time_s >= s.time_s * (1 - 1e-12) and served.expected.terms.comm_s >= 0


@pytest.mark.parametrize("device", ["groq-lpu", "sn40l", "wse-3", "a100-80gb", "mi355x"])
def test_a_device_no_measurement_calibrates_shows_the_ceiling_only(device):
    rows = _decode({"device": device, "devices": 64 if device == "groq-lpu" else 8})
    assert rows["Time per step, expected (calibrated)"] == "no expected value: no published measurement calibrates this device"
    assert "Speed per request, expected" not in rows and "What sets the pace" not in rows
    assert any(label.startswith(("Speed per request, ceiling", "Speed per request, memory only")) for label in rows)


# ------------------------------------------------------------------ speculative decoding


def _latency(inputs):
    return {r.label: r.text(lambda m: m).replace("\u00a0", " ") for r in ui.CALCULATORS["latency"].run(inputs, "en", catalog.load()).rows}


def test_speculative_speed_from_the_closed_form_accepted_length():
    # k = 2 proposals at a = 0.8: 1 + 0.8 + 0.8^2 = 2.44 tokens per verify step; each proposal costs one of
    # Llama 3.1 70B's 80 layers (an MTP-style module); the verify step puts 3 tokens through (a little slower
    # than a plain step: its all-reduces carry three tokens)
    plain = float(_latency({})["Speed per request, expected"].split(" ")[0])
    spec = float(_latency({"spec_k": 2, "spec_acceptance": 80.0})["Speed per request, expected, with speculative decoding"].split(" ")[0])
    bound = plain * (1 + 0.8 + 0.64) / (1 + 2 / 80)
    assert 0.97 * bound < spec < bound
    # DeepSeek V3 with one MTP module at the published 1.92 tokens per step (a = 0.92): two tokens per request
    # in the verify step read about twice the routed experts of one, so the gain is less than 1.92 / (1 + 1/61)
    rows = _decode({"model": "deepseek-v3", "devices": 16, "spec_k": 1, "spec_acceptance": 92.0})
    assert rows["Tokens per verify step (expected)"] == "1.92"
    expected = float(rows["Speed per request, expected"].replace(",", "").split(" ")[0])
    with_spec = float(rows["Speed per request, expected, with speculative decoding"].replace(",", "").split(" ")[0])
    assert expected < with_spec < expected * 1.92 / (1 + 1 / 61)


@pytest.mark.parametrize("k", [1, 3, 8])
def test_acceptance_zero_is_never_faster_than_plain_decode(k):
    rows = _decode({"spec_k": k, "spec_acceptance": 0.0})
    assert rows["Tokens per verify step (expected)"] == "1.00"
    assert float(rows["Speed per request, expected, with speculative decoding"].split(" ")[0]) < \
        float(rows["Speed per request, expected"].split(" ")[0])


def test_speculation_is_off_by_default():
    assert "Tokens per verify step (expected)" not in _decode({})
    assert ui.CALCULATORS["decode"].defaults["spec_k"] == 0
    # the offered acceptance is the low end of DeepSeek V3's published MTP range, 85 to 90 %
    assert ui.CALCULATORS["decode"].defaults["spec_acceptance"] == 85.0


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["decode", "latency"])
@pytest.mark.parametrize("field, typed, code", [("spec_acceptance", "101", "too_large"), ("spec_acceptance", "-5", "negative"),
                                               ("spec_k", "1,5" , "not_integer")])
def test_bad_speculation_inputs_are_refused_in_the_readers_language(lang, name, field, typed, code):
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    if code == "not_integer":
        typed = fields.display(1.5, lang)
    out = ui.evaluate(name, dict(ui.default_texts(name, lang), **{field: typed}), lang, tr)
    assert not out["ok"]
    f = next(f for f in ui.CALCULATORS[name].fields if f.name == field)
    assert out["errors"][field] == tr(fields.PARSE_MESSAGES[code]).format(
        max=fields.display(int(f.hi), lang), example=f.example if isinstance(f.example, str) else fields.display(f.example, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_the_decode_calculator_no_longer_says_no_number_of_lpus_holds_the_model(lang):
    # the decode calculator splits by tensor parallelism only; its refusal must say so, since the fit
    # calculator finds a count (672 above) by splitting layers
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    out = ui.evaluate("decode", dict(ui.default_texts("decode", lang), device="groq-lpu"), lang, tr)
    term = {"en": "tensor parallelism", "de": "Tensor-Parallelität", "da": "tensorparallelisme", "it": "parallelismo tensoriale"}
    assert term[lang] in out["errors"]["devices"]
    assert _fit_rows({"model": "llama-3.1-70b", "context": 8192, "batch": 1})["Groq LPU"][0].isdigit()
