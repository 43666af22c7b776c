"""HTML for the calculators: labelled inputs with their defaults and the pre-rendered result.

The result, its chart and the default field texts come from calculators/ui/,
the code the browser runs, so the static page already shows exactly what the
browser would print for the defaults (pre-render, then enhance). The inputs
are disabled in the static HTML: without JavaScript the calculator is a
correct, read-only example; docs/assets/calculators.js enables them.

`page_assets` is added once to every page that shows a calculator: the page's
translations for the browser (a JSON island) and the page script.
"""

from __future__ import annotations

import json
from html import escape

from calculators.data import byo, catalog
from calculators.example import strings as example_strings
from calculators.ui import fields, messages, worker

MARKER = 'class="calc"'

# What the page script (docs/assets/calculators.js) says when Python is slow or stopped, and after a
# new deployment replaced the runtime an open page had started with.
NOTICES = {
    # TRANSLATORS: a calculator's status line, shown while an answer takes longer than a second
    "slow": messages.N_("Still computing: this input takes longer than usual…"),
    # TRANSLATORS: a calculator's status line; the computation ran past its time limit and was stopped
    "timeout": messages.N_("This input could not be computed in time, so the computation was stopped. The result shown is still the previous one."),
    # TRANSLATORS: shown at the top of a page that reloaded itself because the site was updated while it was open
    "updated": messages.N_("The site was updated while this page was open, so the page was reloaded to keep its calculators working."),
}

# Shows the read-only notices where modules (and so the page script) are not supported.
_NOMODULE = ("(function(){var n=document.querySelectorAll('.calc-notice');"
             "for(var i=0;i<n.length;i++){n[i].removeAttribute('hidden');}})();")


def _control(f: fields.Field, fid: str, text: str, tr) -> str:
    described = f"{fid}-error {fid}-help" if f.help else f"{fid}-error"
    common = f'id="{fid}" name="{f.name}" aria-describedby="{described}" disabled'
    if isinstance(f, fields.ConfigField):
        # The file input has no name: the page script reads a chosen or dropped file into the text area,
        # which is what Python reads. Nothing leaves the page.
        return (f'<textarea {common} rows="6" spellcheck="false" autocomplete="off" class="calc-config">'
                f'{escape(text)}</textarea>'
                f'<input type="file" accept=".json,application/json" class="calc-config-file" '
                f'aria-label="{escape(tr(f.label))}" disabled>')
    if isinstance(f, fields.NumberField):
        return (f'<input {common} type="text" inputmode="{f.inputmode}" autocomplete="off" '
                f'spellcheck="false" value="{escape(text)}">')
    opts = "".join(f'<option value="{escape(k)}"{" selected" if k == text else ""}>{escape(label)}</option>'
                   for k, label in f.options(catalog.load(), tr))
    return f'<select {common}>{opts}</select>'


def _field(f: fields.Field, instance: str, text: str, model: str, tr) -> str:
    fid = f"{instance}-{f.name}"
    cls = "calc-field calc-custom" if f.custom else "calc-field calc-byo" if f.byo else "calc-field"
    shown = (model == fields.CUSTOM) if f.custom else (model == byo.BYO) if f.byo else True
    hidden = "" if shown else " hidden"
    # A field's help says what it takes (the config.json field: which layer kinds are modelled), under the control.
    note = f'<p class="calc-help" id="{fid}-help">{escape(tr(f.help))}</p>' if f.help else ""
    return (f'<div class="{cls}"{hidden}><label for="{fid}">{escape(tr(f.label))}</label>'
            f'{_control(f, fid, text, tr)}<span class="calc-error" id="{fid}-error"></span>{note}</div>')


def render(name: str, lang: str, tr, instance: str | None = None) -> str:
    """One calculator; `instance` makes its ids unique when a page shows it more than once (the speed page's
    example control keeps its state under the main article's name: `instance` "example")."""
    if name not in worker.ALL:
        raise KeyError(f"calculator(): unknown calculator {name!r}; known: {', '.join(worker.ALL)}")
    calc = worker.ALL[name]
    instance = instance or getattr(calc, "instance", None) or name
    texts = worker.default_texts(name, lang)
    out = worker.evaluate(name, texts, lang, tr, instance)
    if not out["ok"]:
        raise ValueError(f"calculator {name!r}: its defaults do not compute: {out['errors']}")
    controls = "".join(_field(f, instance, texts[f.name], texts.get("model", ""), tr) for f in calc.fields)
    read_only = escape(tr(messages.READ_ONLY))
    title_id = f"calc-{instance}-title"
    note = getattr(calc, "note", "")
    kind = " calc-example" if note else ""
    return (f'<div class="calc{kind}" id="calc-{instance}" data-calc="{name}" data-instance="{instance}" '
            f'role="group" aria-labelledby="{title_id}">'
            f'<p class="calc-title" id="{title_id}"><strong>{escape(tr(calc.title))}</strong></p>'
            + (f'<p class="calc-note">{escape(tr(note))}</p>' if note else "") +
            f'<form class="calc-form">{controls}</form>'
            f'<div class="calc-status" role="status"></div>'
            f'<p class="calc-notice" hidden>{read_only}</p><noscript><p class="calc-notice">{read_only}</p></noscript>'
            f'<div class="calc-result"><p class="calc-stale-note" hidden>{escape(tr(messages.STALE))}</p>'
            f'<div class="calc-output" aria-live="polite">{out["html"]}</div>'
            f'<div class="calc-chart">{out["chart"]}</div></div></div>')


def example_control(page: str):
    """The example control of a page of the running example ("decode", "speed"), or None."""
    return next((c for c in worker.CONTROLS.values() if c.page == page), None)


def _translated(tr, msgid: str, context: str | None = None):
    """A msgid's translation for the browser's table: a string, or the list of a plural message's forms."""
    plural = messages.plural(msgid, context)
    return list(tr(plural)) if plural else tr(msgid)


def page_config(lang: str, tr, urls: dict, example: bool = False) -> dict:
    """What the page script and the worker need: locale, translations, runtime URLs (relative to assets/).
    On a page with the example control, the running example's strings too (keyed with their msgctxt)."""
    strings = {m: _translated(tr, m, c) for m, c in messages.browser_keys()}   # a calculator's msgid is its key
    if example:
        strings.update(example_strings.table(tr))
    return {"locale": lang,
            "strings": strings,
            "status": {key: tr(msgid) for key, msgid in messages.STATUS.items()},
            "notices": {key: tr(msgid) for key, msgid in NOTICES.items()},
            "configMaxChars": byo.MAX_CONFIG_CHARS,
            **urls}


def page_assets(lang: str, tr, urls: dict, assets_href: str, version: str, example: bool = False) -> str:
    """The JSON island and the script tags, for the end of a page with calculators."""
    data = json.dumps(page_config(lang, tr, urls, example), ensure_ascii=False, sort_keys=True)
    data = data.replace("<", "\\u003c")  # a "</script>" inside a string must not end the island
    return (f'<script type="application/json" id="calc-config">{data}</script>'
            f'<script type="module" src="{escape(assets_href)}calculators.js?v={version}"></script>'
            f'<script nomodule>{_NOMODULE}</script>')
