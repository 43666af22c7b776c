"""Formula objects: each expression, with its terms put in, gives the printed value.

This recomputes the figures along a second path (from other figures and named
constants, not through the model's functions), so a change in the model that
breaks a relation the article states shows up here.
"""

from __future__ import annotations

import pytest

from calculators import figures, formulas

REG = figures.registry()
FORMULAS = formulas.all_formulas()


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
    assert [c for c in chain if formulas.for_figure(c) is None] == []


def test_substituted_expression_reads_in_the_language():
    tr = lambda msgid, ctx=None: {"layers": "Schichten", "KV heads": "KV-Köpfe"}.get(msgid, msgid)  # noqa: E731
    text = formulas.for_figure("kv.llama70b.bytes_per_token").substituted(REG, "de", tr)
    assert text.startswith("80 Schichten × 2 ") and "8 KV-Köpfe" in text


def test_a_broken_relation_is_caught():
    """If the figure changed but the relation did not, the check fails (fault injection)."""
    import dataclasses
    reg = dict(REG)
    reg["step.llama70b.h100.memory_time"] = dataclasses.replace(REG["step.llama70b.h100.memory_time"], value=0.05)
    f = formulas.for_figure("ceiling.llama70b.h100.memory")
    assert f.evaluate(reg) != pytest.approx(REG["ceiling.llama70b.h100.memory"].value, rel=1e-3)


@pytest.mark.parametrize("expr", ["__import__('os')", "{a} ** 2", "{a}.real", "[{a}]"])
def test_only_arithmetic_is_evaluated(expr):
    f = formulas.F(expr, a=("x", 2))
    with pytest.raises((ValueError, SyntaxError)):
        f.evaluate(REG)


def test_hand_check_of_the_kv_formula():
    """From the Llama 3.1 70B config: 80 layers, 8 KV heads, head_dim 128, BF16 (2 bytes)."""
    assert formulas.for_figure("kv.llama70b.bytes_per_token").evaluate(REG) == 80 * 2 * 8 * 128 * 2


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
    text = (root / "calculators" / "formulas.py").read_text(encoding="utf-8").splitlines()
    assert p.path == "calculators/formulas.py" and p.severity == "error" and p.code == "formula-disagrees"
    assert '"weights.llama70b.bytes"' in text[p.line - 1]
    # figures whose formulas use it as a term now disagree too: 150 GB over 230 MB is 653 LPUs, not 614
    assert any("'fit.llama70b.groq-lpu.devices'" in q.message for q in problems)


# Figures whose value is the datum or assumption itself explain themselves through their catalog entry.
READS = ("catalog", "datasheet", "scenario", "vendor", "published", "as claimed", "batch size", "GPUs in",
         "context per", "number of", "industry", "context length", "2:4 structured sparsity")
# Derived figures still shown in the popover with their formula in words and their sources only, and why.
WITHOUT_SUBSTITUTION = {
    "ranges (low to high), which a formula of single numbers cannot carry": (
        "speedup.infercom-gpt-oss-120b.vs_typical", "speedup.infercom-minimax-m2.vs_typical",
        "speedup.gpt-oss-120b.vs_gpu_measured", "speedup.minimax-m2.vs_gpu_measured", "power.ratio", "agent.time.gpu"),
    "sums over per-layer specs of mixed attention or precision (the popover lists the config as input)": (
        "kv.llama70b.bytes_per_token_long", "kv.deepseek-v3.bytes_per_token_long", "kv.gpt-oss-120b.bytes_per_token_long",
        "kv.gpt-oss-120b.bytes_per_token_short", "weights.gpt-oss-120b.bytes", "weights.deepseek-v3.bytes",
        "weights.gpt-oss-120b.read_per_token", "weights.gpt-oss-120b.bytes_bf16", "weights.minimax-m2.read_per_token",
        "weights.deepseek-v3.read_per_token", "precision.gpt-oss-120b.experts_bits", "precision.deepseek-v3.bits",
        "params.llama70b.active"),
    "roofline steps with attention and prefill terms (a max() of memory and compute)": (
        "speed.ttft", "speed.per_request_fp8", "speed.util", "util.llama70b.batch1", "util.llama70b.batch_large",
        "intensity.llama70b.batch.64"),
}
# The deployment model's figures (issue 9 parts 4 and 5): bytes summed over per-layer specs, ranges,
# a floor, a roofline step at a batch, and each measurement row's expected speed and explanation
# (efficiency, messages and speculation differ per row; measured.py computes them).
WITHOUT_SUBSTITUTION["deployment model: per-layer sums, ranges, a floor, per-row steps and the explanation search"] = (
    "deploy.llama70b.h100x8.bytes_per_gpu", "deploy.deepseek-v3.held_8k", "flops.llama70b.per_token_8k",
    "deploy.aa-gpu-gpt-oss-120b.over_ceiling", "deploy.aa-gpu-llama-3.1-70b.over_expected",
    "batch.llama70b.max_8k", "util.llama70b.max_batch_8k",
    *(k for k in REG if k.startswith("row.") and (k.endswith((".expected", ".ceiling_served", ".streamed", ".why_k", ".why_acceptance", ".why_ceiling"))
                                                  or (k.endswith(".ratio") and REG[k.replace(".ratio", ".measured")].is_range))),
)


def test_every_derived_figure_has_a_formula_or_a_stated_reason():
    """A new derived figure must come with its formula object, or be listed above with the reason it has none."""
    listed = {f for ids in WITHOUT_SUBSTITUTION.values() for f in ids}
    derived = {k for k, f in REG.items() if not f.formula.startswith(READS)}
    missing = sorted(derived - set(FORMULAS) - listed)
    assert missing == [], f"derived figures without a formula object: {missing}"
    assert not listed & set(FORMULAS), "a figure listed as without substitution now has one: drop it from the list"
    assert listed <= set(REG), sorted(listed - set(REG))
