"""The page in a real browser: the app served by uvicorn, a player's hand on the mouse,
what the page says on screen."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from eightoff.cards import SUIT_LETTERS
from eightoff.codes import GameCode
from eightoff.formats import move_to_json
from eightoff.moves import Move, Place, PlaceKind, column
from eightoff.position import Position
from eightoff.rules import STANDARD

CODE = str(GameCode(STANDARD, 0))
"""The game most browser tests play: the standard game's deal 0."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Debian's chromium as the tests launch it (no sandbox as root, no network of its own)."""


def serve_app(app: Any) -> Iterator[str]:
    """Run the ASGI ``app`` on a free port in a thread; its address."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def grab_point(page: Any, card: str) -> tuple[float, float]:
    """Where a player presses to take ``card``: its top strip, once no other card is over it.

    A card still sliding to its new place lets presses through (style.css): the player waits
    for this card to land and for nothing to rest over its strip, as this does."""
    point = page.wait_for_function(
        """card => {
          const el = document.querySelector(`[data-card="${card}"]`);
          const r = el && el.getBoundingClientRect();
          if (!r) return null;
          const x = r.left + r.width / 2, y = r.top + 6;
          const top = document.elementFromPoint(x, y);
          return top && top.closest(".card") === el ? [x, y] : null;
        }""",
        arg=card,
    ).json_value()
    return float(point[0]), float(point[1])


def drag(page: Any, card: str, pile: str) -> None:
    """Drag ``card`` (by its visible top strip) onto ``pile`` with the mouse."""
    x, y = grab_point(page, card)
    target = page.locator(f'[data-pile="{pile}"]').bounding_box()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()


def toast_text(page: Any, *words: str) -> str:
    """Wait for the on-screen message containing every one of ``words``; its text."""
    page.wait_for_function(
        "words => { const t = document.getElementById('toast');"
        " return t.matches(':popover-open') && words.every(w => t.textContent.includes(w)); }",
        arg=list(words),
    )
    return str(page.locator("#toast").inner_text())


def refused_drop(pos: Position) -> tuple[int, int]:
    """Columns (0-based) i, j: i's exposed card can move, but not onto column j."""
    legal = pos.legal_moves()
    return next(
        (i, j)
        for i in range(8)
        for j in range(8)
        if i != j
        and pos.columns[j]
        and any(m.source == column(i) for m in legal)
        and Move(column(i), column(j)) not in legal
    )


def chromium() -> Iterator[Any]:
    """Debian's chromium under Playwright (a module fixture's body)."""
    import shutil

    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def watched_page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A page in a context of its own, ``viewport`` wide and high; no script error may
    happen on it (a fixture's body)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def winning_line(code: str) -> list[Move]:
    """The solver's winning line for the deal of ``code``."""
    from eightoff.solver import Limit, solve

    result = solve(GameCode.parse(code).position(), limit=Limit(nodes=200_000, seconds=None))
    assert result.solved
    return list(result.moves)


# -- the game on the page ----------------------------------------------------------------


def open_game(page: Any, server: str, code: str = CODE) -> None:
    """Open the page on the game ``code`` (a share link) and wait until it is drawn."""
    page.goto(f"{server}/?code={code}")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")


def server_only(page: Any) -> None:
    """The page without its kernel (as in a browser without WebAssembly): kernel.wasm does
    not load, so the server answers every move, as it did before the page computed them."""
    page.context.route("**/static/kernel.wasm", lambda route: route.abort())


def moves_played(page: Any) -> int:
    """How many moves the page says are played."""
    return int(page.evaluate("document.body.dataset.moves"))


def wait_moves(page: Any, n: int) -> None:
    """Wait until ``n`` moves are played and drawn, no card sliding; else say what shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "n => document.body.dataset.moves === String(n) && document.body.dataset.busy === '0'"
            " && !document.querySelector('.card.flip')",  # and no card still sliding into place
            arg=n,
        )
    except PlaywrightTimeout:
        # What the page shows then: which of the three it never reached.
        seen = page.evaluate(
            "({moves: document.body.dataset.moves, busy: document.body.dataset.busy,"
            " sliding: document.querySelectorAll('.card.flip').length,"
            " said: document.getElementById('live').textContent,"  # what the page told the player
            " toast: document.getElementById('toast').textContent})"
        )
        raise AssertionError(f"{n} moves never settled on the page: {seen}") from None


def label(place: Place, card: Any) -> str:
    """The page's label of the pile ``place`` (a foundation: ``card``'s suit's)."""
    if place.kind is PlaceKind.FOUNDATION:
        return f"foundation-{SUIT_LETTERS[card.suit]}"
    return f"{place.kind.value}-{place.index + 1}"


def pile_of(page: Any, card: str) -> str:
    """The pile ``card`` is drawn in."""
    return str(
        page.locator(f'[data-card="{card}"]').evaluate("el => el.closest('.pile').dataset.pile")
    )


def play_by_drag(page: Any, pos: Position, move: Move) -> Position:
    """Play ``move`` by dragging its card; the position after it."""
    card = pos.moving_cards(move)[0]
    before = moves_played(page)
    drag(page, str(card), label(move.target, card))
    wait_moves(page, before + 1)
    return pos.apply(move)


def preload(page: Any, server: str, code: str, actions: list[list[Move]], **extra: Any) -> None:
    """Open the page with ``actions`` (lists of moves) already played, as a reload would
    (``extra``: more fields of the saved game, e.g. ``elapsed``)."""
    start = GameCode.parse(code)
    pos = start.position()
    stored: list[list[dict[str, Any]]] = []
    for action in actions:
        stored.append([])
        for move in action:
            stored[-1].append(move_to_json(move, pos))
            pos = pos.apply(move)
    game = {
        "code": code,
        "rules": start.rules.to_json(),
        "rulesText": start.rules.describe(),
        "winnable": True,
        "actions": stored,
        "redo": [],
        "elapsed": 0,
        "counted": True,
        "won": False,
    } | extra
    page.goto(f"{server}/privacy")
    page.evaluate("g => localStorage.setItem('eightoff.game', JSON.stringify(g))", game)
    page.goto(f"{server}/")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")


def finish_point(line: list[Move]) -> int:
    """How many moves of ``line`` come before the foundation moves that end it."""
    k = len(line)
    while k > 0 and line[k - 1].target.kind is PlaceKind.FOUNDATION:
        k -= 1
    return k
