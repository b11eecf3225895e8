"""How the page travels: compressed, cached with validators, its modules preloaded.

- Every answer of some size (the page, the API's JSON, scripts, styles, the manifest and
  WebAssembly) is gzipped when the browser accepts it (:class:`Gzip`, the app's outermost
  middleware); pictures already compressed (PNG) are sent as they are.
- The static files and the pages carry validators (ETag) and ``Cache-Control: no-cache``:
  the browser keeps them and asks again each time, and an unchanged file costs a 304.
- The game page lists every ES module it loads as ``<link rel="modulepreload">``, so the
  browser fetches them all at once rather than one level of imports after another.
- The pages share one head (icons, the app's manifest, theme colours, the style sheet):
  ``static/head.html``, written into each page where its ``<!--#include head.html-->``
  line stands, whichever route serves it (:func:`html_page`).
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

REVALIDATE: Final = "no-cache"
"""Kept by the browser, and asked about again before each use (304 when unchanged)."""
HTML: Final = "text/html; charset=utf-8"
STATIC: Final = Path(__file__).parent / "static"
"""The page's files: HTML, ES modules, styles, images."""
HEAD_PART: Final = "head.html"
"""The head every page shares: a part of the pages, not a page (:func:`html_page`)."""
_INCLUDE: Final = f"<!--#include {HEAD_PART}-->\n"
_IMPORT: Final = re.compile(r'(?:from|import)\s*"\./([\w.-]+\.js)"')

# Their types, whatever the system's table says (the static files are served by them).
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("application/wasm", ".wasm")


class Gzip(GZipMiddleware):
    """Gzip answers over 512 bytes for a browser that takes it, at a quick level (every
    type but those already compressed: ``application/wasm`` is gzipped)."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, minimum_size=512, compresslevel=6)


def modules(static: Path, entry: str) -> list[str]:
    """The ES modules ``entry`` loads, itself first, following their static imports."""
    found: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name not in found:
            found.append(name)
            todo += _IMPORT.findall((static / name).read_text("utf-8"))
    return found


def with_preloads(html: str, names: list[str]) -> str:
    """``html`` with a ``modulepreload`` link per module, before its first module script."""
    links = "".join(f'<link rel="modulepreload" href="/static/{name}">\n' for name in names)
    return html.replace('<script type="module"', links + '<script type="module"', 1)


def html_page(path: Path) -> str:
    """The HTML page at ``path`` as it is served: the shared head written in."""
    text = path.read_text("utf-8")
    if _INCLUDE in text:
        text = text.replace(_INCLUDE, (path.parent / HEAD_PART).read_text("utf-8"), 1)
    return text


def _etag(body: bytes) -> str:
    return f'W/"{hashlib.sha256(body).hexdigest()[:24]}"'


def _unchanged(if_none_match: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (weak comparison, or ``*``)."""
    if not if_none_match:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


def page(path: Path, entry: str | None = None) -> Callable[[Request], Awaitable[Response]]:
    """A route answering the HTML page at ``path`` with its ETag, 304 when the browser
    has it already; ``entry`` (a module beside it) adds the preload links of its modules."""
    text = html_page(path)
    if entry is not None:
        text = with_preloads(text, modules(path.parent, entry))
    body = text.encode("utf-8")
    etag = _etag(body)

    async def answer(request: Request) -> Response:
        headers = {"ETag": etag, "Cache-Control": REVALIDATE}
        if _unchanged(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=HTML, headers=headers)

    return answer


class Static(StaticFiles):
    """The static files with their validators (ETag, Last-Modified: 304 when unchanged)
    and ``Cache-Control: no-cache``."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        if str(full_path).endswith(".html"):  # a page: its shared head written in
            body = html_page(Path(full_path)).encode("utf-8")
            headers = {"ETag": _etag(body), "Cache-Control": REVALIDATE}
            if _unchanged(Headers(scope=scope).get("if-none-match"), headers["ETag"]):
                return Response(status_code=304, headers=headers)
            return Response(body, status_code, headers, media_type=HTML)
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = REVALIDATE
        return response


__all__ = [
    "HEAD_PART",
    "HTML",
    "REVALIDATE",
    "STATIC",
    "Gzip",
    "Static",
    "html_page",
    "modules",
    "page",
    "with_preloads",
]
