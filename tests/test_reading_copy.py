"""The reading copy (`make text`): what the calculators can show is all there, named by its input, in a stable order."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

import pytest

from calculators.data import catalog
from calculators.text.message import Plural
from calculators.ui import checks, config_messages, fields, messages, worker
from sitebuild import calc_text

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("reading_copy_tool", ROOT / "tools" / "reading_copy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["reading_copy_tool"] = module
    spec.loader.exec_module(module)
    return module


def _pattern(template) -> re.Pattern:
    """A msgid with its placeholders as wildcards; a plural message: either form."""
    if isinstance(template, Plural):
        return re.compile("|".join(_pattern(form).pattern for form in (template.one, template.other)))
    return re.compile(".*?".join(re.escape(p) for p in re.split(r"\{[^}]*\}", template)))


@pytest.fixture(scope="module")
def english_msgids() -> str:
    """The sweep with msgids untranslated: every message as the code declares it."""
    cat = catalog.load()
    identity = lambda msgid, context=None: msgid  # noqa: E731
    found = []
    for name in worker.CALCULATORS:
        found += calc_text.calculator_cases(name, "en", identity, cat)
    return calc_text.render(found + calc_text.page_cases("en", identity))   # the page's own lines (FAILED) too


def _messages() -> dict:
    out = {name: m for name, m in vars(checks).items() if name.startswith("M_")}
    # "invalid" is the fallback for a code without a message of its own: every code the config reader raises has one
    out.update({f"config.{code}": m for code, m in config_messages.MESSAGES.items() if code != "invalid"})
    out.update({f"config.unmodelled.{kind}": m for kind, m in config_messages.UNMODELLED.items()})
    out.update({f"field.{code}": m for code, m in fields.PARSE_MESSAGES.items()})
    out.update({"config.NO_LINK": config_messages.NO_LINK, "FAILED": messages.FAILED})
    return out


@pytest.mark.parametrize("name", sorted(_messages()))
def test_every_error_message_a_reader_can_get_is_in_the_sweep(english_msgids, name):
    assert _pattern(_messages()[name]).search(english_msgids), \
        f"{name} ({_messages()[name]!r}) is not reached: add an input that produces it to sitebuild/calc_text.py"


def test_every_option_of_every_select_field_is_a_case():
    cat = catalog.load()
    headings = {c.heading for c in calc_text.cases("da", cat=cat) if c.calc == "decode"}
    for f in worker.CALCULATORS["decode"].fields:
        if isinstance(f, fields.ChoiceField):
            default = worker.CALCULATORS["decode"].defaults[f.name]
            for key, _ in f.options(cat, lambda m: m):
                assert key == default or f"{f.name} = {key}" in headings


def test_cases_are_translated_and_name_their_input():
    found = calc_text.cases("it")
    default = next(c for c in found if c.calc == "kv_cache" and c.heading == "defaults")
    assert any("Cache KV" in line or "cache KV" in line for line in default.lines), default.lines
    empty = next(c for c in found if c.calc == "decode" and "(empty)" in c.heading)
    assert empty.lines and "“”" in empty.heading


def test_the_calculators_text_is_stable():
    assert calc_text.render(calc_text.cases("de")) == calc_text.render(calc_text.cases("de"))


@pytest.mark.parametrize("rel, target", [("index.html", "de/index.txt"), ("decode/index.html", "de/decode.txt"),
                                         ("404.html", "de/404.txt"), ("da/index.html", "da/index.txt"),
                                         ("it/factcheck/index.html", "it/factcheck.txt"),
                                         ("de/decode/index.html", None), ("assets/x.html", None)])
def test_pages_go_to_one_folder_per_language(rel, target):
    got = _tool().page_target(pathlib.PurePath(rel))
    assert (got.as_posix() if got else None) == target


def test_the_reading_copy_has_every_variant_of_the_running_example_and_the_control_s_messages():
    """Reviewers read each sentence of the running example in every variant (sitebuild/example_text.py), and what the
    example control says to a choice the article cannot explain."""
    from calculators.data import catalog
    from calculators.example.render import SAYS
    from sitebuild import example_text
    found = example_text.cases("da", calc_text.translator("da"), catalog.load())
    variants = sum(len(s.variants) * len(s.pages) for s in SAYS.values())
    said = [c for c in found if "example control" not in c.heading]
    assert len(said) == variants and all(c.lines and c.lines[0] for c in said)
    refused = [c for c in found if "example control" in c.heading]
    assert len(refused) == len(example_text.REFUSED) and all(c.lines for c in refused), refused
