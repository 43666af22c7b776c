"""The example's names in a sentence: the model, the device with the article its grammar needs, the precisions.

A page writes `{{ ex("device", form="einem") }}` where a German sentence
needs "einer H100" (or "einem Trainium2"): the form is named by the article
the writer would put before a masculine noun (German der/den/dem/des and
ein/einen/einem/eines, English a/the, Danish en/den, Italian il/un/del/al/
dal/nel/sul), and the device's data in catalog.toml (`prose`: its short name
and, per language, gender or how its name is read) gives the article that
agrees. Nothing is guessed from the name: a device without that data is
refused by the example (calculators/example/example.py).

Model names take no article in any of the four languages (the pages are
written so): `ex("model")` is the name as the catalog or the config gives it.
"""

from __future__ import annotations

from ..arch import precision as P
from ..text.marks import N_

# German: the masculine form names the case; feminine and neuter follow.
_DE = {"der": ("der", "die", "das"), "den": ("den", "die", "das"), "dem": ("dem", "der", "dem"), "des": ("des", "der", "des"),
       "ein": ("ein", "eine", "ein"), "einen": ("einen", "eine", "ein"), "einem": ("einem", "einer", "einem"),
       "eines": ("eines", "einer", "eines")}
_DE_GENDER = {"m": 0, "f": 1, "n": 2}
_DA = {"en": {"c": "en", "n": "et"}, "den": {"c": "den", "n": "det"}}
# Italian: the masculine form before a consonant names article and preposition.
_IT = {
    "il": {"m": "il", "m-lo": "lo", "m-elide": "l'", "f": "la", "f-elide": "l'"},
    "un": {"m": "un", "m-lo": "uno", "m-elide": "un", "f": "una", "f-elide": "un'"},
    "del": {"m": "del", "m-lo": "dello", "m-elide": "dell'", "f": "della", "f-elide": "dell'"},
    "al": {"m": "al", "m-lo": "allo", "m-elide": "all'", "f": "alla", "f-elide": "all'"},
    "dal": {"m": "dal", "m-lo": "dallo", "m-elide": "dall'", "f": "dalla", "f-elide": "dall'"},
    "nel": {"m": "nel", "m-lo": "nello", "m-elide": "nell'", "f": "nella", "f-elide": "nell'"},
    "sul": {"m": "sul", "m-lo": "sullo", "m-elide": "sull'", "f": "sulla", "f-elide": "sull'"},
}
FORMS = {"de": tuple(_DE), "en": ("a", "the"), "da": tuple(_DA), "it": tuple(_IT)}

MIXED = N_("original mixed precision", "example")


class NameError_(ValueError):
    """A form the language does not have, or a name the page does not know (a page error, at build time)."""


def article(prose: dict, form: str, lang: str) -> str:
    """The article (with its preposition, in Italian) before the device's name, or "" without a form."""
    if not form:
        return ""
    if form not in FORMS[lang]:
        raise NameError_(f"form {form!r} is not one of {', '.join(FORMS[lang])} ({lang})")
    cls = prose[lang]
    if lang == "de":
        return _DE[form][_DE_GENDER[cls]]
    if lang == "en":
        return cls if form == "a" else "the"
    if lang == "da":
        return _DA[form][cls]
    return _IT[form][cls]


def with_article(name: str, prose: dict, form: str, lang: str, cap: bool = False) -> str:
    art = article(prose, form, lang)
    text = name if not art else (art + name if art.endswith("'") else f"{art} {name}")
    return text[:1].upper() + text[1:] if cap else text


def precision_label(key: str) -> str:
    """A precision as the pages name it (BF16, FP8, MXFP4); FP8 with block scales is FP8 to a reader."""
    return P.get(key).label


def weights_label(m, weights: str | None, tr) -> str:
    """The weights' precision: one format's name, or "original mixed precision" where the groups differ."""
    if weights:
        return precision_label(weights)
    keys = {g.precision.label for g in m.weights}
    return keys.pop() if len(keys) == 1 else tr(MIXED, "example")


KEYS = ("model", "device", "memory", "weights", "kv", "compute")


def name(key: str, case, lang: str, tr, form: str = "", cap: bool = False) -> str:
    """One name of the example (`KEYS`) as a sentence of `lang` needs it; `case` is calculators/example/case.py's."""
    if key == "device":
        return with_article(case.d.prose["name"], case.d.prose, form, lang, cap)
    if form:
        raise NameError_(f"ex({key!r}) takes no form: only the device's name needs an article")
    text = {"model": lambda: case.m.name, "memory": lambda: case.d.serving.tier,
            "weights": lambda: weights_label(case.m, case.ex.weights, tr),
            "kv": lambda: precision_label(case.ex.kv_precision), "compute": lambda: precision_label("bf16")}
    if key not in text:
        raise NameError_(f"ex({key!r}): unknown name; known: {', '.join(KEYS)}")
    out = text[key]()
    return out[:1].upper() + out[1:] if cap else out
