"""Between engine positions and the search core's compact state, and back to moves."""

from __future__ import annotations

from eightoff.moves import FOUNDATION, Move, Place, PlaceKind, cell, column, foundation
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import search
from eightoff.solver.search import CELL, COL, Cols, Config, Founds, Step

_GROUP = {
    GroupMoves.SINGLE: search.GROUP_SINGLE,
    GroupMoves.CELLS: search.GROUP_CELLS,
    GroupMoves.FREECELL: search.GROUP_FREECELL,
}


def config_for(rules: Rules, *, weight: float = 8.0, single_cards: bool = False) -> Config:
    """The search configuration for ``rules``.

    Building in suit, take-back moves are left out and every foundation move is
    played at once. Both are safe: a card on its foundation could only ever serve
    as the base for the next lower card of its suit, which is home already, so a
    card taken back only fills a cell or covers a column — any line using it does
    at least as well without. In alternating colours take-backs are searched
    (a red 5 taken back can hold a black 4) and only provably safe foundation
    moves are automatic (both opposite-colour piles reach one rank below).
    """
    suit = rules.build is Build.SUIT
    take_back = rules.take_back and not suit
    auto = search.AUTO_ALL if suit else search.AUTO_NONE if take_back else search.AUTO_SAFE
    return Config(
        ncells=rules.cells,
        suit=suit,
        kings_only=rules.empty_column is EmptyColumn.KINGS,
        group=search.GROUP_NONE if single_cards else _GROUP[rules.group_moves],
        dig=not single_cards,
        take_back=take_back,
        auto=auto,
        weight=weight,
    )


def state_of(position: Position) -> tuple[Cols, bytes, Founds]:
    """The compact state: columns as bytes, sorted cell cards, foundation ranks."""
    cols = tuple(bytes(col) for col in position.columns)
    cells = bytes(sorted(c for c in position.cells if c is not None))
    return cols, cells, position.foundations


def cell_slots(position: Position) -> tuple[int, ...]:
    """The cells in place, a card number or -1 for an empty cell (the C core's form)."""
    return tuple(-1 if c is None else int(c) for c in position.cells)


# An engine move as plain ints: (source kind, index, target kind, index, count) with
# kinds COL/CELL/FOUND; a foundation source's index is its suit, a foundation target's -1.
Compact = tuple[int, int, int, int, int]
_KINDS = (PlaceKind.COLUMN, PlaceKind.CELL, PlaceKind.FOUNDATION)


class MoveTable(dict[Compact, Move]):
    """Compact form -> engine :class:`Move`, each made on first use and then shared
    (moves are immutable): ``map(MOVES.__getitem__, line)`` is a C-level lookup a move."""

    def __missing__(self, compact: Compact) -> Move:
        sk, si, dk, di, n = compact
        target = FOUNDATION if dk == search.FOUND else Place(_KINDS[dk], di)
        move = self[compact] = Move(Place(_KINDS[sk], si), target, n)
        return move


MOVES = MoveTable()


def move_of(compact: Compact) -> Move:
    """The engine :class:`Move` for a compact one."""
    return MOVES[compact]


def engine_moves(position: Position, steps: list[Step]) -> list[Move]:
    """Turn search steps into engine moves that are legal under the position's rules.

    Under one-card-per-move rules a run of ``n`` becomes ``n - 1`` cards parked in
    cells, the head, and the parked cards back; automatic foundation moves become
    ordinary foundation moves. Only column tops and cell contents are tracked here
    (plain lists: the engine's checked ``apply`` costs ~17 µs a move, a solution
    has ~100); the tests replay every solution through ``Position.apply``.
    """
    single = position.rules.group_moves is GroupMoves.SINGLE
    cols: list[list[int]] = [list(col) for col in position.columns]
    cells: list[int | None] = list(position.cells)
    founds = list(position.foundations)
    out: list[Move] = []

    def to_cell(card: int) -> Place:
        k = cells.index(None)
        cells[k] = card
        return cell(k)

    def from_cell(card: int) -> Place:
        k = cells.index(card)
        cells[k] = None
        return cell(k)

    for (sk, si, dk, di, n), autos in steps:
        if sk >= 0:
            src: Place
            if sk == COL:
                src = column(si)
                moving = cols[si][-n:]
                del cols[si][-n:]
            elif sk == CELL:
                src = from_cell(si)
                moving = [si]
            else:
                src = foundation(si)
                founds[si] -= 1
                moving = [si * 13 + founds[si]]
            if dk == COL:
                dst = column(di)
                if n > 1 and single:
                    parked = [to_cell(c) for c in reversed(moving[1:])]
                    out.extend(Move(src, p) for p in parked)
                    out.append(Move(src, dst))
                    out.extend(Move(p, dst) for p in reversed(parked))
                    for p in parked:
                        cells[p.index] = None
                else:
                    out.append(Move(src, dst, n))
                cols[di].extend(moving)
            elif dk == CELL:  # one card, or the n cards of a dig, top card first
                out.extend(Move(src, to_cell(c)) for c in reversed(moving))
            else:
                founds[moving[0] // 13] += 1
                out.append(Move(src, FOUNDATION))
        for c in autos:
            founds[c // 13] += 1
            if c in cells:
                out.append(Move(from_cell(c), FOUNDATION))
            else:
                j = next(j for j, col in enumerate(cols) if col and col[-1] == c)
                cols[j].pop()
                out.append(Move(column(j), FOUNDATION))
    return out
