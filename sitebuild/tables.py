"""The generated tables: catalog sources, the figure registry, the fact check.

Each function returns HTML for one language: `lang` formats numbers and dates,
`tr(msgid, context=None)` translates UI strings. HTML rather than Markdown
tables so that cells may hold lists and the output does not depend on the
Markdown table parser.
"""

from __future__ import annotations

import pathlib
from decimal import Decimal
from html import escape

import babel.lists

from calculators.data import catalog
from calculators.article import claims
from calculators.article import figures
from calculators.text import fmt
from calculators.text import grammar
from calculators.perf import measured
from calculators.arch import precision
from calculators.ui.messages import N_

from . import citations, dates, html_table, provenance, termbase

ROOT = pathlib.Path(__file__).resolve().parent.parent


# What each table is, for the reader of a screen reader who meets its scroller (the region's name).
LABELS = {
    "sources-table": N_("Catalog data and their sources"),
    "figures-table": N_("Every figure with its formula and inputs"),
    "factcheck-table": N_("Claims beside the site's calculation"),
    "measurements-table": N_("Published measurements beside the model"),
}


def _table(headers: list, rows: list, cls: str, tr, searched: bool = True) -> str:
    """A table in a labelled scroller of its own, each cell labelled by its column (sitebuild/html_table.py);
    `searched=False` keeps it out of the search index (Material's `data-search-exclude`)."""
    return html_table.table(headers, rows, cls, tr(LABELS[cls]), tr(html_table.SCROLL_HINT), searched)


def _key(text: str) -> str:
    """A catalog key ("models.llama-3.1-8b") as code that may break after its section's dot on a narrow
    screen (and at its hyphens), not inside a word."""
    return escape(text).replace(".", ".<wbr>", 1)


def _figure_id(text: str) -> str:
    """A figure id ("kv.llama70b.bytes_per_token"): each dot separates a part, each may start a line."""
    return escape(text).replace(".", ".<wbr>")


def accessed(src: catalog.Source, lang: str) -> str:
    """A source's access date as the language writes a day (sitebuild/dates.py: Babel's)."""
    return dates.day(src.accessed, lang)


def _q(value: float, kind: str, lang: str, **kw) -> str:
    return escape(fmt.format_quantity(value, kind, lang, **kw))


def _source_cells(src: catalog.Source, lang: str, tr) -> list:
    title = escape(citations.describe(src, lang, tr, with_kind=True))
    linked = f'<a href="{escape(src.url)}" rel="noopener">{title}</a>' if src.url else title
    reason = f'<br><small>{escape(tr(src.url_reason, "url-reason"))}</small>' if src.url_reason else ""
    note = f'<br><small>{escape(tr(src.note, "catalog-note"))}</small>' if src.note else ""
    return [linked + reason + note, accessed(src, lang), escape(tr(src.confidence, "confidence"))]


def _model_summary(m: catalog.Model, lang: str, tr) -> str:
    params = tr("{total} parameters, {active} active").format(total=_q(m.total_params, "params", lang),
                                                               active=_q(m.active_params, "params", lang))
    if m.arch is None:       # only the model card's totals: no layers to count (the entry's note says why)
        return "; ".join([params, tr(m.attention, "attention")])
    parts = [params, tr("{layers} layers").format(layers=fmt.format_number(m.layers, lang)), tr(m.attention, "attention")]
    if m.kv_heads:
        kv = fmt.format_number(m.kv_heads, lang)
        head = termbase.load(ROOT, lang).get("kv-head")     # "1 KV-Kopf", "8 KV-Köpfe": the noun agrees with the count
        parts.append(tr("{kv_heads} of dimension {dim}").format(kv_heads=f"{kv}\u00a0{grammar.noun_form(kv, lang, head.term, head.plural)}",
                                                               dim=fmt.format_number(m.head_dim, lang)))
    parts.append(", ".join(f"{escape(tr(g.group, 'weight-group'))}: {g.precision.label}" for g in m.weights))
    return "; ".join(parts)


def _datum_number(value: float, lang: str) -> str:
    """Counts (8 racks, 128 chips) print as integers; other data with three significant digits."""
    if float(value).is_integer():
        return fmt.format_number(int(value), lang)
    return fmt.format_number(value, lang, sig=3)


# A datum's unit, as the formatter prints it (the unit inside the value: "40–50 kW", "20–40 %", "10×");
# any other unit is a counted noun, translated (msgctxt "datum-unit") and written after the number.
_DATUM_KINDS = {"W": "watts", "×": "ratio", "fraction": "percent", "tok/s": "tok_per_s"}
DATUM_COUNTS = ("chips", "racks", "operators")


def _digits(value: float) -> int:
    """The significant digits a sourced value was published with, at most three (40000 -> 1, 1.5 -> 2)."""
    return min(3, len(Decimal(repr(float(value))).normalize().as_tuple().digits))


def _datum_value(key: str, d, lang: str, tr) -> str:
    if d.unit == "fraction":
        return fmt.format_percent(d.low, lang) if d.low == d.high else fmt.format_percent_range(d.low, d.high, lang)
    if d.unit in _DATUM_KINDS:
        kind, sig = _DATUM_KINDS[d.unit], max(_digits(d.low), _digits(d.high))   # as published: "40–50 kW", not "40.0–50.0"
        return fmt.format_quantity(d.low, kind, lang, sig=sig) if d.low == d.high else \
            fmt.format_quantity_range(d.low, d.high, kind, lang, sig=sig)
    if d.unit not in DATUM_COUNTS:
        raise ValueError(f"calculators/data/catalog.toml: data.{key}: unit {d.unit!r} has no printed form; "
                         f"use one of {', '.join([*_DATUM_KINDS, *DATUM_COUNTS])} or add it to sitebuild/tables.py")
    number = _datum_number(d.low, lang) if d.low == d.high else \
        fmt.format_range(_datum_number(d.low, lang), _datum_number(d.high, lang), lang)
    return f"{number}\u00a0{tr(d.unit, 'datum-unit')}"


def _device_summary(d: catalog.Device, lang: str, tr) -> str:
    tiers = ", ".join(
        tr("{tier} {capacity} at {bandwidth}").format(tier=escape(t.tier), capacity=_q(t.bytes, "bytes", lang),
                                                      bandwidth=_q(t.bytes_per_s, "bytes_per_s", lang))
        if t.bytes_per_s else f"{escape(t.tier)} {_q(t.bytes, 'bytes', lang)}"
        for t in d.memory)
    peaks = ", ".join(f"{p.upper()} {_q(v, precision.get(p).peak_kind, lang)}" for p, v in d.peak_flops.items()) or tr("no dense peak published")
    power = f"; {_q(d.power_w, 'watts', lang)}" if d.power_w else ""
    return f"{tiers}; {peaks}{power}"


def sources_table(lang: str, tr) -> str:
    """Every catalog datum with its source, access date and confidence."""
    cat = catalog.load()
    heads = [tr("Entry"), tr("Data"), tr("Source"), tr("Accessed"), tr("Confidence")]
    rows = []
    for m in cat.models.values():
        rows.append([f"<code>{_key('models.' + m.key)}</code><br>{escape(m.name)}", _model_summary(m, lang, tr)] + _source_cells(m.src, lang, tr))
    for d in cat.devices.values():
        rows.append([f"<code>{_key('devices.' + d.key)}</code><br>{escape(d.name)}", _device_summary(d, lang, tr)] + _source_cells(d.src, lang, tr))
    for r in cat.racks.values():
        data = tr("{count} × {device}, {power}").format(count=fmt.format_number(r.count, lang), device=escape(cat.devices[r.device].name),
                                                       power=_q(r.power_w, "watts", lang))
        rows.append([f"<code>{_key('racks.' + r.key)}</code><br>{escape(tr(r.name, 'rack-name'))}", data] + _source_cells(r.src, lang, tr))
    for k, ms in cat.measurements.items():
        speed = figures.Figure(k, ms.low if ms.low == ms.high else (ms.low, ms.high), "tok_per_s", "", (), None, 0).format(lang)
        data = f"{escape(cat.models[ms.model].name)}: {escape(speed)} ({escape(tr(ms.who, 'measured-by'))}, {escape(dates.published(ms.date, lang))})"
        rows.append([f"<code>{_key('measurements.' + k)}</code>", data] + _source_cells(ms.src, lang, tr))
    for k, d in cat.data.items():
        value = tr("{what}: {value}").format(what=tr(d.what, "datum"), value=_datum_value(k, d, lang, tr))
        rows.append([f"<code>{_key('data.' + k)}</code>", escape(value)] + _source_cells(d.src, lang, tr))
    return _table(heads, rows, "sources-table", tr)


def figures_table(lang: str, tr) -> str:
    """Every figure: id, value in this language, formula (in words, and with its inputs put in where it has
    a formula object: the same text as the popover), catalog entries read."""
    heads = [tr("Figure ID"), tr("Value"), tr("Formula"), tr("Inputs read")]
    rows = []
    reg = figures.registry()
    for f in reg.values():
        reads = ", ".join(f"<code>{_key(i)}</code>" for i in f.inputs) or escape(tr(provenance.basis(f)))
        how = escape(tr(f.words, "formula"))
        expr = provenance.expression(f.id, lang, tr)
        if expr:
            how += f'<br><small class="fig-expr">{escape(expr)}</small>'
        rows.append([f'<code id="fig-{escape(f.id)}">{_figure_id(f.id)}</code>', escape(f.format(lang)), how, reads])
    # Not searched: Material indexes a table as one entry, so every term in its hundreds of rows would
    # lead to the top of this table (and it was half of each language's search index, loaded and
    # indexed by every page). A figure is reached from its popover's link instead.
    return _table(heads, rows, "figures-table", tr, searched=False)


# How a part's computed value is introduced, by how the claim is compared with it:
# a bound is shown as a bound, never as a match.
_PART_PHRASES = {
    "about": "{value}",
    "at_most": N_("the claim lies below the computed ceiling of {value}"),
    "at_most/expected": N_("the claim lies below the computed expected value of {value}"),
    "at_least": N_("the computed {value} reaches the claimed minimum"),   # a claim that states a minimum ("14,000+")
    "contains": N_("the computed {value} lies inside the claimed range"),
}


def _part_cell(res_part: claims.PartResult, tr, fig) -> str:
    """The computed value a claim part is compared with; the figure explains itself (popover, sources row)."""
    verdict = tr(res_part.verdict, "verdict")
    mode = res_part.part.mode if res_part.verdict in ("correct", "rounding") else "about"
    if mode == "at_most" and res_part.part.bound != "ceiling":
        mode = f"at_most/{res_part.part.bound}"
    if mode != "about" and res_part.part.phrase:
        mode_phrase = tr(res_part.part.phrase)       # the claim's own words for what the value shows
    else:
        mode_phrase = tr(_PART_PHRASES[mode]) if mode != "about" else _PART_PHRASES[mode]
    phrase = escape(mode_phrase)
    figure_id = res_part.matched or res_part.part.figure
    # a claim's own phrase may ask for the value's prose form ("7.2 times the bandwidth"); the modes' phrases do not
    own = mode != "about" and res_part.part.phrase
    value = fig(figure_id, res_part.part.style) if own and res_part.part.style else fig(figure_id)
    return f"{phrase.replace('{value}', '<strong>' + value + '</strong>')} <small>({escape(verdict)})</small>"


def _note(c: claims.Claim, tr, fig) -> str:
    """The claim's note with its computed numbers put in (each a figure the note names)."""
    if not c.note:
        return ""
    text = escape(tr(c.note, "claim-note"))
    for slot, fig_id in c.note_figures:
        text = text.replace("{" + slot + "}", fig(fig_id))
    return text


def factcheck_table(lang: str, tr, fig) -> str:
    """The claims beside what the model computes, with the computed verdict and its reason.

    `fig(id)` prints a figure as the page's table figures do (a link to its sources row that the
    popover explains in place), so every computed value here shows its formula and inputs."""
    heads = [tr("Claim"), tr("The site's calculation"), tr("Verdict"), tr("Why")]
    rows = []
    for res in claims.results():
        c = res.claim
        if res.parts:
            computed = "<br>\n".join(_part_cell(p, tr, fig) for p in res.parts)   # a line break the search index reads as a space
        else:
            computed = "<br>\n".join(fig(f) for f in c.offers) or "–"
        why = _note(c, tr, fig)
        rows.append([f"{c.n}. {escape(tr(c.text, 'claim'))}", computed,
                     f'<span class="verdict verdict-{res.verdict}">{escape(tr(res.verdict, "verdict"))}</span>', why])
    return _table(heads, rows, "factcheck-table", tr)


# ---------------------------------------------------------------- measurements against the model

# Beside an expected value: the held-out band; where no measurement calibrates a device, why there is none.
TYPICALLY = N_("typically {range}")
NOT_CALIBRATED = N_("no expected value: no published measurement calibrates this device")

# The messages a step sends, by comm.py's names (shown where a link's bandwidth is unpublished).
_MESSAGES = {"tp-allreduce": N_("tensor-parallel all-reduces"), "pp-handoff": N_("pipeline hand-offs"),
             "ep-all-to-all": N_("expert all-to-all")}
# Where a device publishes no dense compute peak, its ceiling counts memory only: say so, not "–".
_MEMORY_ONLY = N_("ceiling from memory bandwidth alone: no dense compute peak is published, so the arithmetic "
                  "time, likely the tighter limit here, is missing; this ceiling says little")

# The messages left out of an expected time, by how many there are: each "without" its own, as German and
# Italian say it ("ohne … und ohne …"), not a list joined by the code.
_WITHOUT = {1: N_("without {a}: link bandwidth unpublished"),
            2: N_("without {a} and without {b}: link bandwidth unpublished"),
            3: N_("without {a}, without {b} and without {c}: link bandwidth unpublished")}
_BASIS = {"required": N_("needs acceptance ≥ {a}"), "published": N_("published acceptance {a}"),
          "sourced range": N_("acceptance {a}, published for this model family")}


def _explanation_cell(r, fig, tr) -> str:
    """Mechanism and the computed condition: '8-bit weights + speculative decoding, 1 proposed per step, needs acceptance ≥ 14 %'."""
    e = r.explanation
    if r.ratio <= 1:
        return "–"
    if e is None:
        return escape(tr("no mechanism found"))
    parts = []
    if e.precision:
        parts.append(escape(tr("{precision} weights")).replace("{precision}", escape(precision.get(e.precision).label)))
    if e.k:
        spec = escape(tr("speculative decoding (tokens proposed per step: {k})")).replace("{k}", fig(f"row.{r.key}.why_k"))
        spec += ", " + escape(tr(_BASIS[e.acceptance_basis])).replace("{a}", fig(f"row.{r.key}.why_acceptance"))
        parts.append(spec)
    ceiling = escape(tr("ceiling then {value}")).replace("{value}", fig(f"row.{r.key}.why_ceiling"))
    return f'<span class="why">{" + ".join(parts)}<br><small>{ceiling}</small></span>'


def _as_served(pm, key, tr, fig, lang: str) -> str:
    """Under the plain ceiling: the precision and speculation the publisher states, and the ceiling
    of that configuration, which the expected speed (computed for it) stays under."""
    if not measured.states_configuration(pm):
        return ""
    parts = []
    if pm.weight_precision:
        parts.append(escape(tr("{precision} weights")).replace("{precision}", escape(precision.get(pm.weight_precision).label)))
    if pm.speculation and pm.speculation.k:
        parts.append(escape(tr("speculative decoding")))
    elif pm.speculation:  # heads or acceptance not published: the figures cannot count it
        parts.append(escape(tr("speculative decoding, not counted (not quantified by the publisher)")))
    # "FP4 weights and speculative decoding", as each language joins a list (Babel's CLDR patterns)
    served = escape(tr("as served: {config}; its ceiling {value}")).replace("{config}", babel.lists.format_list(parts, locale=lang))
    return f'<br><small>{served.replace("{value}", fig(f"row.{key}.ceiling_served"))}</small>'


def measurements_table(lang: str, tr, fig, cite) -> str:
    """Every published measurement beside the model (calculators/perf/measured.py): the deployment
    the model assumes (marked where the publisher does not state it), ceiling, expected,
    measured ÷ ceiling, and the computed explanation where the measurement exceeds the ceiling.

    `fig(id)` prints a figure as the page's fig() macro does; `cite(src)` returns a
    footnote marker for a measurement's source (the page's source list links it).
    """
    from calculators.data import serving
    cat, sv = catalog.load(), serving.load()
    # Eight columns: date under who measured, context under the deployment, so the table fits a page's width.
    heads = [tr("Model"), tr("Measured by"), tr("Deployment"), tr("Measured"),
             tr("Ceiling"), tr("Expected"), tr("Measured ÷ ceiling"), tr("What explains it")]
    table = measured.rows(cat, sv)
    bad = measured.unexplained(table)
    if bad:
        raise ValueError("measurements above their ceiling with no computed explanation (calculators/perf/measured.py found no "
                         "precision or speculative decoding that reaches them): " + ", ".join(
                             f"{r.key} ({'catalog.toml' if r.key in cat.measurements else 'serving.toml'}: measured {r.high:g} tok/s, "
                             f"ceiling {r.ceiling:.4g} tok/s)" for r in bad))
    rows = []
    for r in table:
        rec = cat.measurements.get(r.key) or sv.measurements[r.key]
        device = cat.devices[r.device]
        mark = tr("assumed", "deployment") if r.deployment_assumed else tr("published", "deployment")
        marker = f'<small>({escape(mark)})</small>'
        layout = escape(tr("{count} × {device}, {layout}")).replace("{count}", escape(fmt.format_number(r.deployment.devices, lang))) \
            .replace("{device}", escape(device.name)).replace("{layout}", escape(r.deployment.label()))
        context = escape(tr("{tokens} tokens of context")).replace("{tokens}", escape(fmt.format_number(r.context, lang)))
        if r.context_assumed:
            context += f' ({escape(tr("assumed", "deployment"))})'
        served = _as_served(sv.measurements.get(r.key), r.key, tr, fig, lang)
        if r.expected is None:   # no published measurement calibrates the step time on this device
            expected = f'–<br><small>{escape(tr(NOT_CALIBRATED))}</small>'
        else:
            expected = fig(f"row.{r.key}.expected")
            typically = escape(tr(TYPICALLY)).replace("{range}", fig(f"row.{r.key}.expected_range"))
            expected += f"<br><small>{typically}</small>"
            if served:   # computed for the publisher's configuration, whose own ceiling stands in the ceiling cell
                note = escape(tr("as served"))
                expected += f"<br><small>({note})</small>"
        if r.unknown_links:
            names = [tr(_MESSAGES[u]) for u in r.unknown_links]
            without = tr(_WITHOUT[len(names)]).format(**dict(zip("abc", names)))
            expected += f'<br><small>{escape(without)}</small>'
        who = f'{escape(tr(r.who, "measured-by"))}{cite(rec.src)}<br><small>{escape(dates.published(rec.date, lang))}</small>'
        rows.append([escape(cat.models[r.model].name), who, f"{layout} {marker}<br><small>{context}</small>",
                     fig(f"row.{r.key}.measured"), fig(f"row.{r.key}.ceiling") + served, expected,
                     fig(f"row.{r.key}.ratio"), _explanation_cell(r, fig, tr) if device.peak_flops else escape(tr(_MEMORY_ONLY))])
    return _table(heads, rows, "measurements-table", tr)
