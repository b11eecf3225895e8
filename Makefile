# Two commands do all the set-up: `make play` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
APT_PACKAGES := chromium freecell-solver-bin libfreecell-solver0 nodejs

# The kernel and the solver's compiled core (see setup.py): rebuilt when any of these changes.
KERNEL_DIR := src/eightoff/_kernel
KERNEL_UNITS := $(filter-out $(KERNEL_DIR)/module.c,$(wildcard $(KERNEL_DIR)/*.c))
SOLVER_DIR := src/eightoff/solver/native
SOLVER_UNITS := $(filter-out $(SOLVER_DIR)/module.c,$(wildcard $(SOLVER_DIR)/*.c))
SOLVER_SOURCES := $(wildcard $(SOLVER_DIR)/*.[ch] $(KERNEL_DIR)/*.[ch])

# The kernel and the solver as WebAssembly, for the page's worker (src/eightoff/wasm/exports.c):
# the solver's C files but its CPython binding and its proof by layers (files on disk),
# compiled by the ziglang package from PyPI (the dev extras), small and stripped.
WASM := src/eightoff/web/static/kernel.wasm
WASM_UNITS := src/eightoff/wasm/exports.c $(KERNEL_UNITS) \
	$(filter-out %/module.c %/layered.c,$(wildcard src/eightoff/solver/native/*.c))
WASM_FLAGS := -target wasm32-wasi -mexec-model=reactor -std=c11 -O2 -flto -s \
	-Wl,--gc-sections -Wl,-z,stack-size=8388608 -Wno-unused-function

.PHONY: play test setup system-deps build-deps lint bench mutate kernel-test wasm wheel

setup: $(VENV)/.installed $(WASM)

$(VENV)/.installed: pyproject.toml setup.py $(SOLVER_SOURCES) | build-deps
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	EIGHTOFF_REQUIRE_NATIVE=1 $(PY) -m pip install -q -e '.[all,dev]'
	touch $@

wasm: $(WASM)

$(WASM): $(SOLVER_SOURCES) src/eightoff/wasm/exports.c | $(VENV)/.installed
	$(PY) -m ziglang cc $(WASM_FLAGS) -I$(KERNEL_DIR) -Isrc/eightoff/solver/native $(WASM_UNITS) -o $@

# A wheel with the WebAssembly in it (kernel.wasm is built, not committed): dist/.
wheel: $(WASM)
	$(PY) -m pip wheel -q --no-deps -w dist .
	$(PY) -c "import glob, sys, zipfile; \
	  names = zipfile.ZipFile(max(glob.glob('dist/eightoff-*.whl'))).namelist(); \
	  sys.exit(0 if 'eightoff/web/static/kernel.wasm' in names else 'eightoff: the wheel lacks kernel.wasm')"

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

# Debian packages the tests use: Chromium (browser tests), Freecell Solver (cross-checks)
# and Node.js (kernel.js on kernel.wasm).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v fc-solve >/dev/null || missing="$$missing freecell-solver-bin"; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	if [ -n "$$missing" ]; then \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO="sudo"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(APT_PACKAGES) >/dev/null; \
	fi; \
	for tool in chromium fc-solve node; do \
	  command -v $$tool >/dev/null || { echo "eightoff: $$tool is missing; the tests need it" >&2; exit 1; }; \
	done

play: setup
	$(VENV)/bin/eightoff serve

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks tools
	$(VENV)/bin/ruff format --check src tests benchmarks tools
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
