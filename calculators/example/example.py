"""The running example as a type: which model on which devices, in which precisions, at which context and batch.

The article works through one example. It used to be written into the
figures (Llama 3.1 70B in BF16 on H100); now it is a value, `Example`, and
every figure of the running example is a function of (catalog, Example)
(calculators/example/figures_*.py). The build computes them for each page's
default example (`DEFAULTS`: exactly the numbers the pages printed before),
the browser for the reader's.

Each page has its own default: the main article's step and batching at 8K
context and a batch of 64, the speed page's worked example at a prompt of
2,000 tokens and a batch of 32 (`page` names them: "decode", "speed").

`refusals` says what the article cannot explain for an example, as data
(a code and its parameters); calculators/ui/example.py turns them into
messages in the reader's language, beside the calculators' own checks (the
model must fit on the devices, the context must fit the model).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from ..data import byo
from ..data.catalog import Catalog, Device, Model
from ..perf import roofline as M

AS_RELEASED = "catalog"          # weight precision: each tensor group as the checkpoint stores it (ui/fields.py)
PAGES = ("decode", "speed")
COMPUTE_PRECISION = "bf16"       # the peak the article compares with (see figures_step.py: why BF16 always)


@dataclass(frozen=True)
class Example:
    """What the reader chooses: the fields of the example control, with the calculators' names."""

    model: str = "llama-3.1-70b"          # a catalog key, or byo.BYO for the reader's config.json
    device: str = "h100-sxm"
    devices: int = 8                      # the tensor-parallel group of the batching and speed figures
    weight_precision: str = AS_RELEASED
    kv_precision: str = "bf16"
    context: int = 8 * 1024               # tokens per request (the speed page: the prompt)
    batch: int = 64                       # requests decoded together
    config: str = ""                      # the reader's config.json, when model is byo.BYO

    @property
    def weights(self) -> str | None:
        """The forced weight precision, or None: every group as released."""
        return None if self.weight_precision == AS_RELEASED else self.weight_precision

    @property
    def own_config(self) -> bool:
        return self.model == byo.BYO


DEFAULTS = {"decode": Example(), "speed": Example(context=2000, batch=32)}


def default(page: str) -> Example:
    return DEFAULTS[page]


@lru_cache(maxsize=16)
def _own_model(config: str) -> Model:
    return byo.model(config)


def model(cat: Catalog, ex: Example) -> Model:
    """The example's model: the catalog's, or the reader's config.json read (a ByoError when it cannot be)."""
    return _own_model(ex.config) if ex.own_config else cat.models[ex.model]


def device(cat: Catalog, ex: Example) -> Device:
    return cat.devices[ex.device]


@dataclass(frozen=True)
class Refusal:
    """Why the article cannot explain this example: a code and what the message names."""

    field: str        # the control's field the message belongs under
    code: str
    params: tuple     # ((name, value), ...), values as data (formatted by the caller)

    def get(self, name: str):
        return dict(self.params)[name]


def refusals(cat: Catalog, ex: Example) -> list:
    """What the article cannot explain for `ex` (empty when all is well); the model must already read."""
    m, d = model(cat, ex), device(cat, ex)
    out = []
    if COMPUTE_PRECISION not in d.peak_flops:
        out.append(Refusal("device", "no_peak", (("device", d.name), ("published", tuple(sorted(d.peak_flops))))))
    if not any(layer.attention.grows_at(None) for layer in m.arch.layers):
        out.append(Refusal("model", "no_cache", (("model", m.name),)))
    if ex.batch < 2:   # the pages compare a batch with a single request
        out.append(Refusal("batch", "at_least", (("min", 2),)))
    if ex.context < 2:   # the pages count the context's tokens in the plural
        out.append(Refusal("context", "at_least", (("min", 2),)))
    if len(m.arch.layers) < 2:   # the pages count the layers in the plural
        out.append(Refusal("model", "one_layer", (("model", m.name),)))
    if not d.prose:
        out.append(Refusal("device", "no_prose", (("device", d.name),)))
    problem = M.tp_problem(m, ex.devices)
    if problem is not None:
        field, count, rule = problem
        out.append(Refusal("devices", "tp", (("model", m.name), ("n", ex.devices), ("field", field), ("count", count),
                                             ("rule", rule))))
    return out


def with_defaults(page: str, **values) -> Example:
    """The page's default example with some fields changed (tests, the sweep)."""
    return replace(DEFAULTS[page], **values)
