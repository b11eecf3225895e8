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

from eightoff.solver.hint import HINT_LIMIT, Hint, hint
from eightoff.solver.result import DEFAULT_LIMIT, Limit, SolveResult, Verdict
from eightoff.solver.schedule import DEFAULT_SCHEDULE, Schedule
from eightoff.solver.search import solve

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
