"""The calculators a reader uses: fields in, result rows and a chart out, in the page's language.

- calculators/ui/worker.py: `evaluate` (the build and the browser), `handle` (the browser worker's JSON API),
  `CALCULATORS` (name -> Calculator), default and shared-link field texts;
- calculators/ui/calculator.py: the `Calculator` type, `Row`, `Result`;
- one module per calculator: kv_cache.py, decode.py, fit.py, latency.py;
- calculators/ui/fields.py: one class per kind of input, each with its rule and message;
- calculators/ui/checks.py: inputs that parse but that the model cannot take;
- calculators/ui/inputs.py: what checked inputs mean to the model (model, layout, step);
- calculators/ui/charts.py and svg.py: the calculators' SVG charts;
- calculators/ui/config_messages.py: what a reader sees of their own config.json;
- calculators/ui/messages.py: how UI strings are marked, and which the browser needs.
"""
