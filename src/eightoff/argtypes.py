"""Command-line pieces shared by every entry point: value types and the one-line parser.

Python's ``int()`` and ``float()`` accept any Unicode digit ("٣" is 3); an option takes
ASCII only, so a mistyped value is refused with what is wrong instead of read as another.
:class:`Parser` reports a usage error as one line ``eightoff: error: …`` (exit 2).
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Callable
from typing import Any, Final, NoReturn

from eightoff.numbers import InvalidNumberError, excerpt, whole_number


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line ``eightoff: error: …`` (exit 2), and
    options are spelled out (no abbreviations, so no option can hide another)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        hint = f" (see '{self.prog} --help')"
        self.exit(2, error_line(f"{message}{hint}") + "\n")


def error_line(message: str) -> str:
    """``eightoff: error: message`` as one printable line: an undecodable byte of the
    command line (a lone surrogate) is shown escaped, never raised while printing."""
    text = " ".join(message.split())
    return "eightoff: error: " + text.encode("utf-8", "backslashreplace").decode("utf-8")


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, written exactly as
    ASCII digits ``[0-9]+`` without a sign, spaces or a leading zero."""

    def parse(text: str) -> int:
        digits = text.removeprefix("-")  # -3 is read, to be refused as out of range
        try:
            value = whole_number(digits)
        except InvalidNumberError as exc:
            why = str(exc) if digits == text else f"expected a whole number, not {excerpt(text)}"
            raise argparse.ArgumentTypeError(why) from None
        if digits != text:
            value = -value
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    parse.__name__ = "whole number"  # what argparse names in its own messages
    return parse


_SECONDS: Final = re.compile(
    r"-?(?P<digits>(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,6})?"
)


def seconds(text: str) -> float:
    """An argparse type: a finite, non-negative number of seconds (0: no limit), in
    ASCII digits without a sign or leading zero (``2``, ``0.5``, ``1e3``); a positive
    number so small it would round to 0 (no limit) is refused."""
    m = _SECONDS.fullmatch(text)
    if m is None:
        raise argparse.ArgumentTypeError(
            "expected a number of seconds in ASCII digits without a sign or a leading zero, "
            f"like 2 or 0.5, not {excerpt(text)}"
        )
    value = float(text)
    if not (math.isfinite(value) and value >= 0 and text[0] != "-"):
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) or a positive number, not {excerpt(text)}"
        )
    if value == 0 and m.group("digits").strip("0.") != "":
        raise argparse.ArgumentTypeError(
            f"{text} s is too small: it rounds to 0, which means no limit"
        )
    return value


def directory(text: str) -> str:
    """An argparse type: a directory to keep files in, made when missing; anything
    else already there is refused."""
    if not text:
        raise argparse.ArgumentTypeError("expected a directory, not an empty path")
    try:
        usable = not os.path.lexists(text) or os.path.isdir(text)
    except ValueError:  # a NUL in the path
        usable = False
    if not usable:
        raise argparse.ArgumentTypeError(f"{text!r} is there and is not a directory")
    return text


__all__ = ["Parser", "directory", "error_line", "int_in", "seconds"]
