"""Solver calls of the web API, run in separate processes at a lower CPU priority.

The server's event loop and its worker threads only replay games and describe
positions; hints, solves and the search for a winnable deal run here, in a few
processes whose priority is lowered (``nice``), so moves stay snappy while solvers
run. A job gets the game's moves as one string of compact notation, and its answer
comes back over the process's own pipe. This module stays light to import: the
solver processes load it, the engine and the solver, not the web framework.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from contextlib import suppress
from dataclasses import replace
from multiprocessing.connection import Connection
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
REPLAY_NICENESS: Final = 10
"""The same for the processes replaying long games: short requests come first."""


class SolverProcesses:
    """Up to ``size`` solver processes, each started when first needed and then kept.

    A call goes to an idle process over its own pipe and waits there for the answer:
    no broker threads between the request and the process (a process pool's two would
    take turns with the server's requests for the interpreter lock on every call).
    Callers bound how many calls run at once (the API's solver slots); a call beyond
    ``size`` waits for a process to be free.
    """

    def __init__(self, size: int, niceness: int = SOLVER_NICENESS) -> None:
        self.size = size
        self.niceness = niceness
        self._idle: queue.SimpleQueue[_Process] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._started = 0

    def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a solver process (its exception is raised here); raises
        ``BrokenExecutor`` if that process died (the next call starts a fresh one)."""
        process = self._take()
        try:
            process.conn.send((job, args))
            ok, value = process.conn.recv()
        except (EOFError, OSError):
            self._drop(process)
            raise BrokenExecutor("a solver process stopped") from None
        self._idle.put(process)
        if not ok:
            raise value
        result: T = value
        return result

    def _take(self) -> _Process:
        with suppress(queue.Empty):
            return self._idle.get_nowait()
        with self._lock:
            start = self._started < self.size
            self._started += start
        if not start:
            return self._idle.get()
        try:
            return _Process(self.niceness)
        except BaseException:
            with self._lock:
                self._started -= 1
            raise

    def _drop(self, process: _Process) -> None:
        process.stop()
        with self._lock:
            self._started -= 1

    def close(self) -> None:
        """Stop the idle processes (a later call starts them again)."""
        while True:
            try:
                process = self._idle.get_nowait()
            except queue.Empty:
                return
            self._drop(process)


class _Process:
    """One solver process and the parent's end of its pipe."""

    def __init__(self, niceness: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, niceness), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        with suppress(OSError):
            self.conn.send(None)
        self.conn.close()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _serve(conn: Connection, niceness: int) -> None:
    # A solver process: jobs from the pipe, (True, result) or (False, exception) back.
    with suppress(OSError):
        os.nice(niceness)
    while True:
        try:
            item = conn.recv()
        except EOFError:
            return
        if item is None:
            return
        job, args = item
        try:
            answer: tuple[bool, Any] = (True, job(*args))
        except Exception as exc:  # raised again in the server
            answer = (False, exc)
        try:
            conn.send(answer)
        except (TypeError, AttributeError, pickle.PicklingError) as exc:  # cannot travel
            conn.send((False, RuntimeError(f"a solver job's answer cannot be sent: {exc}")))


# -- the jobs (module functions: the pool pickles them by name) -------------------------


def notation(moves: list[Move]) -> str:
    """Moves as a job takes them: their compact notation, separated by spaces (one short
    string to send to a solver process, not a list of objects to pickle)."""
    return " ".join([m.text() for m in moves])


def _replayed(code: GameCode | None, moves: str) -> Game:
    if code is None:
        raise ValueError("a solver job needs the game code")
    game = Game(code)
    # Already checked by the server: each move is its own action.
    game.replay([Move.from_text(m) for m in moves.split()])
    return game


def hint_job(code: GameCode | None, moves: str, limit: Limit) -> Hint:
    """The hint for the game of ``code`` after ``moves`` (:func:`notation`)."""
    return hint(_replayed(code, moves), limit=limit)


def solve_job(code: GameCode | None, moves: str, limit: Limit) -> dict[str, Any]:
    """The solver's JSON result from the position after ``moves``, each move with its
    compact notation (``"text"``), as the API's other answers give it."""
    position = _replayed(code, moves).position
    result = solve(position, limit=limit)
    out: dict[str, Any] = result.to_json(position)
    for move, data in zip(result.moves, out["moves"], strict=True):
        data["text"] = move.text()
    return out


def won_codes_job(
    candidates: list[GameCode], per_deal: Limit, seconds: float, count: int
) -> list[GameCode]:
    """The first ``count`` of ``candidates`` the solver wins, each within ``per_deal``,
    trying for at most ``seconds`` (fewer when time runs out)."""
    deadline = time.monotonic() + seconds
    won: list[GameCode] = []
    for code in candidates:
        left = max(deadline - time.monotonic(), 0.01)
        budget = left if per_deal.seconds is None else min(per_deal.seconds, left)
        if solve(code.position(), limit=replace(per_deal, seconds=budget)).solved:
            won.append(code)
        if len(won) >= count or time.monotonic() >= deadline:
            break
    return won


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
    "REPLAY_NICENESS",
    "SOLVER_NICENESS",
    "SolverProcesses",
    "hint_job",
    "notation",
    "solve_job",
    "winnable_job",
]
