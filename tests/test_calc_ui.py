"""calculators.ui on CPython: what a reader types, what they get back, and what the browser is told.

The browser runs the same functions (tests/test_browser.py checks that it
prints the same); here the rules themselves are checked quickly and broadly:
defaults compute in every language, bad input yields a message for its field
and never NaN, shared states round-trip, and every string the browser may
need Python to translate is in the page's string table and in the catalogs.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from calculators.text.message import Plural
from hypothesis import given, settings, strategies as st

from calculators.text import fmt
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui
from sitebuild import widgets
from sitebuild.strings import SOURCE_LANG, Strings, catalog

LANGS = fmt.LOCALES
BAD = re.compile(r"\bNaN\b|\bnan\b|\binf\b|Infinity|undefined|\bNone\b|Traceback")


class Recorder:
    """A translation function that remembers which msgids it was asked for."""

    def __init__(self):
        self.seen = set()

    def __call__(self, msgid):
        # a plural message is asked for by its Plural and sent to the browser under its singular
        self.seen.add(msgid.one if isinstance(msgid, Plural) else msgid)
        return msgid


def _number_fields(name):
    return [f for f in ui.CALCULATORS[name].fields if isinstance(f, fields.NumberField)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(ui.CALCULATORS))
def test_defaults_compute_and_state_is_empty(name, lang):
    out = ui.evaluate(name, ui.default_texts(name, lang), lang, lambda m: m)
    assert out["ok"] and not out["errors"], out["errors"]
    assert out["state"] == {}, "defaults must leave the URL clean"
    assert not BAD.search(out["html"] + out["chart"])
    assert out["chart"].startswith("<figure") and "<svg" in out["chart"]


def test_default_texts_are_written_the_way_each_language_writes_numbers():
    assert ui.default_texts("kv_cache", "de")["context"] == "32.768"
    assert ui.default_texts("kv_cache", "en")["context"] == "32,768"
    assert fields.display(0.5, "it") == "0,5" and fields.display(0.5, "en") == "0.5"
    assert fields.display(2.25, "da") == "2,25"


@pytest.mark.parametrize("typed, lang, field, code", [
    ("", "de", "batch", "empty"), ("abc", "en", "batch", "not_a_number"), ("-4", "da", "batch", "zero"),
    ("0", "it", "batch", "zero"), ("1e400", "en", "context", "too_large"), ("2,5", "de", "batch", "not_integer"),
    ("2.5", "en", "batch", "not_integer"), ("1.00.000", "de", "batch", "bad_grouping"), ("NaN", "en", "context", "not_a_number"),
    ("inf", "de", "context", "not_a_number"), ("0x10", "en", "batch", "not_a_number"), ("½", "it", "batch", "not_a_number"),
])
def test_bad_input_gets_its_message(typed, lang, field, code):
    texts = dict(ui.default_texts("kv_cache", lang), **{field: typed})
    out = ui.evaluate("kv_cache", texts, lang, lambda m: m)
    assert not out["ok"] and out["html"] == ""
    template = fields.PARSE_MESSAGES[code]
    pattern = ".+".join(re.escape(p) for p in re.split(r"\{\w+\}", template))
    assert re.fullmatch(pattern, out["errors"][field]), out["errors"]


def test_what_people_type_is_understood():
    for lang, typed, value in [("de", "8K", 8192), ("en", "128k", 131072), ("de", "100 000", 100000),
                               ("da", "32.768", 32768), ("it", "32 768", 32768), ("en", "32,768", 32768)]:
        out = ui.evaluate("kv_cache", dict(ui.default_texts("kv_cache", lang), context=typed), lang, lambda m: m)
        assert out["ok"], (lang, typed, out["errors"])
        assert out["state"].get("context", str(ui.CALCULATORS["kv_cache"].defaults["context"])) == str(value)
    out = ui.evaluate("latency", dict(ui.default_texts("latency", "de"), tool_s="0,25"), "de", lambda m: m)
    assert out["state"] == {"tool_s": "0.25"}


def test_inputs_the_model_cannot_take_are_refused_where_they_are_typed():
    en = lambda name, **kw: ui.evaluate(name, dict(ui.default_texts(name, "en"), **kw), "en", lambda m: m)  # noqa: E731
    assert "131,072" in en("kv_cache", context="1M")["errors"]["context"]
    assert "at least 2" in en("decode", devices="1")["errors"]["devices"]
    assert "any number" in en("decode", model="deepseek-v3", device="groq-lpu")["errors"]["devices"]
    assert set(en("latency", prompt="100K", output="100K")["errors"]) == {"output"}
    assert set(en("kv_cache", model="unknown-model")["errors"]) == {"model"}
    custom = en("kv_cache", model="custom", layers="0", head_dim="5000")
    assert set(custom["errors"]) == {"layers", "head_dim"}
    assert en("kv_cache", layers="0")["ok"], "custom fields are not read for a catalog model"


def test_shared_state_round_trips_across_languages():
    out = ui.evaluate("latency", dict(ui.default_texts("latency", "en"), tool_s="1.25", prompt="4K"), "en", lambda m: m)
    state = out["state"]
    assert state == {"tool_s": "1.25", "prompt": "4096"}
    texts = ui.texts_from_state("latency", state, "de")
    assert texts["tool_s"] == "1,25" and texts["prompt"] == "4.096"
    again = ui.evaluate("latency", texts, "de", lambda m: m)
    assert again["ok"] and again["state"] == state


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-1", "1e999", "abc", "0.125", "1" * 80, "<script>"])
def test_a_tampered_url_yields_field_errors_not_exceptions(value):
    answer = json.loads(ui.handle(json.dumps({"calc": "kv_cache", "instance": "kv_cache", "locale": "de",
                                              "state": {"batch": value, "model": value}})))
    assert "texts" in answer
    assert not answer["ok"] and "model" in answer["errors"]
    assert not BAD.search(json.dumps({k: answer[k] for k in ("errors", "html", "chart")}))


def test_handle_never_raises():
    for request in ("not json", "{}", '{"calc": "nope", "locale": "de", "texts": {}}', '{"calc": "kv_cache"}'):
        answer = json.loads(ui.handle(request))
        assert answer["ok"] is False and answer["failure"] and "Traceback" in answer["debug"]


def _any_text():
    digits = st.text(alphabet="0123456789.,  -+eEkKmM", max_size=14)
    return st.one_of(digits, st.text(max_size=12), st.sampled_from(["nan", "inf", "-0", "1e308", "9" * 30]))


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(list(ui.CALCULATORS)), lang=st.sampled_from(LANGS), data=st.data())
def test_no_typed_text_breaks_a_calculator(name, lang, data):
    texts = ui.default_texts(name, lang)
    for f in _number_fields(name):
        if data.draw(st.booleans()):
            texts[f.name] = data.draw(_any_text())
    out = ui.evaluate(name, texts, lang, lambda m: m)
    if out["ok"]:
        assert not BAD.search(out["html"] + out["chart"])
        assert all(math.isfinite(float(v)) for k, v in out["state"].items() if k not in ("model", "device") and "precision" not in k)
    else:
        assert out["errors"] and all(isinstance(m, str) and m for m in out["errors"].values())


def test_the_browser_string_table_covers_everything_python_may_translate():
    recorder = Recorder()
    table = set(messages.browser_strings())
    cases = {
        "kv_cache": [{}, {"model": "custom"}, {"model": "gpt-oss-120b", "context": "100"}, {"batch": "10000"},
                     {"batch": "-1"}, {"context": "1M"}, {"model": "x"}],
        "decode": [{}, {"device": "wse-3"}, {"batch": "4096"}, {"devices": "1"}, {"device": "groq-lpu", "model": "deepseek-v3"}],
        "fit": [{}, {"batch": ""}, {"context": "abc"}],
        "latency": [{}, {"tool_s": "1"}, {"output": "200K"}, {"prompt": "1.2.3"}, {"steps": "0"}],
    }
    for name, changes in cases.items():
        for change in changes:
            ui.evaluate(name, dict(ui.default_texts(name, "en"), **change), "en", recorder)
        for f in _number_fields(name):
            for text in ("", "x", "-1", "0", "1e99", "1.5", "1,00,0"):
                ui.evaluate(name, dict(ui.default_texts(name, "en"), **{f.name: text}), "en", recorder)
    missing = sorted(recorder.seen - table)
    assert not missing, f"Python may translate strings the page does not send: {missing}"


def test_every_calculator_string_is_in_the_source_catalog():
    """New UI strings must reach locales/*.po (`make messages`) before the build can show them."""
    source = catalog(SOURCE_LANG)
    needed = set(messages.browser_strings()) | set(messages.STATUS.values()) | {messages.READ_ONLY, messages.STALE, fields.AS_RELEASED_LABEL}
    needed |= {f.label for calc in ui.CALCULATORS.values() for f in calc.fields} | {c.title for c in ui.CALCULATORS.values()}
    context = lambda m: messages.plural(m).context if messages.plural(m) else None  # noqa: E731 - a plural's msgctxt
    missing = sorted(m for m in needed if source.get(m, context(m)) is None)
    assert not missing, f"not in locales/{SOURCE_LANG}.po, run `make messages`: {missing}"


def test_page_config_is_a_safe_json_island():
    strings = Strings()
    html = widgets.page_assets("it", lambda m: strings.get(m, "it"), {"pyodide": "p/", "wheel": "w.whl", "worker": "x.js"},
                               "../assets/", "abc")
    island = re.search(r'<script type="application/json" id="calc-config">(.*?)</script>', html).group(1)
    assert "</" not in island
    config = json.loads(island)
    assert config["locale"] == "it" and set(config["strings"]) == set(messages.browser_strings())
    assert set(config["status"]) == set(messages.STATUS)
    assert 'src="../assets/calculators.js?v=abc"' in html


@given(st.text(), st.booleans())
def test_markup_escape_is_html_escape(text, quote):
    import html

    from calculators.text import markup
    assert markup.escape(text, quote) == html.escape(text, quote)


def test_a_string_two_modules_declare_reaches_the_browser_table_whichever_loads_first():
    """The decode chart's legend ("reading weights") is declared by the calculators and by the running example;
    the browser table must hold it even when the example's module (excluded from it) declared it first."""
    from calculators.text import marks
    marks.N_("a legend both declare")                      # declared here, by a test module: not a calculators module
    assert ("a legend both declare", None) not in marks.declared("calculators.")
    marks._DECLARED[("a legend both declare", None)].add("calculators.ui.charts")
    assert ("a legend both declare", None) in marks.declared("calculators.", exclude=("calculators.example",))
    del marks._DECLARED[("a legend both declare", None)]
    for legend in ("reading weights", "reading KV cache", "arithmetic at peak"):
        assert legend in messages.browser_strings()
