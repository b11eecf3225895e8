"""Small ASGI pieces around the app: HEAD answered as GET, Host headers read strictly,
a malformed JSON body explained, and heavy replays kept from crowding out light ones."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eightoff.numbers import InvalidNumberError, json_int

BODY_KEY: Final = "eightoff.body"
"""Where the guard leaves a request's body in its ASGI scope (to explain a bad one)."""

_HOST: Final = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::[0-9]{1,5})?")
_DEPTH: Final = 64  # a body nesting deeper is called too deep, at the bracket that passes it


class HeadAsGet:
    """Answer ``HEAD`` wherever ``GET`` is answered: the app sees a GET, the client gets
    its status and headers (``Content-Length`` included) without the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def host_header(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The one Host header's name without its port, lower case (``[::1]`` keeps its
    brackets); ``None`` when there is none, more than one, or one that is not
    ``name[:port]`` (``localhost:evil.example``)."""
    found = [value for key, value in headers if key == b"host"]
    if len(found) != 1:
        return None
    text = found[0].decode("latin-1").strip().lower()
    m = _HOST.fullmatch(text)
    return None if m is None else m.group(1)


def malformed_json(body: bytes, cause: BaseException | None) -> str:
    """Why ``body`` could not be read as JSON, with the position: ``malformed JSON: …``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"malformed JSON: invalid UTF-8 ({exc.reason}) at position {exc.start}"
    where = _too_deep(text)
    if where is not None:
        return f"malformed JSON: nested more than {_DEPTH} levels deep at position {where}"
    for m in _NUMBER_OR_STRING.finditer(text):
        if m.group(1) is not None and m.group(2) is None:
            try:
                json_int(m.group(1))
            except InvalidNumberError as exc:
                return f"malformed JSON: {exc} at position {m.start(1)}"
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f"malformed JSON: {exc.msg} at position {exc.pos}"
    except (ValueError, RecursionError):
        pass
    return f"malformed JSON: {cause or 'cannot read the body'}"


_NUMBER_OR_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"|(-?[0-9]+)([.eE][0-9eE.+-]*)?')
_BRACKET: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]')


def _too_deep(text: str) -> int | None:
    """The position of the first bracket nesting past :data:`_DEPTH`, outside strings."""
    depth = 0
    for m in _BRACKET.finditer(text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > _DEPTH:
                return m.start()
        elif token in "]}":
            depth -= 1
    return None


class Gate:
    """At most ``slots`` heavy jobs at once (a thread waits for its turn): long replays
    take turns, so short requests keep the rest of the server."""

    def __init__(self, slots: int) -> None:
        self._slots = threading.BoundedSemaphore(slots)

    @contextmanager
    def turn(self, heavy: bool) -> Iterator[None]:
        """Within: this job's turn (a light job goes at once)."""
        if not heavy:
            yield
            return
        with self._slots:
            yield


__all__ = ["BODY_KEY", "Gate", "HeadAsGet", "host_header", "malformed_json"]
