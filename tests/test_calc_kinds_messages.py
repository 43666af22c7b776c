"""What a reader sees of the 2026 layer kinds (HANDOFF-19.md), word for word, in the four languages.

Each message is triggered through the calculators as a reader would (a pasted config.json, a layout, a
device) and compared with its text written out here in each language: the refusals of a config.json the
calculators do not read, the summary of each new layer kind, the fixed state, the MTP modules, one
request's cache and state as computed and as vLLM allocates it, the state a decode step moves, the
tensor-parallel layouts engines cannot run, the fit's indivisible piece and the note under "your
config.json". The numbers are derived by hand from the configs (tests/fixtures/configs) where they are
computed; otherwise they are the config's own.
"""

from __future__ import annotations

import html
import json
import pathlib
import re

import pytest

from calculators.data import byo, catalog, serving
from calculators.text import fmt
from calculators.ui import worker as ui
from sitebuild import widgets
from sitebuild.strings import Strings

CAT = catalog.load()
STRINGS = Strings()
LANGS = fmt.LOCALES
NBSP = "\u00a0"
FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "configs"
BASE = json.loads((FIXTURES / "mistral-7b-v0.1.json").read_text())
BAD = re.compile(r"\bNaN\b|\bnan\b|\binf\b|Infinity|undefined|\bNone\b|Traceback|\{\w*\}")


def kinds(name: str) -> str:
    return (FIXTURES / "kinds" / f"{name}.json").read_text()


def pasted(**changes) -> str:
    """Mistral 7B's config.json with some fields changed or added."""
    return json.dumps(dict(BASE, **changes))


def tr_for(lang: str):
    return lambda msgid: STRINGS.get(msgid, lang)


def evaluate(name: str, lang: str, **texts) -> dict:
    return ui.evaluate(name, dict(ui.default_texts(name, lang), **texts), lang, tr_for(lang))


def rows(name: str, lang: str, **texts) -> dict:
    """{label: value} of the result table as the page shows it (plain text, plain spaces)."""
    out = evaluate(name, lang, **texts)
    assert out["ok"], out["errors"]
    cells = re.findall(r'<th scope="row">(.*?)</th><td>(.*?)</td>', out["html"])
    text = lambda cell: html.unescape(re.sub(r"<[^>]+>", "", cell)).replace(NBSP, " ")  # noqa: E731
    return {text(th): text(td) for th, td in cells}


def refusal(lang: str, config: str) -> str:
    out = evaluate("kv_cache", lang, model=byo.BYO, config=config)
    assert not out["ok"] and set(out["errors"]) == {"config"}, out["errors"]
    return out["errors"]["config"]


# ------------------------------------------------------------------ refusals: a code, or a kind not modelled

_KIMI = json.loads(kinds("kimi-linear-48b-a3b-instruct"))     # 27 layers; KDA and MLA layers listed 1-based
_NEMOTRON = json.loads(kinds("nemotron-h-56b-base-8k"))        # 118 layers in hybrid_override_pattern


def _kimi(layers: int | None = None, **lac) -> str:
    cfg = dict(_KIMI, linear_attn_config=dict(_KIMI["linear_attn_config"], **lac))
    return json.dumps(dict(cfg, num_hidden_layers=layers) if layers else cfg)


def _nested(depth: int) -> str:
    value = 1
    for _ in range(depth):
        value = {"a": value}
    return pasted(extra=value)


REFUSALS = {
    "not_text": (pasted(model_type=5), {
        "en": "In config.json, model_type must be a string (text in quotation marks).",
        "de": "In config.json muss model_type ein Text sein.",
        "da": "I config.json skal model_type være tekst.",
        "it": "In config.json, model_type deve essere un testo."}),
    "not_bool": (pasted(tie_word_embeddings="yes"), {
        "en": "In config.json, tie_word_embeddings must be true or false (without quotation marks).",
        "de": "In config.json muss tie_word_embeddings true oder false sein (ohne Anführungszeichen).",
        "da": "I config.json skal tie_word_embeddings være true eller false (uden anførselstegn).",
        "it": "In config.json, tie_word_embeddings deve essere true o false (senza virgolette)."}),
    "not_object": (pasted(text_config=5), {
        "en": "In config.json, text_config must be a JSON object.",
        "de": "In config.json muss text_config ein JSON-Objekt sein.",
        "da": "I config.json skal text_config være et JSON-objekt.",
        "it": "In config.json, text_config deve essere un oggetto JSON."}),
    "not_text_list": (pasted(architectures="MistralForCausalLM"), {
        "en": "In config.json, architectures must be a list of names.",
        "de": "In config.json muss architectures eine Liste von Namen sein.",
        "da": "I config.json skal architectures være en liste af navne.",
        "it": "In config.json, architectures deve essere un elenco di nomi."}),
    "not_layer_list": (_kimi(kda_layers="all"), {
        "en": "In config.json, kda_layers must be a list of layer numbers.",
        "de": "In config.json muss kda_layers eine Liste von Schichtnummern sein.",
        "da": "I config.json skal kda_layers være en liste af lagnumre.",
        "it": "In config.json, kda_layers deve essere un elenco di numeri di strato."}),
    "layer_index": (_kimi(full_attn_layers=[4, 8, 99]), {
        "en": "In config.json, full_attn_layers names layer 99, but the layers are numbered 1 to 27.",
        "de": "In config.json nennt full_attn_layers die Schicht 99, die Schichten sind aber von 1 bis 27 nummeriert.",
        "da": "I config.json nævner full_attn_layers lag 99, men lagene er nummereret fra 1 til 27.",
        "it": "In config.json, full_attn_layers indica lo strato 99, ma gli strati sono numerati da 1 a 27."}),
    "layer_cover, one layer": (_kimi(1, kda_layers=[1], full_attn_layers=[1]), {
        "en": "In config.json, linear_attn_config must assign the 1 layer to exactly one kind.",
        "de": "In config.json muss linear_attn_config die 1 Schicht genau einer Art zuordnen.",
        "da": "I config.json skal linear_attn_config tildele det 1 lag præcis én slags.",
        "it": "In config.json, linear_attn_config deve assegnare 1 strato a un solo tipo."}),
    "layer_cover, 27 layers": (_kimi(kda_layers=[1, 2, 3]), {
        "en": "In config.json, linear_attn_config must assign each of the 27 layers to exactly one kind.",
        "de": "In config.json muss linear_attn_config jede der 27 Schichten genau einer Art zuordnen.",
        "da": "I config.json skal linear_attn_config tildele hvert af de 27 lag præcis én slags.",
        "it": "In config.json, linear_attn_config deve assegnare ciascuno dei 27 strati a un solo tipo."}),
    "pattern": (kinds("nemotron-h-56b-base-8k").replace("M-M-M-M*-", "E-M-M-M*-", 1), {
        "en": "In config.json, hybrid_override_pattern names block kinds the calculators do not model: E (modeled: M, *, -).",
        "de": "In config.json nennt hybrid_override_pattern Blockarten, die die Rechner nicht abbilden: E (abgebildet: M, *, -).",
        "da": "I config.json nævner hybrid_override_pattern bloktyper, som beregnerne ikke modellerer: E (modelleret: M, *, -).",
        "it": "In config.json, hybrid_override_pattern indica tipi di blocco che i calcolatori non modellano: E "
              "(modellati: M, *, -)."}),
    "pattern_length, one layer": (json.dumps(dict(_NEMOTRON, num_hidden_layers=2, hybrid_override_pattern="M")), {
        "en": "In config.json, hybrid_override_pattern describes 1 layer, but num_hidden_layers says 2.",
        "de": "In config.json beschreibt hybrid_override_pattern 1 Schicht, num_hidden_layers nennt aber 2.",
        "da": "I config.json beskriver hybrid_override_pattern 1 lag, men num_hidden_layers siger 2.",
        "it": "In config.json, hybrid_override_pattern descrive 1 strato, ma num_hidden_layers indica 2."}),
    "pattern_length, 117 layers": (json.dumps(dict(_NEMOTRON, hybrid_override_pattern=_NEMOTRON["hybrid_override_pattern"][:-1])), {
        "en": "In config.json, hybrid_override_pattern describes 117 layers, but num_hidden_layers says 118.",
        "de": "In config.json beschreibt hybrid_override_pattern 117 Schichten, num_hidden_layers nennt aber 118.",
        "da": "I config.json beskriver hybrid_override_pattern 117 lag, men num_hidden_layers siger 118.",
        "it": "In config.json, hybrid_override_pattern descrive 117 strati, ma num_hidden_layers indica 118."}),
    "kv_heads": (pasted(num_key_value_heads=3), {
        "en": "In config.json, num_key_value_heads (3) must divide num_attention_heads (32).",
        "de": "In config.json muss num_key_value_heads (3) ein Teiler von num_attention_heads (32) sein.",
        "da": "I config.json skal num_key_value_heads (3) gå op i num_attention_heads (32).",
        "it": "In config.json, num_key_value_heads (3) deve essere un divisore di num_attention_heads (32)."}),
    "unsupported_dtype": (json.dumps(dict(_NEMOTRON, mamba_ssm_cache_dtype="float7")), {
        "en": "In config.json, mamba_ssm_cache_dtype is float7, which the calculators do not support "
              "(supported: bfloat16, float16, float32).",
        "de": "In config.json ist mamba_ssm_cache_dtype auf float7 gesetzt; das unterstützen die Rechner nicht "
              "(unterstützt: bfloat16, float16, float32).",
        "da": "I config.json er mamba_ssm_cache_dtype sat til float7, som beregnerne ikke understøtter "
              "(understøttet: bfloat16, float16, float32).",
        "it": "In config.json, mamba_ssm_cache_dtype vale float7, che i calcolatori non supportano "
              "(supportati: bfloat16, float16, float32)."}),
    "unsupported_block": (pasted(quantization_config={"quant_method": "fp8", "weight_block_size": [64, 64]}), {
        "en": "FP8 weights with blocks of 64 × 64 values are not supported (supported: 128 × 128).",
        "de": "FP8-Gewichte mit Blöcken von 64 × 64 Werten werden nicht unterstützt (unterstützt: 128 × 128).",
        "da": "FP8-vægte med blokke på 64 × 64 værdier understøttes ikke (understøttet: 128 × 128).",
        "it": "I pesi FP8 con blocchi di 64 × 64 valori non sono supportati (supportati: 128 × 128)."}),
    "too_deep": (_nested(25), {
        "en": "This config.json is nested more than 20 levels deep; a model config is not.",
        "de": "Diese config.json ist tiefer als 20 Ebenen verschachtelt; eine Modellkonfiguration ist das nicht.",
        "da": "Denne config.json er indlejret mere end 20 niveauer dybt; så dybt er en modelkonfiguration aldrig indlejret.",
        "it": "Questo config.json è annidato per più di 20 livelli; una configurazione di modello non lo è."}),
    "not_decoder": (json.dumps({"model_type": "t5", "num_hidden_layers": 6, "hidden_size": 512, "num_attention_heads": 8,
                                "vocab_size": 32128}), {
        "en": "t5 is not a decoder-only language model (it is an encoder, an encoder-decoder, or a vision or speech model); "
              "the calculators model decoders that generate one token after another.",
        "de": "t5 ist kein reines Decoder-Sprachmodell (sondern ein Encoder, ein Encoder-Decoder oder ein Bild- oder "
              "Sprachmodell); die Rechner bilden Decoder ab, die ein Token nach dem anderen erzeugen.",
        "da": "t5 er ikke en ren decoder-sprogmodel (men en encoder, en encoder-decoder eller en billed- eller talemodel); "
              "beregnerne modellerer decodere, der genererer ét token ad gangen.",
        "it": "t5 non è un modello linguistico solo decoder (è un encoder, un encoder-decoder o un modello per immagini o "
              "voce); i calcolatori modellano decoder che generano un token dopo l'altro."}),
    # code "unmodelled": one message per kind of layer, naming the fields that signal it
    "unmodelled state_space": (pasted(state_size=16), {
        "en": "config.json describes state-space (Mamba) layers (state_size). The calculators model them only in "
              "Nemotron-H and Jamba configs; for this model family its layer pattern and state sizes would have to be "
              "read. Nothing is computed as attention instead.",
        "de": "config.json beschreibt Mamba-Zustandsraum-Schichten (state_size). Die Rechner bilden sie nur in "
              "Konfigurationen von Nemotron-H und Jamba ab; für diese Modellfamilie müssten ihr Schichtmuster und ihre "
              "Zustandsgrößen gelesen werden. Ersatzweise als Attention gerechnet wird nichts.",
        "da": "config.json beskriver tilstandsrumslag (Mamba) (state_size). Beregnerne modellerer dem kun i "
              "konfigurationer af Nemotron-H og Jamba; for denne modelfamilie skulle lagmønsteret og "
              "tilstandsstørrelserne læses. Intet regnes i stedet som attention.",
        "it": "config.json descrive strati a spazio degli stati (Mamba) (state_size). I calcolatori li modellano solo "
              "nelle configurazioni di Nemotron-H e Jamba; per questa famiglia di modelli servirebbero lo schema degli "
              "strati e le dimensioni dello stato. Non viene calcolato nulla come attention al loro posto."}),
    "unmodelled recurrent": (json.dumps({"model_type": "rwkv", "num_hidden_layers": 24, "hidden_size": 2048,
                                         "vocab_size": 50277}), {
        "en": "config.json describes a recurrent model (model_type) without attention layers the calculators model; its "
              "state sizes would have to be read. Nothing is computed as attention instead.",
        "de": "config.json beschreibt ein rekurrentes Modell (model_type) ohne Attention-Schichten, die die Rechner "
              "abbilden; dafür müssten seine Zustandsgrößen gelesen werden. Ersatzweise als Attention gerechnet wird nichts.",
        "da": "config.json beskriver en rekurrent model (model_type) uden nogen af de attention-lag, som beregnerne modellerer; det "
              "ville kræve, at dens tilstandsstørrelser blev læst. Intet regnes i stedet som attention.",
        "it": "config.json descrive un modello ricorrente (model_type) senza strati di attention che i calcolatori "
              "modellano; servirebbero le dimensioni del suo stato. Non viene calcolato nulla come attention al suo posto."}),
    "unmodelled linear_attention": (pasted(linear_num_key_heads=16), {
        "en": "config.json describes linear-attention layers (linear_num_key_heads). The calculators model them only in "
              "Qwen3-Next (Gated DeltaNet) and Kimi Linear (KDA) configs; for this model family its layer pattern and "
              "state sizes would have to be read. Nothing is computed as attention instead.",
        "de": "config.json beschreibt Schichten mit linearer Attention (linear_num_key_heads). Die Rechner bilden sie nur "
              "in Konfigurationen von Qwen3-Next (Gated DeltaNet) und Kimi Linear (KDA) ab; für diese Modellfamilie "
              "müssten ihr Schichtmuster und ihre Zustandsgrößen gelesen werden. Ersatzweise als Attention gerechnet "
              "wird nichts.",
        "da": "config.json beskriver lag med lineær attention (linear_num_key_heads). Beregnerne modellerer dem kun i "
              "konfigurationer af Qwen3-Next (Gated DeltaNet) og Kimi Linear (KDA); for denne modelfamilie skulle "
              "lagmønsteret og tilstandsstørrelserne læses. Intet regnes i stedet som attention.",
        "it": "config.json descrive strati di attention lineare (linear_num_key_heads). I calcolatori li modellano solo "
              "nelle configurazioni di Qwen3-Next (Gated DeltaNet) e Kimi Linear (KDA); per questa famiglia di modelli "
              "servirebbero lo schema degli strati e le dimensioni dello stato. Non viene calcolato nulla come attention "
              "al loro posto."}),
    "unmodelled sparse_attention": (pasted(index_topk=2048), {
        "en": "config.json describes a sparse-attention indexer (index_topk). The calculators model it only in DeepSeek "
              "V3.2 configs; for this model family its cache and the tokens it reads would have to be known. Nothing is "
              "computed as dense attention instead.",
        "de": "config.json beschreibt einen Sparse-Attention-Indexer (index_topk). Die Rechner bilden ihn nur in "
              "Konfigurationen von DeepSeek V3.2 ab; für diese Modellfamilie müssten sein Cache und die gelesenen Token "
              "bekannt sein. Ersatzweise als dichte Attention gerechnet wird nichts.",
        "da": "config.json beskriver en sparse attention-indekser (index_topk). Beregnerne modellerer den kun i "
              "konfigurationer af DeepSeek V3.2; for denne modelfamilie skulle dens cache og de tokens, den læser, være "
              "kendt. Intet regnes i stedet som tæt attention.",
        "it": "config.json descrive un indicizzatore di sparse attention (index_topk). I calcolatori lo modellano solo "
              "nelle configurazioni di DeepSeek V3.2; per questa famiglia di modelli servirebbero la sua cache e i token "
              "che legge. Non viene calcolato nulla come attention densa al suo posto."}),
    "unmodelled block_sparse_attention": (pasted(dense_attention_every_n_layers=4), {
        "en": "config.json describes block-sparse attention (dense_attention_every_n_layers), which the calculators do "
              "not model; the blocks each layer reads would have to be known. Nothing is computed as dense attention "
              "instead.",
        "de": "config.json beschreibt blockweise spärliche Attention (dense_attention_every_n_layers), die die Rechner "
              "nicht abbilden; dafür müsste bekannt sein, welche Blöcke jede Schicht liest. Ersatzweise als dichte "
              "Attention gerechnet wird nichts.",
        "da": "config.json beskriver blokvis sparse attention (dense_attention_every_n_layers), som beregnerne ikke "
              "modellerer; det ville kræve at vide, hvilke blokke hvert lag læser. Intet regnes i stedet som tæt "
              "attention.",
        "it": "config.json descrive una sparse attention a blocchi (dense_attention_every_n_layers) che i calcolatori non "
              "modellano; servirebbe sapere quali blocchi legge ogni strato. Non viene calcolato nulla come attention "
              "densa al suo posto."}),
    "unmodelled chunked_attention": (pasted(attention_chunk_size=8192), {
        "en": "config.json describes chunked attention (attention_chunk_size). The calculators model it only in Llama 4 "
              "configs; for this model family it would have to be known which layers work in chunks and how large they "
              "are. Nothing is computed as full attention instead.",
        "de": "config.json beschreibt Chunked Attention (attention_chunk_size). Die Rechner bilden sie nur in "
              "Konfigurationen von Llama 4 ab; für diese Modellfamilie müsste bekannt sein, welche Schichten in "
              "Abschnitten rechnen und wie groß diese sind. Ersatzweise als volle Attention gerechnet wird nichts.",
        "da": "config.json beskriver chunked attention (attention_chunk_size). Beregnerne modellerer den kun i "
              "konfigurationer af Llama 4; for denne modelfamilie skulle det være kendt, hvilke lag der regner i "
              "bidder, og hvor store de er. Intet regnes i stedet som fuld attention.",
        "it": "config.json descrive una chunked attention (attention_chunk_size). I calcolatori la modellano solo nelle "
              "configurazioni di Llama 4; per questa famiglia di modelli servirebbe sapere quali strati lavorano a "
              "blocchi e di che dimensione. Non viene calcolato nulla come attention completa al suo posto."}),
    "unmodelled cross_attention": (pasted(cross_attention_layers=[3, 8]), {
        "en": "config.json describes cross-attention layers (cross_attention_layers), whose cache holds the image or "
              "encoder tokens, not the text; the calculators do not model them. Nothing is computed as text attention "
              "instead.",
        "de": "config.json beschreibt Cross-Attention-Schichten (cross_attention_layers), deren Cache die Bild- oder "
              "Encoder-Token hält, nicht den Text; die Rechner bilden sie nicht ab. Ersatzweise als Text-Attention "
              "gerechnet wird nichts.",
        "da": "config.json beskriver cross-attention-lag (cross_attention_layers), hvis cache rummer billed- eller "
              "encoder-tokens, ikke teksten; beregnerne modellerer dem ikke. Intet regnes i stedet som tekst-attention.",
        "it": "config.json descrive strati di cross-attention (cross_attention_layers), la cui cache contiene i token "
              "dell'immagine o dell'encoder, non il testo; i calcolatori non li modellano. Non viene calcolato nulla come "
              "attention sul testo al loro posto."}),
    "unmodelled encoder_decoder": (pasted(is_encoder_decoder=True), {
        "en": "config.json describes an encoder-decoder model (is_encoder_decoder); the calculators model decoder-only "
              "models. Nothing is computed instead.",
        "de": "config.json beschreibt ein Encoder-Decoder-Modell (is_encoder_decoder); die Rechner bilden reine "
              "Decoder-Modelle ab. Ersatzweise gerechnet wird nichts.",
        "da": "config.json beskriver en encoder-decoder-model (is_encoder_decoder); beregnerne modellerer rene "
              "decoder-modeller. Intet regnes i stedet.",
        "it": "config.json descrive un modello encoder-decoder (is_encoder_decoder); i calcolatori modellano solo modelli "
              "decoder. Non viene calcolato nulla al suo posto."}),
    "unmodelled sliding_pattern": (pasted(sliding_window_pattern="LLLG"), {
        "en": "config.json sets the pattern of sliding-window layers in a form the calculators do not read "
              "(sliding_window_pattern); they read layer_types, sliding_window_pattern as a number, and "
              "max_window_layers. Nothing is computed as full attention instead.",
        "de": "config.json legt das Muster der Schichten mit gleitendem Fenster in einer Form fest, die die Rechner nicht "
              "lesen (sliding_window_pattern); sie lesen layer_types, sliding_window_pattern als Zahl und "
              "max_window_layers. Ersatzweise als volle Attention gerechnet wird nichts.",
        "da": "config.json angiver mønsteret af lag med glidende vindue i en form, som beregnerne ikke læser "
              "(sliding_window_pattern); de læser layer_types, sliding_window_pattern som tal og max_window_layers. "
              "Intet regnes i stedet som fuld attention.",
        "it": "config.json definisce lo schema degli strati a finestra scorrevole in una forma che i calcolatori non "
              "leggono (sliding_window_pattern); leggono layer_types, sliding_window_pattern come numero e "
              "max_window_layers. Non viene calcolato nulla come attention completa al suo posto."}),
    "unmodelled mtp": (pasted(num_nextn_predict_layers=1), {
        "en": "config.json describes multi-token-prediction modules (num_nextn_predict_layers) whose shape the "
              "calculators know only for DeepSeek V3, DeepSeek V3.2, GLM-4.5, and MiniMax M2 configs; for this model "
              "family the modules' layers would have to be known. Nothing is computed instead.",
        "de": "config.json beschreibt Module zur Vorhersage mehrerer Token (num_nextn_predict_layers), deren Aufbau die "
              "Rechner nur für Konfigurationen von DeepSeek V3, DeepSeek V3.2, GLM-4.5 und MiniMax M2 kennen; für diese "
              "Modellfamilie müssten die Schichten der Module bekannt sein. Ersatzweise gerechnet wird nichts.",
        "da": "config.json beskriver moduler til forudsigelse af flere tokens (num_nextn_predict_layers), hvis opbygning "
              "beregnerne kun kender for konfigurationer af DeepSeek V3, DeepSeek V3.2, GLM-4.5 og MiniMax M2; for denne "
              "modelfamilie skulle modulernes lag være kendt. Intet regnes i stedet.",
        "it": "config.json descrive moduli di predizione di più token (num_nextn_predict_layers) la cui struttura i "
              "calcolatori conoscono solo per le configurazioni di DeepSeek V3, DeepSeek V3.2, GLM-4.5 e MiniMax M2; per "
              "questa famiglia di modelli servirebbero gli strati dei moduli. Non viene calcolato nulla al loro posto."}),
    "unmodelled moe_pattern": (pasted(moe_layers=[1, 3]), {
        "en": "config.json places or shapes its experts in a way the calculators do not read (moe_layers); it would have "
              "to be known which layers hold experts and how many are shared. Nothing is computed instead.",
        "de": "config.json beschreibt Verteilung oder Form der Experten auf eine Weise, die die Rechner nicht lesen (moe_layers); "
              "dafür müsste bekannt sein, welche Schichten Experten haben und wie viele gemeinsam genutzt werden. "
              "Ersatzweise gerechnet wird nichts.",
        "da": "config.json placerer eller udformer sine eksperter på en måde, som beregnerne ikke læser (moe_layers); det "
              "ville kræve at vide, hvilke lag der har eksperter, og hvor mange der deles. Intet regnes i stedet.",
        "it": "config.json distribuisce o struttura i suoi esperti in un modo che i calcolatori non leggono (moe_layers); "
              "servirebbe sapere quali strati hanno esperti e quanti sono condivisi. Non viene calcolato nulla al loro "
              "posto."}),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(REFUSALS))
def test_each_refusal_says_what_is_wrong_in_the_readers_language(case, lang):
    config, texts = REFUSALS[case]
    assert refusal(lang, config) == texts[lang]


def test_every_code_and_every_kind_a_refusal_can_give_has_its_case_here():
    from calculators.arch import config as A
    from calculators.ui import config_messages
    codes = {case.split(",")[0] for case in REFUSALS if not case.startswith("unmodelled")}
    assert codes == {"not_text", "not_bool", "not_object", "not_text_list", "not_layer_list", "layer_index", "layer_cover",
                     "pattern", "pattern_length", "kv_heads", "unsupported_dtype", "unsupported_block", "too_deep",
                     "not_decoder"} <= set(config_messages.MESSAGES)
    kinds_ = {k for _, k, _ in A.SIGNALS} | set(A.RECURRENT_FAMILIES.values()) | {k for k, _ in A.LAYER_TYPES.values() if k}
    assert kinds_ == {case.split(" ")[1] for case in REFUSALS if case.startswith("unmodelled")} == set(config_messages.UNMODELLED)


# ------------------------------------------------------------------ what was read: the new layer kinds

LAYERS_LABEL = {"en": "Layers by attention kind", "de": "Schichten nach Art der Attention", "da": "Lag fordelt på attention-type",
                "it": "Strati per tipo di attention"}
KIND_SUMMARIES = {  # each fixture's layers, as counted in its config.json
    "qwen3-next-80b-a3b-thinking": {   # full attention every 4th of 48 layers (full_attention_interval 4)
        "en": "36 linear attention (Gated DeltaNet); 12 full attention",
        "de": "36 lineare Attention (Gated DeltaNet); 12 mit voller Attention",
        "da": "36 lineær attention (Gated DeltaNet); 12 med fuld attention",
        "it": "36 attention lineare (Gated DeltaNet); 12 con attention completa"},
    "kimi-linear-48b-a3b-instruct": {  # kda_layers: 20, full_attn_layers (MLA): 7
        "en": "20 Kimi Delta Attention; 7 multi-head latent attention (MLA)",
        "de": "20 Kimi Delta Attention; 7 mit Multi-Head-Latent-Attention (MLA)",
        "da": "20 Kimi Delta Attention; 7 med multi-head latent attention (MLA)",
        "it": "20 Kimi Delta Attention; 7 con multi-head latent attention (MLA)"},
    "nemotron-h-56b-base-8k": {        # hybrid_override_pattern: 54 "M", 54 "-", 10 "*"
        "en": "54 Mamba-2 state-space; 54 MLP only; 10 full attention",
        "de": "54 Mamba-2-Zustandsraum; 54 nur MLP; 10 mit voller Attention",
        "da": "54 Mamba-2-tilstandsrum; 54 kun MLP; 10 med fuld attention",
        "it": "54 a spazio degli stati Mamba-2; 54 solo MLP; 10 con attention completa"},
    "jamba-v0.1": {                    # attention where i % 8 == 4: 4 of 32 layers
        "en": "28 Mamba state-space; 4 full attention",
        "de": "28 Mamba-Zustandsraum; 4 mit voller Attention",
        "da": "28 Mamba-tilstandsrum; 4 med fuld attention",
        "it": "28 a spazio degli stati Mamba; 4 con attention completa"},
    "llama-4-scout-17b-16e-instruct": {  # every 4th of 48 layers global (no_rope_layers), the rest in chunks of 8,192
        "en": "36 chunked attention in chunks of 8,192 tokens; 12 full attention",
        "de": "36 Chunked Attention in Abschnitten zu 8.192 Token; 12 mit voller Attention",
        "da": "36 chunked attention i bidder på 8.192 tokens; 12 med fuld attention",
        "it": "36 chunked attention a blocchi di 8.192 token; 12 con attention completa"},
    "deepseek-v3.2": {                 # 61 layers, index_topk 2048
        "en": "61 sparse multi-head latent attention (top 2,048 tokens)",
        "de": "61 spärliche Multi-Head-Latent-Attention (Top-2.048-Token)",
        "da": "61 sparse multi-head latent attention (top 2.048 tokens)",
        "it": "61 multi-head latent attention sparsa (top 2.048 token)"},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(KIND_SUMMARIES))
def test_each_new_layer_kind_is_named_in_the_summary(name, lang):
    shown = rows("decode", lang, model=byo.BYO, config=kinds(name), device="b200")
    assert shown[LAYERS_LABEL[lang]] == KIND_SUMMARIES[name][lang]


STATE_LABEL = {"en": "Fixed state per request (linear-attention and state-space layers)",
               "de": "Fester Zustand pro Anfrage (lineare Attention und Zustandsraum-Schichten)",
               "da": "Fast tilstand pr. forespørgsel (lineær attention og tilstandsrumslag)",
               "it": "Stato fisso per richiesta (strati di attention lineare e a spazio degli stati)"}
# Qwen3-Next: 36 Gated DeltaNet layers, each a convolution state of (4 - 1) x (2 x 16 x 128 + 32 x 128) and a
# recurrent state of 32 x 128 x 128, BF16: 36 x (3 x 8,192 x 2 + 1,048,576) = 39,518,208 bytes
QWEN_STATE = 36 * (3 * (2 * 16 * 128 + 32 * 128) * 2 + 32 * 128 * 128 * 2)
MTP_LABEL = {"en": "Multi-token prediction modules (stored, not read by plain decode)",
             "de": "Module zur Vorhersage mehrerer Token (gespeichert, beim normalen Decode nicht gelesen)",
             "da": "Moduler til forudsigelse af flere tokens (gemt, læses ikke ved almindelig decode)",
             "it": "Moduli di predizione di più token (memorizzati, non letti dal decode normale)"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_fixed_state_and_the_mtp_modules_are_summarised(lang):
    assert QWEN_STATE == 39_518_208
    qwen = rows("decode", lang, model=byo.BYO, config=kinds("qwen3-next-80b-a3b-thinking"), device="b200")
    assert qwen[STATE_LABEL[lang]] == {"en": "39.5 MB", "de": "39,5 MB", "da": "39,5 MB", "it": "39,5 MB"}[lang]
    assert MTP_LABEL[lang] not in qwen                          # no MTP modules in its config
    dsv32 = rows("decode", lang, model=byo.BYO, config=kinds("deepseek-v3.2"), device="b200")
    assert dsv32[MTP_LABEL[lang]] == fmt.format_quantity(byo.model(kinds("deepseek-v3.2")).arch.mtp_params(), "params",
                                                         lang).replace(NBSP, " ")
    assert STATE_LABEL[lang] not in dsv32                       # attention only: no fixed state


# ------------------------------------------------------------------ one request's cache and state, and how vLLM holds it

REQUEST = {"en": ("Cache and state of one request, as calculated",
                  "Cache and state of one request, as vLLM allocates it (pages of {block} tokens)"),
           "de": ("Cache und Zustand einer Anfrage, gerechnet",
                  "Cache und Zustand einer Anfrage, wie vLLM sie belegt (Seiten zu {block} Token)"),
           "da": ("Cache og tilstand for én forespørgsel, beregnet",
                  "Cache og tilstand for én forespørgsel, som vLLM allokerer dem (sider på {block} tokens)"),
           "it": ("Cache e stato di una richiesta, calcolati",
                  "Cache e stato di una richiesta, come li alloca vLLM (pagine da {block} token)")}


@pytest.mark.parametrize("lang", LANGS)
def test_one_requests_cache_and_state_as_computed_and_as_vllm_allocates_it(lang):
    comma = lambda text: text if lang == "en" else text.replace(".", ",")  # noqa: E731
    # Llama 3.1 70B at the default 32,768 tokens: 80 x 2 x 8 x 128 x 2 bytes per token = 10.7 GB; pages of 16 tokens
    # hold exactly 32,768 tokens, so vLLM holds the same
    llama = rows("kv_cache", lang)
    assert llama[REQUEST[lang][0]] == llama[REQUEST[lang][1].format(block="16")] == comma("10.7 GB")
    # Qwen3-Next at 4,096 tokens: 12 full-attention layers of 2 x 2 x 256 x 2 = 2,048 bytes per token and the state
    # (39,518,208 bytes): 140 MB. vLLM makes one page hold a whole state layer: 16 x cdiv(1,097,728, 16 x 2,048) = 544
    # tokens; 12 layers x cdiv(4,096, 544) = 8 pages x 544 x 2,048 + 36 state layers x 544 x 2,048 = 147 MB
    assert 12 * 4096 * 2048 + QWEN_STATE == 140_181_504
    assert 12 * 8 * 544 * 2048 + 36 * 544 * 2048 == 147_062_784
    qwen = rows("kv_cache", lang, model=byo.BYO, config=kinds("qwen3-next-80b-a3b-thinking"), context="4096")
    assert qwen[REQUEST[lang][0]] == "140 MB" and qwen[REQUEST[lang][1].format(block="544")] == "147 MB"
    assert qwen[STATE_LABEL[lang]] == comma("39.5 MB")
    assert list(qwen).count(STATE_LABEL[lang]) == 1, "the summary does not repeat the calculator's own row"
    # DeepSeek V3.2: its sparse attention's page layout is not read in vLLM's source, so only the arithmetic
    dsv32 = rows("kv_cache", lang, model=byo.BYO, config=kinds("deepseek-v3.2"), context="4096")
    assert REQUEST[lang][0] in dsv32 and not any(k.startswith(REQUEST[lang][1].split("(")[0]) and k != REQUEST[lang][0]
                                                 for k in dsv32)


def test_the_allocated_row_links_the_allocators_source():
    out = evaluate("kv_cache", "en")
    url = serving.load().allocators["vllm"].src.url
    assert url.startswith("https://github.com/vllm-project/vllm/blob/")
    assert f'<td><a href="{html.escape(url)}" rel="noopener">10.7{NBSP}GB</a></td>' in out["html"]


# ------------------------------------------------------------------ the state a decode step moves

@pytest.mark.parametrize("lang", LANGS)
def test_the_decode_step_reads_and_writes_back_the_fixed_state(lang):
    # Qwen3-Next on 8 x H100: each device reads and writes back an eighth of the state: 2 x 39,518,208 / 8 / 3.35 TB/s
    label = {"en": "Reading and writing back the fixed state", "de": "Lesen und Zurückschreiben des festen Zustands",
             "da": "Læsning og tilbageskrivning af den faste tilstand", "it": "Lettura e riscrittura dello stato fisso"}[lang]
    assert 2 * QWEN_STATE / 8 / 3.35e12 == pytest.approx(2.95e-6, abs=0.005e-6)
    shown = rows("decode", lang, model="qwen3-next-80b-a3b", context="4096")
    assert shown[label] == ("2.95 µs" if lang == "en" else "2,95 µs")
    assert label not in rows("decode", lang)                    # Llama 3.1 70B holds no fixed state


# ------------------------------------------------------------------ layouts engines cannot run

TP = {
    "tp_heads": ({"devices": "6"}, {      # Llama 3.1 70B: 64 query heads do not split 6 ways
        "en": "Tensor parallelism over 6 devices needs num_attention_heads (64) to be a multiple of 6: engines split the "
              "heads evenly. Choose a count that divides 64.",
        "de": "Tensor-Parallelität über 6 Beschleuniger setzt voraus, dass num_attention_heads (64) ein Vielfaches von 6 "
              "ist: Engines teilen die Köpfe gleichmäßig auf. Wählen Sie eine Anzahl, die 64 teilt.",
        "da": "Tensorparallelisme over 6 acceleratorer kræver, at num_attention_heads (64) er et multiplum af 6: "
              "inferensserverne deler hovederne ligeligt. Vælg et antal, der går op i 64.",
        "it": "Il parallelismo tensoriale su 6 acceleratori richiede che num_attention_heads (64) sia un multiplo di 6: i "
              "motori di serving dividono le teste in parti uguali. Scegli un numero che divida 64."}),
    "tp_kv_heads": ({"model": "minimax-m2", "devices": "12"}, {   # MiniMax M2: 48 heads split 12 ways, 8 KV heads not
        "en": "Tensor parallelism over 12 devices needs num_key_value_heads (8) to be a multiple of 12, or 12 to be a "
              "multiple of 8 (several devices then hold the same KV head). Choose a count that fits.",
        "de": "Tensor-Parallelität über 12 Beschleuniger setzt voraus, dass num_key_value_heads (8) ein Vielfaches von 12 "
              "ist oder 12 ein Vielfaches von 8 (dann halten mehrere Beschleuniger denselben KV-Kopf). Wählen Sie eine "
              "passende Anzahl.",
        "da": "Tensorparallelisme over 12 acceleratorer kræver, at num_key_value_heads (8) er et multiplum af 12, eller at "
              "12 er et multiplum af 8 (så har flere acceleratorer det samme KV-hoved). Vælg et antal, der passer.",
        "it": "Il parallelismo tensoriale su 12 acceleratori richiede che num_key_value_heads (8) sia un multiplo di 12, "
              "oppure che 12 sia un multiplo di 8 (allora più acceleratori tengono la stessa testa KV). Scegli un numero "
              "adatto."}),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["decode", "latency"])
@pytest.mark.parametrize("code", list(TP))
def test_a_tensor_parallel_degree_the_heads_do_not_allow_is_refused(code, name, lang):
    texts, words = TP[code]
    out = evaluate(name, lang, **texts)
    assert not out["ok"] and out["errors"] == {"devices": words[lang]}


def test_a_stage_is_checked_on_its_own_tensor_parallel_degree():
    # 12 devices in 2 stages: 6 per stage, which 64 heads do not allow; 16 in 2 stages: 8, which they do
    assert "6 devices" in evaluate("decode", "en", devices="12", pp="2")["errors"]["devices"]
    assert evaluate("decode", "en", devices="16", pp="2")["ok"]


# ------------------------------------------------------------------ the fit: the piece no layout splits

@pytest.mark.parametrize("lang", LANGS)
def test_the_fit_names_one_layers_cache_and_state_when_it_exceeds_a_device(lang):
    # Llama 4 Maverick at 1,048,576 tokens: a global layer's K and V of one KV head, 2 x 128 x 2 bytes per token,
    # = 537 MB, more than a Groq LPU's 230 MB of SRAM; a head is the smallest part tensor parallelism splits off
    assert 1_048_576 * 2 * 128 * 2 == 536_870_912
    want = {
        "en": "–: one layer's KV cache and state for one request, split by head as far as the heads go (537 MB), exceed "
              "the memory of one device (230 MB)",
        "de": "–: KV-Cache und Zustand einer Schicht für eine Anfrage, so weit nach Köpfen geteilt wie möglich (537 MB), "
              "übersteigen den Speicher eines Beschleunigers (230 MB)",
        "da": "–: ét lags KV-cache og tilstand for én forespørgsel, delt efter hoveder, så langt det går (537 MB), "
              "overstiger hukommelsen i én accelerator (230 MB)",
        "it": "–: la cache KV e lo stato di uno strato per una richiesta, divisi per teste fin dove possibile (537 MB), "
              "superano la memoria di un acceleratore (230 MB)"}
    shown = rows("fit", lang, model="llama-4-maverick", context="1M", batch="1")
    assert shown["Groq LPU"] == want[lang]


# ------------------------------------------------------------------ the note under "your config.json"

NOTE = {
    "en": "The calculators model decoders with these layers: full and grouped-query attention, sliding-window attention, "
          "chunked attention, multi-head latent attention, also sparse (DeepSeek), linear attention (Gated DeltaNet, Kimi "
          "Delta Attention), Mamba state-space layers, mixture of experts with shared experts, and MTP modules. A config "
          "with other layers (cross-attention, encoder-decoder, other recurrent or sparse designs) is refused with the "
          "reason, never computed as full attention. Vision encoders are not counted.",
    "de": "Die Rechner bilden Decoder mit diesen Schichten ab: volle Attention und Grouped-Query-Attention, Attention mit "
          "gleitendem Fenster, Chunked Attention, Multi-Head-Latent-Attention, auch spärlich (DeepSeek), lineare "
          "Attention (Gated DeltaNet, Kimi Delta Attention), Mamba-Zustandsraum-Schichten, Mixture of Experts mit "
          "gemeinsamen Experten und MTP-Module. Eine Konfiguration mit anderen Schichten (Cross-Attention, "
          "Encoder-Decoder, andere rekurrente oder spärliche Bauarten) wird mit Begründung zurückgewiesen, nie als volle "
          "Attention gerechnet. Bild-Encoder werden nicht gezählt.",
    "da": "Beregnerne modellerer decodere med disse lag: fuld attention og grouped-query attention, attention med "
          "glidende vindue, chunked attention, multi-head latent attention, også sparse (DeepSeek), lineær attention "
          "(Gated DeltaNet, Kimi Delta Attention), Mamba-tilstandsrumslag, mixture of experts med delte eksperter og "
          "MTP-moduler. En konfiguration med andre lag (cross-attention, encoder-decoder, andre rekurrente eller sparse "
          "konstruktioner) afvises med en begrundelse og regnes aldrig som fuld attention. Billed-encodere tælles ikke "
          "med.",
    "it": "I calcolatori modellano decoder con questi strati: attention completa e grouped-query attention, attention a "
          "finestra scorrevole, chunked attention, multi-head latent attention, anche sparsa (DeepSeek), attention "
          "lineare (Gated DeltaNet, Kimi Delta Attention), strati a spazio degli stati Mamba, mixture of experts con "
          "esperti condivisi e moduli MTP. Una configurazione con altri strati (cross-attention, encoder-decoder, altre "
          "architetture ricorrenti o sparse) viene rifiutata con la motivazione, mai calcolata come attention completa. "
          "Gli encoder di immagini non sono contati.",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(ui.CALCULATORS))
def test_the_config_field_says_which_layers_are_modelled(name, lang):
    page = widgets.render(name, lang, tr_for(lang))
    note = re.search(rf'<p class="calc-help" id="{name}-config-help">(.*?)</p>', page)
    assert note and html.unescape(note.group(1)) == NOTE[lang]
    assert f'aria-describedby="{name}-config-error {name}-config-help"' in page
    # it sits in the config.json field, shown only when "your config.json" is chosen
    field = re.search(r'<div class="calc-field calc-byo" hidden>(.*?)</div>', page, re.S).group(1)
    assert f'id="{name}-config-help"' in field


# ------------------------------------------------------------------ every kind, pasted, through every calculator

LAYOUT = {"phi-4": {"devices": "2"}}        # 10 KV heads: two devices split them, eight do not


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES / "kinds").glob("*.json") if p.stem != "SOURCES"))
def test_every_pasted_kind_through_every_calculator_as_the_browser_asks(name, lang):
    """The browser's entry point (worker.handle, JSON in and out): a result or a field's message, never the generic
    failure, a traceback, a NaN or an unfilled placeholder."""
    for calc in ui.CALCULATORS:
        texts = dict(ui.default_texts(calc, lang), model=byo.BYO, config=kinds(name))
        for field, text in {"device": "b200", "context": "4096", **LAYOUT.get(name, {})}.items():
            if field in texts:
                texts[field] = text
        out = json.loads(ui.handle(json.dumps({"calc": calc, "locale": lang, "texts": texts})))
        assert "failure" not in out and "debug" not in out, (name, calc, out.get("debug", "")[-500:])
        shown = out["html"] + out["chart"] + " ".join(out["errors"].values())
        assert not BAD.search(shown), (name, calc, BAD.search(shown).group(0))
        if name == "llama-3.2-11b-vision-instruct":        # cross-attention: refused, with its message
            assert not out["ok"] and set(out["errors"]) == {"config"}
        else:
            assert out["ok"], (name, calc, out["errors"])
