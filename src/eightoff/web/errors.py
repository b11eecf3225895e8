"""Refused requests: :class:`ApiError`, the JSON error answer, and the app's handlers
that turn every bad input (bad values, unreadable bodies, unknown paths) into a 4xx."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from eightoff.errors import EightOffError
from eightoff.numbers import InvalidNumberError, json_int
from eightoff.web.delivery import STATIC, html_page

BODY_KEY: Final = "eightoff.body"
"""Where the guard leaves a request's body in its ASGI scope (to explain a bad one)."""
_DEPTH: Final = 64  # a body nesting deeper is called too deep, at the bracket that passes it


class ApiError(Exception):
    """A request the API refuses: an HTTP status, a one-line message and extra fields."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def ok(data: dict[str, Any]) -> JSONResponse:
    """A 200 answer of plain JSON."""
    # Answer the plain-JSON dict as is: FastAPI's generic encoder would walk it again.
    return JSONResponse(data)


NOT_TEXT: Final = "not valid text: the request holds a lone surrogate (\\ud800-\\udfff)"


def error(
    status: int, message: str, headers: Mapping[str, str] | None = None, **extra: Any
) -> JSONResponse:
    """The answer ``{"error": message, **extra}`` with ``status`` (``retry_after`` adds
    its ``Retry-After`` header)."""
    out = dict(headers or {})
    if "retry_after" in extra:
        out["Retry-After"] = str(extra["retry_after"])
    body = {"error": message, **extra}
    if not _is_text(repr(body)):  # a lone surrogate from the request, echoed back
        body = {"error": NOT_TEXT}
    return JSONResponse(body, status_code=status, headers=out or None)


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def add_error_handlers(app: FastAPI) -> None:
    """Answer every refusal of ``app`` as JSON (a mistyped page's address: a page)."""

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error(exc.status, exc.message, **exc.extra)

    async def invalid_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            ctx = errors[0].get("ctx") or {}
            at = "".join(f" at position {p}" for p in errors[0].get("loc", ())[1:2])
            return error(400, f"malformed JSON: {ctx.get('error', 'cannot parse the body')}{at}")
        messages = [_validation_message(e) for e in errors[:5]]
        return error(422, "; ".join(messages), errors=messages)

    async def value_error(request: Request, exc: Exception) -> Response:
        # The engine reports bad input (codes, rules, cards, moves) as EightOffError subclasses.
        return error(400, str(exc) or type(exc).__name__)

    async def not_text(request: Request, exc: Exception) -> Response:
        return error(400, NOT_TEXT)  # e.g. a lone surrogate reaching an encoder

    async def http_error(request: Request, exc: Exception) -> Response:
        # Starlette's own (404, 405 with its Allow header): their headers are kept.
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400 and exc.detail == _UNPARSED:  # FastAPI's catch-all
            return error(400, malformed_json(request.scope.get(BODY_KEY, b""), exc.__cause__))
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            # A person's mistyped address: a page, not raw JSON.
            return HTMLResponse(html_page(STATIC / "notfound.html"), status_code=404)
        return error(exc.status_code, str(exc.detail), exc.headers)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(EightOffError, value_error)
    app.add_exception_handler(UnicodeError, not_text)
    app.add_exception_handler(StarletteHTTPException, http_error)


_UNPARSED: Final = "There was an error parsing the body"


def _validation_message(found: Any) -> str:
    loc = [str(p) for p in found.get("loc", ()) if p != "body"]
    where = ".".join(loc) or "body"
    return f"{where}: {found.get('msg', 'invalid')}"


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


__all__ = [
    "BODY_KEY",
    "NOT_TEXT",
    "ApiError",
    "add_error_handlers",
    "error",
    "malformed_json",
    "ok",
]
