"""The running example as a type: its figures for the default are the article's, its figures for another model are
the arithmetic of that model's config (derived here by hand), and the variants no catalog model reaches are
rendered with hand-made configs and devices.

The hand derivations use the config's numbers only, not the code under test:
KV bytes per token = layers × 2 × KV heads × head dimension × bytes (full attention), layers × (latent + RoPE
dimension) × bytes (multi-head latent attention); FLOP per token = 2 × active parameters; memory time of one
token on one device = weight bytes read ÷ bandwidth.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

import pytest

from calculators.article import figures as article_figures
from calculators.data import byo, catalog
from calculators.example import example as E
from calculators.example import figures as X
from calculators.example import render
from calculators.example.case import Case
from calculators.example.declare import default_case
from calculators.ui import example as control
from calculators.ui import worker

import examplecheck
from examplecheck import tr_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
CAT = catalog.load()
CONFIGS = ROOT / "calculators" / "data" / "configs"
LANGS = ("de", "en", "da", "it")


def config(name: str, **changes) -> str:
    cfg = json.loads((CONFIGS / f"{name}.json").read_text(encoding="utf-8"))
    cfg.update(changes)
    return json.dumps(cfg)


def own(page: str, text: str, **values) -> Case:
    return Case(CAT, E.with_defaults(page, model=byo.BYO, config=text, **values), page)


# ------------------------------------------------------------------ the default is the article as it was


@pytest.mark.parametrize("page", E.PAGES)
def test_the_default_example_is_the_build_s_registry(page):
    """The build prints each page's default example: the same figures, the same values."""
    reg = X.registry(default_case(CAT, page))
    build = article_figures.registry()
    assert reg and all(build[i].value == f.value for i, f in reg.items() if i in build)


def test_the_default_example_is_llama_70b_on_h100():
    reg = X.registry(default_case(CAT, "decode"))
    assert reg["kv.llama70b.bytes_per_token"].value == 80 * 2 * 8 * 128 * 2
    assert reg["kv.llama70b.total.8192"].value == 80 * 2 * 8 * 128 * 2 * 8192
    assert reg["context.131072"].value == 131072 and reg["batch.devices"].value == 8 and reg["ex.batch"].value == 64


# ------------------------------------------------------------------ other models, derived by hand


def test_deepseek_v3_with_latent_attention():
    cfg = json.loads((CONFIGS / "deepseek-v3.json").read_text(encoding="utf-8"))
    c = Case(CAT, E.with_defaults("decode", model="deepseek-v3", device="h200", devices=16), "decode")
    reg = X.registry(c)
    per_token = cfg["num_hidden_layers"] * (cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"]) * 2
    assert reg["kv.llama70b.bytes_per_token"].value == per_token == 70_272
    assert reg["ex.kv.latent"].value == cfg["kv_lora_rank"] and reg["ex.kv.rope"].value == cfg["qk_rope_head_dim"]
    assert "model.llama70b.kv_heads" not in reg   # a latent has no KV heads to print
    assert reg["device.h100.bandwidth"].value == CAT.devices["h200"].serving.bytes_per_s
    # Per token the model reads its active parameters; 2 FLOP each.
    assert reg["flops.llama70b.per_token"].value == 2 * CAT.models["deepseek-v3"].active_params


def test_gpt_oss_keeps_only_its_full_attention_layers_growing():
    cfg = json.loads((CONFIGS / "gpt-oss-120b.json").read_text(encoding="utf-8"))
    c = Case(CAT, E.with_defaults("decode", model="gpt-oss-120b", device="b200", devices=1), "decode")
    reg = X.registry(c)
    full = sum(1 for t in cfg["layer_types"] if t == "full_attention")
    assert reg["ex.kv.grow_layers"].value == full
    assert reg["kv.llama70b.bytes_per_token"].value == full * 2 * cfg["num_key_value_heads"] * cfg["head_dim"] * 2
    window = cfg["sliding_window"]
    total = full * 2 * cfg["num_key_value_heads"] * cfg["head_dim"] * 2 * 8192 + \
        (cfg["num_hidden_layers"] - full) * 2 * cfg["num_key_value_heads"] * cfg["head_dim"] * 2 * min(8192, window)
    assert reg["kv.llama70b.total.8192"].value == total


def test_a_pasted_config_is_read_like_a_catalog_model():
    c = own("decode", config("llama-3.1-8b"))
    reg = X.registry(c)
    assert reg["kv.llama70b.bytes_per_token"].value == 32 * 2 * 8 * 128 * 2
    assert c.inputs_model == ["models.config"]
    exp = render.explanations(c, reg, "en", tr_for("en"), ["model.llama70b.layers"])
    assert exp["src"]["models.config"]["title"] == "your config.json (pasted on this page)"


def test_the_memory_time_is_the_weights_over_the_bandwidth():
    c = Case(CAT, E.with_defaults("decode", model="qwen3-235b-a22b", device="mi300x", devices=8), "decode")
    reg = X.registry(c)
    assert reg["step.llama70b.h100.memory_time"].value == pytest.approx(
        reg["weights.llama70b.read_per_token"].value / CAT.devices["mi300x"].serving.bytes_per_s)


# ------------------------------------------------------------------ variants no catalog model reaches


def _tiny(cat_device: str, **changes):
    d = CAT.devices[cat_device]
    return dataclasses.replace(d, **changes)


HAND_MADE = {
    ("kv.design", "mha"): lambda: own("decode", config("llama-3.1-8b", num_key_value_heads=32), devices=1, batch=2),
    ("kv.per_token", "large"): lambda: own("decode", config("llama-3.1-70b", num_key_value_heads=64), devices=8, batch=2),
    ("kv.design", "mqa"): lambda: own("decode", config("llama-3.1-8b", num_key_value_heads=1), devices=1, batch=2),
    ("step.active", "dense_tied"): lambda: own("decode", config("llama-3.1-8b", tie_word_embeddings=True), devices=1, batch=2),
    ("step.read", "dense_tied"): lambda: own("decode", config("llama-3.1-8b", tie_word_embeddings=True), devices=1, batch=2),
    ("step.active", "moe_tied"): lambda: own("decode", config("qwen3-235b-a22b", tie_word_embeddings=True), devices=8, batch=2),
    ("step.read", "moe_tied"): lambda: own("decode", config("qwen3-235b-a22b", tie_word_embeddings=True), devices=8, batch=2),
    ("kv.per_token", "windowed_large"): lambda: own("decode", config("gpt-oss-120b", num_key_value_heads=64, head_dim=512),
                                                    devices=8, batch=2),
}


def _patched(page: str, example: E.Example, device=None, model=None) -> Case:
    """The example with another device or model in place of the catalog's (a valid example: it must fit)."""
    c = Case(CAT, example, page)
    if device is not None:
        c.__dict__["d"] = device
    if model is not None:
        c.__dict__["m"] = model
    assert c.fits(example.devices, example.context, example.batch), "a hand-made example must fit on its devices"
    return c


def _unlike_layers():
    """Llama 3.1 8B with its second half of layers keeping half the KV heads: every layer grows, not alike."""
    m = CAT.models["llama-3.1-8b"]
    half = len(m.arch.layers) // 2
    layers = m.arch.layers[:half] + tuple(
        dataclasses.replace(l, attention=dataclasses.replace(l.attention, kv_heads=4)) for l in m.arch.layers[half:])
    return dataclasses.replace(m, arch=dataclasses.replace(m.arch, layers=layers))


PATCHED = {
    # A device with a tiny compute peak beside its bandwidth: the arithmetic of one token outlasts the reading.
    ("step.bound", "compute"): lambda: _patched("decode", E.with_defaults("decode", model="llama-3.1-8b", devices=1, batch=2),
                                                 device=_tiny("h100-sxm", peak_flops={"bf16": 1e12})),
    ("step.intensity", "right"): lambda: _patched("decode", E.with_defaults("decode", model="llama-3.1-8b", devices=1, batch=2),
                                                   device=_tiny("h100-sxm", peak_flops={"bf16": 1e12})),
    ("kv.design", "varied"): lambda: _patched("decode", E.with_defaults("decode", model="llama-3.1-8b", devices=1, batch=2),
                                              model=_unlike_layers()),
    # A device with little memory beside DeepSeek V3.2's cache at its full context, and one with a great deal.
    ("kv.memory", "over_part"): lambda: _patched("decode", E.with_defaults("decode", model="deepseek-v3.2", devices=128, batch=2),
                                                 device=_tiny("h100-sxm", memory=(dataclasses.replace(
                                                     CAT.devices["h100-sxm"].serving, bytes=10e9),))),
    ("kv.memory", "tiny_part"): lambda: _patched("decode", E.with_defaults("decode", model="deepseek-v3.2", devices=8, batch=2),
                                                 device=_tiny("h100-sxm", memory=(dataclasses.replace(
                                                     CAT.devices["h100-sxm"].serving, bytes=10e12),))),
}


@pytest.mark.parametrize("variant", sorted(HAND_MADE) + sorted(PATCHED), ids=lambda v: "/".join(v))
def test_a_variant_no_catalog_model_reaches_is_rendered_and_checked(variant):
    c = (HAND_MADE.get(variant) or PATCHED[variant])()
    say = render.SAYS[variant[0]]
    assert variant[1] in [k for k, _ in say.chosen(c)], f"{variant} not chosen for this example"
    problems = examplecheck.check(c, "/".join(variant))[0]
    assert problems == [], "\n".join(problems[:20])


def test_the_sweep_s_list_of_variants_reached_elsewhere_is_this_module_s():
    import test_example_sweep
    assert test_example_sweep.ELSEWHERE == set(HAND_MADE) | set(PATCHED)


# ------------------------------------------------------------------ the control and the worker


@pytest.mark.parametrize("lang", LANGS)
def test_the_worker_answers_the_page_with_the_example_in_its_language(lang):
    """The browser's request for another example: figures, names, sentences, charts and explanations in the
    page's language, the state for the address, and one announcement."""
    page = {"sources": "../sources/", "figs": ["kv.llama70b.bytes_per_token", "device.h100.memory"],
            "groups": [["util.llama70b.batch1", "il" if lang == "it" else "", "", "", ""],
                       ["ratio.llama70b.h100.memory_over_compute", "", "", "", "times"]],
            "names": [["device", "einem" if lang == "de" else "", False]], "says": ["kv.design", "step.fit", "kv.totals"],
            "charts": ["roofline"]}
    from sitebuild import widgets
    worker.install_strings(json.dumps(widgets.page_config(lang, tr_for(lang), {}, example=True)["strings"]))
    try:
        texts = worker.texts_from_state("example", {"model": "deepseek-v3", "device": "h200", "devices": "16"}, lang)
        out = json.loads(worker.handle(json.dumps({"calc": "example", "instance": "example", "locale": lang, "texts": texts,
                                                   "page": page})))
    finally:
        worker.install_strings("{}")
    assert out["ok"] and out["state"] == {"model": "deepseek-v3", "device": "h200", "devices": "16"}, out.get("debug") or out["errors"]
    article = out["article"]
    assert article["figs"]["kv.llama70b.bytes_per_token"].replace(".", "").replace(",", "").startswith("70272")
    assert "H200" in article["names"]["device|" + ("einem" if lang == "de" else "") + "|"]
    # a factor in running text: "-mal" in German, "times" in English (calculators/text/prose.py)
    factor = {"de": "-mal", "en": " times", "da": " gange", "it": " volte"}[lang]
    assert factor in article["groups"]["ratio.llama70b.h100.memory_over_compute||||times"]
    assert "DeepSeek" in article["says"]["kv.design"] and "<li>" in article["says"]["kv.totals"]
    assert "chart-roofline" in article["charts"]["roofline"] and "H200" in article["announce"]
    assert set(article["provenance"]["figs"]) >= {"kv.llama70b.bytes_per_token", "device.h100.memory"}


def test_the_control_refuses_what_the_article_cannot_explain():
    calc = control.Example()
    tr = tr_for("en")
    assert "device" in calc.check(dict(calc.defaults, device="wse-3"), "en", tr, CAT)
    assert "batch" in calc.check(dict(calc.defaults, batch=1), "en", tr, CAT)
    assert "context" in calc.check(dict(calc.defaults, context=1), "en", tr, CAT)
    assert "devices" in calc.check(dict(calc.defaults, model="deepseek-v3"), "en", tr, CAT)   # 8 × H100 do not hold it
    assert calc.check(dict(calc.defaults), "en", tr, CAT) == {}
