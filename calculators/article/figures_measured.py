"""Figures of published measurements: the measured speeds, the bandwidth they imply, speed-ups, the agent loop.

figures.py collects DEFINITIONS into its registry (this module does not import
figures.py, so there is no import cycle)."""

from __future__ import annotations

from ..perf import roofline as M
from ..data import scenarios as S
from .figure_base import GPT, DS3, M_GPT, D_SN40L, R_SN, meas, datum, registrar

DEFINITIONS = []
figure = registrar(DEFINITIONS)


# -------------------------------------------------- section 7: measured numbers

for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2", "sambanova-deepseek-r1", "aa-gpu-gpt-oss-120b",
            "aa-sambanova-gpt-oss-120b", "aa-sambanova-minimax-m2", "aa-cerebras-gpt-oss-120b", "gpu-minimax-m2",
            "aa-gpu-llama-3.1-70b"):
    @figure(f"measured.{_mk}", "tok_per_s", "published measurement", [f"measurements.{_mk}"], sig=None, decimals=0)
    def _(c, k=_mk): return meas(c, k)


for _key, _m in (("minimax-m2", "minimax-m2"), ("deepseek-v3", DS3)):
    @figure(f"weights.{_key}.read_per_token", "bytes", "Σ tensor groups read per token × bytes per parameter at each group's precision (batch 1)", [f"models.{_m}"])
    def _(c, m=_m): return M.weight_bytes_read(c.models[m], 1)


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2", "sambanova-deepseek-r1"):
    @figure(f"implied_bw.{_mk}", "bytes_per_s", "weight bytes read per token × measured tokens per second (batch 1)", [f"measurements.{_mk}"])
    def _(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high)

    @figure(f"implied_bw_share.{_mk}", "percent", "implied bandwidth ÷ HBM bandwidth of the rack", [f"measurements.{_mk}", D_SN40L, R_SN], decimals=0)
    def _(c, k=_mk):
        m = c.measurements[k]
        return M.implied_bandwidth(c.models[m.model], m.high) / M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"]


@figure("typical_gpu_serving", "tok_per_s", "industry rule of thumb", ["data.typical-gpu-serving-tok-s"], sig=None, decimals=0)
def _(c): return datum(c, "typical-gpu-serving-tok-s")


for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    @figure(f"speedup.{_mk}.vs_typical", "ratio", "measured speed ÷ typical GPU range (upper to lower end)", [f"measurements.{_mk}", "data.typical-gpu-serving-tok-s"], sig=3)
    def _(c, k=_mk):
        lo, hi = datum(c, "typical-gpu-serving-tok-s")
        v = c.measurements[k].high
        return (v / hi, v / lo)


@figure("speedup.gpt-oss-120b.vs_gpu_measured", "ratio", "Infercom speed ÷ measured GPU range (high to low)", ["measurements.infercom-gpt-oss-120b", "measurements.aa-gpu-gpt-oss-120b"], sig=3)
def _(c):
    g = c.measurements["aa-gpu-gpt-oss-120b"]
    v = c.measurements["infercom-gpt-oss-120b"].high
    return (v / g.high, v / g.low)


@figure("speedup.minimax-m2.vs_gpu_measured", "ratio", "Infercom speed ÷ measured GPU range (high to low)", ["measurements.infercom-minimax-m2", "measurements.gpu-minimax-m2"], sig=3)
def _(c):
    g = c.measurements["gpu-minimax-m2"]
    v = c.measurements["infercom-minimax-m2"].high
    return (v / g.high, v / g.low)


# ---------------------------------------------------- section 9: agent loop

@figure("agent.steps", "count", "scenario: model calls in the loop", [], sig=None, decimals=0)
def _(c): return S.AGENT_STEPS


@figure("agent.tokens_per_step", "tokens", "scenario: output tokens per call", [], sig=None, decimals=0)
def _(c): return S.AGENT_TOKENS_PER_STEP


@figure("agent.ttft", "seconds", "scenario: time to first token per call", [])
def _(c): return S.AGENT_TTFT_S


@figure("agent.time.dataflow", "seconds", "steps × (TTFT + tokens ÷ Infercom speed)", ["measurements.infercom-minimax-m2"])
def _(c): return M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["infercom-minimax-m2"].high)


@figure("agent.time.gpu", "seconds", "steps × (TTFT + tokens ÷ fastest GPU route)", ["measurements.gpu-minimax-m2"])
def _(c): return M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["gpu-minimax-m2"].high)


@figure("params.deepseek-v4-pro.total", "params", "catalog: total parameters", ["models.deepseek-v4-pro"], sig=2)
def _(c): return c.models["deepseek-v4-pro"].total_params


@figure("params.deepseek-v4-pro.active", "params", "catalog: active parameters per token", ["models.deepseek-v4-pro"], sig=2)
def _(c): return c.models["deepseek-v4-pro"].active_params


@figure("infercom.chips_from_racks", "count", "racks × sockets per rack", ["data.infercom-racks", R_SN], sig=None, decimals=0)
def _(c): return c.data["infercom-racks"].low * c.racks["sn40l-16"].count


@figure("headroom.infercom-gpt-oss-120b", "ratio", "rack HBM bandwidth ÷ bandwidth the measured speed implies at batch 1", ["measurements.infercom-gpt-oss-120b", D_SN40L, R_SN], sig=2)
def _(c):
    m = c.measurements["infercom-gpt-oss-120b"]
    return M.tier_total(c.devices[m.device], "HBM", m.count)["bytes_per_s"] / M.implied_bandwidth(c.models[m.model], m.high)


# Section 7: weight bytes gpt-oss-120b reads for one token (active experts, attention, unembedding).
@figure("weights.gpt-oss-120b.read_per_token", "bytes", "Σ weight groups read per token × bytes per parameter (batch 1)", [M_GPT])
def _(c): return M.weight_bytes_read(c.models[GPT], 1)


# Section 9: how much longer the agent loop takes at the GPU speed.
@figure("agent.ratio", "ratio", "agent loop time at the fastest GPU route ÷ at the Infercom speed", ["measurements.infercom-minimax-m2", "measurements.gpu-minimax-m2"], sig=2)
def _(c):
    gpu = M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["gpu-minimax-m2"].high)
    df = M.agent_loop_time(S.AGENT_STEPS, S.AGENT_TTFT_S, S.AGENT_TOKENS_PER_STEP, c.measurements["infercom-minimax-m2"].high)
    return gpu / df
