"""A device is one entry: adding one makes every calculator work with it; a device missing a part does not load.

The entry is the one a newcomer writes (README, "Add a device"): a [devices.<key>] table
in calculators/data/catalog.toml with its memory, bandwidth, peaks, power and engine, and
its [devices.<key>.node] table (devices per node and the interconnect between them). The
numbers the calculators print for it are recomputed here by hand from that entry.
"""

from __future__ import annotations

import copy
import tomllib

import pytest

from calculators.data import catalog, sources
from calculators.text import fmt
from calculators.ui import checks, config_messages, decode, fields, inputs, messages
from calculators.ui import fit as fit_calc
from calculators.ui import worker as ui

TEXT = catalog.text()

X200 = '''
[devices.x200]
name = "Example X200"
memory = [{ tier = "HBM3e", bytes = 192e9, bytes_per_s = 6e12 }]
serving_tier = "HBM3e"
peak_flops = { bf16 = 1500e12, fp8 = 3000e12 }
power_w = 900
engine = "vllm"
source = "Example X200 datasheet"
kind = "datasheet"
url = "https://example.org/x200"
accessed = "2026-12-02"
confidence = "high"

[devices.x200.node]
size = 8
interconnect = "nvlink5"
source = "Example X200 platform"
kind = "datasheet"
url = "https://example.org/x200-platform"
accessed = "2026-12-02"
confidence = "high"
'''


def _with_device(text: str) -> str:
    """The catalog with an entry appended to the devices section (before the racks)."""
    i = TEXT.index("# ---------------------------------------------------------------------- racks")
    return TEXT[:i] + text.lstrip("\n") + "\n" + TEXT[i:]


@pytest.fixture
def x200(monkeypatch):
    cat = catalog.load_text(_with_device(X200))
    monkeypatch.setattr(catalog, "load", lambda: cat)
    return cat


def test_a_new_device_is_one_entry(x200):
    d = x200.devices["x200"]
    assert d.node.size == 8 and d.link.key == "nvlink5" and d.usable_fraction == 0.9
    assert d.serving.bytes_per_s == 6e12 and d.peak_flops["fp8"] == 3000e12


@pytest.mark.parametrize("locale", fmt.LOCALES)
@pytest.mark.parametrize("name", sorted(ui.CALCULATORS))
def test_every_calculator_works_with_a_new_device(x200, name, locale):
    texts = ui.default_texts(name, locale)
    if "device" in texts:
        texts["device"] = "x200"
    out = ui.evaluate(name, texts, locale, lambda m: m)
    assert out["ok"], out["errors"]
    assert "Example X200" in out["html"] or name in ("fit",) or "x200" in str(out["state"])
    assert "nan" not in out["html"].lower() and "Traceback" not in out["html"]


def test_the_new_devices_numbers_by_hand(x200):
    """Llama 3.1 70B on 8 x X200, batch 1: weights read in (read bytes / 8) / 6 TB/s. The fit: 141.1 GB of BF16 weights
    + 8,192 tokens x 327,680 B of KV cache = 143.8 GB, under 90 % (vLLM's share) of 192 GB = 172.8 GB: one device."""
    texts = dict(ui.default_texts("decode", "en"), device="x200", devices="8")
    out = ui.evaluate("decode", texts, "en", lambda m: m)
    assert out["ok"], out["errors"]
    # Llama 3.1 70B's weights read per token at batch 1 (BF16): (70.55e9 - 128256 * 8192 + 8192) * 2 bytes
    # = all parameters but the input embedding table, plus one of its rows
    read = (70_553_706_496 - 128_256 * 8192 + 8192) * 2
    assert fmt.format_quantity(read / 8 / 6e12, "seconds", "en").replace("\u00a0", " ") in out["html"].replace("\u00a0", " ")
    fit = ui.CALCULATORS["fit"].run({"model": "llama-3.1-70b", "context": 8192, "batch": 1}, "en", catalog.load())
    row = next(r for r in fit.rows if r.label == "Example X200").text(lambda m: m)
    assert row == "1; deployed: 1 (90% of memory usable)", row


# ------------------------------------------------------------ a device with a part missing

REQUIRED = [
    ("memory", "memory", lambda d: d.pop("memory")),
    ("serving bandwidth", "serving_tier", lambda d: d.update(memory=[{"tier": "HBM3e", "bytes": 192e9}])),
    ("serving tier", "serving_tier", lambda d: d.update(serving_tier="SRAM")),
    ("peaks", "peak_flops", lambda d: d.pop("peak_flops")),
    ("no peak, no reason", "peak_unpublished", lambda d: d.update(peak_flops={})),
    ("engine", "engine", lambda d: d.pop("engine")),
    ("unknown engine", "engine", lambda d: d.update(engine="tgi")),
    ("node", "node", lambda d: d.pop("node")),
    ("node size", "size", lambda d: d["node"].pop("size")),
    ("node interconnect", "interconnect", lambda d: d["node"].pop("interconnect")),
    ("unknown interconnect", "interconnect", lambda d: d["node"].update(interconnect="nvlink9")),
    ("node source", "source", lambda d: d["node"].pop("source")),
]


@pytest.mark.parametrize("what,field,edit", REQUIRED, ids=[r[0] for r in REQUIRED])
def test_a_device_missing_a_part_is_one_line_naming_file_entry_and_field(what, field, edit):
    raw = tomllib.loads(_with_device(X200))
    edit(raw["devices"]["x200"])
    with pytest.raises(sources.DataError) as err:
        catalog.parse_catalog(raw)
    assert err.value.entry in ("devices.x200", "devices.x200.node") and err.value.field == field
    # through the file: one line, file and line of the entry first
    text = _with_device(X200)
    located = err.value.locate(catalog.PATH, text)
    message = str(located)
    assert "\n" not in message and message.startswith(f"{catalog.PATH}:{located.line}: entry '{err.value.entry}', field '{field}'")
    assert located.line and text.splitlines()[located.line - 1].startswith("[devices.x200")


def test_a_typo_in_the_file_names_the_line():
    broken = _with_device(X200.replace('serving_tier = "HBM3e"', 'serving_tier = "HBM3"'))
    with pytest.raises(sources.DataError) as err:
        catalog.load_text(broken)
    line = next(n for n, l in enumerate(broken.splitlines(), 1) if l == "[devices.x200]")
    assert str(err.value) == (f"calculators/data/catalog.toml:{line}: entry 'devices.x200', field 'serving_tier': "
                              "names no tier in memory: 'HBM3' (tiers: HBM3e)")


# ------------------------------------------------------------ links and engines

RAW = tomllib.loads(TEXT)

LINK_CASES = [
    ("no url", lambda r: r["interconnects"]["nvlink4"].pop("url"), "interconnects.nvlink4", "url"),
    ("no bandwidth, no reason", lambda r: (r["interconnects"]["infinity-fabric"].pop("bytes_per_s"),
                                           r["interconnects"]["infinity-fabric"].pop("unpublished")),
     "interconnects.infinity-fabric", "unpublished"),
    ("latency without its measurement", lambda r: r["interconnects"]["nvlink4"].pop("latency_source"),
     "interconnects.nvlink4", "latency_source"),
    ("latency without what was measured", lambda r: r["interconnects"]["nvlink4"].pop("latency_note"),
     "interconnects.nvlink4", "latency_note"),
    ("latency source without a date", lambda r: r["interconnects"]["nvlink5"].pop("latency_accessed"),
     "interconnects.nvlink5", "latency_accessed"),
    ("negative latency", lambda r: r["interconnects"]["nvlink5"].update(latency_s=-1e-6), "interconnects.nvlink5", "latency_s"),
    ("reserve above 1", lambda r: r["engines"]["vllm"].update(usable_fraction=1.2), "engines.vllm", "usable_fraction"),
]


@pytest.mark.parametrize("what,edit,entry,field", LINK_CASES, ids=[c[0] for c in LINK_CASES])
def test_each_mistake_in_links_and_engines_is_named(what, edit, entry, field):
    raw = copy.deepcopy(RAW)
    edit(raw)
    with pytest.raises(sources.DataError) as err:
        catalog.parse_catalog(raw)
    assert err.value.entry == entry and err.value.field == field
