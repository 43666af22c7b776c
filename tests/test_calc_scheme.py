"""The deployment scheme in the decode and latency calculators (issue 9, parts 2 and 3): what a reader sees.

Values are derived here by hand from public figures, not read back from the code under test:
Llama 3.1 70B's config.json (hidden 8192, 80 layers, 64 query / 8 KV heads of 128, MLP 28672,
vocab 128256), H100 SXM's 3.35 TB/s of HBM3 and NVLink 4's 900 GB/s (450 GB/s per direction).
The expected step's constants are calculators/data/step_time.toml's (tests/test_calc_step_time.py
derives its value by hand).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.data import catalog
from calculators.text import fmt
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from calculators.perf import deployment as D
from calculators.perf import step_time as T
from sitebuild.strings import Strings

CAT = catalog.load()
STRINGS = Strings()
LANGS = fmt.LOCALES

HIDDEN, LAYERS, KV_HEADS, HEAD, MLP, VOCAB = 8192, 80, 8, 128, 28672, 128256
HBM, NVLINK = 3.35e12, 450e9
LATENCY = 2.3e-6                  # a small all-reduce over 8 Hopper GPUs, nccl-tests (NVIDIA/nccl issue 1940): NVLink 4's


def _rows(name, inputs, lang="en"):
    tr = (lambda m: m) if lang == "en" else (lambda m: STRINGS.get(m, lang))
    return {r.heading(tr): r.text(tr).replace("\u00a0", " ") for r in ui.CALCULATORS[name].run(inputs, lang, catalog.load()).rows}


def _tok_s(text: str) -> float:
    return float(text.split(" ")[0].replace(",", ""))


def _llama_bytes_per_token(context: int) -> float:
    """Bytes one token reads, all devices together: every layer, the lm_head and final norm, and the K and V cache."""
    attention = 2 * HIDDEN * HIDDEN + 2 * HIDDEN * KV_HEADS * HEAD
    per_layer = attention + 3 * HIDDEN * MLP + 2 * HIDDEN              # q, o, k, v; gate, up, down; two norms
    weights = (LAYERS * per_layer + VOCAB * HIDDEN + HIDDEN) * 2       # BF16
    kv = context * LAYERS * 2 * KV_HEADS * HEAD * 2
    return weights + kv


# ------------------------------------------------------------------ by hand


def test_tp8_collectives_two_per_layer():
    # 8 x H100, the defaults: two all-reduces per layer of each token's activations; with one device none
    for batch in (1, 4):
        rows = _rows("decode", {"batch": batch})
        assert "(160 collectives × " in next(k for k in rows if k.startswith("of which communication"))
    solo = _rows("decode", {"devices": 1})
    assert not any(k.startswith("of which communication") for k in solo)


def _term_label(rows, head):
    return next(k for k in rows if k.startswith(head))


def test_pipeline_of_two_stages_by_hand():
    # 8 x H100 as 2 stages of 4 (TP4 x PP2): a token passes stage 1, then stage 2; each stage's 4 GPUs stream
    # their quarter of that stage's bytes, so the per-token time is all bytes / 4, as if only 4 GPUs served it
    memory = _llama_bytes_per_token(8192) / 4 / HBM
    handoff = 1 * (LATENCY + HIDDEN * 2 / NVLINK)                             # one boundary, one token's activations
    rows = _rows("decode", {"pp": 2})
    assert rows["Layout"] == "TP4×PP2"
    assert _tok_s(rows["Speed per request, ceiling"]) == pytest.approx(1 / memory, rel=0.01)
    assert rows["of which pipeline hand-offs"] == fmt.format_quantity(handoff, "seconds", "en").replace("\u00a0", " ")
    assert rows["Pipeline"].startswith("2 stages in turn") and "add up" in rows["Pipeline"]
    assert "(160 collectives × " in _term_label(rows, "of which communication")
    # stages add memory, not speed: the same as 4 GPUs without stages, and half of 8 GPUs by tensor parallelism
    four = _rows("decode", {"devices": 4})
    assert rows["Speed per request, ceiling"] == four["Speed per request, ceiling"]
    assert _tok_s(rows["Speed per request, ceiling"]) < _tok_s(_rows("decode", {})["Speed per request, ceiling"])
    assert _tok_s(rows["Speed per request, expected"]) <= _tok_s(four["Speed per request, expected"])   # + the hand-off


def test_latency_calculator_shows_ceiling_and_expected_and_times_with_expected():
    rows = _rows("latency", {})
    ceiling, expected = _tok_s(rows["Speed per request, ceiling"]), _tok_s(rows["Speed per request, expected"])
    assert expected < ceiling
    p = inputs.latency_parts(ui.CALCULATORS["latency"].defaults, CAT)
    out = ui.CALCULATORS["latency"].defaults["output"]
    assert p["call"] == pytest.approx(p["ttft"] + out / p["speed"])
    low, high = p["call_range"]
    assert low < p["call"] < high and p["loop_range"][0] < p["loop"] < p["loop_range"][1]
    # with stages the prompt too passes them in turn: the first token is not earlier
    staged = inputs.latency_parts(dict(ui.CALCULATORS["latency"].defaults, pp=2), CAT)
    assert staged["ttft"] >= p["ttft"] and staged["speed"] < p["speed"]


def test_expert_parallel_keeps_the_layers_collectives():
    # DeepSeek V3: 61 layers; with the attention tensor-parallel (no data-parallel attention) every layer
    # all-reduces twice, whether the experts are placed whole (EP) or split
    rows = _rows("decode", {"model": "deepseek-v3", "devices": 16, "ep": fields.EP_ON})
    assert rows["Layout"] == "TP16 EP"
    assert f"({61 * 2} collectives × " in _term_label(rows, "of which communication")
    plain = _rows("decode", {"model": "deepseek-v3", "devices": 16})
    assert f"({61 * 2} collectives × " in _term_label(plain, "of which communication")


# ------------------------------------------------------------------ refused, in the reader's language

BAD = [  # (calculator, changed fields, field with the message, msgid)
    ("decode", {"pp": "3"}, "pp", checks.M_PP_DEVICES),
    ("decode", {"pp": "81", "devices": "81"}, "pp", checks.M_PP_LAYERS),
    ("decode", {"ep": "on"}, "ep", checks.M_EP_DENSE),
    ("decode", {"model": "llama-3.1-405b", "pp": "8"}, "pp", checks.M_LAYOUT_NO_FIT),
    ("latency", {"pp": "5"}, "pp", checks.M_PP_DEVICES),
    ("latency", {"pp": "160", "devices": "160"}, "pp", checks.M_PP_LAYERS),
    ("latency", {"ep": "on"}, "ep", checks.M_EP_DENSE),
    ("decode", {"devices": "6"}, "devices", checks.M_TP_HEADS),
    ("decode", {"model": "minimax-m2", "devices": "12"}, "devices", checks.M_TP_KV_HEADS),
    ("latency", {"devices": "12", "pp": "2"}, "devices", checks.M_TP_HEADS),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, change, field, msgid", BAD, ids=[f"{b[0]}-{b[3][:24]}" for b in BAD])
def test_impossible_layouts_are_refused_in_the_readers_language(lang, name, change, field, msgid):
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    texts = dict(ui.default_texts(name, lang), **{k: (fields.display(int(v), lang) if v.isdigit() else v)
                                                  for k, v in change.items()})
    out = ui.evaluate(name, texts, lang, tr)
    assert not out["ok"] and not out["html"] and set(out["errors"]) == {field}, out["errors"]
    message = out["errors"][field]
    head = tr(msgid).split("{")[0]
    assert message.startswith(head) or head == "", (message, head)
    assert "{" not in message
    if lang != "en":
        assert tr(msgid) != msgid, f"{msgid!r} is not translated into {lang}"
    if msgid == checks.M_PP_LAYERS:
        assert fmt.format_number(80, lang) in message and "Llama 3.1 70B" in message
    if msgid == checks.M_PP_DEVICES:
        assert fmt.format_number(int(change["pp"]), lang) in message


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["decode", "latency"])
@pytest.mark.parametrize("field, typed, code", [("spec_acceptance", "101", "too_large"), ("pp", "0", "zero"),
                                               ("spec_acceptance", "-1", "negative")])
def test_bad_assumptions_are_refused_in_the_readers_language(lang, name, field, typed, code):
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    out = ui.evaluate(name, dict(ui.default_texts(name, lang), **{field: typed}), lang, tr)
    f = next(f for f in ui.CALCULATORS[name].fields if f.name == field)
    assert not out["ok"] and out["errors"][field] == tr(fields.PARSE_MESSAGES[code]).format(
        max=fields.display(int(f.hi), lang), example=f.example if isinstance(f.example, str) else fields.display(f.example, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_new_inputs_and_rows_are_labelled_in_the_readers_language(lang):
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    labels = {f.name: tr(f.label) for f in ui.CALCULATORS["decode"].fields}
    options = dict(ui.CALCULATORS["decode"].field("ep").options(CAT, tr))
    rows = _rows("decode", {"pp": 2}, lang)
    if lang != "en":
        assert labels["pp"] != "Pipeline stages" and options["on"] != "on"
        assert tr(decode.PIPELINE) != decode.PIPELINE
    assert any(v.startswith(fmt.format_number(2, lang) + " ") for v in rows.values())


# ------------------------------------------------------------------ properties

layouts = st.tuples(st.sampled_from([1, 2, 4, 8, 16]), st.sampled_from([1, 2, 4]))


@settings(max_examples=40, deadline=None)
@given(layout=layouts, batch=st.integers(1, 64), ctx=st.integers(0, 131072),
       engine=st.sampled_from(["generic", "vllm", "sglang", "trtllm"]),
       model=st.sampled_from(["llama-3.1-70b", "deepseek-v3", "gpt-oss-120b"]), ep=st.booleans())
def test_expected_never_exceeds_the_ceiling(layout, batch, ctx, engine, model, ep):
    tp, pp = layout
    moe = model != "llama-3.1-70b"
    given = dict(ui.CALCULATORS["decode"].defaults, model=model, devices=tp * pp, pp=pp, batch=batch, context=ctx,
                 engine=engine, ep=fields.EP_ON if ep and moe else fields.EP_OFF)
    s = inputs.step(given, CAT)
    e = inputs.served(given, CAT, T.Workload(batch, ctx)).expected
    t = e.terms
    assert t.comm_s >= 0 and t.fixed_s > 0 and t.collectives == (0 if tp == 1 else 2 * len(CAT.models[model].arch.layers))
    assert e.time_s >= s.time_s * (1 - 1e-12) and e.low_s < e.time_s < e.high_s


@settings(max_examples=30, deadline=None)
@given(tp=st.sampled_from([1, 2, 4, 8]), pp=st.integers(1, 8), ctx=st.integers(0, 65536), batch=st.integers(1, 16),
       more=st.sampled_from(["tp", "pp", "dp"]))
def test_more_devices_never_increase_per_device_bytes(tp, pp, ctx, batch, more):
    # any scheme, as the calculators lay it out: held and streamed bytes per device
    shape = D.shape_from_catalog(CAT.models["deepseek-v3"])
    a = D.Deployment(tp=tp, pp=pp)
    b = D.Deployment(tp=tp * 2 if more == "tp" else tp, pp=pp + 1 if more == "pp" else pp, dp=2 if more == "dp" else 1)
    assert b.held_per_device(shape, ctx, batch) <= a.held_per_device(shape, ctx, batch) * (1 + 1e-9)
    if more != "pp":   # stages do not shrink a token's stream: it passes them all
        assert b.streamed_serial(shape, ctx, batch) <= a.streamed_serial(shape, ctx, batch) * (1 + 1e-9)


@pytest.mark.parametrize("name", ["decode", "latency"])
@pytest.mark.parametrize("k", [1, 2, 4, 8])
@pytest.mark.parametrize("pp", [1, 2])
def test_acceptance_zero_is_never_faster_than_without_speculation(name, k, pp):
    plain = _rows(name, {"pp": pp})
    spec = _rows(name, {"pp": pp, "spec_k": k, "spec_acceptance": 0.0})
    key = "Speed per request, expected, with speculative decoding"
    assert _tok_s(spec[key]) < _tok_s(plain["Speed per request, expected"])
