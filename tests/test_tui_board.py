"""The terminal game's board as a player meets it: a terminal too small, the mouse
(drags, a card inside a run), moves in words, autoplay turned on, colours that read, and
the theme kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.color import Color
from textual.pilot import Pilot
from textual.widgets import Static

from eightoff.cards import Card
from eightoff.game import Game
from eightoff.moves import Move, column
from eightoff.position import Position
from eightoff.rules import preset
from eightoff.tui.app import EightOffApp
from eightoff.tui.board import Pile
from eightoff.tui.userdata import UserData
from support.tui import after, board_fits, drive, message


def contrast(one: Color, two: Color) -> float:
    """WCAG 2 contrast ratio of two truecolour colours."""

    def luminance(color: Color) -> float:
        def linear(c: int) -> float:
            v = c / 255
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b = color.get_truecolor()
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)

    dark, light = sorted((luminance(one), luminance(two)))
    return (light + 0.05) / (dark + 0.05)


def hearts_left() -> Game:
    """Easy rules (any card to an empty column): every card home but the hearts from 7;
    column 1 is K♥ under the run 9♥ 8♥ 7♥, columns 2, 6, 7 and 8 are empty."""
    cards = [[Card.from_text(t) for t in col.split()] for col in ("KH 9H 8H 7H", "", "TH", "JH")]
    cards += [[Card.from_text("QH")], [], [], []]
    columns = [cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6], cards[7]]
    position = Position(columns, foundations=(13, 6, 13, 13), rules=preset("easy"))
    return Game(position=position)


@pytest.mark.parametrize("size", [(40, 15), (73, 24), (80, 15)])
def test_a_terminal_too_small_for_the_board_says_how_big_it_must_be(
    size: tuple[int, int],
) -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        notice = app.query_one("#too-small", Static)
        assert notice.display and notice.region.height
        assert not app.query_one("#table").region.height  # no clipped board
        text = str(notice.render())
        assert "make the window at least 74×16" in text, text
        await pilot.resize_terminal(74, 16)  # just enough: the whole board, no notice
        await pilot.pause()
        assert not notice.region.height
        board_fits(app)
        right = app.query_one("#foundation-C", Pile).region
        assert right.right <= 74
        assert app.query_one("#column-8", Pile).region.right <= 74

    drive(scenario, size=size)


def test_a_drag_from_a_pile_to_a_pile_plays_the_move() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-6")
        await pilot.mouse_up("#foundation-H")
        await pilot.pause()
        assert app.game.position == after("6^").position
        await pilot.mouse_down("#column-5")
        await pilot.mouse_up("#cell-5")
        await pilot.pause()

    app, shown = drive(scenario)
    assert app.game.position == after("6^", "5e").position
    assert "Played 3♦ from column 5 to cell e" in shown.message


def test_a_click_inside_a_run_picks_the_run_from_that_card() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        pile = app.query_one("#column-1", Pile)
        await pilot.click("#column-1", offset=(2, 1 + 2 * pile.shape.step))  # on 8♥
        assert pile.lit == 2
        assert "Picked 8♥ 7♥ from column 1" in message(app)
        await pilot.click("#column-2")

    app, shown = drive(scenario, hearts_left(), size=(100, 34))
    assert [a.move for a in app.game.actions] == [Move(column(0), column(1), 2)]
    assert "Played 8♥ 7♥ from column 1 to column 2" in shown.message


def test_a_run_moved_by_keys_is_named_card_by_card() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "2")

    app, shown = drive(scenario, hearts_left())
    assert [a.move for a in app.game.actions] == [Move(column(0), column(1), 3)]
    assert "Played 9♥ 8♥ 7♥ from column 1 to column 2" in shown.message


def test_turning_autoplay_on_sends_the_cards_already_safe_home_at_once() -> None:
    expected = after("5e")
    expected.autoplay = True
    sent = expected.settle()
    assert len(sent) == 3  # A♥, 2♥ and A♣

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.press("5", "e", "p")

    app, shown = drive(scenario)
    assert app.game.position == expected.position
    assert "Autoplay on: sent 3 cards home" in shown.message
    assert "moves 2" in shown.status


def test_red_suits_and_empty_piles_reach_contrast_4_5_in_every_theme() -> None:
    # Column 1 ends 6♥ 3♠ … (6♥ on row 1 at 80x24); cell e is empty, its mark mid-card.
    seen: dict[str, tuple[float, float]] = {}

    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        red_pile = app.query_one("#column-1", Pile)
        empty = app.query_one("#cell-5", Pile)
        for theme in sorted(app.available_themes):
            app.theme = theme
            await pilot.pause()
            face = list(red_pile.render_line(1))[1]
            mark = next(
                seg
                for row in range(empty.size.height)
                for seg in empty.render_line(row)
                if "·" in seg.text
            )
            styles = (face.style, mark.style)
            if any(s is None or s.color is None or s.bgcolor is None for s in styles):
                continue
            colours: list[tuple[Color, Color]] = [(s.color, s.bgcolor) for s in styles]  # type: ignore[misc, union-attr]
            if any(c.triplet is None for pair in colours for c in pair):
                continue  # ANSI themes: the terminal's own palette
            seen[theme] = (contrast(*colours[0]), contrast(*colours[1]))

    drive(scenario, size=(80, 24))
    assert {"textual-dark", "textual-light", "nord", "gruvbox"} <= set(seen)
    low = {theme: ratios for theme, ratios in seen.items() if min(ratios) < 4.5}
    assert not low, low


def test_the_theme_chosen_is_kept_for_the_next_run(tmp_path: Path) -> None:
    async def choose(app: EightOffApp, pilot: Pilot[None]) -> None:
        app.theme = "nord"
        await pilot.pause()

    drive(choose, Game.from_text("EO1-C8-AAAAAFA"), data=UserData(tmp_path))
    assert UserData(tmp_path).settings.theme == "nord"
    app = EightOffApp(Game.from_text("EO1-C8-AAAAAFA"), data=UserData(tmp_path))
    themes: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(90, 30)) as pilot:
            await pilot.pause()
            themes.append(app.theme)

    asyncio.run(main())
    assert themes == ["nord"]


def test_a_press_off_the_piles_forgets_an_earlier_drag() -> None:
    async def scenario(app: EightOffApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-6")  # A♥ ...
        await pilot.mouse_up("#status")  # ... let go off the board: nothing moves
        await pilot.mouse_down("#status")
        await pilot.mouse_up("#foundation-H")  # a release alone plays nothing
        await pilot.pause()

    app, _ = drive(scenario)
    assert not app.game.actions
