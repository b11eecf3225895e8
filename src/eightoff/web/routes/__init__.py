"""The app's routes, one router per part: the game, the solver, the rules and the deal
of the day, the pages. Each router is built around the app's
:class:`~eightoff.web.service.GameService`."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter
from fastapi.types import DecoratedCallable
from pydantic import BaseModel

from eightoff.web.models import ERRORS


def api_route(
    routes: APIRouter,
    method: str,
    path: str,
    summary: str,
    tag: str,
    answer: type[BaseModel] | None = None,
) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """Add an API route to ``routes``: its schema names its ``summary``, its ``tag``, the
    ``answer`` model of a 200 and the refusals every route may answer."""
    responses = None if answer is None else {200: {"model": answer}, **ERRORS}
    return routes.api_route(
        path, methods=[method], summary=summary, tags=[tag], responses=responses
    )


__all__ = ["api_route"]
