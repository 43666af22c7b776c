"""Figures of published measurements: the measured speeds, the bandwidth they imply, speed-ups, the agent loop.

Ranges: a ranged term makes a formula a range (both substitutions are shown); a term can read one `end`."""

from __future__ import annotations

from ...data import scenarios as S
from ...perf import roofline as M
from ...example.figure import DEEPSEEK_V3, GPT_OSS_120B, MINIMAX_M2, SN40L, datum, declarer, measurement
from ...example.formula import F
from .models import FP8_B128, MXFP4, bf16_and, B2

DECLARATIONS: list = []
figure = declarer(DECLARATIONS)

SN40L_IN, RACK_IN = [f"devices.{SN40L}"], ["racks.sn40l-16"]
RACK_HBM = ("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth")


# -------------------------------------------------- section 7: measured numbers

for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2", "sambanova-deepseek-r1", "aa-gpu-gpt-oss-120b",
            "aa-sambanova-gpt-oss-120b", "aa-sambanova-minimax-m2", "aa-cerebras-gpt-oss-120b", "gpu-minimax-m2",
            "aa-gpu-llama-3.1-70b"):
    @figure(f"measured.{_mk}", "tok_per_s", "published measurement", [f"measurements.{_mk}"], sig=None, decimals=0)
    def measured(c, k=_mk): return measurement(c, k)


_READ = {
    MINIMAX_M2: F("{bf16} × {b2} + {fp32} × {b4} + {fp8} × {bits} ÷ {eight}",
                  bf16=("parameters in BF16", "params.minimax-m2.read.bf16"), b2=B2,
                  fp32=("parameters in FP32 (the router)", "params.minimax-m2.read.fp32"), b4=("bytes per FP32 value", 4),
                  fp8=("parameters in FP8", "params.minimax-m2.read.fp8"), bits=FP8_B128, eight=("bits per byte", 8)),
    DEEPSEEK_V3: bf16_and("params.deepseek-v3.read", "FP8", FP8_B128),
}
for _m, _expr in _READ.items():
    @figure(f"weights.{_m}.read_per_token", "bytes", "Σ tensor groups read per token × bytes per parameter at each group's precision (batch 1)",
            [f"models.{_m}"], expression=_expr)
    def weights_read(c, m=_m): return M.weight_bytes_read(c.models[m], 1)


# The measurements whose speed implies a bandwidth, with the weights figure each one reads.
for _mk, _weights in (("infercom-gpt-oss-120b", GPT_OSS_120B), ("infercom-minimax-m2", MINIMAX_M2),
                      ("sambanova-deepseek-r1", DEEPSEEK_V3)):
    @figure(f"implied_bw.{_mk}", "bytes_per_s", "weight bytes read per token × measured tokens per second (batch 1)", [f"measurements.{_mk}"],
            expression=F("{w} × {s}", w=("read per token", f"weights.{_weights}.read_per_token"), s=("measured", f"measured.{_mk}")))
    def implied_bandwidth(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high)

    @figure(f"implied_bw_share.{_mk}", "percent", "implied bandwidth ÷ HBM bandwidth of the rack", [f"measurements.{_mk}"] + SN40L_IN + RACK_IN,
            decimals=0, expression=F("{need} ÷ {have}", need=("needed", f"implied_bw.{_mk}"), have=RACK_HBM))
    def implied_share(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high) / M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"]


@figure("typical_gpu_serving", "tok_per_s", "industry rule of thumb", ["data.typical-gpu-serving-tok-s"], sig=None, decimals=0)
def typical_gpu_serving(c): return datum(c, "typical-gpu-serving-tok-s")


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    @figure(f"speedup.{_mk}.vs_typical", "ratio", "measured speed ÷ typical GPU range (upper to lower end)",
            [f"measurements.{_mk}", "data.typical-gpu-serving-tok-s"], sig=3,
            expression=F("{v} ÷ {gpu}", v=("measured", f"measured.{_mk}"), gpu=("typical on GPUs", "typical_gpu_serving")))
    def speedup_vs_typical(c, k=_mk):
        lo, hi = datum(c, "typical-gpu-serving-tok-s")
        v = c.measurements[k].high
        return (v / hi, v / lo)


for _key, _gpu in ((GPT_OSS_120B, "aa-gpu-gpt-oss-120b"), (MINIMAX_M2, "gpu-minimax-m2")):
    @figure(f"speedup.{_key}.vs_gpu_measured", "ratio", "Infercom speed ÷ measured GPU range (high to low)",
            [f"measurements.infercom-{_key}", f"measurements.{_gpu}"], sig=3,
            expression=F("{v} ÷ {gpu}", v=("Infercom, measured", f"measured.infercom-{_key}"), gpu=("measured on GPUs", f"measured.{_gpu}")))
    def speedup_vs_gpu(c, key=_key, gpu=_gpu):
        g = c.measurements[gpu]
        v = c.measurements[f"infercom-{key}"].high
        return (v / g.high, v / g.low)


# ---------------------------------------------------- section 9: agent loop

def _loop(speed: tuple) -> F:
    return F("{n} × ({ttft} + {tokens} ÷ {speed})", n=("calls", "agent.steps"), ttft=("to the first token", "agent.ttft"),
             tokens=("tokens per call", "agent.tokens_per_step"), speed=speed)


def _loop_time(c, key):
    return M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements[key].high)


@figure("agent.steps", "count", "scenario: model calls in the loop", [], sig=None, decimals=0)
def agent_steps(c): return S.AGENT_STEPS


@figure("agent.tokens_per_step", "tokens", "scenario: output tokens per call", [], sig=None, decimals=0)
def agent_tokens_per_step(c): return S.AGENT_TOKENS_PER_STEP


@figure("agent.ttft", "seconds", "scenario: time to first token per call", [])
def agent_ttft(c): return S.AGENT_TTFT_S


@figure("agent.time.dataflow", "seconds", "steps × (TTFT + tokens ÷ Infercom speed)", ["measurements.infercom-minimax-m2"],
        expression=_loop(("measured", "measured.infercom-minimax-m2")))
def agent_time_dataflow(c): return _loop_time(c, "infercom-minimax-m2")


@figure("agent.time.gpu", "seconds", "steps × (TTFT + tokens ÷ fastest GPU route)", ["measurements.gpu-minimax-m2"],
        expression=_loop(("fastest GPU route", "measured.gpu-minimax-m2", "high")))
def agent_time_gpu(c): return _loop_time(c, "gpu-minimax-m2")


@figure("params.deepseek-v4-pro.total", "params", "catalog: total parameters", ["models.deepseek-v4-pro"], sig=2)
def deepseek_v4_total(c): return c.models["deepseek-v4-pro"].total_params


@figure("params.deepseek-v4-pro.active", "params", "catalog: active parameters per token", ["models.deepseek-v4-pro"], sig=2)
def deepseek_v4_active(c): return c.models["deepseek-v4-pro"].active_params


@figure("infercom.chips_from_racks", "count", "racks × sockets per rack", ["data.infercom-racks"] + RACK_IN, sig=None, decimals=0,
        expression=F("{racks} × {n}", racks=("racks", "infercom.racks"), n=("sockets per rack", "sn40l.rack.sockets")))
def infercom_chips_from_racks(c): return c.data["infercom-racks"].low * c.racks["sn40l-16"].count


@figure("headroom.infercom-gpt-oss-120b", "ratio", "rack HBM bandwidth ÷ bandwidth the measured speed implies at batch 1",
        ["measurements.infercom-gpt-oss-120b"] + SN40L_IN + RACK_IN, sig=2,
        expression=F("{have} ÷ {need}", have=RACK_HBM, need=("needed", "implied_bw.infercom-gpt-oss-120b")))
def infercom_headroom(c):
    m = c.measurements["infercom-gpt-oss-120b"]
    return M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"] / M.implied_bandwidth(c.models[m.model], m.high)


# Section 7: weight bytes gpt-oss-120b reads for one token (active experts, attention, unembedding).
@figure("weights.gpt-oss-120b.read_per_token", "bytes", "Σ weight groups read per token × bytes per parameter (batch 1)",
        [f"models.{GPT_OSS_120B}"], expression=bf16_and("params.gpt-oss-120b.read", "MXFP4", MXFP4))
def gpt_oss_read(c): return M.weight_bytes_read(c.models[GPT_OSS_120B], 1)


# Section 9: how much longer the agent loop takes at the GPU speed.
@figure("agent.ratio", "ratio", "agent loop time at the fastest GPU route ÷ at the Infercom speed",
        ["measurements.infercom-minimax-m2", "measurements.gpu-minimax-m2"], sig=2,
        expression=F("{gpu} ÷ {df}", gpu=("on GPUs", "agent.time.gpu"), df=("on dataflow", "agent.time.dataflow")))
def agent_ratio(c): return _loop_time(c, "gpu-minimax-m2") / _loop_time(c, "infercom-minimax-m2")
