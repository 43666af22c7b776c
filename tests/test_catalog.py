"""Catalog loading: the shipped file is valid, and each kind of mistake is named."""

import copy
import tomllib
from importlib import resources

import pytest

from calculators.data import catalog, sources

RAW = tomllib.loads(resources.files("calculators.data").joinpath("catalog.toml").read_text(encoding="utf-8"))


def test_shipped_catalog_loads_and_has_the_facts():
    cat = catalog.load()
    assert {"llama-3.1-70b", "gpt-oss-120b", "deepseek-v3", "minimax-m2", "deepseek-v4-pro"} <= set(cat.models)
    assert {"h100-sxm", "sn40l", "groq-lpu", "wse-3"} <= set(cat.devices)
    assert len(cat.measurements) >= 9


def test_every_entry_has_source_date_and_confidence():
    cat = catalog.load()
    for section in (cat.models, cat.devices, cat.racks, cat.measurements, cat.data):
        for rec in section.values():
            assert rec.src.source and rec.src.accessed and rec.src.confidence in sources.CONFIDENCE


def test_weight_groups_sum_to_total_params():
    for m in catalog.load().models.values():
        if m.arch:
            assert sum(g.params for g in m.weights) == m.total_params, m.key


def _broken(edit):
    raw = copy.deepcopy(RAW)
    edit(raw)
    return raw


CASES = [
    ("missing field", lambda r: r["models"]["llama-3.1-70b"].pop("max_context"), "models.llama-3.1-70b", "max_context", "missing"),
    ("zero size", lambda r: r["devices"]["h100-sxm"]["memory"][0].update(bytes=0), "devices.h100-sxm.memory[0]", "bytes", "greater than zero"),
    ("negative", lambda r: r["models"]["gpt-oss-120b"].update(card_total_params=-8), "models.gpt-oss-120b", "card_total_params", "greater than zero"),
    ("unknown precision", lambda r: r["models"]["minimax-m2"]["tensor_dtypes"].update(router="bf17"), "models.minimax-m2", "tensor_dtypes.router", "unknown precision"),
    ("unknown tensor group", lambda r: r["models"]["minimax-m2"]["tensor_dtypes"].update(gates="fp32"), "models.minimax-m2", "tensor_dtypes.gates", "unknown tensor group"),
    ("unknown peak precision", lambda r: r["devices"]["h200"]["peak_flops"].update(fp9=1e15), "devices.h200", "peak_flops.fp9", "unknown precision"),
    ("unknown device ref", lambda r: r["racks"]["sn40l-16"].update(device="sn50"), "racks.sn40l-16", "device", "unknown device"),
    ("unknown model ref", lambda r: r["measurements"]["infercom-gpt-oss-120b"].update(model="gpt-5"), "measurements.infercom-gpt-oss-120b", "model", "unknown model"),
    ("missing config file", lambda r: r["models"]["deepseek-v3"].update(config="deepseek-v9.json"), "models.deepseek-v3", "config", "no file"),
    ("bad date", lambda r: r["devices"]["b200"].update(accessed="last week"), "devices.b200", "accessed", "ISO date"),
    ("bad confidence", lambda r: r["devices"]["b200"].update(confidence="sure"), "devices.b200", "confidence", "unknown confidence"),
    ("empty source", lambda r: r["data"]["gpu-rack-power-w"].update(source=" "), "data.gpu-rack-power-w", "source", "empty"),
    ("text for number", lambda r: r["models"]["llama-3.1-8b"].update(card_total_params="8B"), "models.llama-3.1-8b", "card_total_params", "expected a number"),
    ("range reversed", lambda r: r["measurements"]["gpu-minimax-m2"].update(low=200), "measurements.gpu-minimax-m2", "high", "below low"),
    ("active > total", lambda r: r["models"]["deepseek-v3"].update(card_active_params=700e9), "models.deepseek-v3", "card_active_params", "exceeds"),
    ("card total disagrees", lambda r: r["models"]["llama-3.1-70b"].update(card_total_params=80e9), "models.llama-3.1-70b", "card_total_params", "more than 1 % apart"),
    ("card active disagrees", lambda r: r["models"]["gpt-oss-120b"].update(card_active_params=5.8e9), "models.gpt-oss-120b", "card_active_params", "more than 1 % apart"),
    ("card counts embedding", lambda r: r["models"]["qwen3-235b-a22b"].pop("card_active_counts_embedding"), "models.qwen3-235b-a22b", "card_active_params", "more than 1 % apart"),
    ("serving tier", lambda r: r["devices"]["mi300x"].update(serving_tier="HBM4"), "devices.mi300x", "serving_tier", "names no tier"),
]


@pytest.mark.parametrize("name,edit,entry,field,message", CASES, ids=[c[0] for c in CASES])
def test_validation_names_entry_and_field(name, edit, entry, field, message):
    with pytest.raises(catalog.DataError) as err:
        catalog.parse_catalog(_broken(edit))
    assert err.value.entry == entry
    assert err.value.field == field
    assert message in str(err.value)


def test_unquoted_dotted_key_is_explained():
    text = resources.files("calculators.data").joinpath("catalog.toml").read_text(encoding="utf-8")
    text = text.replace('[models."llama-3.1-8b"]', "[models.llama-3.1-8b]")
    with pytest.raises(catalog.DataError, match="must be quoted"):
        catalog.load_text(text)
