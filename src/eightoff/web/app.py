"""The JSON API and the static page, as one small ASGI app.

The server keeps no game state: the page sends the game code and the flat list
of moves played so far, the server replays them through the engine
(:class:`eightoff.game.Game`) and answers with the position, its legal moves and
what each tap would do. Any number of worker processes can serve the same page.

Every bad input gets a 4xx answer ``{"error": "<one line>", ...}``; the solver
runs with a time budget and at most ``max_solvers`` at once per process (busy →
429 with ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from concurrent.futures import BrokenExecutor
from contextlib import (
    AbstractAsyncContextManager,
    asynccontextmanager,
    contextmanager,
)
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Literal, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eightoff.cards import CARDS, Card
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.daily import Daily, parse_date
from eightoff.difficulty import DIFFICULTIES, Rating
from eightoff.errors import EightOffError, InvalidCardError
from eightoff.formats import move_from_json, move_to_json, moves_to_json, view_to_json
from eightoff.game import Game, ReplayError
from eightoff.moves import InvalidMoveError, Move
from eightoff.pool import Pool
from eightoff.position import Position
from eightoff.rules import OPTIONS, PRESETS, Rules, preset
from eightoff.solver import Limit
from eightoff.verdicts import UNSURVEYED_TEXT, draw_won, shipped
from eightoff.web.delivery import Gzip, Static, page
from eightoff.web.middleware import (
    BODY_KEY,
    HeadAsGet,
    HeavyReplays,
    host_header,
    malformed_json,
)
from eightoff.web.solving import (
    CANDIDATES,
    REPLAY_NICENESS,
    SolverProcesses,
    hint_job,
    notation,
    solve_job,
    winnable_job,
)

STATIC: Final = Path(__file__).parent / "static"
MOVES_SCHEMA_LIMIT: Final = 20_000
"""The schema's hard cap on a move list; :attr:`Limits.max_moves` is the one enforced."""

_HTML: Final = "text/html; charset=utf-8"
_PAGES: Final = {"/": ("index.html", "main.js"), "/privacy": ("privacy.html", "page.js")}
LANGUAGES: Final = ("en", "fr")
"""The page's languages, the first the default."""
_RULES_PAGES: Final = {"en": "rules.html", "fr": "rules.fr.html"}
_CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


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


BAD_GAME_CODE: Final = "bad-game-code"  # the reason_code of a game code that cannot be read


class ApiError(Exception):
    """A request the API refuses: an HTTP status, a one-line message and extra fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


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


_ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    code: {"model": ErrorAnswer, "description": text}
    for code, text in (
        (400, "A bad value: unknown game code, preset or rule option; malformed JSON."),
        (413, "The request body is too large."),
        (422, "An unreadable request, too many moves, or an illegal move (index, reason)."),
        (429, "The solver, or the replay of long games, is busy: retry after Retry-After s."),
    )
}


# -- the app --------------------------------------------------------------------------


def create_app(
    pool_path: str | os.PathLike[str] | None = None,
    *,
    limits: Limits | None = None,
    seed: int | None = None,
    allowed_hosts: Iterable[str] | None = None,
) -> FastAPI:
    """The ASGI app: API routes under ``/api``, the page at ``/``.

    ``pool_path`` is a survey database or JSON pool whose won deals ``/api/new`` draws
    from (default: the pool shipped with the package; rules it lacks get random deals
    the solver wins within the time budget);
    ``seed`` makes new deals reproducible (tests); ``allowed_hosts``, when given, are
    the only Host header names answered (others get 400: DNS rebinding reaches nothing).
    """
    lim = limits or Limits()
    api = _Api(lim, pool_path, random.Random(seed))
    app = FastAPI(
        title="Eight Off",
        version=_version(),
        summary="Eight Off solitaire: stateless game API with solver-backed hints.",
        description=_API_DESCRIPTION,
        docs_url=None,  # the Swagger page loads its scripts from a CDN; the schema stays
        redoc_url=None,
        lifespan=_closing(api),
    )
    app.state.api = api
    hosts = None if allowed_hosts is None else frozenset(h.lower() for h in allowed_hosts)
    if lim.heavy_body:
        app.add_middleware(
            HeavyReplays, processes=api.replays, min_body=lim.heavy_body, most=lim.heavy_waiting
        )
    app.add_middleware(HeadAsGet)
    app.add_middleware(_Guard, max_body=lim.max_body, body_seconds=lim.body_seconds, hosts=hosts)
    _add_error_handlers(app)

    @app.post(
        "/api/new",
        summary="Start a game",
        tags=["game"],
        responses={200: {"model": NewAnswer}, **_ERRORS},
    )
    def new_game(req: NewRequest) -> JSONResponse:
        """A new deal (or the deal of ``code``) with its position, legal moves and taps.

        Answer: ``{"code", "position", "legal_moves", "status", "score", "winnable",
        "rules", "rules_text", "taps", "targets", "finish"}``. ``winnable`` is true when
        the solver has won this deal, null when that is not known (no win found in the
        time budget, or a code was given), false when every deal tried was proven lost.
        """
        return _ok(api.new(req))

    @app.post(
        "/api/state",
        summary="Replay a game",
        tags=["game"],
        responses={200: {"model": StateAnswer}, **_ERRORS},
    )
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
        return _ok(api.state(req))

    @app.post(
        "/api/hint",
        summary="Ask the solver for a hint",
        tags=["solver"],
        responses={200: {"model": HintAnswer}, **_ERRORS},
    )
    def hint_route(req: GameRequest) -> JSONResponse:
        """A move on a winning line from the current position.

        Answer: ``{"move": move | null, "winnable": true | false | null, "undo_to":
        index | null, "detail"}``. When the solver proves the position lost,
        ``winnable`` is false and ``undo_to`` is how many moves to keep to be back in
        a winnable position. Busy solver → 429.
        """
        return _ok(api.hint(req))

    @app.post(
        "/api/solve",
        summary="Solve from the current position",
        tags=["solver"],
        responses={200: {"model": SolveAnswer}, **_ERRORS},
    )
    def solve_route(req: GameRequest) -> JSONResponse:
        """The solver's JSON result from the position after ``moves`` (verdict, moves…)."""
        return _ok(api.solve(req))

    @app.get(
        "/api/daily",
        summary="The deal of the day",
        tags=["game"],
        responses={200: {"model": DailyAnswer}, **_ERRORS},
    )
    def daily_route(date: str | None = None, rules: str = "standard") -> JSONResponse:
        """The deal of ``date`` (YYYY-MM-DD, the player's calendar date; default: today in
        UTC) under the preset ``rules``: one winnable deal per date, the same for everyone.

        Answer: what ``/api/new`` answers (``winnable`` is true), plus ``date`` and
        ``solver_moves`` (the length of the solver's winning line, in single-card moves).
        """
        return _ok(api.daily(date, rules))

    @app.post(
        "/api/winnability",
        summary="How often a variant can be won",
        tags=["rules"],
        responses={200: {"model": WinnabilityAnswer}, **_ERRORS},
    )
    def winnability_route(req: WinnabilityRequest) -> JSONResponse:
        """The share of won deals in the survey of ``rules`` the package ships (what the
        New game form says: "about 1 in 9 deals of this variant can be won")."""
        return _ok(_winnability(_rules_of(req.rules)))

    @app.get("/api/rules", summary="Presets and rule options", tags=["rules"])
    def rules_route() -> JSONResponse:
        """Every preset (its options and a one-line description), every option's values, and
        the rule table (``table``: per option its name, CLI flag, help, default and values,
        each with its words and game-code letter) to build a New game form from, and the
        difficulty levels a new winnable deal may be asked for (``difficulties``)."""
        return _ok(_RULES_INFO)

    for route_path, (filename, entry) in _PAGES.items():  # with ETags and module preloads
        endpoint = page(STATIC / filename, entry)
        app.add_api_route(route_path, endpoint, methods=["GET", "HEAD"], include_in_schema=False)

    @app.get("/rules", include_in_schema=False, response_class=FileResponse)
    def rules_page(request: Request, lang: str | None = None) -> FileResponse:
        """The rules page in ``lang`` (en, fr), else in the browser's language."""
        chosen = lang if lang in LANGUAGES else language(request.headers.get("accept-language"))
        return FileResponse(
            STATIC / _RULES_PAGES[chosen],
            media_type=_HTML,
            headers={"Content-Language": chosen, "Vary": "Accept-Language"},
        )

    app.mount("/static", Static(directory=STATIC), name="static")  # validators: 304s
    app.add_middleware(Gzip)  # the page, the JSON, scripts and styles

    return app


_T = TypeVar("_T")


def _closing(api: _Api) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # What start-up built (modules, the app, the pool) lives as long as the server:
        # kept out of the garbage collector's full passes, which would otherwise walk it
        # all (tens of milliseconds) in the middle of some request, e.g. a long replay.
        gc.collect()
        gc.freeze()
        yield
        api.processes.close()  # the solver and replay processes end with the server
        api.replays.close()

    return lifespan


def app_from_env() -> FastAPI:
    """:func:`create_app` configured from the environment (for ``uvicorn --factory``):
    ``EIGHTOFF_POOL``, ``EIGHTOFF_ALLOWED_HOSTS`` (names separated by commas; default
    localhost, 127.0.0.1 and [::1]) and ``EIGHTOFF_BODY_TIMEOUT`` (seconds)."""
    from eightoff.web.serve import LOCAL_HOSTS

    hosts = os.environ.get("EIGHTOFF_ALLOWED_HOSTS")
    timeout = os.environ.get("EIGHTOFF_BODY_TIMEOUT")
    limits = Limits() if not timeout else Limits(body_seconds=float(timeout))
    return create_app(
        os.environ.get("EIGHTOFF_POOL") or None,
        limits=limits,
        allowed_hosts=LOCAL_HOSTS if not hosts else hosts.split(","),
    )


def _version() -> str:
    from eightoff import __version__

    return __version__


def language(accept: str | None) -> str:
    """The page language an ``Accept-Language`` header prefers (English when none fits)."""
    best, best_q = LANGUAGES[0], 0.0
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        q -= i * 1e-6  # equal weights: the first listed wins
        if primary in LANGUAGES and q > best_q:
            best, best_q = primary, q
    return best


_API_DESCRIPTION: Final = """\
The server is stateless: send the game code and the moves played so far with each call.
Moves are answered in the engine's JSON form: `{"card": "7H", "from": ["column", 3], "to":
["cell", 2], "count": 1, "text": "3b"}` with 1-based places `column` 1-8, `cell` 1-8 and
`foundation` (a foundation source names its suit: `["foundation", "H"]`). Send back each
move's `text` (the compact notation: a 10,000-move game fits a request and replays
fastest) or the object itself.

Errors are JSON `{"error": "<message>"}` with a 4xx status: 400 bad value (unknown code,
rules or preset), 413 body too large, 422 unreadable request or illegal move (with
`index` and `reason`), 429 solver or long replays busy (retry after `Retry-After` seconds).
"""

_RULES_INFO: Final[dict[str, Any]] = {
    "presets": {
        name: {"rules": rules.to_json(), "description": rules.describe()}
        for name, rules in PRESETS.items()
    },
    "default": "standard",
    "options": {o.name: [o.to_json(v) for v in o.values] for o in OPTIONS},
    "table": [o.json() for o in OPTIONS],
    "difficulties": list(DIFFICULTIES),
}


# -- the work behind the routes -------------------------------------------------------


class _Api:
    """Replays games and runs the solver within the limits."""

    def __init__(
        self, limits: Limits, pool_path: str | os.PathLike[str] | None, rng: random.Random
    ):
        self.limits = limits
        self.rng = rng
        self.rng_lock = threading.Lock()
        self.solvers = threading.BoundedSemaphore(limits.max_solvers)
        self.processes = SolverProcesses(limits.max_solvers)
        self.replays = SolverProcesses(limits.heavy_replays, niceness=REPLAY_NICENESS)
        self.pool = Pool(None if pool_path is None else Path(pool_path))  # None: shipped pool

    # Routes ------------------------------------------------------------------------

    def new(self, req: NewRequest) -> dict[str, Any]:
        winnable: bool | None = None
        if req.code is not None:
            code = _parse_code(req.code)
        else:
            rules = _rules_of(req.rules)
            if req.winnable:
                code, winnable = self._winnable_code(rules, req.difficulty)
            else:
                with self.rng_lock:
                    code = GameCode.random(rules, self.rng)
        return self._started(code, winnable)

    def daily(self, day_text: str | None, preset_name: str) -> dict[str, Any]:
        day = datetime.now(UTC).date() if day_text is None else parse_date(day_text)
        rules = preset(preset_name)
        with self._solver_slot():  # a few ms, then cached for the day
            found = Daily.of(day, rules)
        out = self._started(found.code, True)
        out.update(date=day.isoformat(), solver_moves=found.solver_moves)
        return out

    def state(self, req: StateRequest) -> dict[str, Any]:
        try:
            game = self._replay(req)
        except ApiError as exc:
            if not (req.refusal_ok and exc.status == 422 and "index" in exc.extra):
                raise
            return {"refused": {"error": exc.message, **exc.extra}}
        before = game.position
        autoplayed = game.settle() if req.autoplay else []  # one action, as the page records
        out = view_to_json(game.view())
        out["moves_applied"] = len(req.moves)
        out["autoplayed"] = moves_to_json(autoplayed, before, text=True)
        return out

    def _limit(self, seconds: float) -> Limit:
        # A solver call's budget: its seconds, and tables bounded for a shared server.
        return Limit(
            nodes=self.limits.solver_nodes, seconds=seconds, memory=self.limits.solver_memory
        )

    def hint(self, req: GameRequest) -> dict[str, Any]:
        game = self._replay(req)
        with self._solver_slot():
            found = self._run(
                hint_job, game.code, notation(game.moves), self._limit(self.limits.hint_seconds)
            )
        move = None
        if found.move is not None:
            at = game.position if found.undo_to is None else game.positions()[found.undo_to]
            move = move_to_json(found.move, at, text=True)
        return {
            "move": move,
            "winnable": found.winnable,
            "undo_to": found.undo_to,
            "detail": found.detail,
        }

    def solve(self, req: GameRequest) -> dict[str, Any]:
        game = self._replay(req)
        with self._solver_slot():
            out: dict[str, Any] = self._run(
                solve_job, game.code, notation(game.moves), self._limit(self.limits.solve_seconds)
            )
        return out

    # Helpers -----------------------------------------------------------------------

    def _replay(self, req: GameRequest) -> Game:
        """The game after ``req.moves``; unreadable or illegal move → 422 with its index.

        Fast path: read every move, replay them in one go, then check each ``card`` field
        against the position it was played in (the first problem in list order wins).
        """
        if len(req.moves) > self.limits.max_moves:
            raise ApiError(
                422,
                f"too many moves: {len(req.moves)}, at most {self.limits.max_moves} per request",
            )
        code, start = _dealt(req.code)
        game = Game(code, position=start)
        moves: list[Move] = []
        named: list[int] = []  # the moves given as objects naming their card
        unreadable: InvalidMoveError | None = None
        known = _READ.get
        for obj in req.moves:
            move = known(obj) if isinstance(obj, str) else None  # the page's usual move
            if move is None:
                try:
                    move = _read_move(obj)
                except InvalidMoveError as exc:
                    unreadable = exc
                    break
                if not isinstance(obj, str) and obj.get("card") is not None:
                    named.append(len(moves))
            moves.append(move)
        illegal: ReplayError | None = None
        played = len(moves)
        try:
            game.replay(moves)
        except ReplayError as exc:
            illegal, played = exc, exc.index
        # Each action is one move here: its card is the one move i carried.
        for i in named:
            if i >= played:
                break
            obj = req.moves[i]
            assert not isinstance(obj, str)
            card = obj["card"]
            if not _names(card, game.action(i).cards[0]):
                try:  # another card: the reader says what is wrong
                    move_from_json(obj, game.positions()[i])
                except InvalidMoveError as exc:
                    raise ApiError(
                        422, f"move {i} cannot be read: {exc}", index=i, reason=exc.reason
                    ) from None
        if illegal is not None:
            i = illegal.index
            raise ApiError(
                422,
                f"move {i} ({illegal.move}) is illegal: {illegal.reason}",
                index=i,
                reason=illegal.reason,
                reason_code=illegal.code.value,
            )
        if unreadable is not None:
            i = len(moves)
            raise ApiError(
                422, f"move {i} cannot be read: {unreadable}", index=i, reason=unreadable.reason
            )
        return game

    def _started(self, code: GameCode, winnable: bool | None) -> dict[str, Any]:
        """The answer for a game starting from the deal of ``code``."""
        out: dict[str, Any] = {"code": str(code), "winnable": winnable}
        out.update(view_to_json(Game(code).view()))
        out["rules"] = code.rules.to_json()
        out["rules_text"] = code.rules.describe()
        return out

    def _winnable_code(
        self, rules: Rules, difficulty: str | None = None
    ) -> tuple[GameCode, bool | None]:
        """A deal the solver has won: from the pool (of ``difficulty`` when it has one),
        else a won deal of the shipped survey where random deals are often lost, else
        random deals solved briefly."""
        with self.rng_lock:
            number = None if difficulty is None else self.pool.draw(rules, self.rng, difficulty)
            if number is None:
                number = self.pool.draw(rules, self.rng)
            if number is None:  # a variant whose deals are often lost: its surveyed won deals
                number = draw_won(rules, self.rng)
        if number is not None:
            return GameCode(rules, number), True
        with self.rng_lock:
            candidates = [GameCode.random(rules, self.rng) for _ in range(CANDIDATES)]
        with self._solver_slot():
            found: tuple[GameCode, bool | None] = self._run(
                winnable_job,
                candidates,
                self._limit(self.limits.deal_seconds),
                self.limits.new_seconds,
            )
        return found

    def _run(self, job: Callable[..., _T], *args: Any) -> _T:
        try:
            return self.processes.run(job, *args)
        except BrokenExecutor:  # a solver process died (e.g. killed): the next call restarts
            raise ApiError(
                503, "the solver stopped; try again in a moment", retry_after=1
            ) from None

    @contextmanager
    def _solver_slot(self) -> Iterator[None]:
        if not self.solvers.acquire(timeout=self.limits.busy_wait):
            raise ApiError(
                429,
                "the solver is busy with other requests; try again in a moment",
                retry_after=1,
            )
        try:
            yield
        finally:
            self.solvers.release()


_READ: Final[dict[str, Move]] = {}  # moves read before, by their exact JSON or text
_READ_CAP: Final = 20_000
_KEY_CAP: Final = 200  # longer texts are read afresh, not remembered


def _rules_of(value: str | dict[str, Any]) -> Rules:
    """The rule set a request names (a preset, or options on an optional preset)."""
    if isinstance(value, dict) and not isinstance(value.get("preset", ""), str):
        raise ApiError(400, 'rules.preset must be a preset name, like "standard"')
    return Rules.from_json(value)


def _winnability(rules: Rules) -> dict[str, Any]:
    """The answer of ``/api/winnability`` for ``rules``."""
    out: dict[str, Any] = {"rules": rules.to_json()}
    found = shipped().find(rules)
    if found is None:
        keys = ("surveyed", "won", "lost", "unknown", "kind", "percent", "one_in")
        return out | dict.fromkeys(keys) | {"text": UNSURVEYED_TEXT}
    odds = found.odds()
    return out | {
        "surveyed": [found.low, found.high],
        "won": found.won,
        "lost": found.lost,
        "unknown": odds.unknown,
        "kind": odds.kind,
        "percent": odds.percent,
        "one_in": odds.one_in,
        "text": odds.text(),
    }


def _read_move(obj: dict[str, Any] | str) -> Move:
    """A move from its JSON object or compact text (raises ``InvalidMoveError``).

    Games repeat a few hundred distinct moves, so each one read is remembered by its
    exact content: the text itself, or the object's ``repr`` (every key and value with
    its type: ``1``, ``1.0`` and ``true`` differ).
    """
    key = obj if isinstance(obj, str) else repr(obj)
    move = _READ.get(key)
    if move is None:
        move = Move.from_text(obj) if isinstance(obj, str) else move_from_json(obj)
        if len(key) <= _KEY_CAP and len(_READ) < _READ_CAP:
            _READ[key] = move
    return move


_CARD_TEXT: Final = tuple(str(card) for card in CARDS)  # "7H": as move_to_json writes it


def _names(text: str, card: Card) -> bool:
    # Whether text (already read once as a card) names card: "7H" as written, else read.
    if text == _CARD_TEXT[card]:
        return True
    try:
        return Card.from_text(text) == card
    except InvalidCardError:
        return False


@lru_cache(maxsize=1024)
def _dealt(text: str) -> tuple[GameCode, Position]:
    """The game code ``text`` names and its deal, remembered: a page sends its code with
    every move (a bad code raises ApiError, and is not remembered)."""
    code = _parse_code(text)
    return code, code.position()


def _parse_code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InvalidGameCodeError as exc:
        said = f"unknown game code: {exc}"  # and the fault, for a page to say in its words
        raise ApiError(400, said, reason_code=BAD_GAME_CODE, fault=exc.json()) from None


# -- errors and limits ----------------------------------------------------------------


_HEADERS: Final = (
    (b"content-security-policy", _CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def _ok(data: dict[str, Any]) -> JSONResponse:
    # Answer the plain-JSON dict as is: FastAPI's generic encoder would walk it again.
    return JSONResponse(data)


NOT_TEXT: Final = "not valid text: the request holds a lone surrogate (\\ud800-\\udfff)"


def _error(
    status: int, message: str, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    out = dict(headers or {})
    if "retry_after" in extra:
        out["Retry-After"] = str(extra["retry_after"])
    body = {"error": message, **extra}
    if not _is_text(repr(body)):  # a lone surrogate from the request, echoed back
        body = {"error": NOT_TEXT}
    return JSONResponse(body, status_code=status, headers=out or None)


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _add_error_handlers(app: FastAPI) -> None:
    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.message, **exc.extra)

    async def invalid_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            ctx = errors[0].get("ctx") or {}
            at = "".join(f" at position {p}" for p in errors[0].get("loc", ())[1:2])
            return _error(400, f"malformed JSON: {ctx.get('error', 'cannot parse the body')}{at}")
        messages = [_validation_message(e) for e in errors[:5]]
        return _error(422, "; ".join(messages), errors=messages)

    async def value_error(request: Request, exc: Exception) -> Response:
        # The engine reports bad input (codes, rules, cards, moves) as EightOffError subclasses.
        return _error(400, str(exc) or type(exc).__name__)

    async def not_text(request: Request, exc: Exception) -> Response:
        return _error(400, NOT_TEXT)  # e.g. a lone surrogate reaching an encoder

    async def http_error(request: Request, exc: Exception) -> Response:
        # Starlette's own (404, 405 with its Allow header): their headers are kept.
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400 and exc.detail == _UNPARSED:  # FastAPI's catch-all
            return _error(400, malformed_json(request.scope.get(BODY_KEY, b""), exc.__cause__))
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            # A person's mistyped address: a page, not raw JSON.
            return FileResponse(STATIC / "notfound.html", status_code=404, media_type=_HTML)
        return _error(exc.status_code, str(exc.detail), exc.headers)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(EightOffError, value_error)
    app.add_exception_handler(UnicodeError, not_text)
    app.add_exception_handler(StarletteHTTPException, http_error)


_UNPARSED: Final = "There was an error parsing the body"


def _validation_message(error: Any) -> str:
    loc = [str(p) for p in error.get("loc", ()) if p != "body"]
    where = ".".join(loc) or "body"
    return f"{where}: {error.get('msg', 'invalid')}"


class _Guard:
    """Refuse request bodies over ``max_body`` bytes with 413 (reading at most that much),
    and add the security headers to every response (a plain ASGI middleware: cheap)."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        body_seconds: float,
        hosts: frozenset[str] | None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(_HEADERS)
        if scope["path"].startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        headers = dict(scope["headers"])
        host = host_header(scope["headers"])
        if host is None or (self.hosts is not None and host not in self.hosts):
            why = (
                "a request needs one Host header of the form name[:port]"
                if host is None
                else f"this server does not answer for the host {host!r} "
                "(eightoff serve --allowed-host NAME adds a name)"
            )
            await _error(400, why)(scope, receive, send_with_headers)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        too_big = _error(413, f"request body too large: at most {self.max_body} bytes")
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await too_big(scope, receive, send_with_headers)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        deadline = asyncio.get_running_loop().time() + self.body_seconds
        while more:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:  # a stalled body: answer, and the connection closes
                late = _error(
                    408,
                    f"the request body did not arrive within {self.body_seconds:g} s",
                    {"Connection": "close"},
                )
                await late(scope, receive, send_with_headers)
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await too_big(scope, receive, send_with_headers)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        scope[BODY_KEY] = body  # for the message about a body that is not JSON
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


__all__ = ["LANGUAGES", "Limits", "app_from_env", "create_app", "language"]
