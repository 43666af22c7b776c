"""No hand-typed figures: digits and spelled-out numbers in prose are errors.

Why: every number on the site is computed (DESIGN.md, invariant 1). A digit
typed into prose, or a number word ("vier", "twice", "halv", "metà"), is a
figure nobody recomputes. Figures come from macros; names that contain
digits (H100, gpt-oss-120b) are allowed through one reviewed list,
sitebuild/allowed_names.txt, never through loose patterns.

Number words are looked up in the page's own language: Danish "fire" (four)
is a number only on a Danish page. Words that are also articles or common
words are not numbers: German ein/eine, English one, Danish en/et, Italian
un/una/uno; Italian "sei" (six, but also "you are") and "mezzo" (half, but
also "means") are left out for the same reason. Ordinals (zweite, second)
name a position, not a quantity, and are not flagged.
"""

from __future__ import annotations

import pathlib
import re
from functools import lru_cache

from .report import ERROR, Problem

NAMES_FILE = "sitebuild/allowed_names.txt"


def load_names(root: pathlib.Path) -> list:
    path = root / NAMES_FILE
    if not path.exists():
        return []
    names = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            names.append(line)
    return names


def names_pattern(names: list) -> re.Pattern | None:
    if not names:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(rf"(?<![\w.-])(?:{alternatives})s?(?![\w])")


# ------------------------------------------------------------ number words

def _alt(words: str) -> str:
    return "|".join(sorted(words.split(), key=len, reverse=True))


_DE_PARTS = _alt("ein eins zwei drei vier fünf sechs sieben sieb sech acht neun zehn elf zwölf zwanzig "
                 "dreißig dreissig vierzig fünfzig sechzig siebzig achtzig neunzig hundert tausend und")
_IT_PARTS = _alt("un uno due tre tré quattro quattr cinque sei sette otto nove dieci undici dodici tredici "
                 "quattordici quindici sedici diciassette diciotto diciannove venti vent trenta trent quaranta "
                 "quarant cinquanta cinquant sessanta sessant settanta settant ottanta ottant novanta novant "
                 "cento cent mille mila")
_DA_UNITS = "en et to tre fire fem seks syv otte ni"
_DA_TENS = "tyve tredive fyrre fyrretyve halvtreds tres halvfjerds firs halvfems"

_DE_SUFFIX = r"(?:mal|fach|fache|fachen|facher|faches|fachem)"

WORDS = {
    "de": {
        "exact": set("""eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig dreissig
            million millionen milliarde milliarden billion billionen dutzend dutzende dutzenden
            doppelt doppelte doppelten doppelter doppeltes doppeltem halb halbe halben halber halbes halbem
            hälfte hälften drittel viertel fünftel zehntel hundertstel tausendstel""".split()),
        # compounds: zweihundertfünfzig, einundzwanzig, dreimal, vierfach, Hunderte, Tausendstel
        "compound": (_DE_PARTS, rf"{_DE_SUFFIX}?|(?<=hundert|tausend)(?:e|en|er|stel)"),
        "other": r"verdoppel\w*|verdoppl\w*|halbier\w*|ver(?:drei|vier|fünf|zehn|hundert|tausend)fach\w*",
        # a single part that is also a word: ein (einmal, einfach), und, sieb (sieve)
        "not_alone": {"ein", "und", "sieb", "sech"},
    },
    "en": {
        "exact": set("""zero zeros zeroes two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
            ninety hundred hundreds thousand thousands million millions billion billions trillion trillions
            dozen dozens twice thrice double doubled doubles doubling triple tripled triples tripling
            quadruple quadrupled half halves halved halving quarter quarters""".split()),
        "other": r"(?:two|three|four|five|six|seven|eight|nine|ten|twenty|hundred|thousand)fold",
    },
    "da": {
        "exact": set("""én ét to tre fire fem seks syv otte ni ti elleve tolv tretten fjorten femten seksten
            sytten atten nitten tyve tredive fyrre fyrretyve halvtreds tres halvfjerds firs halvfems
            hundrede hundreder hundredvis tusind tusinde tusinder tusindvis million millioner milliard
            milliarder billion billioner dusin dusinvis dobbelt dobbelte halv halvt halve halvdel halvdelen
            halvdele halvdelene tredjedel tredjedele fjerdedel fjerdedele kvart kvarte""".split()),
        "other": rf"(?:{_alt(_DA_UNITS)})og(?:{_alt(_DA_TENS)})"
                 rf"|(?:{_alt(_DA_UNITS + ' ti')})?(?:hundrede|tusind)(?:e|er|vis)?"
                 r"|(?:to|tre|fire|fem|ti|hundrede)dobbel\w*|fordobl\w*|halver\w*",
    },
    "it": {
        "exact": set("""due tre quattro cinque sette otto nove dieci undici dodici tredici quattordici quindici
            sedici diciassette diciotto diciannove venti trenta quaranta cinquanta sessanta settanta ottanta
            novanta cento mille milione milioni miliardo miliardi doppio doppia doppi doppie triplo tripla
            quadruplo metà decina decine dozzina dozzine centinaio centinaia migliaio migliaia""".split()),
        # compounds: ventitré, duecento, tremila
        "compound": (_IT_PARTS, ""),
        "other": r"raddopp\w*|dimezz\w*|triplic\w*|quadruplic\w*",
        # articles and words: un/uno (a), sei (you are), cent, vent
        "not_alone": {"un", "uno", "sei", "cent", "vent"},
    },
}

_COMPILED: dict = {}


def _compiled(lang: str) -> dict:
    if lang not in _COMPILED:
        spec = WORDS[lang]
        c = {"other": re.compile(spec["other"])}
        if "compound" in spec:
            parts, suffix = spec["compound"]
            c["compound"] = re.compile(rf"((?:{parts})+)({suffix})")
            c["parts"] = re.compile(parts)
        _COMPILED[lang] = c
    return _COMPILED[lang]


@lru_cache(maxsize=None)
def is_number_word(word: str, lang: str) -> bool:
    """Is `word` (any case) a spelled-out number in `lang`?"""
    spec = WORDS.get(lang)
    if spec is None:
        return False
    w = word.lower()
    if w in spec["exact"]:
        return True
    c = _compiled(lang)
    if c["other"].fullmatch(w):
        return True
    m = c["compound"].fullmatch(w) if "compound" in c else None
    if not m:
        return False
    parts = c["parts"].findall(m.group(1))
    # one part that is also an ordinary word (ein + mal, ein + fach) is not a number; two parts are
    return len(parts) > 1 or parts[0] not in spec["not_alone"]


# ------------------------------------------------------------------- checks

# Digits of any script, superscripts, vulgar fractions, circled and Roman numerals: anything that reads as a number.
NUMERAL = re.compile(r"[\d\u00b2\u00b3\u00b9\u00bc-\u00be\u2070-\u2079\u2080-\u2089\u2150-\u218b\u2460-\u24ff\u2776-\u2793]")
TOKEN_EDGE = re.compile(r"\s")
WORD = re.compile(r"[^\W\d_]+")


def _tokens_with_numerals(prose: str):
    """(start, token) for each whitespace-separated token that holds a numeral, once per token."""
    last_end = -1
    for m in NUMERAL.finditer(prose):
        if m.start() < last_end:
            continue
        start = m.start()
        while start > 0 and not prose[start - 1].isspace():
            start -= 1
        end_match = TOKEN_EDGE.search(prose, m.end())
        end = end_match.start() if end_match else len(prose)
        last_end = end
        yield start, prose[start:end]


def _line_col(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _blank_names(prose: str, pattern: re.Pattern | None) -> str:
    if pattern is None:
        return prose
    return pattern.sub(lambda m: " " * len(m.group(0)), prose)


def check_page(page, names: re.Pattern | None, suggest=None) -> list:
    """Digits and number words in the page's prose. `suggest(token, lang)` may name figures that print it."""
    prose = _blank_names(page.prose, names)
    problems = []
    for start, token in _tokens_with_numerals(prose):
        line = _line_col(prose, start)
        shown = token.strip(".,;:!?()[]\"'«»„“”")
        hint = suggest(shown, page.lang) if suggest else ""
        problems.append(Problem(
            page.rel, line, ERROR, "digit",
            f"hand-typed number '{shown}' in prose: write the figure as a macro ({{{{ fig(\"...\") }}}}){hint}; "
            f"a name with digits belongs in {NAMES_FILE} (reviewed list)"))
    for m in WORD.finditer(prose):
        if is_number_word(m.group(0), page.lang):
            line = _line_col(prose, m.start())
            problems.append(Problem(
                page.rel, line, ERROR, "number-word",
                f"spelled-out number '{m.group(0)}' in {page.lang} prose: a count is a figure "
                f"(e.g. {{{{ fig(\"dataflow.differences\") }}}} prints it in words); otherwise rephrase without a number"))
    return problems
