"""The page in a real browser: the app served by uvicorn, a player's hand on the mouse,
what the page says on screen."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from eightoff.moves import Move, column
from eightoff.position import Position


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
