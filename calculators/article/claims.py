"""The claims commonly made about decode, checked against the model.

Each claim is data: what it says, and one or more parts, each a claimed value
(or range, or lower bound) beside the figure it is checked against. The
verdict is computed, never typed:

  correct          every part within the tolerance of the model's figure;
  rounding         a part differs by more than the tolerance, but is the
                   model's value rounded to as many significant digits as
                   the claim itself gives;
  unit ambiguity   a part misses the figure but matches the same figure
                   read in another unit (GiB written as GB);
  another reading  a part misses the figure but matches another figure the
                   same words can mean (the FP8 peak for a BF16 model, one
                   node of eight sockets for a rack of sixteen);
  wrong            a part matches neither;
  not checkable    the model has no figure for it (the claim lists the
                   figures it can offer instead).

A claim's verdict is the worst of its parts', in the order above.
"""

from __future__ import annotations

import math
from decimal import Decimal
from dataclasses import dataclass, field
from functools import lru_cache

from ..ui.messages import N_
from .figures import registry

VERDICTS = ("correct", "rounding", "unit_ambiguity", "another_reading", "wrong", "not_checkable")
TOLERANCE = 0.03  # "about": within 3 % of the model's value


@dataclass(frozen=True)
class Part:
    """One number of a claim beside the figure it is checked against.

    `claimed` is a value or a (low, high) range in the claim's own unit;
    `scale` converts it to the figure's SI unit (1e9 for "GB").
    `mode` says how it is compared: "about" (within the tolerance),
    "at_least" / "at_most" (a bound the figure must respect), "contains"
    (the figure's range lies inside the claimed range).
    `alternatives` are other readings of the same words, as (figure id,
    scale) pairs: a GB that is really GiB is (same figure, 2**30).
    """

    claimed: float | tuple
    figure: str
    scale: float = 1.0
    mode: str = "about"
    alternatives: tuple = ()
    tolerance: float = TOLERANCE
    bound: str = "ceiling"          # what an "at_most" figure is, as the fact check names it: "ceiling" or "expected"
    phrase: str | None = None       # how the table introduces the value ({value}), where the mode's phrase would not fit
    style: str | None = None        # the value's form inside that phrase (calculators/text/prose.py): "times" for a factor


@dataclass(frozen=True)
class Claim:
    n: int
    text: str                       # the claim as commonly made (English; translated in locales/)
    parts: tuple = ()
    offers: tuple = ()              # figures shown for a claim the model cannot check
    note: str = ""                  # why the verdict is what it is, beyond the numbers
    note_figures: tuple = ()        # (placeholder, figure id): the numbers the note prints, computed


@dataclass(frozen=True)
class PartResult:
    part: Part
    verdict: str
    matched: str | None = None      # the figure id that matched (the figure itself or an alternative)


@dataclass(frozen=True)
class Result:
    claim: Claim
    verdict: str
    parts: tuple = field(default_factory=tuple)


def _sig_digits(x: float) -> int:
    """Significant digits a person wrote: 0.3 -> 1, 2.5 -> 2, 140 -> 2, 40 -> 1."""
    return len(Decimal(repr(float(x))).normalize().as_tuple().digits)


def _round_sig(x: float, sig: int) -> float:
    if x == 0:
        return 0.0
    return round(x, sig - 1 - math.floor(math.log10(abs(x))))


def _ends(x) -> tuple:
    return x if isinstance(x, tuple) else (x, x)


def _close(claimed: float, computed: float, tol: float) -> bool:
    return abs(claimed - computed) <= tol * abs(computed)


def _agrees(part: Part, value, scale: float) -> bool:
    """Does the claimed number, read with `scale`, agree with a figure's value?"""
    lo, hi = (c * scale for c in _ends(part.claimed))
    v_lo, v_hi = _ends(value)
    tol = part.tolerance
    if part.mode == "at_least":
        return v_lo >= lo * (1 - tol)
    if part.mode == "at_most":
        return hi <= v_hi * (1 + tol)
    if part.mode == "contains":
        return lo * (1 - tol) <= v_lo and v_hi <= hi * (1 + tol)
    return _close(lo, v_lo, tol) and _close(hi, v_hi, tol)


def _rounds_to(part: Part, value) -> bool:
    """Is the claim the model's value rounded as coarsely as the claim is written?"""
    if part.mode != "about":
        return False
    pairs = zip(_ends(part.claimed), _ends(value))
    return all(math.isclose(_round_sig(v / part.scale, _sig_digits(c)), c, rel_tol=1e-9) for c, v in pairs)


def check_part(part: Part, figures: dict) -> PartResult:
    value = figures[part.figure].value
    if _agrees(part, value, part.scale):
        return PartResult(part, "correct", part.figure)
    # An exact alternative reading explains a miss better than coarse rounding.
    for alt, scale in part.alternatives:
        if _agrees(part, figures[alt].value, scale):
            # The same figure in another unit is a unit ambiguity; another figure is another reading.
            return PartResult(part, "unit_ambiguity" if alt == part.figure else "another_reading", alt)
    if _rounds_to(part, value):
        return PartResult(part, "rounding", part.figure)
    return PartResult(part, "wrong")


def check(claim: Claim, figures: dict | None = None) -> Result:
    figures = registry() if figures is None else figures
    if not claim.parts:
        return Result(claim, "not_checkable")
    results = tuple(check_part(p, figures) for p in claim.parts)
    worst = max(results, key=lambda r: VERDICTS.index(r.verdict)).verdict
    return Result(claim, worst, results)


CLAIMS = (
    Claim(1, "A dense 70B model in BF16 grows its KV cache by about 0.3 MB per token.",
          (Part(0.3, "kv.llama70b.bytes_per_token_short", scale=1e6),),
          note="0.3 MB is the per-token size rounded to one significant digit."),
    Claim(2, "8K tokens of context take 2.5 GB of KV cache, 32K take 10 GB, 128K take 40 GB.",
          tuple(Part(v, f"kv.llama70b.total.{ctx}", scale=1e9, alternatives=((f"kv.llama70b.total.{ctx}", 2**30),))
                for v, ctx in ((2.5, 8192), (10, 32768), (40, 131072))),
          note="The values are gibibytes (2^30 bytes) labeled as gigabytes (10^9 bytes)."),
    Claim(3, "A 70B model needs about 140 billion FLOPs per token; an H100 delivers 2000 TFLOPS; the compute takes about 0.07 ms.",
          (Part(140e9, "flops.llama70b.per_token"),
           Part(2000e12, "device.h100.peak_bf16", alternatives=(("device.h100.peak_fp8", 1.0),)),
           Part(0.07e-3, "step.llama70b.h100.compute_time", alternatives=(("step.llama70b.h100.compute_time_fp8", 1.0),))),
          note="2000 TFLOPS is the dense FP8 peak (or the BF16 peak with sparsity); a BF16 model on the dense BF16 peak takes twice as long."),
    Claim(4, "At 3.35 TB/s, reading 140 GB of FP16 weights takes about 42 ms.",
          (Part(3.35e12, "device.h100.bandwidth"), Part(140e9, "weights.llama70b.bytes"),
           Part(42e-3, "step.llama70b.h100.memory_time"))),
    Claim(5, "Compute alone would allow 14,000+ tokens per second.",
          (Part(14000, "ceiling.llama70b.h100.compute", mode="at_least", alternatives=(("ceiling.llama70b.h100.compute_fp8", 1.0),)),),
          note="Only at the FP8 peak; at the dense BF16 peak the compute ceiling is half of that."),
    Claim(6, "Production GPU inference of 70B models reaches 50-150 tokens per second.",
          (Part((50, 150), "speed.per_request", mode="at_most"),
           Part((50, 150), "deploy.llama70b.h100x8.expected_range", mode="at_most", bound="expected",
                alternatives=(("deploy.llama70b.h100x8.fp8.expected_range", 1.0),)),
           Part((50, 150), "measured.aa-gpu-llama-3.1-70b", mode="contains",
                phrase=N_("the measured {value} lies inside the claimed range, within the rounding tolerance"))),
          offers=("speed.per_request_fp8",),
          note="At batch 1 on 8 H100 in BF16 the ceiling is {bound} (full bandwidth, no communication). The calibrated step time expects {expected}, typically {range}: weight reads at the share the engines reach, a fixed cost per layer and {allreduces} all-reduces per token. The claimed 150 tokens per second lie above that range; in FP8 the expected speed is {fp8}, typically {fp8_range}, which reaches them, so the upper end reads as FP8 serving. The GPU providers measured reached {measured}, {share} of the BF16 expected value: they serve many requests per batch.",
          note_figures=(("bound", "deploy.llama70b.h100x8.ceiling"), ("expected", "deploy.llama70b.h100x8.expected"),
                        ("range", "deploy.llama70b.h100x8.expected_range"), ("allreduces", "deploy.llama70b.h100x8.allreduces"),
                        ("fp8", "deploy.llama70b.h100x8.fp8.expected"), ("fp8_range", "deploy.llama70b.h100x8.fp8.expected_range"),
                        ("measured", "measured.aa-gpu-llama-3.1-70b"), ("share", "deploy.aa-gpu-llama-3.1-70b.over_expected"))),
    Claim(7, "DeepSeek V4-Pro has 1.6T parameters and activates 49B per token.",
          (Part(1.6e12, "params.deepseek-v4-pro.total"), Part(49e9, "params.deepseek-v4-pro.active")),
          note="Matches the model card in the catalog (medium confidence)."),
    Claim(8, "An SN40L rack of 16 chips holds 1 TB of HBM and 12 TB of DDR; 8 racks hold 128 chips.",
          (Part(1e12, "sn40l.rack.hbm"),
           Part(12e12, "sn40l.rack.ddr", alternatives=(("sn40l.node.ddr", 1.0),)),
           Part(128, "infercom.chips_from_racks")),
          note="DDR per socket is published as up to 1.5 TB, so a rack of 16 holds at most 24 TB. The 12 TB match the most that 8 sockets, one node, can hold: the claim reads as the node's DDR, not the rack's. A rack fitted with half the DDR per socket would also hold 12 TB, but no source says that it is."),
    Claim(9, "A 671B model needs 320 GPUs (40 racks) but one rack of 16 RDUs: 95% fewer chips.",
          (Part(320, "fit.deepseek-v3.h100.devices"), Part(0.95, "fit.deepseek-v3.reduction")),
          note="Eight-bit weights of 671 bn parameters fit in a handful of 80 GB GPUs, not hundreds."),
    Claim(10, "On-chip SRAM is 100x faster than HBM.",
          offers=("ratio.sram.groq_over_h100", "ratio.sram.wse3_over_h100"),
          note="The ratio depends on the chip: the catalog gives very different SRAM bandwidths, and none for SN40L's SRAM."),
    Claim(11, "Dataflow serving is 3-10x faster than GPU serving (50-150 tok/s) for gpt-oss-120b and MiniMax M2.7.",
          (Part((3, 10), "speedup.gpt-oss-120b.vs_gpu_measured", mode="contains"),
           Part((3, 10), "speedup.minimax-m2.vs_gpu_measured", mode="contains")),
          note="GPU providers measured on gpt-oss-120b are far faster than 50-150 tok/s; for MiniMax M2.7 the range holds."),
    Claim(12, "A 10 kW rack vs 40-50 kW GPU racks is four to five times less power.",
          (Part((4, 5), "power.ratio"),
           Part((4, 5), "power.ratio_per_chip")),
          note="The rack figures compare unlike things: the SN40L rack's 10 kW is an average over 16 chips, the DGX H100 rack's 41 kW a maximum over 32 GPUs. Per chip the ratio is about two; per token it cannot be computed, because the GPU racks' throughput is not in the data."),
    Claim(13, "Dataflow fuses 20+ operators per kernel call vs 1-5 on GPUs.",
          offers=("fused_ops.dataflow", "fused_ops.gpu"),
          note="A vendor claim about compilers; the model has no operator-level view."),
    Claim(14, "In decode, GPU utilization falls to 20-40%.",
          offers=("util.llama70b.batch1", "util.llama70b.batch_large", "util.llama70b.limit_8k", "util.llama70b.max_batch_8k"),
          note="As stated it names no batch, and utilization depends on it: on 8 H100 at 8K context the site's calculation gives {batch1} at batch 1 and {batch64} at batch 64. Larger batches barely help: each request adds as much KV cache to read as arithmetic to do, so at 8K context utilization stays below {limit} however large the batch, and the largest batch that fits beside the weights ({max_batch} requests, {reserve} of the memory left to the engine) reaches {at_max}. A range like 20-40% needs shorter contexts.",
          note_figures=(("batch1", "util.llama70b.batch1"), ("batch64", "util.llama70b.batch_large"), ("limit", "util.llama70b.limit_8k"),
                        ("max_batch", "batch.llama70b.max_8k"), ("reserve", "engine.reserve"), ("at_max", "util.llama70b.max_batch_8k"))),
    Claim(15, "713 tokens per second on gpt-oss-120b is plausible on 16 SN40L chips.",
          (Part(1.0, "headroom.infercom-gpt-oss-120b", mode="at_least",
                phrase=N_("the rack has {value} the bandwidth this speed needs"), style="times"),),
          note="The bandwidth the speed implies at batch 1 is a fraction of the rack's HBM bandwidth."),
    Claim(16, "No quantization needed: the models run at their native precision.",
          offers=("precision.gpt-oss-120b.experts_bits", "precision.deepseek-v3.bits"),
          note="Native precision is already low precision for these models: gpt-oss-120b is released with its experts in MXFP4 and DeepSeek V3 and MiniMax M2.7 are released in FP8. Serving them at native precision means serving quantized weights; what the claim can mean is that no further quantization is applied, which no published measurement shows."),
    Claim(17, "The speed gap to GPUs grows with model size.",
          offers=("speedup.gpt-oss-120b.vs_gpu_measured", "speedup.minimax-m2.vs_gpu_measured"),
          note="The catalog has measured GPU and dataflow speeds for two models of similar active size only, so no trend with size can be computed from it; the two speed-ups shown differ mostly because the GPU providers differ."),
    Claim(18, "In prefill, GPU utilization reaches 80% or more.",
          offers=("claimed.utilization.prefill",),
          note="The site's calculation is a roofline, which puts prefill on the compute side but says nothing about how much of the peak real kernels reach; that needs kernel measurements, which the catalog does not hold."),
    Claim(19, "Dataflow delivers up to 5x more intelligence per joule (Stanford Hazy Research).",
          note="Intelligence per joule needs a measure of answer quality, which the model does not have; it can only compute energy per token (see the energy section)."),
    Claim(20, "A 10 kW rack can be air-cooled, while 40-50 kW GPU racks need liquid cooling.",
          offers=("power.sn40l-rack",),
          note="Cooling depends on the data center, not only on the rack's power; the catalog holds power figures but no cooling data."),
)


@lru_cache(maxsize=1)
def results() -> tuple:
    """Every claim's verdict, computed once per process."""
    figs = registry()
    return tuple(check(c, figs) for c in CLAIMS)
