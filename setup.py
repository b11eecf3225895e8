"""Build hook: compile the solver's C core when it can.

Everything else lives in pyproject.toml. ``native/*.c`` (the searches in C) is built
as the module ``eightoff.solver._native``. Without a C compiler at build time, or
with ``EIGHTOFF_PURE=1``, the package installs as pure Python and the solver runs
its reference search instead (same verdicts, far slower: see the README). With
``EIGHTOFF_REQUIRE_NATIVE=1`` (as ``make`` installs it) a failing C compile fails the
install. After editing the C sources, ``make setup`` (or ``pip install -e .``)
rebuilds it.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

NATIVE_DIR = "src/eightoff/solver/native"
NATIVE = Extension(
    "eightoff.solver._native",
    [f"{NATIVE_DIR}/module.c"],  # one unit: module.c includes the other files
    depends=[str(p) for p in sorted(Path(NATIVE_DIR).glob("*.[ch]"))],
    extra_compile_args=["-O2"],
    # A failing C compile warns and the reference search runs; unless it is required.
    optional=not os.environ.get("EIGHTOFF_REQUIRE_NATIVE"),
)

# EIGHTOFF_PURE=1 pip install ...: no compiling.
setup(ext_modules=[] if os.environ.get("EIGHTOFF_PURE") else [NATIVE])
