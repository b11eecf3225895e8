"""Every error bad input can cause, under one base class.

The command line and the web API catch :class:`EightOffError` (and report it as
one line, or a JSON 4xx); anything else that escapes is a bug and shows as one.
Each error is also a :class:`ValueError`, as python-chess's are.
"""

from __future__ import annotations

from enum import StrEnum


class EightOffError(ValueError):
    """Bad input: a card, move, position, rule, game code, board file or request we cannot use."""


class InvalidCardError(EightOffError):
    """A card's text form could not be read."""


class InvalidMoveError(EightOffError):
    """A move's text or JSON form could not be read.

    ``reason`` says why without repeating the move (``str(error)`` may quote it).
    """

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


class InvalidRulesError(EightOffError):
    """A rule option or preset name is not one we know."""


class InvalidPositionError(EightOffError):
    """A position that cannot exist: wrong shape, or not the 52 distinct cards."""


class Illegal(StrEnum):
    """Why a well-formed move may not be played: the reason codes of
    :class:`eightoff.moves.IllegalMoveError` (defined beside :class:`~eightoff.moves.Move`,
    which it carries)."""

    NO_CARD = "no-card"  # the count is below one
    NO_SUCH_PLACE = "no-such-place"  # a column, cell or foundation these rules lack
    SAME_PLACE = "same-place"  # source and target are one pile
    NO_TAKE_BACK = "no-take-back"  # a foundation source under rules without take-back
    EMPTY_SOURCE = "empty-source"  # nothing there to move
    ONE_AT_A_TIME = "one-at-a-time"  # several cards from a cell or foundation, or to one
    TOO_FEW_CARDS = "too-few-cards"  # the column holds fewer cards than the count
    NOT_A_RUN = "not-a-run"  # the cards moved together are not built down
    NOT_NEXT = "not-next"  # the foundation wants another card
    CELL_TO_CELL = "cell-to-cell"  # a cell card moving to another cell
    CELL_FULL = "cell-full"  # the target cell holds a card
    DOES_NOT_BUILD = "does-not-build"  # the card does not go on the target column's card
    KINGS_ONLY = "kings-only"  # only a King may fill an empty column
    WHOLE_COLUMN = "whole-column"  # a whole column into an empty one changes nothing
    SINGLE_MOVES = "single-moves"  # these rules move one card at a time
    NO_ROOM = "no-room"  # a run longer than free cells and empty columns allow


__all__ = [
    "EightOffError",
    "Illegal",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
]
