"""Build hook: compile the solver's hot core with mypyc when it can.

Everything else lives in pyproject.toml. ``src/eightoff/solver/search.py`` is plain,
fully typed Python; mypyc turns it into a C extension (the same search, 1.5-2x
faster). The extension is optional: without mypy at build time, or when the C
compiler fails, the package installs as pure Python and runs the same code.
An editable install (``pip install -e .``) builds the ``.so`` next to
``search.py``; :mod:`eightoff.solver` ignores it once ``search.py`` is newer.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import setup

HOT = ["src/eightoff/solver/search.py"]


def _extensions() -> list[Any]:
    if os.environ.get("EIGHTOFF_PURE"):  # EIGHTOFF_PURE=1 pip install ...: no compiling
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        exts = mypycify(HOT, opt_level="3")
    except Exception as exc:  # a type error mypyc refuses: fall back to pure Python
        print(f"eightoff: not compiling the solver core ({exc})")
        return []
    for ext in exts:
        ext.optional = True  # a failing C compile warns and installs the pure module
    return list(exts)


setup(ext_modules=_extensions())
