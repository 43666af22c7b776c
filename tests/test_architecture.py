"""Models built from config.json against hand derivations and published model-card totals.

Every expected number here is written out from the config values (quoted in
the comments) with the textbook formulas, independently of calculators/arch/layers.py:
a gated MLP has 3 x hidden x intermediate weights, attention has q, k, v, o
projections, a batch of B tokens touches E(1 - (1 - k/E)^B) of E experts.
"""

import json
import pathlib

import pytest

from calculators.arch import config as A
from calculators.data import catalog
from calculators.perf import roofline as M

CAT = catalog.load()
FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "configs"


def _card_ok(derived: float, card: float, unit: float = 0.0) -> bool:
    """Within 1 %, or within half the card's last printed digit when it rounds more coarsely."""
    ok = abs(derived - card) <= max(0.01 * card, unit / 2)
    assert ok == catalog.card_agrees(derived, card, unit)   # the catalog's load-time check agrees
    return ok


# ------------------------------------------------- catalog models vs their cards

CONFIG_MODELS = [k for k, m in CAT.models.items() if m.arch]


@pytest.mark.parametrize("key", CONFIG_MODELS)
def test_derived_totals_match_the_model_card(key):
    m = CAT.models[key]
    assert _card_ok(m.total_params, m.card_total_params, m.card_unit), (key, m.total_params, m.card_total_params)
    if m.card_active_params:
        active = m.arch.active_params(include_embedding=m.card_active_counts_embedding)
        assert _card_ok(active, m.card_active_params, m.card_unit), (key, active, m.card_active_params)


def test_exact_counts_from_the_configs():
    # the counts the issue quotes, to 0.01 B (facts.md, Corrections)
    exact = {"llama-3.1-8b": (8.03e9, None), "llama-3.1-70b": (70.55e9, None), "llama-3.1-405b": (405.85e9, None),
             "gpt-oss-120b": (116.83e9, 5.13e9), "gpt-oss-20b": (20.91e9, 3.61e9)}
    for key, (total, active) in exact.items():
        m = CAT.models[key]
        assert m.total_params == pytest.approx(total, abs=0.006e9), key
        if active:
            assert m.active_params == pytest.approx(active, abs=0.006e9), key


def test_a_card_far_from_the_config_fails_the_check():
    m = CAT.models["llama-3.1-70b"]
    assert not _card_ok(m.total_params, 80e9, m.card_unit)


# ------------------------------------------------------ KV bytes per token by hand

KV_BY_HAND = {
    # layers x 2 (K, V) x KV heads x head_dim x 2 bytes (BF16)
    "llama-3.1-8b": 32 * 2 * 8 * 128 * 2,
    "llama-3.1-70b": 80 * 2 * 8 * 128 * 2,
    "llama-3.1-405b": 126 * 2 * 8 * 128 * 2,
    "qwen3-235b-a22b": 94 * 2 * 4 * 128 * 2,
    "minimax-m2": 62 * 2 * 8 * 128 * 2,
    # only the 18 full layers grow at long context; 8 KV heads of 64
    "gpt-oss-120b": 18 * 2 * 8 * 64 * 2,
    "gpt-oss-20b": 12 * 2 * 8 * 64 * 2,
    # MLA: (kv_lora_rank 512 + rope 64) x 61 layers x 2 bytes, no factor 2
    "deepseek-v3": 61 * (512 + 64) * 2,
    # DeepSeek sparse attention: the latent plus the indexer key (128 FP8 values + one FP32 scale)
    "deepseek-v3.2": 61 * ((512 + 64) * 2 + 128 + 4),
    # hybrids: only the attention layers keep a cache per token (12 of 48; 10 of 118)
    "qwen3-next-80b-a3b": 12 * 2 * 2 * 256 * 2,
    "nemotron-h-56b": 10 * 2 * 8 * 128 * 2,
    # Llama 4: at long context only the 12 global layers grow; the 36 chunked ones stop at 8,192 tokens
    "llama-4-maverick": 12 * 2 * 8 * 128 * 2,
}


@pytest.mark.parametrize("key", CONFIG_MODELS)
def test_kv_bytes_per_token_by_hand(key):
    assert M.kv_bytes_per_token(CAT.models[key], "bf16") == KV_BY_HAND[key]


def test_fp8_kv_halves_gqa_and_uses_the_published_mla_layout():
    assert M.kv_bytes_per_token(CAT.models["llama-3.1-70b"], "fp8") == 80 * 2 * 8 * 128
    # FlashMLA / vLLM FP8 layout: 512 FP8 latent + 4 FP32 scales + 64 BF16 rope = 656 bytes per layer
    assert M.kv_bytes_per_token(CAT.models["deepseek-v3"], "fp8") == 61 * 656


# --------------------------------------------- bytes read per decode step by hand

def _share(e, k, b):
    return 1 - (1 - k / e) ** b


# Per MoE model: (MoE layers, experts E, active k, params per expert, expert bytes/param,
#                 all other params read in full with their bytes/param, hidden, embedding bytes/param)
def _minimax():
    attn = 3072 * 6144 + 2 * 3072 * 1024 + 6144 * 3072 + (6144 + 1024)   # q, k, v, o, per-layer q/k norm
    fp8 = 8 + 32 / 16384                                                   # FP8 + FP32 scale per 128x128 block
    full = [(62 * attn, fp8 / 8), (62 * (256 * 3072 + 256), 4.0),         # router FP32 (+ routing bias)
            (200064 * 3072, 2.0), (62 * 2 * 3072 + 3072, 2.0)]             # lm_head BF16, norms BF16
    return 62, 256, 8, 3 * 3072 * 1536, fp8 / 8, full, 3072, 2.0


def _deepseek():
    attn = (7168 * 1536 + 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 + 512 * 128 * 256 + 128 * 128 * 7168)
    fp8 = (8 + 32 / 16384) / 8
    full = [(61 * attn, fp8), (3 * 3 * 7168 * 18432, fp8), (58 * 3 * 7168 * 2048, fp8),  # dense first 3, shared expert
            (58 * (256 * 7168 + 256), 2.0), (129280 * 7168, 2.0), (61 * 2 * 7168 + 7168, 2.0)]
    return 58, 256, 8, 3 * 7168 * 2048, fp8, full, 7168, 2.0


def _qwen():
    attn = 4096 * 8192 + 2 * 4096 * 512 + 8192 * 4096 + 2 * 128
    full = [(94 * attn, 2.0), (94 * 128 * 4096, 2.0), (151936 * 4096, 2.0), (94 * 2 * 4096 + 4096, 2.0)]
    return 94, 128, 8, 3 * 4096 * 1536, 2.0, full, 4096, 2.0


def _gpt_oss(layers, experts):
    attn = 2880 * 4096 + 2 * 2880 * 512 + 4096 * 2880 + (4096 + 1024 + 2880) + 64
    expert = 2880 * 5760 + 5760 + 2880 * 2880 + 2880
    full = [(layers * attn, 2.0), (layers * (2880 * experts + experts), 2.0), (201088 * 2880, 2.0),
            (layers * 2 * 2880 + 2880, 2.0)]
    return layers, experts, 4, expert, 4.25 / 8, full, 2880, 2.0


MOE_BY_HAND = {"minimax-m2": _minimax, "deepseek-v3": _deepseek, "qwen3-235b-a22b": _qwen,
               "gpt-oss-120b": lambda: _gpt_oss(36, 128), "gpt-oss-20b": lambda: _gpt_oss(24, 32)}


@pytest.mark.parametrize("key", sorted(MOE_BY_HAND))
@pytest.mark.parametrize("batch", [1, 8, 64])
def test_moe_bytes_read_per_step_by_hand(key, batch):
    layers, e, k, expert, expert_b, full, hidden, emb_b = MOE_BY_HAND[key]()
    expected = layers * e * _share(e, k, batch) * expert * expert_b
    expected += sum(n * b for n, b in full) + batch * hidden * emb_b   # one embedding row per token
    assert M.weight_bytes_read(CAT.models[key], batch) == pytest.approx(expected, rel=1e-9)


def test_the_issue_s_numbers():
    # MiniMax reads about 11.2 GB per token, DeepSeek V3 stores about 673 GB and reads 37.7 GB
    assert M.weight_bytes_read(CAT.models["minimax-m2"], 1) == pytest.approx(11.2e9, rel=0.005)
    assert M.weight_bytes_stored(CAT.models["deepseek-v3"]) == pytest.approx(673e9, rel=0.002)
    assert M.weight_bytes_read(CAT.models["deepseek-v3"], 1) == pytest.approx(37.7e9, rel=0.002)
    # Qwen3-235B at batch 32 touches about 87 % of its experts
    assert M.expert_share(CAT.models["qwen3-235b-a22b"], 32) == pytest.approx(1 - (1 - 8 / 128) ** 32)
    assert round(M.expert_share(CAT.models["qwen3-235b-a22b"], 32), 2) == 0.87


def test_dense_model_has_no_expert_share():
    assert M.expert_share(CAT.models["llama-3.1-70b"], 64) is None


# ------------------------------------------------------------------ precision


def test_per_tensor_precision_from_quantization_sections():
    mm, ds, gpt = ({g: p.key for g, p in CAT.models[k].arch.precisions.items()} for k in ("minimax-m2", "deepseek-v3", "gpt-oss-120b"))
    assert (mm["experts"], mm["attention"], mm["router"], mm["embeddings"], mm["lm_head"]) == \
        ("fp8_b128", "fp8_b128", "fp32", "bf16", "bf16")
    assert (ds["experts"], ds["dense_mlp"], ds["router"], ds["embeddings"], ds["lm_head"]) == \
        ("fp8_b128", "fp8_b128", "bf16", "bf16", "bf16")
    assert (gpt["experts"], gpt["attention"], gpt["router"], gpt["lm_head"]) == ("mxfp4", "bf16", "bf16", "bf16")


# ----------------------------------------------- six real configs beyond the catalog

# published totals: Mixtral 46.7 B / 12.9 B active (Mistral AI, counts the embedding),
# Qwen3-30B-A3B 30.5 B (card), Gemma 3 27B: 1,416 M embedding +
# 25,600 M non-embedding (Gemma 3 technical report, table 1; the 417 M vision encoder is not
# a text layer), Phi-3 mini 3.8 B (3.82 B on Hugging Face), Mistral 7B 7.24 B (Hugging Face),
# DeepSeek V2 Lite 15.7 B (Hugging Face) / 2.4 B active.
FIXTURE_CARDS = {
    "mixtral-8x7b": (46.7e9, 12.9e9, True, 0.1e9),
    "qwen3-30b-a3b": (30.5e9, None, False, 0),   # card: 3.3 B activated; derived 3.35 B (the card truncates)
    "gemma-3-27b-it": (27.016e9, None, False, 0),
    "phi-3-mini-4k-instruct": (3.82e9, None, False, 0),
    "mistral-7b-v0.1": (7.24e9, None, False, 0),
    "deepseek-v2-lite": (15.7e9, None, False, 0),
}


def _fixture(name):
    return A.from_config(json.loads((FIXTURES / f"{name}.json").read_text()))


@pytest.mark.parametrize("name", sorted(FIXTURE_CARDS))
def test_fixture_configs_match_published_totals(name):
    total, active, with_embedding, unit = FIXTURE_CARDS[name]
    arch = _fixture(name)
    assert _card_ok(arch.total_params(), total), (name, arch.total_params())
    if active:
        assert _card_ok(arch.active_params(with_embedding), active, unit), (name, arch.active_params(with_embedding))


def test_fixture_sources_are_recorded():
    sources = json.loads((FIXTURES / "SOURCES.json").read_text())
    assert set(sources) == set(FIXTURE_CARDS)
    for entry in sources.values():
        assert entry["url"].startswith("https://huggingface.co/") and entry["accessed"] == "2026-12-01"


def test_gemma3_nested_text_config_and_five_to_one_pattern():
    arch = _fixture("gemma-3-27b-it")
    assert arch.layer_counts() == {"sliding": 52, "full": 10}     # every sixth of 62 layers is global
    assert arch.tied and arch.vocab == 262_208
    # long context: only the 10 global layers grow; 16 KV heads of 128, BF16
    assert arch.kv_bytes_per_token() == 10 * 2 * 16 * 128 * 2
    assert arch.kv_bytes(100_000) == (10 * 100_000 + 52 * 1024) * 2 * 16 * 128 * 2


def test_mistral_slides_on_every_layer_and_mixtral_on_none():
    mistral, mixtral = _fixture("mistral-7b-v0.1"), _fixture("mixtral-8x7b")
    assert mistral.layer_counts() == {"sliding": 32}
    assert mistral.kv_bytes(10_000) == 32 * 4096 * 2 * 8 * 128 * 2
    assert mixtral.layer_counts() == {"full": 32}


def test_deepseek_v2_lite_dense_first_layer_and_shared_experts():
    arch = _fixture("deepseek-v2-lite")
    mlps = [type(layer.mlp).__name__ for layer in arch.layers]
    assert mlps[0] == "DenseMLP" and set(mlps[1:]) == {"MoEMLP"}
    assert arch.layers[1].mlp.shared_experts == 2
    assert arch.kv_bytes_per_token() == 27 * (512 + 64) * 2


def test_qwen_mlp_only_layers_and_sparse_step():
    cfg = json.loads((FIXTURES / "qwen3-30b-a3b.json").read_text())
    arch = A.from_config(dict(cfg, mlp_only_layers=[0, 1], decoder_sparse_step=2))
    kinds = [type(layer.mlp).__name__ for layer in arch.layers[:6]]
    assert kinds == ["DenseMLP", "DenseMLP", "DenseMLP", "MoEMLP", "DenseMLP", "MoEMLP"]


# ------------------------------------------------------------- bad configs


@pytest.mark.parametrize("edit,field_name,message", [
    (lambda c: c.pop("hidden_size"), "hidden_size", "missing"),
    (lambda c: c.update(num_hidden_layers=0), "num_hidden_layers", "between 1"),
    (lambda c: c.update(num_hidden_layers=10**9), "num_hidden_layers", "between 1"),
    (lambda c: c.update(num_attention_heads="64"), "num_attention_heads", "whole number"),
    (lambda c: c.update(layer_types=["sliding_attention"] * 3), "layer_types", "lists 3 layers"),
    (lambda c: c.update(layer_types=["frobnicated_attention"] * 36), "layer_types", "unknown attention types"),
    (lambda c: c.update(layer_types=["linear_attention"] * 36), "layer_types", "not modelled"),
    (lambda c: c.update(quantization_config={"quant_method": "awq"}), "quantization_config.quant_method", "not supported"),
    (lambda c: c.pop("num_experts_per_tok") and c.pop("experts_per_token"), "num_experts_per_tok", "missing"),
])
def test_bad_configs_name_the_field(edit, field_name, message):
    cfg = json.loads(json.dumps(CAT.models["gpt-oss-120b"].arch.config))
    cfg.pop("_precision_overrides")
    edit(cfg)
    with pytest.raises(A.ConfigError) as err:
        A.from_config(cfg)
    assert err.value.field == field_name and message in str(err.value)


def test_a_broken_catalog_config_names_the_entry():
    def broken(name):
        cfg = catalog.read_config(name)
        cfg["num_key_value_heads"] = -1
        return cfg
    raw = {"name": "x", "config": "llama-3.1-8b.json", "max_context": 10, "card_total_params": 8e9,
           "source": "s", "accessed": "2026-12-01", "confidence": "high"}
    with pytest.raises(catalog.DataError) as err:
        catalog._model("llama-3.1-8b", raw, configs=broken)
    assert err.value.field == "config" and "num_key_value_heads" in str(err.value)
