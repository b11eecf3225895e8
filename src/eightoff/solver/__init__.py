"""The solver: a winning line or a proof that none exists, an optimal mode, and hints.

    result = solve(position, limit=Limit(nodes=200_000, seconds=5))
    result.verdict, result.moves, result.length, result.to_json(position)

:func:`solve` settles a position under its own rules (every option the engine
has); ``unsolvable`` is reported only after a complete search, ``unknown`` only
when a limit was hit. The returned moves are legal engine moves.

Two solvers stand behind it, chosen in :func:`solve` alone: the C core
(``native/``, built by ``make setup``; :mod:`eightoff.solver.core`), and where it
was not built the reference solver (:mod:`eightoff.solver.reference`), a plain
search on ``Position.legal_moves`` — the same verdicts, longer lines, and hundreds
of times slower (see the README).
"""

from __future__ import annotations

from pathlib import Path

from eightoff.position import Position
from eightoff.solver import core, reference
from eightoff.solver.hint import HINT_LIMIT, Hint, hint
from eightoff.solver.result import DEFAULT_LIMIT, Limit, SolveResult, Verdict
from eightoff.solver.schedule import DEFAULT_SCHEDULE, Schedule


def solve(
    position: Position,
    *,
    limit: Limit = DEFAULT_LIMIT,
    optimal: bool = False,
    layers_dir: str | Path | None = None,
    schedule: Schedule = DEFAULT_SCHEDULE,
) -> SolveResult:
    """Solve ``position`` under its rules within ``limit``.

    With ``optimal=True`` the search looks for the shortest solution in
    single-card moves and proves it (``result.optimal``); otherwise it looks for
    any short-ish solution fast. ``layers_dir`` keeps a long proof's work: where
    the fast search's proof goes on one foundation layer at a time (its tables
    full), its files and a manifest stay there when a limit (or a kill) stops it,
    and the same call goes on from its last finished layer (C core only).
    ``schedule`` sets when the C core's helper searches start and how much each may
    expand (:class:`Schedule`); the reference solver has no helpers and ignores it.
    """
    if core.native is None:
        return (reference.solve_shortest if optimal else reference.solve_any)(position, limit)
    if optimal:
        return core.solve_optimal(position, limit)
    return core.solve_fast(
        position, limit, None if layers_dir is None else Path(layers_dir), schedule
    )


__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_SCHEDULE",
    "HINT_LIMIT",
    "Hint",
    "Limit",
    "Schedule",
    "SolveResult",
    "Verdict",
    "hint",
    "solve",
]
