"""The speed page's sentences that depend on the example: its setup, time to first token, where a step's time goes,
how busy the arithmetic is, the share of prefill in the latency and what a batch costs each request."""

from __future__ import annotations

from ..text.marks import N_
from .variants import Say

PAGE = ("speed",)
WEIGHTS_ALMOST_ALL = 0.8   # of the memory time: "almost all of the step time goes to reading the weights"
IDLE = 0.1                 # compute utilisation below a tenth: "barely busy"


SPEED_SETUP = Say("speed.setup", PAGE, lambda c: "multi" if c.ex.devices > 1 else "single", {
    "multi": N_("{model} runs in {weights} on {n} × {device}, which share the weights (tensor parallelism): each chip holds part of "
                "the weights and reads only that part at every step.", "example"),
    "single": N_("{model} runs in {weights} on {device:a}, which holds all of the weights and reads them in full at every step.",
                 "example"),
}, figs={"n": "speed.devices"})

SPEED_TTFT = Say("speed.ttft", PAGE, lambda c: "compute" if c.prefill[0] >= c.prefill[1] else "memory", {
    "compute": N_("In the example, prefill of the {p} prompt tokens takes at least {ttft}.", "example"),
    "memory": N_("In the example, the prompt is so short, at {p} tokens, that reading the weights once takes longer than the "
                 "arithmetic: prefill takes at least {ttft}.", "example"),
}, figs={"p": "speed.prompt", "ttft": "speed.ttft"})


def _where(c) -> str:
    s = c.step(1, c.ex.context)
    share = s.weights_s / s.memory_s
    return "weights" if share >= WEIGHTS_ALMOST_ALL else "mostly" if share >= 0.5 else "request"


SPEED_WHERE = Say("speed.where", PAGE, _where, {
    "weights": N_("Almost all of the step time goes to reading the weights.", "example"),
    "mostly": N_("Most of the step time goes to reading the weights, the rest to what the request itself holds in memory.",
                 "example"),
    "request": N_("Here most of the step time goes not to the weights but to reading what the request itself holds in memory.",
                  "example"),
})

SPEED_BUSY = Say("speed.busy", PAGE, lambda c: "idle" if c.step(1, c.ex.context).compute_utilisation < IDLE else "busy", {
    "idle": N_("The compute units are barely busy: they use only {util} of their peak.", "example"),
    "busy": N_("The compute units use {util} of their peak.", "example"),
}, figs={"util": "speed.util"})


def _share(c) -> str:
    from .figures_speed import ttft_share
    return "small" if ttft_share(c) < 0.5 else "large"


SPEED_SHARE = Say("speed.share", PAGE, _share, {
    "small": N_("Prefill accounts for only {share} of that: for answers of this length, decode speed decides how long you wait.",
                "example"),
    "large": N_("Prefill accounts for {share} of that, more than decode: with a prompt this long, it decides how long you wait.",
                "example"),
}, figs={"share": "speed.ttft_share"})


def _tradeoff(c) -> str:
    from .figures_speed import per_request_drop
    return "drop" if per_request_drop(c) >= 0.005 else "flat"


SPEED_TRADEOFF = Say("speed.tradeoff", PAGE, _tradeoff, {
    "drop": N_("In the example, the batch lowers the speed per request from {a} to {b}, by {drop}, and end-to-end latency rises "
               "from {e} to {eb}.", "example"),
    "flat": N_("In the example, the batch leaves the speed per request almost unchanged ({a} and {b}), and end-to-end latency "
               "rises only from {e} to {eb}.", "example"),
}, figs={"a": "speed.per_request", "b": "speed.per_request_batched", "drop": "speed.per_request_drop", "e": "speed.e2e",
         "eb": "speed.e2e_batched"})

SAYS = (SPEED_SETUP, SPEED_TTFT, SPEED_WHERE, SPEED_BUSY, SPEED_SHARE, SPEED_TRADEOFF)
