"""Value types for command-line options: whole numbers in a range and seconds, in ASCII.

Python's ``int()`` and ``float()`` accept any Unicode digit ("٣" is 3); an option takes
ASCII only, so a mistyped value is refused with what is wrong instead of read as another.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number (ASCII digits) from ``low`` to ``high``."""

    def parse(text: str) -> int:
        t = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", t):
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {t}")
        return value

    parse.__name__ = "whole number"  # what argparse names in its own messages
    return parse


def seconds(text: str) -> float:
    """An argparse type: a finite, non-negative number of seconds (0: no limit)."""
    t = text.strip()
    if not re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", t):
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}")
    value = float(t)
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be 0 (no limit) or a positive number, not {t}")
    return value


__all__ = ["int_in", "seconds"]
