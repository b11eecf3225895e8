"""Hostile input reaching every reader: huge numbers, deep JSON, big or odd files, odd
headers. Each gets a short one-line error (exit 2) or a 4xx JSON answer, never a
traceback, a 5xx, a hang or a reply the size of the input."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

import eightoff
from eightoff.cli import main
from eightoff.pool import Pool, PoolError
from eightoff.rules import STANDARD
from eightoff.store import Row, Store
from eightoff.web.app import create_app

SRC = Path(eightoff.__file__).resolve().parents[1]  # the code under test, in subprocesses too
ENV = {**os.environ, "PYTHONPATH": str(SRC)}
HUGE = "9" * 4301  # past Python's 4,300-digit limit on int()
CODE = "EO1-C8-AAAAAAA"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=1, allowed_hosts=["testserver", "localhost"]))


def one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the CLI in-process; assert it refused with one short line and exit 2."""
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 2, (status, out[:300], err[:300])
    assert err.count("\n") == 1 and err.startswith("eightoff: error: "), err[:300]
    assert len(err) < 400, err[:400]
    return err


# -- numbers past 4,300 digits -----------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/state", "/api/hint", "/api/solve"])
@pytest.mark.parametrize("move", ["35x" + HUGE, "^H3x" + HUGE], ids=["35x", "^H3x"])
def test_a_huge_move_count_is_a_short_422(client: TestClient, path: str, move: str) -> None:
    r = client.post(path, json={"code": CODE, "moves": [move]})
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/json"
    assert r.headers["x-content-type-options"] == "nosniff"  # the security headers too
    assert "content-security-policy" in r.headers
    body = r.json()
    assert body["index"] == 0 and "number too large (4,301 digits" in body["error"]
    assert len(r.content) < 600


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", f"pysol:{HUGE}"],
        ["solve", f"pysol:{HUGE}"],
        ["survey", HUGE, "--db", "{tmp}/s.db"],
        ["survey", f"pysol:1-{HUGE}", "--db", "{tmp}/s.db"],
        ["play", f"EO1-C{HUGE}-AAAAAAA", "--text"],
        ["replay", CODE, "--moves", "{tmp}/count.json"],
        ["replay", CODE, "--moves", "{tmp}/number.json"],
    ],
    ids=["deal", "solve", "survey", "survey-pysol", "play", "replay-count", "replay-number"],
)
def test_huge_numbers_on_the_command_line_are_one_line(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "count.json").write_text(json.dumps(["35x" + HUGE]))
    (tmp_path / "number.json").write_text(f'[{{"from": ["column", {HUGE}], "to": "cell"}}]')
    err = one_line(capsys, *(a.replace("{tmp}", str(tmp_path)) for a in argv))
    assert "too large" in err or "must be 8, 4 or 2" in err
    assert not (tmp_path / "s.db").exists()


# -- a survey database with rules nested 5,000 deep --------------------------------------


@pytest.fixture
def deep_rules_db(tmp_path: Path) -> Path:
    db = tmp_path / "deep.db"
    with Store(db) as store:
        store.add(
            [
                Row(STANDARD, "eightoff", 1, "solved", 80, False, 10, 0.1, "3a", "t", "easy"),
            ]
        )
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE rulesets SET rules = ?", ('{"a":' * 5000 + "1" + "}" * 5000,))
    return db


@pytest.mark.parametrize(
    "argv",
    [
        ["survey", "report", "--db", "{db}"],
        ["survey", "export", "--db", "{db}", "{tmp}/out.csv"],
        ["survey", "verdicts", "--db", "{db}", "{tmp}/v.json"],
    ],
)
def test_deeply_nested_rules_are_refused_with_the_path(
    deep_rules_db: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp = deep_rules_db.parent
    err = one_line(capsys, *(a.format(db=deep_rules_db, tmp=tmp) for a in argv))
    assert str(deep_rules_db) in err and "is not a rule set" in err and "nested" in err


def test_a_pool_with_deeply_nested_rules_is_refused(deep_rules_db: Path) -> None:
    with pytest.raises(PoolError, match="is not a rule set") as found:
        Pool(deep_rules_db)
    assert str(deep_rules_db) in str(found.value) and len(str(found.value)) < 400


# -- board files, fifos -------------------------------------------------------------------


def test_a_big_board_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zeros = tmp_path / "zeros.txt"
    zeros.write_bytes(b"0" * (3 << 20))
    err = one_line(capsys, "deal", str(zeros))
    assert "larger than 1 MiB" in err


def test_a_bad_board_token_is_echoed_as_an_excerpt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = tmp_path / "b.txt"
    board.write_text("0" * 500_000 + "\n")
    err = one_line(capsys, "deal", str(board))
    assert "cannot read card '0000" in err and "500,000 characters" in err


@pytest.mark.parametrize("command", ["report", "verdicts", "export"])
def test_a_fifo_as_the_database_is_refused(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "db"
    os.mkfifo(fifo)
    argv = ["survey", command, "--db", str(fifo)]
    argv += {"report": [], "verdicts": [str(tmp_path / "v.json")], "export": ["-"]}[command]
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff", *argv],
        capture_output=True,
        text=True,
        timeout=30,  # it waited for a writer forever
        env=ENV,
        check=False,
    )
    assert proc.returncode == 2
    assert (
        proc.stderr == f"eightoff: error: {fifo} is not a regular file: a survey database is one\n"
    )


# -- command-line numbers ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("٤", "expected a whole number, not '٤'"),
        ("+4", "expected a whole number, not '+4'"),
        (" 4", "expected a whole number, not ' 4'"),
        ("04", "'04' has a leading zero"),
        ("4_0", "expected a whole number, not '4_0'"),
    ],
)
def test_numbers_are_plain_ascii_digits(
    value: str, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert what in one_line(capsys, "deal", "pysol:1", "--cells", value)
    assert what in one_line(capsys, "solve", "pysol:1", "--nodes", value)


@pytest.mark.parametrize("value", ["1e-400", "0.0001e-321", ".5e-999"])
def test_a_time_limit_that_rounds_to_no_limit_is_refused(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "rounds to 0" in one_line(capsys, "solve", "pysol:1", "--time-limit", value)


def test_a_time_limit_of_zero_written_out_is_no_limit(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["solve", "pysol:1", "--time-limit", "0.000e-999", "--nodes", "5"]) == 0


def test_an_empty_host_is_refused() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff", "serve", "--host", "", "--no-browser"]
        + ["--port", str(_free_port())],
        capture_output=True,
        text=True,
        timeout=30,  # it served on every address, saying 127.0.0.1
        env=ENV,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("eightoff: error: --host is empty") and "0.0.0.0" in proc.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- HTTP: Host headers, bad bodies, HEAD --------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        [("host", "localhost"), ("host", "evil.example")],
        [("host", "evil.example"), ("host", "localhost")],
        [("host", "localhost:evil.example")],
        [("host", "localhost:80:80")],
    ],
)
def test_two_or_malformed_host_headers_get_400(
    client: TestClient, headers: list[tuple[str, str]]
) -> None:
    r = client.get("/api/rules", headers=httpx.Headers(headers))
    assert r.status_code == 400
    assert "one Host header" in r.json()["error"]
    assert client.get("/api/rules", headers={"host": "localhost:8000"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (b'{"code": "x", "moves": [' + HUGE.encode() + b"]}", "number too large"),
        (b'{"code": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested more than 64 levels deep"),
        (b'{"code": "\xff"}', "invalid UTF-8"),
        (b'{"code": ', "Expecting value"),
    ],
    ids=["huge-number", "deep", "not-utf8", "cut-short"],
)
def test_malformed_json_says_what_and_where(client: TestClient, body: bytes, what: str) -> None:
    r = client.post("/api/state", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("malformed JSON: ") and what in error
    assert " at position " in error


def test_a_422_echoes_a_short_excerpt_once(client: TestClient) -> None:
    move = "3" * 250_000
    r = client.post("/api/state", json={"code": CODE, "moves": [move]})
    assert r.status_code == 422
    assert len(r.content) < 600  # the 250 KB move came back twice before
    assert r.text.count("3" * 30) == 1


@pytest.mark.parametrize("path", ["/api/rules", "/api/daily", "/", "/rules", "/openapi.json"])
def test_head_is_answered_wherever_get_is(client: TestClient, path: str) -> None:
    got = client.get(path)
    head = client.head(path)
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert client.head("/api/state").status_code == 405  # a POST-only route stays so


# -- orphaned workers ----------------------------------------------------

ORPHAN = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from eightoff.workers import _local_worker_init
pool = ProcessPoolExecutor(1, initializer=_local_worker_init, initargs=(os.getpid(),))
pool.submit(time.sleep, 0).result()
print(next(iter(pool._processes)), flush=True)
pool.submit(time.sleep, 60)  # a long solve, as a worker sees it
time.sleep(60)
"""


def test_a_worker_ends_soon_after_its_survey_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN], stdout=subprocess.PIPE, text=True, env=ENV
    )
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    time.sleep(0.5)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    killed = time.monotonic()
    while time.monotonic() - killed < 3:
        if not _alive(worker):
            break
        time.sleep(0.1)
    else:
        os.kill(worker, signal.SIGKILL)
        pytest.fail("the orphaned worker was still running 3 s after its survey was killed")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
