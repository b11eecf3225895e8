"""Which deal a new game plays: as in the web game, the deal of the day, or a winnable
deal from the pool by difficulty, else a won deal of the shipped survey where random
deals are often lost, else random deals the solver wins within a short budget, else any
deal."""

from __future__ import annotations

import random
import time
from datetime import UTC, date, datetime
from functools import cache
from typing import Final

from eightoff.codes import GameCode
from eightoff.pool import Pool
from eightoff.rules import Rules
from eightoff.tui.userdata import NewGameChoice
from eightoff.verdicts import draw_won

DEAL_SECONDS: Final = 0.5  # per random deal tried when the pool has none for the rules
NEW_SECONDS: Final = 2.0  # in all


@cache
def shipped_pool() -> Pool:
    """The pool shipped with the package (loaded once)."""
    return Pool()


def pick_deal(choice: NewGameChoice, rng: random.Random, pool: Pool | None = None) -> GameCode:
    """A game code for ``choice``: winnable and of its difficulty when it asks so, drawn
    from ``pool`` (the shipped one by default)."""
    rules = choice.rules
    if choice.code is not None:
        return choice.code
    if choice.daily:
        return daily_code(rules)
    if not choice.winnable:
        return GameCode.random(rules, rng)
    if pool is None:
        pool = shipped_pool()
    number = None
    if choice.difficulty != "any":
        number = pool.draw(rules, rng, choice.difficulty)
    if number is None:
        number = pool.draw(rules, rng)
    if number is None:  # a variant whose deals are often lost: its surveyed won deals
        number = draw_won(rules, rng)
    if number is not None:
        return GameCode(rules, number)
    from eightoff.solver import Limit, Verdict, solve

    deadline = time.monotonic() + NEW_SECONDS
    while True:
        code = GameCode.random(rules, rng)
        budget = max(0.01, min(DEAL_SECONDS, deadline - time.monotonic()))
        result = solve(code.position(), limit=Limit(nodes=None, seconds=budget))
        if result.verdict is Verdict.SOLVED or time.monotonic() >= deadline:
            return code


def daily_code(rules: Rules, day: date | None = None) -> GameCode:
    """The deal of the day (today in UTC by default) under ``rules``, as in the web game;
    raises :class:`~eightoff.daily.DailyError` on a day without a winnable deal."""
    from eightoff.daily import Daily

    return Daily.of(day if day is not None else datetime.now(UTC).date(), rules).code


__all__ = ["daily_code", "pick_deal", "shipped_pool"]
