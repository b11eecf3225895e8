"""The terminal app, driven through Textual's pilot: keys, the cursor and clicks reach the
engine; dialogs, the solution, statistics and the saved game behave as a player expects."""

from __future__ import annotations

import asyncio
import json
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.color import Color, ColorSystem
from textual import events
from textual.pilot import Pilot
from textual.widgets import Footer, Markdown, Static

from eightoff.cards import Card
from eightoff.codes import GameCode
from eightoff.daily import Daily
from eightoff.game import Game, Status
from eightoff.moves import (
    FOUNDATION,
    Move,
    Place,
    PlaceKind,
    cell,
    column,
    foundation,
)
from eightoff.pool import Pool
from eightoff.position import Position
from eightoff.rules import OPTIONS, STANDARD, GroupMoves, Layout, preset
from eightoff.solver import Limit, hint, solve
from eightoff.tui import make_game
from eightoff.tui.app import SOLUTION_SECONDS, EightOffApp
from eightoff.tui.board import CardShape, Pile
from eightoff.tui.screens import ConfirmScreen, HelpScreen, NewGameScreen, WinScreen
from eightoff.tui.userdata import Settings, UserData
from support.tui import CODE, after, board_fits, drive, key_of, message, status_line


def keys(move: Move) -> tuple[str, str]:
    return key_of(move.source), key_of(move.target)


async def settle(app: EightOffApp, pilot: Pilot[None]) -> None:
    """Wait for the solver's thread, then for the app to show its answer."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_keys_play_the_same_moves_as_the_engine() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")  # A♥ home
        assert "Played A♥ from column 6 to the ♥ foundation" in message(app)
        await pilot.press("5", "e")
        await pilot.press("3", "circumflex_accent")  # ^ is the foundation too

    app, shown = drive(scenario)
    expected = after("6^", "5e")
    # "3" then "^": 8♣ cannot go home, so that last move was refused, in words.
    assert app.game.position == expected.position
    assert [a.move for a in app.game.actions] == [Move.from_text("6^"), Move.from_text("5e")]
    assert "8♣ cannot go to the foundation: needs A♣ first" in shown.message
    assert "moves 2" in shown.status


def test_autoplay_is_off_by_default_and_p_turns_it_on_as_a_kept_setting(tmp_path: Path) -> None:
    assert not make_game(GameCode.parse(CODE)).autoplay  # type: ignore[union-attr]
    data = UserData(tmp_path)
    start = GameCode.parse(CODE).position()

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        assert not app.game.autoplay
        assert app.game.position == start  # nothing moved by itself
        assert "moves 0 · score 0" in status_line(app)
        assert "autoplay off" in status_line(app)
        await pilot.press("p")
        assert app.game.autoplay
        assert "autoplay on" in status_line(app)

    drive(scenario, make_game(GameCode.parse(CODE), data=data), data=data)
    assert UserData(tmp_path).settings.autoplay
    assert make_game(GameCode.parse(CODE), data=UserData(tmp_path)).autoplay  # type: ignore[union-attr]


def test_illegal_picks_and_moves_leave_the_position_and_say_why_in_words() -> None:
    start = Game.from_text(CODE).position
    reason = start.why_illegal(Move.from_text("12"))
    assert reason is not None and reason.startswith("K♠ cannot go on J♦")

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("e")
        assert app.control.selected is None
        assert "Cell e is empty" in message(app)
        await pilot.press("5")
        assert app.control.selected is not None
        assert app.query_one("#column-5", Pile).has_class("-selected")
        assert "Picked 3♦ from column 5" in message(app)
        # The legal targets of 3♦ light up: the empty cells e-h, as legal_moves says.
        legal = {m.target for m in app.game.legal_moves() if m.source == app.control.selected}
        lit = {pile.place for pile in app.query(Pile) if pile.has_class("-target")}
        assert lit == legal
        assert {p.text() for p in lit} == {"e", "f", "g", "h"}
        await pilot.press("escape")
        assert app.control.selected is None
        assert not app.query_one("#column-5", Pile).has_class("-selected")
        await pilot.press("1", "2")  # K♠ onto J♦

    app, shown = drive(scenario)
    assert app.game.position == start
    assert not app.game.actions
    assert shown.message.startswith("K♠ cannot go on J♦")
    assert "Illegal" not in shown.message and "12" not in shown.message
    assert app.control.selected is None


def test_undo_and_redo_say_what_moved() -> None:
    start = Game.from_text(CODE).position
    one = after("6^").position

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")
        assert app.game.position == one
        assert "score 10" in status_line(app)
        await pilot.press("u")
        assert app.game.position == start
        assert "score 0" in status_line(app)
        assert "Undid: A♥ back to column 6" in message(app)
        await pilot.press("r")
        assert app.game.position == one
        assert "Redid A♥ from column 6 to the ♥ foundation" in message(app)
        await pilot.press("ctrl+z")
        assert app.game.position == start
        await pilot.press("ctrl+y")
        assert app.game.position == one
        await pilot.press("r")
        assert "Nothing to redo" in message(app)

    drive(scenario)


def test_the_same_key_twice_or_enter_is_the_engine_smart_move() -> None:
    expected = Game.from_text(CODE)
    assert expected.smart_move(column(4)) is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        for second in ("5", "enter"):  # a key moves the cursor too: Enter drops there
            await pilot.press("5", second)
            assert app.game.position == expected.position
            assert app.game.actions == expected.actions
            await pilot.press("u")

    drive(scenario)


def test_autoplay_on_sends_a_new_deals_safe_cards_home_as_the_game_does() -> None:
    # With autoplay on, the deal's safe cards go home at the start, as in the web game:
    # A♥, then the 2♥ and A♣ (cell a), as one action that undo takes back.
    expected = Game.from_text(CODE, autoplay=True)
    expected.play(expected.autoplay_moves()[0])
    assert [m.text() for m in expected.actions[0].moves] == ["6^", "6^", "a^"]

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        assert app.game.position == expected.position
        assert len(app.game.actions) == 1
        assert "Autoplay sent 3 cards home" in message(app)
        assert "moves 0" in status_line(app)  # the deal's own autoplay is not a move
        await pilot.press("u")

    app, _ = drive(scenario, Game.from_text(CODE, autoplay=True))
    assert app.game.position == Game.from_text(CODE).position


def test_the_hint_key_shows_the_solver_move_in_words() -> None:
    game = Game.from_text(CODE)
    expected = hint(game)
    assert expected.move is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert expected.move is not None
        source = app.query_one(f"#column-{(expected.move.source.index) + 1}", Pile)
        assert source.has_class("-hint-source")

    app, shown = drive(scenario)
    assert app.control.hinted == expected.move
    cards = game.position.moving_cards(expected.move)
    assert shown.message.startswith(f"Hint: {cards[0].symbol()} from column")
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
        await settle(app, pilot)

    _app, shown = drive(scenario, game)
    assert f"Lost: undo {undos} action" in shown.message


def _cursor_keys(here: Place, target: Place, cells: int) -> tuple[list[str], Place]:
    """The arrow keys that take the cursor from ``here`` to ``target``, and where it ends
    (a card goes home from any foundation pile: the ♠ one is used)."""
    top = [cell(k) for k in range(cells)] + [foundation(s) for s in range(4)]
    out: list[str] = []
    if here.kind is PlaceKind.COLUMN and target.kind is not PlaceKind.COLUMN:
        out.append("up")
        here = top[min(here.index, len(top) - 1)]
    elif here.kind is not PlaceKind.COLUMN and target.kind is PlaceKind.COLUMN:
        out.append("down")
        here = column(min(top.index(here), 7))
    row = [column(j) for j in range(8)] if target.kind is PlaceKind.COLUMN else top
    if target == FOUNDATION:
        target = foundation(0)
    steps = row.index(target) - row.index(here)
    out += ["right"] * steps if steps > 0 else ["left"] * -steps
    return out, target


def test_a_whole_deal_won_by_arrow_keys_and_enter_only_then_the_win_screen(
    tmp_path: Path,
) -> None:
    data = UserData(tmp_path)
    start = GameCode.parse(CODE).position()
    line = solve(start).moves
    assert line
    head, tail = line[:3], line[3:]

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        # The first moves through the pilot, checked one by one against the engine...
        expected = start
        for move in head:
            for place in (move.source, move.target):
                arrows, _ = _cursor_keys(app.cursor, place, 8)
                await pilot.press(*arrows, "enter")
            expected = expected.apply(move)
            assert app.game.position == expected, f"after {move}: {message(app)}"
        # ...the rest typed ahead in one go (the pilot waits ~50 ms after each key).
        here, typed = app.cursor, []
        for move in tail:
            for place in (move.source, move.target):
                arrows, here = _cursor_keys(here, place, 8)
                typed += [*arrows, "enter"]
        for key in typed:
            app.post_message(events.Key(key, "\r" if key == "enter" else None))
        for _ in range(400):
            await pilot.pause()
            if len(app.game.actions) == len(line):
                break
        assert app.game.moves == list(line)
        assert app.game.status is Status.WON
        await pilot.pause()
        assert isinstance(app.screen, WinScreen)
        win = str(app.screen.query_one("#win-line", Static).render())
        assert f"{len(line)} moves · score 520 · time " in win  # timed in test_tui_session
        stats = str(app.screen.query_one("#win-stats", Static).render())
        assert "Won 1 of 1 · streak 1 (best 1)" in stats
        await pilot.press("escape")
        assert not isinstance(app.screen, WinScreen)
        assert f"You won in {len(line)} moves" in message(app)
        assert "won" in status_line(app)

    app, _ = drive(scenario, Game.from_text(CODE), data=data)
    assert app.game.moves == list(line)
    kept = UserData(tmp_path)
    assert kept.saved_game() is None  # a won game is not resumed
    record = kept.stats(STANDARD)
    assert (record.played, record.won, record.fewest_moves) == (1, 1, len(line))


def test_mouse_click_source_then_target_and_double_click_smart_move() -> None:
    expected = after("6^")
    smart = after("6^")
    assert smart.smart_move(column(4)) is not None

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.click("#column-6")
        assert app.cursor == column(5)
        await pilot.click("#foundation-H")
        assert app.game.position == expected.position
        await pilot.double_click("#column-5")
        assert app.game.position == smart.position

    drive(scenario)


def test_letters_are_only_cells_under_every_rule_set() -> None:
    # Under 4 cells, f and h name no cell and do nothing else; 0 is the foundation and
    # ? the hint under every rule set.
    game = Game(GameCode.parse("EO1-C4-AAAAAFA"))
    home = next(m for m in game.legal_moves() if m.target.kind is PlaceKind.FOUNDATION)

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        assert not app.query_one("#cell-5", Pile).display
        for letter in ("f", "h"):
            await pilot.press(letter)
            assert f"There is no cell {letter}: these rules have 4 cells" in message(app)
            assert app.control.selected is None and app.control.hinted is None
        await pilot.press("H")  # no foundation pick by Shift+letter
        assert app.control.selected is None
        await pilot.press(key_of(home.source), "0")
        await pilot.press("question_mark")
        await settle(app, pilot)

    app, shown = drive(scenario, game)
    assert [a.move for a in app.game.actions] == [home]
    assert shown.message.startswith(("Hint:", "Lost", "No hint"))


def test_take_back_picks_a_foundation_pile_with_0_and_0_again_the_next() -> None:
    game = Game.from_text(CODE + "-FT")  # the app rules: take-back allowed
    assert game.rules.take_back
    expected = Game.from_text(CODE + "-FT")
    for text in ("6^", "a^", "^Ce"):
        expected.play(Move.from_text(text))

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0", "a", "0")  # A♥ and A♣ home
        await pilot.press("0")
        assert app.control.selected == foundation(1)  # the first pile holding a card: ♥
        await pilot.press("0")
        assert app.control.selected == foundation(3)  # then ♣
        await pilot.press("e")

    app, _ = drive(scenario, game)
    assert app.game.position == expected.position


def test_without_take_back_a_foundation_is_never_a_source() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0", "0")
        assert app.control.selected is None
        assert "Pick a card to move first" in message(app)
        await pilot.click("#foundation-H")
        assert app.control.selected is None
        assert "Cards stay on the foundations" in message(app)

    app, _ = drive(scenario)
    assert len(app.game.actions) == 1


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
    assert "K♠ cannot go on K♥" in shown.message


def test_n_asks_for_difficulty_and_rules_and_escape_keeps_the_game() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#warning")  # the game in progress would be given up
        await pilot.press("escape")
        assert not isinstance(app.screen, NewGameScreen)
        assert len(app.game.actions) == 1  # still the same game
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        from textual.widgets import Select, Switch

        screen.query_one("#difficulty", Select).value = "easy"
        screen.query_one("#preset", Select).value = "easy"
        await pilot.pause()
        assert screen.query_one("#empty_column", Select).value == "any"
        screen.query_one("#cells", Select).value = 4  # any option: now custom rules
        await pilot.pause()
        assert screen.query_one("#preset", Select).is_blank()
        assert screen.query_one("#winnable", Switch).value
        screen.query_one("#difficulty", Select).value = "easy"
        await pilot.click("#deal")
        await pilot.pause()

    app, shown = drive(scenario)
    assert app.data.stats(STANDARD).played == 1  # the game given up counts as played
    rules = preset("easy").with_options(cells=4)
    assert app.game.rules == rules
    assert not app.game.actions
    assert app.settings.rules == rules and app.settings.difficulty == "easy"
    code = app.game.code
    assert code is not None
    assert f"New game: {code}" in shown.message


def test_the_new_game_form_has_one_field_per_rule_option_and_deals_by_them() -> None:
    from textual.widgets import OptionList, Select, Switch

    fields: dict[str, list[str]] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        form = screen.query_one("#new-form")
        for widget in form.query("Select, Switch"):
            if widget.id in ("difficulty", "winnable", "preset"):
                continue
            if isinstance(widget, Switch):
                fields[str(widget.id)] = ["switch"]
            else:  # the words the player picks from
                choices = widget.query_one(OptionList).options
                fields[str(widget.id)] = [str(choice.prompt) for choice in choices]
        screen.query_one("#layout", Select).value = Layout.BAKERS
        screen.query_one("#group_moves", Select).value = GroupMoves.SINGLE
        screen.query_one("#take_back", Switch).value = True
        await pilot.pause()
        assert screen.query_one("#preset", Select).is_blank()  # custom rules now
        await pilot.click("#deal")
        await pilot.pause()

    app, _ = drive(scenario)
    assert fields == {
        option.name: ["switch"] if isinstance(option.default, bool) else list(option.words)
        for option in OPTIONS
    }
    assert list(fields) == [option.name for option in OPTIONS]  # in the declared order
    rules = STANDARD.with_options(
        layout=Layout.BAKERS, group_moves=GroupMoves.SINGLE, take_back=True
    )
    assert app.game.rules == rules
    assert app.settings.rules == rules


def test_a_new_game_by_difficulty_comes_from_the_winnable_pool(tmp_path: Path) -> None:
    from eightoff.tui.deals import pick_deal
    from eightoff.tui.userdata import NewGameChoice

    deals = {"easy": [3, 11], "medium": [5, 17], "hard": [8, 23]}
    path = tmp_path / "pool.json"
    path.write_text(
        json.dumps(
            {
                "format": "eightoff-pool",
                "version": 1,
                "pools": [{"rules": STANDARD.to_json(), "deals": deals}],
            }
        )
    )
    pool = Pool(path)
    rng = random.Random(3)
    for difficulty, numbers in deals.items():
        for _ in range(5):
            code = pick_deal(NewGameChoice(STANDARD, True, difficulty), rng, pool)
            assert code.deal in numbers and code.rules == STANDARD
    anyone = {pick_deal(NewGameChoice(STANDARD, True, "any"), rng, pool).deal for _ in range(40)}
    assert anyone <= {n for ns in deals.values() for n in ns} and len(anyone) > 2
    # Rules the pool lacks: a deal the solver won within the budget.
    code = pick_deal(NewGameChoice(preset("alternate"), True, "easy"), rng, pool)
    assert code.rules == preset("alternate")
    assert solve(code.position()).verdict.value == "solved"


def test_a_winnable_deal_of_a_rarely_won_variant_is_one_the_shipped_survey_won() -> None:
    from eightoff.tui.deals import pick_deal
    from eightoff.tui.userdata import NewGameChoice
    from eightoff.verdicts import shipped

    two_cells = STANDARD.with_options(cells=2)  # about 1 deal in 600 can be won
    found = shipped().find(two_cells)
    assert found is not None and found.odds().kind == "one_in"
    empty = Pool(None)
    assert empty.draw(two_cells, random.Random(0)) is None  # the shipped pool has none
    rng = random.Random(5)
    codes = [pick_deal(NewGameChoice(two_cells, True, "any"), rng, empty) for _ in range(4)]
    assert all(code.rules == two_cells and found.verdict(code.deal) == "won" for code in codes)
    assert len({code.deal for code in codes}) > 1  # drawn, not always the same deal
    result = solve(codes[0].position(), limit=Limit(nodes=None, seconds=30))
    assert result.verdict.value == "solved"


def test_q_asks_only_when_a_game_is_in_progress() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmScreen)
        assert app.is_running
        await pilot.press("q", "y")

    app, _ = drive(scenario)
    assert not app.is_running

    async def fresh(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("q")  # nothing played yet: quits at once

    app, _ = drive(fresh)
    assert not app.is_running


def test_the_game_in_progress_resumes_next_time(tmp_path: Path) -> None:
    expected = after("6^", "5e")

    async def play(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0", "5", "e")

    now = [0.0]
    app = EightOffApp(Game.from_text(CODE), data=UserData(tmp_path), clock=lambda: now[0])

    async def main() -> None:
        async with app.run_test(size=(90, 30)) as pilot:
            await play(app, pilot)
            now[0] = 250.0
            app.exit()

    asyncio.run(main())
    saved = UserData(tmp_path).saved_game()
    assert saved is not None
    assert saved.seconds == 250.0  # the time played up to the quit is kept

    async def look(app: EightOffApp, pilot: Pilot[None]) -> None:
        assert app.game.position == expected.position
        assert "Welcome back" in message(app)
        await pilot.press("u")  # the undo history came back too
        assert app.game.position == after("6^").position

    app, shown = drive(look, None, data=UserData(tmp_path))
    assert str(app.game.code) == CODE
    assert "moves 1" in shown.status
    minutes, seconds = re.search(r"· (\d+):(\d\d) ·", shown.status).groups()  # type: ignore[union-attr]
    assert 250 <= int(minutes) * 60 + int(seconds) < 400  # the clock goes on from the time kept
    assert UserData(tmp_path).stats(STANDARD).played == 1  # counted once, not again


def test_a_new_start_deals_a_winnable_deal_as_the_settings_say(tmp_path: Path) -> None:
    data = UserData(tmp_path)
    data.settings = Settings(difficulty="hard", rules=preset("bakers"))

    async def look(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.pause()

    app, _ = drive(look, None, data=data)
    assert app.game.rules == preset("bakers")
    assert not app.game.autoplay
    assert app.game.code is not None


def test_help_screen_lists_the_rules_and_every_key() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        for needle in ("foundations", "`a`-`h`", "`0` or `^`", "Enter", "F1", "Ctrl+P"):
            assert needle in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)

    drive(scenario)


def test_the_command_palette_restarts_the_deal_and_deals_the_deal_of_the_day() -> None:
    today = Daily.of(datetime.now(UTC).date(), STANDARD).code

    async def palette(pilot: Pilot[None], command: str) -> None:
        await pilot.press("ctrl+p", *command)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("6", "0", "5", "e")
        await palette(pilot, "new game: easy")
        assert isinstance(app.screen, ConfirmScreen)  # a game in progress: asked first
        await pilot.press("n")
        assert len(app.game.actions) == 2
        await palette(pilot, "restart")
        assert app.game.position == Game.from_text(CODE).position
        assert app.game.can_redo
        assert "Restarted" in message(app)
        await palette(pilot, "deal of the day")
        # Undone to its deal, the game still counts as given up if left: asked first.
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")

    app, shown = drive(scenario)
    assert app.game.code == today
    assert f"The deal of the day: {today}" in shown.message


def test_the_solution_steps_and_play_goes_on_from_the_step_shown() -> None:
    start = GameCode.parse(CODE).position()
    line = solve(start, limit=Limit(nodes=None, seconds=SOLUTION_SECONDS)).moves

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await settle(app, pilot)
        assert app.control.solution is not None
        assert f"step 0 of {len(app.control.solution.moves)}" in message(app)
        await pilot.press("right", "right", "right", "left")
        assert app.control.solution.step == 2
        pile = app.query_one(f"#{_pile_id(app.control.solution.moves[2].source)}", Pile)
        assert pile.has_class("-hint-source")
        await pilot.press("1")  # no play while the solution shows
        assert not app.game.actions
        await pilot.press("enter")
        assert app.control.solution is None

    app, _ = drive(scenario)
    assert app.game.moves == list(line[:2])


def _pile_id(place: Place) -> str:
    if place.kind is PlaceKind.COLUMN:
        return f"column-{place.index + 1}"
    if place.kind is PlaceKind.CELL:
        return f"cell-{place.index + 1}"
    return f"foundation-{'SHDC'[place.index]}"


@pytest.mark.parametrize("size", [(80, 24), (100, 40), (120, 40)])
def test_the_board_is_centred_and_every_footer_key_fits(size: tuple[int, int]) -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        board = app.query_one("#board").region
        width, height = size
        left, right = board.x, width - board.right
        assert abs(left - right) <= 1
        assert board.right <= width
        if height >= 40:
            assert board.y >= 5  # not hugging the top
        footer = app.query_one(Footer)
        for _ in range(100):  # the footer lays its keys out after the first refresh
            await pilot.pause(0.02)
            shown = [k for k in footer.query("FooterKey") if k.region.width]
            if len(shown) >= 7:
                break
        assert len(shown) >= 7  # help, hint, undo, redo, new, quit, palette
        assert all(k.region.right <= width for k in shown)
        piles = {pile.size.width for pile in app.query(Pile) if pile.display}
        assert piles == {5 if width < 96 else 7}

    drive(scenario, size=size)


def _card_rows(app: EightOffApp) -> int:
    # Rows the last card of column 1 takes on screen (below its covered cards).
    pile = app.query_one("#column-1", Pile)
    return pile.size.height - 1 - (len(pile.cards) - 1) * pile.shape.step


def test_the_board_resizes_live_cards_growing_with_the_terminal() -> None:
    seen: dict[tuple[int, int], tuple[int, int]] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        for size in ((80, 24), (120, 40), (160, 50), (100, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            board_fits(app)
            seen[size] = (app.query_one("#column-1", Pile).size.width, _card_rows(app))

    drive(scenario, size=(80, 24))
    assert seen[(80, 24)] == (5, 2)  # two rows a card: rank and suit at both corners
    assert seen[(120, 40)][0] == 7 and seen[(120, 40)][1] >= 4
    assert seen[(160, 50)][0] > 7 and seen[(160, 50)][1] > seen[(120, 40)][1]
    assert seen[(100, 40)] == seen[(120, 40)]


@pytest.mark.parametrize("size", [(80, 24), (100, 40), (120, 40), (160, 50), (200, 60)])
def test_card_shapes_fit_the_terminal_and_shrink_for_long_columns(size: tuple[int, int]) -> None:
    width, height = size
    rows = height - 4  # the status line, two message lines and the footer
    last: CardShape | None = None
    for longest in range(1, 20):
        shape = CardShape.fitting(width, rows, across=12, longest=longest)
        assert 12 * (shape.width + shape.gutter) + 2 * shape.gutter <= width
        cards = max(longest, 8)
        needed = 1 + shape.pile_height(1) + shape.pile_height(cards)
        assert needed <= rows or shape == CardShape(shape.width, shape.gutter)
        assert 1 <= shape.step <= min(2, shape.height)
        assert shape.height <= 2 or shape.step == 2
        if last is not None:  # longer columns never make cards bigger
            assert (shape.height, shape.step) <= (last.height, last.step)
        last = shape


def test_covered_cards_show_their_rank_and_edge_the_last_its_whole_face() -> None:
    shape = CardShape(width=7, gutter=1, height=4, step=2)
    queen = Card.from_text("QH")
    assert shape.card_lines(queen, covered=True) == ["Q♥   ", "▁▁▁▁▁"]
    assert shape.card_lines(queen, covered=False) == ["Q♥   ", "     ", "  ♥  ", "   Q♥"]
    assert CardShape().card_lines(Card.from_text("TS"), covered=False) == ["10♠"]


def test_module_entry_refuses_a_bad_code() -> None:
    from eightoff.tui.__main__ import main

    with pytest.raises(SystemExit) as exc:
        main(["EO9-C8-AAAAAFA"])
    assert exc.value.code == 2


def test_user_data_survives_bad_files(tmp_path: Path) -> None:
    for name in ("settings.json", "stats.json", "game.json"):
        (tmp_path / name).write_text("{not json", "utf-8")
    data = UserData(tmp_path)
    assert data.settings == Settings()
    assert data.stats(STANDARD).played == 0
    assert data.saved_game() is None
    (tmp_path / "game.json").write_text('{"code": "EO1-C8-AAAAAFA", "actions": [["12"]]}')
    assert UserData(tmp_path).saved_game() is None  # an illegal move: not resumed


def test_key_events_reach_the_app_typed_ahead() -> None:
    # Keys posted faster than the pilot presses them are all handled, in order.
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        for key in ("6", "0", "5", "e"):
            app.post_message(events.Key(key, key))
        for _ in range(50):
            await pilot.pause()
            if len(app.game.actions) == 2:
                break

    app, _ = drive(scenario)
    assert app.game.position == after("6^", "5e").position


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_cues_keep_their_hue_in_256_and_16_colours(theme: str) -> None:
    # A picked pile, its targets and a hint stay coloured (not grey) and tell apart when
    # the terminal has 256 or 16 colours; card faces stand out from the table.
    def hue(color: Color, system: ColorSystem) -> tuple[int, int, int]:
        r, g, b = color.downgrade(system).get_truecolor()
        return r, g, b

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        app.theme = theme
        await pilot.press("5")
        app.control.hinted = Move.from_text("12")
        app.refresh_board()
        await pilot.pause()
        cues = {
            name: app.query_one(selector, Pile).styles.background.rich_color
            for name, selector in (
                ("selected", "#column-5"),
                ("target", "#cell-5"),
                ("hint", "#column-1"),
            )
        }
        for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
            seen = {name: hue(color, system) for name, color in cues.items()}
            for name, (r, g, b) in seen.items():
                assert max(r, g, b) - min(r, g, b) >= 60, f"{name} is grey: {(r, g, b)}"
            assert len(set(seen.values())) == len(seen), seen

    drive(scenario)


def shown(color: Color | None, system: ColorSystem) -> object:
    """What a terminal of ``system`` shows for ``color``: its palette number in 16 and 256
    colours, its RGB in truecolor; ``"default"`` for the terminal's own colour."""
    if color is None or color.is_default:
        return "default"
    seen = color.downgrade(system)
    return seen.triplet if seen.triplet is not None else seen.number


def test_faces_ink_and_picked_cards_stand_out_in_every_theme_and_colour_depth() -> None:
    # Read from the rendered lines: column 1 ends 6♥ 3♠ … K♠, column 2 ends … J♦ (picked,
    # so drawn lit). At 80x24 a covered card is one row, the last card two.
    def colours(pile: Pile, row: int) -> tuple[Color | None, Color | None, Color | None]:
        # (the table beside the face, the face, the ink) on ``row`` of ``pile``
        # (reverse video swapped as the terminal swaps it).
        gutter, face = list(pile.render_line(row))[:2]
        assert gutter.style is not None and face.style is not None and face.text.strip()
        back, ink = face.style.bgcolor, face.style.color
        return gutter.style.bgcolor, *((ink, back) if face.style.reverse else (back, ink))

    checked: list[str] = []

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("2")
        one = app.query_one("#column-1", Pile)
        two = app.query_one("#column-2", Pile)
        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            table, face, red = colours(one, 1)  # 6♥
            _, black_face, black = colours(one, 2)  # 3♠
            _, lit, lit_ink = colours(two, len(two.cards))  # J♦, picked
            assert black_face == face
            for system in (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR):
                seen = {
                    name: shown(color, system)
                    for name, color in (
                        ("table", table),
                        ("face", face),
                        ("red", red),
                        ("black", black),
                        ("lit", lit),
                        ("lit ink", lit_ink),
                    )
                }
                where = f"{theme} in {system.name}: {seen}"
                assert seen["face"] != seen["table"], where
                assert len({seen["face"], seen["red"], seen["black"]}) == 3, where
                assert seen["lit"] != seen["face"] and seen["lit"] != seen["lit ink"], where
            checked.append(theme)

    drive(scenario, size=(80, 24))
    assert {"textual-dark", "textual-light", "ansi-dark", "ansi-light"} <= set(checked)


def test_the_new_game_form_says_how_often_the_rules_chosen_can_be_won() -> None:
    from textual.widgets import Label, Select, Switch

    from eightoff.verdicts import odds, shipped

    lines: list[str] = []

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        line = screen.query_one("#odds", Label)
        lines.append(str(line.render()))
        screen.query_one("#cells", Select).value = 4
        await pilot.pause()
        lines.append(str(line.render()))
        screen.query_one("#preset", Select).value = "bakers"
        await pilot.pause()
        lines.append(str(line.render()))
        screen.query_one("#take_back", Switch).value = True
        await pilot.pause()
        lines.append(str(line.render()))
        await pilot.press("escape")

    drive(scenario)
    said = [odds(rules) for rules in (STANDARD, STANDARD.with_options(cells=4), preset("bakers"))]
    assert lines[:3] == [o.text() for o in said if o is not None]
    c4 = shipped().find(STANDARD.with_options(cells=4))
    assert c4 is not None and lines[1].startswith(f"About 1 in {c4.odds().one_in} deals")
    assert lines[3] == "How often this variant can be won has not been surveyed."
