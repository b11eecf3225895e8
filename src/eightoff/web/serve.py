"""``eightoff serve``: run the web game with uvicorn and open it in the browser."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import re
import socket
import threading
import time
import webbrowser
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from eightoff.argtypes import int_in, seconds
from eightoff.errors import EightOffError

LOCAL_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
"""The Host header values the server accepts unless told more (``--allowed-host``)."""
BODY_SECONDS: Final = 10.0
MAX_CONNECTIONS: Final = 256
MAX_WORKERS: Final = 64  # server processes; each holds a solver pool too
_WILDCARDS: Final = ("", "0.0.0.0", "::")
_DOTTED: Final = re.compile(r"[0-9.]+")


class ServeError(EightOffError):
    """A bad ``serve`` option: reported by the CLI as one line, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``eightoff serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument(
        "--port", type=int_in(1, 65535), default=8000, help="port to listen on (8000)"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open the page in a browser"
    )
    parser.add_argument(
        "--pool",
        metavar="PATH",
        help="survey database or JSON pool to draw winnable deals from "
        "(default: the pool shipped with the package)",
    )
    parser.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        default=1,
        help="server processes (the API is stateless; 1)",
    )
    parser.add_argument(
        "--allowed-host",
        metavar="NAME",
        action="append",
        default=[],
        help="a name the page is reached by, besides localhost, 127.0.0.1, [::1] and the "
        "--host address (repeatable): requests naming another host are refused",
    )
    parser.add_argument(
        "--body-timeout",
        type=seconds,
        default=BODY_SECONDS,
        metavar="SECONDS",
        help=f"answer 408 to a request whose body has not arrived by then ({BODY_SECONDS:g})",
    )
    parser.add_argument(
        "--max-connections",
        type=int_in(1, 100_000),
        default=MAX_CONNECTIONS,
        metavar="N",
        help="open connections per server process: past it a new one closes the oldest "
        f"idle one, and requests get 503 only when all are busy ({MAX_CONNECTIONS})",
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = True,
    pool: str | os.PathLike[str] | None = None,
    workers: int = 1,
    allowed_hosts: Iterable[str] = (),
    body_timeout: float = BODY_SECONDS,
    max_connections: int = MAX_CONNECTIONS,
) -> int:
    """Run the server until interrupted; returns the exit status.

    Raises :class:`ServeError` for a bad option (a host that is no address of this
    machine, a port in use…) before anything starts.
    """
    import uvicorn

    from eightoff.web.protocol import KEEP_ALIVE_SECONDS, MAX_CONNECTIONS_ENV

    if not 1 <= port <= 65535:
        raise ServeError(f"--port must be 1-65535, not {port}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ServeError(f"--workers must be 1-{MAX_WORKERS}, not {workers}")
    if not 0 < body_timeout <= 3600:
        raise ServeError(f"--body-timeout must be more than 0 and at most 3600, not {body_timeout}")
    if not 1 <= max_connections <= 100_000:
        raise ServeError(f"--max-connections must be 1-100000, not {max_connections}")
    if not host.strip():
        raise ServeError(
            "--host is empty: give 0.0.0.0 (or ::) to listen on every address, "
            "or one address of this machine"
        )
    hosts = host_names(host, allowed_hosts)
    if pool is not None:
        from eightoff.pool import Pool

        if not Path(pool).is_file():
            what = "is not a regular file" if Path(pool).exists() else "no such file"
            raise ServeError(f"--pool {pool}: {what}")
        Pool(Path(pool)).close()  # a bad pool is reported now, not on the first request
        os.environ["EIGHTOFF_POOL"] = str(Path(pool).resolve())
    _check_address(host, port)
    os.environ["EIGHTOFF_ALLOWED_HOSTS"] = ",".join(hosts)
    os.environ["EIGHTOFF_BODY_TIMEOUT"] = repr(body_timeout)
    os.environ[MAX_CONNECTIONS_ENV] = str(max_connections)  # read by each worker's protocol
    url = f"http://{_url_host(host)}:{port}/"
    if open_browser:
        opener = threading.Thread(target=_open_when_up, args=(host, port, url), daemon=True)
        opener.start()
    print(f"Eight Off is at {url} (Ctrl+C stops the server)", flush=True)
    uvicorn.run(
        "eightoff.web.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        server_header=False,
        # Idle sockets are closed (headers due within HEADER_SECONDS) or evicted, oldest
        # first, to make room; past max_connections busy ones, a request gets 503.
        http="eightoff.web.protocol:GuardedHttp",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=max_connections + 1,  # uvicorn counts the one it refuses
    )
    return 0


def host_names(host: str, allowed: Iterable[str] = ()) -> list[str]:
    """The Host header names accepted when listening on ``host``: :data:`LOCAL_HOSTS`,
    ``host`` itself (unless it means every interface) and ``allowed``, each as it
    appears in a Host header (an IPv6 address in brackets), lower case."""
    names = list(LOCAL_HOSTS)
    extra = [] if host in _WILDCARDS else [host]
    for name in [*extra, *allowed]:
        text = name.strip().lower()
        if not text or any(c in text for c in "/@ ,") or not text.isascii():
            raise ServeError(f"--allowed-host: {name!r} is not a host name or address")
        if ":" in text and not text.startswith("["):
            text = f"[{text}]"
        if text not in names:
            names.append(text)
    return names


def _url_host(host: str) -> str:
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _check_address(host: str, port: int) -> None:
    """Raise :class:`ServeError` unless this machine can listen on ``host:port``."""
    if _DOTTED.fullmatch(host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise ServeError(f"--host {host} is not a valid IPv4 address") from None
    try:
        family, *_, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not a name or address"
        raise ServeError(f"--host {host}: no such host ({reason})") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"cannot listen on {host}:{port}: the port is in use; choose another --port"
                ) from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise ServeError(f"--host {host} is not an address of this machine") from None
            raise ServeError(f"cannot listen on {host}:{port} ({exc.strerror})") from None


def _open_when_up(host: str, port: int, url: str, timeout: float = 15.0) -> None:
    target = "127.0.0.1" if host in ("", "0.0.0.0") else ("::1" if host == "::" else host)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((target, port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    else:
        return
    webbrowser.open(url)


__all__ = ["LOCAL_HOSTS", "ServeError", "add_arguments", "host_names", "serve"]
