"""The decode and KV-cache model behind every figure on the site.

Modules, in the order data flows through them:
catalog (sourced data) -> model (pure functions) -> figures (named values
with unit and rounding) -> claims (verdicts) ; fmt writes numbers per locale.
Standard library only: the same package runs at build time and in Pyodide.
"""

__version__ = "0.1.0"
