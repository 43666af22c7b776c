"""Figures of the accuracy page: how far the expected values lie from the published measurements.

Computed at build time from calculators/article/measurements.toml and the packaged constants
(calculators/article/calibration.py), for the fitting and the held-out set separately; the targets are
data (the dataset's [targets]); tests/test_accuracy.py fails the build when the held-out median
exceeds its target. The article's worked examples of where a step's time goes (memory against fixed
cost, at batch 1 and at the batches that serve many users) are here too: they are the same model.
"""

from __future__ import annotations

from .. import measurements as D
from ...data import scenarios as S
from .. import calibration as K
from ...perf import step_time as T
from ...perf.deployment import Deployment
from ...example.figure import H100, LLAMA_70B, declarer
from ...example.formula import F, Q
from .steptime import declare_step

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

IN = ["fits.step-time"]


def comps():
    return K.comparisons()


def _set(split):
    return [c for c in comps() if c.split == split]


# ------------------------------------------------------------------ the dataset and the split

@figure("accuracy.rows", "count", "dataset: published measurements in the dataset", IN, sig=None, decimals=0)
def rows(c): return len(comps())


@figure("accuracy.sources", "count", "dataset: sources the measurements come from", IN, sig=None, decimals=0)
def sources(c): return len({x.row.source_id for x in comps()})


for _split, _id in (("fit", "fit"), ("held-out", "held"), ("excluded", "excluded")):
    figure(f"accuracy.{_id}.count", "count", {"fit": "dataset: measurements the constants are fitted to",
                                              "held-out": "dataset: measurements held out of the fit",
                                              "excluded": "dataset: measurements not compared (reasons in the table)"}[_split],
           IN, sig=None, decimals=0)(lambda c, s=_split: len(_set(s)))


for _attr, _what in (("source_id", "sources"), ("device", "GPU types"), ("engine", "engines")):
    figure(f"accuracy.held.{_what.replace(' ', '_').lower()}", "count", f"dataset: held-out measurements, distinct {_what}", IN,
           sig=None, decimals=0)(lambda c, a=_attr: len({getattr(x.row, a) for x in _set("held-out")}))


@figure("accuracy.params", "count", "dataset: constants fitted to the measurements", IN, sig=None, decimals=0)
def params(c):
    k = T.constants()
    return len(k.eta_weights) + 2 + len(k.layer_weight) + len(k.fixed_per_layer_s) + len(k.cpu_per_request_s)


# ------------------------------------------------------------------ the errors

for _split, _id in (("fit", "fit"), ("held-out", "held")):
    figure(f"accuracy.{_id}.median", "percent", "dataset: median absolute error of the expected time per output token", IN, decimals=0)(
        lambda c, s=_split: K.summary(comps(), s).median_abs)
    figure(f"accuracy.{_id}.max", "percent", "dataset: largest absolute error of the expected time per output token", IN, decimals=0)(
        lambda c, s=_split: K.summary(comps(), s).max_abs)


@figure("accuracy.target.median", "percent", "published target: the held-out median absolute error at most", ["fits.step-time"], decimals=0)
def target_median(c): return D.load().target_median


@figure("accuracy.target.max", "percent", "published target: no held-out row off by more than", ["fits.step-time"], decimals=0)
def target_max(c): return D.load().target_max


@figure("accuracy.held.over_target", "count", "dataset: held-out measurements off by more than the target", IN, sig=None, decimals=0)
def over_target(c): return sum(1 for x in _set("held-out") if abs(x.error) > D.load().target_max)


@figure("accuracy.ceiling.median", "percent", "dataset: median of ceiling time ÷ measured time per output token (compared rows)", IN, decimals=0)
def ceiling_share(c): return K.median([x.ceiling_s / x.measured_s for x in comps() if x.split != "excluded"])


@figure("accuracy.ceiling.above", "count", "dataset: measurements faster than their ceiling (all rows)", IN, sig=None, decimals=0)
def ceiling_above(c): return sum(1 for x in comps() if x.ceiling_s > x.measured_s)


@figure("accuracy.previous.faster", "count", "dataset: compared rows where the earlier expected value (kernel share and link latency only) was faster than measured",
        IN, sig=None, decimals=0)
def previous_faster(c): return sum(1 for x in comps() if x.split != "excluded" and x.previous_s < x.measured_s)


@figure("accuracy.previous.median", "percent", "dataset: median absolute error of the earlier expected value (compared rows)", IN, decimals=0)
def previous_median(c): return K.median([abs(x.previous_s / x.measured_s - 1) for x in comps() if x.split != "excluded"])


@figure("accuracy.compared", "count", "measurements compared (fitting and held-out)", IN, sig=None, decimals=0,
        expression=F("{f} + {h}", f=("fitting", "accuracy.fit.count"), h=("held out", "accuracy.held.count")))
def compared(c): return len(_set("fit")) + len(_set("held-out"))


# ------------------------------------------------------------------ where a step's time goes
# Two layouts at two batch sizes: a dense 70B model on 8 H100 (memory dominates already at batch 1, and more
# so at the batch sizes that serve many users) and DeepSeek R1 on 8 B200 at batch 1 (TensorRT-LLM's
# min-latency run: a few hundred microseconds of memory inside a step of milliseconds).

def _llama(c):
    return T.setup(c.models[LLAMA_70B], c.devices[H100], Deployment(tp=S.SPEED_DEVICES), "generic")


_L70 = [f"models.{LLAMA_70B}", f"devices.{H100}", "kv_bandwidth.hopper", "allreduce.vllm-custom"]
declare_step("where.llama70b.b64", _llama, T.Workload(64, S.CONTEXTS[0]), _L70)

_DS = D.load()
_R1 = _DS.rows["trtllm-blog1-dsr1-fp4-b200-c1"]


def _r1(c):
    return K.setup_of(_DS.rows["trtllm-blog1-dsr1-fp4-b200-c1"], c, _DS)


declare_step("where.r1.b200x8.b1", _r1, K.workload_of(_R1), ["models.deepseek-v3", "devices.b200", "kv_bandwidth.blackwell",
                                                             "allreduce.trtllm-custom"])


@figure("where.r1.b200x8.b1.measured", "tok_per_s", "published: TensorRT-LLM, DeepSeek R1 on 8 B200, batch 1, no MTP (tech blog 1)",
        ["measurements.trtllm-deepseek-r1-b200-plain"], sig=3)
def r1_measured(c): return 1000 / _DS.rows["trtllm-blog1-dsr1-fp4-b200-c1"].tpot_ms


def _terms(prefix, c):
    if prefix == "deploy.llama70b.h100x8":
        return T.terms(_llama(c), T.Workload(1, S.SPEED_PROMPT), cat=c)
    if prefix == "where.llama70b.b64":
        return T.terms(_llama(c), T.Workload(64, S.CONTEXTS[0]), cat=c)
    return T.terms(_r1(c), K.workload_of(_R1), cat=c)


for _p in ("deploy.llama70b.h100x8", "where.llama70b.b64", "where.r1.b200x8.b1"):
    figure(f"{_p}.share_memory", "percent", "memory time ÷ expected step", IN, decimals=0,
           expression=F("{m} ÷ {s}", m=("memory", f"{_p}.t_memory"), s=("step", f"{_p}.step")))(
        lambda c, p=_p: _terms(p, c).memory_s / _terms(p, c).step_s)
    figure(f"{_p}.share_fixed", "percent", "(fixed cost + collectives) ÷ expected step", IN, decimals=0,
           expression=F("({f} + {k}) ÷ {s}", f=("fixed", f"{_p}.t_fixed"), k=("collectives", f"{_p}.t_comm"), s=("step", f"{_p}.step")))(
        lambda c, p=_p: (_terms(p, c).fixed_s + _terms(p, c).comm_s) / _terms(p, c).step_s)


# The layouts' device counts and the Llama step's context: fixed, not the running example's (which the main article's
# example control changes), so that these comparisons keep their numbers whatever the reader chooses.
@figure("where.llama70b.b64.gpus", "count", "scenario: GPUs of the tensor-parallel Llama 3.1 70B layout", [], sig=None, decimals=0)
def llama_b64_gpus(c): return S.SPEED_DEVICES


@figure("deploy.llama70b.h100x8.gpus", "count", "scenario: GPUs of the tensor-parallel Llama 3.1 70B layout", [], sig=None, decimals=0)
def llama_h100x8_gpus(c): return S.SPEED_DEVICES


@figure("deploy.llama70b.h100x8.context", "tokens", "scenario: tokens of context of the Llama 3.1 70B step the speed page explains", [], sig=None,
        decimals=0)
def llama_h100x8_context(c): return S.SPEED_PROMPT


@figure("where.r1.b200x8.b1.gpus", "count", "published: GPUs the min-latency run used", ["measurements.trtllm-deepseek-r1-b200-plain"],
        sig=None, decimals=0)
def r1_gpus(c): return _DS.rows["trtllm-blog1-dsr1-fp4-b200-c1"].gpus


_PREV = next(x for x in K.comparisons() if x.key == "trtllm-blog1-dsr1-fp4-b200-c1")


@figure("where.r1.b200x8.b1.previous", "tok_per_s", "the earlier expected value: bytes ÷ (published kernel share × bandwidth) + link latency per message",
        ["measurements.trtllm-deepseek-r1-b200-plain", "efficiency.flashmla-h800", "interconnects.nvlink5"],
        expression=F("{one} ÷ ({b} ÷ ({bw} × {eff}) + {comm})", one=("token", 1),
                     b=("read by each device per step", Q(_PREV.ceiling_s * 7.7e12, "bytes")),
                     bw=("peak bandwidth", Q(7.7e12, "bytes_per_s")), eff=("published kernel share (FlashMLA on H800)", Q(3000e9 / 3.35e12, "percent")),
                     comm=("all-reduces at the link's published latency", Q(_PREV.previous_s - _PREV.ceiling_s / (3000e9 / 3.35e12), "seconds"))))
def r1_previous(c): return 1 / next(x for x in comps() if x.key == "trtllm-blog1-dsr1-fp4-b200-c1").previous_s
