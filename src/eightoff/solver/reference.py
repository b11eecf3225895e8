"""The reference solver: a short, plain search written on :meth:`Position.legal_moves`.

It has two jobs. Where the C core did not compile it is the solver; and it is the
oracle the tests hold the C core to, so it shares no code with it: every move it
tries comes from ``legal_moves`` and is played by the engine, every position is an
engine :class:`Position`, and nothing is pruned, merged or played automatically.

* :func:`solve_any`: best-first search, most cards home first, fewest cards in
  cells next. It is complete: when its open list runs dry, every position reachable
  from the start has been seen, so "unsolvable" is a proof.
* :func:`solve_shortest`: A* over single-card moves (cost 1 each) with the bound
  "cards not yet home" (a move sends at most one card home, so it never
  overestimates): the first won position it takes from the open list is a shortest
  win, counted in single-card moves as :attr:`SolveResult.length` counts them.

Positions are told apart by their cards, with column and cell order ignored: two
positions that differ only in that order can make the same moves and reach the same
ends, so one of them is enough. The limits count expanded positions and seconds;
this search allocates Python objects and ignores ``Limit.memory``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from itertools import count

from eightoff.moves import Move
from eightoff.position import Position
from eightoff.solver.result import Limit, SolveResult, Verdict, single_card_length

Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, int, int, int]]


def key(position: Position) -> Key:
    """What tells positions apart here: sorted columns, sorted cells, foundations."""
    cells = tuple(sorted(c for c in position.cells if c is not None))
    return tuple(sorted(position.columns)), cells, position.foundations


def solve_any(position: Position, limit: Limit) -> SolveResult:
    """Any winning line (best-first), a proof that there is none, or ``unknown``."""

    return _search(position, limit, _guess, single_cards=False)


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


def solve_shortest(position: Position, limit: Limit) -> SolveResult:
    """A shortest winning line in single-card moves (A*), proven, or no win at all."""

    def rank(p: Position) -> tuple[int, int]:
        return 52 - p.cards_home(), 0

    return _search(position, limit, rank, single_cards=True)


def _search(
    start: Position,
    limit: Limit,
    rank: Callable[[Position], tuple[int, int]],
    *,
    single_cards: bool,
) -> SolveResult:
    clock = time.perf_counter()
    deadline = None if limit.seconds is None else clock + limit.seconds
    # How each position was first reached (best-first) or most cheaply reached (A*).
    parent: dict[Key, tuple[Key, Move] | None] = {key(start): None}
    cost: dict[Key, int] = {key(start): 0}
    tie = count()  # first in, first out among equals: the order stays fixed
    open_list: list[tuple[tuple[int, ...], int, int, Position]] = []

    def push(p: Position, g: int) -> None:
        h, extra = rank(p)
        order = (g + h, -g) if single_cards else (h, extra)
        heapq.heappush(open_list, (order, next(tie), g, p))

    push(start, 0)
    nodes = 0
    while open_list:
        _, _, g, p = heapq.heappop(open_list)
        k = key(p)
        if cost[k] < g:  # reached more cheaply since it was queued
            continue
        if p.is_won():
            moves = _line(parent, k)
            return _result(Verdict.SOLVED, moves, nodes, clock, optimal=single_cards)
        if limit.nodes is not None and nodes >= limit.nodes:
            return _result(Verdict.UNKNOWN, (), nodes, clock)
        if deadline is not None and time.perf_counter() > deadline:
            return _result(Verdict.UNKNOWN, (), nodes, clock)
        nodes += 1
        for move in p.legal_moves():
            if single_cards and move.count != 1:
                continue
            q = p.apply_unchecked(move)
            kq = key(q)
            step = 1 if single_cards else 2 * move.count - 1
            if kq in cost and cost[kq] <= g + step:
                continue
            if not single_cards and kq in cost:
                continue  # best-first: the first way found is kept
            cost[kq] = g + step
            parent[kq] = (k, move)
            push(q, g + step)
    return _result(Verdict.UNSOLVABLE, (), nodes, clock)


def _line(parent: dict[Key, tuple[Key, Move] | None], goal: Key) -> tuple[Move, ...]:
    # The moves from the start to ``goal``. The position expanded under a key is the
    # very one its recorded move made, so the moves replay from the start as they are.
    moves: list[Move] = []
    entry = parent[goal]
    while entry is not None:
        k, move = entry
        moves.append(move)
        entry = parent[k]
    moves.reverse()
    return tuple(moves)


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
