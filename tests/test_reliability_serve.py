"""``eightoff serve`` under idle sockets: sockets that never finish their headers are
closed after a few seconds, and while they are open a player's request still goes through."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import eightoff
from eightoff.codes import GameCode
from eightoff.rules import STANDARD
from eightoff.web.app import Limits, create_app
from eightoff.web.protocol import HEADER_SECONDS

SRC = Path(eightoff.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str = "/api/rules", timeout: float = 2.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        status = conn.getresponse().status
    finally:
        conn.close()
    return status


def _serve(*options: str) -> Iterator[int]:
    for port, _ in _serve_process(*options):
        yield port


def _serve_process(*options: str) -> Iterator[tuple[int, int]]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff", "serve", "--no-browser", "--port", str(port), *options],
        stdout=subprocess.DEVNULL,
        env=ENV,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(port) == 200:
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def server() -> Iterator[int]:
    yield from _serve()


@pytest.fixture
def server_process() -> Iterator[tuple[int, int]]:
    yield from _serve_process()


@pytest.fixture
def small_server() -> Iterator[int]:
    yield from _serve("--max-connections", "100")


def _idle_sockets(port: int, count: int) -> list[socket.socket]:
    sockets = []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 2:
            s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: localhost\r\n")  # never finished
        sockets.append(s)
    return sockets


def test_300_idle_sockets_do_not_deny_service(server: int) -> None:
    sockets = _idle_sockets(server, 300)
    try:
        started = time.monotonic()
        assert _get(server, timeout=2.0) == 200
        assert time.monotonic() - started < 2.0
    finally:
        for s in sockets:
            s.close()


def test_idle_sockets_past_max_connections_do_not_get_players_503(small_server: int) -> None:
    sockets = _idle_sockets(small_server, 150)
    try:
        assert [_get(small_server) for _ in range(5)] == [200] * 5
    finally:
        for s in sockets:
            s.close()


def test_unfinished_headers_are_dropped_after_a_few_seconds(server: int) -> None:
    quiet = socket.create_connection(("127.0.0.1", server))
    slow = socket.create_connection(("127.0.0.1", server))
    slow.sendall(b"GET / HTTP/1.1\r\n")
    started = time.monotonic()
    for s in (quiet, slow):
        s.settimeout(HEADER_SECONDS + 5)
        with contextlib.suppress(ConnectionResetError):  # closed by the server
            assert s.recv(1024) == b""
        s.close()
    assert time.monotonic() - started < HEADER_SECONDS + 3


def _long_game(moves: int) -> dict[str, object]:
    """A standard deal and ``moves`` legal moves in the compact notation (a seeded
    random walk that never stalls)."""
    for seed in range(100):
        rng = random.Random(seed)
        code = GameCode(STANDARD, seed)
        pos = code.position()
        played: list[str] = []
        while len(played) < moves and not pos.is_won():
            legal = pos.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            played.append(move.text())
            pos = pos.apply_unchecked(move)
        if len(played) == moves:
            return {"code": str(code), "moves": played}
    raise AssertionError("no random walk of that length")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_long_replays_run_outside_the_server_process(server_process: tuple[int, int]) -> None:
    port, pid = server_process
    game = _long_game(10_000)
    body = json.dumps(game).encode()
    expected = TestClient(create_app(limits=Limits(heavy_body=0))).post("/api/state", json=game)
    assert expected.status_code == 200

    def post() -> http.client.HTTPResponse:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/api/state", body, {"Content-Type": "application/json"})
        return conn.getresponse()

    first = post()  # starts the replay process
    assert first.status == 200 and json.loads(first.read()) == expected.json()
    before = _cpu_seconds(pid)
    for _ in range(20):
        answer = post()
        assert answer.status == 200 and answer.getheader("x-content-type-options") == "nosniff"
        answer.read()
    spent = (_cpu_seconds(pid) - before) / 20
    # Reading and replaying 10,000 moves cost the server 13 ms of CPU a request, holding
    # its interpreter lock; now it passes the bytes on (2 ms, in 10 ms clock ticks).
    assert spent < 0.006, f"{spent * 1000:.1f} ms of the server's CPU per long replay"
