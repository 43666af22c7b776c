"""Every string the package prints, in every locale, as one flat dict.

The Pyodide parity test evaluates this in the browser's Python and in
CPython and compares the dicts: if they are equal, the calculators print
exactly what the build printed (DESIGN invariant 2).
"""

from __future__ import annotations

from . import claims
from . import figures
from ..text import fmt
from ..text import grammar
from ..data import byo, catalog
from ..ui import worker


def snapshot() -> dict:
    out = {}
    for fig in figures.registry().values():
        for loc in fmt.LOCALES:
            out[f"figure:{fig.id}:{loc}"] = fig.format(loc)
    for res in claims.results():
        out[f"claim:{res.claim.n}:verdict"] = res.verdict
        for i, part in enumerate(res.parts):
            out[f"claim:{res.claim.n}:part{i}"] = f"{part.verdict}:{part.matched}"
    for fig in figures.registry().values():       # the words that agree with each figure (calculators/text/grammar.py)
        if fig.kind in ("percent", "count", "tokens", "words") and not fig.is_range:
            it = fig.format("it")
            out[f"grammar:{fig.id}:it"] = grammar.article(it, "al")
            for loc in fmt.LOCALES:
                out[f"grammar:{fig.id}:{loc}:n"] = grammar.plural_category(fig.format(loc), loc)
    out.update(calculator_cases())  # the calculators: defaults, a change and a rejected input, with charts
    return out


# A change and a rejected input per calculator (a pasted config.json and a broken one are added to each).
CHANGES = {"kv_cache": {"context": "128K", "model": "gpt-oss-120b"}, "decode": {"batch": "64", "devices": "4"},
           "fit": {"context": "8K", "batch": "1"}, "latency": {"tool_s": "2.5", "steps": "5"}}
# Inputs that reach the 2026 layer kinds: a hybrid model's fixed state and vLLM's pages, the state a step moves,
# one layer's cache larger than a device, a device without a dense BF16 peak, and a tensor-parallel degree the
# heads do not allow.
EDGES = {"kv_cache": {"model": "qwen3-next-80b-a3b", "context": "4096"}, "decode": {"model": "qwen3-next-80b-a3b", "context": "4096"},
         "fit": {"model": "llama-4-maverick", "context": "1M", "batch": "1"}, "latency": {"device": "wse-3", "devices": "4"}}
LAYOUT_REFUSED = {"devices": "6"}
# The calibrated step time's edge: an engine no published measurement calibrates on the device (the ceiling only).
ENGINE_UNCALIBRATED = {"device": "mi300x", "engine": "trtllm"}


def calculator_cases() -> dict:
    """Calculator outputs for the parity test, per locale: the defaults, a changed input, a rejected one,
    a reader's config.json and a broken one, the edges of the 2026 layer kinds (EDGES), a hybrid config, a
    refusal with plural forms, a layout engines cannot run, and an engine nothing calibrates on the device."""
    import json
    ident = lambda m: m  # noqa: E731
    own = json.dumps(catalog.read_config("gpt-oss-20b.json"))   # a reader's pasted config.json
    hybrid = json.dumps(catalog.read_config("nemotron-h-56b.json"))   # Mamba-2, MLP-only and attention layers
    # a hybrid pattern one block short: a refusal whose message has plural forms
    short = json.loads(hybrid)
    short["hybrid_override_pattern"] = short["hybrid_override_pattern"][:-1]
    out = {}
    for name in worker.CALCULATORS:
        for loc in fmt.LOCALES:
            base = worker.default_texts(name, loc)
            cases = [("default", base), ("changed", dict(base, **CHANGES[name])),
                     ("rejected", dict(base, batch="-1") if "batch" in base else dict(base, steps="0")),
                     ("config", dict(base, model=byo.BYO, config=own)),
                     ("bad config", dict(base, model=byo.BYO, config=own[:-40])),
                     ("edge", dict(base, **EDGES[name])),
                     ("hybrid config", dict(base, model=byo.BYO, config=hybrid, context="4096")),
                     ("short pattern", dict(base, model=byo.BYO, config=json.dumps(short)))]
            if "devices" in base:
                cases.append(("layout refused", dict(base, **LAYOUT_REFUSED)))
            if "engine" in base:
                cases.append(("engine uncalibrated", dict(base, **ENGINE_UNCALIBRATED)))
            for case, texts in cases:
                res = worker.evaluate(name, texts, loc, ident)
                out[f"calc:{name}:{loc}:{case}"] = json.dumps(res, ensure_ascii=False, sort_keys=True)
    return out
