"""The formula objects of every figure, collected from one module per topic.

A figure's `formula` says in words what it is; its formula object
(calculators/formula_object.py) says it as arithmetic over named terms. The
popover next to a number, the sources page and the tests read the same
objects. They are written in calculators/formulas_<topic>.py; this module
joins them into one table and remembers which file holds each, so that the
build check (sitebuild/checks/formulas.py) names the right file and line.

Figures that read one catalog datum or one scenario assumption need no
entry: their formula is the datum itself (see `for_figure`).
"""

from __future__ import annotations

from . import formulas_deployment
from . import formulas_hardware
from . import formulas_measured
from . import formulas_model
from . import formulas_rows
from . import formulas_step
from .formula import F, Formula  # noqa: F401  (F: the shorthand callers and tests use)

# In the order the sources page reads best: models, one step, hardware, measurements, deployment, measurement rows.
_MODULES = (formulas_model, formulas_step, formulas_hardware, formulas_measured, formulas_deployment, formulas_rows)


def _collect() -> tuple:
    """One table of every topic's formulas, and each formula's file; an id defined twice is an error."""
    table, origin = {}, {}
    for module in _MODULES:
        path = module.__name__.replace(".", "/") + ".py"
        for fig_id, formula in module.FORMULAS.items():
            if fig_id in table:
                raise ValueError(f"formula of {fig_id!r} is defined in {origin[fig_id]} and again in {path}")
            table[fig_id], origin[fig_id] = formula, path
    return table, origin


_FORMULAS, _ORIGIN = _collect()


def for_figure(fig_id: str) -> Formula | None:
    """The figure's formula object, or None where the figure is a catalog datum or an assumption itself."""
    return _FORMULAS.get(fig_id)


def origin(fig_id: str) -> str:
    """The file (relative to the project root) that defines the figure's formula object."""
    return _ORIGIN[fig_id]


def all_formulas() -> dict:
    return dict(_FORMULAS)
