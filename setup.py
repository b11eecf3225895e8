"""Build hook: compile the solver's hot core with mypyc when it can.

Everything else lives in pyproject.toml. The solver's hot modules (``search.py``, the
search core, and ``shorten.py``, its line shortener) are plain, fully typed Python;
mypyc turns each into a C extension (the same code, 1.5-3x faster). The extensions are
optional: without mypy at build time, or when the C compiler fails, the package
installs as pure Python and runs the same code.
An editable install (``pip install -e .``) builds each ``.so`` next to its ``.py``;
:mod:`eightoff.solver` ignores a ``.so`` once its ``.py`` is newer.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

HOT = [
    "src/eightoff/solver/search.py",
    "src/eightoff/solver/shorten.py",
    "src/eightoff/solver/optimal.py",
]


def _extensions() -> list[Any]:
    if os.environ.get("EIGHTOFF_PURE"):  # EIGHTOFF_PURE=1 pip install ...: no compiling
        return []
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
