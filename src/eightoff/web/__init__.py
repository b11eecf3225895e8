"""The web game: a stateless JSON API over the engine and a static page that draws it.

:func:`create_app` builds the ASGI app; ``eightoff serve`` (:mod:`eightoff.web.serve`) runs it.
"""

from eightoff.web.app import create_app

__all__ = ["create_app"]
