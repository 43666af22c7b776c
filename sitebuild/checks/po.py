"""The locale files (locales/<lang>.po), validated in every build.

Why a strict reader of our own besides Babel: Babel reads leniently (a
broken line can silently drop or merge entries) and does not say on which
line a duplicate or a bad escape sits. This reader understands the part of
the PO format the project uses (comments, flags, msgctxt, msgid,
msgid_plural, msgstr[n], obsolete #~ entries) and reports file:line.

Stops the build: syntax errors, duplicate ids, a placeholder ({model}, %s)
that differs from the msgid, markup a translation adds (a translation can
never inject HTML or script), a charset other than UTF-8.
Reported only: untranslated and fuzzy entries (the page shows German),
entries the German file does not have (extra) and entries nothing uses.
"""

from __future__ import annotations

import pathlib
import re
from collections import Counter
from dataclasses import dataclass, field

from calculators.example import names as example_names
from calculators.example import variants as example_variants
from calculators.text import grammar

from .report import ERROR, WARNING, Problem

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$")


@dataclass
class Entry:
    line: int                       # line of the msgid
    context: str | None = None
    msgid: str | None = None
    plural: str | None = None
    strings: dict = field(default_factory=dict)   # {index: text}; msgstr is index 0
    flags: set = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> tuple:
        return (self.msgid, self.context)

    @property
    def translated(self) -> bool:
        return any(self.strings.values())

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


class PoSyntaxError(ValueError):
    def __init__(self, line: int, message: str):
        self.line, self.message = line, message
        super().__init__(f"line {line}: {message}")


def _string(text: str, line: int) -> str:
    """One quoted PO string, with its escapes resolved."""
    text = text.strip()
    if len(text) < 2 or not text.startswith('"') or not text.endswith('"'):
        raise PoSyntaxError(line, f"expected a quoted string, found {text[:40]!r}")
    body = text[1:-1]
    if "\\" not in body and '"' not in body:
        return body                      # the common case: nothing to resolve
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            raise PoSyntaxError(line, 'unescaped " inside a string: write \\"')
        if ch == "\\":
            if i + 1 >= len(body):
                raise PoSyntaxError(line, "string ends in a lone backslash")
            nxt = body[i + 1]
            if nxt in ESCAPES:
                out.append(ESCAPES[nxt])
                i += 2
                continue
            raise PoSyntaxError(line, f"unknown escape \\{nxt}: write \\\\ for a backslash")
        out.append(ch)
        i += 1
    return "".join(out)


def parse(text: str) -> tuple:
    """(entries, errors): entries in file order, errors as PoSyntaxError (reading goes on after one)."""
    entries, errors = [], []
    cur: Entry | None = None
    flags: set = set()
    target = None                   # (entry, field, index) the next continuation line extends
    pending_line = None

    def finish():
        nonlocal cur
        if cur is not None:
            if cur.msgid is None:
                errors.append(PoSyntaxError(cur.line, "entry without msgid"))
            elif not cur.strings:
                errors.append(PoSyntaxError(cur.line, "msgid without msgstr"))
            elif cur.plural is not None and 0 not in cur.strings:
                errors.append(PoSyntaxError(cur.line, "msgid_plural without msgstr[0]"))
            else:
                entries.append(cur)
        cur = None

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#"):
            if cur is not None and cur.strings:
                finish()
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            target = None
            continue
        if not line:
            finish()
            flags, target = set(), None
            continue
        if line.startswith('"'):
            if target is None:
                errors.append(PoSyntaxError(n, "a string line outside any msgid/msgstr"))
                continue
            try:
                entry, name, index = target
                piece = _string(line, n)
                if name == "strings":
                    entry.strings[index] += piece
                else:
                    setattr(entry, name, getattr(entry, name) + piece)
            except PoSyntaxError as exc:
                errors.append(exc)
            continue
        m = KEYWORD.match(line)
        if not m:
            errors.append(PoSyntaxError(n, f"unknown line {line[:40]!r}: expected msgctxt, msgid, msgstr, a string or a comment"))
            target = None
            continue
        word, index, rest = m.group(1), m.group(2), m.group(3)
        try:
            value = _string(rest, n)
        except PoSyntaxError as exc:
            errors.append(exc)
            value = ""
        starts_entry = word == "msgctxt" or (word == "msgid" and (cur is None or cur.msgid is not None))
        if starts_entry:
            finish()
            cur, flags = Entry(n, flags=flags, obsolete=obsolete), set()
        if cur is None:
            errors.append(PoSyntaxError(n, f"{word} before any msgid"))
            target = None
            continue
        if word == "msgctxt":
            cur.context = value
            target = (cur, "context", None)
        elif word == "msgid":
            cur.msgid, cur.line = value, n
            target = (cur, "msgid", None)
        elif word == "msgid_plural":
            cur.plural = value
            target = (cur, "plural", None)
        else:
            if cur.msgid is None:
                errors.append(PoSyntaxError(n, "msgstr before msgid"))
                target = None
                continue
            i = int(index) if index is not None else 0
            if (index is None) == (cur.plural is not None):
                errors.append(PoSyntaxError(n, "use msgstr[n] with msgid_plural, plain msgstr without"))
            if i in cur.strings:
                errors.append(PoSyntaxError(n, f"second msgstr[{i}] for the same msgid"))
            cur.strings[i] = value
            target = (cur, "strings", i)
    finish()
    return entries, errors


def read(path: pathlib.Path) -> tuple:
    """(entries, errors) of a .po file; an undecodable file is one error."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        return [], [PoSyntaxError(line, "not valid UTF-8: save the file as UTF-8")]
    return parse(text)


# ------------------------------------------------------------ placeholders and markup

BRACE = re.compile(r"\{([^{}]*)\}")
PERCENT = re.compile(r"%(?:\([A-Za-z_]\w*\))?[sdifr]")
TAG = re.compile(r"<!--|<[/!]?[A-Za-z][^<>]*>?")


def placeholders(text: str) -> Counter:
    """{name}, {0}, %s, %(name)s: the parts code fills in; {{ and }} and %% are literal.
    An Italian article form after the name ({share:il}) is not part of it (calculators/text/message.py)."""
    braces = BRACE.findall(text.replace("{{", "").replace("}}", ""))
    percents = PERCENT.findall(text.replace("%%", ""))
    return Counter([f"{{{b.partition(':')[0]}}}" for b in braces] + percents)


def forms(text: str) -> list:
    """[(placeholder, form)] of every placeholder written with a form, as {share:il}."""
    braces = BRACE.findall(text.replace("{{", "").replace("}}", ""))
    return [(name, form) for name, _, form in (b.partition(":") for b in braces) if form]


def markup(text: str) -> Counter:
    return Counter(" ".join(t.split()) for t in TAG.findall(text))


def _fmt(counter: Counter) -> str:
    return ", ".join(sorted(counter.elements())) or "none"


def check_entry(rel: str, e: Entry, lang: str, nplurals: int) -> list:
    problems = []
    if e.plural is not None and e.translated and sorted(e.strings) != list(range(nplurals)):
        problems.append(Problem(rel, e.line, ERROR, "po-plural-count",
                                f"{e.msgid!r} has {len(e.strings)} plural forms, the language has {nplurals} "
                                f"(msgstr[0] to msgstr[{nplurals - 1}], in the order {', '.join(grammar.CATEGORIES[lang])})"))
    for i, s in sorted(e.strings.items()):
        if not s:
            continue
        for name, form in forms(s):
            if name == "device" and form in example_names.FORMS.get(lang, ()):
                continue    # the running example's device with the article its grammar data gives (calculators/example/names.py)
            if form in example_variants.STYLES and e.context == example_variants.CONTEXT:
                continue    # a running example's figure in its running-text form, {ratio:times} (calculators/example/variants.py)
            if lang != "it" or form not in grammar.ARTICLES:
                why = (f"'{form}' is not an article form; write one of {', '.join(grammar.ARTICLES)}" if lang == "it"
                       else "an article form is an Italian rule")
                problems.append(Problem(rel, e.line, ERROR, "po-form",
                                        f"{{{name}:{form}}} in the translation of {e.msgid!r}: {why}; or write {{{name}}}"))
        source = e.plural if (i > 0 and e.plural is not None) else e.msgid
        want, got = placeholders(source), placeholders(s)
        if want != got:
            problems.append(Problem(rel, e.line, ERROR, "po-placeholder",
                                    f"placeholders of {e.msgid!r} differ: the msgid has {_fmt(want)}, the translation has {_fmt(got)}: "
                                    f"keep each placeholder exactly as in the msgid (translate around it)"))
        extra = markup(s) - markup(source)
        if extra:
            problems.append(Problem(rel, e.line, ERROR, "po-markup",
                                    f"the translation of {e.msgid!r} adds markup the msgid does not have ({_fmt(extra)}): "
                                    f"translations are plain text; remove it"))
    return problems


def header(entries: list) -> dict:
    head = next((e for e in entries if e.msgid == "" and e.context is None), None)
    if head is None:
        return {}
    out = {}
    for line in head.strings.get(0, "").splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            out[k.strip().lower()] = v.strip()
    return out


# Contexts whose strings stand inside translated prose (a source's kind after its
# title, why a source has no link): a missing translation would put an English
# label into a German, Danish or Italian sentence, so it is an error, not a warning.
LABELS_IN_PROSE = ("source-kind", "url-reason", "datum-unit", "rack-name", "entry-name", "measured-by")


def check_file(root: pathlib.Path, lang: str, source_keys: set | None, used: set | None, parsed: tuple | None = None) -> tuple:
    """Problems of locales/<lang>.po, and its entries (for the status report).

    `source_keys`: the German file's keys (None when checking German itself);
    `used`: keys the code and pages use (None when unknown);
    `parsed`: the file's (entries, errors) when already read.
    """
    rel = f"locales/{lang}.po"
    path = root / rel
    if not path.exists():
        return [Problem(rel, 0, ERROR, "po-missing-file", f"{rel} does not exist: run `make messages` to create it")], []
    entries, errors = parsed or read(path)
    problems = [Problem(rel, e.line, ERROR, "po-syntax", f"{e.message}: the file cannot be read reliably") for e in errors]
    head = header(entries)
    charset = head.get("content-type", "").partition("charset=")[2].strip().lower()
    if charset and charset not in ("utf-8", "utf8"):
        problems.append(Problem(rel, 1, ERROR, "po-charset", f"charset is {charset}: the locale files are UTF-8 (Content-Type: text/plain; charset=UTF-8)"))
    language = head.get("language", "").replace("-", "_").split("_")[0]
    if language and language != lang:
        problems.append(Problem(rel, 1, WARNING, "po-language", f"header says Language: {head['language']}, the file is for {lang}"))
    nplurals = len(grammar.CATEGORIES[lang])
    declared = re.search(r"nplurals\s*=\s*(\d+)", head.get("plural-forms", ""))
    if not declared or int(declared.group(1)) != nplurals:
        problems.append(Problem(rel, 1, ERROR, "po-plural-forms",
                                f"the header's Plural-Forms must say nplurals={nplurals} "
                                f"(CLDR: {', '.join(grammar.CATEGORIES[lang])}); run `make messages` to write it"))
    seen = {}
    live = [e for e in entries if not e.obsolete and e.msgid]
    for e in live:
        if e.key in seen:
            where = f" (context {e.context!r})" if e.context else ""
            problems.append(Problem(rel, e.line, ERROR, "po-duplicate",
                                    f"msgid {e.msgid!r}{where} is already defined at line {seen[e.key]}: keep one entry"))
            continue
        seen[e.key] = e.line
        problems += check_entry(rel, e, lang, nplurals)
        fallback = "the msgid (English)" if source_keys is None else "German"
        if e.fuzzy:
            problems.append(Problem(rel, e.line, WARNING, "fuzzy",
                                    f"fuzzy: {e.msgid!r} needs review (shown in {fallback} until the fuzzy flag is removed)", group="fuzzy entries"))
        elif not e.translated and e.context in LABELS_IN_PROSE:
            problems.append(Problem(rel, e.line, ERROR, "label-untranslated",
                                    f"untranslated {e.context} label {e.msgid!r}: it would appear in English on the page; translate it"))
        elif not e.translated:
            problems.append(Problem(rel, e.line, WARNING, "missing",
                                    f"untranslated: {e.msgid!r} (shown in {fallback})", group="untranslated entries"))
        if source_keys is not None and e.key not in source_keys:
            problems.append(Problem(rel, e.line, WARNING, "extra",
                                    f"extra: {e.msgid!r} is not in locales/de.po: nothing shows it; run `make messages`", group="extra entries"))
        elif used is not None and e.key not in used:
            problems.append(Problem(rel, e.line, WARNING, "unused",
                                    f"unused: nothing in the code or pages uses {e.msgid!r}; `make messages` drops it", group="unused entries"))
    return problems, live
