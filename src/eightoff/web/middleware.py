"""Small pieces around the app: HEAD answered as GET, Host headers read strictly, a
malformed JSON body explained, and long replays answered in a process of their own."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import BrokenExecutor
from functools import cache
from typing import TYPE_CHECKING, Any, Final

import anyio.to_thread
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eightoff.numbers import InvalidNumberError, json_int
from eightoff.web.solving import SolverProcesses

if TYPE_CHECKING:
    from fastapi import FastAPI

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
    brackets), ``""`` when there is none; ``None`` when there are several, or one that
    is not ``name[:port]`` (``localhost:evil.example``)."""
    found = [value for key, value in headers if key == b"host"]
    if len(found) != 1:
        return "" if not found else None
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


class HeavyReplays:
    """Answer ``POST /api/state`` bodies of ``min_body`` bytes or more (games of a few
    thousand moves) in a replay process, at most ``most`` at once (past it, 429).

    Reading, checking and replaying a 10,000-move game holds an interpreter for tens of
    milliseconds; done in the server, short requests would wait for it at every turn of
    the interpreter lock. The replay process runs the same app, so its answer is the one
    the server would give; the server only passes the bytes on. Sits inside the guard,
    which has read the body and adds the security headers.
    """

    def __init__(self, app: ASGIApp, processes: SolverProcesses, min_body: int, most: int):
        self.app = app
        self.processes = processes
        self.min_body = min_body
        self.most = most
        self.running = 0  # only the event loop counts: no lock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = scope.get(BODY_KEY) if scope["type"] == "http" else None
        if body is None or len(body) < self.min_body or scope["path"] != "/api/state":
            await self.app(scope, receive, send)
            return
        if self.running >= self.most:
            busy = "too many long games are being replayed; try again in a moment"
            refused = JSONResponse({"error": busy}, 429, headers={"Retry-After": "1"})
            await refused(scope, receive, send)
            return
        self.running += 1
        try:
            kind = dict(scope["headers"]).get(b"content-type")
            status, answer = await anyio.to_thread.run_sync(
                self.processes.run, heavy_state, body, kind
            )
        except BrokenExecutor:
            stopped = "the replay stopped; try again in a moment"
            await JSONResponse({"error": stopped}, 503, headers={"Retry-After": "1"})(
                scope, receive, send
            )
            return
        finally:
            self.running -= 1
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(answer))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": answer})


def heavy_state(body: bytes, content_type: bytes | None) -> tuple[int, bytes]:
    """``POST /api/state`` with ``body``, answered by the app in this (replay) process:
    its status and JSON body."""
    kind = [] if content_type is None else [(b"content-type", content_type)]
    scope = post_scope("/api/state", kind)
    status = 500
    chunks: list[bytes] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    asyncio.run(_replay_app()(scope, receive, send))
    return status, b"".join(chunks)


def post_scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """The ASGI scope of a ``POST`` to ``path`` with ``headers``: for calling the app
    itself, without sockets."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
    }


@cache
def _replay_app() -> FastAPI:
    from eightoff.web.app import Limits, create_app

    return create_app(limits=Limits(heavy_body=0))  # answers here, sends nothing on


__all__ = [
    "BODY_KEY",
    "HeadAsGet",
    "HeavyReplays",
    "heavy_state",
    "host_header",
    "malformed_json",
    "post_scope",
]
