"""The terminal game's book-keeping, driven through the pilot on a fake clock: the time of
a win, the clock stopping, streaks and best times, and the game kept from last time."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from eightoff.codes import GameCode
from eightoff.game import Game, Status
from eightoff.moves import Move
from eightoff.rules import STANDARD
from eightoff.solver import solve
from eightoff.tui.app import EightOffApp
from eightoff.tui.screens import ConfirmScreen, NewGameScreen, WinScreen
from eightoff.tui.userdata import UserData
from support.tui import CODE, key_of, message, status_line

OTHER = "EO1-C8-AAAAAFB"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def two_to_win(code: str = CODE) -> tuple[Game, tuple[Move, Move]]:
    """``code``'s game two moves before the end of the solver's line, and those moves."""
    line = solve(GameCode.parse(code).position()).moves
    game = Game.from_text(code)
    game.replay(line[:-2])
    return game, (line[-2], line[-1])


async def press_move(pilot: Pilot[None], move: Move) -> None:
    await pilot.press(key_of(move.source), key_of(move.target))


def run_app(app: EightOffApp, scenario: object) -> None:
    async def main() -> None:
        async with app.run_test(size=(100, 34)) as pilot:
            await scenario(app, pilot)  # type: ignore[operator]
            await pilot.pause()

    asyncio.run(main())


def test_wins_are_timed_streaks_grow_a_give_up_ends_them_and_the_best_time_is_the_least(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    data = UserData(tmp_path)
    first, moves = two_to_win()
    app = EightOffApp(first, data=data, clock=clock, rng=random.Random(1))
    shown: list[str] = []
    records: list[tuple[int, int, int, int, float | None]] = []

    def record() -> None:
        s = data.stats(STANDARD)
        records.append((s.played, s.won, s.streak, s.best_streak, s.best_time))

    async def win(pilot: Pilot[None], moves: tuple[Move, Move], seconds: float) -> None:
        await press_move(pilot, moves[0])
        clock.now += seconds
        await press_move(pilot, moves[1])
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        shown.append(str(app.screen.query_one("#win-line", Static).render()))
        await pilot.press("escape")
        shown.append(status_line(app))
        record()

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await win(pilot, moves, 75)
        game, moves2 = two_to_win()
        app.control.start(game, "again")
        await win(pilot, moves2, 200)  # slower: the best time stays 1:15
        game, moves3 = two_to_win()
        app.control.start(game, "given up")
        await press_move(pilot, moves3[0])
        clock.now += 5
        game, moves4 = two_to_win()
        app.control.start(game, "after the give-up")  # the started game counts as lost
        record()
        await win(pilot, moves4, 42)

    run_app(app, scenario)
    assert "time 1:15" in shown[0] and "· 1:15 ·" in shown[1]  # kept after the win
    assert "time 3:20" in shown[2] and "· 3:20 ·" in shown[3]
    assert "time 0:42" in shown[4]
    assert records == [
        (1, 1, 1, 1, 75.0),
        (2, 2, 2, 2, 75.0),
        (3, 2, 0, 2, 75.0),
        (4, 3, 1, 2, 42.0),
    ]
    stored = UserData(tmp_path).stats(STANDARD)
    assert stored.best_time == 42.0 and stored.won == 3 and stored.fewest_moves is not None


def test_the_clock_stops_when_undone_back_to_the_deal_and_goes_on_with_redo() -> None:
    clock = FakeClock()
    app = EightOffApp(Game.from_text(CODE), clock=clock)
    seen: list[str] = []

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        clock.now += 30  # before the first move: not counted
        await pilot.press("6", "0")
        clock.now += 10
        await pilot.press("u")
        seen.append(status_line(app))
        clock.now += 500  # nothing on the board: the clock stands
        app._tick()
        seen.append(status_line(app))
        await pilot.press("r")
        clock.now += 5
        app._tick()
        seen.append(status_line(app))

    run_app(app, scenario)
    assert "· 0:10 ·" in seen[0]
    assert "· 0:10 ·" in seen[1]
    assert "· 0:15 ·" in seen[2]


def test_a_game_undone_to_its_deal_warns_it_counts_as_given_up() -> None:
    app = EightOffApp(Game.from_text(CODE))

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0", "u")
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        warning = str(app.screen.query_one("#warning", Static).render())
        assert "given up" in warning
        await pilot.press("escape")
        app.new_game_with()  # the palette's new deals ask first too
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")

    run_app(app, scenario)
    assert str(app.game.code) == CODE


def test_a_game_code_played_keeps_the_saved_game_until_a_move_is_made(tmp_path: Path) -> None:
    async def one_move(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")

    run_app(EightOffApp(Game.from_text(CODE), data=UserData(tmp_path)), one_move)
    saved = UserData(tmp_path).saved_game()
    assert saved is not None and str(saved.game.code) == CODE

    said: list[str] = []

    async def look(app: EightOffApp, pilot: Pilot[None]) -> None:
        said.append(message(app))

    # Another code, quit without a move: the first game is still there to resume.
    run_app(EightOffApp(Game.from_text(OTHER), data=UserData(tmp_path)), look)
    saved = UserData(tmp_path).saved_game()
    assert saved is not None and str(saved.game.code) == CODE
    assert len(saved.game.actions) == 1
    assert f"Your game {CODE} is kept until you move here" in said[0]

    # Its own code resumes it.
    resumed = EightOffApp(Game.from_text(CODE), data=UserData(tmp_path))
    run_app(resumed, look_resumed)
    assert len(resumed.game.actions) == 1

    # A move in another game replaces it; the first counts as given up.
    other = EightOffApp(Game.from_text(OTHER), data=UserData(tmp_path))

    async def move_there(app: EightOffApp, pilot: Pilot[None]) -> None:
        move = app.game.legal_moves()[0]
        await press_move(pilot, move)
        said.append(message(app))

    run_app(other, move_there)
    saved = UserData(tmp_path).saved_game()
    assert saved is not None and str(saved.game.code) == OTHER
    assert f"game {CODE} given up" in said[1]
    record = UserData(tmp_path).stats(STANDARD)
    assert (record.played, record.streak) == (2, 0)


async def look_resumed(app: EightOffApp, pilot: Pilot[None]) -> None:
    assert "Welcome back" in message(app)
    assert app.game.status is Status.PLAYING


def test_a_win_played_on_from_the_solution_counts_as_won_with_help(tmp_path: Path) -> None:
    clock = FakeClock()
    data = UserData(tmp_path)
    app = EightOffApp(Game.from_text(CODE), data=data, clock=clock)
    titles: list[str] = []

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")
        clock.now += 20
        await pilot.press("s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("end", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        titles.append(str(app.screen.query_one(".title", Static).render()))
        titles.append(str(app.screen.query_one("#win-line", Static).render()))

    run_app(app, scenario)
    assert titles[0] == "Solved with help"
    assert "time 0:20" in titles[1]
    record = UserData(tmp_path).stats(STANDARD)
    assert (record.played, record.won, record.helped, record.streak) == (1, 0, 1, 0)
    assert record.best_time is None  # a helped game sets no record
