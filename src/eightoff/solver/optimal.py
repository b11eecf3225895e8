"""Optimal mode: A* over single-card moves with an admissible, consistent bound.

The bound counts one move for every card not yet home, plus one more for every
card that must leave its column before it can go home (it lies above a lower
card of its own suit, which has to reach the foundation first) — the first term
of Paul & Helmert's bound (SoCS 2016). Automatic foundation moves are safe for
optimality too: playing a safe card home at once removes its later moves and
breaks no other move (no card can ever be placed on it again), so some shortest
line starts with them.
"""

from __future__ import annotations

import gc
import heapq
import time

from eightoff.position import Position
from eightoff.solver import search
from eightoff.solver.convert import config_for, engine_moves, state_of
from eightoff.solver.result import Limit, SolveResult, Verdict, single_card_length
from eightoff.solver.search import Cols, Founds, Step


def lower_bound(searcher: search.Searcher, cols: Cols, founds: Founds) -> int:
    """Cards not home + cards that must move twice (above a lower card of their suit)."""
    inv = searcher._inv
    v = 52 - founds[0] - founds[1] - founds[2] - founds[3]
    for col in cols:
        x = inv.get(col)
        if x is None:
            x = inv[col] = search._inversions(col)
        v += x
    return v


def solve_optimal(position: Position, *, limit: Limit, start: float) -> SolveResult:
    """A shortest solution in single-card moves, proven, or ``unknown`` at the limit."""
    deadline = None if limit.seconds is None else start + limit.seconds
    max_nodes = limit.nodes
    searcher = search.Searcher(config_for(position.rules, single_cards=True))
    cols, cells, founds = state_of(position)
    cols, cells, founds, autos0 = searcher.autoplay(cols, cells, founds)
    first: Step = ((-1, -1, -1, -1, 0), autos0)
    g0 = len(autos0)
    key0 = search.key_of(cols, cells)
    best: dict[bytes, int] = {key0: g0}
    parents: dict[bytes, tuple[bytes, Step] | None] = {key0: None}
    closed: set[bytes] = set()
    counter = 0
    # Ties on f go to the deeper node (larger g): it is nearer a goal.
    heap: list[tuple[int, int, int, int, Cols, bytes, Founds, bytes]] = [
        (g0 + lower_bound(searcher, cols, founds), -g0, 0, g0, cols, cells, founds, key0)
    ]
    nodes = 0
    status = search.EXHAUSTED
    goal: bytes | None = None
    gc_was = gc.isenabled()
    gc.disable()
    try:
        while heap:
            _, _, _, g, cols, cells, founds, key = heapq.heappop(heap)
            if key in closed or best[key] < g:
                continue
            if founds[0] + founds[1] + founds[2] + founds[3] == 52:
                status, goal = search.SOLVED, key
                break
            closed.add(key)
            nodes += 1
            if max_nodes is not None and nodes > max_nodes:
                status, nodes = search.LIMIT, nodes - 1
                break
            if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                status = search.LIMIT
                break
            for child in searcher.children(cols, cells, founds):
                c2, ce2, f2, autos = searcher.apply(cols, child)
                move = child[0]
                k2 = search.key_of(c2, ce2)
                g2 = g + 1 + len(autos)
                old = best.get(k2)
                if old is not None and old <= g2:
                    continue
                best[k2] = g2
                parents[k2] = (key, (move, autos))
                counter += 1
                heapq.heappush(
                    heap,
                    (g2 + lower_bound(searcher, c2, f2), -g2, counter, g2, c2, ce2, f2, k2),
                )
    finally:
        if gc_was:
            gc.enable()
    if status == search.SOLVED and goal is not None:
        steps = search._path(parents, goal, first)
        moves = tuple(engine_moves(position, steps))
        return SolveResult(
            verdict=Verdict.SOLVED,
            moves=moves,
            length=single_card_length(moves),
            optimal=True,
            nodes=nodes,
            seconds=time.perf_counter() - start,
        )
    return SolveResult(
        verdict=Verdict.UNSOLVABLE if status == search.EXHAUSTED else Verdict.UNKNOWN,
        nodes=nodes,
        seconds=time.perf_counter() - start,
    )
