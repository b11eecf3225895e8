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

import re
from pathlib import Path

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.errors import EightOffError
from eightoff.formats import InvalidBoardError, position_from_fcs
from eightoff.position import Position
from eightoff.rules import STANDARD, Rules


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
        number = m.group(1).strip()
        if not (number.isascii() and number.isdigit()):
            raise InvalidSourceError(f"bad source {shown!r}: expected pysol:N with N a number")
        try:
            code = GameCode(rules or STANDARD, int(number), "pysol")
        except InvalidGameCodeError as exc:
            raise InvalidSourceError(f"bad source {shown!r}: {exc}") from None
        return code.position(), code
    path = Path(shown)
    if path.is_file():
        try:
            board = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidSourceError(f"cannot read board file {shown!r}: {exc}") from None
        try:
            return position_from_fcs(board, rules), None
        except InvalidBoardError as exc:
            raise InvalidBoardError(f"{shown}: {exc}") from None
    if path.exists():
        raise InvalidSourceError(f"{shown!r} is not a board file")
    looks_like_path = "/" in shown or "\\" in shown or "." in shown
    if looks_like_path or shown[0] not in "Ee":
        raise InvalidSourceError(
            f"no such board file {shown!r}, and it is not a game code (EO1-C8-…) or pysol:N"
        )
    code = GameCode.parse(shown)
    if rules is not None and rules != code.rules:
        raise InvalidSourceError(
            f"the game code {code} fixes its own rules ({code.rules.describe()}); "
            "drop the rule options, or change the code"
        )
    return code.position(), code


__all__ = ["InvalidSourceError", "load_source"]
