# The two commands a newcomer needs: `make serve` and `make test`.
# Each installs what it needs (a virtual environment with pinned packages,
# `npm ci` for Pyodide) on first use; nothing has to be installed by hand.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-requirements
NODE_STAMP := node_modules/.installed-lock

.PHONY: help setup test serve site bench lock messages translations reviewed clean

help:
	@echo "make serve   build and serve the site at http://127.0.0.1:8000 (live reload)"
	@echo "make site    write the static site to site/"
	@echo "make test    run every test (model, formatting, catalog, Pyodide parity, calculators in Chromium)"
	@echo "make bench   print speed and size ratios against baselines measured in the same run"
	@echo "make clean   remove the virtual environment, node_modules and build output"
	@echo "make translations             what is missing, fuzzy, stale or unused, per language (file:line)"
	@echo "make reviewed PAGE=docs/da/x.md   record that a translation matches the current German page"
	@echo "make serve SITE_LANG=da       build and serve one language only (fast translator preview)"

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

# MkDocs 1.6 prints a banner about its successor on every run; it says nothing about this site.
export NO_MKDOCS_2_WARNING := 1

# SITE_LANG=da builds one language only (mkdocs.yml: i18n build_only_locale). Not LANG: that is the shell's locale.
serve: setup
	$(if $(SITE_LANG),SITE_LANG=$(SITE_LANG) )$(PY) -m mkdocs serve --strict -a 127.0.0.1:8000

site: setup
	$(PY) -m mkdocs build --strict -d site

bench: setup
	$(PY) tools/bench.py

# Regenerate the pins after changing a top-level dependency (see requirements.txt).
lock: setup
	{ sed -n '/^#/p' requirements.txt; $(PY) -m pip freeze --all --exclude pip --exclude-editable; } > requirements.txt.tmp && mv requirements.txt.tmp requirements.txt

messages: setup
	$(PY) tools/messages.py

# The translators' report; exits non-zero only on errors (stale, missing, fuzzy are warnings).
translations: setup
	$(PY) tools/translations.py

reviewed: setup
	@test -n "$(PAGE)" || { echo "usage: make reviewed PAGE=docs/da/decode.md"; exit 2; }
	$(PY) tools/translations.py reviewed $(PAGE)

clean:
	rm -rf $(VENV) node_modules site dist build .pytest_cache .hypothesis
