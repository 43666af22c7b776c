# The two commands a newcomer needs: `make serve` and `make test`.
# Each installs what it needs (a virtual environment with pinned packages,
# `npm ci` for Pyodide) on first use; nothing has to be installed by hand.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-requirements
NODE_STAMP := node_modules/.installed-lock

.PHONY: help setup test test-fast serve site bench lock clean

help:
	@echo "make serve   build and serve the site at http://127.0.0.1:8000"
	@echo "make test    run every test (model, formatting, catalog, Pyodide parity)"
	@echo "make bench   print speed and size ratios against baselines measured in the same run"
	@echo "make clean   remove the virtual environment, node_modules and build output"

setup: $(STAMP) $(NODE_STAMP)

# Re-install when requirements.txt changes; the stamp holds a copy of it.
$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@cp requirements.txt $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@cp package-lock.json $(NODE_STAMP)

test: setup
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not slow"

serve: setup
	@if [ -f mkdocs.yml ]; then $(PY) -m mkdocs serve -a 127.0.0.1:8000; \
	else echo "The site does not exist yet (mkdocs.yml is missing); see the issues."; exit 1; fi

bench: setup
	$(PY) -m tools.bench

# Regenerate the pins after changing a top-level dependency (see requirements.txt).
lock: setup
	$(PY) -m pip freeze --exclude-editable > requirements.lock.tmp && mv requirements.lock.tmp requirements.txt

clean:
	rm -rf $(VENV) node_modules site dist build .pytest_cache .hypothesis
