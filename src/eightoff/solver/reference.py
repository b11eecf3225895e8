"""The reference solver: a short, plain search written on :meth:`Position.legal_moves`.

It has two jobs. Where the C core did not compile it is the solver; and it is the
oracle the tests hold the C core to, so it shares no code with it: every move it
tries comes from ``legal_moves`` and is played by the engine, and every position is
an engine :class:`Position`.

* :func:`solve_any`: best-first search, fewest cards short of home first. It is
  complete: when its open list runs dry, every position reachable from the start
  has been seen, so "unsolvable" is a proof. Three things keep it quick, none of
  which can lose a win: a transposition set, safe autoplay, and one target per
  kind of empty place (each explained where it is done).
* :func:`solve_shortest`: A* over single-card moves (cost 1 each) with the bound
  "cards not yet home" (a move sends at most one card home, so it never
  overestimates): the first won position it takes from the open list is a shortest
  win, counted in single-card moves as :attr:`SolveResult.length` counts them.
  Nothing is played automatically there, so every move counts.

Positions are told apart by their cards, with column and cell order ignored: two
positions that differ only in that order can make the same moves and reach the same
ends, so one of them is enough. The limits count expanded positions and seconds;
this search allocates Python objects and ignores ``Limit.memory``.
"""

from __future__ import annotations

import heapq
import time
from itertools import count

from eightoff.game import autoplay_moves
from eightoff.moves import Move, PlaceKind
from eightoff.position import Position
from eightoff.rules import Build
from eightoff.solver.result import Limit, SolveResult, Verdict, single_card_length

Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, int, int, int]]
Parents = dict[Key, tuple[Key, tuple[Move, ...]] | None]


def key(position: Position) -> Key:
    """What tells positions apart here: sorted columns, sorted cells, foundations."""
    cells = tuple(sorted(c for c in position.cells if c is not None))
    return tuple(sorted(position.columns)), cells, position.foundations


def solve_any(position: Position, limit: Limit) -> SolveResult:
    """Any winning line (best-first), a proof that there is none, or ``unknown``."""
    clock = time.perf_counter()
    rules = position.rules
    # Safe autoplay, as the game plays it: a card the rules call safe to send home is
    # never needed in play again, so sending it at once loses no win. Not where
    # take-back meets alternating colours: a card taken back from a foundation may be
    # the base a stuck card of the other colour needs.
    auto = not rules.take_back or rules.build is Build.SUIT
    first = tuple(autoplay_moves(position)) if auto else ()
    start = _played(position, first)
    # The transposition set: each position (by key) is queued once, with the
    # position and moves it was first reached from.
    parent: Parents = {key(start): None}
    tie = count()  # first in, first out among equals: the order stays fixed
    open_list = [(_guess(start), next(tie), start)]
    nodes = 0
    while open_list:
        _, _, p = heapq.heappop(open_list)
        k = key(p)
        if p.is_won():
            return _result(Verdict.SOLVED, first + _line(parent, k), nodes, clock)
        if _spent(limit, nodes, clock):
            return _result(Verdict.UNKNOWN, (), nodes, clock)
        nodes += 1
        for move in _distinct_moves(p):
            q = p.apply_unchecked(move)
            played = (move, *autoplay_moves(q)) if auto else (move,)
            q = _played(q, played[1:])
            kq = key(q)
            if kq not in parent:
                parent[kq] = (k, played)
                heapq.heappush(open_list, (_guess(q), next(tie), q))
    return _result(Verdict.UNSOLVABLE, (), nodes, clock)


def _guess(p: Position) -> tuple[int, int]:
    # Cards not home, plus the cards lying over the next card each suit needs; then
    # the cards held in cells.
    founds = p.foundations
    buried = 0
    for col in p.columns:
        for depth, card in enumerate(col):
            if founds[card // 13] == card % 13:
                buried += len(col) - 1 - depth
    return 52 - p.cards_home() + buried, len(p.cells) - p.free_cells


def _distinct_moves(p: Position) -> list[Move]:
    # Cells are alike, and so are empty columns (the key sorts them): of the legal
    # moves to an empty place, those to the first one of its kind are enough.
    free_cell = next((i for i, c in enumerate(p.cells) if c is None), -1)
    free_column = next((j for j, col in enumerate(p.columns) if not col), -1)
    return [
        m
        for m in p.legal_moves()
        if not (m.target.kind is PlaceKind.CELL and m.target.index != free_cell)
        and not (
            m.target.kind is PlaceKind.COLUMN
            and not p.columns[m.target.index]
            and m.target.index != free_column
        )
    ]


def solve_shortest(position: Position, limit: Limit) -> SolveResult:
    """A shortest winning line in single-card moves (A*), proven, or no win at all."""
    clock = time.perf_counter()
    # The cheapest way each position has been reached, and from where.
    parent: Parents = {key(position): None}
    cost: dict[Key, int] = {key(position): 0}
    tie = count()
    # Lowest bound (moves made + cards not home) first, then the deepest among equals.
    open_list = [(52 - position.cards_home(), 0, next(tie), position)]
    nodes = 0
    while open_list:
        _, minus_g, _, p = heapq.heappop(open_list)
        g = -minus_g
        k = key(p)
        if cost[k] < g:  # reached more cheaply since it was queued
            continue
        if p.is_won():
            return _result(Verdict.SOLVED, _line(parent, k), nodes, clock, optimal=True)
        if _spent(limit, nodes, clock):
            return _result(Verdict.UNKNOWN, (), nodes, clock)
        nodes += 1
        for move in _distinct_moves(p):
            if move.count != 1:
                continue
            q = p.apply_unchecked(move)
            kq = key(q)
            if kq not in cost or g + 1 < cost[kq]:
                cost[kq] = g + 1
                parent[kq] = (k, (move,))
                f = g + 1 + 52 - q.cards_home()
                heapq.heappush(open_list, (f, -(g + 1), next(tie), q))
    return _result(Verdict.UNSOLVABLE, (), nodes, clock)


def _played(position: Position, moves: tuple[Move, ...]) -> Position:
    for move in moves:
        position = position.apply_unchecked(move)
    return position


def _spent(limit: Limit, nodes: int, clock: float) -> bool:
    if limit.nodes is not None and nodes >= limit.nodes:
        return True
    return limit.seconds is not None and time.perf_counter() - clock > limit.seconds


def _line(parent: Parents, goal: Key) -> tuple[Move, ...]:
    # The moves from the start to ``goal``. The position expanded under a key is the
    # very one its recorded moves made, so the moves replay from the start as they are.
    steps: list[tuple[Move, ...]] = []
    entry = parent[goal]
    while entry is not None:
        k, moves = entry
        steps.append(moves)
        entry = parent[k]
    return tuple(m for moves in reversed(steps) for m in moves)


def _result(
    verdict: Verdict, moves: tuple[Move, ...], nodes: int, clock: float, *, optimal: bool = False
) -> SolveResult:
    return SolveResult(
        verdict=verdict,
        moves=moves,
        length=single_card_length(moves),
        optimal=optimal and verdict is Verdict.SOLVED,
        nodes=nodes,
        seconds=time.perf_counter() - clock,
    )
