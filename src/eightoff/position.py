"""The immutable position and its legal moves: the single source of truth for play.

Everything that moves cards (the web page, hints, autoplay, the solver's replay
checks) asks :meth:`Position.legal_moves` or :meth:`Position.apply`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Final

from eightoff.cards import CARDS, KING, SUIT_LETTERS, SUIT_SYMBOLS, Card, Suit
from eightoff.errors import Illegal, InvalidPositionError
from eightoff.moves import (
    ANY_SUIT,
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
from eightoff.rules import STANDARD, Build, EmptyColumn, GroupMoves, Rules

COLUMNS: Final = 8

Column = tuple[Card, ...]


# -- the rules of a move, used by legal_moves and why_illegal alike ----------------------


def builds_on(card: int, onto: int, build: Build) -> bool:
    """Whether ``card`` may lie on ``onto`` in a column under ``build``."""
    # Cards are ints suit*13+rank-1, so "one rank lower" is a difference of 1 within a suit.
    if onto % 13 != card % 13 + 1:
        return False
    if build is Build.SUIT:
        return onto // 13 == card // 13
    return (13 <= card < 39) != (13 <= onto < 39)  # red iff hearts or diamonds


def goes_home(card: int, foundations: Sequence[int]) -> bool:
    """Whether ``card`` is the next card its foundation takes."""
    return foundations[card // 13] == card % 13


def fills_empty(card: int, rules: Rules) -> bool:
    """Whether ``card``, alone or heading a run, may go to an empty column."""
    return rules.empty_column is EmptyColumn.ANY or card % 13 == KING - 1


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
        found = _why_not(self.rules, self.columns, self.cells, self.foundations, move)
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
        found = _why_not(self.rules, self.columns, self.cells, self.foundations, move)
        return None if found is None else IllegalMoveError(move, found[0], found[1])

    def play(self, move: Move) -> Card:
        """Play ``move`` in place and return the card it carried (the deepest of a run);
        an illegal move raises :class:`IllegalMoveError` and changes nothing."""
        found = _why_not(self.rules, self.columns, self.cells, self.foundations, move)
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


def _why_not(
    rules: Rules,
    columns: Sequence[Sequence[Card]],
    cells: Sequence[Card | None],
    founds: Sequence[int],
    move: Move,
) -> tuple[Illegal, str] | None:
    """The rules of one move: why ``move`` may not be played, or ``None`` when it may.

    The one check behind :meth:`Position.illegality` and :class:`Board` (plain
    sequences, so a long replay builds no position per move).
    """
    src, dst, count = move.source, move.target, move.count
    if count < 1:
        return Illegal.NO_CARD, "a move carries at least one card"
    skind, si, dkind, di = src.kind, src.index, dst.kind, dst.index
    # Places these rules have (a quick test; _place_error words the problem).
    size = COLUMNS if skind is PlaceKind.COLUMN else len(cells) if skind is PlaceKind.CELL else 4
    if dkind is PlaceKind.FOUNDATION:
        known = di == ANY_SUIT
    else:
        known = 0 <= di < (COLUMNS if dkind is PlaceKind.COLUMN else len(cells))
    if not (known and 0 <= si < size):
        where = _place_error(src, rules, as_source=True) or _place_error(
            dst, rules, as_source=False
        )
        if where:
            return Illegal.NO_SUCH_PLACE, where
    if src == dst:
        return Illegal.SAME_PLACE, "source and target are the same place"
    if skind is PlaceKind.COLUMN:
        col = columns[si]
        if not col:
            return Illegal.EMPTY_SOURCE, f"{src.name()} is empty"
        if count > len(col):
            s = "s" if len(col) != 1 else ""
            return Illegal.TOO_FEW_CARDS, f"{src.name()} holds only {len(col)} card{s}"
        head = col[-count]
        build = rules.build
        run = 1
        while run < count and builds_on(col[-run], col[-run - 1], build):
            run += 1
        if run < count:
            lower, upper = col[-run], col[-run - 1]
            return (
                Illegal.NOT_A_RUN,
                f"the {count} cards from {head.symbol()} down are not a run: "
                f"{lower.symbol()} does not go on {upper.symbol()}",
            )
    else:
        if skind is PlaceKind.FOUNDATION and not rules.take_back:
            return (
                Illegal.NO_TAKE_BACK,
                "cards cannot be taken back from a foundation under these rules",
            )
        held = cells[si] if skind is PlaceKind.CELL else _foundation_top(founds, si)
        if held is None:
            return Illegal.EMPTY_SOURCE, f"{src.name()} is empty"
        if count > 1:
            return Illegal.ONE_AT_A_TIME, f"only one card at a time moves from {src.name()}"
        head = held
    if dkind is PlaceKind.FOUNDATION:
        if count > 1:
            return Illegal.ONE_AT_A_TIME, "one card at a time goes to a foundation"
        if skind is PlaceKind.FOUNDATION:
            return Illegal.SAME_PLACE, "a foundation card cannot move to a foundation"
        if not goes_home(head, founds):
            suit = SUIT_SYMBOLS[head // 13]
            have = founds[head // 13]
            if have > head % 13:
                return Illegal.NOT_NEXT, f"{head.symbol()} is already on the {suit} foundation"
            need = CARDS[head // 13 * 13 + have]
            return (
                Illegal.NOT_NEXT,
                f"{head.symbol()} cannot go to the foundation: needs {need.symbol()} first",
            )
        return None
    if dkind is PlaceKind.CELL:
        if count > 1:
            return Illegal.ONE_AT_A_TIME, "a cell holds one card"
        if skind is PlaceKind.CELL:
            return Illegal.CELL_TO_CELL, "a card in a cell cannot move to another cell"
        taken = cells[di]
        if taken is not None:
            return Illegal.CELL_FULL, f"{dst.name()} already holds {taken.symbol()}"
        return None
    # Target is a column.
    target_col = columns[di]
    if target_col:
        onto = target_col[-1]
        if not builds_on(head, onto, rules.build):
            return (
                Illegal.DOES_NOT_BUILD,
                f"{head.symbol()} cannot go on {onto.symbol()}: {_wanted(head, rules)}",
            )
    else:
        if not fills_empty(head, rules):
            return (
                Illegal.KINGS_ONLY,
                f"only a King can go to an empty column, not {head.symbol()}",
            )
        if skind is PlaceKind.COLUMN and count == len(columns[si]):
            return (
                Illegal.WHOLE_COLUMN,
                "moving a whole column into an empty column changes nothing",
            )
    if count > 1:
        if rules.group_moves is GroupMoves.SINGLE:
            return Illegal.SINGLE_MOVES, "these rules move one card at a time"
        empty = sum(1 for c in columns if not c) - (0 if target_col else 1)
        cap = rules.max_run(cells.count(None), empty)
        if count > cap:
            return (
                Illegal.NO_ROOM,
                f"a run of {count} cards needs more room: at most {cap} can move now",
            )
    return None


def _foundation_top(founds: Sequence[int], suit: int) -> Card | None:
    return CARDS[suit * 13 + founds[suit] - 1] if founds[suit] else None


def _with(founds: tuple[int, int, int, int], s: int, value: int) -> tuple[int, int, int, int]:
    f = list(founds)
    f[s] = value
    return (f[0], f[1], f[2], f[3])


def _place_once(seen: dict[int, str], card: int, where: str) -> None:
    if card in seen:
        raise InvalidPositionError(f"{CARDS[card]} appears twice: in {seen[card]} and {where}")
    seen[card] = where


def _place_error(place: Place, rules: Rules, *, as_source: bool) -> str | None:
    kind, i = place.kind, place.index
    if kind is PlaceKind.FOUNDATION:
        if as_source and not 0 <= i < 4:
            return "a move from a foundation must name its suit"
        if not as_source and i != ANY_SUIT:
            # Targets are always FOUNDATION, as legal_moves lists them.
            return "a move to a foundation names no suit: the card's suit decides"
        return None
    if kind is PlaceKind.COLUMN and not 0 <= i < COLUMNS:
        return f"there is no column {i + 1}: columns are 1-8"
    if kind is PlaceKind.CELL and not 0 <= i < rules.cells:
        return f"there is no cell {i + 1}: these rules have {rules.cells} cells"
    return None


def _wanted(card: Card, rules: Rules) -> str:
    """What ``card`` needs to lie on, e.g. ``needs 9♣`` or ``needs a red 9``."""
    if card.rank == KING:
        return "a King goes on no card, only to an empty column"
    above = CARDS[card + 1]  # the same suit, one rank higher
    if rules.build is Build.SUIT:
        return "needs " + above.symbol()
    return f"needs a {'black' if card.is_red else 'red'} {above.symbol()[:-1]}"


__all__ = [
    "COLUMNS",
    "Board",
    "InvalidPositionError",
    "Position",
    "Suit",
    "builds_on",
    "fills_empty",
    "goes_home",
]
