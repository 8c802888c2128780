# rulepress: `make` sets up .venv and builds everything; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
RULEPRESS := $(VENV)/bin/rulepress
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
export SOURCE_DATE_EPOCH ?= 1767225600

# The exact versions, with hashes, that `make` and `make test` install (made by `make lock`).
LOCK := requirements.lock
TEST_LOCK := requirements-test.lock

SOURCES := $(shell find sources templates -type f 2>/dev/null)
CODE := $(shell find src -name '*.py' 2>/dev/null)

.PHONY: all build pnp test test-fast bench check clean lint kit-report lock upgrade-check wheel

all: build/.done pnp/.done

# WeasyPrint draws text with Pango, a system library PyPI cannot provide, and subsets fonts
# fast with HarfBuzz's subsetter (without it, fontTools takes ~0.4 s a face a PDF). Both come
# from Debian and are installed only when missing.
SYSLIBS := pango-1.0 pangoft2-1.0 harfbuzz-subset
# The venv holds the lock and nothing else: made anew when the lock or pyproject.toml changes.
# pip is the one this Python ships (ensurepip); rulepress itself is built without build
# isolation, so its build backend (setuptools) comes from the lock too.
$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import ctypes.util as u, sys; sys.exit(any(u.find_library(n) is None for n in sys.argv[1:]))' $(SYSLIBS) \
	  || (apt-get update -qq && apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 >/dev/null)
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --require-hashes --no-deps -r $(LOCK)
	$(PIP) install -q --no-deps --no-build-isolation -e .
	@touch $@

$(TEST_STAMP): $(STAMP) $(TEST_LOCK)
	$(PIP) install -q --require-hashes --no-deps -r $(TEST_LOCK)
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

# The errata sheet of Worm Derby's second printing (1.1) against the tagged first (v1.0); a
# checkout without tags (a shallow clone) has nothing to compare it with and skips it.
build/.done: $(COMPILED) $(SOURCES) $(CODE)
	$(RULEPRESS) build
	@if git rev-parse -q --verify 'v1.0^{commit}' >/dev/null 2>&1; then \
	  $(RULEPRESS) diff v1.0 worm-derby -q; fi
	@touch $@

# The single-sided kits too: each two-sided kit's cover and printer check name the file.
pnp/.done: $(COMPILED) $(SOURCES) $(CODE)
	$(RULEPRESS) pnp
	$(RULEPRESS) pnp --sides one
	@touch $@

build: build/.done
pnp: pnp/.done

check: $(STAMP)
	$(RULEPRESS) check

# Lint and types are part of the test: a change that breaks either does not land.
# Tests run on both cores (pytest-xdist); `make test JOBS=1` runs them in one process.
JOBS ?= 2
# worksteal: each worker starts on its half of the tests in file order and an idle worker
# takes the last half of what the other has left: fewer cuts than `load`, which refills a worker
# in chunks as it runs low (a module cut in two builds its module fixtures on both), and neither
# worker is left alone with the long tail.
DIST = $(if $(filter 0 1,$(JOBS)),,--dist worksteal)
# Strict types are checked by a process of their own while the tests run (about 13 s of one
# core, cold); either failing fails the target, and mypy's report follows the tests'.
test: $(TEST_STAMP) $(COMPILED) $(CHROMIUM)
	$(VENV)/bin/ruff check src tests benchmarks
	@$(VENV)/bin/mypy > $(VENV)/.mypy.out 2>&1 & types=$$!; \
	  echo "$(PY) -m pytest -n $(JOBS) $(DIST)"; $(PY) -m pytest -n $(JOBS) $(DIST); tests=$$?; \
	  wait $$types; typed=$$?; echo "$(VENV)/bin/mypy"; cat $(VENV)/.mypy.out; \
	  test $$tests -eq 0 && test $$typed -eq 0

# The inner loop: the tests not marked slow (unit tests on fixtures: no browser, no full build,
# no CLI run end to end on the bundled games, no subprocess, no Dask), on both cores, without
# lint and types. `make test` stays the whole suite and what CI runs.
test-fast: $(TEST_STAMP) $(COMPILED)
	$(PY) -m pytest -n $(JOBS) $(DIST) -m "not slow"

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/mypy

bench: $(TEST_STAMP) $(COMPILED)
	@for b in benchmarks/bench_*.py; do $(PY) $$b || exit 1; done

# Sheets, fill and ink of every bundled kit, both papers and modes, measured from the PDFs.
kit-report: $(TEST_STAMP)
	$(PY) benchmarks/kit_report.py

clean:
	rm -rf build pnp dist .pytest_cache

# Re-resolves both locks to the newest releases pyproject.toml allows (uv: one resolution for
# every Python from 3.11 up and every platform, which pip-compile cannot do). Run it on purpose,
# then `make test`, and commit the locks with what the new releases needed.
# --no-strip-extras: a pin keeps the extras a dependency asks for (fonttools[woff]==…, as
# WeasyPrint requires fonttools[woff]); pip before 23.3, which Python 3.11 ships, otherwise stops
# on the dependency as "not pinned with ==" when the lock is installed with its dependencies.
UV := uv==0.13.9
LOCK_TOOLS := .venv-lock
UV_COMPILE := $(LOCK_TOOLS)/bin/uv pip compile -q --universal --python-version 3.11 \
  --generate-hashes --no-strip-extras --custom-compile-command 'make lock'
lock:
	@test -x $(LOCK_TOOLS)/bin/uv || ($(PYTHON) -m venv $(LOCK_TOOLS) && $(LOCK_TOOLS)/bin/pip install -q $(UV))
	$(UV_COMPILE) --upgrade pyproject.toml --group setup -o $(LOCK)
	$(UV_COMPILE) --upgrade pyproject.toml --extra test --group setup -c $(LOCK) -o $(TEST_LOCK)

# What the newest releases would break, before a user meets it: the tests of inputs, limits and
# the engine boundary, against a scratch venv of the newest versions pyproject.toml allows.
# Reports; never fails (the lock is what CI and users install).
UPGRADE_TESTS := tests/test_hostile.py tests/test_limits.py tests/test_engine_faults.py \
  tests/test_protocol.py tests/test_cli_diagnostics.py tests/test_reader_schema.py \
  tests/test_render_safety.py
upgrade-check: $(CHROMIUM)
	@PYTHON=$(PYTHON) LOCK=$(TEST_LOCK) .ci/upgrade-check $(UPGRADE_TESTS)

# A wheel to install rulepress outside this checkout (README, "Installing rulepress").
# Built from a copy: setuptools would write its own build/ folder here, where the books go.
wheel: $(STAMP)
	@d=$$(mktemp -d) && cp -a src templates pyproject.toml README.md LICENSE $$d/ \
	  && rm -rf $$d/src/*.egg-info && $(PIP) wheel -q --no-deps --no-build-isolation -w dist $$d \
	  && rm -rf $$d && ls dist/*.whl
