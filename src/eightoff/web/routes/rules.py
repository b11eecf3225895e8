"""The rules and the deal of the day: ``GET /api/daily``, ``GET /api/daily/ahead``,
``POST /api/winnability`` and ``GET /api/rules``."""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from eightoff.difficulty import DIFFICULTIES
from eightoff.rules import OPTIONS, PRESETS
from eightoff.web import ruletable
from eightoff.web.errors import ok
from eightoff.web.models import (
    DailyAheadAnswer,
    DailyAnswer,
    WinnabilityAnswer,
    WinnabilityRequest,
)
from eightoff.web.routes import api_route
from eightoff.web.service import GameService, rules_of, winnability

RULES_INFO: Final[dict[str, Any]] = {
    "presets": {
        name: {"rules": rules.to_json(), "description": rules.describe()}
        for name, rules in PRESETS.items()
    },
    "default": "standard",
    "options": {o.name: [o.to_json(v) for v in o.values] for o in OPTIONS},
    "table": ruletable.table(),
    "difficulties": list(DIFFICULTIES),
}
"""What ``GET /api/rules`` answers."""
AHEAD_MOST: Final = 31
"""The most days one ``/api/daily/ahead`` call answers."""


def router(api: GameService) -> APIRouter:
    """The routes of the rules and of the deal of the day (its deal found by ``api``)."""
    routes = APIRouter()

    @api_route(routes, "GET", "/api/daily", "The deal of the day", "game", DailyAnswer)
    def daily_route(date: str | None = None, rules: str = "standard") -> JSONResponse:
        """The deal of ``date`` (YYYY-MM-DD, the player's calendar date; default: today in
        UTC) under the preset ``rules``: one winnable deal per date, the same for everyone.

        Answer: what ``/api/new`` answers (``winnable`` is true), plus ``date`` and
        ``solver_moves`` (the length of the solver's winning line, in single-card moves).
        """
        return ok(api.daily(date, rules))

    @api_route(
        routes,
        "GET",
        "/api/daily/ahead",
        "The deals of the day ahead",
        "game",
        DailyAheadAnswer,
    )
    def daily_ahead_route(
        date: Annotated[
            str | None, Query(description="The first date, YYYY-MM-DD (default: today in UTC).")
        ] = None,
        days: Annotated[int, Query(ge=1, le=AHEAD_MOST, description="How many dates.")] = 14,
        rules: Annotated[str, Query(description="A preset name.")] = "standard",
    ) -> JSONResponse:
        """The deals of ``days`` dates from ``date`` on (YYYY-MM-DD; default: today in UTC)
        under the preset ``rules``, each as its code: what a page keeps to play the deal of
        the day offline (the same deals ``/api/daily`` answers).

        Answer: ``{"rules", "days": [{"date", "code", "solver_moves"}…]}``.
        """
        return ok(api.daily_ahead(date, days, rules))

    @api_route(
        routes,
        "POST",
        "/api/winnability",
        "How often a variant can be won",
        "rules",
        WinnabilityAnswer,
    )
    def winnability_route(req: WinnabilityRequest) -> JSONResponse:
        """The share of won deals in the survey of ``rules`` the package ships (what the
        New game form says: "about 1 in 9 deals of this variant can be won")."""
        return ok(winnability(rules_of(req.rules)))

    @api_route(routes, "GET", "/api/rules", "Presets and rule options", "rules")
    def rules_route() -> JSONResponse:
        """Every preset (its options and a one-line description), every option's values, and
        the rule table (``table``: per option its name, CLI flag, help, default and values,
        each with its words and game-code letter) to build a New game form from, and the
        difficulty levels a new winnable deal may be asked for (``difficulties``)."""
        return ok(RULES_INFO)

    return routes


__all__ = ["router"]
