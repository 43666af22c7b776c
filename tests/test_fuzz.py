"""Untrusted input is data: random shared-link states and pasted configs, in four locales, never break a calculator.

What a link or a paste can hold is anything: keys that would reach a
JavaScript prototype, script payloads, numbers of thousands of digits, NaN,
deeply nested or mistyped JSON. The worker's entry point
(calculators/ui/worker.handle, the function the browser calls) must answer
each in the reader's language: a result, or a message on the field. Never a
traceback, a generic failure (a bug), a "nan" or "None" on the page, and never
longer than a second of work (the page stops a worker that computes longer).
Hypothesis generates the inputs; a failing example is printed and kept.
"""

from __future__ import annotations

import json
import re
import time

from hypothesis import HealthCheck, given, settings, strategies as st

from calculators.ui import worker

LOCALES = ("de", "en", "da", "it")
CALCS = tuple(worker.CALCULATORS)
FIELDS = sorted({f.name for c in worker.CALCULATORS.values() for f in c.fields})
HOSTILE_KEYS = ("__proto__", "constructor", "prototype", "__proto__.failure", "toString", "hasOwnProperty")
PAYLOADS = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "NaN", "Infinity", "-Infinity", "1e308",
            "1e-320", "9" * 5000, "0x1F", "١٢٣", " " * 10_000, "\u202e12", "1,00,000", "-0", "1e999999", "{}", "[]", "null")
BAD = re.compile(r"Traceback|\bnan\b|\bNaN\b|\binf\b|Infinity|\bNone\b|undefined")
SLOW_S = 1.0

values = st.one_of(st.sampled_from(PAYLOADS), st.text(max_size=40), st.integers(-10**30, 10**30).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr))
states = st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.sampled_from(HOSTILE_KEYS), st.text(max_size=12)),
                         values, max_size=8)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40), st.floats(allow_nan=False),
                      st.text(max_size=20), st.sampled_from(PAYLOADS))
json_values = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=10), inner, max_size=4)),
                           max_leaves=30)
CONFIG_KEYS = ("num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim",
               "vocab_size", "intermediate_size", "model_type", "architectures", "torch_dtype", "layer_types",
               "sliding_window", "num_local_experts", "num_experts_per_tok", "quantization_config", "kv_lora_rank",
               "tie_word_embeddings", "max_position_embeddings", "hybrid_override_pattern", "text_config")
configs = st.dictionaries(st.sampled_from(CONFIG_KEYS), json_values, max_size=12)


def _ask(request: dict) -> tuple:
    start = time.perf_counter()
    answer = json.loads(worker.handle(json.dumps(request)))
    return answer, time.perf_counter() - start


def _check(answer: dict, took: float, what: str) -> None:
    assert "debug" not in answer and "failure" not in answer, f"{what}: an unexpected error: {answer.get('debug', '')[-800:]}"
    assert isinstance(answer["ok"], bool)
    shown = answer["html"] + answer["chart"] + " ".join(str(v) for v in answer["errors"].values())
    assert not BAD.search(shown), f"{what}: {BAD.search(shown).group(0)!r} on the page: {shown[:300]}"
    if not answer["ok"]:
        assert answer["errors"] and all(isinstance(m, str) and m for m in answer["errors"].values()), what
    assert took < SLOW_S, f"{what}: {took:.2f} s of work"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calc=st.sampled_from(CALCS), locale=st.sampled_from(LOCALES), state=states)
def test_a_shared_link_of_any_shape_answers_in_the_readers_language(calc, locale, state):
    answer, took = _ask({"calc": calc, "instance": calc, "locale": locale, "state": state})
    _check(answer, took, f"{calc} {locale} state={state!r}"[:300])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calc=st.sampled_from(CALCS), locale=st.sampled_from(LOCALES), config=configs)
def test_a_pasted_config_of_any_shape_answers_in_the_readers_language(calc, locale, config):
    texts = worker.default_texts(calc, locale)
    if "config" not in texts:
        texts = worker.default_texts("decode", locale)
        calc = "decode"
    texts.update(model="config", config=json.dumps(config))
    answer, took = _ask({"calc": calc, "instance": calc, "locale": locale, "texts": texts})
    _check(answer, took, f"{calc} {locale} config={json.dumps(config)[:200]}")


def test_deep_and_large_configs_are_refused_quickly():
    deep = "[" * 10_000 + "]" * 10_000
    for text in (deep, json.dumps({"hidden_size": "9" * 5000}), json.dumps({"x": "a" * 5_000_000})):
        texts = worker.default_texts("decode", "en") | {"model": "config", "config": text}
        answer, took = _ask({"calc": "decode", "instance": "decode", "locale": "en", "texts": texts})
        _check(answer, took, text[:60])
        assert not answer["ok"] and "config" in answer["errors"]


def test_the_check_sees_a_bug(monkeypatch):
    """Fault injection: a calculator that raises is an unexpected error, not an answer."""
    import pytest
    calc = worker.CALCULATORS["kv_cache"]
    monkeypatch.setattr(type(calc), "result", lambda self, *a, **k: 1 / 0)
    answer, took = _ask({"calc": "kv_cache", "instance": "kv_cache", "locale": "en", "state": {}})
    with pytest.raises(AssertionError, match="unexpected error"):
        _check(answer, took, "injected")
