"""The running example: the article's worked example as a value, and everything of the page that depends on it.

The main article and the speed page work through one example (Llama 3.1 70B
in BF16 on H100 unless the reader chooses another). Here it is a type,
`example.Example`, and everything the pages print about it is a function of
it: the figures (figures_*.py, declared once with their formula objects),
the sentences whose truth depends on the numbers (variants.py), the names
in sentences with the articles their grammar needs (names.py), the charts
(charts.py) and the explanations beside each figure (provenance.py).

The build renders them for each page's default example; the browser, after
every change of the example control (calculators/ui/example.py), for the
reader's, with the same code (render.py). In the wheel, below the
calculators: the figure and formula types live here too (figure.py,
formula.py), because the browser needs them.
"""
