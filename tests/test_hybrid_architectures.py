"""The architectures of 2026 (issue 19): every new layer kind against a hand derivation and a real config.

Each expected number is written out here from the config values (quoted) and the
tensor shapes of the modelling code named in calculators/arch/layers.py, with
textbook formulas, independently of calculators/arch: parameters per tensor, the
cache one token adds, the fixed state one request holds (convolution state
(K - 1) x channels, recurrent state heads x dims), and the bytes a decode step
moves for a batch of B = 1, 8 and 64 requests (the weights it reads, the cache it
reads, the state it reads and writes back). Published totals are checks within
1 % (or half the card's last printed digit); where a card is further off, the
reason is written beside it and checked as such, never tuned away.

Fixtures: tests/fixtures/configs/kinds/*.json, sources in SOURCES.json there
(copied from /work/staging/arch with their provenance; DERIVATIONS.md there has
the same derivations in prose).
"""

from __future__ import annotations

import json
import math
import pathlib

import pytest

from calculators.arch import config as A
from calculators.arch import layers as Ly
from calculators.data import byo, catalog, serving
from calculators.perf import deployment as D
from calculators.perf import engine_memory as E
from calculators.perf import fit as F
from calculators.perf import roofline as M

KINDS = pathlib.Path(__file__).parent / "fixtures" / "configs" / "kinds"
CAT = catalog.load()
BF16, FP32 = 2, 4
FP8 = (8 + 32 / 16384) / 8      # FP8 with one FP32 scale per 128 x 128 block


def text(name: str) -> str:
    return (KINDS / f"{name}.json").read_text()


def arch(name: str):
    return A.from_config(json.loads(text(name)))


def share(experts: int, k: int, batch: int) -> float:
    """Expected share of E experts a batch of B tokens touches when each picks k: 1 - (1 - k/E)^B."""
    return 1 - (1 - k / experts) ** batch


# ------------------------------------------------------------- hand derivations
# Each returns: total parameters, a function batch -> weight bytes read per step, KV bytes per token per
# layer kind, state bytes per request, and the layers' cache counts.

def nemotron_h():
    # nvidia/Nemotron-H-56B-Base-8K: h 8192, 118 blocks "M-M-...": 54 Mamba-2, 10 attention, 54 MLP, V 131072
    h, V = 8192, 131072
    H, P, G, N, K = 256, 64, 8, 256, 4                  # mamba heads, head dim, groups, state, conv kernel
    inner, conv_ch = H * P, H * P + 2 * G * N           # 16,384 and 20,480
    mamba = h * (2 * inner + 2 * G * N + H) + conv_ch * K + conv_ch + 3 * H + inner + inner * h
    attention = h * 8192 + 2 * h * 8 * 128 + 8192 * h   # 64 query heads and 8 KV heads of 128
    mlp = 2 * h * 32768                                  # up and down only (relu2)
    blocks = 54 * (mamba + h) + 10 * (attention + h) + 54 * (mlp + h)
    total = 2 * V * h + blocks + h

    def read(b):                                         # dense: every block, final norm, lm_head, b embedding rows
        return (blocks + h + V * h + b * h) * BF16
    state = 54 * ((K - 1) * conv_ch * BF16 + H * P * N * BF16)
    return total, read, 10 * 2 * 8 * 128 * BF16, state


def qwen3_next():
    # Qwen/Qwen3-Next-80B-A3B: h 2048, 48 layers, full attention every 4th (12), 36 Gated DeltaNet; V 151936
    h, V = 2048, 151936
    attention = h * (16 * 256 * 2) + 2 * h * 2 * 256 + 16 * 256 * h + 2 * 256   # q with output gate, k, v, o, q/k norms
    Hk, Hv, dk, dv, K = 16, 32, 128, 128, 4
    key_dim, value_dim = Hk * dk, Hv * dv
    gdn = h * (2 * key_dim + 2 * value_dim) + h * 2 * Hv + (2 * key_dim + value_dim) * K + 2 * Hv + dv + value_dim * h
    router, expert, shared = 512 * h, 3 * h * 512, 3 * h * 512 + h   # shared expert with its sigmoid gate
    layers = 12 * attention + 36 * gdn + 48 * (router + 512 * expert + shared + 2 * h)
    total = 2 * V * h + layers + h

    def read(b):
        full = 12 * attention + 36 * gdn + 48 * (router + shared + 2 * h) + h + V * h + b * h
        return (full + 48 * 512 * share(512, 10, b) * expert) * BF16
    state = 36 * ((K - 1) * (2 * key_dim + value_dim) * BF16 + Hv * dv * dk * BF16)
    return total, read, 12 * 2 * 2 * 256 * BF16, state


def llama4(experts: int, step: int):
    # Llama 4 text: h 5120, 48 layers, 40 query / 8 KV heads of 128, experts of 8192 (top-1) plus one shared,
    # MoE every `step`-th layer, dense MLP 16384 elsewhere; V 202048; q/k norm without weights
    h, V = 5120, 202048
    attention = h * 5120 + 2 * h * 1024 + 5120 * h
    expert = 3 * h * 8192
    moe_layers = 48 // step
    total = 2 * V * h + h + 48 * (attention + 2 * h) + moe_layers * ((experts + 1) * expert + experts * h) \
        + (48 - moe_layers) * 3 * h * 16384

    def read(b):
        full = 48 * (attention + 2 * h) + moe_layers * (expert + experts * h) + (48 - moe_layers) * 3 * h * 16384
        return (full + moe_layers * experts * share(experts, 1, b) * expert + h + V * h + b * h) * BF16
    return total, read, 2 * 8 * 128 * BF16, 0


def deepseek_v32():
    # deepseek-ai/DeepSeek-V3.2: DeepSeek V3 (MLA, 3 dense + 58 MoE layers, 256 experts top-8, 1 shared) plus an
    # indexer per layer (64 heads of 128, top-k 2048); FP8 128x128 linear layers, BF16 embedding, lm_head, router
    h, V = 7168, 129280
    mla = h * 1536 + 1536 + 1536 * 128 * 192 + h * 576 + 512 + 512 * 128 * 256 + 128 * 128 * h
    indexer = 1536 * 64 * 128 + h * 128 + 2 * 128 + h * 64
    dense, expert, router = 3 * h * 18432, 3 * h * 2048, 256 * h + 256
    total = 2 * V * h + h + 61 * (mla + indexer + 2 * h) + 3 * dense + 58 * (router + 257 * expert)

    def read(b):
        fp8 = 61 * (mla + indexer) + 3 * dense + 58 * expert + 58 * 256 * share(256, 8, b) * expert
        bf16 = 58 * router + 61 * 2 * h + h + V * h + b * h
        return fp8 * FP8 + bf16 * BF16
    return total, read, 61 * ((512 + 64) * BF16 + (128 + 4)), 0


def kimi_linear():
    # moonshotai/Kimi-Linear-48B-A3B: h 2304, 27 layers; MLA at 1-based 4, 8, ..., 24, 27 (7), KDA elsewhere (20);
    # 32 KDA heads of 128, conv 4; MLA 32 heads, kv_lora 512, rope 64, nope 128, v 128, no q_lora;
    # layer 0 dense (9216), then MoE: 256 experts of 1024, top-8, one shared, router with a correction bias
    h, V, H, d, K = 2304, 163840, 32, 128, 4
    hd = H * d
    kda = 3 * h * hd + 2 * (h * d + d * hd) + hd + h * H + 3 * hd * K + H + d + hd * h
    mla = h * 32 * 192 + h * 576 + 512 + 512 * 32 * 256 + 32 * 128 * h
    expert, router = 3 * h * 1024, 256 * h + 256
    total = 2 * V * h + h + 7 * mla + 20 * kda + 27 * 2 * h + 3 * h * 9216 + 26 * (router + 257 * expert)

    def read(b):
        full = 7 * mla + 20 * kda + 27 * 2 * h + 3 * h * 9216 + 26 * (router + expert) + h + V * h + b * h
        return (full + 26 * 256 * share(256, 8, b) * expert) * BF16
    state = 20 * ((K - 1) * 3 * hd * BF16 + H * d * d * FP32)         # KDA's recurrent state is FP32 in vLLM
    return total, read, 7 * (512 + 64) * BF16, state


def jamba():
    # ai21labs/Jamba-v0.1: h 4096, 32 layers; attention where i % 8 == 4 (4), Mamba elsewhere (28);
    # MoE where i % 2 == 1 (16 layers, 16 experts top-2 of 14336), dense MLP 14336 elsewhere; V 65536
    h, V, d, N, K, r = 4096, 65536, 8192, 16, 4, 256
    mamba = h * 2 * d + d * K + d + d * (r + 2 * N) + r * d + d + d * N + d + d * h + r + 2 * N
    attention = h * 4096 + 2 * h * 1024 + 4096 * h
    mlp = 3 * h * 14336
    total = 2 * V * h + h + 4 * attention + 28 * mamba + 16 * (16 * mlp + 16 * h) + 16 * mlp + 32 * 2 * h

    def read(b):
        full = 4 * attention + 28 * mamba + 16 * 16 * h + 16 * mlp + 32 * 2 * h + h + V * h + b * h
        return (full + 16 * 16 * share(16, 2, b) * mlp) * BF16
    state = 28 * ((K - 1) * d * BF16 + d * N * BF16)
    return total, read, 4 * 2 * 8 * 128 * BF16, state


def phi4():
    # microsoft/phi-4: h 5120, 40 layers, 40 heads, 10 KV heads of 128, MLP 17920, V 100352
    h, V = 5120, 100352
    per_layer = h * (40 + 2 * 10) * 128 + 40 * 128 * h + 3 * h * 17920 + 2 * h
    total = 2 * V * h + h + 40 * per_layer
    return total, lambda b: (40 * per_layer + h + V * h + b * h) * BF16, 40 * 2 * 10 * 128 * BF16, 0


HAND = {"nemotron-h-56b-base-8k": nemotron_h, "qwen3-next-80b-a3b-thinking": qwen3_next,
        "llama-4-scout-17b-16e-instruct": lambda: llama4(16, 1), "llama-4-maverick-17b-128e-instruct": lambda: llama4(128, 2),
        "deepseek-v3.2": deepseek_v32, "kimi-linear-48b-a3b-instruct": kimi_linear, "jamba-v0.1": jamba, "phi-4": phi4}

# Published totals: (card total, its unit, card active, active counts the embedding, where it is published)
CARDS = {
    "nemotron-h-56b-base-8k": (56e9, 1e9, None, False, "https://huggingface.co/nvidia/Nemotron-H-56B-Base-8K"),
    "qwen3-next-80b-a3b-thinking": (80e9, 1e9, None, False, "https://huggingface.co/docs/transformers/en/model_doc/qwen3_next"),
    "llama-4-maverick-17b-128e-instruct": (400e9, 1e9, 17e9, True, "https://huggingface.co/blog/llama4-release"),
    "deepseek-v3.2": (671e9, 1e9, 37e9, False, "https://huggingface.co/deepseek-ai/DeepSeek-V3 (V3's card; V3.2 adds the indexers)"),
    "jamba-v0.1": (52e9, 1e9, 12e9, True, "https://huggingface.co/ai21labs/Jamba-v0.1"),
    "phi-4": (14.7e9, 0.1e9, None, False, "https://ollama.com/library/phi4 (14.7B; Microsoft's text says 14B)"),
}


def _card_ok(derived, card, unit):
    return abs(derived - card) <= max(0.01 * card, unit / 2)


@pytest.mark.parametrize("name", sorted(HAND))
def test_totals_equal_the_hand_derivation(name):
    total, _, _, _ = HAND[name]()
    assert arch(name).total_params() == total, name


@pytest.mark.parametrize("name", sorted(CARDS))
def test_totals_match_the_published_cards(name):
    card, unit, active, with_embedding, _ = CARDS[name]
    a = arch(name)
    assert _card_ok(a.total_params(), card, unit), (name, a.total_params())
    if active:
        assert _card_ok(a.active_params(with_embedding), active, unit), (name, a.active_params(with_embedding))


def test_cards_further_than_one_percent_and_why():
    # Kimi Linear's "48B total, 3B activated" (MoonshotAI/Kimi-Linear README): counted without the embedding and
    # the lm_head (2 x 163840 x 2304) the config gives 48.37 B and 2.73 B; with them 49.12 B (+2.3 %) and 3.11 B
    kimi = arch("kimi-linear-48b-a3b-instruct")
    vocab = 2 * 163840 * 2304
    assert not _card_ok(kimi.total_params(), 48e9, 1e9) and _card_ok(kimi.total_params() - vocab, 48e9, 1e9)
    assert round((kimi.active_params() - vocab // 2) / 1e9) == 3
    # GLM-4.5's "355 B total, 32 B active": the main model is 352.80 B (-0.6 %), 356.79 B with the MTP layer;
    # 32.86 B active counts the lm_head (151552 x 5120); without it 32.08 B
    glm = arch("glm-4.5")
    assert _card_ok(glm.total_params(), 355e9, 1e9) and _card_ok(glm.total_params() + glm.mtp_params(), 355e9, 1e9)
    assert not _card_ok(glm.active_params(), 32e9, 1e9) and _card_ok(glm.active_params() - 151552 * 5120, 32e9, 1e9)
    # Qwen3-Next's "3B active" is the name's label: 3.56 B, 3.25 B without the lm_head (151936 x 2048)
    qn = arch("qwen3-next-80b-a3b-thinking")
    assert round((qn.active_params() - 151936 * 2048) / 1e9) == 3
    # Llama 4 Scout's "109B total" includes the vision encoder, which the trimmed text config does not describe:
    # the text layers are 107.77 B; its 17 B active agrees
    scout = arch("llama-4-scout-17b-16e-instruct")
    assert scout.total_params() == 107_769_861_120 and not _card_ok(scout.total_params(), 109e9, 1e9)
    assert _card_ok(scout.active_params(True), 17e9, 1e9)


def test_fixture_sources_are_recorded():
    sources = json.loads((KINDS / "SOURCES.json").read_text())
    assert set(sources) == {p.stem for p in KINDS.glob("*.json")} - {"SOURCES"}
    for entry in sources.values():
        assert entry["url"].startswith("https://huggingface.co/") and entry["accessed"] == "2026-12-02"
        assert entry["confidence"] in ("high", "medium", "low") and entry["exact"]


# ---------------------------------------------------------------- cache and state


@pytest.mark.parametrize("name", sorted(HAND))
def test_kv_per_token_and_state_per_request_by_hand(name):
    _, _, kv, state = HAND[name]()
    a = arch(name)
    per_token = a.kv_bytes_per_token("bf16", context=1)      # every layer grows at the first token
    if name.startswith("llama-4"):
        assert per_token == 48 * kv and a.kv_bytes_per_token("bf16") == 12 * kv   # only 12 global layers at long context
    else:
        assert per_token == kv
    assert a.state_bytes() == state


def test_the_derivations_published_numbers():
    # DERIVATIONS.md (staging): the same numbers, written down before this code
    assert arch("nemotron-h-56b-base-8k").state_bytes() == 459_620_352
    assert arch("qwen3-next-80b-a3b-thinking").state_bytes() == 39_518_208
    assert arch("kimi-linear-48b-a3b-instruct").state_bytes() == 43_417_600
    assert arch("jamba-v0.1").state_bytes() == 8_716_288
    assert arch("deepseek-v3.2").kv_bytes_per_token() == 78_324
    assert M.kv_bytes_per_token(CAT.models["deepseek-v3.2"], "fp8") == 61 * (656 + 132)


def test_state_dtype_follows_the_config():
    cfg = json.loads(text("nemotron-h-56b-base-8k"))
    fp32 = A.from_config(dict(cfg, mamba_ssm_cache_dtype="float32"))
    assert fp32.state_bytes() == 54 * (3 * 20480 * 2 + 256 * 64 * 256 * 4) == 912_605_184
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(cfg, mamba_ssm_cache_dtype="float64"))
    assert err.value.code == "unsupported_dtype" and err.value.field == "mamba_ssm_cache_dtype"


def _model(name):
    return byo.model(text(name))


STEP_CASES = [(n, ctx) for n in sorted(HAND) for ctx in (8192, 32768)]


@pytest.mark.parametrize("batch", [1, 8, 64])
@pytest.mark.parametrize("name,context", STEP_CASES)
def test_bytes_moved_per_step_by_hand(name, context, batch):
    """Weights read + cache read + state read and written back, for B requests at `context` tokens, 1 device."""
    _, read, kv, state = HAND[name]()
    if name == "deepseek-v3.2":   # sparse: every indexer key (132 B), then 2,048 latent rows (1,152 B)
        cache = 61 * (132 * context + min(2048, context) * 1152)
    elif name.startswith("llama-4"):   # 12 global layers keep all; 36 chunked layers at most one chunk of 8,192
        cache = 12 * kv * context + 36 * kv * min(context, 8192)
    else:
        cache = kv * context
    expected = read(batch) + batch * (cache + 2 * state)
    m = _model(name)
    h100 = CAT.devices["h100-sxm"]
    s = M.decode_step(m, h100, batch=batch, context=context, compute_precision="bf16")
    moved = (s.weights_s + s.kv_s + s.state_s) * h100.serving.bytes_per_s
    assert moved == pytest.approx(expected, rel=1e-9)
    assert s.state_s * h100.serving.bytes_per_s == pytest.approx(batch * 2 * state, rel=1e-12)


def test_sparse_attention_reads_a_fraction_but_holds_everything():
    m = CAT.models["deepseek-v3.2"]
    held = M.kv_bytes(m, 131072)
    read = M.kv_read_bytes(m, 131072)
    assert held == 61 * 131072 * (1152 + 132)
    assert read == 61 * (132 * 131072 + 2048 * 1152)
    assert read / held < 0.12      # 132 of 1,284 bytes per token, plus 2,048 full rows
    # below top-k every token is read: indexer keys and latents
    assert M.kv_read_bytes(m, 1000) == M.kv_bytes(m, 1000)


def test_memory_held_counts_state_and_splits_it_by_heads():
    m = CAT.models["qwen3-next-80b-a3b"]
    state = 36 * (3 * (2 * 16 * 128 + 32 * 128) * 2 + 32 * 128 * 128 * 2)
    assert M.state_bytes(m, 8) == 8 * state
    assert M.cache_bytes(m, 4096, 8) == 8 * (state + 12 * 2 * 2 * 256 * 2 * 4096)
    # TP 4: Gated DeltaNet splits its 32 value heads 4 ways; the 2 KV heads of the full layers split 2 ways
    per = M.per_device_bytes(m, 4, 4096, 8)
    assert per["state"] == pytest.approx(8 * state / 4)
    assert per["kv"] == pytest.approx(8 * 12 * 2 * 2 * 256 * 2 * 4096 / 2)


# ---------------------------------------------------------------- MTP


def test_mtp_modules_are_stored_apart_and_not_read_by_plain_decode():
    h = 7168
    mla = h * 1536 + 1536 + 1536 * 128 * 192 + h * 576 + 512 + 512 * 128 * 256 + 128 * 128 * h
    moe = 256 * h + 256 + 257 * 3 * h * 2048
    # DeepSeek V3: enorm, hnorm, eh_proj (2h -> h), one MoE decoder layer, a final norm (embedding and head shared)
    v3 = CAT.models["deepseek-v3"].arch
    assert v3.mtp_params() == 2 * h + 2 * h * h + mla + 2 * h + moe + h
    assert CAT.models["deepseek-v3"].total_params == v3.total_params()          # the card's 671 B: no MTP
    indexer = 1536 * 64 * 128 + h * 128 + 2 * 128 + h * 64
    assert arch("deepseek-v3.2").mtp_params() == v3.mtp_params() + indexer      # 11.62 B (DERIVATIONS.md)
    glm = arch("glm-4.5")
    hg = 5120
    attention = hg * 12288 + 2 * hg * 1024 + 12288 * hg + (12288 + 2 * 1024) + 2 * 128
    glm_moe = 160 * hg + 160 + 161 * 3 * hg * 1536
    assert glm.mtp_params() == 2 * hg + 2 * hg * hg + attention + 2 * hg + glm_moe + hg
    assert glm.kv_bytes_per_token() == 92 * 2 * 8 * 128 * 2 == 376_832


# ---------------------------------------------------------------- known or refused


def _base():
    cfg = catalog.read_config("llama-3.1-8b.json")
    return cfg


def _fixture_fields() -> dict:
    """Every signalling field a modelled fixture or catalog config uses, by model type."""
    seen: dict = {}
    configs = [json.loads(p.read_text()) for p in KINDS.glob("*.json") if p.stem != "SOURCES"]
    configs += [m.arch.config for m in CAT.models.values() if m.arch]
    for cfg in configs:
        c = A.text_config(cfg)
        seen.setdefault(c.get("model_type"), set()).update(k for k, v in c.items() if A._present(v))
    return seen


@pytest.mark.parametrize("pattern,kind,families", A.SIGNALS, ids=[s[0] for s in A.SIGNALS])
def test_every_signalling_field_is_modelled_or_refused(pattern, kind, families):
    """A signalling field is read (a real config of each family that models it uses it, and computes),
    or refused with code "unmodelled" and its kind when any other family's config carries it."""
    name = pattern.replace("*", "x")
    cfg = dict(_base(), **{name: 4})
    with pytest.raises(A.ConfigError) as err:
        A.from_config(cfg)
    assert err.value.code == "unmodelled" and err.value.params["kind"] == kind and name in err.value.params["fields"]
    with pytest.raises(byo.ByoError) as err:
        byo.model(json.dumps(cfg))
    assert err.value.code == "unmodelled" and err.value.params["kind"] == kind
    seen = _fixture_fields()
    for family in families:
        if name in PUBLISHED_ONLY.get(family, ()):
            continue    # the published value, set on the trimmed copy: test_llama4_published_layer_fields
        assert any(k == name or (pattern.endswith("*") and k.startswith(pattern[:-1])) for k in seen.get(family, ())), \
            f"{pattern}: modelled for {family}, but no real config of {family} in the tests uses it"


# Fields the published (gated) Llama 4 configs carry but the copies read here (trimmed) leave out; the
# published values equal transformers' defaults (vllm-project/vllm issue 20581 quotes a text-only Scout
# config: no_rope_layers [1, 1, 1, 0] x 12, moe_layers 0..47, interleave_moe_layer_step 1).
PUBLISHED_ONLY = {"llama4_text": ("no_rope_layers", "no_rope_layer_interval", "moe_layers")}


def test_llama4_published_layer_fields():
    cfg = json.loads(text("llama-4-scout-17b-16e-instruct"))
    plain = A.from_config(cfg)
    inner = dict(cfg["text_config"], no_rope_layers=[1, 1, 1, 0] * 12, moe_layers=list(range(48)), no_rope_layer_interval=4)
    published = A.from_config(dict(cfg, text_config=inner))
    assert published.layers == plain.layers and published.total_params() == plain.total_params()
    assert plain.layer_counts() == {"chunked": 36, "full": 12}
    assert [l.attention.kind for l in plain.layers[:4]] == ["chunked", "chunked", "chunked", "full"]
    # Maverick: MoE on every second layer (1, 3, ..., 47), a dense MLP of 16,384 between
    mav = arch("llama-4-maverick-17b-128e-instruct")
    assert [type(l.mlp).__name__ for l in mav.layers[:2]] == ["DenseMLP", "MoEMLP"]
    moe = mav.layers[1].mlp
    assert (moe.experts, moe.active, moe.shared_experts, moe.shared_intermediate) == (128, 1, 1, 8192)
    bad = dict(cfg["text_config"], no_rope_layers=[1, 2] * 24)
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(cfg, text_config=bad))
    assert err.value.field == "no_rope_layers" and err.value.code == "not_layer_list"


@pytest.mark.parametrize("layer_type,kind", [("linear_attention", "linear_attention"), ("chunked_attention", "chunked_attention"),
                                             ("mamba", "state_space"), ("conv", "state_space")])
def test_layer_types_of_other_kinds_are_refused_outside_their_family(layer_type, kind):
    cfg = dict(_base(), layer_types=[layer_type] * 32)
    with pytest.raises(A.ConfigError) as err:
        A.from_config(cfg)
    assert err.value.code == "unmodelled" and err.value.params["kind"] == kind


@pytest.mark.parametrize("model_type,code,kind", [("t5", "not_decoder", None), ("whisper", "not_decoder", None),
                                                  ("mamba", "unmodelled", "state_space"), ("rwkv", "unmodelled", "recurrent"),
                                                  ("falcon_h1", "unmodelled", "state_space"), ("minimax", "unmodelled", "linear_attention")])
def test_families_that_are_no_attention_decoder_are_refused(model_type, code, kind):
    with pytest.raises(byo.ByoError) as err:
        byo.model(json.dumps(dict(_base(), model_type=model_type)))
    assert err.value.code == code and err.value.params.get("kind") == kind


def test_cross_attention_is_refused_with_its_fields():
    with pytest.raises(byo.ByoError) as err:
        byo.model(text("llama-3.2-11b-vision-instruct"))
    assert err.value.code == "unmodelled" and err.value.params == {
        "field": "cross_attention_layers", "kind": "cross_attention", "fields": "cross_attention_layers"}


def test_a_modelled_family_with_an_unmodelled_variant_is_refused():
    # Nemotron-H with MoE blocks ('E'), MiniMax with linear-attention layers (0 in attn_type_list), a text pattern
    cfg = json.loads(text("nemotron-h-56b-base-8k"))
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(cfg, hybrid_override_pattern=cfg["hybrid_override_pattern"][:-1] + "E"))
    assert err.value.code == "pattern" and err.value.params["chars"] == "E"
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(cfg, hybrid_override_pattern="M-*"))
    assert err.value.code == "pattern_length" and err.value.params == {"listed": 3, "layers": 118}
    mm = CAT.models["minimax-m2"].arch.config
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(mm, attn_type_list=[0] + [1] * 61))
    assert err.value.code == "unmodelled" and err.value.params["kind"] == "linear_attention"
    with pytest.raises(A.ConfigError) as err:
        A.from_config(dict(_base(), sliding_window=4096, sliding_window_pattern="LLLG"))
    assert err.value.code == "unmodelled" and err.value.params["kind"] == "sliding_pattern"


def test_qwen2_style_max_window_layers_slide_only_from_there():
    cfg = dict(_base(), sliding_window=4096, use_sliding_window=True, max_window_layers=28)
    a = A.from_config(cfg)
    assert a.layer_counts() == {"full": 28, "sliding": 4}
    assert A.from_config(dict(cfg, use_sliding_window=False)).layer_counts() == {"full": 32}


# ------------------------------------------------ hostile shapes (reliability review, sections 7 and 8)

def _edit(**changes):
    cfg = _base()
    for k, v in changes.items():
        cfg[k] = v
    return json.dumps(cfg)


FP8_Q = {"quant_method": "fp8", "weight_block_size": [128, 128]}
HOSTILE = [
    ("torch_dtype float64", _edit(torch_dtype="float64"), "unsupported_dtype", "torch_dtype"),
    ("fp8 block 64 x 64", _edit(quantization_config=dict(FP8_Q, weight_block_size=[64, 64])), "unsupported_block",
     "quantization_config.weight_block_size"),
    ("torch_dtype markup", _edit(torch_dtype="<img src=x onerror=alert(1)>"), "unsupported_dtype", "torch_dtype"),
    ("model_type a list", _edit(model_type=["llama"]), "not_text", "model_type"),
    ("model_type an object", _edit(model_type={"a": 1}), "not_text", "model_type"),
    ("quant_method a list", _edit(quantization_config={"quant_method": ["fp8"]}), "not_text", "quantization_config.quant_method"),
    ("quant_method an object", _edit(quantization_config={"quant_method": {"x": 1}}), "not_text",
     "quantization_config.quant_method"),
    ("architectures an object", _edit(architectures={"0": "LlamaForCausalLM"}), "not_text_list", "architectures"),
    ("architectures a number", _edit(architectures=7), "not_text_list", "architectures"),
    ("hidden_size of 5,000 digits", _edit(hidden_size=0).replace('"hidden_size": 0', '"hidden_size": ' + "9" * 5000),
     "range", "hidden_size"),
    ("tie_word_embeddings a string", _edit(tie_word_embeddings="false"), "not_bool", "tie_word_embeddings"),
    ("quantization_config a string", _edit(quantization_config="fp8"), "not_object", "quantization_config"),
    ("quant_method null", _edit(quantization_config={"quant_method": None}), "not_text", "quantization_config.quant_method"),
    ("hidden_size NaN", _edit(hidden_size=float("nan")), "not_integer", "hidden_size"),
    ("hidden_size Infinity", _edit(hidden_size=float("inf")), "range", "hidden_size"),
    ("hidden_size a list", _edit(hidden_size=[4096]), "not_integer", "hidden_size"),
    ("hidden_size an object", _edit(hidden_size={"v": 4096}), "not_integer", "hidden_size"),
    ("negative KV heads", _edit(num_key_value_heads=-8), "range", "num_key_value_heads"),
    ("KV heads not dividing heads", _edit(num_key_value_heads=5), "kv_heads", "num_key_value_heads"),
    ("more KV heads than heads", _edit(num_key_value_heads=64), "kv_heads", "num_key_value_heads"),
    ("mlp_only_layers out of range", _edit(mlp_only_layers=[40]), "layer_index", "mlp_only_layers"),
    ("layer_types holding a number", _edit(layer_types=[1] * 32), "unknown_types", "layer_types"),
    ("modules_to_not_convert a number", _edit(quantization_config=dict(FP8_Q, modules_to_not_convert=5)), "not_text_list",
     "quantization_config.modules_to_not_convert"),
    ("weight_block_size a number", _edit(quantization_config=dict(FP8_Q, weight_block_size=5)), "not_layer_list",
     "quantization_config.weight_block_size"),
    ("attention_bias a string", _edit(attention_bias="no"), "not_bool", "attention_bias"),
    ("text_config a list", _edit(text_config=[1]), "not_object", "text_config"),
    ("nested 25 levels", _edit(extra=json.loads("[" * 25 + "]" * 25)), "too_deep", None),
]


@pytest.mark.parametrize("case,pasted,code,field", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_shapes_are_refused_with_the_field_named(case, pasted, code, field):
    with pytest.raises(byo.ByoError) as err:
        byo.model(pasted)
    assert err.value.code == code, (case, err.value.code, err.value.params)
    assert err.value.params.get("field") == field
    for v in err.value.params.values():      # what a message may quote: short text or a number, never a repr
        assert isinstance(v, (str, int)) and len(str(v)) <= 80 and "[" not in str(v)[:1]


@pytest.mark.parametrize("value", [1e308, float("nan"), "x", [0] * 10, -1000])
def test_norms_per_layer_is_no_config_field(value):
    # it was a family default the reader let a config override (review sections 7 and 8): now ignored like any unknown key
    assert byo.model(_edit(norms_per_layer=value)).total_params == CAT.models["llama-3.1-8b"].total_params


def test_no_catch_all_left_in_byo():
    source = (pathlib.Path(byo.__file__)).read_text()
    assert "except (TypeError" not in source and "except Exception" not in source


# ---------------------------------------------------------------- layouts engines run


def test_tensor_parallel_degree_must_fit_the_heads():
    phi = _model("phi-4")        # 40 heads, 10 KV heads
    assert M.tp_problem(phi, 2) is None
    assert M.tp_problem(phi, 8) == ("num_key_value_heads", 10, Ly.DIVIDES_OR_MULTIPLE)
    assert M.tp_problem(phi, 16) == ("num_attention_heads", 40, Ly.DIVIDES)
    assert M.tp_problem(phi, 5) is None and M.tp_problem(phi, 20) is None     # 20: each KV head on two devices
    shape = D.shape_from_catalog(phi)
    assert F.tp_degrees(shape, 64) == (1, 2)
    err = D.Deployment(tp=8).problem(shape)
    assert err.code == "tp_kv_heads" and err.params == {"tp": 8, "field": "num_key_value_heads", "count": 10}
    # Llama 3.1 70B: 64 heads, 8 KV heads: 16 ways replicates each KV head twice, counted in memory
    l70 = CAT.models["llama-3.1-70b"]
    assert M.tp_problem(l70, 16) is None
    assert M.kv_bytes_per_device(l70, 1000, 1, "bf16", 16) == 80 * 2 * 8 * 128 * 2 * 1000 / 8
    # linear-attention heads: Qwen3-Next's 16 query heads, 2 KV heads, 16 linear key and 32 value heads allow 16 ways
    qn = CAT.models["qwen3-next-80b-a3b"]
    assert M.tp_problem(qn, 16) is None
    assert M.tp_problem(qn, 32) in (("linear_num_key_heads", 16, Ly.DIVIDES), ("num_attention_heads", 16, Ly.DIVIDES))
    assert M.tp_problem(CAT.models["nemotron-h-56b"], 8) is None      # 64 heads, 8 KV heads, 256 Mamba heads


def test_fit_search_offers_only_degrees_the_heads_allow():
    shape = D.shape_from_catalog(_model("phi-4"))
    f = F.fit(shape, 8e9, 4096, 1)            # 29.3 GB of BF16 weights on 8 GB devices
    tp = next(s for s in f.schemes if s.scheme == "tp")
    assert tp.deployment is None                # TP 4 and 8 do not divide the 10 KV heads
    assert all(s.deployment is None or shape.tp_ok(s.deployment.tp) for s in f.schemes)


def test_a_latent_cache_splits_by_layer_and_request_on_groq():
    shape = D.shape_from_catalog(CAT.models["deepseek-v3"])
    f = F.fit_device(shape, CAT.devices["groq-lpu"], 32768, 8)
    assert f.best is not None and f.best.scheme == "dp-attention"
    dep = f.best.deployment
    assert dep.pp > 1 and dep.dp > 1 and dep.held_per_device(shape, 32768, 8) <= 230e6
    # the piece no layout splits: one layer's latent for one request, 32768 x 1152 B = 37.7 MB
    assert F.never_kind(shape, 230e6, 32768, 8) == (F.NEVER_LIMIT, 0.0)
    assert F.never_kind(shape, 30e6, 32768, 8) == (F.NEVER_LAYER, 32768 * 1152)


def test_state_is_held_by_the_fit_and_the_deployment():
    m = CAT.models["nemotron-h-56b"]
    shape = D.shape_from_catalog(m)
    state = 54 * (3 * 20480 * 2 + 256 * 64 * 256 * 2)
    assert shape.state_bytes(8) == 8 * state
    one = D.Deployment(tp=1).held_per_device(shape, 8192, 8)
    assert one == pytest.approx(M.weight_bytes_stored(m) + 8 * (state + 10 * 4096 * 8192))
    assert D.Deployment(tp=4).kv_per_device(shape, 8192, 8) == pytest.approx(8 * (state / 4 + 10 * 4096 * 8192 / 4))


# ---------------------------------------------------------------- as vLLM allocates


def test_vllm_allocation_beside_the_arithmetic():
    al = serving.load().allocators["vllm"]
    # Nemotron-H: attention page 1 x 8 x 256 x 2 = 4,096 B per token; a Mamba page 8,511,488 B;
    # block = 16 x cdiv(8,511,488, 16 x 4,096) = 2,080 tokens; every Mamba page padded to 2,080 x 4,096 B
    r = E.request_memory(arch("nemotron-h-56b-base-8k"), 8192, "bf16", al)
    assert r.block_tokens == 2080
    assert r.state_bytes == 459_620_352 and r.allocated_state_bytes == 54 * 2080 * 4096 == 460_062_720
    assert r.kv_bytes == 10 * 4096 * 8192 and r.allocated_kv_bytes == 10 * 4096 * math.ceil(8192 / 2080) * 2080
    # Qwen3-Next: 2 x 2 x 256 x 2 = 2,048 B per token and layer; GDN page 1,097,728 B -> block 544
    r = E.request_memory(arch("qwen3-next-80b-a3b-thinking"), 1000, "bf16", al)
    assert r.block_tokens == 544 and r.allocated_state_bytes == 36 * 544 * 2048
    assert r.allocated_kv_bytes == 12 * 2048 * 2 * 544
    # Kimi Linear: MLA (1,152 B per token), alignment 64: block 64 x cdiv(2,170,880, 64 x 1,152) = 1,920
    assert E.request_memory(arch("kimi-linear-48b-a3b-instruct"), 8192, "bf16", al).block_tokens == 1920
    # gpt-oss-120b (attention only): pages of 16 tokens; a 128-token sliding layer keeps cdiv(128, 16) + 1 pages
    r = E.request_memory(CAT.models["gpt-oss-120b"].arch, 100_000, "bf16", al)
    per = 2 * 8 * 64 * 2
    assert r.allocated_kv_bytes == 18 * per * 100_000 + 18 * per * (8 + 1) * 16
    assert r.kv_bytes == 18 * per * 100_000 + 18 * per * 128
    with pytest.raises(E.AllocationError):
        E.request_memory(CAT.models["deepseek-v3.2"].arch, 8192, "bf16", al)


# ---------------------------------------------------------------- catalog models in the calculators


NEW_MODELS = ("deepseek-v3.2", "qwen3-next-80b-a3b", "nemotron-h-56b", "llama-4-maverick")


@pytest.mark.parametrize("key", NEW_MODELS)
def test_new_catalog_models_match_their_fixtures_or_cards(key):
    m = CAT.models[key]
    assert catalog.card_agrees(m.total_params, m.card_total_params, m.card_unit)
    assert m.config_file and m.src.url.startswith("https://huggingface.co/")
