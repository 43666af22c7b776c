"""The calculators' inputs: one class per kind of field, each with its own rule and its own message.

A field reads what a reader typed (in the reader's locale) and returns a value,
or raises `InputError` with a message in the reader's language. Each field kind
has one rule and one message per way of breaking it, the same in every
language: a field that needs a number greater than zero says so for 0 and for
−3 alike. The build renders a field's control from its kind (sitebuild/widgets.py):
a number box, a choice, or the config.json text area.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from ..arch import precision as P
from ..data import byo
from ..perf import step_time
from ..text import fmt
from ..text import parse
from .messages import CHOICE, N_

MAX_STATE_TEXT = 64          # longest value taken from a shared URL

CUSTOM = "custom"            # model key of the KV calculator's hand-entered model
AS_RELEASED = "catalog"      # weight precision: each weight group as the catalog stores it
EP_OFF, EP_ON = "off", "on"  # expert parallelism: experts split over a stage's devices, or placed whole

CUSTOM_LABEL = N_("custom model")
OWN_CONFIG_LABEL = N_("your config.json")
AS_RELEASED_LABEL = N_("as released")
EP_LABELS = {EP_OFF: N_("off"), EP_ON: N_("on")}
# Serving engines (calculators/perf/step_time.py ENGINES): the default is none named, the mean of the calibrated
# ones; the others are names and stay as they are in every language.
GENERIC_ENGINE = "generic"
ENGINES = (GENERIC_ENGINE,) + tuple(e for e in step_time.ENGINES if e != GENERIC_ENGINE)
ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "trtllm": "TensorRT-LLM"}
GENERIC_ENGINE_LABEL = N_("unspecified engine (mean of the calibrated ones)")
# What the calculators read from a reader's config.json (calculators/arch/config.py MODELLED_KINDS), under the field.
MODELLED_NOTE = N_("The calculators model decoders with these layers: full and grouped-query attention, sliding-window "
                   "attention, chunked attention, multi-head latent attention, also sparse (DeepSeek), linear attention "
                   "(Gated DeltaNet, Kimi Delta Attention), Mamba state-space layers, mixture of experts with shared "
                   "experts, and MTP modules. A config with other layers (cross-attention, encoder-decoder, other "
                   "recurrent or sparse designs) is refused with the reason, never computed as full attention. Vision "
                   "encoders are not counted.")
KV_PRECISIONS = ("bf16", "fp8", "mxfp4", "fp4")
WEIGHT_PRECISIONS = (AS_RELEASED, "bf16", "fp8", "mxfp4", "fp4")

# One message per rule. {max} and {example} are filled in the reader's locale.
PARSE_MESSAGES = {
    "empty": N_("Enter a number."),
    "not_a_number": N_("Enter a number, for example {example}."),
    "negative": N_("Enter a number that is not negative."),
    "zero": N_("Enter a number greater than zero."),
    "too_large": N_("Enter at most {max}."),
    "not_integer": N_("Enter a whole number."),
    "bad_grouping": N_("Check the thousands separators: digits come in groups of three."),
}


class InputError(ValueError):
    """What is wrong with one field's text, already in the reader's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def display(value, locale: str) -> str:
    """A number as an input field shows it in `locale` ("32.768" de, "0,5" it), without losing digits."""
    d = value if isinstance(value, Decimal) else Decimal(repr(value) if isinstance(value, float) else value)
    if d == d.to_integral_value():
        return fmt.format_number(int(d), locale)
    return fmt.format_number(d, locale, decimals=-d.normalize().as_tuple().exponent)


def canonical(value) -> str:
    """The language-independent text of a number for the URL ("32768", "0.5")."""
    if isinstance(value, int):
        return str(value)
    d = Decimal(repr(value)).normalize()
    return f"{d:f}" if d != d.to_integral_value() else str(int(d))


@dataclass(frozen=True)
class Field:
    """One input: its name (the URL's key), its label (a msgid) and when it is shown."""

    name: str
    label: str
    custom: bool = False   # read and shown only for the custom model
    byo: bool = False      # read and shown only for the reader's own config.json
    help: str = ""         # a msgid shown under the control (what the field takes), or none

    def read(self, text: str, locale: str, tr, cat):
        """The value of `text`, or an InputError with the reader's-language message."""
        raise NotImplementedError

    def shown(self, value, locale: str) -> str:
        """How a value appears in the field."""
        return str(value)

    def from_state(self, text: str, locale: str) -> str:
        """A shared URL's value as the field shows it (the text is then read like a typed one)."""
        return str(text)[:MAX_STATE_TEXT]

    def state(self, value) -> str:
        """The value as a URL keeps it."""
        return str(value)


# ------------------------------------------------------------------ numbers


@dataclass(frozen=True)
class NumberField(Field):
    """A number typed in the reader's locale, at most `hi`; zero allowed or not, whole or not."""

    hi: float = 0
    positive: bool = True       # greater than zero (else: zero or more)
    integer: bool = True
    example = 8
    inputmode = "numeric"

    def _parse(self, text: str, locale: str):
        return parse.parse_number(text, locale, integer=self.integer, allow_zero=not self.positive, max_value=self.hi,
                                  suffixes=None)

    def read(self, text: str, locale: str, tr, cat):
        try:
            return self._parse(text, locale)
        except parse.ParseError as exc:
            code = "zero" if exc.code == "negative" and self.positive else exc.code   # one rule, one message
            example = self.example if isinstance(self.example, str) else display(self.example, locale)
            raise InputError(tr(PARSE_MESSAGES[code]).format(max=display(int(self.hi), locale), example=example)) from None

    def shown(self, value, locale: str) -> str:
        return display(value, locale)

    def from_state(self, text: str, locale: str) -> str:
        """A URL value as the field shows it; anything but a plain finite number is shown as typed (and then rejected)."""
        text = str(text)[:MAX_STATE_TEXT]
        try:
            d = Decimal(text)
        except (InvalidOperation, ValueError):
            return text
        if not d.is_finite() or abs(d) >= Decimal(10) ** 15 or d.as_tuple().exponent < -12:
            return text
        return display(d, locale)

    def state(self, value) -> str:
        return canonical(value)


@dataclass(frozen=True)
class CountField(NumberField):
    """Devices, requests, layers: a whole number greater than zero (k and M allowed: 1k = 1,000)."""

    def _parse(self, text: str, locale: str):
        return parse.parse_number(text, locale, integer=True, allow_zero=False, max_value=self.hi)


@dataclass(frozen=True)
class OptionalCountField(CountField):
    """A whole number where 0 means off (speculative decoding's proposed tokens)."""

    positive: bool = False
    example = 2

    def _parse(self, text: str, locale: str):
        return parse.parse_number(text, locale, integer=True, max_value=self.hi)


@dataclass(frozen=True)
class TokensField(NumberField):
    """Tokens: whole, greater than zero; K and M are binary (8K = 8,192), as context lengths are counted."""

    example = "32K"
    inputmode = "text"

    def _parse(self, text: str, locale: str):
        return parse.parse_tokens(text, locale, max_value=self.hi)


@dataclass(frozen=True)
class ShareField(NumberField):
    """A share in percent where 0 is allowed (an acceptance rate)."""

    positive: bool = False
    integer: bool = False
    example = 80
    inputmode = "decimal"


@dataclass(frozen=True)
class SecondsField(NumberField):
    """A time, zero or more."""

    positive: bool = False
    integer: bool = False
    example = 1.5
    inputmode = "decimal"


# ------------------------------------------------------------------ choices


@dataclass(frozen=True)
class ChoiceField(Field):
    """One of a list of keys; the page shows their labels."""

    def options(self, cat, tr) -> list:
        """(key, shown label) for each choice; model and device names are names, not UI strings."""
        raise NotImplementedError

    def read(self, text: str, locale: str, tr, cat):
        if text in {key for key, _ in self.options(cat, lambda m: m)}:
            return text
        raise InputError(tr(CHOICE))


def model_keys(cat) -> list:
    """Catalog models whose layers the model knows (the calculators' choices)."""
    return [k for k, m in cat.models.items() if m.arch is not None]


@dataclass(frozen=True)
class ModelField(ChoiceField):
    """A catalog model or the reader's own config.json (and, with `custom`, a hand-entered model)."""

    with_custom: bool = False

    def options(self, cat, tr) -> list:
        items = [(k, cat.models[k].name) for k in model_keys(cat)] + [(byo.BYO, tr(OWN_CONFIG_LABEL))]
        return items + [(CUSTOM, tr(CUSTOM_LABEL))] if self.with_custom else items


@dataclass(frozen=True)
class DeviceField(ChoiceField):
    def options(self, cat, tr) -> list:
        return [(k, d.name) for k, d in cat.devices.items()]


@dataclass(frozen=True)
class KVPrecisionField(ChoiceField):
    def options(self, cat, tr) -> list:
        return [(p, P.get(p).label) for p in KV_PRECISIONS]


@dataclass(frozen=True)
class WeightPrecisionField(ChoiceField):
    def options(self, cat, tr) -> list:
        return [(p, tr(AS_RELEASED_LABEL) if p == AS_RELEASED else P.get(p).label) for p in WEIGHT_PRECISIONS]


@dataclass(frozen=True)
class EngineField(ChoiceField):
    """The serving engine whose measured fixed costs and all-reduce the expected step uses (perf/step_time.py)."""

    def options(self, cat, tr) -> list:
        return [(k, tr(GENERIC_ENGINE_LABEL) if k == GENERIC_ENGINE else ENGINE_NAMES[k]) for k in ENGINES]


@dataclass(frozen=True)
class SwitchField(ChoiceField):
    def options(self, cat, tr) -> list:
        return [(k, tr(label)) for k, label in EP_LABELS.items()]


@dataclass(frozen=True)
class ConfigField(Field):
    """The reader's config.json, as pasted or dropped; read in full once the model choice says it is used."""

    def read(self, text: str, locale: str, tr, cat):
        return text

    def from_state(self, text: str, locale: str) -> str:
        return str(text)[:byo.MAX_SHARE_CHARS]


# ------------------------------------------------------------------ the fields several calculators share

MAX_TOKENS = 10_000_000      # context of a custom model; catalog models stop at their own window
MAX_COUNT = 100_000          # devices, batch

MODEL = ModelField("model", N_("Model"))
CONFIG = ConfigField("config", N_("config.json (paste it, or drop the file here)"), byo=True, help=MODELLED_NOTE)
DEVICE = DeviceField("device", N_("Device"))
KV_PRECISION = KVPrecisionField("kv_precision", N_("KV precision"))
WEIGHT_PRECISION = WeightPrecisionField("weight_precision", N_("Weight precision"))
CONTEXT = TokensField("context", N_("Context length (tokens)"), hi=MAX_TOKENS)
BATCH = CountField("batch", N_("Batch size"), hi=MAX_COUNT)
DEVICES = CountField("devices", N_("Number of devices"), hi=MAX_COUNT)
# the deployment: the devices split into pipeline stages (tensor parallel within a stage), experts whole or split
PP = CountField("pp", N_("Pipeline stages"), hi=10_000)
EP = SwitchField("ep", N_("Expert parallelism (mixture of experts only)"))
# the engine behind "expected": its measured fixed cost per layer and all-reduce (calculators/perf/step_time.py)
ENGINE = EngineField("engine", N_("Engine"))
# speculative decoding: k tokens proposed per step (0: off), each accepted with probability a (at most 100 %)
SPEC_K = OptionalCountField("spec_k", N_("Speculative decoding: tokens proposed per step (0 = off)"), hi=16)
SPEC_ACCEPTANCE = ShareField("spec_acceptance", N_("Acceptance per proposed token (%)"), hi=100)
