"""The API's request bodies and answers (the answers document the OpenAPI schema; the
routes build plain JSON)."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from eightoff.difficulty import Rating

MOVES_SCHEMA_LIMIT: Final = 20_000
"""The schema's hard cap on a move list; ``Limits.max_moves`` is the one enforced."""
BAD_GAME_CODE: Final = "bad-game-code"  # the reason_code of a game code that cannot be read


# -- request bodies -------------------------------------------------------------------


_STRICT = ConfigDict(extra="forbid", strict=True)


class NewRequest(BaseModel):
    """Start a game: a fresh deal under ``rules``, or the deal of ``code``."""

    model_config = _STRICT
    rules: str | dict[str, Any] = Field(
        "standard",
        description="A preset name (see GET /api/rules) or an object of rule options; "
        'an optional "preset" key gives the base the options change.',
    )
    winnable: bool = Field(
        True, description="Deal only a game the solver has won (from the pool when there is one)."
    )
    difficulty: Rating | None = Field(
        None,
        description="With winnable: draw a pool deal of this rating (easy / medium / hard, "
        "from solution length and solver effort); any rating when absent or when the pool "
        "has none of it.",
    )
    code: str | None = Field(
        None,
        max_length=100,
        description="A game code (EO1-…) to replay exactly; when given, rules, winnable "
        "and difficulty are ignored.",
    )


class WinnabilityRequest(BaseModel):
    """The rule set to say the odds of."""

    model_config = _STRICT
    rules: str | dict[str, Any] = Field(
        "standard", description="A preset name or an object of rule options, as in /api/new."
    )


class GameRequest(BaseModel):
    """A game as the page holds it: its code and the flat list of moves played."""

    model_config = _STRICT
    code: str = Field(max_length=100, description="The game code, e.g. EO1-C8-AAAAAFA.")
    moves: list[dict[str, Any] | str] = Field(
        default_factory=list,
        max_length=MOVES_SCHEMA_LIMIT,
        description='Moves in the compact notation, e.g. "3b" (column 3 to cell b), "a5", '
        '"3^", "35x2", "^H3" (every move the API answers carries its "text"), or in the '
        'engine\'s JSON form, e.g. {"card": "7H", "from": ["column", 3], "to": ["cell", 2], '
        '"count": 1} (1-based places; a "card" is checked against the card that moves).',
    )


class StateRequest(GameRequest):
    """A game, and whether to play the safe foundation moves that follow it."""

    autoplay: bool = Field(
        False,
        description="After the moves, play every foundation move autoplay allows now; "
        'they come back in "autoplayed" (not counted in "moves_applied") for the page '
        "to append to its last action.",
    )
    refusal_ok: bool = Field(
        False,
        description='An illegal or unreadable move is answered 200 {"refused": {"error", '
        '"index", "reason", "reason_code"}} rather than 422: a page asking whether a move '
        "stands gets a refusal as an answer, not as an error.",
    )


# -- answers (documented in the OpenAPI schema; the routes build plain JSON) -----------


class MoveJson(BaseModel):
    """A move: the (deepest) moving card and 1-based places."""

    model_config = ConfigDict(populate_by_name=True)
    card: str | None = Field(None, examples=["7H"])
    from_: list[Any] = Field(alias="from", examples=[["column", 3]])
    to: list[Any] = Field(examples=[["cell", 2]])
    count: int = 1
    text: str = Field(
        examples=["3b"],
        description="The move in the compact notation: send this back (a long game "
        "stays small and replays fastest).",
    )


class Taps(BaseModel):
    """What a single tap and a double tap on a pile play."""

    tap: MoveJson | None = Field(description="To the foundation, when allowed.")
    smart: MoveJson | None = Field(description="The smart move (the app rules' double-tap order).")


class PositionJson(BaseModel):
    """Columns (covered → exposed), cells, top rank per foundation, and the rules."""

    columns: list[list[str]]
    cells: list[str | None]
    foundations: dict[str, int]
    rules: dict[str, Any]


class _Described(BaseModel):
    position: PositionJson
    legal_moves: list[MoveJson]
    status: Literal["playing", "won", "stuck"]
    score: int
    taps: dict[str, Taps] = Field(
        description='Per pile holding a card ("column-3", "cell-2"): its tap and smart move.'
    )
    targets: dict[str, list[str]] = Field(
        description="Per pile holding a card: the piles its legal moves go to "
        '("column-5", "cell-1", "foundation-H": a move home names its suit\'s pile).'
    )
    finish: list[MoveJson] | None = Field(
        description="Foundation moves that take every remaining card home, if there are."
    )


class NewAnswer(_Described):
    """A new game."""

    code: str
    winnable: bool | None = Field(
        description="True when the solver has won this deal; null when not known (no win "
        "found in the time budget, or a code was given); false when proven lost."
    )
    rules: dict[str, Any]
    rules_text: str


class DailyAnswer(NewAnswer):
    """The deal of the day."""

    date: str = Field(description="The calendar date, YYYY-MM-DD.")
    solver_moves: int = Field(description="Single-card moves of the solver's winning line.")


class DailyDeal(BaseModel):
    """One date's deal of the day, to start from its code."""

    date: str = Field(description="The calendar date, YYYY-MM-DD.")
    code: str
    solver_moves: int = Field(description="Single-card moves of the solver's winning line.")


class DailyAheadAnswer(BaseModel):
    """The deals of the day of several dates, kept by a page to play them offline."""

    rules: dict[str, Any]
    days: list[DailyDeal] = Field(description="Date after date from the first one asked.")


class PoolAnswer(BaseModel):
    """Codes of winnable deals, kept by a page to deal new games offline."""

    rules: dict[str, Any]
    difficulty: str
    codes: list[str] = Field(
        description="Distinct game codes of deals the solver has won (fewer than asked when "
        "there are not as many), of the difficulty asked when the pool has such deals."
    )


class StateAnswer(_Described):
    """The position after the moves."""

    moves_applied: int
    autoplayed: list[MoveJson] = Field(
        description="Foundation moves autoplay played after the moves (when asked)."
    )


class HintAnswer(BaseModel):
    """A hint from the solver."""

    move: MoveJson | None = Field(
        description="The move to play now, or from the undo_to position when lost."
    )
    winnable: bool | None
    undo_to: int | None = Field(
        description="When lost: how many moves to keep to be back in a winnable position."
    )
    detail: str


class SolveAnswer(BaseModel):
    """The solver's result from the position after the moves."""

    verdict: Literal["solved", "unsolvable", "unknown"]
    moves: list[MoveJson]
    length: int = Field(description="In single-card moves (a run of n cards counts 2n - 1).")
    optimal: bool
    nodes: int
    seconds: float


class WinnabilityAnswer(BaseModel):
    """How often a deal of a variant can be won, from the survey shipped with the package."""

    rules: dict[str, Any]
    surveyed: list[int] | None = Field(
        description="The eightoff deals surveyed, [first, last]; null: not surveyed."
    )
    won: int | None
    lost: int | None
    unknown: int | None = Field(description="Deals the solver left undecided.")
    kind: Literal["almost", "percent", "one_in", "none"] | None = Field(
        description="How to say it: almost every deal (99 % or more of the decided ones), "
        "about percent % of the deals (half or more), about 1 in one_in deals, none."
    )
    percent: float | None = Field(description="The won share of the decided deals, as said.")
    one_in: int | None = Field(description="Decided deals per won deal, rounded.")
    text: str = Field(description="The figure in English words.")


class ErrorAnswer(BaseModel):
    """Any refused request."""

    error: str
    index: int | None = Field(None, description="The 0-based index of the bad move, if any.")
    reason: str | None = Field(None, description="Why that move is illegal or unreadable.")
    reason_code: str | None = Field(
        None,
        description="What went wrong, for a page to say in its own language: an illegal "
        f"move's reason code (eightoff.errors.Illegal), or {BAD_GAME_CODE!r}.",
    )


ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: {"model": ErrorAnswer, "description": text}
    for code, text in (
        (400, "A bad value: unknown game code, preset or rule option; malformed JSON."),
        (413, "The request body is too large."),
        (422, "An unreadable request, too many moves, or an illegal move (index, reason)."),
        (429, "The solver, or the replay of long games, is busy: retry after Retry-After s."),
    )
}
"""The refusals every API route documents."""


__all__ = [
    "BAD_GAME_CODE",
    "ERRORS",
    "MOVES_SCHEMA_LIMIT",
    "DailyAheadAnswer",
    "DailyAnswer",
    "DailyDeal",
    "ErrorAnswer",
    "GameRequest",
    "HintAnswer",
    "MoveJson",
    "NewAnswer",
    "NewRequest",
    "PoolAnswer",
    "PositionJson",
    "SolveAnswer",
    "StateAnswer",
    "StateRequest",
    "Taps",
    "WinnabilityAnswer",
    "WinnabilityRequest",
]
