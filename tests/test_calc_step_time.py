"""The decode and latency calculators on the calibrated step time (calculators/perf/step_time.py): what a reader sees.

The expected step of the default case (Llama 3.1 70B in BF16 on 8 × H100 SXM, batch 1, 8K context, no engine
named) is recomputed here from step_time's documented formula,

    step = max(weights ÷ (bandwidth × η_w) + KV cache ÷ (bandwidth × η_kv), FLOPs ÷ (devices × peak × u))
           + τ × layers + all-reduces × (latency + message ÷ all-reduce bandwidth),

with the bytes and FLOPs from Llama 3.1 70B's config.json, the published attention slopes and all-reduce points
(as serving.toml quotes them) and the fitted constants read from calculators/data/step_time.toml as data; never
from the code under test. The rows' words are written out in each language.
"""

from __future__ import annotations

import html
import math
import pathlib
import tomllib

import pytest

from calculators.data import catalog
from calculators.text import fmt
from calculators.ui import inputs
from calculators.ui import worker as ui
from sitebuild.strings import Strings

CAT = catalog.load()
STRINGS = Strings()
LANGS = fmt.LOCALES
CONSTANTS = tomllib.loads((pathlib.Path(__file__).parent.parent / "calculators" / "data" / "step_time.toml").read_text())
NBSP = "\u00a0"

# Llama 3.1 70B (config.json): hidden 8192, 80 layers, 64 query / 8 KV heads of 128, MLP 28672, vocabulary 128256.
HIDDEN, LAYERS, HEADS, KV_HEADS, HEAD, MLP, VOCAB = 8192, 80, 64, 8, 128, 28672, 128256
HBM, PEAK_BF16 = 3.35e12, 989e12            # H100 SXM: HBM3 bandwidth, dense BF16 peak (datasheet)
TP, CONTEXT = 8, 8192


def _hand_expected() -> dict:
    """The default decode step, term by term, by hand."""
    p = CONSTANTS["parameters"]
    per_layer = 2 * HIDDEN * HIDDEN + 2 * HIDDEN * KV_HEADS * HEAD + 3 * HIDDEN * MLP + 2 * HIDDEN   # q, o, k, v; MLP; 2 norms
    # every layer, the lm_head, the final norm and one row of the input embedding, BF16, an eighth per device
    weights = (LAYERS * per_layer + VOCAB * HIDDEN + HIDDEN + HIDDEN) * 2 / TP
    kv = CONTEXT * LAYERS * 2 * KV_HEADS * HEAD * 2 / TP                  # K and V, split by the 8 KV heads
    eta_w = p["weights_efficiency"]["nvidia"]
    # η_kv on Hopper: the mean of the published slopes' shares of peak (Llama 3.1 8B: 131,072 B per token of context
    # read in 4.37e-5 ms; gpt-oss-20b: 24,576 B in 8.94e-6 ms; vLLM blog, 2026-04-22)
    eta_kv = (131_072 / 4.37e-8 / HBM + 24_576 / 8.94e-9 / HBM) / 2
    memory = weights / (eta_w * HBM) + kv / (eta_kv * HBM)
    # FLOPs: 2 per parameter a token passes (all but the input embedding) + 4 x heads x head dim x context per layer
    params_passed = LAYERS * per_layer + VOCAB * HIDDEN + HIDDEN
    compute = (2 * params_passed + 4 * HEADS * HEAD * CONTEXT * LAYERS) / TP / (PEAK_BF16 * p["compute"]["mfu"])
    # no engine named: the geometric mean of the fixed costs of the engines calibrated on NVIDIA devices
    taus = [v for k, v in p["fixed_per_layer_s"].items() if k.endswith("/nvidia") and "-eager" not in k]
    tau = math.exp(sum(math.log(v) for v in taus) / len(taus))
    fixed = LAYERS * tau                                                   # dense layers, none latent: weight 1 each
    # vLLM's custom all-reduce on 8 x H100 (sgl-project/sglang PR 2904): least-squares line through the points
    pts = [(512, 10.1e-6), (4096, 9.3e-6), (32768, 11.8e-6), (262144, 24.1e-6), (524288, 30.4e-6), (1048576, 45.0e-6)]
    n = len(pts)
    sx, sy = sum(x for x, _ in pts), sum(y for _, y in pts)
    slope = (n * sum(x * y for x, y in pts) - sx * sy) / (n * sum(x * x for x, _ in pts) - sx * sx)
    each = (sy - slope * sx) / n + HIDDEN * 2 * slope                      # one token's activations, BF16
    comm = 2 * LAYERS * each
    step = max(memory, compute) + fixed + comm
    band = CONSTANTS["band"]
    return {"memory": memory, "compute": compute, "tau": tau, "fixed": fixed, "each": each, "comm": comm, "step": step,
            "low": step * band["low"], "high": step * band["high"]}


def _rows(name: str, lang: str, **texts) -> list:
    """(label, value) of each result row as the page shows it, non-breaking spaces as plain ones."""
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    out = ui.evaluate(name, dict(ui.default_texts(name, lang), **texts), lang, tr)
    assert out["ok"], out["errors"]
    rows = ui.CALCULATORS[name].run({k: v for k, v in _values(name, texts).items()}, lang, CAT).rows
    return [(r.heading(tr).replace(NBSP, " "), r.text(tr).replace(NBSP, " ")) for r in rows]


def _values(name: str, texts: dict) -> dict:
    """Typed texts as the calculator's values (the tests here type only keys and plain whole numbers)."""
    return {k: int(v) if v.isdigit() else v for k, v in texts.items()}


def _q(value: float, kind: str, lang: str) -> str:
    return fmt.format_quantity(value, kind, lang).replace(NBSP, " ")


def _range(low: float, high: float, kind: str, lang: str) -> str:
    return fmt.format_quantity_range(low, high, kind, lang).replace(NBSP, " ")


TYPICALLY = {"en": "{value}, typically {range}", "de": "{value}, typisch {range}", "da": "{value}, typisk {range}",
             "it": "{value}, di solito {range}"}
LABELS = {
    "en": ("Time per step, expected (calibrated)", "of which reading weights and KV cache",
           "of which fixed cost per layer ({units} weighted layers × {each})", "of which communication ({count} collectives × {each})",
           "Arithmetic (overlaps the reads; counts where it takes longer)", "What sets the pace", "memory-bound",
           "Speed per request, expected", "Throughput of the batch, expected"),
    "de": ("Zeit pro Schritt, erwartet (kalibriert)", "davon Lesen von Gewichten und KV-Cache",
           "davon feste Kosten pro Schicht ({units} gewichtete Schichten × {each})",
           "davon Kommunikation ({count} kollektive Operationen × {each})",
           "Rechnen (überlappt mit dem Lesen; zählt, wo es länger dauert)", "Was das Tempo bestimmt", "speichergebunden",
           "Geschwindigkeit pro Anfrage, erwarteter Wert", "Durchsatz des Batches, erwarteter Wert"),
    "da": ("Tid pr. trin, forventet (kalibreret)", "heraf læsning af vægte og KV-cache",
           "heraf fast omkostning pr. lag ({units} vægtede lag × {each})",
           "heraf kommunikation ({count} kollektive operationer × {each})",
           "Beregning (overlapper læsningen; tæller kun, når den tager længere tid)", "Hvad der sætter tempoet", "hukommelsesbundet",
           "Hastighed pr. forespørgsel, forventet værdi", "Batchens gennemløb, forventet værdi"),
    "it": ("Tempo per passo, atteso (calibrato)", "di cui lettura di pesi e cache KV",
           "di cui costo fisso per strato ({units} strati pesati × {each})",
           "di cui comunicazione ({count} operazioni collettive × {each})",
           "Calcolo (si sovrappone alla lettura; conta dove richiede di più)", "Che cosa detta il ritmo", "limitato dalla memoria",
           "Velocità per richiesta, valore atteso", "Throughput del batch, valore atteso"),
}


def test_the_hand_computation_is_memory_bound_and_slower_than_the_ceiling():
    h = _hand_expected()
    assert h["compute"] < h["memory"] / 100
    ceiling = ((LAYERS * (2 * HIDDEN * HIDDEN + 2 * HIDDEN * 1024 + 3 * HIDDEN * MLP + 2 * HIDDEN) + VOCAB * HIDDEN + 2 * HIDDEN) * 2
               + CONTEXT * LAYERS * 2 * 1024 * 2) / TP / HBM
    assert h["step"] > 2 * ceiling and h["low"] < h["step"] < h["high"]


@pytest.mark.parametrize("lang", LANGS)
def test_llama_70b_on_8_h100_expected_step_by_hand(lang):
    h = _hand_expected()
    label = LABELS[lang]
    typically = lambda v, lo, hi, kind: TYPICALLY[lang].format(value=_q(v, kind, lang), range=_range(lo, hi, kind, lang))  # noqa: E731
    rows = _rows("decode", lang)
    start = [i for i, (k, _) in enumerate(rows) if k == label[0]][0]
    want = [
        (label[0], typically(h["step"], h["low"], h["high"], "seconds")),
        (label[1], _q(h["memory"], "seconds", lang)),
        (label[2].format(units=fmt.format_number(80, lang), each=_q(h["tau"], "seconds", lang)), _q(h["fixed"], "seconds", lang)),
        (label[3].format(count=fmt.format_number(160, lang), each=_q(h["each"], "seconds", lang)), _q(h["comm"], "seconds", lang)),
        (label[4], _q(h["compute"], "seconds", lang)),
        (label[5], label[6]),
        (label[7], typically(1 / h["step"], 1 / h["high"], 1 / h["low"], "tok_per_s")),
        (label[8], typically(1 / h["step"], 1 / h["high"], 1 / h["low"], "tok_per_s")),
    ]
    assert rows[start:start + len(want)] == want
    assert len(rows) == start + len(want), "speculative decoding is off: nothing follows the expected throughput"


# ------------------------------------------------------------------ what sets the pace, named in four languages

PACE = {  # (inputs, the pace in each language): fixed cost per layer (SGLang's on a small model), communication
    "fixed": ({"model": "llama-3.1-8b", "engine": "sglang"},
              {"en": "fixed cost per layer", "de": "feste Kosten pro Schicht", "da": "fast omkostning pr. lag",
               "it": "costo fisso per strato"}),
    "communication": ({"model": "llama-3.1-8b", "weight_precision": "fp8"},
                      {"en": "communication", "de": "Kommunikation", "da": "kommunikation", "it": "comunicazione"}),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(PACE))
def test_what_sets_the_pace_is_named(case, lang):
    texts, words = PACE[case]
    rows = dict(_rows("decode", lang, **texts))
    assert rows[LABELS[lang][5]] == words[lang]


# ------------------------------------------------------------------ the engine: a choice, and where nothing calibrates it

ENGINE = {"en": ("Engine", "unspecified engine (mean of the calibrated ones)"),
          "de": ("Engine", "nicht genannte Engine (Mittel der kalibrierten)"),
          "da": ("Inferensserver", "inferensserver, der ikke er nævnt (gennemsnit af de kalibrerede)"),
          "it": ("Motore", "motore non indicato (media di quelli calibrati)")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["decode", "latency"])
def test_the_engine_field_in_four_languages(name, lang):
    tr = lambda m: STRINGS.get(m, lang)  # noqa: E731
    field = ui.CALCULATORS[name].field("engine")
    assert tr(field.label) == ENGINE[lang][0]
    assert field.options(CAT, tr) == [("generic", ENGINE[lang][1]), ("vllm", "vLLM"), ("sglang", "SGLang"),
                                      ("trtllm", "TensorRT-LLM")]


NOT_CALIBRATED = {
    "en": "no expected value: no published measurement calibrates this device",
    "de": "kein erwarteter Wert, denn für diesen Beschleuniger gibt es keine veröffentlichte Messung zum Kalibrieren",
    "da": "ingen offentliggjort måling kalibrerer denne accelerator",
    "it": "nessun valore atteso: nessuna misura pubblicata calibra questo acceleratore",
}
ENGINE_NOT_CALIBRATED = {
    "en": "no published measurement calibrates {engine} on this device",
    "de": "keine veröffentlichte Messung von {engine} auf diesem Beschleuniger, an der sich das Rechenmodell kalibrieren ließe",
    "da": "ingen offentliggjort måling kalibrerer {engine} på denne accelerator",
    "it": "nessuna misura pubblicata calibra {engine} su questo acceleratore",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_device_no_measurement_calibrates_shows_the_ceiling_and_says_why(lang):
    rows = _rows("decode", lang, device="sn40l")
    assert rows[-1] == (LABELS[lang][0], NOT_CALIBRATED[lang])
    assert not any(k in (LABELS[lang][7], LABELS[lang][8], LABELS[lang][5]) for k, _ in rows)


@pytest.mark.parametrize("lang", LANGS)
def test_an_engine_no_measurement_calibrates_on_the_device_is_named(lang):
    # TensorRT-LLM is measured on NVIDIA devices only
    rows = _rows("decode", lang, device="mi300x", engine="trtllm")
    assert rows[-1] == (LABELS[lang][0], ENGINE_NOT_CALIBRATED[lang].format(engine="TensorRT-LLM"))
    assert _rows("decode", lang, device="mi300x")[-1][0] == LABELS[lang][8]     # no engine named: calibrated on AMD


def test_the_engines_fixed_costs_order_the_expected_times():
    # TensorRT-LLM's fixed cost per layer is the smallest fitted on NVIDIA, SGLang's the largest
    p = CONSTANTS["parameters"]["fixed_per_layer_s"]
    assert p["trtllm/nvidia"] < p["vllm/nvidia"] < p["sglang/nvidia"]
    step = {e: dict(_rows("decode", "en", engine=e))["Time per step, expected (calibrated)"] for e in ("trtllm", "vllm")}
    assert float(step["trtllm"].split(" ")[0]) < float(step["vllm"].split(" ")[0])


# ------------------------------------------------------------------ speculative decoding

@pytest.mark.parametrize("lang", LANGS)
def test_speculative_speed_comes_with_its_typical_range(lang):
    rows = dict(_rows("decode", lang, spec_k="2"))
    label = {"en": "Speed per request, expected, with speculative decoding",
             "de": "Geschwindigkeit pro Anfrage, erwarteter Wert, mit spekulativem Decoding",
             "da": "Hastighed pr. forespørgsel, forventet værdi, med spekulativ decoding",
             "it": "Velocità per richiesta, valore atteso, con speculative decoding"}[lang]
    value, typical = rows[label].split(TYPICALLY[lang].split("{value}")[1].split("{range}")[0])
    band = CONSTANTS["band"]
    # the band of the verify step's speed: the speed divided by the held-out spread of measured ÷ expected time
    speed = float(value.split(" ")[0].replace(",", ".") if lang != "en" else value.split(" ")[0])
    low, high = (float(x.replace(",", ".") if lang != "en" else x) for x in typical.split(" ")[0].split("–"))
    assert low == pytest.approx(speed / band["high"], rel=0.01) and high == pytest.approx(speed / band["low"], rel=0.01)


# ------------------------------------------------------------------ the latency calculator

LATENCY_LABELS = {
    "en": ("Time to first token", "End-to-end latency, lower bound (at the ceiling speed)",
           "Agent loop, lower bound (at the ceiling speed)", "Speed per request, expected"),
    "de": ("Zeit bis zum ersten Token", "Ende-zu-Ende-Latenz, Untergrenze (bei der Obergrenze der Geschwindigkeit)",
           "Agentenschleife, Untergrenze (bei der Obergrenze der Geschwindigkeit)", "Geschwindigkeit pro Anfrage, erwarteter Wert"),
    "da": ("Tid til første token", "Ende-til-ende-latens, nedre grænse (ved loftet for hastigheden)",
           "Agentløkke, nedre grænse (ved loftet for hastigheden)", "Hastighed pr. forespørgsel, forventet værdi"),
    "it": ("Tempo al primo token", "Latenza end-to-end, limite inferiore (alla velocità del tetto)",
           "Ciclo agentico, limite inferiore (alla velocità del tetto)", "Velocità per richiesta, valore atteso"),
}
TTFT_UNKNOWN = {
    "en": "unknown: {device} has no published dense BF16 peak, so the prompt's arithmetic cannot be timed",
    "de": "unbekannt, denn für {device} ist keine BF16-Spitzenleistung ohne Sparsity veröffentlicht; die Rechenzeit "
          "des Prompts lässt sich daher nicht bestimmen",
    "da": "ukendt, for der er ikke offentliggjort nogen BF16-spidsydelse uden sparsity for {device}, så promptens "
          "regnetid kan ikke bestemmes",
    "it": "sconosciuto: per {device} non è pubblicato alcun picco BF16 senza sparsità, quindi il tempo di calcolo del "
          "prompt non si può determinare",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("device, layout", [("wse-3", {"devices": "4"}), ("groq-lpu", {"devices": "2048", "pp": "32"}),
                                            ("mi355x", {"devices": "2"})])
def test_latency_without_a_dense_bf16_peak_says_the_first_token_is_unknown(device, layout, lang):
    # WSE-3 publishes no peak, Groq's LPU FP16 and INT8 only, MI355X only FP4; none is calibrated either
    rows = dict(_rows("latency", lang, device=device, **layout))
    labels = LATENCY_LABELS[lang]
    assert rows[labels[0]] == TTFT_UNKNOWN[lang].format(device=CAT.devices[device].name)
    assert rows[labels[3]] == NOT_CALIBRATED[lang]
    assert rows[labels[1]] == rows[labels[2]] == "\u2013"


# Written out here, not read from the locale files: the sentence for several calls and no tool time.
D_NO_TTFT = {
    "en": "The wait for the first token is unknown (no published dense BF16 peak), so the bars leave it out: each call "
          "takes {decode} for its answer; {steps} calls in a row take {loop} plus their waits for the first token.",
    "de": "Die Wartezeit auf das erste Token ist unbekannt (keine BF16-Spitzenleistung ohne Sparsity veröffentlicht), "
          "daher fehlt sie in den Balken: Jeder Aufruf braucht {decode} für seine Antwort; {steps} Aufrufe nacheinander "
          "dauern {loop} zuzüglich der Wartezeiten auf ihr erstes Token.",
    "da": "Ventetiden på det første token er ukendt (ingen offentliggjort BF16-spidsydelse uden sparsity), så søjlerne "
          "udelader den: hvert kald tager {decode} for sit svar; {steps} kald tager {loop} plus "
          "ventetiderne på deres første token.",
    "it": "L'attesa del primo token non è nota (nessun picco BF16 senza sparsità pubblicato), quindi le barre la "
          "tralasciano: ogni chiamata richiede {decode} per la risposta; {steps} chiamate una dopo l'altra richiedono "
          "{loop} più le attese del primo token.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_latency_chart_says_the_first_tokens_wait_is_left_out(lang):
    # Llama 3.1 70B on 4 WSE-3: the answer's and the loop's times as the calculator computes them, in the sentence
    texts = dict(ui.default_texts("latency", lang), device="wse-3", devices="4")
    out = ui.evaluate("latency", texts, lang, lambda m: STRINGS.get(m, lang))
    assert out["ok"], out["errors"]
    p = inputs.latency_parts(dict(ui.CALCULATORS["latency"].defaults, device="wse-3", devices=4), CAT)
    assert p["ttft"] is None and p["loop"] == pytest.approx(p["steps"] * p["decode"])
    want = D_NO_TTFT[lang].format(decode=fmt.format_quantity(p["decode"], "seconds", lang),
                                  steps=fmt.format_number(p["steps"], lang),
                                  loop=fmt.format_quantity(p["loop"], "seconds", lang))
    assert want in html.unescape(out["chart"])


@pytest.mark.parametrize("lang", LANGS)
def test_latency_on_a_device_no_measurement_calibrates_gives_lower_bounds(lang):
    # A100 80GB: a dense BF16 peak (so a time to first token), no calibration: the answer at the ceiling's speed
    rows = dict(_rows("latency", lang, device="a100-80gb"))
    labels = LATENCY_LABELS[lang]
    ceiling = next(v for k, v in rows.items() if k.startswith({"en": "Speed per request, ceiling", "de": "Geschwindigkeit pro Anfrage, Obergrenze",
                                                                 "da": "Hastighed pr. forespørgsel, loft", "it": "Velocità per richiesta, tetto"}[lang]))
    assert rows[labels[3]] == NOT_CALIBRATED[lang] and ceiling
    assert rows[labels[1]] != "\u2013" and rows[labels[2]] != "\u2013"


# ------------------------------------------------------------------ links from before the engine field

def test_an_old_link_with_efficiency_and_latency_opens_without_them():
    state = {"efficiency": "85", "latency_us": "10", "batch": "4"}
    texts = ui.texts_from_state("decode", state, "en")
    assert "efficiency" not in texts and "latency_us" not in texts and texts["batch"] == "4" and texts["engine"] == "generic"
    out = ui.evaluate("decode", texts, "en", lambda m: m)
    assert out["ok"] and out["state"] == {"batch": "4"}


@pytest.mark.parametrize("lang", LANGS)
def test_one_call_with_tool_time_reads_in_the_singular(lang):
    """An agent loop of one call with 2 s of tools: the label and the sentence agree with one ("1 calls" was a bug)."""
    texts = dict(ui.default_texts("latency", lang), steps="1", tool_s=fmt.format_number(2, lang))
    out = ui.evaluate("latency", texts, lang, lambda m: STRINGS.get(m, lang))
    assert out["ok"], out["errors"]
    chart = html.unescape(out["chart"])
    one = {"en": "1 call takes", "de": "dauert 1 Aufruf", "da": "tager 1 kald", "it": "1 chiamata richiede"}[lang]
    loop = {"en": "agent loop, 1 call<", "de": "Agentenschleife, 1 Aufruf<", "da": "agentløkke, 1 kald<",
            "it": "ciclo agentico, 1 chiamata<"}[lang]
    assert one in chart and loop in chart, chart[:2000]
    assert fmt.format_quantity(2.0, "seconds", lang) in chart
