"""What one request may ask of the server: body size and time, moves, solver budgets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask of the server."""

    max_body: int = 256 * 1024  # bytes of request body
    body_seconds: float = 10.0  # for the whole body to arrive (then 408, connection closed)
    max_moves: int = 10_000  # moves in one request's list
    hint_seconds: float = 2.0  # solver budget for /api/hint
    solve_seconds: float = 5.0  # solver budget for /api/solve
    deal_seconds: float = 0.5  # solver budget per candidate deal in /api/new
    new_seconds: float = 4.0  # total budget for finding a winnable deal
    max_solvers: int = 2  # solver calls running at once in this process
    solver_memory: int = 256 << 20  # bytes of search tables per solver call (C core)
    solver_nodes: int | None = None  # positions per solver call (None: time bounds it)
    busy_wait: float = 0.25  # seconds to wait for a free solver slot before answering 429
    heavy_body: int = 32 * 1024  # /api/state bodies this big run in a replay process (0: none)
    heavy_replays: int = 1  # such processes (each replays one game at a time)
    heavy_waiting: int = 16  # heavy replays under way or waiting; past it, 429


__all__ = ["Limits"]
