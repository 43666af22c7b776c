"""What every module of figures shares: the registering decorator and the catalog's short names.

The figures are written in one module per topic (calculators/figures_<topic>.py,
calculators/figure_terms.py); each keeps its own DEFINITIONS list, and
calculators/figures.py joins them into the one registry. This module imports
none of them, so there is no import cycle.
"""

from __future__ import annotations

# Short names for catalog records.
L70, GPT, MM, DS3 = "llama-3.1-70b", "gpt-oss-120b", "minimax-m2", "deepseek-v3"
M_L70, M_GPT, M_MM, M_DS3 = (f"models.{k}" for k in (L70, GPT, MM, DS3))
H100, SN40L = "h100-sxm", "sn40l"
D_H100, D_SN40L, R_SN = "devices.h100-sxm", "devices.sn40l", "racks.sn40l-16"


def registrar(definitions: list):
    """A decorator `figure(id, kind, formula, inputs, sig, decimals, unit)` that appends to `definitions`:
    the decorated function of the catalog computes the figure's value."""

    def figure(id, kind, formula, inputs=(), sig=3, decimals=None, unit=None):
        def wrap(fn):
            definitions.append((id, kind, formula, tuple(inputs), sig, decimals, unit, fn))
            return fn

        return wrap

    return figure


def meas(cat, key):
    """A published measurement: one number, or (low, high) where it is a range."""
    m = cat.measurements[key]
    return m.low if m.low == m.high else (m.low, m.high)


def datum(cat, key):
    """A sourced datum of the catalog: one number, or (low, high) where it is a range."""
    d = cat.data[key]
    return d.low if d.low == d.high else (d.low, d.high)
