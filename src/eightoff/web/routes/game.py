"""Starting and replaying a game: ``POST /api/new``, ``GET /api/pool`` and ``POST
/api/state``."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from eightoff.difficulty import ANY, DIFFICULTIES
from eightoff.web.errors import ApiError, ok
from eightoff.web.models import NewAnswer, NewRequest, PoolAnswer, StateAnswer, StateRequest
from eightoff.web.routes import api_route
from eightoff.web.service import GameService, rules_param

POOL_MOST: Final = 100
"""The most codes one ``/api/pool`` call answers."""
RULES_QUERY: Final = (
    'A preset name, or the rule options as a JSON object (like {"cells": 4}), as in /api/new.'
)


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

    @api_route(routes, "GET", "/api/pool", "Winnable deals to keep", "game", PoolAnswer)
    def pool(
        rules: Annotated[str, Query(description=RULES_QUERY)] = "standard",
        difficulty: Annotated[
            str,
            Query(
                description="The rating of the deals (any: every rating).",
                json_schema_extra={"enum": list(DIFFICULTIES)},
            ),
        ] = ANY,
        count: Annotated[
            int, Query(ge=1, le=POOL_MOST, description="How many codes to answer.")
        ] = 20,
    ) -> JSONResponse:
        """Up to ``count`` distinct codes of deals the solver has won under ``rules`` (a
        preset name, or the rule options as a JSON object), of ``difficulty`` (any, easy,
        medium, hard), drawn as ``/api/new`` draws a winnable deal: what a page keeps to
        deal new games while offline.

        Answer: ``{"rules", "difficulty", "codes": [code…]}``.
        """
        if difficulty not in DIFFICULTIES:
            choices = ", ".join(DIFFICULTIES)
            raise ApiError(400, f"difficulty must be one of {choices}, not {difficulty!r}")
        return ok(api.pool_codes(rules_param(rules), difficulty, count))

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
