"""US English: the British spellings the termbase lint rejects when en.toml says spelling = "US".

Why a list here and not only `forbidden` entries in en.toml: a spelling rule
is about word families, not terms ("utilise", "utilised", "utilisation",
"behaviour", "catalogue"), and it must hold whatever terms the English
termbase lists. The list is deliberately explicit (stems, not every word
ending in -ise): "precise", "raise", "otherwise", "expertise" and
"analyses" (the plural of analysis) are US English too.
"""

from __future__ import annotations

import re

# -ise/-isation stems whose US form is -ize/-ization.
_IZE_STEMS = ("util optim quant normal parallel special real recogn organ summar minim maxim character "
              "priorit visual token serial initial standard categor emphas general custom memor stabil "
              "synchron vector amort author capital central critic local modern neutral penal".split())
_IZE = re.compile(r"(?i)(?<![\w-])((?:%s)is(?:e|es|ed|ing|ation|ations|er|ers|able))(?!\w)" % "|".join(_IZE_STEMS))
# Whole words (and their inflections) with a different US spelling.
_WORDS = {
    "behaviour": "behavior", "colour": "color", "favour": "favor", "labour": "labor", "honour": "honor",
    "neighbour": "neighbor", "catalogue": "catalog", "centre": "center", "metre": "meter", "litre": "liter",
    "analyse": "analyze", "modelling": "modeling", "modelled": "modeled", "labelled": "labeled",
    "labelling": "labeling", "travelled": "traveled", "cancelled": "canceled", "whilst": "while",
    "programme": "program", "licence": "license", "defence": "defense", "artefact": "artifact",
    "grey": "gray", "fulfil": "fulfill", "judgement": "judgment",
}
_WORD = re.compile(r"(?i)(?<![\w-])(%s)(s|d|ed|ing)?(?!\w)" % "|".join(sorted(_WORDS, key=len, reverse=True)))


def us_form(word: str) -> str:
    """The US spelling of a British form found by `british`."""
    low = word.lower()
    m = _IZE.fullmatch(word)
    if m:
        i = low.rfind("is")
        fixed = low[:i] + "iz" + low[i + 2:]
    else:
        stem = next(s for s in sorted(_WORDS, key=len, reverse=True) if low.startswith(s))
        us, suffix = _WORDS[stem], low[len(stem):]
        if suffix == "d" and not us.endswith("e"):   # catalogued -> cataloged
            suffix = "ed"
        fixed = us + suffix
    return fixed[:1].upper() + fixed[1:] if word[:1].isupper() else fixed


def british(text: str):
    """(offset, word, US form) of each British spelling in `text`."""
    for pattern in (_IZE, _WORD):
        for m in pattern.finditer(text):
            if m.group(0).lower() == "analyses":    # the plural of analysis, in US English too
                continue
            yield m.start(), m.group(0), us_form(m.group(0))
