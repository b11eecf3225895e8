"""The pieces around the app: the guard (Host header, body size and time, security
headers), HEAD answered as GET, and long replays answered in a process of their own."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any, Final

import anyio.to_thread
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eightoff.web.errors import BODY_KEY, error
from eightoff.web.solving import SolverProcesses

_HOST: Final = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::[0-9]{1,5})?")


# 'wasm-unsafe-eval' lets the page and its workers compile kernel.wasm (and nothing else:
# no eval of JavaScript); without it browsers refuse WebAssembly under script-src.
_CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
_HEADERS: Final = (
    (b"content-security-policy", _CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


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


class HeavyReplays:
    """Answer ``POST /api/state`` bodies of ``min_body`` bytes or more (games of a few
    thousand moves) in a replay process, at most ``most`` at once (past it, 429).

    Reading, checking and replaying a 10,000-move game holds an interpreter for tens of
    milliseconds; done in the server, short requests would wait for it at every turn of
    the interpreter lock. The replay process runs the same app, so its answer is the one
    the server would give; the server only passes the bytes on. Sits inside the guard,
    which has read the body and adds the security headers.
    """

    def __init__(
        self,
        app: ASGIApp,
        processes: SolverProcesses,
        min_body: int,
        most: int,
        replay_app: Callable[[], ASGIApp],
    ):
        self.app = app
        self.processes = processes
        self.replay_app = replay_app  # the app the replay process answers with (picklable)
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
                self.processes.run, heavy_state, body, kind, self.replay_app
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


class Guard:
    """Refuse request bodies over ``max_body`` bytes with 413 (reading at most that much),
    and add the security headers to every response (a plain ASGI middleware: cheap)."""

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        body_seconds: float,
        hosts: frozenset[str] | None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(_HEADERS)
        if scope["path"].startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        headers = dict(scope["headers"])
        host = host_header(scope["headers"])
        if host is None or (self.hosts is not None and host not in self.hosts):
            why = (
                "a request needs one Host header of the form name[:port]"
                if host is None
                else f"this server does not answer for the host {host!r} "
                "(eightoff serve --allowed-host NAME adds a name)"
            )
            await error(400, why)(scope, receive, send_with_headers)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send_with_headers)
            return
        too_big = error(413, f"request body too large: at most {self.max_body} bytes")
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await too_big(scope, receive, send_with_headers)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        deadline = asyncio.get_running_loop().time() + self.body_seconds
        while more:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:  # a stalled body: answer, and the connection closes
                late = error(
                    408,
                    f"the request body did not arrive within {self.body_seconds:g} s",
                    {"Connection": "close"},
                )
                await late(scope, receive, send_with_headers)
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await too_big(scope, receive, send_with_headers)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        scope[BODY_KEY] = body  # for the message about a body that is not JSON
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


def heavy_state(
    body: bytes, content_type: bytes | None, replay_app: Callable[[], ASGIApp]
) -> tuple[int, bytes]:
    """``POST /api/state`` with ``body``, answered by ``replay_app()`` in this (replay)
    process: its status and JSON body."""
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

    async def answer() -> None:
        await replay_app()(scope, receive, send)

    asyncio.run(answer())
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


__all__ = [
    "Guard",
    "HeadAsGet",
    "HeavyReplays",
    "heavy_state",
    "host_header",
    "post_scope",
]
