"""SVG snapshots of the terminal game (pytest-textual-snapshot): the board at 80x24 and
120x40, a picked card with its legal targets, the help screen, the win screen, the New
game dialog (a preset, and custom rules with a game started), the statistics screen and
the notice of a terminal too small for the board.

The SVGs live in ``tests/__snapshots__/test_tui_snapshots/``; after a deliberate change
of the look, look at the new ones (``pytest --snapshot-update``, then open the SVGs in a
browser) before keeping them.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from eightoff.codes import GameCode
from eightoff.game import Game
from eightoff.rules import STANDARD, preset
from eightoff.solver import solve
from eightoff.tui.app import EightOffApp
from eightoff.tui.userdata import UserData

CODE = "EO1-C8-AAAAAFA"


def app_on(game: Game | None = None, data: UserData | None = None) -> EightOffApp:
    """The app on the known deal, its clock stopped (the time shows 0:00)."""
    game = game if game is not None else Game.from_text(CODE)
    return EightOffApp(game, data=data, clock=lambda: 0.0)


def test_board_at_80x24(snap_compare: Any) -> None:
    assert snap_compare(app_on(), terminal_size=(80, 24))


def test_board_at_120x40(snap_compare: Any) -> None:
    assert snap_compare(app_on(), terminal_size=(120, 40))


def test_a_picked_card_lights_its_targets(snap_compare: Any) -> None:
    # 3♦ from column 5: the empty cells e-h light up as its targets.
    assert snap_compare(app_on(), press=["5"], terminal_size=(80, 24))


def test_help_screen(snap_compare: Any) -> None:
    assert snap_compare(app_on(), press=["f1"], terminal_size=(100, 40))


def test_win_screen(snap_compare: Any) -> None:
    code = GameCode.parse(CODE)
    line = solve(code.position()).moves
    game = Game(code)
    game.replay(line[:-1])
    last = line[-1]
    assert last.target.kind.value == "foundation"
    key = last.source.text()  # "3" or "a": the pile's key

    async def last_move(pilot: Pilot[None]) -> None:
        await pilot.press(key, "0")
        await pilot.pause()

    assert snap_compare(app_on(game), run_before=last_move, terminal_size=(80, 24))


def test_new_game_dialog_with_a_preset(snap_compare: Any) -> None:
    # Nothing played yet: no warning; the Standard preset, Deal focused.
    assert snap_compare(app_on(), press=["n"], terminal_size=(100, 40))


def test_new_game_dialog_with_custom_rules_and_a_game_started(snap_compare: Any) -> None:
    # A game of 4 cells (no preset: "Custom") with a move played: the warning shows.
    game = Game.from_text("EO1-C4-AAAAAFA")
    home = next(m for m in game.legal_moves() if m.target.kind.value == "foundation")
    press = [home.source.text(), "0", "n"]
    assert snap_compare(app_on(game), press=press, terminal_size=(100, 40))


def test_statistics_screen(snap_compare: Any) -> None:
    data = UserData(None)
    for _ in range(3):
        data.record_start(STANDARD)
    data.record_win(STANDARD, 88, 312.0)
    data.record_win(STANDARD, 95, 254.0)
    data.record_start(preset("easy"))
    data.record_helped(preset("easy"))
    app = app_on(data=data)

    async def stats(pilot: Pilot[None]) -> None:
        app.action_stats()
        await pilot.pause()

    assert snap_compare(app, run_before=stats, terminal_size=(100, 30))


def test_too_small_terminal_notice(snap_compare: Any) -> None:
    assert snap_compare(app_on(), terminal_size=(40, 15))
