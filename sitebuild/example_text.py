"""The running example's texts for the reading copy: what the article can say about an example other than its default.

The built pages hold each sentence of the running example in the variant that
holds for the page's default example (Llama 3.1 70B on H100). A reader who
chooses another model or device reads other variants, and the example control
answers some choices with a message instead. Reviewers read them here, per
language: for each sentence (calculators/example/sentences_*.py) every variant,
rendered for an example of the catalog that chooses it, the example named in
the heading; a variant no catalog example here reaches (a design no catalog
model has) as its translated template, placeholders as written. Then the
control's messages for the choices the article cannot explain.

The checks of the rendered variants are the variant sweep's
(tests/test_example_sweep.py: every catalog model on five devices, four
languages, the reader-text lints included); this module only writes them out.
"""

from __future__ import annotations

import re
from functools import lru_cache

from calculators.example import example as E
from calculators.example import figures as X
from calculators.example import variants
from calculators.example.case import Case as ExampleCase
from calculators.example.render import SAYS
from calculators.text.message import Plural
from calculators.ui import worker

from .calc_text import Case, evaluate

# Examples a reviewer can recognise, each reaching variants the default does not (all fit on their devices).
EXAMPLES = (
    ("llama-3.1-70b", "h100-sxm", 8, "catalog", "bf16"),
    ("llama-3.1-8b", "h100-sxm", 1, "catalog", "bf16"),
    ("deepseek-v3", "b200", 8, "catalog", "bf16"),
    ("deepseek-v3.2", "b200", 8, "catalog", "fp8"),
    ("gpt-oss-120b", "h100-sxm", 1, "catalog", "bf16"),
    ("qwen3-235b-a22b", "b200", 8, "fp8", "fp8"),
    ("qwen3-next-80b-a3b", "h200", 2, "catalog", "bf16"),
    ("nemotron-h-56b", "h200", 2, "catalog", "bf16"),
    ("llama-3.1-8b", "mi300x", 1, "fp4", "mxfp4"),
)
# What the control refuses, as the reader would choose it (calculators/ui/example.py: REFUSALS).
REFUSED = (({"device": "groq-lpu"}, "a device without a published dense BF16 peak"),
           ({"batch": "1"}, "a batch of one"),
           ({"devices": "6"}, "a number of devices the heads do not divide"),
           ({"model": "deepseek-v3", "devices": "1"}, "a model larger than its devices"))
TAG = re.compile(r"<[^>]+>")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", TAG.sub(" ", html)).replace(" .", ".").replace(" ,", ",").strip()


@lru_cache(maxsize=4)
def _examples(page: str, cat) -> tuple:
    out = []
    for model, device, devices, weights, kv in EXAMPLES:
        if model not in cat.models:
            continue
        ex = E.with_defaults(page, model=model, device=device, devices=devices, weight_precision=weights, kv_precision=kv)
        if not E.refusals(cat, ex):
            out.append(ExampleCase(cat, ex, page))
    return tuple(out)


def _name(c) -> str:
    ex = c.ex
    return (f"{c.m.name} on {ex.devices} × {c.d.name}, weights {ex.weight_precision}, KV {ex.kv_precision}, "
            f"context {ex.context}, batch {ex.batch}")


def _template(msg, lang: str, tr) -> str:
    translated = tr(msg) if isinstance(msg, Plural) else tr(msg, variants.CONTEXT)
    if isinstance(translated, Plural):
        translated = (translated.one, translated.other)
    return " / ".join(translated) if isinstance(translated, tuple) else translated


def say_cases(page: str, lang: str, tr, cat) -> list:
    """Each sentence's every variant, rendered for the first example that chooses it, or as its template."""
    out = []
    examples = _examples(page, cat)
    for say in (s for s in SAYS.values() if page in s.pages):
        for key, msg in say.variants.items():
            line, where = None, "no example of this list chooses it: the template"
            for c in examples:
                chosen = [(k, figs) for k, figs in say.chosen(c) if k == key]
                if chosen:
                    html = variants.inner_html(say, c, X.registry(c), lang, tr, None, chosen[:1])
                    line, where = _text(html), _name(c)
                    break
            out.append(Case("example", lang, f"{page}: {say.id} = {key} ({where})", (line or _template(msg, lang, tr),)))
    return out


def control_cases(lang: str, tr, cat) -> list:
    """The control's messages for what the article cannot explain, under the field they belong to."""
    out = []
    for state, what in REFUSED:
        texts = {**worker.default_texts("example", lang), **state}
        lines, _ = evaluate("example", texts, lang, tr, cat)
        out.append(Case("example", lang, f"example control: {', '.join(f'{k} = {v}' for k, v in state.items())} ({what})",
                        tuple(lines)))
    return out


def cases(lang: str, tr, cat) -> list:
    return say_cases("decode", lang, tr, cat) + say_cases("speed", lang, tr, cat) + control_cases(lang, tr, cat)

