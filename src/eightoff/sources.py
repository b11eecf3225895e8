"""Where a game starts: a game code, a PySolFC deal number, or an fc-solve board file.

:func:`load_source` reads, in this order:

* ``pysol:N`` (any case) — PySolFC's Eight Off deal ``N`` under ``rules``
  (standard when not given);
* a path to an existing file — fc-solve board text, read under ``rules`` (when
  not given: the standard rules with as many cells as its ``Freecells:`` line);
* anything else is read as a game code (``EO1-C8-AAAAAFA``), which fixes every
  rule itself: ``rules`` must then be ``None`` or the code's own rules.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Final

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.errors import EightOffError
from eightoff.formats import InvalidBoardError, position_from_fcs
from eightoff.numbers import InvalidNumberError, excerpt, whole_number
from eightoff.position import Position
from eightoff.rules import STANDARD, Rules

MAX_BOARD_BYTES: Final = 2**20
"""A board file's size at most."""


class InvalidSourceError(EightOffError):
    """A game source that is none of: a game code, ``pysol:N``, a board file."""


def load_source(text: str, rules: Rules | None = None) -> tuple[Position, GameCode | None]:
    """The start position ``text`` names, and its game code (``None`` for a board file).

    Raises a ``ValueError`` subclass saying what is wrong: :class:`InvalidSourceError`,
    ``InvalidGameCodeError`` or ``InvalidBoardError``.
    """
    shown = text.strip()
    if not shown:
        raise InvalidSourceError(
            "no game given: expected a game code (EO1-C8-…), pysol:N or a board file"
        )
    m = re.fullmatch(r"(?i)pysol\s*:\s*(.*)", shown)
    if m:
        try:
            code = GameCode(rules or STANDARD, whole_number(m.group(1)), "pysol")
        except InvalidNumberError as exc:
            raise InvalidSourceError(
                f"bad source {excerpt(shown)}: expected pysol:N with N a number: {exc}"
            ) from None
        except InvalidGameCodeError as exc:
            raise InvalidSourceError(f"bad source {excerpt(shown)}: {exc}") from None
        return code.position(), code
    path = Path(shown)
    if _is_file(path):
        try:
            return position_from_fcs(_read_board(path, shown), rules), None
        except InvalidBoardError as exc:
            raise InvalidBoardError(f"{shown}: {exc}") from None
    if _exists(path):
        raise InvalidSourceError(f"{shown!r} is not a board file (not a regular file)")
    looks_like_path = "/" in shown or "\\" in shown or "." in shown
    if looks_like_path or shown[0] not in "Ee":
        raise InvalidSourceError(
            f"no such board file {excerpt(shown)}, and it is not a game code (EO1-C8-…) or pysol:N"
        )
    code = GameCode.parse(shown)
    if rules is not None and rules != code.rules:
        raise InvalidSourceError(
            f"the game code {code} fixes its own rules ({code.rules.describe()}); "
            "drop the rule options, or change the code"
        )
    return code.position(), code


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL in it
        return False


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _read_board(path: Path, shown: str) -> str:
    """A board file's text: a regular UTF-8 file of at most :data:`MAX_BOARD_BYTES`
    (a board is a few hundred bytes), opened without waiting on a fifo or device."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InvalidSourceError(f"cannot read board file {shown!r}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise InvalidSourceError(f"{shown!r} is not a board file (not a regular file)")
        data = f.read(MAX_BOARD_BYTES + 1)
    if len(data) > MAX_BOARD_BYTES:
        raise InvalidSourceError(
            f"board file {shown!r} is larger than {MAX_BOARD_BYTES // 2**20} MiB: "
            "a board is a few hundred bytes"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidSourceError(
            f"cannot read board file {shown!r}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


__all__ = ["InvalidSourceError", "load_source"]
