"""Between engine positions and the search core's compact state, and back to moves."""

from __future__ import annotations

from eightoff.moves import FOUNDATION, Move, Place, cell, column, foundation
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
        take_back=take_back,
        auto=auto,
        weight=weight,
    )


def state_of(position: Position) -> tuple[Cols, bytes, Founds]:
    """The compact state: columns as bytes, sorted cell cards, foundation ranks."""
    cols = tuple(bytes(col) for col in position.columns)
    cells = bytes(sorted(c for c in position.cells if c is not None))
    return cols, cells, position.foundations


def engine_moves(position: Position, steps: list[Step]) -> list[Move]:
    """Turn search steps into legal engine moves, checking each by applying it.

    Under one-card-per-move rules a run of ``n`` becomes ``n - 1`` cards parked in
    cells, the head, and the parked cards back; automatic foundation moves become
    ordinary foundation moves.
    """
    single = position.rules.group_moves is GroupMoves.SINGLE
    out: list[Move] = []
    pos = position

    def play(move: Move) -> None:
        nonlocal pos
        pos = pos.apply(move)  # raises IllegalMoveError: a solver bug, never silent
        out.append(move)

    for (sk, si, dk, di, n), autos in steps:
        if sk >= 0:
            src: Place
            if sk == COL:
                src = column(si)
            elif sk == CELL:
                src = cell(pos.cells.index(si))
            else:
                src = foundation(si)
            if dk == COL:
                dst = column(di)
            elif dk == CELL:
                dst = cell(pos.cells.index(None))
            else:
                dst = FOUNDATION
            if n > 1 and single:
                parked: list[int] = []
                for _ in range(n - 1):
                    parked.append(pos.columns[si][-1])
                    play(Move(src, cell(pos.cells.index(None))))
                play(Move(src, dst))
                for c in reversed(parked):
                    play(Move(cell(pos.cells.index(c)), dst))
            else:
                play(Move(src, dst, n))
        for c in autos:
            if c in pos.cells:
                play(Move(cell(pos.cells.index(c)), FOUNDATION))
            else:
                j = next(j for j, col in enumerate(pos.columns) if col and col[-1] == c)
                play(Move(column(j), FOUNDATION))
    return out
