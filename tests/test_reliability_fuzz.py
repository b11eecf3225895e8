"""Fuzzing every reader of user text: move text, move objects, game codes and command-line
numbers. Whatever comes in, the answer is a value or the reader's own error (one line and
exit 2 on the command line, a 4xx JSON answer from the API): never a traceback or a 5xx.

Derandomized (the same examples every run), 2,000 examples each."""

from __future__ import annotations

import asyncio
import json
import re
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eightoff.cli import main
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.deal import DEALS
from eightoff.formats import move_from_json
from eightoff.moves import InvalidMoveError, Move
from eightoff.web.app import create_app
from eightoff.web.middleware import post_scope

FUZZ = settings(
    max_examples=2000,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
CODE = "EO1-C8-AAAAAAA"
START = GameCode.parse(CODE).position()

# Text near the notation (places, counts, suits, digits of every script), and any text.
_NEAR_MOVES = st.text(alphabet="12345678abcdefghx^HSDCX9 0٣²+-_.\n", max_size=12)
_HUGE_DIGITS = st.integers(1, 6000).map(lambda n: "9" * n)
MOVE_TEXT = st.one_of(
    _NEAR_MOVES,
    st.text(max_size=30),
    st.tuples(st.sampled_from(["35x", "^H3x", "3ax", "a5x"]), _HUGE_DIGITS).map("".join),
)
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["column", "cell", "foundation", "H", "7H", "3a", "^"]),
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)
_PLACE = st.one_of(
    st.tuples(st.sampled_from(["column", "cell", "foundation", "Cell", "x"]), JSON_LEAF).map(list),
    JSON,
)
MOVE_OBJECT = st.one_of(
    st.fixed_dictionaries(
        {"from": _PLACE, "to": _PLACE},
        optional={"card": JSON_LEAF, "count": JSON_LEAF, "text": JSON_LEAF, "x": JSON_LEAF},
    ),
    JSON,
)
CODE_TEXT = st.one_of(
    st.text(alphabet="EOC01248-ABFGHPSTZ9 ٣x\t", max_size=24),
    st.text(max_size=24),
    st.tuples(st.sampled_from(["EO1-C", "EO", "EO1-C8-AAAAAAA-"]), _HUGE_DIGITS).map("".join),
)


@given(MOVE_TEXT)
@FUZZ
def test_move_text_reads_or_says_why(text: str) -> None:
    try:
        move = Move.from_text(text)
    except InvalidMoveError as exc:
        assert len(str(exc)) < 300 and "\n" not in str(exc)
        return
    assert Move.from_text(move.text()) == move


@given(MOVE_OBJECT)
@FUZZ
def test_move_objects_read_or_say_why(obj: Any) -> None:
    for pos in (None, START):
        try:
            move_from_json(obj, pos)
        except InvalidMoveError as exc:
            assert len(str(exc)) < 400


@given(CODE_TEXT)
@FUZZ
def test_game_codes_read_or_say_why(text: str) -> None:
    try:
        code = GameCode.parse(text)
    except InvalidGameCodeError as exc:
        assert len(str(exc)) < 400 and "\n" not in str(exc)
        return
    assert GameCode.parse(str(code)) == code


APP = create_app(seed=1)
LOOP = asyncio.new_event_loop()


def _post(path: str, body: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
    """POST ``body`` to the app itself (no sockets, no client thread: fast)."""
    scope = post_scope(path, [(b"host", b"localhost"), (b"content-type", b"application/json")])
    got: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            got["status"], got["headers"] = message["status"], dict(message["headers"])
        else:
            got["body"] += message.get("body", b"")

    LOOP.run_until_complete(APP(scope, receive, send))
    return got["status"], got["headers"], got["body"]


@given(
    moves=st.lists(st.one_of(MOVE_TEXT, MOVE_OBJECT), min_size=1, max_size=3),
    code=st.one_of(st.just(CODE), CODE_TEXT),
)
@FUZZ
def test_the_api_answers_any_moves_and_code_with_4xx_json(moves: list[Any], code: str) -> None:
    status, headers, body = _post("/api/state", json.dumps({"code": code, "moves": moves}).encode())
    assert status in (200, 400, 422), body[:300]
    assert headers[b"content-type"] == b"application/json"
    assert headers[b"x-content-type-options"] == b"nosniff"
    if status != 200:
        assert len(json.loads(body)["error"]) < 1000


_WHOLE = re.compile(r"0|[1-9][0-9]*")
NUMBER_TEXT = st.one_of(
    st.text(alphabet=string.digits + "+- ._e٣٤²\t", max_size=8),
    st.text(max_size=8).filter(lambda t: "\x00" not in t),
    st.integers(0, 10**25).map(str),
    _HUGE_DIGITS,
)
# (argv with the number as {}, which texts it takes: a check on the text)
OPTIONS: list[tuple[list[str], Any]] = [
    (["deal", "pysol:1", "--cells", "{}"], lambda t: t in ("2", "4", "8")),
    (
        ["solve", "pysol:1", "--nodes", "{}"],
        lambda t: len(t) < 20 and _WHOLE.fullmatch(t) and 1 <= int(t) < 2**63,
    ),
    (["solve", "pysol:1", "--nodes", "1", "--time-limit", "{}"], None),
    (  # spaces may surround the number, as they may the colon ("PySol : 7")
        ["deal", "pysol:{}"],
        lambda t: len(t.strip()) < 12 and _WHOLE.fullmatch(t.strip()) and 0 < int(t) < DEALS,
    ),
]


@given(which=st.sampled_from(range(len(OPTIONS))), text=NUMBER_TEXT)
@FUZZ
def test_cli_numbers_are_exactly_ascii_digits(
    which: int, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    template, takes = OPTIONS[which]
    capsys.readouterr()
    status = main([a.replace("{}", text) for a in template])
    err = capsys.readouterr().err
    assert status in (0, 2)
    if status == 2:
        assert err.startswith("eightoff: error: ") and err.count("\n") == 1 and len(err) < 500
    if takes is not None:
        assert (status == 0) == bool(takes(text)), (text, err)
