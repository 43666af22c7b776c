"""Formula objects of published measurements: implied bandwidth, speed-ups against GPU ranges, the agent loop.

Ranges: a ranged term makes the formula a range (both substitutions are shown); `end` reads one end.
"""

from __future__ import annotations

from .formula import F

FORMULAS = {}
FORMULAS.update({
    "agent.time.dataflow": F("{n} × ({ttft} + {tokens} ÷ {speed})", n=("calls", "agent.steps"), ttft=("to the first token", "agent.ttft"),
                             tokens=("tokens per call", "agent.tokens_per_step"), speed=("measured", "measured.infercom-minimax-m2")),
    "agent.ratio": F("{gpu} ÷ {df}", gpu=("on GPUs", "agent.time.gpu"), df=("on dataflow", "agent.time.dataflow")),
    "headroom.infercom-gpt-oss-120b": F("{have} ÷ {need}", have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth"),
                                        need=("needed", "implied_bw.infercom-gpt-oss-120b")),
})
# The same measurements as figures_measured's implied_bw loop, with the weights figure each one reads.
for _mk, _weights in (("infercom-gpt-oss-120b", "gpt-oss-120b"), ("infercom-minimax-m2", "minimax-m2"),
                      ("sambanova-deepseek-r1", "deepseek-v3")):
    FORMULAS[f"implied_bw.{_mk}"] = F("{w} × {s}", w=("read per token", f"weights.{_weights}.read_per_token"),
                                      s=("measured", f"measured.{_mk}"))
    FORMULAS[f"implied_bw_share.{_mk}"] = F("{need} ÷ {have}", need=("needed", f"implied_bw.{_mk}"),
                                            have=("HBM bandwidth of the rack", "sn40l.rack.hbm_bandwidth"))
for _mk in ("infercom-gpt-oss-120b", "infercom-minimax-m2"):
    FORMULAS[f"speedup.{_mk}.vs_typical"] = F("{v} ÷ {gpu}", v=("measured", f"measured.{_mk}"),
                                                gpu=("typical on GPUs", "typical_gpu_serving"))
for _key, _gpu in (("gpt-oss-120b", "aa-gpu-gpt-oss-120b"), ("minimax-m2", "gpu-minimax-m2")):
    FORMULAS[f"speedup.{_key}.vs_gpu_measured"] = F("{v} ÷ {gpu}", v=("Infercom, measured", f"measured.infercom-{_key}"),
                                                      gpu=("measured on GPUs", f"measured.{_gpu}"))
FORMULAS.update({
    "agent.time.gpu": F("{n} × ({ttft} + {tokens} ÷ {speed})", n=("calls", "agent.steps"), ttft=("to the first token", "agent.ttft"),
                        tokens=("tokens per call", "agent.tokens_per_step"), speed=("fastest GPU route", "measured.gpu-minimax-m2", "high")),
})
