"""The hot core: weighted best-first search over a compact state.

Narrow interface: :func:`best_first` takes plain data (columns as ``bytes``,
cells as sorted ``bytes``, foundation ranks, a :class:`Config`) and returns a
status, a list of steps and a node count; nothing here knows about
:class:`~eightoff.position.Position`, so this module could be compiled
(mypyc/Cython) without touching its callers.

State: ``cols`` is a tuple of 8 ``bytes`` (card numbers, covered → exposed);
``cells`` is the sorted ``bytes`` of the cards held (cell order never matters);
``founds`` is a tuple of the four top ranks. The transposition key joins the
*sorted* columns and the cells, so it ignores column and cell order; the
foundations are implied by which cards are left.

A step is ``(move, autos)``: ``move = (src_kind, src, dst_kind, dst, count)``
with kinds ``COL``/``CELL``/``FOUND`` (a cell source names its card, a foundation
source its suit, a cell target is ``-1``, a column target its index), and
``autos`` the cards then sent home automatically, in order.

Search is complete: every child is recorded on generation, so when the open
list runs dry every reachable position (under a move set that keeps every
winning line) has been seen, and "no solution" is a proof.
"""

from __future__ import annotations

import gc
import heapq
import time
from dataclasses import dataclass
from typing import Final

COL: Final = 0
CELL: Final = 1
FOUND: Final = 2

SOLVED: Final = 0
EXHAUSTED: Final = 1
LIMIT: Final = 2

GROUP_SINGLE: Final = 0  # one card per engine move; runs are expanded through cells
GROUP_CELLS: Final = 1  # runs of free cells + 1 in one engine move
GROUP_FREECELL: Final = 2  # (free cells + 1) * 2**empty columns, destination excluded
GROUP_NONE: Final = 3  # search single-card moves only (optimal mode)

AUTO_NONE: Final = 0
AUTO_ALL: Final = 1  # building in suit: every foundation move is safe
AUTO_SAFE: Final = 2  # alternating colours: only when both opposite-colour piles are high enough

Move = tuple[int, int, int, int, int]
Step = tuple[Move, tuple[int, ...]]
Cols = tuple[bytes, ...]
Founds = tuple[int, int, int, int]

_SEP: Final = b"\xff"
_CELLSEP: Final = b"\xfe"


@dataclass(frozen=True, slots=True)
class Config:
    """The rule options the search needs, as plain values."""

    ncells: int
    suit: bool  # build in suit (else alternating colours)
    kings_only: bool  # an empty column takes only a King-headed run
    group: int  # GROUP_*
    take_back: bool  # generate take-back moves (only useful in alternating colours)
    auto: int  # AUTO_*
    weight: float = 8.0  # f = g + weight * h


def key_of(cols: Cols, cells: bytes) -> bytes:
    """Transposition key: sorted columns and the cells; ignores column and cell order."""
    return _SEP.join(sorted(cols)) + _CELLSEP + cells


def _red(card: int) -> bool:
    return 13 <= card < 39


def _builds(card: int, onto: int, suit: bool) -> bool:
    if onto % 13 != card % 13 + 1:
        return False
    if suit:
        return onto // 13 == card // 13
    return (13 <= card < 39) != (13 <= onto < 39)


def run_length(col: bytes, suit: bool) -> int:
    """Length of the built run at the exposed end of ``col``."""
    n = len(col)
    if n == 0:
        return 0
    k = 1
    while k < n:
        upper = col[-k]
        lower = col[-k - 1]
        if lower % 13 != upper % 13 + 1:
            break
        if suit:
            if lower // 13 != upper // 13:
                break
        elif (13 <= upper < 39) == (13 <= lower < 39):
            break
        k += 1
    return k


def _inversions(col: bytes) -> int:
    # Cards lying above a lower card of their own suit: each must move at least once more.
    mins = [99, 99, 99, 99]
    bad = 0
    for c in col:
        s = c // 13
        if mins[s] < c:
            bad += 1
        else:
            mins[s] = c
    return bad


class Searcher:
    """One search's tables (memoised per-column terms survive between calls)."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self._inv: dict[bytes, int] = {}
        self._run: dict[bytes, int] = {}

    # -- heuristic -------------------------------------------------------------------

    def h(self, cols: Cols, cells: bytes, founds: Founds) -> int:
        """Cards not home + inversions + small terms for held cells and buried next cards."""
        inv = self._inv
        v = 52 - founds[0] - founds[1] - founds[2] - founds[3]
        for col in cols:
            x = inv.get(col)
            if x is None:
                x = inv[col] = _inversions(col)
            v += 2 * x
        v += len(cells) // 2
        for s in range(4):
            f = founds[s]
            if f < 13:
                c = s * 13 + f
                for col in cols:
                    i = col.find(c)  # bytes.find with an int: a C-level scan
                    if i >= 0:
                        v += len(col) - 1 - i
                        break
        return v

    # -- automatic foundation moves ------------------------------------------------

    def autoplay(
        self, cols: Cols, cells: bytes, founds: Founds
    ) -> tuple[Cols, bytes, Founds, tuple[int, ...]]:
        """Send home every card the rules' safe-autoplay allows, repeatedly."""
        auto = self.cfg.auto
        if auto == AUTO_NONE:
            return cols, cells, founds, ()
        homed: list[int] = []
        fl = list(founds)
        cl = list(cols)
        cellset = cells
        changed = True
        while changed:
            changed = False
            for i in range(8):
                col = cl[i]
                while col:
                    c = col[-1]
                    s = c // 13
                    if fl[s] != c % 13 or (auto == AUTO_SAFE and not _safe(c, fl)):
                        break
                    fl[s] += 1
                    homed.append(c)
                    col = col[:-1]
                    changed = True
                cl[i] = col
            if cellset:
                for c in cellset:
                    s = c // 13
                    if fl[s] == c % 13 and (auto == AUTO_ALL or _safe(c, fl)):
                        fl[s] += 1
                        homed.append(c)
                        cellset = cellset.replace(bytes((c,)), b"")
                        changed = True
        if not homed:
            return cols, cells, founds, ()
        return tuple(cl), cellset, (fl[0], fl[1], fl[2], fl[3]), tuple(homed)

    # -- move generation ---------------------------------------------------------------

    def children(
        self, cols: Cols, cells: bytes, founds: Founds
    ) -> list[tuple[Move, Cols, bytes, Founds]]:
        """Every move worth trying here, with the position it leads to (before autoplay)."""
        cfg = self.cfg
        suit = cfg.suit
        kings_only = cfg.kings_only
        group = cfg.group
        free = cfg.ncells - len(cells)
        out: list[tuple[Move, Cols, bytes, Founds]] = []
        empty = -1
        nempty = 0
        tops: dict[int, int] = {}
        for j in range(8):
            col = cols[j]
            if col:
                tops[col[-1]] = j
            else:
                nempty += 1
                if empty < 0:
                    empty = j
        # Largest run that may move onto a card / into an empty column.
        if group == GROUP_FREECELL:
            cap = (free + 1) << nempty
            cap_empty = (free + 1) << (nempty - 1) if nempty else 0
        elif group == GROUP_NONE:
            cap = cap_empty = 1
        else:
            cap = cap_empty = free + 1
        runs = self._run

        for i in range(8):
            col = cols[i]
            if not col:
                continue
            top = col[-1]
            n = len(col)
            # To the foundation (when autoplay did not already do it).
            s = top // 13
            if founds[s] == top % 13:
                out.append(
                    (
                        (COL, i, FOUND, s, 1),
                        _set(cols, i, col[:-1]),
                        cells,
                        _found_up(founds, s),
                    )
                )
            run = runs.get(col)
            if run is None:
                run = runs[col] = run_length(col, suit)
            # Onto another column: the count is fixed by the target's rank.
            if suit:
                head = col[n - run]
                if run <= cap and head % 13 != 12:
                    j = tops.get(head + 1, -1)
                    if j >= 0:
                        out.append(_col_to_col(cols, cells, founds, i, j, run))
                # A shorter part of a same-suit run never fits on another column: the
                # card it would need is the one just under it, in this very run.
            else:
                trank = top % 13
                for d, j in tops.items():
                    if j == i:
                        continue
                    k = d % 13 - trank
                    if 1 <= k <= run and k <= cap and _red(col[n - k]) != _red(d):
                        out.append(_col_to_col(cols, cells, founds, i, j, k))
            # Into an empty column: a run (or its tail) whose head may start a column.
            if empty >= 0:
                top_k = min(run, cap_empty, n - 1)
                for k in range(1, top_k + 1):
                    if kings_only and col[n - k] % 13 != 12:
                        continue
                    out.append(_col_to_col(cols, cells, founds, i, empty, k))
            # To a cell.
            if free:
                out.append(
                    (
                        (COL, i, CELL, -1, 1),
                        _set(cols, i, col[:-1]),
                        bytes(sorted(cells + bytes((top,)))),
                        founds,
                    )
                )

        for c in cells:
            rest = cells.replace(bytes((c,)), b"")
            s = c // 13
            if founds[s] == c % 13:
                out.append(((CELL, c, FOUND, s, 1), cols, rest, _found_up(founds, s)))
            if c % 13 != 12:
                if suit:
                    j = tops.get(c + 1, -1)
                    if j >= 0:
                        out.append(
                            (
                                (CELL, c, COL, j, 1),
                                _set(cols, j, cols[j] + bytes((c,))),
                                rest,
                                founds,
                            )
                        )
                else:
                    r = c % 13 + 1
                    for d in (r, r + 39) if _red(c) else (r + 13, r + 26):
                        j = tops.get(d, -1)
                        if j >= 0:
                            out.append(
                                (
                                    (CELL, c, COL, j, 1),
                                    _set(cols, j, cols[j] + bytes((c,))),
                                    rest,
                                    founds,
                                )
                            )
            if empty >= 0 and (not kings_only or c % 13 == 12):
                out.append(
                    (
                        (CELL, c, COL, empty, 1),
                        _set(cols, empty, bytes((c,))),
                        cells.replace(bytes((c,)), b""),
                        founds,
                    )
                )

        if cfg.take_back:
            for s in range(4):
                f = founds[s]
                if not f:
                    continue
                c = s * 13 + f - 1
                down = _found_down(founds, s)
                if free:
                    out.append(
                        ((FOUND, s, CELL, -1, 1), cols, bytes(sorted(cells + bytes((c,)))), down)
                    )
                for j, col in enumerate(cols):
                    if col and _builds(c, col[-1], suit):
                        out.append(
                            ((FOUND, s, COL, j, 1), _set(cols, j, col + bytes((c,))), cells, down)
                        )
                if empty >= 0 and (not kings_only or c % 13 == 12):
                    out.append(
                        ((FOUND, s, COL, empty, 1), _set(cols, empty, bytes((c,))), cells, down)
                    )
        return out

    # -- the search ----------------------------------------------------------------------

    def best_first(
        self,
        cols: Cols,
        cells: bytes,
        founds: Founds,
        *,
        max_nodes: int | None,
        deadline: float | None,
    ) -> tuple[int, list[Step], int]:
        """Weighted best-first search; returns ``(status, steps, nodes expanded)``."""
        weight = self.cfg.weight
        cols, cells, founds, autos0 = self.autoplay(cols, cells, founds)
        start_key = key_of(cols, cells)
        parents: dict[bytes, tuple[bytes, Step] | None] = {start_key: None}
        first: Step = ((-1, -1, -1, -1, 0), autos0)
        if sum(founds) == 52:
            return SOLVED, [first] if autos0 else [], 0
        counter = 0
        heap: list[tuple[float, int, int, Cols, bytes, Founds, bytes]] = [
            (0.0, 0, 0, cols, cells, founds, start_key)
        ]
        nodes = 0
        gc_was = gc.isenabled()
        gc.disable()  # millions of small tuples, no cycles: the collector only costs time
        try:
            while heap:
                _, _, g, cols, cells, founds, key = heapq.heappop(heap)
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    return LIMIT, [], nodes - 1
                if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                    return LIMIT, [], nodes
                for move, c2, ce2, f2 in self.children(cols, cells, founds):
                    c2, ce2, f2, autos = self.autoplay(c2, ce2, f2)
                    k2 = key_of(c2, ce2)
                    if k2 in parents:
                        continue
                    parents[k2] = (key, (move, autos))
                    if f2[0] + f2[1] + f2[2] + f2[3] == 52:
                        return SOLVED, _path(parents, k2, first), nodes
                    counter += 1
                    cost = g + 2 * move[4] - 1 + len(autos)  # a run of n = 2n - 1 moves
                    heapq.heappush(
                        heap,
                        (cost + weight * self.h(c2, ce2, f2), counter, cost, c2, ce2, f2, k2),
                    )
            return EXHAUSTED, [], nodes
        finally:
            if gc_was:
                gc.enable()


def _safe(card: int, fl: list[int]) -> bool:
    # Alternating colours: a card is needed only as a base for the two opposite-colour
    # cards one rank lower; once both are home it never is.
    r = card % 13  # rank - 1
    if r <= 1:
        return True
    if 13 <= card < 39:
        return fl[0] >= r and fl[3] >= r
    return fl[1] >= r and fl[2] >= r


def _set(cols: Cols, i: int, col: bytes) -> Cols:
    return cols[:i] + (col,) + cols[i + 1 :]


def _found_up(founds: Founds, s: int) -> Founds:
    f = list(founds)
    f[s] += 1
    return (f[0], f[1], f[2], f[3])


def _found_down(founds: Founds, s: int) -> Founds:
    f = list(founds)
    f[s] -= 1
    return (f[0], f[1], f[2], f[3])


def _col_to_col(
    cols: Cols, cells: bytes, founds: Founds, i: int, j: int, k: int
) -> tuple[Move, Cols, bytes, Founds]:
    src = cols[i]
    lst = list(cols)
    lst[j] = cols[j] + src[-k:]
    lst[i] = src[:-k]
    return (COL, i, COL, j, k), tuple(lst), cells, founds


def _path(parents: dict[bytes, tuple[bytes, Step] | None], key: bytes, first: Step) -> list[Step]:
    steps: list[Step] = []
    entry = parents[key]
    while entry is not None:
        key, step = entry
        steps.append(step)
        entry = parents[key]
    if first[1]:
        steps.append(first)
    steps.reverse()
    return steps
