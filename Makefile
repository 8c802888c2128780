# rulepress: `make` sets up .venv and builds everything; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RULEPRESS := $(VENV)/bin/rulepress
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
export SOURCE_DATE_EPOCH ?= 1767225600

SOURCES := $(shell find sources templates -type f 2>/dev/null)
CODE := $(shell find src -name '*.py' 2>/dev/null)

.PHONY: all build pnp test bench check clean lint kit-report

all: build/.done pnp/.done

# WeasyPrint draws text with Pango, a system library PyPI cannot provide, and subsets fonts
# fast with HarfBuzz's subsetter (without it, fontTools takes ~0.4 s a face a PDF). Both come
# from Debian and are installed only when missing.
SYSLIBS := pango-1.0 pangoft2-1.0 harfbuzz-subset
$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import ctypes.util as u, sys; sys.exit(any(u.find_library(n) is None for n in sys.argv[1:]))' $(SYSLIBS) \
	  || (apt-get update -qq && apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 >/dev/null)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	@touch $@

$(TEST_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

# The browser tests drive Debian's Chromium through Playwright: Playwright's own browser download
# cannot run here, and the distribution's build is the one users have. Installed only when missing.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	apt-get update -qq && apt-get install -y -qq chromium >/dev/null

# Python writes no bytecode where PYTHONDONTWRITEBYTECODE is set (as on CI), and an editable
# install is not compiled: compiled here, every rulepress command starts about 0.1 s sooner.
COMPILED := $(VENV)/.compiled
$(COMPILED): $(STAMP) $(CODE)
	@$(PY) -m compileall -q src >/dev/null
	@touch $@

build/.done: $(COMPILED) $(SOURCES) $(CODE)
	$(RULEPRESS) build
	@touch $@

pnp/.done: $(COMPILED) $(SOURCES) $(CODE)
	$(RULEPRESS) pnp
	@touch $@

build: build/.done
pnp: pnp/.done

check: $(STAMP)
	$(RULEPRESS) check

# Lint and types are part of the test: a change that breaks either does not land.
test: $(TEST_STAMP) $(COMPILED) $(CHROMIUM)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy
	$(PY) -m pytest

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy

bench: $(TEST_STAMP) $(COMPILED)
	@for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

# Sheets, fill and ink of every bundled kit, both papers and modes, measured from the PDFs.
kit-report: $(TEST_STAMP)
	$(PY) benchmarks/kit_report.py

clean:
	rm -rf build pnp .pytest_cache
