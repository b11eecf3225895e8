"""The solver's routes: ``POST /api/hint`` and ``POST /api/solve``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from eightoff.web.errors import ok
from eightoff.web.models import GameRequest, HintAnswer, SolveAnswer
from eightoff.web.routes import api_route
from eightoff.web.service import GameService


def router(api: GameService) -> APIRouter:
    """The solver's routes, answered by ``api`` (within its solver slots and budgets)."""
    routes = APIRouter()

    @api_route(routes, "POST", "/api/hint", "Ask the solver for a hint", "solver", HintAnswer)
    def hint_route(req: GameRequest) -> JSONResponse:
        """A move on a winning line from the current position.

        Answer: ``{"move": move | null, "winnable": true | false | null, "undo_to":
        index | null, "detail"}``. When the solver proves the position lost,
        ``winnable`` is false and ``undo_to`` is how many moves to keep to be back in
        a winnable position. Busy solver → 429.
        """
        return ok(api.hint(req))

    @api_route(
        routes, "POST", "/api/solve", "Solve from the current position", "solver", SolveAnswer
    )
    def solve_route(req: GameRequest) -> JSONResponse:
        """The solver's JSON result from the position after ``moves`` (verdict, moves…)."""
        return ok(api.solve(req))

    return routes


__all__ = ["router"]
