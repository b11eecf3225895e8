"""Starting and replaying a game: ``POST /api/new`` and ``POST /api/state``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from eightoff.web.errors import ok
from eightoff.web.models import NewAnswer, NewRequest, StateAnswer, StateRequest
from eightoff.web.routes import api_route
from eightoff.web.service import GameService


def router(api: GameService) -> APIRouter:
    """The game's routes, answered by ``api``."""
    routes = APIRouter()

    @api_route(routes, "POST", "/api/new", "Start a game", "game", NewAnswer)
    def new_game(req: NewRequest) -> JSONResponse:
        """A new deal (or the deal of ``code``) with its position, legal moves and taps.

        Answer: ``{"code", "position", "legal_moves", "status", "score", "winnable",
        "rules", "rules_text", "taps", "targets", "finish"}``. ``winnable`` is true when
        the solver has won this deal, null when that is not known (no win found in the
        time budget, or a code was given), false when every deal tried was proven lost.
        """
        return ok(api.new(req))

    @api_route(routes, "POST", "/api/state", "Replay a game", "game", StateAnswer)
    def state(req: StateRequest) -> JSONResponse:
        """Replay ``moves`` from the deal of ``code`` and describe the position reached.

        Answer: ``{"position", "legal_moves", "status" (playing | won | stuck), "score",
        "moves_applied", "autoplayed", "taps", "targets", "finish"}``.

        - ``taps`` maps each pile holding a movable card (``"column-3"``, ``"cell-2"``) to
          ``{"tap": move | null, "smart": move | null}``: what a single tap (to the
          foundation when allowed) and a double tap (smart move) play from there.
        - ``targets`` maps the same piles to the piles their legal moves go to
          (``"foundation-H"`` for a move home).
        - ``finish`` is the list of foundation moves that takes every remaining card home,
          when there is one, else null.
        - ``autoplayed`` lists the foundation moves played after ``moves`` when
          ``autoplay`` is true (empty otherwise, and right after a take-back: the card
          the player took down is not sent straight back); ``position`` is after them.

        An illegal or unreadable move → 422 ``{"error", "index", "reason"}`` (0-based index).
        """
        return ok(api.state(req))

    return routes


__all__ = ["router"]
