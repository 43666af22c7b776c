"""The decode and KV-cache model behind every figure on the site.

Floors, lowest first; a module imports from its own floor and those below
(tests/test_layers.py):

- text/     numbers, units, words and parsing per locale
- arch/     precision, layer specs, the config reader (a model's architecture)
- data/     catalog.toml and serving.toml read and validated whole, pasted configs
- perf/     roofline, deployment, fit, communication, speculative decoding, measurements
- ui/       the four calculators and their worker API (what the browser runs)
- article/  the site's figures, claims and charts (build only, not in the wheel)

Standard library only: the same package runs at build time (CPython 3.11)
and in the reader's browser (Pyodide).
"""

__version__ = "0.1.0"
