"""The pages: the game at ``/``, ``/privacy``, ``/rules`` in the browser's language, and
the service worker at ``/sw.js`` that keeps them all for playing offline."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from eightoff.web.delivery import REVALIDATE, STATIC, html_page, page
from eightoff.web.shell import SERVICE_WORKER, VERSION_HEADER, ShellOf

_PAGES: Final = {"/": ("index.html", "main.js"), "/privacy": ("privacy.html", "page.js")}
LANGUAGES: Final = ("en", "fr")
"""The page's languages, the first the default."""
_RULES_PAGES: Final = {"en": "rules.html", "fr": "rules.fr.html"}
MISSING: Final = "notfound.html"
"""The page answered for an address that names none (404)."""

SHELL: Final = ShellOf(
    STATIC,
    {path: filename for path, (filename, _) in _PAGES.items()}
    | {f"/rules?lang={lang}": filename for lang, filename in _RULES_PAGES.items()},
    MISSING,
)
"""What the service worker keeps: every page and static file (see :mod:`eightoff.web.shell`)."""


def router() -> APIRouter:
    """The pages' routes (not in the API's schema)."""
    routes = APIRouter()
    for route_path, (filename, entry) in _PAGES.items():  # with ETags and module preloads
        endpoint = _versioned(page(STATIC / filename, entry))
        routes.add_api_route(route_path, endpoint, methods=["GET", "HEAD"], include_in_schema=False)

    @routes.get("/rules", include_in_schema=False, response_class=HTMLResponse)
    def rules_page(request: Request, lang: str | None = None) -> HTMLResponse:
        """The rules page in ``lang`` (en, fr), else in the browser's language."""
        chosen = lang if lang in LANGUAGES else language(request.headers.get("accept-language"))
        return HTMLResponse(
            html_page(STATIC / _RULES_PAGES[chosen]),
            headers={
                "Content-Language": chosen,
                "Vary": "Accept-Language",
                VERSION_HEADER: SHELL().version,
            },
        )

    @routes.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        """The service worker, its shell written in: a new one whenever a static file
        changes (the browser asks for it again on every visit)."""
        shell = SHELL()
        script = shell.script((STATIC / SERVICE_WORKER).read_text("utf-8"))
        return Response(
            script,
            media_type="text/javascript; charset=utf-8",
            headers={"Cache-Control": REVALIDATE, "Service-Worker-Allowed": "/"},
        )

    return routes


def _versioned(
    endpoint: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """``endpoint`` answering with the shell's version in :data:`VERSION_HEADER`."""

    async def answer(request: Request) -> Response:
        response = await endpoint(request)
        response.headers[VERSION_HEADER] = SHELL().version
        return response

    return answer


def language(accept: str | None) -> str:
    """The page language an ``Accept-Language`` header prefers (English when none fits)."""
    best, best_q = LANGUAGES[0], 0.0
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        q -= i * 1e-6  # equal weights: the first listed wins
        if primary in LANGUAGES and q > best_q:
            best, best_q = primary, q
    return best


__all__ = ["LANGUAGES", "MISSING", "SHELL", "language", "router"]
