"""The page computes the game itself (its worker runs the kernel in WebAssembly): moves by
drag and tap, undo, redo, a hint and Finish ask the server nothing; every move is kept at
once; a bad share link says what is wrong in the server's own words, in English and French;
a page without the kernel plays on the server as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.moves import Move, PlaceKind
from eightoff.position import Position
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
    serve_app,
    server_only,
    wait_moves,
    watched_page,
    winning_line,
)
from support.local import WASM

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.chromium,
    pytest.mark.skipif(not WASM.exists(), reason="kernel.wasm was not built (make wasm)"),
]
BAD_CODE = "EO1-C8-AAAA0FA"  # a zero for the letter O


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from eightoff.web.app import create_app

    yield from serve_app(create_app(seed=5))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, {"width": 1280, "height": 800})


@pytest.fixture(scope="module")
def line() -> list[Move]:
    return winning_line(CODE)


def api_requests(page: Any) -> list[str]:
    """The API requests the page (or its workers) makes from now on, as they go: each its
    address and body."""
    sent: list[str] = []
    page.on(
        "request", lambda r: sent.append(f"{r.url} {r.post_data}") if "/api/" in r.url else None
    )
    return sent


def tap_home(page: Any, pos: Position, move: Move) -> Position:
    """Send the card of ``move`` (a move home) to its foundation by a click."""
    card = str(pos.moving_cards(move)[0])
    before = moves_played(page)
    page.mouse.click(*grab_point(page, card))
    wait_moves(page, before + 1)
    page.wait_for_timeout(450)  # past the double-click time: the next click is a click
    return pos.apply(move)


def test_twenty_moves_by_drag_and_tap_ask_the_server_nothing(
    page: Any, server: str, line: list[Move]
) -> None:
    open_game(page, server)
    sent = api_requests(page)
    pos = GameCode.parse(CODE).position()
    tapped = 0
    for move in line[:20]:
        single_home = move.target.kind is PlaceKind.FOUNDATION and move.count == 1
        if single_home and pos.moving_cards(move)[0] == pos.top(move.source):
            pos = tap_home(page, pos, move)
            tapped += 1
        else:
            pos = play_by_drag(page, pos, move)
    assert tapped > 0 and moves_played(page) == 20
    for i, col in enumerate(pos.columns):
        assert [pile_of(page, str(c)) for c in col] == [f"column-{i + 1}"] * len(col)
    assert page.locator("#score").inner_text() == str(10 * sum(pos.foundations))
    assert sent == []


def test_undo_redo_hint_and_finish_ask_the_server_nothing(
    page: Any, server: str, line: list[Move]
) -> None:
    k = finish_point(line)
    preload(page, server, CODE, [[m] for m in line[: k - 2]])
    sent = api_requests(page)
    pos = GameCode.parse(CODE).position()
    for move in line[: k - 2]:
        pos = pos.apply(move)
    card = pos.moving_cards(line[k - 2])[0]
    pos = play_by_drag(page, pos, line[k - 2])
    page.click("#btn-undo")
    wait_moves(page, k - 2)
    assert pile_of(page, str(card)) == label(line[k - 2].source, card)
    page.keyboard.press("Control+y")
    wait_moves(page, k - 1)
    assert pile_of(page, str(card)) == label(line[k - 2].target, card)
    page.click("#btn-hint")  # the solver, in the page's second worker
    page.wait_for_selector(".card.hint")
    page.wait_for_function("() => document.getElementById('live').textContent.startsWith('Hint:')")
    pos = play_by_drag(page, pos, line[k - 1])
    page.click("#btn-finish")
    page.wait_for_selector("#celebrate:not([hidden])")
    assert page.locator("#st-state").inner_text() == "Won!"
    assert page.locator("#score").inner_text() == "520"
    assert sent == []


def test_five_quick_drags_then_a_reload_keep_all_five(
    page: Any, server: str, line: list[Move]
) -> None:
    open_game(page, server)
    pos = GameCode.parse(CODE).position()
    for move in line[:5]:
        card = str(pos.moving_cards(move)[0])
        drag(page, card, label(move.target, pos.moving_cards(move)[0]))
        pos = pos.apply(move)
    page.reload()  # at once: no wait for the moves to be answered
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    assert moves_played(page) == 5
    for i, col in enumerate(pos.columns):
        assert [pile_of(page, str(c)) for c in col] == [f"column-{i + 1}"] * len(col)


def _notice_for(browser: Any, server: str, locale: str, *, local: bool) -> tuple[str, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    page = context.new_page()
    try:
        if not local:
            server_only(page)
        sent = api_requests(page)
        page.goto(f"{server}/?code={BAD_CODE}")
        page.wait_for_selector("#notice:not([hidden])")
        page.wait_for_selector("body[data-ready='1'][data-busy='0']")
        return page.locator("#notice-text").inner_text(), sent
    finally:
        context.close()


def test_a_malformed_share_link_says_what_the_server_says_in_english_and_french(
    browser: Any, server: str
) -> None:
    with pytest.raises(InvalidGameCodeError) as error:
        GameCode.parse(BAD_CODE)
    english, sent = _notice_for(browser, server, "en-GB", local=True)
    assert english == f"Could not start that game: unknown game code: {error.value}"
    assert "a digit '0' where a letter A-Z belongs in the deal number (did you mean O?)" in english
    assert not [r for r in sent if BAD_CODE in r]  # read in the page
    french, _ = _notice_for(browser, server, "fr-FR", local=True)
    assert french == (
        "Impossible de commencer cette partie : ce code de partie ne se lit pas : un chiffre "
        "« 0 » là où le numéro de donne attend une lettre A-Z (vouliez-vous dire O ?)"
    )
    # Word for word what a page without the kernel shows from the server's refusal.
    assert (english, french) == tuple(
        _notice_for(browser, server, locale, local=False)[0] for locale in ("en-GB", "fr-FR")
    )


def test_a_page_without_the_kernel_plays_on_the_server(
    page: Any, server: str, line: list[Move]
) -> None:
    server_only(page)
    open_game(page, server)
    sent = api_requests(page)
    pos = GameCode.parse(CODE).position()
    for move in line[:3]:
        pos = play_by_drag(page, pos, move)
    assert sum("/api/state " in r for r in sent) == 3
