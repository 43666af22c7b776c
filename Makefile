# The two commands a newcomer needs: `make serve` and `make test`.
# Each installs what it needs (a virtual environment with pinned packages,
# `npm ci` for Pyodide) on first use; nothing has to be installed by hand.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-requirements
NODE_STAMP := node_modules/.installed-lock
PIP_INSTALL = -m pip install --quiet --disable-pip-version-check -c constraints.txt

# BUILDER=properdocs builds and serves with ProperDocs (a maintained MkDocs 1.x) instead of MkDocs,
# from its own pinned set (requirements-properdocs.txt) in its own venv, installed on first use.
BUILDER ?= mkdocs
PD_VENV  := .venv-properdocs
PD_STAMP := $(PD_VENV)/.installed-requirements
BUILDER_CMD_mkdocs     := $(PY) -m mkdocs
BUILDER_CMD_properdocs := $(PD_VENV)/bin/python -m properdocs
BUILDER_DEPS_mkdocs    :=
BUILDER_DEPS_properdocs := $(PD_STAMP)
BUILD := $(or $(BUILDER_CMD_$(BUILDER)),$(error BUILDER must be mkdocs or properdocs, not "$(BUILDER)"))

.PHONY: help setup properdocs test serve site text bench lock messages translations reviewed clean fit

help:
	@echo "make serve   build and serve the site at http://127.0.0.1:8000 (live reload; PORT=8831 for another port)"
	@echo "make site    write the static site to site/ (BUILDER=properdocs: built by ProperDocs instead of MkDocs)"
	@echo "make test    run every test (model, formatting, catalog, Pyodide parity, calculators in Chromium)"
	@echo "make text    the reading copy: every string a reader can see, per language and page, in reading/"
	@echo "make bench   print speed and size ratios against baselines measured in the same run"
	@echo "make clean   remove the virtual environment, node_modules and build output"
	@echo "make fit     fit the step-time constants to the published measurements (calculators/data/step_time.toml)"
	@echo "make translations             what is missing, fuzzy, stale or unused, per language (file:line)"
	@echo "make reviewed PAGE=docs/da/decode.md  record that a translation matches the current German page"
	@echo "make serve SITE_LANG=da       build and serve one language only, at /da/ (translator preview)"

setup: $(STAMP) $(NODE_STAMP)

# Re-install when requirements.txt or constraints.txt changes; the stamp holds a copy of both.
$(STAMP): requirements.txt constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) $(PIP_INSTALL) -r requirements.txt
	@cat requirements.txt constraints.txt > $(STAMP)

# ProperDocs' set is complete (transitive pins included) and leaves MkDocs out: hence --no-deps.
properdocs: $(PD_STAMP)
$(PD_STAMP): requirements-properdocs.txt constraints.txt
	@test -x $(PD_VENV)/bin/python || $(PYTHON) -m venv $(PD_VENV)
	$(PD_VENV)/bin/python $(PIP_INSTALL) --no-deps -r requirements-properdocs.txt
	@cat requirements-properdocs.txt constraints.txt > $(PD_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@cp package-lock.json $(NODE_STAMP)

# The ProperDocs venv too: tests/test_properdocs.py builds the site with both and compares the figures.
test: setup properdocs
	$(PY) -m pytest -q

# Python keeps the project's compiled modules in __pycache__/ (ignored by git) as it does by default.
# Some images set PYTHONDONTWRITEBYTECODE, which would compile about 80 modules from source on every
# build and test run (about 0.1 s of each build); the empty value restores the default here only.
export PYTHONDONTWRITEBYTECODE :=

# MkDocs 1.6 prints a banner about its successor on every run; it says nothing about this site.
export NO_MKDOCS_2_WARNING := 1

# tools/serve.py runs `mkdocs serve` and starts it again when the site's Python changes; a build error shows
# in the browser (every page, or an error page while it cannot start) and the server keeps answering.
# PORT=8831 serves on another port (the site's own addresses follow it: mkdocs serve rewrites site_url).
# SITE_LANG=da builds one language only (mkdocs.yml: i18n build_only_locale), served where the full site
# has it (/da/): the plugin builds that one language as the site's root, and `mkdocs serve` mounts the
# site at the path of site_url. Other addresses answer: / redirects to /da/, and any other page (/en/…, a
# tab still open on the German site) gets the preview's 404 page, which says that only this language is
# built (hooks/root_404.py). German, the default language, stays at /. Not LANG: that is the shell's locale.
PORT ?= 8000
PREVIEW_PATH = $(if $(filter-out de,$(SITE_LANG)),$(SITE_LANG)/)
serve: setup $(BUILDER_DEPS_$(BUILDER))
	$(if $(SITE_LANG),SITE_LANG=$(SITE_LANG) SITE_URL=http://127.0.0.1:$(PORT)/$(PREVIEW_PATH) )$(PY) tools/serve.py --port $(PORT) --builder "$(BUILD)"

site: setup $(BUILDER_DEPS_$(BUILDER))
	$(BUILD) build --strict -d site

# The reading copy (tools/reading_copy.py): reading/<lang>/<page>.txt and reading/<lang>/calculator-messages.txt.
# Builds the site first when it is missing or a source is newer than it; `diff -r` two copies to see a change's text.
SITE_SOURCES = docs locales calculators sitebuild hooks overrides macros.py mkdocs.yml
text: setup
	@if [ ! -f site/index.html ] || [ -n "$$(find $(SITE_SOURCES) -name __pycache__ -prune -o -type f -newer site/index.html -print | head -1)" ]; \
	then $(MAKE) --no-print-directory site; fi
	rm -rf reading
	$(PY) tools/reading_copy.py site reading

bench: setup
	$(PY) tools/bench.py

# The step-time constants: fitted to the fitting set of calculators/article/measurements.toml, written with the
# fit's report to calculators/data/step_time.toml (numpy and scipy, pinned in requirements.txt).
fit: setup
	$(PY) tools/fit_step_time.py

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
	rm -rf $(VENV) $(PD_VENV) node_modules site reading dist build .pytest_cache .hypothesis
