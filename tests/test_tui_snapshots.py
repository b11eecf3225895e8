"""SVG snapshots of the terminal game (pytest-textual-snapshot): the board at 80x24 and
120x40, a picked card with its legal targets, the help screen and the win screen.

The SVGs live in ``tests/__snapshots__/test_tui_snapshots/``; after a deliberate change
of the look, look at the new ones (``pytest --snapshot-update``, then open the SVGs in a
browser) before keeping them.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from eightoff.codes import GameCode
from eightoff.game import Game
from eightoff.solver import solve
from eightoff.tui.app import EightOffApp

CODE = "EO1-C8-AAAAAFA"


def app_on(game: Game | None = None) -> EightOffApp:
    """The app on the known deal, its clock stopped (the time shows 0:00)."""
    return EightOffApp(game if game is not None else Game.from_text(CODE), clock=lambda: 0.0)


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
