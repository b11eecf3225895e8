"""Solver calls of the web API, run in separate processes at a lower CPU priority.

The server's event loop and its worker threads only replay games and describe
positions; hints, solves and the search for a winnable deal run here, in a small
pool of processes whose priority is lowered (``nice``), so moves stay snappy while
solvers run. This module stays light to import: the pool's processes load it, the
engine and the solver, not the web framework.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from contextlib import suppress
from dataclasses import replace
from typing import Any, Final, TypeVar

from eightoff.codes import GameCode
from eightoff.game import Game
from eightoff.moves import Move
from eightoff.solver import Limit, Verdict, hint, solve
from eightoff.solver.hint import Hint

T = TypeVar("T")
CANDIDATES: Final = 64
"""Random deals ``/api/new`` tries at most when the pool has none for the rules."""
SOLVER_NICENESS: Final = 10
"""How much lower the solver processes' CPU priority is than the server's."""


class SolverProcesses:
    """A pool of ``size`` solver processes, started on first use."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a solver process; raises ``BrokenExecutor`` if that process
        died (the next call starts a fresh pool)."""
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.size,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            executor = self._executor
        try:
            return executor.submit(job, *args).result()
        except BrokenExecutor:
            with self._lock:
                if self._executor is executor:
                    self._executor = None
            raise

    def close(self) -> None:
        """Stop the processes (a later call starts them again)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(cancel_futures=True)


def _lower_priority() -> None:
    with suppress(OSError):
        os.nice(SOLVER_NICENESS)


# -- the jobs (module functions: the pool pickles them by name) -------------------------


def _replayed(code: GameCode | None, moves: list[Move]) -> Game:
    if code is None:
        raise ValueError("a solver job needs the game code")
    game = Game(code)
    game.replay(moves)  # already checked by the server: each move is its own action
    return game


def hint_job(code: GameCode | None, moves: list[Move], limit: Limit) -> Hint:
    """The hint for the game of ``code`` after ``moves``."""
    return hint(_replayed(code, moves), limit=limit)


def solve_job(code: GameCode | None, moves: list[Move], limit: Limit) -> dict[str, Any]:
    """The solver's JSON result from the position after ``moves``, each move with its
    compact notation (``"text"``), as the API's other answers give it."""
    position = _replayed(code, moves).position
    result = solve(position, limit=limit)
    out: dict[str, Any] = result.to_json(position)
    for move, data in zip(result.moves, out["moves"], strict=True):
        data["text"] = move.text()
    return out


def winnable_job(
    candidates: list[GameCode], per_deal: Limit, seconds: float
) -> tuple[GameCode, bool | None]:
    """The first of ``candidates`` the solver wins within ``per_deal``, trying for at
    most ``seconds``: ``(code, True)``. When none is won in time, the last one the solver
    could not decide (``None``: not known), else the last one tried, proven lost
    (``False``). Never ``True`` for a deal the solver did not win."""
    deadline = time.monotonic() + seconds
    undecided: GameCode | None = None
    code = candidates[0]
    for code in candidates:
        left = max(deadline - time.monotonic(), 0.01)
        budget = left if per_deal.seconds is None else min(per_deal.seconds, left)
        result = solve(code.position(), limit=replace(per_deal, seconds=budget))
        if result.verdict is Verdict.SOLVED:
            return code, True
        if result.verdict is Verdict.UNKNOWN:
            undecided = code
        if time.monotonic() >= deadline:
            break
    return (undecided, None) if undecided is not None else (code, False)


__all__ = [
    "CANDIDATES",
    "SOLVER_NICENESS",
    "SolverProcesses",
    "hint_job",
    "solve_job",
    "winnable_job",
]
