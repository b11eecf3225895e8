"""The immutable position and its legal moves: the single source of truth for play.

Everything that moves cards (the web page, hints, autoplay, the solver's replay
checks) asks :meth:`Position.legal_moves` or :meth:`Position.apply`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Final

from eightoff.cards import CARDS, KING, SUIT_LETTERS, SUIT_SYMBOLS, Card, Suit
from eightoff.errors import InvalidPositionError
from eightoff.moverules import COLUMNS, builds_on, fills_empty, goes_home, why_not
from eightoff.moves import (
    CELL_LETTERS,
    FOUNDATION,
    IllegalMoveError,
    Move,
    Place,
    PlaceKind,
    cell,
    column,
    foundation,
)
from eightoff.rules import STANDARD, Rules

Column = tuple[Card, ...]


class Position:
    """Columns, cells and foundations under a set of rules; immutable and hashable.

    ``columns`` lists each column from the card dealt first (covered) to the
    exposed card; ``cells`` holds a card or ``None`` per cell; ``foundations``
    gives the top rank (0 = empty) per suit in ♠ ♥ ♦ ♣ order.
    """

    __slots__ = ("_hash", "cells", "columns", "foundations", "rules")

    rules: Rules
    columns: tuple[Column, ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]
    _hash: int

    def __init__(
        self,
        columns: Sequence[Iterable[int]],
        cells: Sequence[int | None] = (),
        foundations: Sequence[int] = (0, 0, 0, 0),
        rules: Rules = STANDARD,
    ) -> None:
        cols = tuple(tuple(CARDS[c] for c in col) for col in columns)
        if len(cols) != COLUMNS:
            raise InvalidPositionError(f"a position has 8 columns, not {len(cols)}")
        cell_list = list(cells) + [None] * (rules.cells - len(cells))
        if len(cell_list) != rules.cells:
            raise InvalidPositionError(f"{len(cells)} cells given, the rules have {rules.cells}")
        cell_tuple: tuple[Card | None, ...] = tuple(
            None if c is None else CARDS[c] for c in cell_list
        )
        if len(foundations) != 4 or any(not 0 <= f <= KING for f in foundations):
            raise InvalidPositionError("foundations need 4 top ranks from 0 (empty) to 13")
        founds = (foundations[0], foundations[1], foundations[2], foundations[3])
        seen: dict[int, str] = {}
        for suit, top in enumerate(founds):
            for rank in range(1, top + 1):
                seen[suit * 13 + rank - 1] = f"foundation {SUIT_SYMBOLS[suit]}"
        for i, col in enumerate(cols):
            for c in col:
                _place_once(seen, c, f"column {i + 1}")
        for i, held in enumerate(cell_tuple):
            if held is not None:
                _place_once(seen, held, f"cell {CELL_LETTERS[i]}")
        if len(seen) != 52:
            missing = " ".join(str(CARDS[c]) for c in range(52) if c not in seen)
            raise InvalidPositionError(f"cards missing from the position: {missing}")
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "columns", cols)
        object.__setattr__(self, "cells", cell_tuple)
        object.__setattr__(self, "foundations", founds)
        object.__setattr__(self, "_hash", hash((rules, cols, cell_tuple, founds)))

    @classmethod
    def _trusted(
        cls,
        rules: Rules,
        columns: tuple[Column, ...],
        cells: tuple[Card | None, ...],
        foundations: tuple[int, int, int, int],
    ) -> Position:
        # Skips validation: only for positions derived from a valid one by a legal move.
        self = object.__new__(cls)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "foundations", foundations)
        object.__setattr__(self, "_hash", hash((rules, columns, cells, foundations)))
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._hash == other._hash
            and self.columns == other.columns
            and self.cells == other.cells
            and self.foundations == other.foundations
            and self.rules == other.rules
        )

    def __repr__(self) -> str:
        return f"<Position {self.rules.describe()}>\n{self}"

    def __str__(self) -> str:
        found = " ".join(
            (SUIT_LETTERS[s] + "-" + ("0A23456789TJQK"[f])) for s, f in enumerate(self.foundations)
        )
        cells = " ".join("--" if c is None else str(c) for c in self.cells)
        rows = [f"Foundations: {found}", f"Cells:       {cells}"]
        depth = max((len(c) for c in self.columns), default=0)
        rows.append(" ".join(f" {i + 1}" for i in range(COLUMNS)))
        for r in range(depth):
            rows.append(
                " ".join(str(col[r]) if r < len(col) else "  " for col in self.columns).rstrip()
            )
        return "\n".join(rows)

    # -- queries -----------------------------------------------------------------

    @property
    def free_cells(self) -> int:
        """How many cells are empty."""
        return self.cells.count(None)

    @property
    def empty_columns(self) -> int:
        """How many columns are empty."""
        return sum(1 for c in self.columns if not c)

    def is_won(self) -> bool:
        """All 52 cards are on the foundations."""
        return self.foundations == (KING, KING, KING, KING)

    def cards_home(self) -> int:
        """How many cards are on the foundations."""
        return sum(self.foundations)

    def top(self, place: Place) -> Card | None:
        """The card that would move from ``place`` (exposed card, cell card, foundation top)."""
        kind, i = place.kind, place.index
        if kind is PlaceKind.COLUMN:
            if not 0 <= i < COLUMNS:
                return None
            col = self.columns[i]
            return col[-1] if col else None
        if kind is PlaceKind.CELL:
            return self.cells[i] if 0 <= i < len(self.cells) else None
        if 0 <= i < 4 and self.foundations[i]:
            return CARDS[i * 13 + self.foundations[i] - 1]
        return None

    def run_length(self, index: int) -> int:
        """Length of the run (built per the rules) at the exposed end of column ``index``."""
        col = self.columns[index]
        build = self.rules.build
        n = 1 if col else 0
        while n < len(col) and builds_on(col[-n], col[-n - 1], build):
            n += 1
        return n

    def capacity(self, *, to_empty_column: bool) -> int:
        """The most cards one move may carry now (:meth:`Rules.max_run`);
        ``to_empty_column``: the target is an empty column, which holds no card in transit."""
        empty = max(0, self.empty_columns - (1 if to_empty_column else 0))
        return self.rules.max_run(self.free_cells, empty)

    def moving_cards(self, move: Move) -> tuple[Card, ...]:
        """The cards ``move`` carries, deepest first (the move need not be legal)."""
        kind, i = move.source.kind, move.source.index
        if kind is PlaceKind.COLUMN and 0 <= i < COLUMNS:
            return self.columns[i][-move.count :] if move.count > 0 else ()
        top = self.top(move.source)
        return () if top is None else (top,)

    # -- legal moves ----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move here, in a fixed order."""
        rules = self.rules
        build = rules.build
        cols = self.columns
        founds = self.foundations
        empty_cells = [i for i, c in enumerate(self.cells) if c is None]
        empty_cols = [j for j in range(COLUMNS) if not cols[j]]
        moves: list[Move] = []

        def single(src: Place, card: Card, *, whole_column: bool, to_found: bool) -> None:
            if to_found and goes_home(card, founds):
                moves.append(Move(src, FOUNDATION))
            for j in range(COLUMNS):
                col = cols[j]
                if col:
                    if (src.kind is not PlaceKind.COLUMN or src.index != j) and builds_on(
                        card, col[-1], build
                    ):
                        moves.append(Move(src, column(j)))
                elif not whole_column and fills_empty(card, rules):
                    moves.append(Move(src, column(j)))
            if src.kind is not PlaceKind.CELL:
                for k in empty_cells:
                    moves.append(Move(src, cell(k)))

        # Free cells and empty columns are the same for every column: size the runs once.
        cap = self.capacity(to_empty_column=False)
        cap_empty = self.capacity(to_empty_column=True)
        for i in range(COLUMNS):
            col = cols[i]
            if not col:
                continue
            single(column(i), col[-1], whole_column=len(col) == 1, to_found=True)
            if cap < 2:
                continue
            run = self.run_length(i)
            if run < 2:
                continue
            for n in range(2, run + 1):
                head = col[-n]
                if n <= cap:
                    for j in range(COLUMNS):
                        if j != i and cols[j] and builds_on(head, cols[j][-1], build):
                            moves.append(Move(column(i), column(j), n))
                if n <= cap_empty and n < len(col) and fills_empty(head, rules):
                    for j in empty_cols:
                        moves.append(Move(column(i), column(j), n))
        for k, c in enumerate(self.cells):
            if c is not None:
                single(cell(k), c, whole_column=False, to_found=True)
        if rules.take_back:
            for s in range(4):
                if founds[s]:
                    single(
                        foundation(s),
                        CARDS[s * 13 + founds[s] - 1],
                        whole_column=False,
                        to_found=False,
                    )
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be played here."""
        return self.illegality(move) is None

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` may not be played here."""
        error = self.illegality(move)
        if error is not None:
            raise error

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` may not be played here, in words, or ``None`` when it is legal."""
        error = self.illegality(move)
        return None if error is None else error.reason

    def illegality(self, move: Move) -> IllegalMoveError | None:
        """The error playing ``move`` here raises (its reason code and words), or ``None``."""
        found = why_not(self.rules, self.columns, self.cells, self.foundations, move)
        return None if found is None else IllegalMoveError(move, found[0], found[1])

    def apply(self, move: Move) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` if it is not legal."""
        self.check(move)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> Position:
        """The position after a move known to be legal (no checks)."""
        columns = self.columns
        cells = self.cells
        founds = self.foundations
        src, dst, n = move.source, move.target, move.count
        if src.kind is PlaceKind.COLUMN:
            i = src.index
            moving = columns[i][-n:]
            columns = columns[:i] + (columns[i][:-n],) + columns[i + 1 :]
        elif src.kind is PlaceKind.CELL:
            k = src.index
            card = cells[k]
            assert card is not None
            moving = (card,)
            cells = cells[:k] + (None,) + cells[k + 1 :]
        else:
            s = src.index
            moving = (CARDS[s * 13 + founds[s] - 1],)
            founds = _with(founds, s, founds[s] - 1)
        if dst.kind is PlaceKind.COLUMN:
            j = dst.index
            columns = columns[:j] + (columns[j] + moving,) + columns[j + 1 :]
        elif dst.kind is PlaceKind.CELL:
            k = dst.index
            cells = cells[:k] + (moving[0],) + cells[k + 1 :]
        else:
            s = moving[0] // 13
            founds = _with(founds, s, founds[s] + 1)
        return Position._trusted(self.rules, columns, cells, founds)


class Board:
    """A mutable copy of a position, to check and play a long list of moves quickly.

    :meth:`play` checks a move with :meth:`Position.illegality`'s rules (one check,
    on plain sequences) and moves the cards in place, so replaying a game of
    thousands of moves builds no :class:`Position` per move (:meth:`Game.replay`).
    """

    __slots__ = ("cells", "columns", "foundations", "rules")

    def __init__(self, position: Position) -> None:
        self.rules = position.rules
        self.columns = [list(col) for col in position.columns]
        self.cells = list(position.cells)
        self.foundations = list(position.foundations)

    def illegality(self, move: Move) -> IllegalMoveError | None:
        """The error playing ``move`` here raises, or ``None`` (as :meth:`Position.illegality`)."""
        found = why_not(self.rules, self.columns, self.cells, self.foundations, move)
        return None if found is None else IllegalMoveError(move, found[0], found[1])

    def play(self, move: Move) -> Card:
        """Play ``move`` in place and return the card it carried (the deepest of a run);
        an illegal move raises :class:`IllegalMoveError` and changes nothing."""
        found = why_not(self.rules, self.columns, self.cells, self.foundations, move)
        if found is not None:
            raise IllegalMoveError(move, found[0], found[1])
        src, dst, n = move.source, move.target, move.count
        if src.kind is PlaceKind.COLUMN:
            col = self.columns[src.index]
            moving = col[-n:]
            del col[-n:]
        elif src.kind is PlaceKind.CELL:
            held = self.cells[src.index]
            assert held is not None
            moving = [held]
            self.cells[src.index] = None
        else:
            s = src.index
            moving = [CARDS[s * 13 + self.foundations[s] - 1]]
            self.foundations[s] -= 1
        if dst.kind is PlaceKind.COLUMN:
            self.columns[dst.index] += moving
        elif dst.kind is PlaceKind.CELL:
            self.cells[dst.index] = moving[0]
        else:
            self.foundations[moving[0] // 13] += 1
        return moving[0]

    def play_all(self, moves: Sequence[Move]) -> tuple[list[Card], IllegalMoveError | None]:
        """Play ``moves`` in turn: the card each carried, and the error of the first
        illegal one (``None`` when all were played); the board then shows the position
        before it. Long lists are checked and played by the C core when it is built (a
        move is legal there when it is one of :meth:`Position.legal_moves`, as here);
        the engine's own check says why a move is not."""
        cards: list[Card] = []
        start = 0
        if len(moves) >= _NATIVE_FROM and (replay := _native_replay()) is not None:
            f = self.foundations
            found = replay(
                self.rules,
                tuple(map(bytes, self.columns)),
                tuple(-1 if c is None else c for c in self.cells),
                (f[0], f[1], f[2], f[3]),
                moves,
            )
            if found is not None:
                start, carried, cols, cells, founds = found
                self.columns = [[CARDS[c] for c in col] for col in cols]
                self.cells = [None if c < 0 else CARDS[c] for c in cells]
                self.foundations = list(founds)
                cards = [CARDS[c] for c in carried]
        for move in moves[start:] if start else moves:
            try:
                cards.append(self.play(move))
            except IllegalMoveError as error:
                return cards, error
        return cards, None

    def position(self) -> Position:
        """The position the board shows now."""
        f = self.foundations
        return Position._trusted(
            self.rules,
            tuple(map(tuple, self.columns)),
            tuple(self.cells),
            (f[0], f[1], f[2], f[3]),
        )


_NATIVE_FROM: Final = 8
"""Moves from which :meth:`Board.play_all` hands a list to the C core (fewer: Python)."""

_NativeReplay = Callable[
    [Rules, tuple[bytes, ...], tuple[int, ...], tuple[int, int, int, int], Sequence[Move]],
    "tuple[int, bytes, tuple[bytes, ...], tuple[int, ...], tuple[int, int, int, int]] | None",
]


@cache
def _native_replay() -> _NativeReplay | None:
    # The kernel's replay in C (eightoff._kernel), imported on first use.
    from eightoff import _kernel

    return _kernel.replay if _kernel.native is not None else None


def _with(founds: tuple[int, int, int, int], s: int, value: int) -> tuple[int, int, int, int]:
    f = list(founds)
    f[s] = value
    return (f[0], f[1], f[2], f[3])


def _place_once(seen: dict[int, str], card: int, where: str) -> None:
    if card in seen:
        raise InvalidPositionError(f"{CARDS[card]} appears twice: in {seen[card]} and {where}")
    seen[card] = where


__all__ = [
    "COLUMNS",
    "Board",
    "InvalidPositionError",
    "Position",
    "Suit",
    "goes_home",
]
