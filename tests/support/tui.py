"""The terminal app under Textual's pilot: a known deal, a driver, what the app shows."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from textual.pilot import Pilot
from textual.widgets import Static

from eightoff.game import Game
from eightoff.moves import Move, Place, PlaceKind
from eightoff.tui.app import EightOffApp
from eightoff.tui.userdata import UserData

CODE = "EO1-C8-AAAAAFA"  # winnable; columns end K♠ J♦ 8♣ K♦ 3♦ 2♥ 7♦ Q♠, cells A♣ 9♥ 8♦ J♥

Scenario = Callable[[EightOffApp, Pilot[None]], Awaitable[None]]


class Shown:
    """The message and status lines as the app showed them when the scenario ended."""

    message = ""
    status = ""


def drive(
    scenario: Scenario,
    game: Game | None = None,
    *,
    data: UserData | None = None,
    size: tuple[int, int] = (90, 30),
) -> tuple[EightOffApp, Shown]:
    """Run ``scenario`` against an app on ``game`` (the known deal by default)."""
    if game is None and data is None:
        game = Game.from_text(CODE)
    app = EightOffApp(game, data=data, rng=random.Random(7))
    shown = Shown()

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(app, pilot)
            await pilot.pause()
            shown.message = message(app)
            shown.status = status_line(app)

    asyncio.run(main())
    return app, shown


def message(app: EightOffApp) -> str:
    """The message line's text."""
    return str(app.query_one("#message", Static).render())


def status_line(app: EightOffApp) -> str:
    """The status line's text."""
    return str(app.query_one("#status", Static).render())


def key_of(place: Place) -> str:
    """The key a player presses for ``place`` (as the help screen lists them, spelled out
    here rather than read from the app): a column's number, a cell's letter, 0 for home."""
    if place.kind is PlaceKind.FOUNDATION:
        return "0"
    return ("12345678" if place.kind is PlaceKind.COLUMN else "abcdefgh")[place.index]


def after(*moves: str) -> Game:
    """The engine's own game after playing ``moves`` (no autoplay)."""
    game = Game.from_text(CODE)
    for text in moves:
        game.play(Move.from_text(text))
    return game


def board_fits(app: EightOffApp) -> None:
    """The board lies inside the table, centred both ways (no scrolling needed)."""
    table = app.query_one("#table").region
    board = app.query_one("#board").region
    assert table.contains_region(board), (table, board)
    assert abs((board.x - table.x) - (table.right - board.right)) <= 1
    assert abs((board.y - table.y) - (table.bottom - board.bottom)) <= 1
