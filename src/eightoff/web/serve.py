"""``eightoff serve``: run the web game with uvicorn and open it in the browser."""

from __future__ import annotations

import argparse
import os
import socket
import threading
import time
import webbrowser
from pathlib import Path

from eightoff.errors import EightOffError


class ServeError(EightOffError):
    """A bad ``serve`` option: reported by the CLI as one line, exit status 2."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``eightoff serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
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
        "--workers", type=int, default=1, help="server processes (the API is stateless; 1)"
    )


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; returns the exit status."""
    import uvicorn

    if not 1 <= args.port <= 65535:
        raise ServeError(f"--port must be 1-65535, not {args.port}")
    if args.workers < 1:
        raise ServeError(f"--workers must be at least 1, not {args.workers}")
    if args.pool is not None:
        from eightoff.pool import Pool

        if not Path(args.pool).is_file():
            raise ServeError(f"--pool: no such file {args.pool}")
        Pool(args.pool).close()  # a bad pool is reported now, not on the first request
        os.environ["EIGHTOFF_POOL"] = str(Path(args.pool).resolve())
    _check_port_free(args.host, args.port)
    url = f"http://{_url_host(args.host)}:{args.port}/"
    if not args.no_browser:
        opener = threading.Thread(
            target=_open_when_up, args=(args.host, args.port, url), daemon=True
        )
        opener.start()
    print(f"Eight Off is at {url} (Ctrl+C stops the server)", flush=True)
    uvicorn.run(
        "eightoff.web.app:app_from_env",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
    )
    return 0


def _url_host(host: str) -> str:
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise ServeError(
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port"
            ) from None


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


__all__ = ["ServeError", "add_arguments", "serve"]
