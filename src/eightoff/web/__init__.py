"""The web game: a stateless JSON API over the engine and a static page that draws it.

:func:`eightoff.web.app.create_app` builds the ASGI app; ``eightoff serve``
(:mod:`eightoff.web.serve`) runs it. Importing this package stays light (the CLI
imports :mod:`eightoff.web.serve` for its options); FastAPI loads with the app.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from eightoff.web.app import create_app

        return create_app
    raise AttributeError(f"module 'eightoff.web' has no attribute {name!r}")


__all__ = ["create_app"]
