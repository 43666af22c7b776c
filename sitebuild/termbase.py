"""The termbase: locales/terms/<lang>.toml, one file per language, read and validated.

Why a file per language with the same ids (format: the project's
TERMBASE-FORMAT.md): each language's reviewer owns one file, and the checks
compare them id by id. Read here with tomllib at build time; the browser
never needs the whole termbase (a calculator that prints a counted noun gets
the two forms passed in, see calculators/text/grammar.py).

Fields this module reads, besides the agreed ones (term, plural, gender,
article, english, forbidden, note):

- ``plural``: also the form calculators/text/grammar.py puts after a number other
  than one ("8 KV-Köpfe"); without it the noun is taken as invariable.
- ``[meta] spelling = "US"`` (en): turns on the US-spelling list of
  sitebuild/spelling.py on top of the file's own ``forbidden`` variants.

Validation (`problems`): every file parses; [meta] has language (equal to
the file name), register and spelling; the four files have the same ids,
every id being lowercase with hyphens; every term has a non-empty ``term``;
``forbidden`` is a list of strings, valid regexes where marked "re:", and
none of them matches the chosen term (or its plural) itself; the byte and
billion symbols are the ones calculators/text/fmt.py prints.
"""

from __future__ import annotations

import pathlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache

from calculators.text import fmt

from .strings import LANGS

TERMS_DIR = pathlib.PurePosixPath("locales/terms")
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REQUIRED_META = ("language", "register", "spelling")
REQUIRED_IDS = tuple("""prefill decode decode-step kv-cache token context-length batch batching throughput
tokens-per-second time-to-first-token end-to-end-latency memory-bandwidth memory-bound compute-bound peak
ceiling expected weights parameters active-parameters mixture-of-experts expert attention
grouped-query-attention kv-head head-dim multi-head-latent-attention sliding-window layer hbm sram ddr
memory-tier dataflow-architecture rdu lpu wse socket rack roofline arithmetic-intensity tensor-parallelism
pipeline-parallelism expert-parallelism speculative-decoding quantisation calculator fact-check claim verdict
site-model byte-symbol billion-symbol""".split())
# Symbols chosen once in calculators/text/fmt.py; the termbase must name the same ones.
SYMBOL_TERMS = {"byte-symbol": fmt.BYTE_SYMBOL, "billion-symbol": fmt.BILLION_SYMBOL}


@dataclass(frozen=True)
class Finding:
    """A problem of a termbase file (sitebuild/checks/terms.py reports it as a build error).

    Not a checks.Problem: this module is read by the page macros and the
    glossary too, and must not import the checks package (no import cycle).
    """

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


class TermbaseError(ValueError):
    """A termbase file that cannot be used; the message names file and line where known."""


@dataclass(frozen=True)
class Term:
    id: str
    term: str
    plural: str | None = None
    gender: str | None = None
    article: str | None = None
    english: bool = False
    forbidden: tuple = ()
    note: str | None = None

    def forms(self) -> tuple:
        """The written forms of the term (singular, plural)."""
        return tuple(dict.fromkeys(f for f in (self.term, self.plural) if f))


@dataclass
class Termbase:
    lang: str
    rel: str
    meta: dict
    terms: dict = field(default_factory=dict)     # {id: Term}
    lines: dict = field(default_factory=dict)     # {id: line of its [terms.id] header}

    def get(self, term_id: str) -> Term:
        try:
            return self.terms[term_id]
        except KeyError:
            raise KeyError(f"{self.rel}: no term {term_id!r}; known: {', '.join(sorted(self.terms))}") from None


def path(root: pathlib.Path, lang: str) -> pathlib.Path:
    return pathlib.Path(root) / TERMS_DIR / f"{lang}.toml"


def _header_lines(text: str) -> dict:
    """{id: line} of every [terms.<id>] header, so that problems can name the line."""
    out = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r'^\s*\[\s*terms\.("?)([^\]"]+)\1\s*\]', line)
        if m:
            out.setdefault(m.group(2).strip(), n)
    return out


def parse(text: str, lang: str, rel: str) -> tuple:
    """(Termbase or None, [Finding]) of one file's text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        return None, [Finding(rel, int(m.group(1)) if m else 0, f"not valid TOML: {exc}")]
    lines = _header_lines(text)
    out: list = []
    meta = data.get("meta")
    if not isinstance(meta, dict):
        out.append(Finding(rel, 1, "no [meta] table: add language, register and spelling"))
        meta = {}
    for key in REQUIRED_META:
        if not isinstance(meta.get(key), str) or not meta.get(key):
            out.append(Finding(rel, 1, f"[meta] needs {key} = \"...\" (see TERMBASE-FORMAT.md)"))
    if meta.get("language") and meta.get("language") != lang:
        out.append(Finding(rel, 1, f"[meta] language = {meta['language']!r} in the file for {lang!r}"))
    base = Termbase(lang, rel, meta, lines=lines)
    raw_terms = data.get("terms")
    if not isinstance(raw_terms, dict):
        return base, out + [Finding(rel, 1, "no [terms.<id>] tables")]
    for tid, entry in raw_terms.items():
        term, found = _term(tid, entry, rel, lines.get(tid, 0))
        out += found
        if term:
            base.terms[tid] = term
    return base, out


def _term(tid: str, entry, rel: str, line: int) -> tuple:
    where = f"[terms.{tid}]"
    bad = lambda msg: Finding(rel, line, f"{where}: {msg}")  # noqa: E731
    if not ID.match(tid):
        return None, [bad("an id is lowercase letters, digits and hyphens (kv-cache)")]
    if not isinstance(entry, dict):
        return None, [bad("must be a table")]
    term = entry.get("term")
    if not isinstance(term, str) or not term.strip():
        return None, [bad('needs term = "the chosen word"')]
    out = []
    forbidden = entry.get("forbidden", [])
    if not isinstance(forbidden, list) or not all(isinstance(f, str) and f for f in forbidden):
        out.append(bad("forbidden must be a list of non-empty strings"))
        forbidden = []
    for key in ("plural", "gender", "article", "note"):
        if key in entry and not isinstance(entry[key], str):
            out.append(bad(f"{key} must be a string"))
    if "english" in entry and not isinstance(entry["english"], bool):
        out.append(bad("english must be true or false"))
    t = Term(tid, term, entry.get("plural") if isinstance(entry.get("plural"), str) else None,
             entry.get("gender"), entry.get("article"), entry.get("english") is True, tuple(forbidden),
             entry.get("note"))
    for variant in t.forbidden:
        try:
            pattern = variant_pattern(variant)
        except re.error as exc:
            out.append(bad(f"forbidden {variant!r} is not a valid regex ({exc})"))
            continue
        for form in t.forms():
            if pattern.search(form):
                out.append(bad(f"forbidden variant {variant!r} matches the chosen term {form!r} itself: "
                               f"every use of the term would be an error; remove or narrow the variant"))
    return t, out


@lru_cache(maxsize=None)
def variant_pattern(variant: str) -> re.Pattern:
    """A forbidden variant as a pattern: whole word, case-sensitive; "re:..." is a regex."""
    body = variant[3:] if variant.startswith("re:") else re.escape(variant)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


def problems(root: pathlib.Path, langs=LANGS) -> list:
    """Every problem of the termbase files, and of their agreement with each other."""
    out, bases = [], {}
    for lang in langs:
        p = path(root, lang)
        rel = f"{TERMS_DIR}/{lang}.toml"
        if not p.exists():
            out.append(Finding(rel, 0, f"missing termbase {rel} (format: TERMBASE-FORMAT.md)"))
            continue
        tb, found = parse(p.read_text(encoding="utf-8"), lang, rel)
        out += found
        if tb:
            bases[lang] = tb
    all_ids = set(REQUIRED_IDS).union(*(tb.terms for tb in bases.values()))
    for lang, tb in bases.items():
        for tid in sorted(all_ids - set(tb.terms)):
            others = [l for l, b in bases.items() if tid in b.terms]
            why = "a required id" if tid in REQUIRED_IDS else f"in {', '.join(others)}.toml"
            out.append(Finding(tb.rel, 0, f"no [terms.{tid}] ({why}): every file has the same ids"))
        for tid, symbols in SYMBOL_TERMS.items():
            if tid in tb.terms and tb.terms[tid].term != symbols.get(lang):
                out.append(Finding(tb.rel, tb.lines.get(tid, 0),
                                   f"[terms.{tid}] term = {tb.terms[tid].term!r}, but calculators/text/units.py gives "
                                   f"{symbols.get(lang)!r}: the symbol is chosen once; change both together"))
    return out


def load(root: pathlib.Path, lang: str) -> Termbase:
    """The termbase of a language; a file with an error raises TermbaseError naming file and line."""
    p = path(root, lang)
    return _load(str(p), p.stat().st_mtime_ns if p.exists() else 0, lang)


@lru_cache(maxsize=16)
def _load(p: str, _mtime: int, lang: str) -> Termbase:
    rel = f"{TERMS_DIR}/{lang}.toml"
    try:
        text = pathlib.Path(p).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TermbaseError(f"{rel}: missing (format: TERMBASE-FORMAT.md)") from None
    return _valid(text, lang, rel)


def _valid(text: str, lang: str, rel: str) -> Termbase:
    """The parsed termbase, or TermbaseError naming file and line."""
    tb, found = parse(text, lang, rel)
    if found or tb is None:
        raise TermbaseError("; ".join(str(e) for e in found))
    return tb
