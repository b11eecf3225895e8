"""The scripts of benchmarks/ as modules, for their tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """benchmarks/``name``.py, imported with its sibling scripts within reach."""
    sys.path.insert(0, str(BENCHMARKS))  # the scripts import one another
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
