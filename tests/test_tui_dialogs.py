"""The terminal game's dialogs as a player meets them: New game (focus, Enter, switches in
words, the current game's rules, a game code), the code copied, the statistics screen and
the footer while a dialog is open."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Footer, Input, Label, Select, Switch

from eightoff.cli import main as cli_main
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.game import Game
from eightoff.rules import STANDARD, preset
from eightoff.tui.app import EightOffApp
from eightoff.tui.screens import NewGameScreen
from eightoff.tui.userdata import UserData
from support.tui import CODE, drive, message


def test_a_custom_rule_set_dealt_then_new_game_again_opens_the_dialog() -> None:
    # Easy, then 4 cells (the rules read "Custom"), Deal; then n again.
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#preset", Select).value = "easy"
        await pilot.pause()
        screen.query_one("#cells", Select).value = 4
        await pilot.pause()
        await pilot.click("#deal")
        await pilot.pause()
        assert app.game.rules == preset("easy").with_options(cells=4)
        await pilot.press("n")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, NewGameScreen)
        assert again.query_one("#preset", Select).is_blank()  # "Custom"
        assert again.query_one("#cells", Select).value == 4
        await pilot.press("escape")

    app, _ = drive(scenario)
    assert app.game.rules == preset("easy").with_options(cells=4)


def test_new_game_focuses_deal_so_enter_deals_from_the_current_game_rules() -> None:
    four_cells = "EO1-C4-AAAAAFA"  # the settings say 8 cells; the game has 4
    texts: dict[str, str] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert isinstance(screen.focused, Button) and screen.focused.id == "deal"
        assert screen.query_one("#cells", Select).value == 4
        for box in screen.query(".on-off"):
            switch = box.query_one(Switch)
            texts[str(switch.id)] = str(box.query_one(Label).render())
        screen.query_one("#take_back", Switch).value = True
        await pilot.pause()
        texts["take_back after"] = str(
            screen.query_one("#take_back", Switch).parent.query_one(Label).render()  # type: ignore[union-attr]
        )
        screen.query_one("#take_back", Switch).value = False
        await pilot.press("tab", "tab", "tab")  # Deal of the day, Cancel, then round
        assert isinstance(screen.focused, Input)  # to the game code
        await pilot.press("shift+tab", "shift+tab", "shift+tab")
        await pilot.press("enter")
        await pilot.pause()

    app, shown = drive(scenario, Game.from_text(four_cells))
    assert texts == {"winnable": "on", "take_back": "off", "take_back after": "on"}
    assert app.game.rules == STANDARD.with_options(cells=4)
    assert str(app.game.code) != four_cells
    assert "New game:" in shown.message


def test_a_game_code_typed_under_new_game_or_opened_from_the_palette_is_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # What `eightoff play --text` tells the player to do works in the terminal game.
    assert cli_main(["play", "--text", "EO1-C4-AAAAAFA-E"]) == 0
    assert "in either game you can also enter the code under New game" in " ".join(
        capsys.readouterr().out.split()
    )
    bad = "EO1-C8-AAAAAF"
    with pytest.raises(InvalidGameCodeError) as engine:
        GameCode.parse(bad)
    errors: list[str] = []

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await pilot.click("#code")
        await pilot.press(*bad, "enter")
        assert app.screen is screen  # still open, saying why
        errors.append(str(screen.query_one("#code-error", Label).render()))
        await pilot.press("escape")
        await pilot.press("ctrl+p", *"open a game code")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert isinstance(screen.focused, Input)  # typing goes to the code at once
        await pilot.press(*"EO1-C4-AAAAAFA-E", "enter")
        await pilot.pause()

    app, shown = drive(scenario)
    assert errors == [str(engine.value)[:1].upper() + str(engine.value)[1:]]
    assert str(app.game.code) == "EO1-C4-AAAAAFA-E"
    assert "Game: EO1-C4-AAAAAFA-E" in shown.message


def test_y_and_the_palette_copy_the_game_code() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("y")
        assert app.clipboard == CODE
        assert f"Copied the game code {CODE}" in message(app)
        app.copy_to_clipboard("")
        await pilot.press("ctrl+p", *"copy the game code")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.clipboard == CODE

    drive(scenario)


def test_the_footer_shows_the_dialog_keys_not_the_board_keys() -> None:
    seen: dict[str, set[str]] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        for key, name in (("n", "new game"), ("f1", "help")):
            await pilot.press(key)
            await pilot.pause(0.2)
            footers = [f for f in app.screen.query(Footer) if f.region.height]
            seen[name] = {
                str(k.description) for f in footers for k in f.query("FooterKey") if k.region.width
            }
            await pilot.press("escape")

    drive(scenario, size=(120, 40))
    for name, keys in seen.items():
        assert keys, f"no footer over the {name} dialog"
        assert not keys & {"undo", "redo", "hint", "new", "quit"}, (name, keys)
        assert "close" in keys or "cancel" in keys, (name, keys)


def test_the_statistics_screen_has_a_table_per_rule_set(tmp_path: Path) -> None:
    data = UserData(tmp_path)
    data.record_start(STANDARD)
    data.record_win(STANDARD, 90, 245.0)
    data.record_start(STANDARD)
    data.record_abandon(STANDARD)
    easy = preset("easy")
    data.record_start(easy)
    data.record_helped(easy)
    rows: dict[str, list[str]] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("ctrl+p", *"statistics")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        for table in app.screen.query(DataTable):
            assert table.region.height >= 2  # drawn: its header and its row
            title = str(app.screen.query_one(f"#{table.id}-title", Label).render())
            header = [str(c.label) for c in table.columns.values()]
            values = [str(v) for v in table.get_row_at(0)]
            rows[title] = [f"{h}={v}" for h, v in zip(header, values, strict=True)]
        await pilot.press("escape")

    drive(scenario, Game.from_text(CODE), data=data, size=(120, 40))
    assert rows, "no statistics screen"
    assert rows == {
        STANDARD.describe(): [
            "Played=2",
            "Won=1",
            "With help=0",
            "Streak=0",
            "Best streak=1",
            "Best time=4:05",
            "Fewest moves=90",
        ],
        easy.describe(): [
            "Played=1",
            "Won=0",
            "With help=1",
            "Streak=0",
            "Best streak=0",
            "Best time=—",
            "Fewest moves=—",
        ],
    }
