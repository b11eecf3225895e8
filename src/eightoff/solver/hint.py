"""Hints: a move on a winning line, or how far back the game was last winnable."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Protocol

from eightoff.moves import Move
from eightoff.position import Position
from eightoff.solver.result import DEFAULT_LIMIT, Limit, SolveResult, Verdict
from eightoff.solver.search import solve

HINT_LIMIT = Limit(nodes=None, seconds=2.0)


class _History(Protocol):
    # The part of eightoff.game.Game a hint needs (kept structural: no import cycle).
    @property
    def position(self) -> Position: ...

    def positions(self) -> list[Position]: ...


@dataclass(frozen=True, slots=True)
class Hint:
    """What to do next.

    * winnable now: ``move`` is the first move of a winning line, ``winnable`` true,
      ``undo_to`` None;
    * lost: ``winnable`` false, ``undo_to`` the index into ``game.positions()`` of
      the last winnable position (undo ``len(actions) - undo_to`` actions), and
      ``move`` the winning move to play from there (None if the deal was never
      winnable);
    * undecided within the limit: ``move`` None, ``winnable`` None.
    """

    move: Move | None
    winnable: bool | None
    undo_to: int | None = None
    detail: str = ""


def hint(game: _History, *, limit: Limit = HINT_LIMIT) -> Hint:
    """A hint for ``game`` (an :class:`eightoff.game.Game`) within ``limit``."""
    start = time.perf_counter()
    deadline = None if limit.seconds is None else start + limit.seconds

    def budget() -> Limit | None:
        if deadline is None:
            return limit
        left = deadline - time.perf_counter()
        return None if left <= 0 else replace(limit, seconds=left)

    position = game.position
    if position.is_won():
        return Hint(None, True, None, "the game is won")
    now = solve(position, limit=limit)
    if now.verdict is Verdict.SOLVED:
        return Hint(now.moves[0], True, None, f"winnable: {now.length} moves to go")
    if now.verdict is Verdict.UNKNOWN:
        return Hint(None, None, None, "no verdict within the time limit")

    # Lost. Winnable positions form a prefix of the history (every position after
    # a lost one is lost too), so a binary search finds the last winnable one.
    history = game.positions()
    lo, hi = -1, len(history) - 1  # history[hi] is lost; history[lo] winnable (-1: none yet)
    best: SolveResult | None = None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        left = budget()
        if left is None:
            break
        result = solve(history[mid], limit=left)
        if result.verdict is Verdict.UNKNOWN:
            break
        if result.verdict is Verdict.SOLVED:
            lo, best = mid, result
        else:
            hi = mid
    else:
        if lo < 0:
            return Hint(None, False, None, "lost: this deal cannot be won from its start")
        assert best is not None
        undos = len(history) - 1 - lo
        return Hint(
            best.moves[0],
            False,
            lo,
            f"lost: undo {undos} action{'s' if undos != 1 else ''} to the last winnable position",
        )
    return Hint(None, False, None, "lost; no time left to find the last winnable position")


__all__ = ["DEFAULT_LIMIT", "HINT_LIMIT", "Hint", "hint"]
