"""Formula objects: each expression, with its terms put in, gives the printed value.

This recomputes the figures along a second path (from other figures and named
constants, not through the model's functions), so a change in the model that
breaks a relation the article states shows up here.
"""

from __future__ import annotations

import math
import pytest

from calculators.article import figures
from calculators.example.formula import F

REG = figures.registry()
FORMULAS = {k: f.expression for k, f in REG.items() if f.expression is not None}


@pytest.mark.parametrize("fig_id", sorted(FORMULAS))
def test_expression_gives_the_figure(fig_id):
    f = FORMULAS[fig_id]
    for term in f.terms:
        assert term.figure is None or term.figure in REG, f"{fig_id}: unknown term figure {term.figure}"
    from sitebuild.checks.formulas import agrees
    assert agrees(REG[fig_id], f.evaluate(REG)), (fig_id, f.evaluate(REG), REG[fig_id].value)


def test_every_derived_figure_of_the_kv_and_step_chain_has_a_formula():
    """The numbers the article builds its argument on can be expanded in place."""
    chain = ["kv.llama70b.bytes_per_token", "kv.llama70b.total.131072", "flops.llama70b.per_token",
             "weights.llama70b.bytes", "step.llama70b.h100.compute_time", "step.llama70b.h100.memory_time",
             "ceiling.llama70b.h100.memory", "ceiling.llama70b.h100.compute", "ratio.llama70b.h100.memory_over_compute"]
    assert [c for c in chain if REG[c].expression is None] == []


def test_substituted_expression_reads_in_the_language():
    from calculators.text.message import Plural
    table = {"{n} layer": ("{n} Schicht", "{n} Schichten"), "{n} KV head": ("{n} KV-Kopf", "{n} KV-Köpfe")}
    tr = lambda m, ctx=None: table.get(m.one if isinstance(m, Plural) else m, m)  # noqa: E731
    text = FORMULAS.get("kv.llama70b.bytes_per_token").substituted(REG, "de", tr)
    assert text.startswith("80 Schichten × 2 ") and "8 KV-Köpfe" in text


def test_a_broken_relation_is_caught():
    """If the figure changed but the relation did not, the check fails (fault injection)."""
    import dataclasses
    reg = dict(REG)
    reg["step.llama70b.h100.memory_time"] = dataclasses.replace(REG["step.llama70b.h100.memory_time"], value=0.05)
    f = FORMULAS.get("ceiling.llama70b.h100.memory")
    assert f.evaluate(reg) != pytest.approx(REG["ceiling.llama70b.h100.memory"].value, rel=1e-3)


@pytest.mark.parametrize("expr", ["__import__('os')", "{a} ** 2", "{a}.real", "[{a}]"])
def test_only_arithmetic_is_evaluated(expr):
    f = F(expr, a=("x", 2))
    with pytest.raises((ValueError, SyntaxError)):
        f.evaluate(REG)


def test_hand_check_of_the_kv_formula():
    """From the Llama 3.1 70B config: 80 layers, 8 KV heads, head_dim 128, BF16 (2 bytes)."""
    assert FORMULAS.get("kv.llama70b.bytes_per_token").evaluate(REG) == 80 * 2 * 8 * 128 * 2


def test_build_check_names_the_line_of_a_formula_that_disagrees():
    """Fault injection: a figure whose formula object disagrees stops the build with file and line."""
    import dataclasses
    import pathlib
    from sitebuild.checks import formulas as check
    root = pathlib.Path(__file__).resolve().parent.parent
    assert check.check(REG, root) == []
    reg = dict(REG)
    reg["weights.llama70b.bytes"] = dataclasses.replace(REG["weights.llama70b.bytes"], value=150e9)
    problems = check.check(reg, root)
    p = next(p for p in problems if "'weights.llama70b.bytes'" in p.message)
    text = (root / "calculators" / "example" / "figures_step.py").read_text(encoding="utf-8").splitlines()
    assert p.path == "calculators/example/figures_step.py" and p.severity == "error" and p.code == "formula-disagrees"
    assert '@figure("weights.llama70b.bytes"' in text[p.line - 1]   # the line of the figure's declaration
    # figures whose formulas use it as a term now disagree too: 150 GB over 230 MB is 653 LPUs, not 614
    assert any("'fit.llama70b.groq-lpu.devices'" in q.message for q in problems)


# Figures whose value is the datum or assumption itself explain themselves through their catalog entry.
# "fitted": a constant of calculators/data/step_time.toml (the fit is its source); "dataset": a statistic over the
# published measurements, listed row by row on the accuracy page (calculators/article/calibration.py).
READS = ("catalog", "config.json", "datasheet", "scenario", "vendor", "published", "as claimed", "batch size", "GPUs in",
         "context per", "number of", "industry", "context length", "2:4 structured sparsity", "fitted", "dataset")
def test_every_derived_figure_has_a_formula():
    """A derived figure comes with its formula object; the only figures without one read one datum (no exemption list)."""
    derived = {k for k, f in REG.items() if not f.words.startswith(READS)}
    missing = sorted(derived - set(FORMULAS))
    assert missing == [], f"derived figures without a formula object: {missing}"


def test_the_deployment_models_figures_have_formulas():
    """The figures that once were listed without substitution (issue 10): sums per device, ranges, a floor,
    each row's expected speed, and the explanation's numbers."""
    rows = [k for k in REG if k.startswith("row.")]
    kinds = (".expected", ".ceiling_served", ".streamed", ".why_k", ".why_acceptance", ".why_ceiling", ".ratio")
    ids = ["deploy.llama70b.h100x8.bytes_per_gpu", "deploy.deepseek-v3.held_8k", "flops.llama70b.per_token_8k",
           "deploy.aa-gpu-gpt-oss-120b.over_ceiling", "deploy.aa-gpu-llama-3.1-70b.over_expected",
           "batch.llama70b.max_8k", "util.llama70b.max_batch_8k", *(k for k in rows if k.endswith(kinds))]
    assert len(ids) > 7 + 18 * 3
    assert [k for k in ids if k not in FORMULAS] == []
    assert "⌊" in FORMULAS["batch.llama70b.max_8k"].expr and "max(" in FORMULAS["util.llama70b.max_batch_8k"].expr
    assert isinstance(FORMULAS["deploy.aa-gpu-llama-3.1-70b.over_expected"].evaluate(REG), tuple)


def test_the_three_kinds_that_once_had_no_formula_now_have_one():
    """Ranges, sums over mixed per-layer specs and roofline steps (max) each evaluate to the printed value."""
    from sitebuild.checks.formulas import agrees
    for fig_id in ("speedup.gpt-oss-120b.vs_gpu_measured", "power.ratio", "kv.gpt-oss-120b.bytes_per_token_long",
                   "weights.minimax-m2.read_per_token", "speed.per_request_fp8", "speed.ttft", "util.llama70b.batch_large"):
        assert agrees(REG[fig_id], FORMULAS[fig_id].evaluate(REG)), fig_id
    assert "max(" in FORMULAS["speed.per_request_fp8"].expr and "max(" in FORMULAS["speed.ttft"].expr


# ---------------------------------------------------------------- ranges

def _catalog_numbers(section: str, key: str) -> dict:
    import pathlib
    import tomllib
    root = pathlib.Path(__file__).resolve().parent.parent
    return tomllib.loads((root / "calculators" / "data" / "catalog.toml").read_text(encoding="utf-8"))[section][key]


def test_hand_check_of_a_range_formula():
    """Infercom's 713 tok/s for gpt-oss-120b against the measured GPU range (Artificial Analysis): both ends,
    713 ÷ high and 713 ÷ low, and the reader sees both substitutions, the low end first."""
    infercom = _catalog_numbers("measurements", "infercom-gpt-oss-120b")
    gpu = _catalog_numbers("measurements", "aa-gpu-gpt-oss-120b")
    assert infercom["low"] == infercom["high"] == 713
    low, high = FORMULAS["speedup.gpt-oss-120b.vs_gpu_measured"].evaluate(REG)
    assert low == pytest.approx(713 / gpu["high"]) and high == pytest.approx(713 / gpu["low"])
    text = FORMULAS["speedup.gpt-oss-120b.vs_gpu_measured"].substituted(REG, "en", lambda m, c=None: m).replace("\xa0", " ")
    first, second = text.split(" … ")
    assert f"{gpu['high']:,} tok/s" in first and f"{gpu['low']:,} tok/s" in second and first.startswith("713 tok/s")


def test_a_term_can_read_one_end_of_a_range():
    """agent.time.gpu uses the fastest GPU route, the high end of a measured range: a single number, not a range."""
    gpu = _catalog_numbers("measurements", "gpu-minimax-m2")
    assert gpu["low"] != gpu["high"]
    got = FORMULAS["agent.time.gpu"].evaluate(REG)
    assert not isinstance(got, tuple)
    assert got == pytest.approx(20 * (0.5 + 1000 / gpu["high"]))   # 20 calls, 0.5 s TTFT, 1,000 tokens each (scenarios.py)
    with pytest.raises(ValueError):
        F("{a}", a=("x", "measured.gpu-minimax-m2", "middle"))


def test_a_range_needs_every_end_choice():
    """Two ranges in one formula: the extremes come from opposite ends (a ÷ b is lowest at low a and high b)."""
    f = F("{a} ÷ {b}", a=("x", "power.gpu-rack"), b=("y", "speedup.gpt-oss-120b.vs_gpu_measured"))
    (lo_a, hi_a), (lo_b, hi_b) = REG["power.gpu-rack"].value, REG["speedup.gpt-oss-120b.vs_gpu_measured"].value
    assert f.evaluate(REG) == pytest.approx((lo_a / hi_b, hi_a / lo_b))


# ------------------------------------------------- sums over mixed per-layer specs

def _config(name: str) -> dict:
    import json
    import pathlib
    return json.loads((pathlib.Path(__file__).resolve().parent.parent / "calculators" / "data" / "configs" / name).read_text(encoding="utf-8"))


def test_hand_check_of_gpt_oss_kv_per_token_from_its_config():
    """gpt-oss-120b config.json: 36 layers alternating sliding (window 128) and full attention, 8 KV heads of 64 values.
    Past the window only the 18 full layers grow: 18 × 2 (K, V) × 8 × 64 × 2 bytes = 36,864 B; inside it all 36 do."""
    c = _config("gpt-oss-120b.json")
    assert (c["num_hidden_layers"], c["num_key_value_heads"], c["head_dim"], c["sliding_window"]) == (36, 8, 64, 128)
    assert c["layer_types"].count("full_attention") == c["layer_types"].count("sliding_attention") == 18
    assert FORMULAS["kv.gpt-oss-120b.bytes_per_token_long"].evaluate(REG) == 18 * 2 * 8 * 64 * 2 == 36_864
    assert FORMULAS["kv.gpt-oss-120b.bytes_per_token_short"].evaluate(REG) == 36 * 2 * 8 * 64 * 2
    text = FORMULAS["kv.gpt-oss-120b.bytes_per_token_long"].substituted(REG, "en", lambda m, c=None: m).replace("\xa0", " ")
    assert text.startswith("18 layers with full attention × 2,048 ") and "18 sliding-window layers × 0 " in text


def test_hand_check_of_gpt_oss_weights_per_precision_group():
    """gpt-oss-120b stores its experts in MXFP4 (4 bits + an 8-bit scale per 32 values = 4.25 bits), the rest in BF16.
    Experts from the config: 36 layers × 128 experts × (3 × 2,880 × 2,880 + 2 × 2,880 + 2,880 biases) parameters."""
    c = _config("gpt-oss-120b.json")
    h, inter, layers, experts = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"], c["num_local_experts"]
    expert_params = layers * experts * (3 * h * inter + 2 * inter + h)
    assert REG["params.gpt-oss-120b.mxfp4"].value == expert_params
    bf16 = REG["params.gpt-oss-120b.bf16"].value
    assert FORMULAS["weights.gpt-oss-120b.bytes"].evaluate(REG) == pytest.approx(bf16 * 2 + expert_params * 4.25 / 8)
    assert REG["weights.gpt-oss-120b.bytes"].value == pytest.approx(bf16 * 2 + expert_params * 4.25 / 8)


def test_hand_check_of_llama_active_parameters():
    """Llama 3.1 70B: every parameter but the input embedding table, 128,256 rows of 8,192 values (config.json)."""
    c = _config("llama-3.1-70b.json")
    assert FORMULAS["params.llama70b.active"].evaluate(REG) == REG["params.llama70b"].value - c["vocab_size"] * c["hidden_size"]


# ----------------------------------------------------------------- roofline: max()

def test_max_and_min_are_evaluated_and_nothing_else_is_called():
    f = F("max({a}, {b}) − min({a}, {b})", a=("x", 3), b=("y", 5))
    assert f.evaluate(REG) == 2
    for bad in ("max({a})", "abs({a})", "max({a}, b={a})", "pow({a}, 2)", "floor({a}, 2)", "ln({a}, {a})", "{a} ** 2"):
        with pytest.raises((ValueError, SyntaxError)):
            F(bad, a=("x", 2)).evaluate(REG)


def test_hand_check_of_the_fp8_roofline_step():
    """Llama 3.1 70B on 8 H100 at FP8, batch 1, 2,000 tokens of context (speed scenario), from the config and datasheet:
    memory = ((69.5e9 active + 8,192) × 1 B + 2,000 × 327,680 B) ÷ (8 × 3.35 TB/s);
    compute = (2 × 69.5e9 + 80 × 4 × 64 × 128 × 2,000) ÷ (8 × 1,979 TFLOP/s); speed = 1 ÷ max(memory, compute)."""
    c = _config("llama-3.1-70b.json")
    layers, heads, hidden = c["num_hidden_layers"], c["num_attention_heads"], c["hidden_size"]
    head_dim, kv_heads = hidden // heads, c["num_key_value_heads"]
    active = REG["params.llama70b.active"].value
    kv_per_token = layers * 2 * kv_heads * head_dim * 2
    memory = ((active + hidden) * 1 + 2000 * kv_per_token) / (8 * 3.35e12)
    compute = (2 * active + layers * 4 * heads * head_dim * 2000) / (8 * 1979e12)
    assert FORMULAS["speed.fp8.memory_time"].evaluate(REG) == pytest.approx(memory)
    assert FORMULAS["speed.fp8.compute_time"].evaluate(REG) == pytest.approx(compute)
    assert FORMULAS["speed.per_request_fp8"].evaluate(REG) == pytest.approx(1 / max(memory, compute))
    assert REG["speed.per_request_fp8"].value == pytest.approx(1 / max(memory, compute))


# ------------------------------------------------ the build check: fault injection

def _check_with(fig_id, value):
    import dataclasses
    import pathlib
    from sitebuild.checks import formulas as check
    root = pathlib.Path(__file__).resolve().parent.parent
    reg = dict(REG)
    reg[fig_id] = dataclasses.replace(REG[fig_id], value=value)
    problems = [p for p in check.check(reg, root) if f"{fig_id!r}" in p.message]
    assert problems and (problems[0].path, problems[0].line) == REG[fig_id].origin   # the figure's declaration
    text = (root / problems[0].path).read_text(encoding="utf-8").splitlines()
    return problems, text


def test_build_check_names_the_line_of_a_range_whose_high_end_disagrees():
    low, high = REG["speedup.gpt-oss-120b.vs_gpu_measured"].value
    problems, text = _check_with("speedup.gpt-oss-120b.vs_gpu_measured", (low, high * 1.2))
    assert [p.code for p in problems] == ["formula-disagrees"]
    p = problems[0]
    assert p.path == "calculators/article/topics/measured.py" and p.severity == "error" and "gives 1.04392 to 1.4701 but" in p.message
    assert 'vs_gpu_measured' in text[p.line - 1] and "@figure(" in text[p.line - 1]   # the loop's declaration


def test_build_check_names_the_line_of_a_range_printed_as_one_number():
    problems, text = _check_with("power.ratio", 4.0)
    assert [p.code for p in problems] == ["formula-disagrees"] and '"power.ratio"' in text[problems[0].line - 1]


def test_build_check_names_the_line_of_a_max_formula_that_disagrees():
    """The FP8 step printed faster than the slower side of its roofline allows: the build stops at the figure's declaration."""
    problems, text = _check_with("speed.per_request_fp8", REG["speed.per_request_fp8"].value * 1.5)
    assert [p.code for p in problems] == ["formula-disagrees"]
    assert '"speed.per_request_fp8"' in text[problems[0].line - 1]


def test_the_build_stops_at_the_line_of_a_range_and_of_a_max_formula_that_disagree(tmp_path):
    """Fault injection through `mkdocs build --strict` on a copy: a range formula whose high end is capped (min)
    and a roofline step whose max() became min() each stop the build, named by the file and line of the figure's
    declaration (for a loop, the loop's declaration)."""
    from checkutil import build, copy_project, edit_line, line_matching
    root = copy_project(tmp_path / "p")
    measured, step = root / "calculators" / "article" / "topics" / "measured.py", root / "calculators" / "article" / "topics" / "step.py"
    ranged_expr = line_matching(measured, r'expression=F\("\{v\} ÷ \{gpu\}", v=\("Infercom, measured"')
    edit_line(measured, ranged_expr, lambda s: s.replace('F("{v} ÷ {gpu}"', 'F("min({v} ÷ {gpu}, 1.3)"'))
    ranged = line_matching(measured, r'@figure\(f"speedup\.\{_key\}\.vs_gpu_measured"')
    roof_expr = line_matching(step, r'expression=F\("\{one\} ÷ max\(\{m\}, \{c\}\)", one=\("token", 1\), m=\("memory time", "speed\.fp8')
    edit_line(step, roof_expr, lambda s: s.replace("max(", "min("))
    roof = line_matching(step, r'@figure\("speed\.per_request_fp8"')
    done = build(root, tmp_path / "site")
    assert done.returncode != 0
    out = done.stdout + done.stderr
    assert f"calculators/article/topics/measured.py:{ranged}: error: formula of 'speedup.gpt-oss-120b.vs_gpu_measured' gives 1.04392 to 1.3 " in out
    assert f"calculators/article/topics/measured.py:{ranged}: error: formula of 'speedup.minimax-m2.vs_gpu_measured'" in out  # same loop
    assert f"calculators/article/topics/step.py:{roof}: error: formula of 'speed.per_request_fp8' gives " in out


# ------------------------------------------- floor, powers and logarithms (the deployment model)

def test_floor_power_and_logarithm_are_evaluated():
    """⌊ ⌋ rounds down (whole requests that fit), a^b is a power (accepted length), ln(…) the natural logarithm."""
    import math
    f = F("⌊{a} ÷ {b}⌋ + {a}^{two} − ln({e})", a=("x", 7), b=("y", 2), two=("", 2), e=("", math.e))
    assert f.evaluate(REG) == pytest.approx(3 + 49 - 1)
    assert F("−{a}^{two}", a=("x", 3), two=("", 2)).evaluate(REG) == -9   # a power binds tighter than the sign


def _toml(name: str) -> dict:
    import pathlib
    import tomllib
    return tomllib.loads((pathlib.Path(__file__).resolve().parent.parent / "calculators" / "data" / name).read_text(encoding="utf-8"))


def _llama70b_read_bytes() -> float:
    """Llama 3.1 70B's BF16 weight bytes read per token, from its config.json: every tensor but the input
    embedding table, of which one row (the lm_head is untied, so it is read in full)."""
    c = _config("llama-3.1-70b.json")
    h, inter, layers, vocab = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"], c["vocab_size"]
    kv_dim = c["num_key_value_heads"] * h // c["num_attention_heads"]
    per_layer = 2 * h * h + 2 * h * kv_dim + 3 * h * inter + 2 * h       # q, o; k, v; gate, up, down; two norms
    assert not c["tie_word_embeddings"]
    return (layers * per_layer + h + vocab * h + h) * 2                  # layers, final norm, lm_head, one embedding row


def test_hand_check_of_the_tp8_expected_speed():
    """Llama 3.1 70B on 8 × H100, TP8, batch 1, 2,000 tokens of context (speed scenario), from first principles:
    each GPU streams 1/8 of the weights read per token (139.0 GB: the 141.1 GB stored less the input embedding
    table, of which one row is read) at the fitted share of bandwidth for weight reads, and 1/8 of the KV cache
    (80 layers × 2 × 8 KV heads × 128 × 2 B × 2,000) at the share the published ITL slopes give (serving.toml);
    plus 80 layers × the fixed cost per layer of an engine not named (the geometric mean of the calibrated
    NVIDIA engines, step_time.toml); plus 160 all-reduces (2 per layer) of 8,192 × 2 B each, priced by the least-
    squares line through vLLM's published all-reduce times (serving.toml)."""
    c = _config("llama-3.1-70b.json")
    serving, consts = _toml("serving.toml"), _toml("step_time.toml")["parameters"]
    eta_w = consts["weights_efficiency"]["nvidia"]
    slopes = serving["kv_bandwidth"]["hopper"]["slopes"]
    per_token = {"llama-3.1-8b": 32 * 2 * 8 * 128 * 2, "gpt-oss-20b": 12 * 2 * 8 * 64 * 2}
    eta_kv = sum(per_token[s["model"]] / (s["ms_per_token"] / 1e3) / 3.35e12 for s in slopes) / len(slopes)
    taus = [v for k, v in consts["fixed_per_layer_s"].items() if k.endswith("/nvidia") and "eager" not in k]
    tau = math.prod(taus) ** (1 / len(taus))
    pts = serving["allreduce"]["vllm-custom"]["points"]
    n, sx, sy = len(pts), sum(x for x, _ in pts), sum(y for _, y in pts)
    slope = (n * sum(x * y for x, y in pts) - sx * sy) / (n * sum(x * x for x, _ in pts) - sx * sx)
    latency = (sy - slope * sx) / n
    head_dim = c["hidden_size"] // c["num_attention_heads"]
    kv = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head_dim * 2 * 2000
    step = (_llama70b_read_bytes() / 8 / (3.35e12 * eta_w) + kv / 8 / (3.35e12 * eta_kv) + 80 * tau
            + 2 * c["num_hidden_layers"] * (latency + c["hidden_size"] * 2 * slope))
    assert FORMULAS["deploy.llama70b.h100x8.bytes_per_gpu"].evaluate(REG) == pytest.approx(_llama70b_read_bytes() / 8 + kv / 8)
    assert FORMULAS["deploy.llama70b.h100x8.expected"].evaluate(REG) == pytest.approx(1 / step)
    assert REG["deploy.llama70b.h100x8.expected"].value == pytest.approx(1 / step)
    # the measurement row of the same deployment (1,000 tokens assumed): the same fixed cost and all-reduces, half the cache
    row = (_llama70b_read_bytes() / 8 / (3.35e12 * eta_w) + kv / 2 / 8 / (3.35e12 * eta_kv) + 80 * tau
           + 160 * (latency + 8192 * 2 * slope))
    assert REG["row.aa-gpu-llama-3.1-70b.expected"].value == pytest.approx(1 / row)


def test_hand_check_of_a_speculative_explanation():
    """SambaNova's 457 tok/s for Llama 3.1 70B on 16 SN40L sockets (TP16, 1.6 TB/s HBM each, 1,000 tokens assumed)
    exceeds the BF16 ceiling; speculative decoding explains it. With k = 1 at most 1 + a < 2 tokens per step,
    too few; with k = 2 the accepted length 1 + a + a² = (1 − a³) ÷ (1 − a) must reach measured ÷ ceiling,
    a quadratic: a = (−1 + √(4r − 3)) ÷ 2, within the highest published acceptance (92 %)."""
    import math
    c = _config("llama-3.1-70b.json")
    head_dim = c["hidden_size"] // c["num_attention_heads"]
    kv = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head_dim * 2 * 1000
    ceiling = 1.6e12 / (_llama70b_read_bytes() / 16 + kv / 8)        # 8 KV heads: the cache splits 8 ways, not 16
    r = 457 / ceiling
    assert 2 < r < 1 + 0.92 + 0.92 ** 2
    a = (-1 + math.sqrt(4 * r - 3)) / 2
    key = "row.sambanova-llama-3.1-70b"
    assert REG[f"{key}.ceiling"].value == pytest.approx(ceiling)
    assert REG[f"{key}.why_k"].value == 2 and REG[f"{key}.why_acceptance"].value == pytest.approx(a)
    assert FORMULAS[f"{key}.why_accepted"].evaluate(REG) == pytest.approx((1 - a ** 3) / (1 - a)) == pytest.approx(r)
    assert FORMULAS[f"{key}.why_k"].evaluate(REG) == 2
    assert FORMULAS[f"{key}.why_ceiling"].evaluate(REG) == pytest.approx(457)


def test_the_acceptance_condition_fails_for_a_wrong_acceptance():
    """The least acceptance is shown as the condition it satisfies; an acceptance that does not reach the
    measurement breaks the condition, and the build check names the row's formula."""
    import dataclasses
    key = "row.sambanova-llama-3.1-70b.why_acceptance"
    reg = dict(REG)
    reg[key] = dataclasses.replace(REG[key], value=REG[key].value - 0.05)
    from sitebuild.checks.formulas import agrees
    assert not agrees(reg[key], FORMULAS[key].evaluate(reg))


def test_a_count_of_one_takes_the_singular_label():
    """'1 richiesta', '1 Anfrage', not '1 richieste': the singular of a counted label after a figure worth one."""
    from sitebuild.strings import Strings
    STRINGS = Strings()
    f = F("{b} × {t}", b=("requests", "batch.size.1"), t=("tokens", "context.8192"))
    out = {lang: f.substituted(REG, lang, lambda m, c=None, lang=lang: STRINGS.get(m, lang, c)) for lang in ("de", "it", "da", "en")}
    assert out["it"].startswith("1 richiesta ×") and out["de"].startswith("1 Anfrage ×"), out
    assert out["da"].startswith("1 forespørgsel ×") and out["en"].startswith("1 request ×"), out
    assert out["de"].endswith("Token") and "8.192" in out["de"]     # the other term keeps its plural label
