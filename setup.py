"""Build hook: compile the game kernel and the solver's C core when it can.

Everything else lives in pyproject.toml. Two extension modules share the kernel's C
files (``src/eightoff/_kernel/*.c``: positions, legal moves, keys, tables, replay):

* ``eightoff._kernel._kernel``: the kernel and its binding (``_kernel/module.c``), the
  engine's fast legal moves and replays;
* ``eightoff.solver._native``: the kernel, the searches (``solver/native/*.c``) and
  their binding (``solver/native/module.c``).

Only the two ``module.c`` files include ``Python.h``: ``make kernel-test`` builds the
kernel with a C compiler alone. Without a C compiler at build time, or with
``EIGHTOFF_PURE=1``, the package installs as pure Python and the solver runs its
reference search instead (same verdicts, far slower: see the README). With
``EIGHTOFF_REQUIRE_NATIVE=1`` (as ``make`` installs it) a failing C compile fails the
install. After editing the C sources, ``make setup`` (or ``pip install -e .``)
rebuilds them.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

KERNEL_DIR = Path("src/eightoff/_kernel")
SOLVER_DIR = Path("src/eightoff/solver/native")
BINDING = "module.c"


def units(folder: Path) -> list[str]:
    """The C files of ``folder`` but its binding."""
    return [str(p) for p in sorted(folder.glob("*.c")) if p.name != BINDING]


KERNEL_UNITS = units(KERNEL_DIR)
DEPENDS = [str(p) for p in sorted([*KERNEL_DIR.glob("*.[ch]"), *SOLVER_DIR.glob("*.[ch]")])]
# Link-time optimisation inlines the small hot functions (hashing, move generation)
# across the files as one unit would; hidden symbols keep the modules' names their own.
FLAGS = ["-O2", "-fvisibility=hidden", "-flto"]
# A failing C compile warns, and the engine replays in Python and the solver runs its
# reference search; unless the C code is required (EIGHTOFF_REQUIRE_NATIVE=1).
OPTIONAL = not os.environ.get("EIGHTOFF_REQUIRE_NATIVE")

KERNEL = Extension(
    "eightoff._kernel._kernel",
    [str(KERNEL_DIR / BINDING), *KERNEL_UNITS],
    include_dirs=[str(KERNEL_DIR)],
    depends=DEPENDS,
    extra_compile_args=FLAGS,
    extra_link_args=FLAGS,
    optional=OPTIONAL,
)
NATIVE = Extension(
    "eightoff.solver._native",
    [str(SOLVER_DIR / BINDING), *units(SOLVER_DIR), *KERNEL_UNITS],
    include_dirs=[str(KERNEL_DIR), str(SOLVER_DIR)],
    depends=DEPENDS,
    extra_compile_args=FLAGS,
    extra_link_args=FLAGS,
    optional=OPTIONAL,
)

# EIGHTOFF_PURE=1 pip install ...: no compiling.
setup(ext_modules=[] if os.environ.get("EIGHTOFF_PURE") else [KERNEL, NATIVE])
