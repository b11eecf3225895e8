"""uvicorn's HTTP protocol with two guards against idle sockets.

* A connection must finish a request's headers within :data:`HEADER_SECONDS` of opening
  (or of its last answer), else it is closed: sockets that never send, or trickle their
  headers, do not stay open.
* At ``EIGHTOFF_MAX_CONNECTIONS`` open connections, a new one closes the oldest idle
  connection (no request under way) instead of being turned away: idle sockets cannot
  crowd out players, whose requests need only a moment each.

``eightoff serve`` runs uvicorn with ``http="eightoff.web.protocol:GuardedHttp"``.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_SECONDS: Final = 5.0
"""For a request's headers to arrive, from the connection or its last answer."""
KEEP_ALIVE_SECONDS: Final = 5
"""An idle keep-alive connection is closed after this long (uvicorn's timer)."""
MAX_CONNECTIONS_ENV: Final = "EIGHTOFF_MAX_CONNECTIONS"
HEADER_SECONDS_ENV: Final = "EIGHTOFF_HEADER_TIMEOUT"


class GuardedHttp(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with a header deadline and oldest-idle eviction."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._since = 0.0  # when this connection last went idle
        self._deadline: asyncio.TimerHandle | None = None
        self._max = int(os.environ.get(MAX_CONNECTIONS_ENV) or 0) or None
        self._header_seconds = float(os.environ.get(HEADER_SECONDS_ENV) or HEADER_SECONDS)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._max is not None and len(self.connections) >= self._max:
            self._evict_oldest_idle()
        super().connection_made(transport)  # type: ignore[arg-type]
        self._went_idle()

    def on_headers_complete(self) -> None:
        self._cancel_deadline()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._went_idle()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    # Helpers -----------------------------------------------------------------------

    def _idle(self) -> bool:
        """No request under way: none yet, or the last one answered (headers may be
        arriving: they have not finished)."""
        return (self.cycle is None or self.cycle.response_complete) and not self.pipeline

    def _went_idle(self) -> None:
        self._since = self.loop.time()
        self._cancel_deadline()
        self._deadline = self.loop.call_later(self._header_seconds, self._drop_if_idle)

    def _drop_if_idle(self) -> None:
        self._deadline = None
        if self._idle() and not self.transport.is_closing():
            self.transport.close()

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _evict_oldest_idle(self) -> None:
        idle = [c for c in self.connections if isinstance(c, GuardedHttp) and c._idle()]
        if idle:
            oldest = min(idle, key=lambda c: c._since)
            oldest.transport.close()
            self.connections.discard(oldest)  # closed now; connection_lost comes later


__all__ = ["HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "GuardedHttp"]
