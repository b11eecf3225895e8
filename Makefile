# Two commands do all the set-up: `make play` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
APT_PACKAGES := chromium freecell-solver-bin libfreecell-solver0

# The kernel and the solver's compiled core (see setup.py): rebuilt when any of these changes.
KERNEL_DIR := src/eightoff/_kernel
KERNEL_UNITS := $(filter-out $(KERNEL_DIR)/module.c,$(wildcard $(KERNEL_DIR)/*.c))
SOLVER_DIR := src/eightoff/solver/native
SOLVER_UNITS := $(filter-out $(SOLVER_DIR)/module.c,$(wildcard $(SOLVER_DIR)/*.c))
SOLVER_SOURCES := $(wildcard $(SOLVER_DIR)/*.[ch] $(KERNEL_DIR)/*.[ch])

.PHONY: play test setup system-deps build-deps lint bench mutate kernel-test

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml setup.py $(SOLVER_SOURCES) | build-deps
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	EIGHTOFF_REQUIRE_NATIVE=1 $(PY) -m pip install -q -e '.[all,dev]'
	touch $@

# A C compiler and Python's headers, to build the solver's C core: `make` installs it
# built or not at all (EIGHTOFF_REQUIRE_NATIVE=1: a failing compile fails the set-up).
# `pip install .` without them still gives a pure-Python package (README).
build-deps:
	@if ! command -v cc >/dev/null || ! python3 -c "import os, sys, sysconfig; \
	  sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo"; \
	  { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq gcc python3-dev >/dev/null; } \
	    || { echo "eightoff: could not install a C compiler and Python's headers" \
	              "(gcc python3-dev), which the solver's C core needs" >&2; exit 1; }; \
	fi

# Debian packages the tests use: Chromium (browser tests) and Freecell Solver (cross-checks).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v fc-solve >/dev/null || missing="$$missing freecell-solver-bin"; \
	if [ -n "$$missing" ]; then \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi; \
	for tool in chromium fc-solve; do \
	  command -v $$tool >/dev/null || { echo "eightoff: $$tool is missing; the tests need it" >&2; exit 1; }; \
	done

play: setup
	$(VENV)/bin/eightoff serve

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

# --strict-skips (tests/conftest.py): the C core, chromium and fc-solve must be there,
# and a skipped test fails the run unless its reason is on the allow-list there.
test: setup system-deps lint kernel-test
	HYPOTHESIS_PROFILE=ci $(VENV)/bin/pytest -q -n 2 --strict-skips

# Mutation testing of the engine modules (slow; not part of `make test`): each module's
# score and surviving mutants (benchmarks/mutation.py, benchmarks/results/mutation.md).
mutate: setup
	$(PY) benchmarks/mutation.py

# The game kernel alone, and the solver's plain C entry points (solve.h) over it, with a
# C compiler and no Python: tests/c/test_kernel.c, tests/c/test_solve.c.
kernel-test:
	@mkdir -p build
	$(CC) -std=c11 -Wall -Wextra -pedantic -Werror -O2 -I$(KERNEL_DIR) tests/c/test_kernel.c $(KERNEL_UNITS) -o build/test_kernel
	build/test_kernel
	$(CC) -std=c11 -Wall -Wextra -pedantic -Werror -O2 -I$(KERNEL_DIR) -I$(SOLVER_DIR) tests/c/test_solve.c $(SOLVER_UNITS) $(KERNEL_UNITS) -lm -o build/test_solve
	build/test_solve

bench: setup system-deps
	$(PY) benchmarks/solver_vs_fcsolve.py
	$(PY) benchmarks/solver_optimal.py
	$(PY) benchmarks/api_load.py
