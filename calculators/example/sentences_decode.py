"""The main article's sentences that depend on the example: KV cache (section 2), one step (3), batching (5).

Each `Say` (calculators/example/variants.py) chooses its variant from the
case; the thresholds are written here once, with why. Every msgid is the
English text (msgctxt "example"); locales/<lang>.po holds the four languages.
"""

from __future__ import annotations

from ..arch import precision as P
from ..data import scenarios as S
from ..text.marks import N_, P_
from .figures_kv import FIXED_CONTEXTS, FULL
from .variants import Say

PAGE = ("decode",)
SMALL_PER_TOKEN = 1e6     # bytes: below a megabyte per token, "that sounds small"
LARGE_SHARE = 0.25        # a quarter of a device's memory for one request is "a large share"
CLEAR = 10                # memory time at least ten times the compute time: "clearly memory-bound"
STEEP = 4                 # throughput at the largest fitting batch at least four times batch 1's: "climbs steeply"
BUSY = 0.5                # compute at least half the memory time: the arithmetic "catches up" / is not "far from" full


def _windowed(c) -> bool:
    return any(g.spec.max_cached_tokens for g in c.groups if g.spec.kv_bytes_per_token(c.kv))


def _design(c) -> str:
    if c.design == "mixed" and sum(g.layers for g in c.growing) == len(c.m.arch.layers):
        return "varied"
    if c.design in ("gqa", "mha") and c.groups[0].spec.kv_heads == 1:
        return "mqa"          # one KV head for all query heads: no count of heads to agree with
    return c.design


# ------------------------------------------------------------------ section 2: the KV cache

KV_DESIGN = Say("kv.design", PAGE, _design, {
    "gqa": N_("{model}, a model with grouped-query attention, shows how fast. It has {layers} layers. In each layer, several query "
              "heads share one KV head, so each layer has to store the keys and values of only {kv_heads} KV heads of {head_dim} "
              "values each.", "example"),
    "mqa": N_("{model}, a model with multi-query attention, shows how fast. It has {layers} layers. In each layer, all query heads "
              "share a single KV head, so each layer has to store the keys and values of only that head, of {head_dim} values.",
              "example"),
    "mha": N_("{model}, a model with multi-head attention, shows how fast. It has {layers} layers. In each layer, every query head "
              "has a KV head of its own, so each layer stores the keys and values of {kv_heads} KV heads of {head_dim} values each.",
              "example"),
    "latent": N_("{model}, a model with multi-head latent attention, shows how fast. It has {layers} layers. Instead of keys and "
                 "values for each head, every layer stores, per token, a compressed vector of {latent} values that all heads share, "
                 "plus a positional key of {rope} values.", "example"),
    "sparse": N_("{model}, a model with DeepSeek sparse attention, shows how fast. It has {layers} layers. As with multi-head latent "
                 "attention, every layer stores, per token, a compressed vector of {latent} values and a positional key of {rope} "
                 "values, plus a small index key with which the model picks the {topk} most relevant tokens at every step.", "example"),
    "mixed": P_("{model} shows how fast. Its {layers} layers are not all built alike: only {n} of them stores keys and values for "
                "every token of the context; the others hold at most a window of fixed length or a state of fixed size that does not "
                "grow with the context.",
                "{model} shows how fast. Its {layers} layers are not all built alike: only {n} of them store keys and values for "
                "every token of the context; the others hold at most a window of fixed length or a state of fixed size that does not "
                "grow with the context.", "example"),
    "varied": N_("{model} shows how fast. All of its {layers} layers store keys and values for every token of the context, but "
                 "not all of them store the same amount.", "example"),
}, figs={"layers": "model.llama70b.layers", "kv_heads": "model.llama70b.kv_heads", "head_dim": "model.llama70b.head_dim",
         "latent": "ex.kv.latent", "rope": "ex.kv.rope", "topk": "ex.kv.topk", "n": "ex.kv.grow_layers"})


def _kv_bytes(c) -> str:
    if c.design in ("latent", "sparse") and P.get(c.kv) is P.FP8:
        return "latent_fp8"
    p = P.get(c.kv)
    return "whole" if float(p.bytes).is_integer() else "bits_scaled" if p.scale_bits else "bits"


KV_BYTES = Say("kv.bytes", PAGE, _kv_bytes, {
    "whole": N_("In {kv}, each value takes {bytes}.", "example"),
    "bits": N_("In {kv}, each value takes {bits}.", "example"),
    "bits_scaled": N_("In {kv}, each value takes {bits}, shared scale factors included.", "example"),
    "latent_fp8": N_("In FP8, each value of the compressed vector takes {bytes}, plus a share of scale factors; the positional key "
                     "stays in BF16.", "example"),
}, figs={"bytes": "ex.kv.bytes_per_value", "bits": "ex.kv.bits_per_value"})

KV_FORMULA = Say("kv.formula", PAGE, lambda c: {"gqa": "heads", "mha": "heads", "latent": "latent", "sparse": "sparse"}.get(c.design, "sum"), {
    "heads": N_("KV bytes per token = layers × KV heads × head dimension × bytes per value, counted for the keys and again for "
                "the values", "example"),
    "latent": N_("KV bytes per token = layers × (values of the compressed vector + values of the positional key) × bytes per value",
                 "example"),
    "sparse": N_("KV bytes per token = layers × ((values of the compressed vector + values of the positional key) × bytes per "
                 "value + bytes of the index key)", "example"),
    "sum": N_("KV bytes per token = the sum, over the layers that keep every token, of the bytes one token takes there", "example"),
}, tag="strong")

KV_PER_TOKEN = Say("kv.per_token", PAGE,
                   lambda c: ("windowed_" if _windowed(c) else "") + ("small" if c.kv_per_token < SMALL_PER_TOKEN else "large"), {
    "small": N_("That comes to {per} per token, roughly {short}. That sounds small, but it adds up:", "example"),
    "large": N_("That comes to {per} per token, roughly {short}, and it adds up quickly:", "example"),
    "windowed_small": N_("At long context, that comes to {per} per token, roughly {short}. That sounds small, but it adds up:",
                         "example"),
    "windowed_large": N_("At long context, that comes to {per} per token, roughly {short}, and it adds up quickly:", "example"),
}, figs={"per": "kv.llama70b.bytes_per_token", "short": "kv.llama70b.bytes_per_token_short"})


def _contexts(c) -> list:
    """The list's contexts: 8K and 32K where the model reads more, then its full context (the id's suffix)."""
    return [str(n) for n in FIXED_CONTEXTS if n < c.m.max_context] + [FULL]


def _total_items(c) -> list:
    ctxs = _contexts(c)
    out = []
    for i, ctx in enumerate(ctxs):
        key = "only" if len(ctxs) == 1 else "first" if i == 0 else "last" if i == len(ctxs) - 1 else "middle"
        out.append((key, {"ctx": f"context.{ctx}", "total": f"kv.llama70b.total.{ctx}"}))
    return out


KV_TOTALS = Say("kv.totals", PAGE, lambda c: None, {
    "first": N_("at {ctx} tokens of context, to {total};", "example"),
    "middle": N_("at {ctx} tokens, to {total};", "example"),
    "last": N_("at {ctx} tokens, the full context length, to {total}.", "example"),
    "only": N_("at {ctx} tokens of context, the model's full context length, to {total}.", "example"),
}, tag="ul", items=_total_items)

KV_GIB = Say("kv.gib", PAGE, lambda c: {1: "one", 2: "two", 3: "three"}[len(_contexts(c))], {
    "three": N_("In binary units, these would be {a}, {b}, and {c}.", "example"),
    "two": N_("In binary units, these would be {a} and {b}.", "example"),
    "one": N_("In binary units, this would be {a}.", "example"),
}, figs=lambda c: {slot: f"kv.llama70b.total_gib.{ctx}" for slot, ctx in zip("abc", _contexts(c))})


def _memory(c) -> str:
    share = c.kv_total(c.m.max_context) / c.d.serving.bytes
    size = "over" if share > 1 else "large" if share >= LARGE_SHARE else "tiny" if share < 0.005 else "small"
    return size + ("_part" if c.design == "sparse" else "_all")


KV_MEMORY = Say("kv.memory", PAGE, _memory, {
    "over_all": N_("At full context length, then, a single request on its own needs more than {device:a}'s entire {mem} of {memory}, "
                   "and all of those bytes would have to be read again at every decode step.", "example"),
    "large_all": N_("At full context length, then, a single request on its own takes up a large share of {device:a}'s {mem} of "
                    "{memory}, namely {share}, and all of those bytes have to be read again at every decode step.", "example"),
    "small_all": N_("At full context length, then, a single request on its own takes up {share} of {device:a}'s {mem} of {memory}, "
                    "and all of those bytes have to be read again at every decode step.", "example"),
    "tiny_all": N_("At full context length, then, a single request on its own takes up only a tiny share of {device:a}'s {mem} of "
                   "{memory}, but all of those bytes have to be read again at every decode step.", "example"),
    "over_part": N_("At full context length, then, a single request on its own needs more than {device:a}'s entire {mem} of {memory}, "
                    "although a decode step would read only part of it: every index key, and the selected tokens in full.", "example"),
    "large_part": N_("At full context length, then, a single request on its own takes up a large share of {device:a}'s {mem} of "
                     "{memory}, namely {share}, although a decode step reads only part of it: every index key, and the selected "
                     "tokens in full.", "example"),
    "small_part": N_("At full context length, then, a single request on its own takes up {share} of {device:a}'s {mem} of {memory}, "
                     "although a decode step reads only part of it: every index key, and the selected tokens in full.", "example"),
    "tiny_part": N_("At full context length, then, a single request on its own takes up only a tiny share of {device:a}'s {mem} of "
                    "{memory}, and a decode step reads only part of it: every index key, and the selected tokens in full.", "example"),
}, figs={"mem": "device.h100.memory", "share": "ex.kv.share_memory"})


# ------------------------------------------------------------------ section 3: one decode step on one device

def _structure(c) -> str:
    return ("moe" if c.moe else "dense") + ("_tied" if c.m.arch.tied else "")


STEP_ACTIVE = Say("step.active", PAGE, _structure, {
    "dense": N_("It computes with {active} of them: all except the embedding table, from which only one row is fetched.", "example"),
    "dense_tied": N_("It computes with {active} of them: all of them, because its embedding table also serves as the output layer.",
                     "example"),
    "moe": N_("Per token, it computes with only {active} of them: the experts the router picks for that token, and all other weights "
              "except the embedding table, from which only one row is fetched.", "example"),
    "moe_tied": N_("Per token, it computes with only {active} of them: the experts the router picks for that token, and all other "
                   "weights.", "example"),
}, figs={"active": "params.llama70b.active"})

STEP_MIXERS = Say("step.mixers", PAGE, lambda c: "mixers" if c.m.arch.attention_flops(0) else None, {
    "mixers": N_("The layers with a state of fixed size add {mix} per token of arithmetic of their own.", "example"),
}, figs={"mix": "ex.flops.mixers"})


def _fp8(c) -> str:
    p = c.uniform_precision
    bf16 = p is not None and p.key == "bf16"
    return ("fp8_" if c.has_fp8 else "") + ("bf16" if bf16 else "other")


STEP_FP8 = Say("step.fp8", PAGE, _fp8, {
    "fp8_bf16": N_("At the dense FP8 peak of {peak8}, it would take only {t8}. We use the BF16 value because the weights are in BF16 "
                   "too.", "example"),
    "fp8_other": N_("At the dense FP8 peak of {peak8}, it would take only {t8}. We use the BF16 value all the same: the compute time "
                    "then comes out too long rather than too short, which can only make decode look less memory-bound than it is.",
                    "example"),
    "bf16": N_("We use this value because the weights are in BF16 too.", "example"),
    "other": N_("We use this value even though the weights are in another format: the compute time then comes out too long rather "
                "than too short, which can only make decode look less memory-bound than it is.", "example"),
}, figs={"peak8": "device.h100.peak_fp8", "t8": "step.llama70b.h100.compute_time_fp8"})


def _weights(c) -> str:
    p = c.uniform_precision
    return "mixed" if p is None else "whole" if float(p.bytes).is_integer() else "bits_scaled" if p.scale_bits else "bits"


STEP_WEIGHTS = Say("step.weights", PAGE, _weights, {
    "whole": N_("In {weights}, each parameter takes {bytes}, so the weights come to {total}.", "example"),
    "bits": N_("In {weights}, each parameter takes {bits}, so the weights come to {total}.", "example"),
    "bits_scaled": N_("In {weights}, each parameter takes {bits}, shared scale factors included, so the weights come to {total}.",
                      "example"),
    "mixed": N_("The weights are kept in several formats, as the model was released, and come to {total} in all.", "example"),
}, figs={"bytes": "ex.weights.bytes_per_param", "bits": "ex.weights.bits_per_param", "total": "weights.llama70b.bytes"})

STEP_READ = Say("step.read", PAGE, _structure, {
    "dense": N_("Each token reads {read} of them, everything except the embedding table.", "example"),
    "dense_tied": N_("Each token reads {read} of them, all of the weights.", "example"),
    "moe": N_("Each token reads only {read} of them: the chosen experts and the other weights except the embedding table.", "example"),
    "moe_tied": N_("Each token reads only {read} of them: the chosen experts and the other weights.", "example"),
}, figs={"read": "weights.llama70b.read_per_token"})

STEP_CEILINGS = Say("step.ceilings", PAGE, lambda c: "fp8" if c.has_fp8 else "plain", {
    "fp8": N_("If only the arithmetic counted, the chip could manage {c} (at the FP8 peak, even {c8}). Reading the weights, however, "
              "allows no more than {m}.", "example"),
    "plain": N_("If only the arithmetic counted, the chip could manage {c}. Reading the weights, however, allows no more than {m}.",
                "example"),
}, figs={"c": "ceiling.llama70b.h100.compute", "c8": "ceiling.llama70b.h100.compute_fp8", "m": "ceiling.llama70b.h100.memory"})


def _bound(c) -> str:
    ratio = c.one.weights_s / c.one.compute_s
    return "clear" if ratio >= CLEAR else "memory" if ratio >= 1 else "compute"


STEP_BOUND = Say("step.bound", PAGE, _bound, {
    "clear": N_("The memory time is {ratio} as long as the compute time. Since the slower part sets the pace, decode here is clearly "
                "memory-bound: the compute units sit idle almost all the time.", "example"),
    "memory": N_("The memory time is {ratio} as long as the compute time. Since the slower part sets the pace, decode here is "
                 "memory-bound, if less clearly: the compute units wait for part of the time.", "example"),
    "compute": N_("Here the compute time is longer than the memory time. Since the slower part sets the pace, this step would be "
                  "compute-bound.", "example"),
}, figs={"ratio": "ratio.llama70b.h100.memory_over_compute"})


def _fit(c) -> str:
    from .figures_step import fit, room
    if fit(c) > 1:
        return "over"
    return "room" if room(c) else "tight"


STEP_FIT = Say("step.fit", PAGE, _fit, {
    "over": N_("Admittedly, this calculation is a thought experiment. The weights ({w}) do not even fit into the {mem} of "
               "{device:a}; it takes at least {fit} of them. If the model is spread across several chips with tensor parallelism, "
               "each chip reads only its own share, and the bandwidths add up. The ratio of reading to computing does not change.",
               "example"),
    "room": P_("The weights ({w}) fit into the {mem} of {device:a}, and in the {usable} of memory that a serving engine uses for "
               "weights and cache, there is room left for the KV cache of {n} request with {ctx} tokens of context.",
               "The weights ({w}) fit into the {mem} of {device:a}, and in the {usable} of memory that a serving engine uses for "
               "weights and cache, there is room left for the KV cache of {n} requests with {ctx} tokens of context each.",
               "example"),
    "tight": N_("The weights ({w}) just fit into the {mem} of {device:a}, but in the {usable} of memory that a serving engine uses "
                "for weights and cache, there is no room left for the KV cache of a request with {ctx} tokens of context.", "example"),
}, figs={"w": "weights.llama70b.bytes", "mem": "device.h100.memory", "fit": "fit.llama70b.h100.devices", "usable": "ex.engine.usable",
         "n": "ex.one.room", "ctx": "batch.context"})


def _intensity(c) -> str:
    intensity, ridge = 2 * c.m.active_params / c.weights_read(1), c.peak() / c.d.serving.bytes_per_s
    return "far" if intensity < ridge / 10 else "left" if intensity < ridge else "right"


STEP_INTENSITY = Say("step.intensity", PAGE, _intensity, {
    "far": N_("Decode at batch size {one} reaches only {i} FLOP per byte and so sits far to the left, on the sloping memory side "
              "of the roofline:", "example"),
    "left": N_("Decode at batch size {one} reaches {i} FLOP per byte and so sits left of the ridge, on the sloping memory side of "
               "the roofline:", "example"),
    "right": N_("Decode at batch size {one} reaches {i} FLOP per byte and so sits right of the ridge, where the compute peak is "
                "the roof:", "example"),
}, figs={"one": "batch.size.1", "i": "intensity.llama70b.batch1"})


def chart_batches(c) -> list:
    """The batches the step-split chart draws: the list's and the example's, those that fit on the devices."""
    return [b for b in sorted(set(S.BATCHES) | {c.ex.batch}) if c.fits(c.ex.devices, c.ex.context, b)]


def _split(c) -> str:
    first, last = c.step(1, c.ex.context), c.step(chart_batches(c)[-1], c.ex.context)
    lead = "kv" if first.kv_s + first.state_s > first.weights_s else "weights"
    return lead + ("_compute" if last.compute_s >= BUSY * last.memory_s else "_small")


STEP_SPLIT = Say("step.split", PAGE, _split, {
    "weights_small": N_("With small batches, reading the weights dominates; the more requests run together, the more time goes to "
                        "the KV cache, while the arithmetic stays small:", "example"),
    "weights_compute": N_("With small batches, reading the weights dominates; the more requests run together, the more time goes "
                          "to the KV cache and to the arithmetic:", "example"),
    "kv_small": N_("Here, even for a single request, reading the KV cache takes longer than reading the weights, and every further "
                   "request adds to it, while the arithmetic stays small:", "example"),
    "kv_compute": N_("Here, even for a single request, reading the KV cache takes longer than reading the weights, and every further "
                     "request adds to it and to the arithmetic:", "example"),
})


# ------------------------------------------------------------------ section 5: batching

BATCH_ROWS = {b: Say(f"batch.row.{b}", PAGE, lambda c, b=b: "fits" if c.fits(c.ex.devices, c.ex.context, b) else "full", {
    "fits": N_("{per} per request, {agg} in total", "example"),
    "full": N_("does not fit: the KV cache of all requests no longer fits beside the weights", "example"),
}, figs={"per": f"batch.llama70b.per_request.{b}", "agg": f"batch.llama70b.aggregate.{b}"}) for b in S.BATCHES}


def _largest(c) -> int:
    return [b for b in S.BATCHES if c.fits(c.ex.devices, c.ex.context, b)][-1]


def _gain(c) -> str:
    b = _largest(c)
    if b == 1:
        return "list_one"    # the example's batch fits, but no larger batch of the list does: no gain to state
    one, big = c.step(1, c.ex.context), c.step(b, c.ex.context)
    if big.aggregate_tokens_per_s >= STEEP * one.aggregate_tokens_per_s:
        return "steep"
    if big.compute_s >= BUSY * big.memory_s:
        return "little_compute"
    if c.moe and big.weights_s >= 2 * one.weights_s:
        return "little_moe"   # the batch's tokens pick experts of their own: the weights read grow with the batch
    return "little_kv" if one.kv_s + one.state_s > one.weights_s else "little_fit"


BATCH_SLOWER = Say("batch.slower", PAGE, lambda c: "moe" if c.moe else "dense", {
    "dense": N_("So each request gets slower, because every request added to the batch adds KV cache that has to be read at every "
                "step.", "example"),
    "moe": N_("So each request gets slower, because every request added to the batch adds KV cache that has to be read at every "
              "step, and in a mixture of experts it also calls on experts of its own, whose weights have to be read as well.",
              "example"),
})

BATCH_GAIN = Say("batch.gain", PAGE, _gain, {
    "steep": N_("Total tokens per second, however, climb steeply.", "example"),
    "list_one": N_("Here, though, no batch of the list beyond a single request fits into memory.", "example"),
    "little_kv": N_("Here total tokens per second climb only to {gain} the single-request value: batching shares only the reading "
                    "of the weights, and even a single request reads more KV cache than weights.", "example"),
    "little_moe": N_("Here total tokens per second climb only to {gain} the single-request value: with every further request, a "
                     "step reads more of the experts, so the weights are shared less and less.", "example"),
    "little_compute": N_("Here total tokens per second climb only to {gain} the single-request value: at large batches, the compute "
                         "units are busy.", "example"),
    "little_fit": N_("Here total tokens per second climb only to {gain} the single-request value: of the batch sizes shown, none "
                     "above {b} requests of this length fits into memory.", "example"),
}, figs=lambda c: {"gain": "ex.batch.gain", "b": f"batch.size.{_largest(c)}"})


def _util(c) -> str:
    u = c.step(c.ex.batch, c.ex.context).compute_utilisation
    return "full" if u >= 0.995 else "near" if u >= BUSY else "far"


BATCH_UTIL = Say("batch.util", PAGE, _util, {
    "far": N_("Even then, the compute units are far from fully utilized. In this calculation, at batch size {one} they spend only "
              "{u1} of the step time computing; at batch size {b}, it is {ub}.", "example"),
    "near": N_("Even then, the compute units are not fully utilized. In this calculation, at batch size {one} they spend only {u1} "
               "of the step time computing; at batch size {b}, it is {ub}.", "example"),
    "full": N_("At batch size {b}, the compute units are fully utilized in this calculation: the step is compute-bound. At batch "
               "size {one}, they spend only {u1} of the step time computing.", "example"),
}, figs={"one": "batch.size.1", "b": "ex.batch", "u1": "util.llama70b.batch1", "ub": "util.llama70b.batch_large"})


SAYS = (KV_DESIGN, KV_BYTES, KV_FORMULA, KV_PER_TOKEN, KV_TOTALS, KV_GIB, KV_MEMORY, STEP_ACTIVE, STEP_MIXERS, STEP_FP8,
        STEP_WEIGHTS, STEP_READ, STEP_CEILINGS, STEP_BOUND, STEP_FIT, STEP_INTENSITY, STEP_SPLIT, *BATCH_ROWS.values(),
        BATCH_SLOWER, BATCH_GAIN, BATCH_UTIL)
