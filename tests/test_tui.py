"""The terminal app, driven through Textual's pilot: keys and clicks reach the engine."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Static

from eightoff.cards import Card
from eightoff.codes import GameCode
from eightoff.game import Game, Status
from eightoff.moves import CELL_LETTERS, Move, Place, PlaceKind
from eightoff.position import Position
from eightoff.rules import STANDARD, preset
from eightoff.solver import hint, solve
from eightoff.tui import make_game
from eightoff.tui.app import EightOffApp, Pile

CODE = "EO1-C8-AAAAAFA"  # winnable; columns end K♠ J♦ 8♣ K♦ 3♦ 2♥ 7♦ Q♠, cells A♣ 9♥ 8♦ J♥

Scenario = Callable[[EightOffApp, Pilot[None]], Awaitable[None]]


class Shown:
    """The message and status lines as the app showed them when the scenario ended."""

    message = ""
    status = ""


def drive(scenario: Scenario, game: Game | None = None) -> tuple[EightOffApp, Shown]:
    """Run ``scenario`` against an app on ``game`` (the known deal by default)."""
    app = EightOffApp(game if game is not None else Game.from_text(CODE))
    shown = Shown()

    async def main() -> None:
        async with app.run_test(size=(90, 30)) as pilot:
            await scenario(app, pilot)
            await pilot.pause()
            shown.message = message(app)
            shown.status = status_line(app)

    asyncio.run(main())
    return app, shown


def message(app: EightOffApp) -> str:
    return str(app.query_one("#message", Static).render())


def status_line(app: EightOffApp) -> str:
    return str(app.query_one("#status", Static).render())


async def type_ahead(app: EightOffApp, pilot: Pilot[None], keys: list[str]) -> None:
    """Send ``keys`` as the pilot does, without its ~50 ms wait after each one, then wait
    until the app has handled them all (each pair of keys plays one action here)."""
    for key in keys:
        app.post_message(events.Key(key, "^" if key == "circumflex_accent" else key))
    want = len(app.game.actions) + len(keys) // 2
    for _ in range(100):
        await pilot.pause()
        if len(app.game.actions) >= want:
            return


def key_of(place: Place) -> str:
    if place.kind is PlaceKind.COLUMN:
        return str(place.index + 1)
    if place.kind is PlaceKind.CELL:
        return CELL_LETTERS[place.index]
    return "circumflex_accent"


def keys(move: Move) -> tuple[str, str]:
    return key_of(move.source), key_of(move.target)


def after(*moves: str) -> Game:
    """The engine's own game after playing ``moves`` (no autoplay)."""
    game = Game.from_text(CODE)
    for text in moves:
        game.play(Move.from_text(text))
    return game


def test_keys_play_the_same_moves_as_the_engine() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "circumflex_accent")  # A♥ home
        await pilot.press("5", "e")
        await pilot.press("3", "0")  # 0 is the foundation too

    app, shown = drive(scenario, Game.from_text(CODE))
    expected = Game.from_text(CODE)
    for text in ("6^", "5e"):
        expected.play(Move.from_text(text))
    # "3" then "0": 8♣ cannot go home, so that last move was refused.
    assert app.game.position == expected.position
    assert [a.move for a in app.game.actions] == [Move.from_text("6^"), Move.from_text("5e")]
    assert "Illegal" in shown.message
    assert "moves 2" in shown.status


def test_illegal_picks_and_moves_leave_the_position_and_say_why() -> None:
    start = Game.from_text(CODE).position
    reason = start.why_illegal(Move.from_text("12"))
    assert reason is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("e")
        assert app.selected is None
        assert "Cell e is empty" in message(app)
        await pilot.press("5")
        assert app.selected is not None
        assert app.query_one("#column-5", Pile).has_class("-selected")
        # The legal targets of 3♦ light up: the empty cells e-h, as legal_moves says.
        legal = {m.target for m in app.game.legal_moves() if m.source == app.selected}
        lit = {pile.place for pile in app.query(Pile) if pile.has_class("-target")}
        assert lit == legal
        assert {p.text() for p in lit} == {"e", "f", "g", "h"}
        await pilot.press("escape")
        assert app.selected is None
        assert not app.query_one("#column-5", Pile).has_class("-selected")
        await pilot.press("1", "2")  # K♠ onto J♦

    app, shown = drive(scenario)
    assert app.game.position == start
    assert not app.game.actions
    assert reason in shown.message
    assert app.selected is None


def test_undo_and_redo() -> None:
    start = Game.from_text(CODE).position
    one = after("6^").position

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "circumflex_accent")
        assert app.game.position == one
        assert "score 10" in status_line(app)
        await pilot.press("u")
        assert app.game.position == start
        assert "score 0" in status_line(app)
        await pilot.press("r")
        assert app.game.position == one
        await pilot.press("ctrl+z")
        assert app.game.position == start
        await pilot.press("ctrl+y")
        assert app.game.position == one
        await pilot.press("r")
        assert "Nothing to redo" in message(app)

    drive(scenario)


def test_enter_or_the_same_key_twice_is_the_engine_smart_move() -> None:
    expected = Game.from_text(CODE)
    assert expected.smart_move(Place(PlaceKind.COLUMN, 4)) is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        for second in ("enter", "5"):
            await pilot.press("5", second)
            assert app.game.position == expected.position
            assert app.game.actions == expected.actions
            await pilot.press("u")

    drive(scenario)


def test_autoplay_sends_safe_cards_home_as_the_game_does() -> None:
    # With autoplay on, the deal's safe cards go home at the start, as in the web game:
    # A♥, then the 2♥ and A♣ (cell a), as one action that undo takes back.
    expected = Game.from_text(CODE, autoplay=True)
    expected.play(expected.autoplay_moves()[0])
    assert [m.text() for m in expected.actions[0].moves] == ["6^", "6^", "a^"]

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.pause()

    app, shown = drive(scenario, Game.from_text(CODE, autoplay=True))
    assert app.game.position == expected.position
    assert len(app.game.actions) == 1
    assert "Autoplay sent 3 cards home" in shown.message
    assert "moves 0" in shown.status  # the deal's own autoplay is not a move of the player

    async def undo(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("u")

    app, _ = drive(undo, Game.from_text(CODE, autoplay=True))
    assert app.game.position == Game.from_text(CODE).position


def test_the_hint_key_shows_the_solver_move() -> None:
    expected = hint(Game.from_text(CODE))
    assert expected.move is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert expected.move is not None
        source = app.query_one(f"#column-{expected.move.source.index + 1}", Pile)
        assert source.has_class("-hint-source")

    app, shown = drive(scenario)
    assert app.hinted == expected.move
    assert f"Hint: {expected.move}" in shown.message
    assert not app.game.actions  # a hint plays nothing


def test_a_lost_position_says_how_many_undos_lead_back() -> None:
    # Filling the four empty cells this way loses the deal (the solver proves it).
    game = after("8e", "3h", "4g", "2f")
    found = hint(game)
    assert found.winnable is False
    assert found.undo_to == 3
    undos = len(game.positions()) - 1 - found.undo_to

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await app.workers.wait_for_complete()
        await pilot.pause()

    _app, shown = drive(scenario, game)
    assert f"Lost: undo {undos} action" in shown.message


def test_the_solver_line_played_by_keys_wins_then_n_deals_anew() -> None:
    start = GameCode.parse(CODE).position()
    line = solve(start).moves
    assert line
    head, tail = line[:4], line[4:]

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        # The first moves one by one through the pilot, checked against the engine...
        expected = start
        for move in head:
            await pilot.press(*keys(move))
            expected = expected.apply(move)
            assert app.game.position == expected, f"after {move}: {message(app)}"
        # ...the rest typed ahead in one go.
        await type_ahead(app, pilot, [key for move in tail for key in keys(move)])
        assert app.game.moves == list(line)
        assert app.game.status is Status.WON
        assert f"You won in {len(line)} moves" in message(app)
        assert "won" in status_line(app)
        await pilot.press("1")  # nothing left to pick: the won message stays
        assert f"You won in {len(line)} moves" in message(app)
        await pilot.press("n")

    app, shown = drive(scenario)
    assert not app.game.actions  # n dealt a new random game under the same rules
    assert app.game.status is Status.PLAYING
    assert app.game.code is not None
    assert app.game.rules == STANDARD
    assert f"New game {app.game.code}" in shown.message
    assert str(app.game.code) in shown.status


def test_mouse_click_source_then_target_and_double_click_smart_move() -> None:
    expected = after("6^")
    smart = Game.from_text(CODE)
    smart.play(Move.from_text("6^"))
    assert smart.smart_move(Place(PlaceKind.COLUMN, 4)) is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.click("#column-6")
        await pilot.click("#foundation-H")
        assert app.game.position == expected.position
        await pilot.double_click("#column-5")
        assert app.game.position == smart.position

    drive(scenario)


def test_with_fewer_cells_f_is_the_foundation_and_h_the_hint() -> None:
    code = GameCode.parse("EO1-C4-AAAAAFA")
    game = Game(code)
    home = next(m for m in game.legal_moves() if m.target.kind is PlaceKind.FOUNDATION)

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        assert not app.query_one("#cell-5", Pile).display
        await pilot.press("g")
        assert "no cell g" in message(app)
        await pilot.press(key_of(home.source), "f")
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()

    app, shown = drive(scenario, game)
    assert app.game.actions[0].move == home
    assert app.hinted is not None or "Lost" in shown.message or "No hint" in shown.message


def test_take_back_from_a_foundation_by_its_suit_letter() -> None:
    game = Game.from_text(CODE + "-FT")  # the app preset: take-back allowed
    assert game.rules.take_back
    expected = Game.from_text(CODE + "-FT")
    for text in ("6^", "^He"):
        expected.play(Move.from_text(text))

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "circumflex_accent", "H", "e")

    app, _ = drive(scenario, game)
    assert app.game.position == expected.position


def test_a_position_without_moves_says_so() -> None:
    columns = [
        "AS 2S 2H 2D 2C KS",
        "AH 3S 3H 3D 3C KH",
        "AD 4S 4H 4D 4C KD",
        "AC 6S 6H 6D 6C KC",
        "7S 7H 7D 7C 5S",
        "TS TH TD TC 5H",
        "JS JH JD JC 5D",
        "QS QH QD QC 5C",
    ]
    cells = "9S 9H 9D 9C 8S 8H 8D 8C"
    position = Position(
        [[Card.from_text(c) for c in col.split()] for col in columns],
        [Card.from_text(c) for c in cells.split()],
    )
    assert not position.legal_moves()

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "2")

    app, shown = drive(scenario, Game(position=position))
    assert app.game.status is Status.STUCK
    assert "no moves" in shown.status
    assert "custom position" in shown.status
    assert "Illegal" in shown.message


def test_make_game() -> None:
    code = GameCode.parse(CODE)
    game = make_game(code)
    assert game.code == code
    assert game.autoplay
    assert make_game(rules=preset("bakers")).rules == preset("bakers")
    with pytest.raises(ValueError):
        make_game(code, preset("bakers"))


def test_module_entry_refuses_a_bad_code() -> None:
    from eightoff.tui.__main__ import main

    with pytest.raises(SystemExit) as exc:
        main(["EO9-C8-AAAAAFA"])
    assert exc.value.code == 2
