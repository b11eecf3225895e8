"""The deal of the day: one winnable deal per calendar date, the same for everyone.

The deal is derived from the date alone, with no server state: a hash of the ISO
date (and of the rule options, for rules other than the standard game) picks a
starting deal number, and the numbers from there are tried in turn until the
solver wins one within a node limit (a node limit alone gives the same answer on
every run). Almost every day the first number is already winnable::

    day = Daily.of(date(2026, 11, 30))
    day.code, day.solver_moves              # the game code to play, the solver's line
    share_text(day.day, moves=84, hints=0)
    # 'Eight Off — 30 Nov 2026 — won in 84 moves, no hints'
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Final

from eightoff.codes import GameCode
from eightoff.deal import DEALS
from eightoff.errors import EightOffError
from eightoff.rules import STANDARD, Rules
from eightoff.solver import Limit, Verdict, solve

NODES: Final = 200_000
"""The solver's node limit per candidate deal (the median standard deal needs ~100)."""
TRIES: Final = 64
"""Candidate deals tried before giving up (a day without a win would need 64 lost deals)."""

_ISO: Final = re.compile(r"\d{4}-\d{2}-\d{2}")
_MONTHS: Final = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)


class DailyError(EightOffError):
    """A date that cannot be read, or a day without a winnable deal within the bounds."""


@dataclass(frozen=True, slots=True)
class Daily:
    """The deal of one calendar date: its game code and the solver's winning line length."""

    day: date
    code: GameCode
    solver_moves: int
    """Single-card moves of the line the solver found (a par to beat, not an optimum)."""

    @classmethod
    def of(cls, day: date, rules: Rules = STANDARD) -> Daily:
        """The deal of ``day`` under ``rules`` (computed once per process, then cached)."""
        return _daily(day, rules)


def parse_date(text: str) -> date:
    """A calendar date from its ISO text ``YYYY-MM-DD``; anything else raises DailyError."""
    if not _ISO.fullmatch(text):
        raise DailyError(f"a date must be written YYYY-MM-DD, like 2026-11-30, not {text!r}")
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise DailyError(f"no such date {text}: {exc}") from None


def start_number(day: date, rules: Rules = STANDARD) -> int:
    """The first candidate deal number of ``day``: a hash of the date (and rule options)."""
    options = GameCode(rules, 0).options
    key = f"eightoff daily {day.isoformat()}"
    if rules != STANDARD:
        key += f" C{rules.cells}{options}"
    digest = hashlib.sha256(key.encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") % DEALS


def share_text(day: date, moves: int, hints: int) -> str:
    """What a player shares after winning the deal of ``day`` (English)."""
    told = "no hints" if hints == 0 else f"{hints} hint" + ("" if hints == 1 else "s")
    when = f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
    return f"Eight Off — {when} — won in {moves} moves, {told}"


@lru_cache(maxsize=64)
def _daily(day: date, rules: Rules) -> Daily:
    start = start_number(day, rules)
    limit = Limit(nodes=NODES, seconds=None)
    for step in range(TRIES):
        code = GameCode(rules, (start + step) % DEALS)
        result = solve(code.position(), limit=limit)
        if result.verdict is Verdict.SOLVED:
            return Daily(day, code, result.length)
    raise DailyError(f"no winnable deal found for {day.isoformat()} in {TRIES} tries")


__all__ = ["NODES", "TRIES", "Daily", "DailyError", "parse_date", "share_text", "start_number"]
