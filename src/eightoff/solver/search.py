"""The hot core: weighted best-first search over a compact state.

Narrow interface: :meth:`Searcher.best_first_fast` and :meth:`Searcher.best_first`
take plain data (columns as ``bytes``, cells as sorted ``bytes``, foundation
ranks, a :class:`Config`) and return a status, a list of steps and a node count;
nothing here knows about :class:`~eightoff.position.Position`, so this module
could be compiled (mypyc/Cython) without touching its callers.

State: ``cols`` is a tuple of 8 ``bytes`` (card numbers, covered → exposed);
``cells`` is the sorted ``bytes`` of the cards held (cell order never matters);
``founds`` is a tuple of the four top ranks. The transposition key joins the
*sorted* columns and the cells, so it ignores column and cell order; the
foundations are implied by which cards are left.

A step is ``(move, autos)``: ``move = (src_kind, src, dst_kind, dst, count)``
with kinds ``COL``/``CELL``/``FOUND`` (a cell source names its card, a foundation
source its suit, a cell target is ``-1``, a column target its index), and
``autos`` the cards then sent home automatically, in order.

Both searches are complete: every position popped is closed and its children
pushed, so when the open list runs dry every reachable position (under a move
set that keeps every winning line) has been seen. ``best_first_fast`` tells
positions apart by a 64-bit hash (fast, but a collision could hide a position),
so its "exhausted" is re-checked by ``best_first``, whose exact keys make "no
solution" a proof.
"""

from __future__ import annotations

import gc
import heapq
import time
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

native: ModuleType | None
try:  # the same best-first search in C, built at install time (see native/)
    from eightoff.solver import _native as native
except ImportError:  # no C compiler then, or EIGHTOFF_PURE=1: this module's Python runs
    native = None

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
# A child: (move, i, new column i, j, new column j, cells, foundations); i or j is -1
# when that slot is unused. It holds only what changed, so making one is cheap.
Child = tuple[Move, int, bytes, int, bytes, bytes, "Founds"]
Node = tuple["Cols", bytes, "Founds", bytes]  # cols, cells, foundations, key
HNode = tuple["Cols", bytes, "Founds", int]  # cols, cells, foundations, position hash
Step = tuple[Move, tuple[int, ...]]
Cols = tuple[bytes, ...]
Founds = tuple[int, int, int, int]
# Config as the C core reads it: ncells, suit, kings_only, group, take_back, auto, dig,
# weight, inv_weight, cell_weight, cover_weight.
ConfigTuple = tuple[int, int, int, int, int, int, int, float, float, float, float]

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
    dig: bool = True  # also offer "park the cards over a next card in cells" macro moves
    inv_weight: float = 0.5  # h: per card lying above a lower card of its suit
    cell_weight: float = 0.4  # h: per card held in a cell
    cover_weight: float = 0.25  # h: per card covering a suit's next foundation card

    def as_tuple(self) -> ConfigTuple:
        """The plain tuple the C core reads (see ``read_config`` in native/module.c)."""
        return (
            self.ncells,
            int(self.suit),
            int(self.kings_only),
            self.group,
            int(self.take_back),
            self.auto,
            int(self.dig),
            self.weight,
            self.inv_weight,
            self.cell_weight,
            self.cover_weight,
        )


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
        self._terms: dict[Founds, dict[bytes, float]] = {}
        self._celladd: dict[bytes, bytes] = {}
        self._digs: dict[Founds, dict[bytes, tuple[int, ...]]] = {}
        self.explored: Iterable[bytes] = ()

    # -- heuristic -------------------------------------------------------------------

    def terms(self, founds: Founds) -> dict[bytes, float]:
        """The per-column heuristic terms for these foundations (memoised by column)."""
        table = self._terms.get(founds)
        if table is None:
            table = self._terms[founds] = {}
        return table

    def term(self, table: dict[bytes, float], col: bytes, founds: Founds) -> float:
        """A column's share of h: its inversions and the cards over each suit's next card."""
        x = table.get(col)
        if x is None:
            cfg = self.cfg
            v = cfg.inv_weight * _inversions(col)
            cover = 0
            n = len(col) - 1
            for s in range(4):
                f = founds[s]
                if f < 13:
                    i = col.find(s * 13 + f)  # bytes.find with an int: a C-level scan
                    if i >= 0:
                        cover += n - i
            x = table[col] = v + cfg.cover_weight * cover
        return x

    def h(self, cols: Cols, cells: bytes, founds: Founds) -> float:
        """Cards not home + weighted inversions, held cells and cards over next cards."""
        table = self.terms(founds)
        v = 52 - founds[0] - founds[1] - founds[2] - founds[3] + self.cfg.cell_weight * len(cells)
        for col in cols:
            x = table.get(col)
            v += self.term(table, col, founds) if x is None else x
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
                for c in tuple(cellset):  # a snapshot: cellset shrinks in the loop
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

    def children(self, cols: Cols, cells: bytes, founds: Founds) -> list[Child]:
        """Every move worth trying here, as a :data:`Child` (the changed parts only)."""
        cfg = self.cfg
        suit = cfg.suit
        kings_only = cfg.kings_only
        group = cfg.group
        free = cfg.ncells - len(cells)
        out: list[Child] = []
        append = out.append
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
        dig = cfg.dig
        celladd = self._celladd
        digs = self._digs.get(founds)
        if digs is None:
            digs = self._digs[founds] = {}

        for i in range(8):
            col = cols[i]
            if not col:
                continue
            top = col[-1]
            n = len(col)
            rest = col[:-1]
            # To the foundation (when autoplay did not already do it).
            s = top // 13
            if founds[s] == top % 13:
                append(((COL, i, FOUND, s, 1), i, rest, -1, b"", cells, _found_up(founds, s)))
            run = runs.get(col)
            if run is None:
                run = runs[col] = run_length(col, suit)
            # Onto another column: the count is fixed by the target's rank.
            if suit:
                # A shorter part of a same-suit run never fits on another column: the
                # card it would need is the one just under it, in this very run.
                head = col[n - run]
                if run <= cap and head % 13 != 12:
                    j = tops.get(head + 1, -1)
                    if j >= 0:
                        append(
                            (
                                (COL, i, COL, j, run),
                                i,
                                col[:-run],
                                j,
                                cols[j] + col[-run:],
                                cells,
                                founds,
                            )
                        )
            else:
                trank = top % 13
                for d, j in tops.items():
                    if j == i:
                        continue
                    k = d % 13 - trank
                    if 1 <= k <= run and k <= cap and _red(col[n - k]) != _red(d):
                        append(
                            ((COL, i, COL, j, k), i, col[:-k], j, cols[j] + col[-k:], cells, founds)
                        )
            # Into an empty column: a run (or its tail) whose head may start a column.
            if empty >= 0:
                top_k = min(run, cap_empty, n - 1)
                for k in range(1, top_k + 1):
                    if kings_only and col[n - k] % 13 != 12:
                        continue
                    append(((COL, i, COL, empty, k), i, col[:-k], empty, col[-k:], cells, founds))
            # To a cell.
            if free:
                joined = cells + bytes((top,))
                ce2 = celladd.get(joined)  # memo: sorting bytes costs more than a lookup
                if ce2 is None:
                    ce2 = celladd[joined] = bytes(sorted(joined))
                append(((COL, i, CELL, -1, 1), i, rest, -1, b"", ce2, founds))
                if dig and free > 1:
                    # Macro: park the d cards over a suit's next card in cells at once,
                    # so that it goes home (d single moves; each step is also a child).
                    depths = digs.get(col)
                    if depths is None:
                        depths = digs[col] = _next_depths(col, founds)
                    for x in depths:
                        d = n - 1 - x
                        if d <= free:
                            append(
                                (
                                    (COL, i, CELL, -1, d),
                                    i,
                                    col[: x + 1],
                                    -1,
                                    b"",
                                    bytes(sorted(cells + col[x + 1 :])),
                                    founds,
                                )
                            )

        for c in cells:
            rest = cells.replace(bytes((c,)), b"")
            s = c // 13
            if founds[s] == c % 13:
                append(((CELL, c, FOUND, s, 1), -1, b"", -1, b"", rest, _found_up(founds, s)))
            if c % 13 != 12:
                if suit:
                    j = tops.get(c + 1, -1)
                    if j >= 0:
                        append(
                            ((CELL, c, COL, j, 1), -1, b"", j, cols[j] + bytes((c,)), rest, founds)
                        )
                else:
                    r = c % 13 + 1
                    for d in (r, r + 39) if _red(c) else (r + 13, r + 26):
                        j = tops.get(d, -1)
                        if j >= 0:
                            append(
                                (
                                    (CELL, c, COL, j, 1),
                                    -1,
                                    b"",
                                    j,
                                    cols[j] + bytes((c,)),
                                    rest,
                                    founds,
                                )
                            )
            if empty >= 0 and (not kings_only or c % 13 == 12):
                append(((CELL, c, COL, empty, 1), -1, b"", empty, bytes((c,)), rest, founds))

        if cfg.take_back:
            for s in range(4):
                f = founds[s]
                if not f:
                    continue
                c = s * 13 + f - 1
                down = _found_down(founds, s)
                if free:
                    append(((FOUND, s, CELL, -1, 1), -1, b"", -1, b"", _cell_add(cells, c), down))
                for j, col in enumerate(cols):
                    if col and _builds(c, col[-1], suit):
                        append(((FOUND, s, COL, j, 1), -1, b"", j, col + bytes((c,)), cells, down))
                if empty >= 0 and (not kings_only or c % 13 == 12):
                    append(((FOUND, s, COL, empty, 1), -1, b"", empty, bytes((c,)), cells, down))
        return out

    def apply(self, cols: Cols, child: Child) -> tuple[Cols, bytes, Founds, tuple[int, ...]]:
        """The position a child stands for, after autoplay, and the cards autoplay sent home."""
        _, i, coli, j, colj, cells, founds = child
        lst = list(cols)
        if i >= 0:
            lst[i] = coli
        if j >= 0:
            lst[j] = colj
        auto = self.cfg.auto
        if auto:
            # The parent had nothing left to send home, so only a card this move
            # exposed, or a changed foundation, can start autoplay.
            if child[0][2] == FOUND:
                return self.autoplay(tuple(lst), cells, founds)
            if i >= 0 and coli:
                t = coli[-1]
                if founds[t // 13] == t % 13 and (auto == AUTO_ALL or _safe(t, founds)):
                    return self.autoplay(tuple(lst), cells, founds)
        return tuple(lst), cells, founds, ()

    # -- the search ----------------------------------------------------------------------

    def exhaust(
        self,
        cols: Cols,
        cells: bytes,
        founds: Founds,
        *,
        max_nodes: int | None,
        deadline: float | None,
        keep_explored: bool = False,
    ) -> tuple[int, list[Step], int]:
        """Depth-first enumeration of every reachable position, with exact keys.

        The proof step after :meth:`best_first_fast` ran dry: no heuristic and no
        heap, as the whole space is visited anyway. Still returns a win if it meets
        one (only possible if the fast search's hashes merged two positions).
        With ``keep_explored`` the keys seen go to :attr:`explored`; otherwise the
        C core (when built) runs the same search.
        """
        if not keep_explored and native is not None:
            seconds = -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())
            max_n = -1 if max_nodes is None else max_nodes
            found: tuple[int, list[Step], int] = native.exhaust(
                cols, cells, founds, self.cfg.as_tuple(), max_n, seconds
            )
            return found
        cols, cells, founds, autos0 = self.autoplay(cols, cells, founds)
        first: Step = ((-1, -1, -1, -1, 0), autos0)
        if sum(founds) == 52:
            return SOLVED, [first] if autos0 else [], 0
        key = key_of(cols, cells)
        closed: dict[bytes, tuple[bytes, Step] | None] = {key: None}
        stack = [(cols, cells, founds, key)]
        nodes = 0
        gc_was = gc.isenabled()
        gc.disable()
        try:
            while stack:
                cols, cells, founds, key = stack.pop()
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    return LIMIT, [], nodes - 1
                if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                    return LIMIT, [], nodes
                for child in self.children(cols, cells, founds):
                    c2, ce2, f2, autos = self.apply(cols, child)
                    k2 = key_of(c2, ce2)
                    if k2 in closed:
                        continue
                    closed[k2] = (key, (child[0], autos))
                    if f2[0] + f2[1] + f2[2] + f2[3] == 52:
                        return SOLVED, _path(closed, k2, first), nodes
                    stack.append((c2, ce2, f2, k2))
            self.explored = closed.keys()
            return EXHAUSTED, [], nodes
        finally:
            if gc_was:
                gc.enable()

    def best_first_fast(
        self,
        cols: Cols,
        cells: bytes,
        founds: Founds,
        *,
        max_nodes: int | None,
        deadline: float | None,
        use_native: bool = True,
    ) -> tuple[int, list[Step], int]:
        """Like :meth:`best_first`, but positions are told apart by a 64-bit hash.

        The hash (the sum of the columns' and the cells' own hashes, so it ignores
        column order) is updated from the parent's for the one or two columns a
        move changes, so a child already seen is dropped before it is pushed, not
        after it is popped. Two positions sharing a hash (odds about n²/2⁶⁴) could
        hide one of them, so a win found here is real but "exhausted" is only
        proven by :meth:`best_first`.

        The C core (:mod:`eightoff.solver._native`) runs this same search when it was
        built and ``use_native`` holds; its hash differs, so its ties may break
        differently, but not its move set, costs or heuristic.
        """
        cfg = self.cfg
        if use_native and native is not None:
            seconds = -1.0 if deadline is None else max(0.0, deadline - time.perf_counter())
            found: tuple[int, list[Step], int] = native.best_first(
                cols,
                cells,
                founds,
                cfg.as_tuple(),
                -1 if max_nodes is None else max_nodes,
                seconds,
            )
            return found
        weight = cfg.weight
        cell_w = cfg.cell_weight
        auto = cfg.auto
        cols, cells, founds, autos0 = self.autoplay(cols, cells, founds)
        first: Step = ((-1, -1, -1, -1, 0), autos0)
        if sum(founds) == 52:
            return SOLVED, [first] if autos0 else [], 0
        root_hash = _chash(cols, cells)
        seen = {root_hash}
        back: dict[int, tuple[int, Step] | None] = {root_hash: None}
        counter = 0
        root: HNode = (cols, cells, founds, root_hash)
        heap: list[tuple[float, int, int, float, HNode, Child | None, int]] = [
            (0.0, 0, 0, self.h(cols, cells, founds), root, None, root_hash)
        ]
        heappush = heapq.heappush
        heappop = heapq.heappop
        term = self.term
        nodes = 0
        gc_was = gc.isenabled()
        gc.disable()
        try:
            while heap:
                _, _, g, hv, parent, child, x = heappop(heap)
                autos: tuple[int, ...] = ()
                if child is not None:
                    cols, cells, founds, autos = self.apply(parent[0], child)
                    if autos:  # the pushed hash was of the position before autoplay
                        x = _chash(cols, cells)
                        if x in seen:
                            continue
                        seen.add(x)
                        hv = self.h(cols, cells, founds)
                    back[x] = (parent[3], (child[0], autos))
                    if founds[0] + founds[1] + founds[2] + founds[3] == 52:
                        return SOLVED, _path(back, x, first), nodes
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    return LIMIT, [], nodes - 1
                if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                    return LIMIT, [], nodes
                table = self.terms(founds)
                ncells = len(cells)
                hcells = hash(cells)
                node: HNode = (cols, cells, founds, x)
                for ch in self.children(cols, cells, founds):
                    # The child's h below is the same code as in best_first(), inlined in
                    # both loops on purpose: a shared method measured ~10% slower here
                    # (deals 1-300, compiled), with the same nodes and lines.
                    move, i, coli, j, colj, ce2, f2 = ch
                    y = x
                    if i >= 0:
                        y += hash(coli) - hash(cols[i])
                    if j >= 0:
                        y += hash(colj) - hash(cols[j])
                    if ce2 is not cells:
                        y += hash(ce2) - hcells
                    if y in seen:
                        continue
                    seen.add(y)
                    n = move[4]
                    cost = g + (n if move[2] == CELL else 2 * n - 1)
                    bonus = 0
                    if move[0] == FOUND or move[2] == FOUND:  # the foundations changed
                        h2 = self.h(_replace2(cols, i, coli, j, colj), ce2, f2)
                    else:
                        h2 = hv + cell_w * (len(ce2) - ncells)
                        if i >= 0:
                            h2 += term(table, coli, founds) - term(table, cols[i], founds)
                            if auto and coli:
                                t = coli[-1]
                                if founds[t // 13] == t % 13 and (
                                    auto == AUTO_ALL or _safe(t, founds)
                                ):
                                    bonus = 1
                        if j >= 0:
                            h2 += term(table, colj, founds) - term(table, cols[j], founds)
                    counter += 1
                    heappush(heap, (cost + weight * (h2 - bonus), counter, cost, h2, node, ch, y))
            return EXHAUSTED, [], nodes
        finally:
            if gc_was:
                gc.enable()

    def best_first(
        self,
        cols: Cols,
        cells: bytes,
        founds: Founds,
        *,
        max_nodes: int | None,
        deadline: float | None,
        dead: set[bytes] | frozenset[bytes] = frozenset(),
    ) -> tuple[int, list[Step], int]:
        """Weighted best-first search; returns ``(status, steps, nodes expanded)``.

        ``dead`` holds keys of positions already proven lost: they are not searched.
        After an exhausted search :attr:`explored` holds every key it saw — all lost.

        Children are pushed as cheap descriptors with an incrementally updated h;
        a child's full state, autoplay and transposition key are only built when it
        is popped, since most children of a greedy search never are.
        """
        cfg = self.cfg
        weight = cfg.weight
        cell_w = cfg.cell_weight
        auto = cfg.auto
        cols, cells, founds, autos0 = self.autoplay(cols, cells, founds)
        first: Step = ((-1, -1, -1, -1, 0), autos0)
        if sum(founds) == 52:
            return SOLVED, [first] if autos0 else [], 0
        closed: dict[bytes, tuple[bytes, Step] | None] = {}
        counter = 0
        root: Node = (cols, cells, founds, b"")
        heap: list[tuple[float, int, int, float, Node, Child | None]] = [
            (0.0, 0, 0, self.h(cols, cells, founds), root, None)
        ]
        heappush = heapq.heappush
        heappop = heapq.heappop
        term = self.term
        nodes = 0
        gc_was = gc.isenabled()
        gc.disable()  # millions of small tuples, no cycles: the collector only costs time
        try:
            while heap:
                _, _, g, hv, parent, child = heappop(heap)
                autos: tuple[int, ...]
                if child is None:
                    cols, cells, founds, autos = parent[0], parent[1], parent[2], ()
                    key = key_of(cols, cells)
                    if key in dead:
                        break
                    closed[key] = None
                else:
                    cols, cells, founds, autos = self.apply(parent[0], child)
                    key = key_of(cols, cells)
                    if key in closed or key in dead:
                        continue
                    closed[key] = (parent[3], (child[0], autos))
                    if founds[0] + founds[1] + founds[2] + founds[3] == 52:
                        return SOLVED, _path(closed, key, first), nodes
                    if autos:  # the pushed h did not know about these cards going home
                        hv = self.h(cols, cells, founds)
                nodes += 1
                if max_nodes is not None and nodes > max_nodes:
                    return LIMIT, [], nodes - 1
                if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                    return LIMIT, [], nodes
                table = self.terms(founds)
                ncells = len(cells)
                node: Node = (cols, cells, founds, key)
                for ch in self.children(cols, cells, founds):
                    move, i, coli, j, colj, ce2, f2 = ch
                    n = move[4]
                    # A run of n onto a column counts 2n - 1 single-card moves; n cards
                    # dug into cells count n.
                    cost = g + (n if move[2] == CELL else 2 * n - 1)
                    bonus = 0
                    if move[0] == FOUND or move[2] == FOUND:  # the foundations changed
                        h2 = self.h(_replace2(cols, i, coli, j, colj), ce2, f2)
                    else:
                        # Incremental h: only the source and target columns changed.
                        h2 = hv + cell_w * (len(ce2) - ncells)
                        if i >= 0:
                            h2 += term(table, coli, founds) - term(table, cols[i], founds)
                            if auto and coli:
                                # The card this move exposes will go home: rank the child
                                # a card better now; its exact h is computed when popped.
                                t = coli[-1]
                                if founds[t // 13] == t % 13 and (
                                    auto == AUTO_ALL or _safe(t, founds)
                                ):
                                    bonus = 1
                        if j >= 0:
                            h2 += term(table, colj, founds) - term(table, cols[j], founds)
                    counter += 1
                    heappush(heap, (cost + weight * (h2 - bonus), counter, cost, h2, node, ch))
            self.explored = closed.keys()
            return EXHAUSTED, [], nodes
        finally:
            if gc_was:
                gc.enable()


def _safe(card: int, fl: list[int] | Founds) -> bool:
    # Alternating colours: a card is needed only as a base for the two opposite-colour
    # cards one rank lower; once both are home it never is.
    r = card % 13  # rank - 1
    if r <= 1:
        return True
    if 13 <= card < 39:
        return fl[0] >= r and fl[3] >= r
    return fl[1] >= r and fl[2] >= r


def _replace2(cols: Cols, i: int, coli: bytes, j: int, colj: bytes) -> Cols:
    lst = list(cols)
    if i >= 0:
        lst[i] = coli
    if j >= 0:
        lst[j] = colj
    return tuple(lst)


def _next_depths(col: bytes, founds: Founds) -> tuple[int, ...]:
    # Where in ``col`` each suit's next card lies, when two or more cards cover it.
    out = []
    n = len(col)
    for s in range(4):
        f = founds[s]
        if f < 13:
            x = col.find(s * 13 + f)
            if 0 <= x < n - 2:
                out.append(x)
    return tuple(out)


def _cell_add(cells: bytes, card: int) -> bytes:
    return bytes(sorted(cells + bytes((card,))))


def _found_up(founds: Founds, s: int) -> Founds:
    f = list(founds)
    f[s] += 1
    return (f[0], f[1], f[2], f[3])


def _found_down(founds: Founds, s: int) -> Founds:
    f = list(founds)
    f[s] -= 1
    return (f[0], f[1], f[2], f[3])


def _chash(cols: Cols, cells: bytes) -> int:
    # Order-free position hash: bytes cache their hash, so this is 9 lookups and a sum.
    return sum(map(hash, cols)) + hash(cells)


def _path(parents: dict[Any, tuple[Any, Step] | None], key: Any, first: Step) -> list[Step]:
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
