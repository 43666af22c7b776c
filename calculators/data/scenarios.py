"""Inputs of the site's worked examples, chosen by us (not sourced data).

They live here, once, so that pages, charts and calculators' defaults agree
and a reader can see on the sources page which numbers are assumptions.
"""

# Context lengths the article uses for KV-cache totals (1K = 1,024 tokens).
CONTEXTS = (8 * 1024, 32 * 1024, 128 * 1024)

# Batching chart: Llama 3.1 70B, BF16, on a tensor-parallel group of H100s.
BATCH_DEVICES = 8
BATCH_CONTEXT = 8 * 1024
BATCHES = (1, 8, 32, 64, 128)

# The four architectural differences of dataflow accelerators the article lists;
# the count printed in the prose is len() of this tuple, never typed.
DATAFLOW_DIFFERENCES = (
    "spatial_pipeline",
    "three_memory_tiers",
    "compile_time_schedule",
    "fused_operator_pipelines",
)

# Agent loop worked example (section 9): sequential model calls.
AGENT_STEPS = 20
AGENT_TOKENS_PER_STEP = 1000
AGENT_TTFT_S = 0.5

# "Inference speed explained": Llama 3.1 70B on 8 x H100, BF16.
SPEED_DEVICES = 8
SPEED_PROMPT = 2000
SPEED_OUTPUT = 500
SPEED_BATCH = 32
UTIL_BATCH = 64

# SambaNova builds SN40L systems as nodes of eight sockets (the SN40L paper, arXiv 2405.07518);
# a rack holds two. Used to read claim 8's 12 TB as one node's DDR.
SN40L_NODE_SOCKETS = 8
