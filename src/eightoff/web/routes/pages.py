"""The pages: the game at ``/``, ``/privacy``, and ``/rules`` in the browser's language."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from eightoff.web.delivery import HTML, STATIC, page

_PAGES: Final = {"/": ("index.html", "main.js"), "/privacy": ("privacy.html", "page.js")}
LANGUAGES: Final = ("en", "fr")
"""The page's languages, the first the default."""
_RULES_PAGES: Final = {"en": "rules.html", "fr": "rules.fr.html"}


def router() -> APIRouter:
    """The pages' routes (not in the API's schema)."""
    routes = APIRouter()
    for route_path, (filename, entry) in _PAGES.items():  # with ETags and module preloads
        endpoint = page(STATIC / filename, entry)
        routes.add_api_route(route_path, endpoint, methods=["GET", "HEAD"], include_in_schema=False)

    @routes.get("/rules", include_in_schema=False, response_class=FileResponse)
    def rules_page(request: Request, lang: str | None = None) -> FileResponse:
        """The rules page in ``lang`` (en, fr), else in the browser's language."""
        chosen = lang if lang in LANGUAGES else language(request.headers.get("accept-language"))
        return FileResponse(
            STATIC / _RULES_PAGES[chosen],
            media_type=HTML,
            headers={"Content-Language": chosen, "Vary": "Accept-Language"},
        )

    return routes


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


__all__ = ["LANGUAGES", "language", "router"]
