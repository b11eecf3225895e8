"""Whole numbers read from text, and short excerpts of text for messages.

Python's ``int()`` takes any Unicode digit (``"٤"`` is 4), a sign, spaces and
underscores, and refuses more than 4,300 digits with a bare ``ValueError``. Every
reader of numbers here goes through :func:`whole_number` instead: exactly ASCII
digits, no leading zero (``"0"`` itself is fine), and the length checked before the
value is computed, so a thousand-digit number is "too large", never a traceback.
"""

from __future__ import annotations

from typing import Final

from eightoff.errors import EightOffError

MAX_DIGITS: Final = 30
"""Longer digit strings are refused unread: no count, index or deal number comes near."""
EXCERPT: Final = 40
"""Characters of echoed input a message shows at most."""


class InvalidNumberError(EightOffError):
    """Text that is not a whole number in plain ASCII digits, or one with too many digits."""


def whole_number(text: str, max_digits: int = MAX_DIGITS) -> int:
    """The value of ``text``: ASCII digits ``[0-9]+`` without a sign, spaces or a
    leading zero. Raises :class:`InvalidNumberError` saying what is wrong."""
    if text.isascii() and text.isdigit():
        if len(text) > max_digits:
            raise too_large(len(text), max_digits)
        if text[0] == "0" and len(text) > 1:
            raise InvalidNumberError(
                f"{excerpt(text)} has a leading zero: write numbers without one"
            )
        return int(text)
    raise InvalidNumberError(
        f"expected a whole number, not {excerpt(text)}: ASCII digits 0-9 only, no sign or spaces"
    )


def too_large(digits: int, max_digits: int = MAX_DIGITS) -> InvalidNumberError:
    """The error for a number of ``digits`` digits, past ``max_digits``."""
    return InvalidNumberError(f"number too large ({digits:,} digits; at most {max_digits})")


def json_int(text: str) -> int:
    """``json.loads``' ``parse_int``: a JSON integer, refused past :data:`MAX_DIGITS` digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise too_large(digits)
    return int(text)


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``repr(value)``, cut to about ``limit`` characters saying how long it was."""
    shown = repr(value)
    if len(shown) <= limit + 2:
        return shown
    size = len(value) if isinstance(value, str) else len(shown)
    return f"{shown[:limit]}… ({size:,} characters)"


def clipped(text: str, limit: int = EXCERPT) -> str:
    """``text`` as is, cut to ``limit`` characters saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


__all__ = [
    "EXCERPT",
    "MAX_DIGITS",
    "InvalidNumberError",
    "excerpt",
    "json_int",
    "too_large",
    "whole_number",
]
