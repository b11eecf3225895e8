"""Moves: a small frozen value (source, target, count) and its compact text notation.

Notation (case-insensitive to read, written as shown):

* columns ``1``–``8``, cells ``a``–``h``, the foundation ``^`` ("up home");
* a move is source then target: ``3a`` (column 3 to cell a), ``a5``, ``35``, ``3^``;
* a take-back names the foundation's suit: ``^H3`` (top heart to column 3), ``^Ha``;
* a run of several cards adds ``x`` and the count: ``35x3``.

Indexes inside :class:`Place` are 0-based; the text and JSON forms are 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from eightoff.cards import SUIT_LETTERS, SUIT_SYMBOLS, Suit
from eightoff.errors import EightOffError, Illegal, InvalidCardError
from eightoff.errors import InvalidMoveError as InvalidMoveError
from eightoff.numbers import InvalidNumberError, excerpt, whole_number

CELL_LETTERS: Final = "abcdefgh"

ANY_SUIT: Final = 4
"""The index of a foundation *target*: the moving card's suit decides the pile."""


class PlaceKind(StrEnum):
    """Where a card can be."""

    COLUMN = "column"
    CELL = "cell"
    FOUNDATION = "foundation"


@dataclass(frozen=True, slots=True)
class Place:
    """A pile: its kind and 0-based index.

    A foundation's index is its suit (0–3); a foundation *target* (:data:`FOUNDATION`)
    has index :data:`ANY_SUIT`, because the moving card's suit decides it.
    """

    kind: PlaceKind
    index: int

    def text(self) -> str:
        """``3``, ``a``, ``^`` or ``^H``."""
        i = self.index
        if self.kind is PlaceKind.COLUMN:
            return str(i + 1) if 0 <= i < 8 else "?"  # "?": no such place
        if self.kind is PlaceKind.CELL:
            return CELL_LETTERS[i] if 0 <= i < 8 else "?"
        if i == ANY_SUIT:
            return "^"
        return "^" + SUIT_LETTERS[i] if 0 <= i < 4 else "^?"

    def name(self) -> str:
        """``column 3``, ``cell a``, ``the foundation``, ``the ♥ foundation``: for messages."""
        i = self.index
        if self.kind is PlaceKind.COLUMN:
            return f"column {i + 1}"
        if self.kind is PlaceKind.CELL:
            return f"cell {CELL_LETTERS[i]}" if 0 <= i < 8 else f"cell {i + 1}"
        if 0 <= i < 4:
            return f"the {SUIT_SYMBOLS[i]} foundation"
        return "the foundation"

    def label(self) -> str:
        """``column-3``, ``cell-2``, ``foundation-H``: the page's pile names."""
        if self.kind is PlaceKind.FOUNDATION:
            return (
                "foundation" if self.index == ANY_SUIT else f"foundation-{SUIT_LETTERS[self.index]}"
            )
        return f"{self.kind.value}-{self.index + 1}"


def column(index: int) -> Place:
    """Column ``index`` (0-based)."""
    return Place(PlaceKind.COLUMN, index)


def cell(index: int) -> Place:
    """Cell ``index`` (0-based)."""
    return Place(PlaceKind.CELL, index)


def foundation(suit: Suit | int | None = None) -> Place:
    """The foundation of ``suit``; ``None`` for a target decided by the card."""
    return Place(PlaceKind.FOUNDATION, ANY_SUIT if suit is None else int(suit))


FOUNDATION = foundation()


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``count`` cards from ``source`` to ``target``."""

    source: Place
    target: Place
    count: int = 1

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read the compact notation (see the module docstring)."""
        t = text.strip().replace(" ", "")
        raw = excerpt(t)
        count = 1
        if "x" in t.lower():
            head, _, tail = t.lower().partition("x")
            try:
                count = whole_number(tail)
            except InvalidNumberError as exc:
                raise _bad(raw, f"the count after 'x' must be a number ≥ 1: {exc}") from None
            if count < 1:
                raise _bad(raw, "the count after 'x' must be a number ≥ 1")
            t = head
        places: list[Place] = []
        i = 0
        low = t.lower()
        while i < len(low) and len(places) <= 2:
            ch = low[i]
            if ch in "12345678":
                places.append(column(int(ch) - 1))
            elif ch in CELL_LETTERS:
                places.append(cell(CELL_LETTERS.index(ch)))
            elif ch == "^":
                if not places and i + 1 < len(low):
                    try:
                        places.append(foundation(Suit.from_text(low[i + 1])))
                    except InvalidCardError:
                        raise _bad(raw, "a foundation source needs its suit, like ^H3") from None
                    i += 1
                else:
                    places.append(FOUNDATION)
                    if places[:-1] and i + 2 == len(low) and low[i + 1] in "shdc":
                        i += 1  # "3^H": a target's suit is allowed, and implied anyway
            else:
                raise _bad(raw, f"{t[i]!r} is not a column 1-8, a cell a-h or ^")
            i += 1
        if len(places) != 2:
            raise _bad(raw, "expected a source and a target, like 3a, a5, 3^ or 35x2")
        source, target = places
        if source == FOUNDATION:
            raise _bad(raw, "a foundation source needs its suit, like ^H3")
        if target.kind is PlaceKind.FOUNDATION:
            target = FOUNDATION
        return cls(source, target, count)

    def text(self) -> str:
        """The compact notation; ``Move.from_text(m.text()) == m``."""
        s = self.source.text() + self.target.text()
        return s if self.count == 1 else f"{s}x{self.count}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"


class IllegalMoveError(EightOffError):
    """A well-formed move that the rules do not allow here.

    ``move`` is the move, ``code`` the reason as an :class:`~eightoff.errors.Illegal`
    value and ``reason`` the reason in words; ``str(error)`` reads ``"<move>: <reason>"``.
    """

    def __init__(self, move: Move, code: Illegal, reason: str) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.code = code
        self.reason = reason


def _bad(shown: str, why: str) -> InvalidMoveError:
    # "bad move '3z': why", the reason alone kept apart (the API answers it beside).
    return InvalidMoveError(f"bad move {shown}: {why}", reason=why)
