"""The page in a real browser: Debian's chromium driven by Playwright against uvicorn.

Screenshots go to ``artifacts/`` (desktop and phone sizes).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from eightoff.cards import SUIT_LETTERS
from eightoff.codes import GameCode
from eightoff.formats import move_from_json, move_to_json
from eightoff.game import Game, autoplay_moves, smart_move
from eightoff.moves import FOUNDATION, Move, PlaceKind, column
from eightoff.position import Position
from eightoff.rules import STANDARD, preset
from eightoff.solver import Limit, hint, solve
from support.browser import (
    CODE,
    chromium,
    drag,
    finish_point,
    grab_point,
    label,
    moves_played,
    open_game,
    pile_of,
    play_by_drag,
    preload,
    refused_drop,
    serve_app,
    server_only,
    toast_text,
    wait_moves,
    watched_page,
    winning_line,
)

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = pytest.mark.chromium  # skipped where chromium is missing (tests/conftest.py)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
STUCK_CODE = "EO1-C2-AAAAAAB"  # no legal move from the deal on
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
TABLET = {"width": 768, "height": 1024}
# Deal 12 and eleven moves that stack a column of 13 cards (the 4 of clubs on top).
LONG_CODE = str(GameCode(STANDARD, 12))
LONG_MOVES = ["b6", "3b", "36", "86", "56", "42", "4e", "4f", "4g", "46", "26x2"]
# The alternating-colours rules, deal 0: 21 moves build a run down from a King to make
# column 5 eighteen cards long.
TALL_CODE = str(GameCode(preset("alternate"), 0))
TALL_MOVES = "6e 6f 6g 62 6h 65 35 d5 15 31 35 84 85 a5 45 b5 1a 15 a5 7a 75".split()  # noqa: SIM905
MIN_STRIP = 14  # px of a covered card that always shows: its rank and suit


def _ace_on_top_deal() -> GameCode:
    """The first standard deal with an ace exposed at the end of a column."""
    for n in range(1000):
        code = GameCode(STANDARD, n)
        if any(col[-1].rank == 1 for col in code.position().columns):
            return code
    raise AssertionError("no deal with an exposed ace")


# -- fixtures -----------------------------------------------------------------------------


def _app() -> Any:
    from eightoff.web.app import Limits, create_app

    return create_app(seed=5, limits=Limits(hint_seconds=5, solve_seconds=10))


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serve_app(_app())


class _SlowMoves:
    """The app with every ``/api/state`` answer ``delay`` s late, as on a slow network."""

    def __init__(self, app: Any, delay: float = 0.15) -> None:
        self.app = app
        self.delay = delay

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/state":
            await asyncio.sleep(self.delay)
        await self.app(scope, receive, send)


@pytest.fixture(scope="module")
def slow_server() -> Iterator[str]:
    yield from serve_app(_SlowMoves(_app()))


@pytest.fixture(scope="module")
def slower_server() -> Iterator[str]:
    """Answers 800 ms late: a player's inputs queue up behind one round trip."""
    yield from serve_app(_SlowMoves(_app(), 0.8))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def line() -> list[Move]:
    """The solver's winning line for CODE."""
    return winning_line(CODE)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, DESKTOP)


# -- helpers ------------------------------------------------------------------------------


def hinted_move(page: Any, pos: Position) -> Move:
    """The move the hint shows on the board: its card(s) lit, its target pile lit."""
    page.wait_for_selector(".card.hint")
    lit = page.eval_on_selector_all(".card.hint", "els => els.map(e => e.dataset.card)")
    (target,) = page.eval_on_selector_all(
        ".pile.hint-target", "els => els.map(e => e.dataset.pile)"
    )
    found = [
        m
        for m in pos.legal_moves()
        if [str(c) for c in pos.moving_cards(m)] == lit
        and label(m.target, pos.moving_cards(m)[0]) == target
    ]
    assert len(found) == 1, (lit, target)
    return found[0]


def first_cell_move(pos: Position) -> Move:
    return next(m for m in pos.legal_moves() if m.target.kind is PlaceKind.CELL)


# -- tests --------------------------------------------------------------------------------


def test_page_draws_the_deal_with_labels_and_screenshots(browser: Any, server: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    pos = GameCode.parse(CODE).position()
    for name, viewport, scale in (("desktop", DESKTOP, 1), ("phone", PHONE, 2)):
        context = browser.new_context(
            viewport=viewport, device_scale_factor=scale, has_touch=name == "phone"
        )
        page = context.new_page()
        open_game(page, server)
        assert page.locator("[data-card]").count() == 52
        assert page.locator("[data-pile^='foundation-']").count() == 4
        assert page.locator("[data-pile^='cell-']").count() == 8
        assert page.locator("[data-pile^='column-']").count() == 8
        for i, col in enumerate(pos.columns):
            exposed = page.locator(f'[data-card="{col[-1]}"]')
            assert exposed.get_attribute("aria-label") == (
                f"{col[-1].name()}, column {i + 1}, exposed"
            )
            covered = page.locator(f'[data-card="{col[0]}"]')
            assert covered.get_attribute("aria-label").endswith("covered")
        for k, held in enumerate(pos.cells):
            if held is not None:
                assert pile_of(page, str(held)) == f"cell-{k + 1}"
        # Every card lies inside the window horizontally: nothing cut off at either size.
        width = viewport["width"]
        boxes = page.eval_on_selector_all(
            "[data-card]", "els => els.map(e => e.getBoundingClientRect().right)"
        )
        assert max(boxes) <= width
        page.screenshot(path=str(ARTIFACTS / f"web-{name}.png"), full_page=True)
        context.close()


def test_drag_to_a_cell_and_to_a_foundation_then_undo_redo(page: Any, server: str) -> None:
    code = _ace_on_top_deal()
    pos = code.position()
    open_game(page, server, str(code))
    ace_column = next(i for i, col in enumerate(pos.columns) if col[-1].rank == 1)
    ace = pos.columns[ace_column][-1]
    pos = play_by_drag(page, pos, Move(column(ace_column), FOUNDATION))
    assert pile_of(page, str(ace)) == f"foundation-{SUIT_LETTERS[ace.suit]}"
    assert page.locator("#score").inner_text() == "10"
    move = first_cell_move(pos)
    card = pos.moving_cards(move)[0]
    pos = play_by_drag(page, pos, move)
    assert pile_of(page, str(card)) == label(move.target, card)
    page.wait_for_function("() => document.getElementById('live').textContent.includes('to cell')")

    # A drop where no legal move goes snaps back.
    other = next(i for i, col in enumerate(pos.columns) if col and i != ace_column)
    drag(page, str(pos.columns[other][-1]), "foundation-S" if card.suit else "foundation-H")
    toast_text(page, "cannot")  # the drop was refused, and the page says so
    assert moves_played(page) == 2
    assert pile_of(page, str(pos.columns[other][-1])) == f"column-{other + 1}"

    page.keyboard.press("Control+z")
    wait_moves(page, 1)
    assert pile_of(page, str(card)) == label(move.source, card)
    page.keyboard.press("Control+z")
    wait_moves(page, 0)
    assert pile_of(page, str(ace)) == f"column-{ace_column + 1}"
    assert page.locator("#score").inner_text() == "0"
    page.keyboard.press("Control+y")
    wait_moves(page, 1)
    page.click("#btn-redo")
    wait_moves(page, 2)
    assert pile_of(page, str(card)) == label(move.target, card)


def test_double_click_plays_the_smart_move(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    smart = next(
        m
        for i in range(8)
        if (m := smart_move(pos, column(i))) is not None
        and m.target.kind is not PlaceKind.FOUNDATION
    )
    card = pos.moving_cards(smart)[0]
    box = page.locator(f'[data-card="{card}"]').bounding_box()
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + 6)
    wait_moves(page, 1)
    assert pile_of(page, str(card)) == label(smart.target, card)


def test_keyboard_play(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    i, smart = next((i, m) for i in range(8) if (m := smart_move(pos, column(i))) is not None)
    card = pos.moving_cards(smart)[0]
    page.keyboard.press(str(i + 1))
    assert page.evaluate("document.activeElement.dataset.card") == str(pos.columns[i][-1])
    page.keyboard.press("d")
    wait_moves(page, 1)
    assert pile_of(page, str(card)) == label(smart.target, card)
    # Pick up with Enter, walk to an empty cell with the arrows, put down with Enter.
    after = pos.apply(smart)
    j = next(j for j in range(8) if after.columns[j] and j != smart.target.index)
    moved = after.columns[j][-1]
    page.keyboard.press(str(j + 1))
    page.keyboard.press("Enter")
    assert page.locator(f'[data-card="{moved}"]').get_attribute("class").count("selected")
    page.keyboard.press("ArrowUp")  # from column j+1 to cell j+1 (or a foundation)
    focused = page.evaluate("document.activeElement.closest('.pile').dataset.pile")
    free = [k for k, c in enumerate(after.cells) if c is None]
    target = f"cell-{free[0] + 1}"
    order = page.evaluate("[...document.querySelectorAll('[data-pile]')].map(e => e.dataset.pile)")
    steps = order.index(target) - order.index(focused)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    page.keyboard.press("Enter")
    wait_moves(page, 2)
    assert pile_of(page, str(moved)) == target


def test_hint_shows_a_move_on_the_board(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    page.click("#btn-hint")
    move = hinted_move(page, pos)  # the hinted card(s), no other, and where they go
    # A move on a winning line: the solver wins from the position it leads to.
    assert solve(pos.apply(move), limit=Limit(nodes=200_000, seconds=None)).solved
    page.wait_for_function("() => document.getElementById('live').textContent.startsWith('Hint:')")


def test_hint_offers_to_undo_a_lost_position(page: Any, server: str) -> None:
    code = GameCode.parse("EO1-C4-AAAAABH")
    pos = code.position()
    open_game(page, server, str(code))
    for text in ["65", "6^", "1^", "d^", "a8", "8d", "7a"]:
        pos = play_by_drag(page, pos, Move.from_text(text))
    game = Game(code)
    game.replay([Move.from_text(t) for t in ["65", "6^", "1^", "d^", "a8", "8d", "7a"]])
    undo_to = hint(game, limit=Limit(nodes=None, seconds=10)).undo_to  # the server's word
    assert isinstance(undo_to, int) and 0 < undo_to < 7
    page.click("#btn-hint")
    page.wait_for_selector("#btn-undo-to")
    assert f"winnable up to move {undo_to}" in page.locator("#banner").inner_text()
    assert "cannot be won" in page.locator("#banner").inner_text()
    page.click("#btn-undo-to")
    page.wait_for_selector("#banner", state="hidden")
    page.wait_for_selector("body[data-busy='0']")
    assert moves_played(page) == undo_to  # back exactly to the last winnable position


def test_solution_steps_and_keep_playing(page: Any, server: str) -> None:
    open_game(page, server)
    page.click("#btn-solution")
    page.wait_for_selector("#solution:not([hidden])")
    at_step = "k => document.getElementById('sol-text').textContent.includes(`step ${k} of`)"
    page.click("#sol-fwd")
    page.wait_for_function(at_step, arg=1)
    page.click("#sol-fwd")
    page.wait_for_function(at_step, arg=2)
    page.click("#sol-back")
    page.wait_for_function(at_step, arg=1)
    page.click("#sol-keep")
    wait_moves(page, 1)
    assert page.locator("#solution").is_hidden()
    # The keys step through it too; Escape returns to the game as it was.
    page.click("#btn-solution")
    page.wait_for_selector("#solution:not([hidden])")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(at_step, arg=1)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(at_step, arg=2)
    page.keyboard.press("Escape")
    page.wait_for_selector("#solution[hidden]", state="attached")
    wait_moves(page, 1)
    # A new game from inside the solution leaves it for good.
    page.click("#btn-solution")
    page.click("#sol-fwd")
    page.wait_for_function(at_step, arg=1)
    page.click("#btn-new")
    page.click("#new-deal")
    page.wait_for_function(f"() => document.getElementById('code').textContent !== '{CODE}'")
    wait_moves(page, 0)  # and nothing in flight that could bring the solution back
    assert page.locator("#solution").is_hidden()
    new = GameCode.parse(page.locator("#code").inner_text()).position()
    for i, col in enumerate(new.columns):
        assert pile_of(page, str(col[-1])) == f"column-{i + 1}"


def test_play_a_whole_deal_to_the_win_following_the_solver(
    page: Any, server: str, line: list[Move]
) -> None:
    page.emulate_media(reduced_motion="reduce")  # cards jump: no waiting for each slide
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    for move in line:
        pos = play_by_drag(page, pos, move)
    assert pos.is_won()
    page.wait_for_selector("#celebrate:not([hidden])")
    assert page.evaluate("document.body.dataset.status") == "won"
    assert page.locator("#score").inner_text() == "520"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-won.png"))
    page.keyboard.press("Escape")
    assert page.locator("#celebrate").is_hidden()
    stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
    (entry,) = stats.values()
    assert entry["played"] == 1 and entry["won"] == 1 and entry["fewestMoves"] == len(line)


def test_reload_resumes_the_game(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    played = []
    for _ in range(3):
        move = first_cell_move(pos)
        played.append((pos.moving_cards(move)[0], move))
        pos = play_by_drag(page, pos, move)
    page.keyboard.press("Control+z")
    wait_moves(page, 2)
    page.reload()
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert moves_played(page) == 2
    for card, move in played[:2]:
        assert pile_of(page, str(card)) == label(move.target, card)
    assert not page.locator("#btn-redo").is_disabled()  # redo survives the reload too
    assert page.locator("#code").inner_text() == CODE


def test_corrupted_storage_gives_a_notice_and_a_fresh_game(page: Any, server: str) -> None:
    for key, junk in (("eightoff.game", "{not json"), ("eightoff.stats", "[1, 2]")):
        open_game(page, server)
        page.goto(f"{server}/privacy")  # away from the game, which saves itself on leaving
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, junk])
        page.goto(f"{server}/")
        page.wait_for_selector("body[data-ready='1'][data-busy='0']")
        assert "could not be read" in page.locator("#notice-text").inner_text(), key
        assert page.evaluate("k => localStorage.getItem(k)", key) != junk  # dropped
    assert page.locator("#notice").is_visible()
    assert "could not be read" in page.locator("#notice-text").inner_text()
    assert page.locator("[data-card]").count() == 52
    assert moves_played(page) == 0
    # Saved rules the server refuses: a notice and a standard game, not an empty board.
    page.goto(f"{server}/privacy")  # away from the game, which saves itself on leaving
    page.evaluate("localStorage.setItem('eightoff.settings', JSON.stringify({rules: {cells: 3}}))")
    page.evaluate("localStorage.removeItem('eightoff.game')")
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert "standard game" in page.locator("#notice-text").inner_text()
    assert page.locator("[data-card]").count() == 52


def test_new_game_dialog_changes_the_rules(page: Any, server: str) -> None:
    open_game(page, server)
    page.click("#btn-new")
    page.check("#form-new input[name='cells'][value='4']")
    page.check("#form-new input[name='winnable']")
    page.click("#new-deal")
    page.wait_for_function("() => document.querySelectorAll('[data-pile^=\"cell-\"]').length === 4")
    code = page.locator("#code").inner_text()
    assert GameCode.parse(code).rules == STANDARD.with_options(cells=4)
    settings = json.loads(page.evaluate("localStorage.getItem('eightoff.settings')"))
    assert settings["rules"]["cells"] == 4


def test_new_game_dialog_deals_a_hard_pool_deal(page: Any, server: str) -> None:
    open_game(page, server)
    first = page.locator("#code").inner_text()
    page.click("#btn-new")
    page.check("#form-new input[name='winnable']")
    levels = page.eval_on_selector_all(
        "#form-new select[name='difficulty'] option", "els => els.map(e => [e.value, e.text])"
    )
    assert levels == [["any", "Any"], ["easy", "Easy"], ["medium", "Medium"], ["hard", "Hard"]]
    page.select_option("#form-new select[name='difficulty']", "hard")
    page.click("#new-deal")
    page.wait_for_function(f"() => document.querySelector('#code').textContent !== {first!r}")
    code = GameCode.parse(page.locator("#code").inner_text())
    shipped = json.loads(
        resources.files("eightoff").joinpath("data", "pool-standard.json").read_text("utf-8")
    )
    assert code.rules == STANDARD and code.deal in shipped["pools"][0]["deals"]["hard"]
    settings = json.loads(page.evaluate("localStorage.getItem('eightoff.settings')"))
    assert settings["difficulty"] == "hard"


def test_a_stored_difficulty_the_server_does_not_offer_deals_any(page: Any, server: str) -> None:
    page.goto(f"{server}/privacy")
    page.evaluate(
        "localStorage.setItem('eightoff.settings', JSON.stringify({difficulty: 'brutal'}))"
    )
    page.goto(server)
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert GameCode.parse(page.locator("#code").inner_text()).rules == STANDARD
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    assert page.locator("#form-new select[name='difficulty']").input_value() == "any"


def test_share_link_and_code_entry(page: Any, server: str) -> None:
    open_game(page, server)
    page.click("#btn-code")
    assert page.locator("#share-text").input_value() == f"{server}/?code={CODE}"
    page.keyboard.press("Escape")
    other = str(GameCode(STANDARD, 12345))
    page.click("#btn-new")
    page.fill("#new-code", other)
    page.click("#new-play-code")
    page.wait_for_function(f"() => document.getElementById('code').textContent === '{other}'")
    first = GameCode.parse(other).position().columns[0][-1]
    assert pile_of(page, str(first)) == "column-1"


def test_touch_drag_and_double_tap(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)

    def touch(kind: str, x: float = 0, y: float = 0) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    try:
        pos = GameCode.parse(CODE).position()
        open_game(page, server)
        move = first_cell_move(pos)
        card = pos.moving_cards(move)[0]
        box = page.locator(f'[data-card="{card}"]').bounding_box()
        target = page.locator(f'[data-pile="{label(move.target, card)}"]').bounding_box()
        x0, y0 = box["x"] + box["width"] / 2, box["y"] + 5
        x1, y1 = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
        touch("touchStart", x0, y0)
        for k in range(1, 6):
            touch("touchMove", x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5)
        touch("touchEnd")
        wait_moves(page, 1)
        assert pile_of(page, str(card)) == label(move.target, card)
        pos = pos.apply(move)
        # Double tap: the smart move.
        i, smart = next(
            (i, m)
            for i in range(8)
            if (m := smart_move(pos, column(i))) is not None
            and m.target.kind is not PlaceKind.FOUNDATION
        )
        moving = pos.moving_cards(smart)[0]
        box = page.locator(f'[data-card="{pos.columns[i][-1]}"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for _ in range(2):
            touch("touchStart", x, y)
            touch("touchEnd")
        wait_moves(page, 2)
        assert pile_of(page, str(moving)) == label(smart.target, moving)
    finally:
        context.close()


def test_autoplay_moves_undo_with_the_move(page: Any, server: str, line: list[Move]) -> None:
    pos = GameCode.parse(CODE).position()
    n = 0
    while not autoplay_moves(pos.apply(line[n])):
        pos = pos.apply(line[n])
        n += 1
    extra = autoplay_moves(pos.apply(line[n]))
    page.goto(f"{server}/privacy")
    page.evaluate("localStorage.setItem('eightoff.settings', JSON.stringify({autoplay: true}))")
    preload(page, server, CODE, [[m] for m in line[:n]])
    card = pos.moving_cards(line[n])[0]
    drag(page, str(card), label(line[n].target, card))
    wait_moves(page, n + 1 + len(extra))  # the move and what autoplay added to it
    assert page.locator("#moves").inner_text() == str(n + 1)
    after = pos.apply(line[n])
    home = after.moving_cards(extra[0])[0]
    assert pile_of(page, str(home)) == f"foundation-{SUIT_LETTERS[home.suit]}"
    page.keyboard.press("Control+z")  # undoes the move and its autoplayed moves together
    wait_moves(page, n)
    assert pile_of(page, str(home)) != f"foundation-{SUIT_LETTERS[home.suit]}"


def test_restart_asks_first(page: Any, server: str, line: list[Move]) -> None:
    preload(page, server, CODE, [[m] for m in line[:5]])
    page.click("#btn-restart")
    page.click("#dlg-confirm button[value='no']")
    assert moves_played(page) == 5
    page.click("#btn-restart")
    page.click("#confirm-yes")
    wait_moves(page, 0)
    assert page.locator("#time").inner_text() == "0:00"


def test_stuck_is_shown(page: Any, server: str) -> None:
    open_game(page, server, STUCK_CODE)
    assert page.locator("#st-state").inner_text() == "Stuck"
    assert "no legal move" in page.locator("#banner").inner_text()
    assert page.locator("#btn-hint").is_disabled()


def test_finish_offer_plays_every_card_home(page: Any, server: str, line: list[Move]) -> None:
    # The earliest point after which the rest of the line only goes home.
    k = len(line)
    while k > 0 and line[k - 1].target.kind is PlaceKind.FOUNDATION:
        k -= 1
    preload(page, server, CODE, [[m] for m in line[:k]])
    page.wait_for_selector("#btn-finish")
    page.click("#btn-finish")
    page.wait_for_selector("#celebrate:not([hidden])")
    assert page.evaluate("document.body.dataset.status") == "won"
    assert page.locator("#moves").inner_text() == str(k + 1)


def test_solution_of_a_lost_position_offers_the_undo(page: Any, server: str) -> None:
    moves = [Move.from_text(t) for t in ["65", "6^", "1^", "d^", "a8", "8d", "7a"]]
    preload(page, server, "EO1-C4-AAAAABH", [[m] for m in moves])
    page.click("#btn-solution")
    page.wait_for_selector("#btn-undo-to")
    assert page.locator("#solution").is_hidden()
    assert "cannot be won" in page.locator("#banner").inner_text()


def column_boxes(page: Any, columns: list[list[str]]) -> list[list[dict[str, float]]]:
    """The window rectangles of the cards of each column, bottom card first."""
    return list(
        page.evaluate(
            """cols => cols.map(col => col.map(card => {
                const r = document.querySelector(`[data-card="${card}"]`).getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
            }))""",
            columns,
        )
    )


def assert_columns_fit(page: Any, pos: Position, viewport: dict[str, int]) -> None:
    """Every exposed card lies inside the window; every covered card shows its index."""
    assert page.evaluate("window.scrollY") == 0
    columns = [[str(card) for card in col] for col in pos.columns]
    for i, boxes in enumerate(column_boxes(page, columns)):
        if not boxes:
            continue  # an empty column
        exposed = boxes[-1]
        where = f"column {i + 1} at {viewport}"
        assert exposed["top"] >= 0 and exposed["left"] >= 0, where
        assert exposed["bottom"] <= viewport["height"], where
        assert exposed["right"] <= viewport["width"], where
        for below, above in pairwise(boxes):
            assert above["top"] - below["top"] >= MIN_STRIP, where


def test_long_columns_fit_the_window_on_phones_and_tablets(browser: Any, server: str) -> None:
    moves = [Move.from_text(t) for t in LONG_MOVES]
    pos = GameCode.parse(LONG_CODE).position()
    for move in moves:
        pos = pos.apply(move)
    assert max(len(col) for col in pos.columns) >= 12
    for viewport in (PHONE, PHONE_LANDSCAPE, TABLET):
        context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
        page = context.new_page()
        try:
            preload(page, server, LONG_CODE, [[m] for m in moves])
            assert moves_played(page) == len(moves)
            assert_columns_fit(page, pos, viewport)
            ARTIFACTS.mkdir(exist_ok=True)
            size = f"{viewport['width']}x{viewport['height']}"
            page.screenshot(path=str(ARTIFACTS / f"web-long-column-{size}.png"))
            # Turned sideways (or back), the board lays itself out again.
            turned = {"width": viewport["height"], "height": viewport["width"]}
            page.set_viewport_size(turned)
            page.wait_for_function(
                "([w, h]) => innerWidth === w && innerHeight === h",
                arg=[turned["width"], turned["height"]],
            )
            page.wait_for_timeout(100)
            assert_columns_fit(page, pos, turned)
        finally:
            context.close()


# -- defects once found, each as a player meets it ------------------------------------

ON_TOP_JS = """card => {
    const el = document.querySelector(`[data-card="${card}"]`);
    const r = el.getBoundingClientRect();
    el.style.pointerEvents = "auto";  // hit testing follows the painting order
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    el.style.pointerEvents = "";
    return hit !== null && hit.closest(".card") === el;
}"""


def test_a_dragged_card_is_drawn_above_every_other_card(browser: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    held = next(str(c) for c in pos.cells if c is not None)
    exposed = str(pos.columns[0][-1])
    for viewport in (DESKTOP, PHONE, PHONE_LANDSCAPE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        try:
            open_game(page, server)
            for card in (held, exposed):  # from a cell down over the columns; a column sideways
                box = page.locator(f'[data-card="{card}"]').bounding_box()
                x0, y0 = box["x"] + box["width"] / 2, box["y"] + 6
                page.mouse.move(x0, y0)
                page.mouse.down()
                for k in range(8):
                    col = page.locator(f'[data-pile="column-{k + 1}"]').bounding_box()
                    page.mouse.move(col["x"] + col["width"] / 2, col["y"] + 10, steps=2)
                    assert page.evaluate(ON_TOP_JS, card), f"{card} under column {k + 1}"
                page.mouse.move(x0, y0, steps=2)  # back where it came from: no move
                page.mouse.up()
            assert moves_played(page) == 0
        finally:
            context.close()


SOLUTION_BUTTONS = ["#sol-first", "#sol-back", "#sol-play", "#sol-fwd", "#sol-keep", "#sol-return"]


def solution_boxes(page: Any) -> list[dict[str, float]]:
    return [page.locator(sel).bounding_box() for sel in SOLUTION_BUTTONS]


def test_solution_bar_buttons_stay_in_place(browser: Any, server: str) -> None:
    at_step = "k => document.getElementById('sol-text').textContent.includes(`step ${k} of`)"
    for viewport in (DESKTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        try:
            open_game(page, server)
            page.click("#btn-solution")
            page.wait_for_selector("#solution:not([hidden])")

            start = solution_boxes(page)
            for k in (1, 2, 3):
                page.click("#sol-fwd")
                page.wait_for_function(at_step, arg=k)
                assert solution_boxes(page) == start, f"step {k} at {viewport}"
            page.click("#sol-play")  # "Play" becomes "Pause"
            page.wait_for_function(
                "() => document.getElementById('sol-play').textContent.includes('Pause')"
            )
            assert solution_boxes(page) == start
            page.click("#sol-play")
            page.click("#sol-first")
            page.wait_for_function(at_step, arg=0)
            assert solution_boxes(page) == start
        finally:
            context.close()


def test_refusals_and_copied_show_on_screen(browser: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    legal = pos.legal_moves()
    context = browser.new_context(viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        open_game(page, server)
        # A card with somewhere to go, dropped on a column that does not take it.
        i, j = refused_drop(pos)
        card = pos.columns[i][-1]
        drag(page, str(card), f"column-{j + 1}")
        text = toast_text(page, f"{card.symbol()} cannot go there: ")
        assert page.locator("#toast").is_visible() and len(text) > 30
        # A covered card that heads no movable run: why, as soon as it is dragged.
        i, k = next(
            (i, k)
            for i in range(8)
            for k in range(len(pos.columns[i]) - 1)
            if not any(m.source == column(i) and m.count == len(pos.columns[i]) - k for m in legal)
        )
        covered = pos.columns[i][k]
        box = page.locator(f'[data-card="{covered}"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 5)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 40, box["y"] + 60, steps=3)
        toast_text(page, f"{covered.symbol()} cannot move: ", "not a run")
        page.mouse.up()
        assert moves_played(page) == 0
        # A selection is put down by a click on the felt, or by Escape.
        exposed = page.locator(f'[data-card="{pos.columns[i][-1]}"]')
        for put_down in ("felt", "Escape"):
            picked = next(
                m
                for m in legal
                if m.count == 1
                and m.source.kind is PlaceKind.COLUMN
                and not any(
                    o.source == m.source and o.target.kind is PlaceKind.FOUNDATION for o in legal
                )
            )
            top = page.locator(f'[data-card="{pos.columns[picked.source.index or 0][-1]}"]')
            top.click()
            page.wait_for_selector(".card.selected")
            if put_down == "felt":
                board = page.locator("#board").bounding_box()
                page.mouse.click(board["x"] + 3, board["y"] + board["height"] - 3)
            else:
                page.keyboard.press("Escape")
            page.wait_for_selector(".card.selected", state="detached")
            assert page.locator(".pile.target").count() == 0
        assert exposed.count() == 1 and moves_played(page) == 0
        # "Copied" shows over the dialog.
        page.click("#btn-code")
        page.click("#code-copy")
        assert toast_text(page, "Copied") == "Copied."
        assert page.evaluate("navigator.clipboard.readText()") == CODE
    finally:
        context.close()


def test_turning_autoplay_on_sends_safe_cards_home_at_once(page: Any, server: str) -> None:
    code = _ace_on_top_deal()
    pos = code.position()
    home = autoplay_moves(pos)
    assert home
    open_game(page, server, str(code))
    page.click("#btn-options")
    page.check("#form-options input[name='autoplay']")
    page.click("#form-options button[type='submit']")
    wait_moves(page, len(home))
    assert page.locator("#moves").inner_text() == "1"  # one action, undone as one
    card = pos.moving_cards(home[0])[0]
    assert pile_of(page, str(card)) == f"foundation-{SUIT_LETTERS[card.suit]}"
    page.keyboard.press("Control+z")
    wait_moves(page, 0)


def test_unknown_address_is_a_page_and_files_are_compressed(page: Any, server: str) -> None:
    response = page.goto(f"{server}/no/such/page")
    assert response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    assert page.locator("a[href='/']").count() == 1
    assert page.title() == "Eight Off: page not found"
    for name in ("main.js", "style.css"):
        first = page.request.get(f"{server}/static/{name}", headers={"Accept-Encoding": "gzip"})
        assert first.status == 200
        assert first.headers["content-encoding"] == "gzip"
        assert "default-src 'self'" in first.headers["content-security-policy"]
        again = page.request.get(
            f"{server}/static/{name}", headers={"If-None-Match": first.headers["etag"]}
        )
        assert again.status == 304


def test_an_error_notice_does_not_move_the_board(page: Any, server: str) -> None:
    server_only(page)  # the server's refusal, as a page without the kernel gets it
    open_game(page, server)
    card = page.locator(f'[data-card="{GameCode.parse(CODE).position().columns[3][-1]}"]')
    before = card.bounding_box()
    page.route(
        "**/api/hint",
        lambda route: route.fulfill(
            status=503, content_type="application/json", body='{"error": "solver away"}'
        ),
    )
    page.click("#btn-hint")
    page.wait_for_selector("#notice:not([hidden])")
    assert "solver away" in page.locator("#notice-text").inner_text()
    assert card.bounding_box() == before


def test_stats_name_the_rules_and_reset_asks_first(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    play_by_drag(page, pos, first_cell_move(pos))
    page.click("#btn-stats")
    assert page.locator("#stats-body h3").all_inner_texts() == ["Standard, 8 cells"]
    page.click("#stats-reset")
    page.wait_for_selector("#dlg-confirm[open]")
    page.click("#dlg-confirm button[value='no']")
    stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
    assert [s["played"] for s in stats.values()] == [1]
    page.click("#stats-reset")
    page.click("#confirm-yes")
    page.wait_for_selector("#dlg-stats:not([open])", state="attached")
    # The game in progress counts as played again, so its win will be recorded.
    stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
    assert [(s["played"], s["won"]) for s in stats.values()] == [(1, 0)]


def test_two_tabs_on_one_game_follow_each_other(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    first, second = context.new_page(), context.new_page()
    try:
        pos = GameCode.parse(CODE).position()
        open_game(first, server)
        second.goto(f"{server}/")
        second.wait_for_selector("body[data-ready='1'][data-busy='0']")
        assert second.locator("#code").inner_text() == CODE
        move = first_cell_move(pos)
        pos = play_by_drag(first, pos, move)
        wait_moves(second, 1)
        toast_text(second, "another tab")
        card = pos.moving_cards(first_cell_move(pos))[0]
        pos = play_by_drag(second, pos, first_cell_move(pos))
        wait_moves(first, 2)
        assert pile_of(first, str(card)) == pile_of(second, str(card))
    finally:
        context.close()


def test_stuck_and_proved_lost_keeps_the_way_out(page: Any, server: str) -> None:
    open_game(page, server, STUCK_CODE)
    page.click("#btn-solution")
    page.wait_for_function(
        "() => document.getElementById('banner-text').textContent.includes('never winnable')"
    )
    buttons = page.locator("#banner-actions button").all_inner_texts()
    assert buttons == ["Undo", "New game"]
    page.locator("#banner-actions button", has_text="New game").click()
    page.wait_for_selector("#dlg-new[open]")


def test_solution_status_and_help_in_the_stats(page: Any, server: str, line: list[Move]) -> None:
    page.clock.install()
    k = len(line) - 6
    preload(page, server, CODE, [[m] for m in line[:k]])
    page.click("#btn-solution")
    page.wait_for_selector("#solution:not([hidden])")
    shown = page.locator("#time").inner_text()
    page.clock.run_for(10_000)  # the clock stands still while the solution is shown
    assert page.locator("#time").inner_text() == shown
    for step in (1, 2):
        page.click("#sol-fwd")
        page.wait_for_function(
            "k => document.getElementById('sol-text').textContent.includes(`step ${k} of`)",
            arg=step,
        )
    # The status is the solution's position, labelled.
    assert page.locator("#st-view").is_visible()
    assert page.locator("#moves").inner_text() == str(k + 2)
    while not page.locator("#sol-fwd").is_disabled():
        page.click("#sol-fwd")
        page.wait_for_selector("body[data-busy='0']")
    page.click("#sol-keep")
    page.wait_for_selector("#celebrate:not([hidden])")
    assert page.locator("#st-view").is_hidden()
    stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
    (entry,) = stats.values()
    assert (entry["won"], entry["helped"]) == (0, 1)


def test_reset_mid_game_then_a_win_is_recorded(page: Any, server: str, line: list[Move]) -> None:
    k = len(line)
    while k > 0 and line[k - 1].target.kind is PlaceKind.FOUNDATION:
        k -= 1
    preload(page, server, CODE, [[m] for m in line[:k]])
    page.click("#btn-stats")
    page.click("#stats-reset")
    page.click("#confirm-yes")
    page.wait_for_selector("#dlg-stats:not([open])", state="attached")
    page.click("#btn-finish")
    page.wait_for_selector("#celebrate:not([hidden])")
    stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
    assert [(s["played"], s["won"]) for s in stats.values()] == [(1, 1)]


def wait_drawn(page: Any, card: str, pile: str) -> None:
    """Wait until ``card`` is drawn at rest on ``pile``."""
    page.wait_for_function(
        "([c, p]) => { const el = document.querySelector(`[data-card='${c}']`);"
        " return el !== null && el.closest('[data-pile]').dataset.pile === p"
        " && !el.classList.contains('flip'); }",
        arg=[card, pile],
    )


def test_ten_quick_moves_on_a_slow_server_all_land_in_order(
    page: Any, slow_server: str, line: list[Move]
) -> None:
    server_only(page)  # each move a round trip to the slow server
    pos = GameCode.parse(CODE).position()
    open_game(page, slow_server)
    played = line[:10]
    clicked = 0
    for move in played:
        card = pos.moving_cards(move)[0]
        # As a player: act on the card once it is drawn where the moves before left it.
        wait_drawn(page, str(card), label(move.source, card))
        home = any(
            m.source == move.source and m.target.kind is PlaceKind.FOUNDATION
            for m in pos.legal_moves()
        )
        if move.count == 1 and move.target.kind is not PlaceKind.FOUNDATION and not home:
            # Pick up with a click, put down with a click on the target pile.
            page.mouse.click(*grab_point(page, str(card)))
            target = label(move.target, card)
            tb = page.locator(f'[data-pile="{target}"]').bounding_box()
            page.mouse.click(tb["x"] + tb["width"] / 2, tb["y"] + tb["height"] / 2)
            clicked += 1
        else:
            drag(page, str(card), label(move.target, card))
        pos = pos.apply(move)
    # Far quicker than ten round trips of 150 ms: most are still on their way, drawn already.
    assert moves_played(page) < len(played)
    wait_moves(page, len(played))
    stored = json.loads(page.evaluate("localStorage.getItem('eightoff.game')"))
    replay = GameCode.parse(CODE).position()
    got = []
    for action in stored["actions"]:
        (one,) = action
        got.append(move_from_json(one, replay))
        replay = replay.apply(got[-1])
    assert got == played and clicked > 0
    for i, col in enumerate(pos.columns):
        for card in col:
            assert pile_of(page, str(card)) == f"column-{i + 1}"


POSITION_SAMPLER = """([card, pile]) => {
    // Every frame until told to stop: the card's left edge and that of the pile it left.
    window.seen = [];
    window.sampling = true;
    const el = document.querySelector(`[data-card="${card}"]`);
    const from = document.querySelector(`[data-pile="${pile}"]`);
    const sample = () => {
      window.seen.push([el.getBoundingClientRect().left, from.getBoundingClientRect().left]);
      if (window.sampling) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
}"""


def test_a_card_let_go_while_the_page_waits_stays_where_it_was_dropped(
    page: Any, slower_server: str
) -> None:
    # A move on its way, then a tap on 4♥ (it waits for the server's word on where the
    # card may go), then 5♣ dragged to a free cell and let go: its drop waits its turn
    # behind the tap. Meanwhile the window changes size and the page draws itself again:
    # 5♣ stays where it was let go, never drawn back in its column, then slides to the cell.
    server_only(page)  # each move a round trip to the slow server
    open_game(page, slower_server)
    drag(page, "7H", "cell-5")
    page.mouse.click(*grab_point(page, "4H"))
    page.evaluate(POSITION_SAMPLER, ["5C", "column-8"])
    drag(page, "5C", "cell-7")
    let_go = page.evaluate("window.seen.length")
    page.set_viewport_size({"width": DESKTOP["width"] - 40, "height": DESKTOP["height"]})
    wait_moves(page, 2)
    seen = page.evaluate("window.sampling = false, window.seen")[let_go:]
    back = [left for left, column in seen if abs(left - column) < 2]
    assert len(seen) > 10 and not back, f"5♣ drawn back in its column {len(back)} of {len(seen)}"
    # The drop put the tap's selection down (a new drag does); 4♥ stays.
    assert [pile_of(page, c) for c in ("7H", "5C", "4H")] == ["cell-5", "cell-7", "column-2"]


def test_a_press_where_a_card_slides_by_takes_the_card_beneath(page: Any, server: str) -> None:
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    legal = pos.legal_moves()
    # A card a click picks up (it has no move home), and another card of another column.
    i = next(
        m.source.index or 0
        for m in legal
        if m.count == 1
        and m.source.kind is PlaceKind.COLUMN
        and not any(o.source == m.source and o.target.kind is PlaceKind.FOUNDATION for o in legal)
    )
    aimed, passing = str(pos.columns[i][-1]), str(pos.columns[(i + 1) % 8][-1])
    # Caught mid-slide right over the aimed card's strip, as after a quick move elsewhere.
    page.evaluate(
        """([aimed, passing]) => {
          const a = document.querySelector(`[data-card="${aimed}"]`).getBoundingClientRect();
          const el = document.querySelector(`[data-card="${passing}"]`);
          const b = el.getBoundingClientRect();
          el.classList.add("flip");
          el.style.transition = "none";
          el.style.zIndex = "900";
          el.style.transform = `translate(${a.left - b.left}px, ${a.top - b.top}px)`;
        }""",
        [aimed, passing],
    )
    box = page.locator(f'[data-card="{aimed}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 6)
    page.wait_for_selector(".card.selected")
    assert page.locator(".card.selected").evaluate_all("els => els.map(e => e.dataset.card)") == [
        aimed
    ]


SLIDE_SAMPLER = """card => {
    // A busy device: the page is held up just before the card's slide is first drawn.
    window.addEventListener("pointerup", () => requestAnimationFrame(() => {
      const t = performance.now();
      while (performance.now() - t < 150) {}
    }), { once: true });
    window.slid = [];
    const el = document.querySelector(`[data-card="${card}"]`);
    const t0 = performance.now();
    const sample = () => {
      const moving = el.getAnimations().some(a => a.playState === "running");
      window.slid.push([el.classList.contains("flip"), moving]);
      if (performance.now() - t0 < 1000) requestAnimationFrame(sample);
      else window.sampled = true;
    };
    requestAnimationFrame(sample);
}"""


def test_a_card_lets_presses_through_until_it_has_landed(page: Any, server: str) -> None:
    code = _ace_on_top_deal()
    ace = next(str(col[-1]) for col in code.position().columns if col[-1].rank == 1)
    open_game(page, server, str(code))
    x, y = grab_point(page, ace)
    page.evaluate(SLIDE_SAMPLER, ace)
    page.mouse.click(x, y)  # a tap sends the ace home
    wait_moves(page, 1)
    page.wait_for_function("() => window.sampled === true")
    slid = page.evaluate("window.slid")
    assert any(moving for _, moving in slid)  # it slid, late
    # Never taken for landed (presses let through, drawn over the rest) while still moving.
    assert all(flip for flip, moving in slid if moving)


def test_share_link_and_bad_codes_never_throw_a_game_away(
    page: Any, server: str, line: list[Move]
) -> None:
    preload(page, server, CODE, [[m] for m in line[:5]])
    other = str(GameCode(STANDARD, 777))
    page.goto(f"{server}/?code={other}")
    page.wait_for_selector("#dlg-confirm[open]")
    assert other in page.locator("#confirm-text").inner_text()
    page.click("#dlg-confirm button[value='no']")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert page.locator("#code").inner_text() == CODE and moves_played(page) == 5
    page.goto(f"{server}/?code=EO1-NOPE")  # a bad code: a notice, the game goes on
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert page.locator("#notice").is_visible()
    assert page.locator("#code").inner_text() == CODE and moves_played(page) == 5
    # A mistyped code in the New game dialog: the error beside the field, the dialog open.
    page.click("#btn-new")
    page.fill("#new-code", "EO1-C8-ZZZZZZZZ")
    page.click("#new-play-code")
    page.wait_for_selector("#new-code-error:not([hidden])")
    assert page.locator("#dlg-new").get_attribute("open") is not None
    assert page.locator("#new-code-error").inner_text()
    assert page.locator("#code").inner_text() == CODE and moves_played(page) == 5
    page.keyboard.press("Escape")
    page.goto(f"{server}/?code={other}")
    page.wait_for_selector("#dlg-confirm[open]")
    page.click("#confirm-yes")
    page.wait_for_function(f"() => document.getElementById('code').textContent === '{other}'")
    wait_moves(page, 0)


FOUNDATION_SAMPLER = """() => {
    window.seen = [];
    const count = () => [...document.querySelectorAll("[data-pile^='foundation-']")]
        .map(p => [...p.querySelectorAll(".card")].pop())
        .reduce((n, c) => n + (c ? "A23456789TJQK".indexOf(c.dataset.card[0]) + 1 : 0), 0);
    const sample = () => {
        const won = !document.getElementById("celebrate").hidden;
        window.seen.push([count(), won, document.querySelector(".card.flip") !== null]);
        if (!won) requestAnimationFrame(sample);
    };
    sample();
}"""


def test_finish_plays_home_one_by_one_then_the_win(
    page: Any, server: str, line: list[Move]
) -> None:
    k = len(line)
    while k > 0 and line[k - 1].target.kind is PlaceKind.FOUNDATION:
        k -= 1
    assert len(line) - k >= 5
    preload(page, server, CODE, [[m] for m in line[:k]])
    page.wait_for_selector("#btn-finish")
    page.evaluate(FOUNDATION_SAMPLER)
    page.click("#btn-finish")
    page.wait_for_selector("#celebrate:not([hidden])")
    seen = page.evaluate("window.seen")
    counts = [n for n, won, _ in seen if not won]
    assert len(set(counts)) >= 5  # the cards went home one by one, visibly
    assert counts == sorted(counts)
    # The win shows once the last card has landed.
    assert all(n == 52 and not sliding for n, won, sliding in seen if won)
    assert page.locator(".fly").count() > 0  # the celebration
    for _ in range(3):  # Tab stays inside the win dialog
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('.celebrate-box') !== null")
    page.keyboard.press("Escape")
    assert page.locator("#celebrate").is_hidden()


def test_phones_and_tablets(browser: Any, server: str) -> None:
    moves = [Move.from_text(t) for t in LONG_MOVES]
    pos = GameCode.parse(LONG_CODE).position()
    for move in moves:
        pos = pos.apply(move)
    # A phone held sideways: the cards use the width, every column and the footer fit.
    context = browser.new_context(viewport=PHONE_LANDSCAPE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        preload(page, server, LONG_CODE, [[m] for m in moves])
        assert_columns_fit(page, pos, PHONE_LANDSCAPE)
        boxes = page.eval_on_selector_all(
            "[data-pile]", "els => els.map(e => e.getBoundingClientRect().toJSON())"
        )
        span = max(b["right"] for b in boxes) - min(b["left"] for b in boxes)
        assert span >= 0.75 * PHONE_LANDSCAPE["width"]
        assert page.locator("[data-pile='column-1']").bounding_box()["width"] >= 44
        foot = page.locator(".foot").bounding_box()  # none on so short a screen, or whole
        assert foot is None or foot["y"] + foot["height"] <= PHONE_LANDSCAPE["height"]
        assert page.locator(".bar a.button").is_visible()
        # An 18-card column under alternating colours: still every column and the footer.
        tall = GameCode.parse(TALL_CODE).position()
        tall_moves = [Move.from_text(t) for t in TALL_MOVES]
        for move in tall_moves:
            tall = tall.apply(move)
        assert max(len(col) for col in tall.columns) == 18
        preload(page, server, TALL_CODE, [[m] for m in tall_moves])
        assert moves_played(page) == len(tall_moves)
        assert_columns_fit(page, tall, PHONE_LANDSCAPE)
        foot = page.locator(".foot").bounding_box()
        assert foot is None or foot["y"] + foot["height"] <= PHONE_LANDSCAPE["height"]
        boxes = page.eval_on_selector_all(
            "[data-pile]", "els => els.map(e => e.getBoundingClientRect().toJSON())"
        )
        assert max(b["right"] for b in boxes) <= PHONE_LANDSCAPE["width"]
        span = max(b["right"] for b in boxes) - min(b["left"] for b in boxes)
        assert span >= 0.75 * PHONE_LANDSCAPE["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-phone-landscape-18.png"))
    finally:
        context.close()
    # A phone upright, large print: touch targets of 44 px, the rules in the header, and
    # "10" clear of its suit.
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/privacy")
        page.evaluate(
            "localStorage.setItem('eightoff.settings', JSON.stringify({largePrint: true}))"
        )
        open_game(page, server)
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        for box in page.eval_on_selector_all(
            ".bar button, .bar .button, #btn-code",
            "els => els.map(e => e.getBoundingClientRect().toJSON())",
        ):
            assert box["width"] >= 44 and box["height"] >= 44, box
        assert page.locator(".bar a.button").is_visible()
        gaps = page.eval_on_selector_all(
            ".card .idx .ten",
            """els => els.map(ten => {
                const range = document.createRange();
                range.selectNodeContents(ten);
                return ten.nextElementSibling.getBoundingClientRect().left
                    - range.getBoundingClientRect().right;
            })""",
        )
        assert len(gaps) == 4 and min(gaps) >= 1, gaps
        page.click("#btn-new")
        page.wait_for_selector("#dlg-new[open] #new-rules fieldset")
        labels = page.eval_on_selector_all(
            "#dlg-new fieldset label", "els => els.map(e => e.getBoundingClientRect().toJSON())"
        )
        assert len(labels) >= 10 and min(box["height"] for box in labels) >= 44, labels
        # Every field stays inside the dialog, the preset list (long option names) too.
        dialog = page.locator("#dlg-new").bounding_box()
        for field in ("#new-preset", "#dlg-new select[name='difficulty']"):
            box = page.locator(field).bounding_box()
            assert box["x"] + box["width"] <= dialog["x"] + dialog["width"], field
    finally:
        context.close()


def test_a_card_taken_back_with_autoplay_on_stays_out(page: Any, server: str) -> None:
    from eightoff.rules import PRESETS

    app_rules = PRESETS["app"]
    code = next(
        c
        for c in (GameCode(app_rules, n) for n in range(1000))
        if any(col[-1].rank == 1 for col in c.position().columns)
    )
    pos = code.position()
    open_game(page, server, str(code))
    page.click("#btn-options")
    page.check("#form-options input[name='autoplay']")  # the ace goes home at once
    page.click("#form-options button[type='submit']")
    home = autoplay_moves(pos)
    wait_moves(page, len(home))
    for move in home:
        top = pos.moving_cards(move)[0]  # the last one home is on top of its foundation
        pos = pos.apply(move)
    free = next(k for k, c in enumerate(pos.cells) if c is None)
    drag(page, str(top), f"cell-{free + 1}")  # taken back from its foundation
    wait_moves(page, len(home) + 1)
    assert pile_of(page, str(top)) == f"cell-{free + 1}"  # and not sent straight home again


def test_moves_go_to_the_server_as_their_notation_and_old_saved_games_load(
    page: Any, server: str, line: list[Move]
) -> None:
    # A game saved before moves carried their notation (objects only) resumes; the moves
    # played since go to the server as the compact notation it gave them ("3a") where the
    # server answers them (a page without the kernel).
    server_only(page)
    pos = GameCode.parse(CODE).position()
    old = []
    for move in line[:6]:
        old.append([move_to_json(move, pos)])
        pos = pos.apply(move)
    saved = {
        "code": CODE,
        "rules": STANDARD.to_json(),
        "rulesText": STANDARD.describe(),
        "winnable": True,
        "actions": old,
        "redo": [],
        "elapsed": 0,
    }
    open_game(page, server)
    page.goto(f"{server}/privacy")  # away from the game, which saves itself on leaving
    page.evaluate("g => localStorage.setItem('eightoff.game', JSON.stringify(g))", saved)
    sent: list[Any] = []
    page.on(
        "request",
        lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/api/state") else None,
    )
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert moves_played(page) == 6
    for card, place in ((c, column(i)) for i, col in enumerate(pos.columns) for c in col[-1:]):
        assert pile_of(page, str(card)) == label(place, card)
    move = line[6]
    play_by_drag(page, pos, move)
    assert sent[-1]["moves"][:6] == [a[0] for a in old]  # as saved: objects
    assert sent[-1]["moves"][6:] == [move.text()]  # as the server wrote it


# -- statistics a player can trust ---------------------------------------------------------


def stats_of(page: Any) -> list[dict[str, Any]]:
    return list(json.loads(page.evaluate("localStorage.getItem('eightoff.stats')")).values())


def peek_at_the_solution(page: Any) -> None:
    """Solution, two steps, then "Return to my game": nothing of it is played."""
    before = int(page.evaluate("document.body.dataset.moves"))
    page.click("#btn-solution")
    page.wait_for_selector("#solution:not([hidden])")
    for k in (1, 2):
        page.click("#sol-fwd")
        page.wait_for_function(
            "k => document.getElementById('sol-text').textContent.includes(`${k} of`)", arg=k
        )
    page.click("#sol-return")
    page.wait_for_selector("#solution[hidden]", state="attached")
    wait_moves(page, before)


# -- statistics ----------------------------------------------------------------------------


def test_a_win_after_reading_the_solution_counts_as_helped(
    page: Any, server: str, line: list[Move]
) -> None:
    k = finish_point(line)
    preload(page, server, CODE, [[m] for m in line[:k]])
    peek_at_the_solution(page)
    page.click("#btn-finish")  # the rest by hand
    page.wait_for_selector("#celebrate:not([hidden])")
    (entry,) = stats_of(page)
    assert (entry["won"], entry.get("helped"), entry["streak"], entry["bestTime"]) == (
        0,
        1,
        0,
        None,
    )


def test_a_hint_counts_as_help(page: Any, server: str, line: list[Move]) -> None:
    k = finish_point(line)
    preload(page, server, CODE, [[m] for m in line[:k]])
    page.click("#btn-hint")
    page.wait_for_selector(".card.hint")
    page.click("#btn-finish")
    page.wait_for_selector("#celebrate:not([hidden])")
    (entry,) = stats_of(page)
    assert (entry["won"], entry.get("helped")) == (0, 1)


def test_a_restarted_game_won_without_help_is_a_win(
    page: Any, server: str, line: list[Move]
) -> None:
    page.emulate_media(reduced_motion="reduce")  # cards jump: no waiting for each slide
    preload(page, server, CODE, [[m] for m in line[:3]])
    page.click("#btn-solution")  # the solver's moves played into the game: helped
    page.wait_for_selector("#solution:not([hidden])")
    page.click("#sol-fwd")
    page.wait_for_function("() => document.getElementById('sol-text').textContent.includes('1 of')")
    page.click("#sol-keep")
    wait_moves(page, 4)
    page.click("#btn-restart")
    page.click("#confirm-yes")
    wait_moves(page, 0)
    pos = GameCode.parse(CODE).position()
    for move in line:
        pos = play_by_drag(page, pos, move)
    page.wait_for_selector("#celebrate:not([hidden])")
    (entry,) = stats_of(page)
    assert (entry["won"], entry.get("helped", 0), entry["streak"]) == (1, 0, 1)


# -- one action per gesture --------------------------------------------------------------


def test_a_double_tap_on_a_card_that_goes_home_is_one_action(browser: Any, server: str) -> None:
    # Deal 130: column 6 ends 2♥ A♥. The first tap sends A♥ home; the second lands on 2♥,
    # bared beneath it, and must not send it home too.
    code = str(GameCode(STANDARD, 130))
    column6 = GameCode.parse(code).position().columns[5]
    assert [str(c) for c in column6[-2:]] == ["2H", "AH"]
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    try:
        open_game(page, server, code)
        box = page.locator('[data-card="AH"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        for _ in range(2):
            cdp.send(
                "Input.dispatchTouchEvent",
                {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
            )
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        wait_moves(page, 1)
        page.wait_for_timeout(600)  # past the double-tap time: nothing else comes
        page.wait_for_selector("body[data-busy='0']")
        assert moves_played(page) == 1
        assert pile_of(page, "AH") == "foundation-H"
        assert pile_of(page, "2H") == "column-6"
    finally:
        context.close()


# -- a board that never moves under the finger ------------------------------------------------

# Deal 8: column 6 ends Q♥ J♥, so J♥ goes to cell e and back as often as wanted.
SHUFFLE_CODE = str(GameCode(STANDARD, 8))
SHUFFLE = [Move.from_text("6e"), Move.from_text("e6")]


def board_top(page: Any) -> tuple[float, float, float]:
    """The board's top, and the heights of the header and the status above it."""
    return tuple(
        page.evaluate(
            """() => ['#board', '.bar', '.status'].map((s, i) => {
                const r = document.querySelector(s).getBoundingClientRect();
                return i ? r.height : r.top;
            })"""
        )
    )


@pytest.mark.parametrize("viewport", [PHONE, PHONE_LANDSCAPE], ids=["portrait", "landscape"])
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_boards_top_never_moves(
    browser: Any, server: str, line: list[Move], viewport: dict[str, int], locale: str
) -> None:
    """From a fresh deal to 100 moves at 10:00, a win, a stuck game and the solution, the
    board starts at the same height: a tap never lands on another card than aimed at."""
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, locale=locale)
    page = context.new_page()
    try:
        open_game(page, server)
        top = board_top(page)
        tops: dict[str, tuple[float, float, float]] = {}
        preload(page, server, SHUFFLE_CODE, [[SHUFFLE[k % 2]] for k in range(100)], elapsed=600_000)
        assert page.locator("#moves").inner_text() == "100"
        assert page.locator("#time").inner_text() == "10:00"
        tops["100 moves at 10:00"] = board_top(page)
        preload(page, server, CODE, [[m] for m in line], won=True)
        assert page.locator("#st-state").inner_text() in ("Won!", "Gagné !")
        tops["won"] = board_top(page)
        open_game(page, server, STUCK_CODE)
        assert page.locator("#st-state").inner_text() in ("Stuck", "Bloqué")
        tops["stuck"] = board_top(page)
        open_game(page, server)
        page.click("#btn-solution")
        page.wait_for_selector("#solution:not([hidden])")
        page.click("#sol-fwd")
        page.wait_for_function("() => document.body.dataset.busy === '0'")
        assert page.locator("#st-view").is_visible()
        tops["solution"] = board_top(page)
        assert tops == dict.fromkeys(tops, top)
    finally:
        context.close()


COVERED_BY_THE_SOLUTION_BAR = """() => {
    const bar = document.getElementById("solution").getBoundingClientRect();
    return [...document.querySelectorAll("[data-card]")].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < bar.right && r.right > bar.left && r.top < bar.bottom && r.bottom > bar.top;
    }).map((el) => el.dataset.card);
}"""


@pytest.mark.parametrize("viewport", [PHONE_LANDSCAPE, PHONE], ids=["landscape", "portrait"])
def test_the_solution_bar_covers_no_card_on_a_phone(
    browser: Any, server: str, viewport: dict[str, int]
) -> None:
    """An 18-card column reaches the foot of the window: held sideways the bar lies where no
    card is, upright the columns make room above it; its buttons still at every step."""
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        preload(page, server, TALL_CODE, [[Move.from_text(t)] for t in TALL_MOVES])
        page.click("#btn-solution")
        page.wait_for_selector("#solution:not([hidden])")
        start = solution_boxes(page)
        for k in range(4):
            assert page.evaluate(COVERED_BY_THE_SOLUTION_BAR) == [], f"step {k}"
            bar = page.locator("#solution").bounding_box()
            assert bar["y"] + bar["height"] <= viewport["height"]
            assert solution_boxes(page) == start
            page.click("#sol-fwd")
            page.wait_for_function(
                "k => document.getElementById('sol-text').textContent.includes(`step ${k} of`)",
                arg=k + 1,
            )
        ARTIFACTS.mkdir(exist_ok=True)
        size = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(ARTIFACTS / f"web-phone-solution-{size}.png"))
    finally:
        context.close()


# -- what a screen reader meets ---------------------------------------------------------------


def accessibility_tree(page: Any) -> list[dict[str, Any]]:
    """The page's accessibility tree as chromium builds it (the nodes not ignored)."""
    nodes = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")["nodes"]
    return [n for n in nodes if not n.get("ignored")]


def test_no_control_inside_a_control_and_the_spare_foundation_card_is_hidden(
    page: Any, server: str
) -> None:
    code = str(GameCode(STANDARD, 130))  # column 6 ends 2♥ A♥: both go home
    open_game(page, server, code)
    for card, n in (("AH", 1), ("2H", 2)):
        page.locator(f'[data-card="{card}"]').click()  # a click sends a card home
        wait_moves(page, n)
        page.wait_for_timeout(500)  # no double click
    assert pile_of(page, "AH") == "foundation-H"  # under 2♥, shown only when it is dragged
    nodes = accessibility_tree(page)
    by_id = {n["nodeId"]: n for n in nodes}
    controls = {"button", "link", "textbox", "checkbox", "combobox"}

    def role(node: dict[str, Any]) -> str:
        return str(node.get("role", {}).get("value", ""))

    nested = []
    for node in nodes:
        if role(node) not in controls:
            continue
        parent = by_id.get(node.get("parentId", ""))
        while parent is not None:
            if role(parent) in controls:
                nested.append((role(parent), parent.get("name", {}).get("value")))
            parent = by_id.get(parent.get("parentId", ""))
    assert nested == []
    names = [str(n.get("name", {}).get("value", "")) for n in nodes]
    assert any(name.startswith("2 of hearts, on the") for name in names)
    assert not any(name.startswith("ace of hearts") for name in names)
    # Every card of the columns is a button of its own, in a named group.
    groups = [n for n in nodes if role(n) == "group"]
    columns = [str(n.get("name", {}).get("value")) for n in groups]
    assert sum(name.startswith("column ") and name.endswith(" cards") for name in columns) == 8


# -- delivery -----------------------------------------------------------------------------------


def test_the_page_and_the_json_come_compressed_and_cached(page: Any, server: str) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    first = page.request.get(f"{server}/", headers=gzip)
    assert first.status == 200 and first.headers["content-encoding"] == "gzip"
    assert first.headers["cache-control"] == "no-cache"
    again = page.request.get(f"{server}/", headers={"If-None-Match": first.headers["etag"]})
    assert again.status == 304 and again.body() == b""
    moves = page.request.post(
        f"{server}/api/state", data={"code": CODE, "moves": ["1e"]}, headers=gzip
    )
    assert moves.status == 200 and moves.headers["content-encoding"] == "gzip"
    assert moves.json()["moves_applied"] == 1
    style = page.request.get(f"{server}/static/style.css", headers=gzip)
    assert style.headers["cache-control"] == "no-cache" and style.headers["etag"]
    # Every module the game loads is preloaded at once, and nothing else is.
    served: list[str] = []
    page.on("request", lambda r: served.append(r.url) if r.url.endswith(".js") else None)
    open_game(page, server)
    preloaded = page.eval_on_selector_all(
        "link[rel=modulepreload]", "links => links.map((l) => l.getAttribute('href'))"
    )
    assert preloaded[0] == "/static/main.js" and len(preloaded) >= 15
    # The worker's own modules (the game service on the kernel) load in the worker (loaded
    # by now: the game was dealt there).
    worker = {
        url
        for url in served
        if "/static/local/" in url or url.endswith(("/worker.js", "/kernel.js"))
    }
    assert sorted(preloaded) == sorted({url.removeprefix(server) for url in set(served) - worker})
    assert {url.removeprefix(server) for url in worker} >= {
        "/static/worker.js",
        "/static/local/service.js",
    }


# -- polish -------------------------------------------------------------------------------------


def test_a_whole_game_with_refused_drops_logs_no_error_and_the_win_stays(
    page: Any, server: str, line: list[Move]
) -> None:
    """A refusal is an answer, not an error: no red line in the console in a whole game; the
    win shows until the player closes it."""
    page.emulate_media(reduced_motion="reduce")  # cards jump: no waiting for each slide
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    pos = GameCode.parse(CODE).position()
    open_game(page, server)
    i, j = refused_drop(pos)
    drag(page, str(pos.columns[i][-1]), f"column-{j + 1}")  # the server says why not
    toast_text(page, "cannot go there: ")
    for move in line:
        pos = play_by_drag(page, pos, move)
    page.wait_for_selector("#celebrate:not([hidden])")
    page.wait_for_timeout(6500)
    assert page.locator("#celebrate").is_visible()  # until dismissed
    page.keyboard.press("Escape")
    assert page.locator("#celebrate").is_hidden()
    assert console == []


def caption(page: Any, selector: str) -> str:
    """What a pile or a group of piles says on the board (its ::after text)."""
    return str(page.locator(selector).evaluate("el => getComputedStyle(el, '::after').content"))


def test_a_first_run_names_the_cells_and_foundations_and_the_stuck_buttons_stand_apart(
    browser: Any, server: str
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        open_game(page, server)  # a first visit: nothing saved yet
        assert caption(page, "#board .foundations") == '"Foundations"'
        assert caption(page, "[data-pile='cell-5']") == '"Cell"'
        open_game(page, server, STUCK_CODE)  # a game saved already: no captions
        assert caption(page, "#board .foundations") == "none"
        first, second = (
            page.locator("#banner-actions button").nth(k).bounding_box() for k in (0, 1)
        )
        apart = max(
            second["x"] - first["x"] - first["width"], second["y"] - first["y"] - first["height"]
        )
        assert apart >= 6
    finally:
        context.close()


def card_width(page: Any) -> float:
    return float(page.locator("[data-card]").first.bounding_box()["width"])


def test_cards_keep_their_size_when_a_column_passes_eleven_cards(browser: Any, server: str) -> None:
    """On a phone a column of 13 cards closes its fan (every rank still whole) rather than
    shrinking every card on the board (a desktop window trims them a few percent at most);
    one of 18 still fits the window."""
    long_pos = GameCode.parse(LONG_CODE).position()
    long_moves = [Move.from_text(t) for t in LONG_MOVES]
    for move in long_moves:
        long_pos = long_pos.apply(move)
    tall_pos = GameCode.parse(TALL_CODE).position()
    tall_moves = [Move.from_text(t) for t in TALL_MOVES]
    for move in tall_moves:
        tall_pos = tall_pos.apply(move)
    for viewport in (PHONE_LANDSCAPE, PHONE, DESKTOP):
        phone = viewport != DESKTOP
        context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
        page = context.new_page()
        try:
            open_game(page, server)
            width = card_width(page)
            preload(page, server, LONG_CODE, [[m] for m in long_moves])
            assert card_width(page) == width if phone else card_width(page) >= 0.95 * width
            assert_columns_fit(page, long_pos, viewport)
            preload(page, server, TALL_CODE, [[m] for m in tall_moves])
            assert_columns_fit(page, tall_pos, viewport)
        finally:
            context.close()


# -- features of the best sites ---------------------------------------------------------------

SHARE_SHEET = """() => {
    window.shared = [];
    navigator.share = async (data) => { window.shared.push(data); };
}"""


def test_the_share_sheet_where_the_browser_has_one(
    browser: Any, server: str, line: list[Move]
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        open_game(page, server)
        page.click("#btn-code")
        has_sheet = page.evaluate("typeof navigator.share === 'function'")
        assert page.locator("#code-share").is_visible() == has_sheet  # none: no button
        page.add_init_script(f"({SHARE_SHEET})()")
        preload(page, server, CODE, [[m] for m in line[: finish_point(line)]])
        page.click("#btn-code")
        page.click("#code-share")
        page.wait_for_function("() => window.shared.length === 1")
        shared = page.evaluate("window.shared[0]")
        assert shared["url"].endswith(f"/?code={CODE}") and CODE in shared["text"]
        page.keyboard.press("Escape")
        page.click("#btn-finish")
        page.click("#celebrate-share-btn")
        page.wait_for_function("() => window.shared.length === 2")
        assert "won" in page.evaluate("window.shared[1].text")
        assert page.locator("#celebrate").is_visible()  # sharing does not close the win
    finally:
        context.close()


SOUND_COUNTER = """() => {
    window.tones = 0;
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
        createOscillator() {
            const tone = super.createOscillator();
            const start = tone.start.bind(tone);
            tone.start = (...args) => { window.tones += 1; start(...args); };
            return tone;
        }
    };
}"""


def test_left_handed_layout_and_an_optional_sound(browser: Any, server: str) -> None:
    for viewport in (DESKTOP, PHONE_LANDSCAPE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.add_init_script(f"({SOUND_COUNTER})()")
        try:
            pos = GameCode.parse(CODE).position()
            open_game(page, server)
            x = {
                group: page.locator(f"#board .{group}").bounding_box()["x"]
                for group in ("foundations", "cells", "tableau")
            }
            assert x["foundations"] < x["tableau"] <= x["cells"]  # right-handed: cells right
            pos = play_by_drag(page, pos, first_cell_move(pos))
            assert page.evaluate("window.tones") == 0  # no sound unless asked for
            page.click("#btn-options")
            page.check("#form-options input[name='leftHanded']")
            page.check("#form-options input[name='sound']")
            page.click("#form-options button[type='submit']")
            mirrored = {
                group: page.locator(f"#board .{group}").bounding_box()["x"]
                for group in ("foundations", "cells", "tableau")
            }
            assert mirrored["cells"] <= mirrored["tableau"] < mirrored["foundations"]
            play_by_drag(page, pos, first_cell_move(pos))
            assert page.evaluate("window.tones") == 1  # a tick for the move
            if viewport == PHONE_LANDSCAPE:  # the solution bar in the room beside the columns
                page.click("#btn-solution")
                page.wait_for_selector("#solution.aside:not([hidden])")
                assert page.evaluate(COVERED_BY_THE_SOLUTION_BAR) == []
        finally:
            context.close()
