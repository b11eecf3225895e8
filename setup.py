"""Build hook: compile the solver's hot core when it can.

Everything else lives in pyproject.toml. Two kinds of extension, both optional:

- ``native/*.c``, the search loops in C (~15x the compiled Python), built as the
  module ``eightoff.solver._native``;
- the solver's hot modules (``search.py``, ``shorten.py``, ``optimal.py``), plain,
  fully typed Python that mypyc turns into C extensions (the same code, 1.5-3x faster).

Without a C compiler (or mypy) at build time, or with ``EIGHTOFF_PURE=1``, the package
installs as pure Python and runs the same searches. An editable install
(``pip install -e .``) builds each ``.so`` next to its source; :mod:`eightoff.solver`
ignores a ``.so`` once its source is newer.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from setuptools import Extension, setup

HOT = [
    "src/eightoff/solver/search.py",
    "src/eightoff/solver/shorten.py",
    "src/eightoff/solver/optimal.py",
]


NATIVE_DIR = "src/eightoff/solver/native"
NATIVE = Extension(
    "eightoff.solver._native",
    [f"{NATIVE_DIR}/module.c"],  # one unit: module.c includes the other files
    depends=[str(p) for p in sorted(Path(NATIVE_DIR).glob("*.[ch]"))],
    extra_compile_args=["-O2"],
    optional=True,  # a failing C compile warns; the Python search then runs
)


def _extensions() -> list[Any]:
    if os.environ.get("EIGHTOFF_PURE"):  # EIGHTOFF_PURE=1 pip install ...: no compiling
        return []
    return [NATIVE, *_mypyc_extensions()]


def _mypyc_extensions() -> list[Any]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        exts = mypycify(HOT, opt_level="3", separate=True)  # one .so per module
    except Exception as exc:  # a type error mypyc refuses: fall back to pure Python
        print(f"eightoff: not compiling the solver core ({exc})")
        return []
    for ext in exts:
        ext.optional = True  # a failing C compile warns and installs the pure module
    return list(exts)


setup(ext_modules=_extensions())
