"""Every text the four calculators can show, per language: the reading copy's calculator part and the lints' input.

Why a sweep: a calculator's page shows its default result only; everything
else a reader can see appears after an input (another model, a number out of
range, a pasted config.json that is not one). Reviewers cannot read what they
never see, and the lints (sitebuild/checks/reader.py) cannot check it either.
So this module asks the calculators' own code (calculators/ui/worker.py, the
code the browser runs) for, per calculator and language:

- the default result: rows, verdict, the chart's title, description and labels;
- the result for each option of each select field, the other fields at their defaults;
- every message a field gives for a text it does not take (empty, not a
  number, negative, zero, too large, not whole, bad grouping), found by typing
  those texts into each field; one case per distinct message;
- every message of the checks across fields (calculators/ui/checks.py) and of a
  pasted config.json (calculators/ui/config_messages.py), from the inputs in
  CROSS and CONFIGS below (tests/test_reading_copy.py: each message is reached);
- what the page script shows before Python answers (status lines, notices).

A case names the input that produced it, in stable order, so that two
reading copies diff line by line. Texts are translated with the build's
strings (sitebuild/strings.py), as the page does.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass
from decimal import Decimal
from html.parser import HTMLParser

from calculators.data import byo, catalog
from calculators.ui import fields as F
from calculators.ui import messages, worker

from .strings import Strings, Translator

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIGS_DIR = ROOT / "calculators" / "data" / "configs"


@dataclass(frozen=True)
class Case:
    calc: str            # the calculator's name (kv_cache, decode, fit, latency), or "page" for the page script's texts
    lang: str
    heading: str         # what input produced the text, in English, for the reviewer
    lines: tuple         # the text the reader sees, one line per row, message or label
    note: str = ""       # for the reviewer, not shown to the reader (why the worker failed)

    @property
    def module(self) -> str:
        """The file a finding in this case is reported against."""
        return f"calculators/ui/{self.calc}.py" if self.calc in worker.CALCULATORS else "calculators/ui/messages.py"


class _Text(HTMLParser):
    """Result HTML and chart SVG as lines: a table row as "label: value", a paragraph, each chart label."""

    LINE = {"tr", "p", "title", "desc", "text", "li", "caption"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.cur, self.cells = [], [], []

    def handle_starttag(self, tag, attrs):
        if tag in ("th", "td"):
            self._cell()
        elif tag in self.LINE:
            self._line()

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._cell()
        elif tag in self.LINE:
            self._line()

    def handle_data(self, data):
        self.cur.append(data)

    def _cell(self):
        text = " ".join("".join(self.cur).split())
        self.cur = []
        if text:
            self.cells.append(text)

    def _line(self):
        self._cell()
        if self.cells:
            self.lines.append(": ".join(self.cells))
        self.cells = []


def html_lines(html: str) -> list:
    """The visible text of a result or chart, one line per row or label, each line once."""
    p = _Text()
    p.feed(html)
    p._line()
    return list(dict.fromkeys(p.lines))


def translator(lang: str, strings: Strings | None = None) -> Translator:
    """The page's translation function for `lang` (a Plural gives its forms): the build's own Translator."""
    return Translator(strings or Strings(), lang)


def evaluate(name: str, texts: dict, lang: str, tr, cat) -> tuple:
    """(lines, {field: message}) the reader sees for these field texts; an exception shows the page's failure line."""
    try:
        out = worker.evaluate(name, texts, lang, tr, cat=cat)
    except Exception as err:  # noqa: BLE001 - the browser's worker shows FAILED (worker.handle)
        return (tr(messages.FAILED),), {"": f"the worker fails: {type(err).__name__}: {err}"}
    if not out["ok"]:     # each message under its field, as the page shows it
        calc = worker.ALL[name]           # the four calculators and the running example's controls
        return (tuple(f"{tr(calc.field(f).label)}: {msg}" for f, msg in sorted(out["errors"].items())),
                dict(out["errors"]))
    return tuple(html_lines(out["html"]) + html_lines(out["chart"])), {}


# ------------------------------------------------------------------ what is typed

def bad_numbers(f: F.NumberField, lang: str) -> list:
    """(what, text) for each way a reader can break a number field, in the reader's locale."""
    sym_group = F.display(1000, lang)[1:-3] or ","
    out = [("empty", ""), ("not a number", "abc"), ("negative", "-3"), ("zero", "0"),
           ("too large", F.display(int(f.hi) * 10 + 1, lang)),
           ("bad grouping", f"1{sym_group}23{sym_group}456")]
    if f.integer:
        out.append(("not whole", F.display(Decimal("2.5"), lang)))
    return out


def _config(name: str) -> dict:
    return json.loads((CONFIGS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def _nested(depth: int):
    value = 1
    for _ in range(depth):
        value = {"a": value}
    return value


# (kind of layer, a field that signals it, a value): calculators/arch/refusal.py SIGNALS
UNMODELLED = (("state_space", "state_size", 16), ("linear_attention", "linear_num_key_heads", 16),
              ("sparse_attention", "index_topk", 2048), ("block_sparse_attention", "dense_attention_every_n_layers", 4),
              ("chunked_attention", "attention_chunk_size", 8192), ("cross_attention", "cross_attention_layers", [3, 8]),
              ("encoder_decoder", "is_encoder_decoder", True), ("sliding_pattern", "sliding_window_pattern", "LLLG"),
              ("mtp", "num_nextn_predict_layers", 1), ("moe_pattern", "moe_layers", [1, 3]))


def _configs() -> list:
    """(what, config.json text) for each message a pasted config can get (each code of
    calculators/ui/config_messages.py, and each kind of layer the calculators do not model), and three that are read."""
    llama, oss, ds = _config("llama-3.1-8b"), _config("gpt-oss-20b"), _config("deepseek-v3")
    hybrid = _config("nemotron-h-56b")     # Mamba-2, MLP-only and attention blocks, one character each
    n = 120
    long_oss = {**oss, "num_hidden_layers": n, "layer_types": ["sliding_attention", "full_attention"] * (n // 2)}
    cases = [
        ("a config.json that is read (Llama 3.1 8B)", llama),
        ("a config too long for a link (gpt-oss-20b with 120 layers)", long_oss),
        ("empty", ""),
        ("longer than any config", "{" + " " * byo.MAX_CONFIG_CHARS + "}"),
        ("not JSON", '{"hidden_size": 4096,'),
        ("JSON that is not a config", {"name": "x"}),
        ("a config without the fields the calculators need", {"hidden_size": 4096, "model_type": "frobnicator"}),
        ("an unknown quantization method", {**llama, "quantization_config": {"quant_method": "awq"}}),
        ("a field missing", {**llama, "intermediate_size": None}),
        ("a field that is not a whole number", {**llama, "intermediate_size": "x"}),
        ("a field out of range", {**llama, "hidden_size": 10**9}),
        ("layer_types of the wrong length", {**oss, "layer_types": ["full_attention"]}),
        ("layer_types with an unknown kind", {**oss, "layer_types": ["frobnicated_attention"] * oss["num_hidden_layers"]}),
        ("values the calculators cannot read", {**oss, "quantization_config": {**oss["quantization_config"],
                                                                                "modules_to_not_convert": 5}}),
        ("an FP8 block size other than 128 x 128", {**ds, "quantization_config": {**ds["quantization_config"],
                                                                                     "weight_block_size": [64, 64]}}),
        ("a hybrid of Mamba-2 and attention layers that is read (Nemotron-H 56B)", hybrid),
        ("a model type that is not text", {**llama, "model_type": 5}),
        ("true or false in quotation marks", {**llama, "tie_word_embeddings": "false"}),
        ("a text_config that is not an object", {**llama, "text_config": 5}),
        ("architectures that is not a list of names", {**llama, "architectures": "LlamaForCausalLM"}),
        ("a layer pattern one block short", {**hybrid, "hybrid_override_pattern": hybrid["hybrid_override_pattern"][:-1]}),
        ("a layer pattern of one block for two layers", {**hybrid, "num_hidden_layers": 2, "hybrid_override_pattern": "M"}),
        ("a block kind the calculators do not model", {**hybrid, "hybrid_override_pattern": "E" + hybrid["hybrid_override_pattern"][1:]}),
        ("KV heads that do not divide the heads", {**llama, "num_key_value_heads": 3}),
        ("an unknown state dtype", {**hybrid, "mamba_ssm_cache_dtype": "float7"}),
        ("a config nested too deep", {**llama, "extra": _nested(25)}),
        ("an encoder-decoder model type", {"model_type": "t5", "num_hidden_layers": 6, "hidden_size": 512}),
    ]
    # layer lists in Kimi Linear's form: not a list, a layer the model does not have, layers assigned twice
    kimi = {**llama, "model_type": "kimi_linear", "num_hidden_layers": 4, "linear_attn_config": {
        "kda_layers": [1, 2, 3], "full_attn_layers": [4], "num_heads": 32, "head_dim": 128, "short_conv_kernel_size": 4}}
    lac = kimi["linear_attn_config"]
    cases += [("a layer list that is not a list", {**kimi, "linear_attn_config": {**lac, "kda_layers": "all"}}),
              ("a layer number out of range", {**kimi, "linear_attn_config": {**lac, "full_attn_layers": [9]}}),
              ("layers assigned twice", {**kimi, "linear_attn_config": {**lac, "full_attn_layers": [3, 4]}})]
    # each kind of layer the calculators do not model, signalled by a field of Llama 3.1 8B's config
    cases += [(f"{kind.replace('_', ' ')} signalled by {field}", {**llama, field: value}) for kind, field, value in UNMODELLED]
    cases += [("a recurrent model (RWKV)", {"model_type": "rwkv", "num_hidden_layers": 24, "hidden_size": 2048, "vocab_size": 50277})]
    return [(what, cfg if isinstance(cfg, str) else json.dumps(cfg, indent=1)) for what, cfg in cases]


# Inputs that parse but that the model cannot take (calculators/ui/checks.py): one per message.
CROSS = (
    ("kv_cache", {"context": "1048576"}, "a context longer than the model reads"),
    ("latency", {"prompt": "100000", "output": "100000"}, "prompt and output longer than the model reads"),
    ("decode", {"devices": "1"}, "too few devices for the model and its cache"),
    ("decode", {"model": "deepseek-v3", "device": "groq-lpu", "batch": "64"},
     "no number of devices holds the cache when split by tensor parallelism alone"),
    ("decode", {"devices": "100", "pp": "100"}, "more pipeline stages than layers"),
    ("decode", {"devices": "8", "pp": "3"}, "a device count the stages do not divide"),
    ("decode", {"ep": F.EP_ON}, "expert parallelism for a dense model"),
    ("decode", {"devices": "2", "pp": "2", "batch": "64"}, "a layout whose fullest device does not hold its part"),
    ("latency", {"device": "wse-3"}, "a device without a published peak"),
    ("decode", {"devices": "6"}, "a tensor-parallel degree the heads do not split into"),
    ("decode", {"model": "minimax-m2", "devices": "12"}, "a tensor-parallel degree the KV heads neither divide nor split into"),
    ("decode", {"device": "sn40l"}, "a device no published measurement calibrates"),
    ("decode", {"device": "mi300x", "engine": "trtllm"}, "an engine no published measurement calibrates on the device"),
    ("latency", {"device": "a100-80gb"}, "a device no published measurement calibrates, with a time to first token"),
    ("decode", {"model": "qwen3-next-80b-a3b", "context": "4096"}, "a model with a fixed state"),
    ("kv_cache", {"model": "qwen3-next-80b-a3b", "context": "4096"}, "a model with a fixed state: vLLM's larger pages"),
    ("fit", {"model": "llama-4-maverick", "context": "1048576", "batch": "1"}, "one layer's cache larger than a device"),
)


def _case(calc: str, lang: str, heading: str, shown: tuple) -> Case:
    """A case from evaluate()'s answer: the lines, and the failure's cause as a note."""
    lines, errors = shown
    return Case(calc, lang, heading, tuple(lines), errors.get("", ""))


def calculator_cases(name: str, lang: str, tr, cat) -> list:
    """Every case of one calculator in one language, in a fixed order."""
    calc = worker.CALCULATORS[name]
    defaults = worker.default_texts(name, lang)
    out = [_case(name, lang, "defaults", evaluate(name, defaults, lang, tr, cat))]
    for f in calc.fields:
        if isinstance(f, F.ChoiceField):
            for key, _label in f.options(cat, lambda m: m):
                if key != defaults[f.name]:
                    out.append(_case(name, lang, f"{f.name} = {key}", evaluate(name, {**defaults, f.name: key}, lang, tr, cat)))
    seen = set()
    for f in calc.fields:
        if not isinstance(f, F.NumberField):
            continue
        base = {**defaults, "model": F.CUSTOM} if f.custom else defaults
        for what, text in bad_numbers(f, lang):
            shown = evaluate(name, {**base, f.name: text}, lang, tr, cat)
            message = shown[1].get(f.name)
            if message is not None and message not in seen:
                seen.add(message)
                out.append(_case(name, lang, f"{f.name} = “{text}” ({what})", shown))
    for calc_name, state, what in CROSS:
        if calc_name == name:
            texts = worker.texts_from_state(name, state, lang)
            shown = ", ".join(f"{k} = {v}" for k, v in state.items())
            out.append(_case(name, lang, f"{shown} ({what})", evaluate(name, texts, lang, tr, cat)))
    if name == "decode":      # a pasted config.json reads the same in every calculator: shown once, in decode
        for what, text in _configs():
            texts = {**defaults, "model": byo.BYO, "config": text}
            out.append(_case(name, lang, f"model = your config.json: {what}", evaluate(name, texts, lang, tr, cat)))
    return out


def page_cases(lang: str, tr) -> list:
    """What the page script shows around a calculator before or instead of a result."""
    from . import widgets
    texts = [*messages.STATUS.values(), messages.READ_ONLY, messages.STALE, messages.FAILED, messages.CHOICE,
             *widgets.NOTICES.values()]
    return [Case("page", lang, "the page script's status lines and notices", tuple(tr(t) for t in texts))]


def cases(lang: str, strings: Strings | None = None, cat=None) -> list:
    """Every case of every calculator in `lang`."""
    tr = translator(lang, strings)
    cat = cat or catalog.load()
    out = []
    for name in worker.CALCULATORS:
        out += calculator_cases(name, lang, tr, cat)
    return out + page_cases(lang, tr)


def render(found: list) -> str:
    """The cases as the reading copy's text: a heading per case, its lines below."""
    parts = []
    for c in found:
        parts.append(f"## {c.calc}: {c.heading}")
        parts += list(c.lines) + ([f"[not shown to the reader: {c.note}]"] if c.note else []) + [""]
    return "\n".join(parts)
