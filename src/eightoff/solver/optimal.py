"""Optimal mode: A* over single-card moves with an admissible bound (see
:func:`lower_bound`, after Paul & Helmert, SoCS 2016). The bound need not be
consistent, so a position reached again more cheaply is expanded again.

Automatic foundation moves are safe for optimality too: playing a safe card
home at once removes its later moves and breaks no other move (no card can
ever be placed on it again), so some shortest line starts with them.
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

# (forced, items): items are (card, mask of cards it waits for, mask of cards it
# lies above); a mask has bit c set for card c (52 bits).
ColumnInfo = tuple[int, tuple[tuple[int, int, int], ...]]

# _SUIT_FROM[c]: the bits of card c and the higher cards of its suit.
_SUIT_FROM: list[int] = [((1 << (13 - c % 13)) - 1) << c for c in range(52)]


def column_info(col: bytes) -> ColumnInfo:
    """A column's share of the bound: how many of its cards must move twice
    (each lies above a lower card of its own suit), and for every other card with
    cards beneath it, two card masks for the deadlock pairs of :func:`lower_bound`:
    ``waits`` (cards of a suit at or above that suit's lowest card beneath it: one
    of them can only go home after that lower card, which is under this card) and
    ``above`` (cards of a suit strictly above that suit's lowest card beneath it)."""
    forced = 0
    free: list[tuple[int, int, int]] = []
    low = [99, 99, 99, 99]
    for c in col:
        s = c // 13
        if low[s] < c:
            forced += 1
        elif low != [99, 99, 99, 99]:
            waits = above = 0
            for b in low:
                if b != 99:
                    waits |= _SUIT_FROM[b]
                    above |= _SUIT_FROM[b] & ~(1 << b)
            free.append((c, waits, above))
        if c < low[s]:
            low[s] = c
    return forced, tuple(free)


def lower_bound(memo: dict[bytes, ColumnInfo], cols: Cols, founds: Founds) -> int:
    """Admissible: one move per card not home, plus one per card that must move twice.

    Twice-movers: a card above a lower card of its suit; and one card of each pair
    in a packing of two-card cycles (Paul & Helmert's deadlocks): X above some
    card of X2's suit no higher than X2, and X2 above a lower card of X's suit. If
    both went home straight from their columns, X would have to go home before X2
    and X2 before X. Disjoint pairs each force a distinct extra move.
    """
    v = 52 - founds[0] - founds[1] - founds[2] - founds[3]
    items: list[tuple[int, int, int]] = []
    for col in cols:
        info = memo.get(col)
        if info is None:
            info = memo[col] = column_info(col)
        v += info[0]
        if info[1]:
            items.extend(info[1])
    n = len(items)
    if n > 1:
        # Greedy packing of disjoint pairs, in item order. The two tests are bit
        # tests on masks precomputed per column (the pairs loop is the bound's cost).
        used = [False] * n
        for i in range(n):
            if used[i]:
                continue
            x, waits_x, _ = items[i]
            for j in range(i + 1, n):
                if used[j]:
                    continue
                x2, _, above_x2 = items[j]
                if (waits_x >> x2) & 1 and (above_x2 >> x) & 1:
                    used[i] = used[j] = True
                    v += 1
                    break
    return v


def solve_optimal(
    position: Position,
    *,
    limit: Limit,
    start: float,
    below: int | None = None,
    use_native: bool = True,
) -> SolveResult:
    """A shortest solution in single-card moves, proven, or ``unknown`` at the limit.

    With ``below``, only solutions shorter than ``below`` are sought (positions whose
    bound reaches it are never queued), so ``unsolvable`` then means "none shorter".
    The C core runs the same A* when it was built and ``use_native`` holds.
    """
    deadline = None if limit.seconds is None else start + limit.seconds
    searcher = search.Searcher(config_for(position.rules, single_cards=True))
    cols, cells, founds = state_of(position)
    native = search.native
    if use_native and native is not None:
        seconds = -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())
        found: tuple[int, list[Step], int] = native.astar(
            cols,
            cells,
            founds,
            searcher.cfg.as_tuple(),
            -1 if limit.nodes is None else limit.nodes,
            seconds,
            -1 if below is None else below,
            limit.table_bytes,
        )
        status, steps, nodes = found
    else:
        status, steps, nodes = _astar(searcher, cols, cells, founds, limit.nodes, deadline, below)
    if status == search.SOLVED:
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


def _astar(
    searcher: search.Searcher,
    cols: Cols,
    cells: bytes,
    founds: Founds,
    max_nodes: int | None,
    deadline: float | None,
    below: int | None,
) -> tuple[int, list[Step], int]:
    # The A* in Python: (status, steps, nodes expanded), as the C core's astar().
    cols, cells, founds, autos0 = searcher.autoplay(cols, cells, founds)
    first: Step = ((-1, -1, -1, -1, 0), autos0)
    g0 = len(autos0)
    key0 = search.key_of(cols, cells)
    best: dict[bytes, int] = {key0: g0}
    parents: dict[bytes, tuple[bytes, Step] | None] = {key0: None}
    memo: dict[bytes, ColumnInfo] = {}
    counter = 0
    # Ties on f go to the deeper node (larger g): it is nearer a goal.
    heap: list[tuple[int, int, int, int, Cols, bytes, Founds, bytes]] = [
        (g0 + lower_bound(memo, cols, founds), -g0, 0, g0, cols, cells, founds, key0)
    ]
    nodes = 0
    status = search.EXHAUSTED
    goal: bytes | None = None
    gc_was = gc.isenabled()
    gc.disable()
    try:
        while heap:
            _, _, _, g, cols, cells, founds, key = heapq.heappop(heap)
            if best[key] < g:  # a stale entry: reached more cheaply since
                continue
            if founds[0] + founds[1] + founds[2] + founds[3] == 52:
                status, goal = search.SOLVED, key
                break
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
                if below is not None and g2 >= below:
                    continue  # cannot lead to a solution shorter than ``below``
                old = best.get(k2)
                if old is not None and old <= g2:
                    continue
                f = g2 + lower_bound(memo, c2, f2)
                if below is not None and f >= below:
                    continue  # its bound says no shorter solution lies through it
                best[k2] = g2
                parents[k2] = (key, (move, autos))
                counter += 1
                heapq.heappush(heap, (f, -g2, counter, g2, c2, ce2, f2, k2))
    finally:
        if gc_was:
            gc.enable()
    if status == search.SOLVED and goal is not None:
        return status, search._path(parents, goal, first), nodes
    return status, [], nodes
