"""The measurement dataset (calculators/article/measurements.toml): validated whole, every row sourced,
and the split into fitting and held-out rows exactly as its rule says.

Fault injection: a row that loses its source, its address or an impossible value fails with the
file, the line of the row and the field, in one line.
"""

from __future__ import annotations

import re

import pytest

from calculators.article import measurements as M
from calculators.data.sources import DataError

DATA = M.load()
TEXT = M.text()


def _header_line(key: str) -> int:
    return next(n for n, line in enumerate(TEXT.splitlines(), 1) if line.strip() == f'[measurements."{key}"]')


def _without(key: str, field: str) -> str:
    """The file with one field of one row removed."""
    lines = TEXT.splitlines()
    start = _header_line(key)
    for i in range(start, len(lines)):
        if lines[i].startswith(f"{field} = "):
            del lines[i]
            return "\n".join(lines) + "\n"
        if lines[i].startswith("["):
            break
    raise AssertionError(f"{key} has no field {field}")


def _replaced(key: str, field: str, value: str) -> str:
    lines = TEXT.splitlines()
    for i in range(_header_line(key), len(lines)):
        if lines[i].startswith(f"{field} = "):
            lines[i] = f"{field} = {value}"
            return "\n".join(lines) + "\n"
    raise AssertionError(field)


ROW = "dstack-r1-h200-vllm-i3200-o800-c4"


def test_the_dataset_loads_with_enough_rows_for_a_fit_and_a_held_out_set():
    assert len(DATA.rows) >= 40
    fit, held = DATA.of_split("fit"), DATA.of_split("held-out")
    assert len(fit) >= 40 and len(held) >= 15


@pytest.mark.parametrize("field", ["source", "url", "accessed", "confidence", "kind", "note"])
def test_a_row_missing_its_source_fails_with_file_line_and_field(field):
    with pytest.raises(DataError) as err:
        M.load_text(_without(ROW, field))
    message = str(err.value)
    assert message.startswith(f"{M.PATH}:{_header_line(ROW)}: entry 'measurements.{ROW}', field '{field}'"), message
    assert "\n" not in message


@pytest.mark.parametrize("field,value,problem", [
    ("tpot_ms", "30.0", "does not follow from tpot_ms"),
    ("device", '"h800"', "unknown device"),
    ("engine", '"llama.cpp"', "unknown engine"),
    ("tp", "4", "8 GPUs but tp 4"),
    ("date", '"March 2025"', "not YYYY"),
    ("url", '"http://example.com"', "not an https address"),
    ("commit", '"abc"', "not a 40-digit commit"),
    ("model", '"someone/else"', "unknown checkpoint"),
])
def test_an_impossible_value_is_refused_naming_the_row_and_field(field, value, problem):
    with pytest.raises(DataError) as err:
        M.load_text(_replaced(ROW, field, value))
    assert f"{M.PATH}:{_header_line(ROW)}: entry 'measurements.{ROW}', field '{field if field != 'tp' else 'gpus'}'" in str(err.value)
    assert problem in str(err.value)


def test_an_unstated_kv_format_needs_the_assumption_named():
    key = "nim-llama33-70b-h100x2-fp8-i5000-o500-c1"
    with pytest.raises(DataError) as err:
        M.load_text(_without(key, "kv_precision_assumed"))
    assert f"entry 'measurements.{key}', field 'kv_precision_assumed'" in str(err.value)


def test_a_split_naming_an_unknown_source_is_refused_at_its_line():
    broken = TEXT.replace('held_out_sources = ["amd-rocm-hub-performance-results"', 'held_out_sources = ["nobody"')
    with pytest.raises(DataError) as err:
        M.load_text(broken)
    line = next(n for n, s in enumerate(TEXT.splitlines(), 1) if s.strip() == "[split]")
    assert str(err.value).startswith(f"{M.PATH}:{line}: entry 'split', field 'held_out_sources'")


def test_every_row_is_sourced_with_a_date_or_a_reason_and_its_repository_commit():
    for r in DATA.rows.values():
        assert r.src.url.startswith("https://") and r.src.accessed and r.src.confidence
        assert r.date or "date" in TEXT  # a missing date carries date_note (checked by the loader)
        if "github.com" in r.src.url and "/blob/" in r.src.url:
            assert re.fullmatch(r"[0-9a-f]{40}", r.commit), r.key


def test_tpot_follows_from_the_published_value_by_hand():
    # 1000 / 111 tokens per second per user = 9.009 ms; 15.882 s for 2048 tokens = 7.755 ms per token
    assert M.derive("tok_s_per_user", 111.0, 2048) == pytest.approx(9.009009)
    assert M.derive("e2e_latency_s", 15.882, 2048) == pytest.approx(7.7549, rel=1e-4)
    assert M.derive("itl_ms", 18.58, 500) == 18.58


# ----------------------------------------------------------------------------- the split rule

def test_the_split_is_the_stated_rule_and_nothing_else():
    sources, workloads = set(DATA.held_out_sources), set(DATA.held_out_workloads)
    for r in DATA.rows.values():
        rule = r.source_id in sources or (r.source_id, r.input_tokens, r.output_tokens) in workloads
        assert r.held_out == rule, r.key


def test_the_rule_holds_out_whole_sources_and_second_workloads():
    assert set(DATA.held_out_sources) == {"amd-rocm-hub-performance-results", "oci-blog-llama405b-mi300x"}
    assert ("dstack-dsr1-h200-mi300x-2025-03", 1024, 1024) in DATA.held_out_workloads
    held = DATA.of_split("held-out")
    # every row of a held-out source is held out, whatever its concurrency
    for r in DATA.rows.values():
        if r.source_id in DATA.held_out_sources:
            assert r.held_out
    assert all(r.input_tokens == 1024 and r.output_tokens == 1024 for r in held if r.source_id.startswith("dstack-dsr1"))


def test_the_held_out_set_spans_sources_devices_and_engines():
    held = DATA.of_split("held-out")
    assert len({r.source_id for r in held}) >= 3
    assert len({r.device for r in held}) >= 3
    assert len({r.engine for r in held}) >= 3


def test_fitting_and_held_out_sets_are_disjoint_and_excluded_rows_in_neither():
    fit = {r.key for r in DATA.of_split("fit")}
    held = {r.key for r in DATA.of_split("held-out")}
    excluded = {r.key for r in DATA.of_split("excluded")}
    assert not fit & held and not fit & excluded and not held & excluded
    assert fit | held | excluded == set(DATA.rows)
    for key in excluded:
        assert DATA.rows[key].exclude_note
