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

import gc
import os
import random
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import cache
from typing import Final

from fastapi import FastAPI

from eightoff.web.delivery import STATIC, Gzip, Static
from eightoff.web.errors import add_error_handlers
from eightoff.web.limits import Limits
from eightoff.web.middleware import Guard, HeadAsGet, HeavyReplays
from eightoff.web.models import (
    MOVES_SCHEMA_LIMIT,
    DailyAnswer,
    HintAnswer,
    NewAnswer,
    SolveAnswer,
    StateAnswer,
    WinnabilityAnswer,
)
from eightoff.web.routes import game, pages, rules, solver
from eightoff.web.routes.pages import LANGUAGES, language
from eightoff.web.service import GameService


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
    api = GameService(lim, pool_path, random.Random(seed))
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
            HeavyReplays,
            processes=api.replays,
            min_body=lim.heavy_body,
            most=lim.heavy_waiting,
            replay_app=_replay_app,
        )
    app.add_middleware(HeadAsGet)
    app.add_middleware(Guard, max_body=lim.max_body, body_seconds=lim.body_seconds, hosts=hosts)
    add_error_handlers(app)

    app.include_router(game.router(api))
    app.include_router(solver.router(api))
    app.include_router(rules.router(api))
    app.include_router(pages.router())
    app.mount("/static", Static(directory=STATIC), name="static")  # validators: 304s
    app.add_middleware(Gzip)  # the page, the JSON, scripts and styles

    return app


@cache
def _replay_app() -> FastAPI:
    """The app a replay process answers long ``/api/state`` requests with (it sends none on)."""
    return create_app(limits=Limits(heavy_body=0))


def _closing(api: GameService) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
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


__all__ = [
    "LANGUAGES",
    "MOVES_SCHEMA_LIMIT",
    "STATIC",
    "DailyAnswer",
    "HintAnswer",
    "Limits",
    "NewAnswer",
    "SolveAnswer",
    "StateAnswer",
    "WinnabilityAnswer",
    "app_from_env",
    "create_app",
    "language",
]
