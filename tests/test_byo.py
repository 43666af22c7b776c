"""Bring your own config.json, on CPython: what a reader pastes, what they get back, in every language.

The browser runs the same ui.evaluate (tests/test_browser.py checks a pasted
config there too); here every class of bad input is checked in the four
locales against its own translated message, and a good config is read the
way the catalog reads the same file.
"""

from __future__ import annotations

import json
import pathlib
import re
import time

import pytest

from calculators.data import byo
from calculators.data import catalog
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from calculators.perf import roofline as M
from sitebuild.strings import Strings

LANGS = ("de", "en", "da", "it")
STRINGS = Strings()
BAD = re.compile(r"\bNaN\b|\bnan\b|\binf\b|Infinity|undefined|\bNone\b|Traceback")
FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "configs"
GPT20 = json.dumps(catalog.read_config("gpt-oss-20b.json"), indent=2)


def tr_for(lang):
    return lambda msgid: STRINGS.get(msgid, lang)


def run(name, config, lang="en", **more):
    texts = dict(ui.default_texts(name, lang), model=byo.BYO, config=config, **more)
    return ui.evaluate(name, texts, lang, tr_for(lang))


def _edit(**changes):
    cfg = json.loads(GPT20)
    for k, v in changes.items():
        if v is None:
            cfg.pop(k)
        else:
            cfg[k] = v
    return json.dumps(cfg)


# (case, text, message code): one per class of bad input the issue names
BAD_INPUTS = [
    ("empty", "   ", "empty"),
    ("not JSON", '{"hidden_size": 2880,', "not_json"),
    ("JSON, not a config", '{"name": "my model", "layers": 3}', "not_config"),
    ("JSON list", "[1, 2, 3]", "not_config"),
    ("missing field", _edit(intermediate_size=None), "missing"),
    ("unsupported architecture", '{"model_type": "frobnicator", "num_hidden_layers": 64, "hidden_size": 2560}', "unsupported"),
    ("unsupported quantization", _edit(quantization_config={"quant_method": "awq", "bits": 4}), "unsupported_quant"),
    ("zero size", _edit(hidden_size=0), "range"),
    ("negative size", _edit(num_attention_heads=-64), "range"),
    ("billions of layers", _edit(num_hidden_layers=3_000_000_000), "range"),
    ("text for a number", _edit(hidden_size="2880"), "not_integer"),
    ("layer list too short", _edit(layer_types=["full_attention"] * 3), "layer_types"),
    ("far too large", "{" + " " * (byo.MAX_CONFIG_CHARS + 10) + "}", "too_large"),
    ("deeply nested", "[" * 3000 + "]" * 3000, "not_config"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case,text,code", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_config_gets_its_message_in_the_readers_language(case, text, code, lang):
    out = run("decode", text, lang)
    assert not out["ok"] and set(out["errors"]) == {"config"}, out
    message = out["errors"]["config"]
    msgid = config_messages.MESSAGES[code]
    template = STRINGS.get(msgid, lang)
    if isinstance(template, tuple):     # a plural message; every count in BAD_INPUTS takes the last form
        template, msgid = template[-1], msgid.other
    assert template != msgid or lang == "en", f"{lang}: {code} is not translated"
    literal = re.split(r"\{\w+\}", template)
    assert all(part in message for part in literal), (message, template)
    assert not BAD.search(message) and "{" not in message.replace("{\"", "")


def test_missing_field_is_named_and_range_uses_the_readers_numbers():
    assert "intermediate_size" in run("decode", BAD_INPUTS[4][1])["errors"]["config"]
    assert "1.000" in run("decode", _edit(num_hidden_layers=5000), "de")["errors"]["config"]
    assert "num_attention_heads, vocab_size" in run("decode", BAD_INPUTS[5][1])["errors"]["config"]


def test_a_good_config_reads_like_the_catalog_entry():
    out = run("decode", GPT20, batch="8")
    assert out["ok"], out["errors"]
    html = out["html"]
    for text in ("20.9\u00a0billion, 3.61\u00a0billion", "12 sliding window of 128 tokens", "12 full attention",
                 "32 routed, 4 active per token, 0 shared, in 24 of 24 layers", "routed experts MXFP4"):
        assert text in html, text
    own = byo.model(GPT20)
    ref = catalog.load().models["gpt-oss-20b"]
    assert own.total_params == ref.total_params
    assert M.weight_bytes_read(own, 8) == M.weight_bytes_read(ref, 8)
    # the decode rows below the summary are what the catalog model gives
    catalog_rows = ui.CALCULATORS["decode"].run({"model": "gpt-oss-20b", "batch": 8}, "en", catalog.load()).rows
    assert all(f"<td>{r.text(lambda m: m)}</td>" in html for r in catalog_rows)


@pytest.mark.parametrize("name", sorted(FIXTURES.glob("*.json")), ids=lambda p: p.stem)
def test_every_fixture_config_computes_in_every_calculator(name):
    if name.stem == "SOURCES":
        return
    text = name.read_text()
    for calc in ui.CALCULATORS:
        short = {"context": "2.048"} if "context" in ui.default_texts(calc, "it") else {}  # Phi-3 mini reads 4,096
        out = run(calc, text, "it", **short)
        assert out["ok"], (calc, out["errors"])
        assert not BAD.search(out["html"] + out["chart"])


def test_the_config_travels_in_the_link_compactly_and_comes_back():
    out = run("kv_cache", GPT20)
    shared = out["state"]["config"]
    assert len(shared) < len(GPT20) and json.loads(shared)["num_local_experts"] == 32
    texts = ui.texts_from_state("kv_cache", out["state"], "da")
    again = ui.evaluate("kv_cache", texts, "da", tr_for("da"))
    assert again["ok"] and again["state"] == out["state"]


def test_a_config_too_long_for_a_link_says_so():
    long = _edit(layer_types=["sliding_attention", "full_attention"] * 12,
                 _name_or_path="x", architectures=["GptOssForCausalLM"] * 200)
    out = run("decode", long, "de")
    assert out["ok"] and "config" not in out["state"]
    assert STRINGS.get(config_messages.NO_LINK, "de").split("{")[0] in out["html"]


def test_compact_keeps_everything_the_model_reads():
    for path in FIXTURES.glob("*.json"):
        if path.stem == "SOURCES":
            continue
        text = path.read_text()
        full, small = byo.model(text), byo.model(byo.compact(text))
        assert (full.total_params, full.active_params, M.kv_bytes(full, 5000)) == \
            (small.total_params, small.active_params, M.kv_bytes(small, 5000)), path.stem


def test_worst_case_input_answers_quickly():
    # the largest accepted sizes must not hang the worker: layers are grouped, not summed one by one
    worst = _edit(num_hidden_layers=1000, layer_types=None, hidden_size=10_000_000 // 64 * 64)
    start = time.perf_counter()
    for calc in ui.CALCULATORS:
        run(calc, worst)
    assert time.perf_counter() - start < 10
