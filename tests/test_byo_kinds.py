"""Every layer kind pasted as a reader's config.json, in every language: rows that are right, or a refusal.

The numbers behind the rows are checked by hand in tests/test_hybrid_architectures.py; here the
calculators are run on each real config of tests/fixtures/configs/kinds/ in the four locales, and
what a reader sees must hold no NaN, infinity or traceback. The summary rows of a pasted config and
the messages of the refusal codes are calculators/ui's (calculators/ui/config_messages.py): every kind
a config can hold has its summary text, every refusal its message.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from calculators.arch import config as A
from calculators.data import byo
from calculators.text import fmt
from calculators.data import catalog
from calculators.ui import config_messages as byo_ui
from calculators.ui import worker as ui
from sitebuild.strings import Strings

KINDS = pathlib.Path(__file__).parent / "fixtures" / "configs" / "kinds"
FIXTURES = sorted(p.stem for p in KINDS.glob("*.json") if p.stem != "SOURCES")
REFUSED = {"llama-3.2-11b-vision-instruct"}
MODELLED = [n for n in FIXTURES if n not in REFUSED]
LANGS = fmt.LOCALES
STRINGS = Strings()
BAD = re.compile(r"\bNaN\b|\bnan\b|\binf\b|Infinity|undefined|\bNone\b|Traceback")


def text(name: str) -> str:
    return (KINDS / f"{name}.json").read_text()


def tr_for(lang):
    return lambda msgid: STRINGS.get(msgid, lang)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", MODELLED)
def test_every_calculator_computes_every_modelled_kind(name, lang):
    """The result rows (not the summary of the config): what calcs.run computes from the pasted config."""
    for calc, c in ui.CALCULATORS.items():
        inputs = {"model": byo.BYO, "config": text(name)}
        if "context" in c.defaults:
            inputs["context"] = 4096
        if calc == "latency":
            inputs.update(prompt=2048, output=512)
        result = c.run(inputs, lang, catalog.load())
        shown = " ".join(r.text(tr_for(lang)) for r in result.rows)
        assert result.rows and not BAD.search(shown), (name, calc, shown[:300])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", MODELLED)
def test_pasted_config_shows_its_layers_in_the_readers_language(name, lang):
    kinds = [kind for kind, _, _ in byo.model(text(name)).arch.kind_summary()]
    assert all(kind in byo_ui.KINDS for kind in kinds), f"calculators/ui does not name every layer kind of {name}: {kinds}"
    texts = dict(ui.default_texts("kv_cache", lang), model=byo.BYO, config=text(name), context="4096")
    out = ui.evaluate("kv_cache", texts, lang, tr_for(lang))
    assert out["ok"], out["errors"]
    assert not BAD.search(out["html"] + out["chart"])
    m = byo.model(text(name))
    for _, count, _ in m.arch.kind_summary():
        assert fmt.format_number(count, lang) in out["html"]
    assert fmt.format_quantity(m.total_params, "params", lang) in out["html"]


REFUSALS = [
    ("cross-attention (Llama 3.2 Vision)", text("llama-3.2-11b-vision-instruct"), "unmodelled", "cross_attention"),
    ("a pure Mamba model", json.dumps({"model_type": "mamba", "num_hidden_layers": 64, "hidden_size": 2560,
                                       "state_size": 16, "vocab_size": 50280}), "unmodelled", "state_space"),
    ("an encoder-decoder", json.dumps({"model_type": "t5", "num_hidden_layers": 6, "hidden_size": 512,
                                       "num_attention_heads": 8, "vocab_size": 32128}), "not_decoder", None),
    ("an indexer on a family without it", json.dumps(dict(json.loads(text("phi-4")), index_topk=2048)), "unmodelled",
     "sparse_attention"),
    ("Nemotron-H with MoE blocks", text("nemotron-h-56b-base-8k").replace('M-M-M-M*-', 'E-M-M-M*-', 1), "pattern", None),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case,pasted,code,kind", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refused_kinds_get_a_message_and_nothing_breaks(case, pasted, code, kind, lang):
    with pytest.raises(byo.ByoError) as err:
        byo.model(pasted)
    assert err.value.code == code and err.value.params.get("kind") == kind
    out = ui.evaluate("decode", dict(ui.default_texts("decode", lang), model=byo.BYO, config=pasted), lang, tr_for(lang))
    assert not out["ok"] and set(out["errors"]) == {"config"}
    message = out["errors"]["config"]
    assert message and not BAD.search(message) and "{" not in message
    msgid = byo_ui.template(err.value)
    assert msgid != byo_ui.MESSAGES["invalid"], f"calculators/ui has no message for {code!r} ({kind})"
    template = STRINGS.get(msgid, lang)
    assert all(part in message for part in re.split(r"\{\w+\}", template)), (message, template)


def test_the_signals_list_names_every_kind_a_refusal_can_give():
    kinds = {k for _, k, _ in A.SIGNALS} | set(A.RECURRENT_FAMILIES.values()) | \
        {k for k, _ in A.LAYER_TYPES.values() if k}
    assert kinds == {"state_space", "recurrent", "linear_attention", "sparse_attention", "block_sparse_attention",
                     "chunked_attention", "cross_attention", "encoder_decoder", "sliding_pattern", "mtp", "moe_pattern"}
