"""The variant sweep: the running example's text for every catalog model on several devices, in two precisions
and four languages, with every check that applies to rendered text.

Why: the article's sentences about its example are chosen by the numbers
(calculators/example/variants.py), so a sentence true for Llama 3.1 70B on H100
could be false for another model. This renders, for every catalog model whose
layers the calculators read (and a pasted config.json), on five devices, in
three settings of precision, context and batch, on both pages of the example
and in each language: every figure of the example and its explanation,
every sentence the example chooses, every name in every form the pages use,
and the charts; and checks that nothing raises, nothing prints NaN or
infinity, every formula object gives its figure's value, every placeholder
has a value, and the prose lints (where sitebuild/checks has them) find
nothing. Combinations the article cannot explain must be refused by the
example control with a message in each language instead.

The number of variants checked is printed (run with -s to see it).
"""

from __future__ import annotations

import pathlib
import re
import time

import pytest

from calculators.data import byo, catalog
from calculators.example import example as E
from calculators.example import render, variants
from calculators.example.case import Case
from calculators.example.sentences_decode import SAYS as DECODE_SAYS
from calculators.text import grammar
from calculators.text.message import Plural
from calculators.ui import example as control
from calculators.ui.fields import model_keys
from sitebuild.checks import numbers
from sitebuild.strings import LANGS

import examplecheck
from examplecheck import tr_for

ROOT = pathlib.Path(__file__).resolve().parent.parent
CAT = catalog.load()
DEVICES = ("h100-sxm", "b200", "mi300x", "sn40l", "tpu-v6e")
REFUSED_DEVICES = ("groq-lpu", "wse-3", "mi355x")          # no published dense BF16 peak
# (weight precision, KV precision, context, batch) beside each page's default context and batch
SETTINGS = (("catalog", "bf16", None, None), ("fp8", "fp8", None, None), ("mxfp4", "mxfp4", 32 * 1024, 8))
OWN_CONFIG = (ROOT / "calculators" / "data" / "configs" / "llama-3.1-8b.json").read_text(encoding="utf-8")


def _devices_that_fit(ex: E.Example) -> E.Example | None:
    """The example on the fewest devices (a power of two) that hold it and split it as engines do; None if none does."""
    for n in (1, 2, 4, 8, 16, 32, 64):
        candidate = E.Example(**{**ex.__dict__, "devices": n})
        if E.refusals(CAT, candidate):
            continue
        if Case(CAT, candidate).fits(n, candidate.context, candidate.batch):
            return candidate
    return None


def examples() -> list:
    """(page, Example) of the sweep, and the combinations nothing fits (refused by the control)."""
    out, refused = [], []
    models = model_keys(CAT) + [byo.BYO]
    for page in E.PAGES:
        for model in models:
            for device in DEVICES:
                for weights, kv, context, batch in SETTINGS:
                    base = E.with_defaults(page, model=model, device=device, weight_precision=weights, kv_precision=kv,
                                           config=OWN_CONFIG if model == byo.BYO else "")
                    if context:
                        base = E.Example(**{**base.__dict__, "context": context, "batch": batch})
                    ex = _devices_that_fit(base)
                    (out if ex else refused).append((page, ex or base))
    return out, refused


EXAMPLES, NOTHING_FITS = examples()


def test_the_sweep_renders_and_checks_every_variant(capsys):
    started = time.perf_counter()
    problems, counted, chosen = [], 0, set()
    for page, ex in EXAMPLES:
        where = f"{page}: {ex.model} on {ex.devices} × {ex.device}, weights {ex.weight_precision}, KV {ex.kv_precision}, " \
                f"context {ex.context}, batch {ex.batch}"
        found, n, picked = examplecheck.check(Case(CAT, ex, page), where)
        problems += found
        counted += n
        chosen |= picked
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nexample sweep: {len(EXAMPLES)} examples × {len(LANGS)} languages, {counted} sentences rendered and checked "
              f"({len(chosen)} distinct variants), {len(NOTHING_FITS)} combinations refused, in {elapsed:.1f} s")
    assert problems == [], "\n".join(problems[:40])


# Catalog examples beyond the sweep's settings that reach the remaining variants (short and long contexts, one device,
# large batches, FP4 weights on a device with a low compute peak). Found by search; each must stay valid.
SPECIAL = (
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, context=65536, batch=2)),   # only batch 1 of the list fits
    ("decode", dict(model="llama-3.1-70b", device="h20", devices=8, weight_precision="fp4", kv_precision="fp8",
                    context=131072, batch=2)),                                                      # compute catches up
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=8, context=131072, batch=2)),   # KV before weights
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, context=64, batch=512)),     # a compute-bound batch
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, weight_precision="fp4", kv_precision="fp8",
                    context=64, batch=64)),                                                         # nearly full compute
    ("decode", dict(model="deepseek-v3.2", device="l40s", devices=64, context=64, batch=2)),          # sparse, a large share
    ("decode", dict(model="llama-3.1-8b", device="h20", devices=1, weight_precision="fp4", kv_precision="fp8",
                    context=64, batch=2)),                                                          # memory-bound, less clearly
    ("decode", dict(model="deepseek-v3", device="h20", devices=8, weight_precision="fp4", kv_precision="fp8",
                    context=65536, batch=2)),                                                       # KV first, compute catches up
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, kv_precision="mxfp4", context=64, batch=2)),
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, kv_precision="fp4", context=64, batch=2)),
    ("decode", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, weight_precision="fp4", context=64, batch=2)),
    ("speed", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, context=64, batch=2)),          # a short prompt
    ("speed", dict(model="llama-3.1-8b", device="h100-sxm", devices=1, context=131072, batch=2)),      # the request's cache first
)
# Variants no catalog example reaches, rendered with hand-made configs and devices in tests/test_example.py: attention
# designs no catalog model has (multi-head, multi-query, layers that all grow but unlike), tied embeddings, a device
# whose compute would outlast its memory time at batch 1, a request larger than a device or tiny beside it, a KV cache
# of a megabyte per token.
ELSEWHERE = {("kv.design", "mha"), ("kv.design", "mqa"), ("kv.design", "varied"), ("step.active", "dense_tied"),
             ("step.active", "moe_tied"), ("step.read", "dense_tied"), ("step.read", "moe_tied"), ("step.bound", "compute"),
             ("step.intensity", "right"), ("kv.memory", "over_part"), ("kv.memory", "tiny_part"), ("kv.per_token", "large"),
             ("kv.per_token", "windowed_large")}
# And one no example reaches: batch 1 always fits where the example's own batch (at least 2) does.
NEVER = {("batch.row.1", "full")}


def special_examples() -> list:
    return [(page, E.with_defaults(page, **values)) for page, values in SPECIAL]


def test_the_special_examples_are_valid_and_checked():
    problems = []
    for page, ex in special_examples():
        assert not E.refusals(CAT, ex), ex
        c = Case(CAT, ex, page)
        assert c.fits(ex.devices, ex.context, ex.batch), ex
        problems += examplecheck.check(c, f"{page}: {ex}")[0]
    assert problems == [], "\n".join(problems[:40])


def test_every_variant_is_reached_by_the_sweep_a_special_example_or_a_hand_made_one():
    """A variant nothing reaches would be text nobody checks."""
    reached = set()
    for page, ex in EXAMPLES + special_examples():
        c = Case(CAT, ex, page)
        for s in render.SAYS.values():
            if page in s.pages:
                reached.update((s.id, k) for k, _ in s.chosen(c))
    declared = {(s.id, k) for s in render.SAYS.values() for k in s.variants}
    assert declared - reached - ELSEWHERE - NEVER == set()
    assert not (ELSEWHERE & reached), "a variant the catalog now reaches: drop it from ELSEWHERE"


@pytest.mark.parametrize("lang", LANGS)
def test_what_the_article_cannot_explain_is_refused_in_the_readers_language(lang):
    """No published BF16 peak (Groq, WSE-3, MI355X), a batch of one, a model that fits on no count of devices:
    the control refuses with a message in the page's language, and the article keeps its last example."""
    calc = control.Example()
    tr = tr_for(lang)
    for device in REFUSED_DEVICES:
        values = dict(calc.defaults, device=device)
        errors = calc.check(values, lang, tr, CAT)
        assert set(errors) == {"device"} and CAT.devices[device].name in errors["device"], errors
    errors = calc.check(dict(calc.defaults, batch=1), lang, tr, CAT)
    assert "batch" in errors and grammar.plural_category("2", lang)
    for page, ex in NOTHING_FITS[:10]:
        values = dict(calc.defaults, **{k: v for k, v in ex.__dict__.items()})
        values["devices"] = 64
        errors = calc.check(values, lang, tr, CAT)
        assert errors, f"{ex} is accepted but fits on no count of devices"


@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_template_is_a_whole_message_without_typed_numbers(lang):
    """Each variant in each language: its placeholders those of the msgid, article forms the language has,
    a plural message with the language's forms, and no digit or number word the numbers check would flag."""
    tr = tr_for(lang)
    pattern = numbers.names_pattern(numbers.load_names(ROOT) + ["FP32", "FP16", "INT4", "INT8", "config.json"])
    for s in render.SAYS.values():
        for key, msg in s.variants.items():
            forms = tr(msg) if isinstance(msg, Plural) else (tr(msg, variants.CONTEXT),)
            if isinstance(msg, Plural):
                assert len(forms) == len(grammar.CATEGORIES[lang]) or lang in ("de", "en", "da"), (s.id, key, forms)
            for template in forms:
                for name, spec in variants.forms_in(template):
                    assert variants.article_ok(name, spec, lang), f"{s.id}/{key} ({lang}): {{{name}:{spec}}}"
                prose = re.sub(r"\{[^{}]*\}", " ", template)
                prose = numbers._blank_names(prose, pattern)
                assert not numbers.NUMERAL.search(prose), f"{s.id}/{key} ({lang}): a typed number in {template!r}"
                words = [w for w in numbers.WORD.findall(prose) if numbers.is_number_word(w, lang)]
                assert words == [], f"{s.id}/{key} ({lang}): number words {words} in {template!r}"


def test_the_decode_page_sentences_cover_the_batching_list():
    assert {f"batch.row.{b}" for b in (1, 8, 32, 64, 128)} <= {s.id for s in DECODE_SAYS}


@pytest.mark.parametrize("lang", LANGS)
def test_no_claim_on_a_page_of_the_example_rests_on_a_figure_the_example_changes(lang):
    """A claim() states a value in words ("about 2.7 GB"); the build checks it for the default example only, so a claim
    on a figure of the running example would be wrong for the reader's. The claims stay on fixed figures."""
    from calculators.example import figures as X
    for page in E.PAGES:
        claimed = {m.args[0] for m in examplecheck.macros(lang, page) if m.name == "claim" and m.args}
        assert not claimed & X.ids(page), f"docs/{lang}/{page}.md: claim() on {sorted(claimed & X.ids(page))}"
