"""The web API: every endpoint, every error path, against the real engine and solver."""

from __future__ import annotations

import gc
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor
from contextlib import contextmanager
from importlib import resources
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eightoff import cli
from eightoff.codes import GameCode
from eightoff.formats import move_from_json, move_to_json, position_to_json
from eightoff.game import Game, autoplay_moves, home_move, smart_move
from eightoff.moves import FOUNDATION, Move, PlaceKind, cell, column, foundation
from eightoff.position import Position
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, solve
from eightoff.view import target_pile
from eightoff.web.app import (
    MOVES_SCHEMA_LIMIT,
    HintAnswer,
    Limits,
    NewAnswer,
    SolveAnswer,
    StateAnswer,
    create_app,
)
from eightoff.web.solving import SOLVER_NICENESS, SolverProcesses
from support import BAD_CODE_FAULTS

CODE = str(GameCode(STANDARD, 0))
LOST_CODE = str(GameCode(STANDARD.with_options(cells=4), 0))  # the solver proves it lost
SPOILED_CODE = "EO1-C4-AAAAABH"  # winnable, but lost after these moves
SPOILED_MOVES = ["65", "6^", "1^", "d^", "a8", "8d", "7a"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=7, limits=Limits(hint_seconds=5, solve_seconds=10)))


@pytest.fixture(scope="module")
def line() -> list[Move]:
    """A winning line for CODE from the solver."""
    result = solve(GameCode.parse(CODE).position(), limit=Limit(nodes=200_000, seconds=None))
    assert result.solved
    return list(result.moves)


def as_json(moves: list[Move], start: Position, *, text: bool = False) -> list[dict[str, Any]]:
    out = []
    pos = start
    for m in moves:
        out.append(move_to_json(m, pos, text=text))
        pos = pos.apply(m)
    return out


def answered(move: Move, pos: Position) -> dict[str, Any]:
    """A move as the API answers it: its JSON form with its compact notation."""
    return move_to_json(move, pos, text=True)


def start() -> Position:
    return GameCode.parse(CODE).position()


def post(client: TestClient, path: str, body: Any) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def error(client: TestClient, path: str, status: int, **kwargs: Any) -> dict[str, Any]:
    response = client.post(path, **kwargs)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert isinstance(data["error"], str) and data["error"]
    return data


# -- /api/rules and the OpenAPI document ------------------------------------------------


def test_rules_lists_presets_and_options(client: TestClient) -> None:
    data = client.get("/api/rules").json()
    assert set(data["presets"]) == set(PRESETS)
    assert data["presets"]["standard"]["rules"] == STANDARD.to_json()
    assert data["options"]["cells"] == [8, 4, 2]
    assert "freecell" in data["options"]["group_moves"]
    assert data["default"] == "standard"
    table = {option["name"]: option for option in data["table"]}
    assert list(table) == list(STANDARD.to_json())
    assert table["empty_column"]["flag"] == "--empty-column"
    assert table["empty_column"]["default"] == "kings"
    assert table["empty_column"]["values"][1] == {
        "value": "any",
        "text": "any card to empty columns",
        "letter": "E",
    }
    assert [v["letter"] for v in table["group_moves"]["values"]] == ["S", "", "F"]
    assert table["take_back"]["values"][1]["value"] is True


def test_openapi_documents_every_route(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in ("/api/new", "/api/state", "/api/hint", "/api/solve", "/api/rules"):
        assert path in doc["paths"]
    state = json.dumps(doc["components"]["schemas"]["StateRequest"])
    assert "autoplay" in state and "autoplayed" in state
    schemas = doc["components"]["schemas"]
    assert {"moves_applied", "autoplayed", "taps", "finish"} <= set(
        schemas["StateAnswer"]["properties"]
    )
    assert set(schemas["HintAnswer"]["properties"]) == {"move", "winnable", "undo_to", "detail"}
    assert {"from", "to", "card", "count", "text"} == set(schemas["MoveJson"]["properties"])
    responses = doc["paths"]["/api/state"]["post"]["responses"]
    assert {"200", "400", "413", "422", "429"} <= set(responses)


# -- /api/new ---------------------------------------------------------------------------


def test_new_default_is_a_winnable_standard_deal(client: TestClient) -> None:
    data = post(client, "/api/new", {})
    NewAnswer.model_validate(data)  # the answer has the documented shape
    code = GameCode.parse(data["code"])
    assert code.rules == STANDARD
    assert data["winnable"] is True
    assert solve(code.position(), limit=Limit(nodes=500_000, seconds=None)).solved
    assert data["position"] == position_to_json(code.position())
    assert data["status"] == "playing" and data["score"] == 0
    assert data["rules"] == STANDARD.to_json() and data["rules_text"] == STANDARD.describe()
    pos = code.position()
    assert data["legal_moves"] == [answered(m, pos) for m in pos.legal_moves()]


def test_new_with_a_code_replays_that_deal(client: TestClient) -> None:
    data = post(client, "/api/new", {"code": CODE.lower()})
    assert data["code"] == CODE
    assert data["position"] == position_to_json(start())
    assert data["winnable"] is None


def test_new_with_preset_and_options(client: TestClient) -> None:
    data = post(client, "/api/new", {"rules": "bakers", "winnable": False})
    assert GameCode.parse(data["code"]).rules == PRESETS["bakers"]
    assert len(data["position"]["cells"]) == 4 and data["winnable"] is None
    data = post(client, "/api/new", {"rules": {"cells": 2, "take_back": True}, "winnable": False})
    assert GameCode.parse(data["code"]).rules == STANDARD.with_options(cells=2, take_back=True)


def test_new_winnable_outside_the_pool_solves_random_deals(client: TestClient) -> None:
    rules = STANDARD.with_options(build="alternate")  # the shipped pool has standard deals only
    data = post(client, "/api/new", {"rules": rules.to_json()})
    code = GameCode.parse(data["code"])
    assert code.rules == rules and data["winnable"] is True
    assert solve(code.position(), limit=Limit(nodes=500_000, seconds=None)).solved


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_new_draws_a_pool_deal_of_the_asked_difficulty(client: TestClient, difficulty: str) -> None:
    shipped = json.loads(
        resources.files("eightoff").joinpath("data", "pool-standard.json").read_text("utf-8")
    )
    rated = set(shipped["pools"][0]["deals"][difficulty])
    for _ in range(5):
        data = post(client, "/api/new", {"difficulty": difficulty})
        code = GameCode.parse(data["code"])
        assert data["winnable"] is True and code.deal in rated


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"difficulty": "brutal"}, 422, "difficulty"),
        ({"rules": {"cells": 3}}, 400, "cells must be 8, 4 or 2"),  # engine ValueError → 400
        ({"rules": "klondike"}, 400, "unknown preset"),
        ({"rules": {"colour": "red"}}, 400, "unknown rule option"),
        ({"rules": {"preset": None}}, 400, "rules.preset must be a preset name"),
        ({"rules": 8}, 422, "rules"),
        ({"winnable": "yes"}, 422, "winnable"),
        ({"code": "EO1-C8-ZZZ"}, 400, "unknown game code"),
        ({"code": 12}, 422, "code"),
        ({"code": "x" * 101}, 422, "code"),
        ({"deal": 3}, 422, "deal"),
        ([1, 2], 422, "body"),
    ],
)
def test_new_refuses_bad_input(client: TestClient, body: Any, status: int, words: str) -> None:
    assert words in error(client, "/api/new", status, json=body)["error"]


# -- /api/state -------------------------------------------------------------------------


def test_state_replays_moves(client: TestClient, line: list[Move]) -> None:
    moves = as_json(line[:10], start())
    data = post(client, "/api/state", {"code": CODE, "moves": moves})
    StateAnswer.model_validate(data)
    game = Game(GameCode.parse(CODE))
    game.replay(line[:10])
    assert data["position"] == position_to_json(game.position)
    assert data["moves_applied"] == 10 and data["autoplayed"] == []
    assert data["score"] == game.score and data["status"] == "playing"
    pos = game.position
    assert data["legal_moves"] == [answered(m, pos) for m in pos.legal_moves()]


def test_state_taps_are_the_engines_tap_and_smart_moves(
    client: TestClient, line: list[Move]
) -> None:
    for n in (0, 15, 30):
        data = post(client, "/api/state", {"code": CODE, "moves": as_json(line[:n], start())})
        here = Game(GameCode.parse(CODE))
        here.replay(line[:n])
        pos = here.position
        labels = {f"column-{i + 1}" for i, c in enumerate(pos.columns) if c}
        labels |= {f"cell-{k + 1}" for k, c in enumerate(pos.cells) if c is not None}
        assert set(data["taps"]) == labels
        for label, entry in data["taps"].items():
            kind, number = label.split("-")
            place = cell(int(number) - 1) if kind == "cell" else column(int(number) - 1)
            tap = home_move(pos, place)
            smart = smart_move(pos, place)
            assert entry["tap"] == (None if tap is None else answered(tap, pos))
            assert entry["smart"] == (None if smart is None else answered(smart, pos))
    assert any(e["tap"] for e in data["taps"].values()) or any(
        e["smart"] for e in data["taps"].values()
    )


def test_state_autoplay_plays_safe_foundation_moves(client: TestClient, line: list[Move]) -> None:
    game = Game(GameCode.parse(CODE))
    n = 0
    while True:
        game.play(line[n])
        if autoplay_moves(game.position):
            break
        n += 1
    moves = as_json(line[: n + 1], start())
    expected = autoplay_moves(game.position)
    data = post(client, "/api/state", {"code": CODE, "moves": moves, "autoplay": True})
    assert data["moves_applied"] == n + 1
    assert data["autoplayed"] == as_json(expected, game.position, text=True)
    for m in expected:
        game.play(m)
    assert data["position"] == position_to_json(game.position)
    again = post(client, "/api/state", {"code": CODE, "moves": moves + data["autoplayed"]})
    assert again["position"] == data["position"] and again["score"] == data["score"]


def test_state_offers_finish_and_reaches_a_win(client: TestClient, line: list[Move]) -> None:
    moves = as_json(line, start())
    finish_at = None
    for n in range(len(line) - 1, 0, -1):
        data = post(client, "/api/state", {"code": CODE, "moves": moves[:n]})
        if data["finish"] is None:
            break
        finish_at = (n, data["finish"])
    assert finish_at is not None
    n, finish = finish_at
    won = post(client, "/api/state", {"code": CODE, "moves": moves[:n] + finish})
    assert won["status"] == "won" and won["score"] == 520
    assert won["finish"] is None and won["legal_moves"] == [] and won["taps"] == {}


def test_a_deal_without_a_legal_move_is_stuck(client: TestClient) -> None:
    data = post(client, "/api/new", {"code": "EO1-C2-AAAAAAB"})
    assert data["status"] == "stuck" and data["legal_moves"] == []
    assert all(e == {"tap": None, "smart": None} for e in data["taps"].values())
    hint = post(client, "/api/hint", {"code": "EO1-C2-AAAAAAB", "moves": []})
    assert hint["winnable"] is False and hint["move"] is None


def test_state_reports_an_illegal_move_with_its_index(client: TestClient, line: list[Move]) -> None:
    moves = as_json(line[:5], start())
    moves[3], moves[4] = moves[4], moves[3]  # out of order: may fail at 3 or 4
    data = error(client, "/api/state", 422, json={"code": CODE, "moves": moves})
    assert data["index"] in (3, 4) and data["reason"]
    # A move to a foundation that needs another card first.
    pos = start()
    kings = [i for i, col in enumerate(pos.columns) if col[-1].rank != 1]
    wrong = {"from": ["column", kings[0] + 1], "to": ["foundation"], "count": 1}
    data = error(client, "/api/state", 422, json={"code": CODE, "moves": [wrong]})
    assert data["index"] == 0 and "foundation" in data["reason"]
    assert data["reason_code"] == "not-next"  # for a page to say in its own language


def test_a_refusal_asked_for_is_an_answer(client: TestClient) -> None:
    pos = start()
    kings = [i for i, col in enumerate(pos.columns) if col[-1].rank != 1]
    wrong = {"from": ["column", kings[0] + 1], "to": ["foundation"], "count": 1}
    body = {"code": CODE, "moves": ["1e", wrong], "refusal_ok": True}
    response = client.post("/api/state", json=body)
    assert response.status_code == 200
    refused = response.json()["refused"]
    assert (refused["index"], refused["reason_code"]) == (1, "not-next")
    assert refused["error"].startswith("move 1 ") and "foundation" in refused["reason"]
    # A legal list is answered as ever; a bad code is still an error.
    assert client.post("/api/state", json={**body, "moves": ["1e"]}).json()["moves_applied"] == 1
    error(client, "/api/state", 400, json={**body, "code": "EO1-C8-ZZZ"})


def test_a_bad_game_code_says_so_by_its_reason_code(client: TestClient) -> None:
    bodies: tuple[tuple[str, dict[str, Any]], ...] = (
        ("/api/new", {"code": "EO1-C8-ZZZ"}),
        ("/api/state", {"code": "x", "moves": []}),
    )
    for path, body in bodies:
        assert error(client, path, 400, json=body)["reason_code"] == "bad-game-code"


@pytest.mark.parametrize(("code", "fault"), BAD_CODE_FAULTS)
def test_a_bad_game_code_names_its_fault_for_the_page_to_say(
    client: TestClient, code: str, fault: dict[str, str]
) -> None:
    data = error(client, "/api/new", 400, json={"code": code})
    assert data["fault"] == fault
    assert data["error"].startswith("unknown game code: ")
    # The page says each fault in French from its own words (lang.js).
    french = (resources.files("eightoff.web") / "static" / "lang.js").read_text("utf-8")
    assert f'"reason.code.{fault["code"]}":' in french


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ({"from": ["column", 9], "to": ["cell", 5]}, "no column 9"),
        ({"from": ["column", 1]}, 'lacks "to"'),
        ({"card": "ZZ", "from": ["column", 1], "to": ["cell", 5]}, "card"),
        ({"card": "AS", "from": ["column", 1], "to": ["cell", 5]}, "not AS"),
        ({"from": ["pile", 1], "to": ["cell", 5]}, "unknown kind"),
        ({"from": ["column", 1], "to": ["cell", 5], "count": 0}, "count"),
        ({"from": ["column", 1], "to": ["cell", 5], "spin": 1}, "unknown key"),
    ],
)
def test_state_reports_an_unreadable_move(
    client: TestClient, move: dict[str, Any], words: str
) -> None:
    data = error(client, "/api/state", 422, json={"code": CODE, "moves": [move]})
    assert data["index"] == 0 and words in data["error"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"moves": []}, 422, "code"),
        ({"code": "nonsense", "moves": []}, 400, "unknown game code"),
        ({"code": CODE, "moves": "3a"}, 422, "moves"),
        ({"code": CODE, "moves": [["column", 1]]}, 422, "moves.0"),
        ({"code": CODE, "moves": [], "autoplay": "on"}, 422, "autoplay"),
        ({"code": CODE, "moves": [], "extra": 1}, 422, "extra"),
    ],
)
def test_state_refuses_bad_requests(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    assert words in error(client, "/api/state", status, json=body)["error"]


def test_malformed_json_is_a_400(client: TestClient) -> None:
    headers = {"Content-Type": "application/json"}
    for path in ("/api/new", "/api/state", "/api/hint", "/api/solve"):
        data = error(client, path, 400, content=b'{"code": ', headers=headers)
        assert "malformed JSON" in data["error"]


def test_limits_on_body_size_and_move_count() -> None:
    small = TestClient(create_app(limits=Limits(max_body=2000, max_moves=3)))
    moves = [{"from": ["column", 1], "to": ["cell", 5]}] * 4
    data = error(small, "/api/state", 422, json={"code": CODE, "moves": moves})
    assert "too many moves: 4, at most 3" in data["error"]
    huge = {"code": CODE, "moves": [{"from": ["column", 1], "to": ["cell", 5]}] * 100}
    assert "too large" in error(small, "/api/state", 413, json=huge)["error"]
    schema_cap = {"code": CODE, "moves": [{}] * (MOVES_SCHEMA_LIMIT + 1)}
    client = TestClient(create_app())
    assert str(MOVES_SCHEMA_LIMIT) in error(client, "/api/state", 422, json=schema_cap)["error"]


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404 and response.json()["error"]
    response = client.get("/api/state")
    assert response.status_code == 405 and response.json()["error"]


# -- /api/hint and /api/solve -----------------------------------------------------------


def test_hint_gives_a_move_on_a_winning_line(client: TestClient, line: list[Move]) -> None:
    moves = as_json(line[:20], start())
    data = post(client, "/api/hint", {"code": CODE, "moves": moves})
    HintAnswer.model_validate(data)
    assert data["winnable"] is True and data["undo_to"] is None
    state = post(client, "/api/state", {"code": CODE, "moves": moves})
    assert data["move"] in state["legal_moves"]
    assert isinstance(data["detail"], str)
    after = post(client, "/api/solve", {"code": CODE, "moves": [*moves, data["move"]]})
    assert after["verdict"] == "solved"


def test_hint_says_when_the_position_is_lost(client: TestClient) -> None:
    data = post(client, "/api/hint", {"code": LOST_CODE, "moves": []})
    assert data["winnable"] is False and data["move"] is None and data["undo_to"] is None
    assert data["detail"]


def test_hint_offers_to_undo_back_to_the_last_winnable_position(client: TestClient) -> None:
    code = GameCode.parse(SPOILED_CODE)
    moves = as_json([Move.from_text(t) for t in SPOILED_MOVES], code.position())
    assert post(client, "/api/solve", {"code": SPOILED_CODE, "moves": moves})["verdict"] == (
        "unsolvable"
    )
    data = post(client, "/api/hint", {"code": SPOILED_CODE, "moves": moves})
    assert data["winnable"] is False and "undo" in data["detail"]
    back = data["undo_to"]
    assert isinstance(back, int) and 0 <= back < len(moves)
    there = post(client, "/api/state", {"code": SPOILED_CODE, "moves": moves[:back]})
    assert data["move"] in there["legal_moves"]
    solved = post(client, "/api/solve", {"code": SPOILED_CODE, "moves": moves[:back]})
    assert solved["verdict"] == "solved"


def test_solve_returns_a_line_that_wins(client: TestClient, line: list[Move]) -> None:
    moves = as_json(line[:30], start())
    result = post(client, "/api/solve", {"code": CODE, "moves": moves})
    SolveAnswer.model_validate(result)
    assert result["verdict"] == "solved" and result["moves"]
    assert set(result) >= {"verdict", "moves", "length", "optimal", "nodes", "seconds"}
    won = post(client, "/api/state", {"code": CODE, "moves": moves + result["moves"]})
    assert won["status"] == "won"
    # Each move carries its compact notation: the page sends those back.
    texts = [m["text"] for m in result["moves"]]
    assert texts == [move_from_json(m).text() for m in result["moves"]]
    assert post(client, "/api/state", {"code": CODE, "moves": moves + texts}) == won
    lost = post(client, "/api/solve", {"code": LOST_CODE, "moves": []})
    assert lost["verdict"] == "unsolvable" and lost["moves"] == []


def test_solver_requests_are_bounded_and_busy_is_a_429() -> None:
    app = create_app(limits=Limits(max_solvers=1, busy_wait=0.01))
    client = TestClient(app)
    slots = app.state.api.solvers
    assert slots.acquire(timeout=1)  # another request holds the only solver slot
    try:
        for path in ("/api/hint", "/api/solve"):
            response = client.post(path, json={"code": CODE, "moves": []})
            assert response.status_code == 429
            assert "busy" in response.json()["error"] and response.headers["Retry-After"] == "1"
        response = client.post("/api/new", json={"rules": "alternate"})
        assert response.status_code == 429
        assert post(client, "/api/state", {"code": CODE, "moves": []})["status"] == "playing"
    finally:
        slots.release()
    assert post(client, "/api/hint", {"code": CODE, "moves": []})["move"] is not None


def test_hint_and_solve_replay_first(client: TestClient) -> None:
    bad = {"code": CODE, "moves": [{"from": ["cell", 1], "to": ["cell", 2]}]}
    for path in ("/api/hint", "/api/solve"):
        data = error(client, path, 422, json=bad)
        assert data["index"] == 0 and "cell" in data["reason"]


# -- the page ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/rules", "/privacy"])
def test_pages_are_served_with_a_strict_policy(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert "http://" not in response.text and "https://" not in response.text.replace(
        "https://github.com", ""
    )


def test_static_files_are_served(client: TestClient) -> None:
    for name in ("main.js", "play.js", "style.css"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and len(response.content) > 1000
    assert client.get("/static/missing.js").status_code == 404


# -- no input gives a 5xx ---------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
_move = st.fixed_dictionaries(
    {
        "from": st.tuples(st.sampled_from(["column", "cell", "foundation"]), st.integers(0, 9)).map(
            list
        ),
        "to": st.tuples(st.sampled_from(["column", "cell", "foundation"]), st.integers(0, 9)).map(
            list
        ),
    },
    optional={"count": st.integers(-1, 4), "card": st.sampled_from(["AS", "7H", "KC", "x"])},
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["/api/new", "/api/state"]),
    body=_json
    | st.fixed_dictionaries({"code": st.just(CODE), "moves": st.lists(_move, max_size=5)}),
)
def test_no_input_gives_a_server_error(client: TestClient, path: str, body: Any) -> None:
    response = client.post(path, json=body)
    assert response.status_code < 500, response.text
    if response.status_code != 200:
        assert response.json()["error"]


# -- eightoff serve ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "0"], "--port: must be 1 to 65535"),
        (["--workers", "0"], "--workers: must be 1 to 64"),
        (["--pool", "/no/such/pool.db"], "no such file"),
    ],
)
def test_serve_refuses_bad_options(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", "--no-browser", *args]) == 2
    assert words in capsys.readouterr().err


def test_serve_runs_the_app_until_stopped() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff", "serve", "--no-browser", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60  # a loaded CI machine starts Python slowly
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules") as r:
                    assert "standard" in json.load(r)["presets"]
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "server not up"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
            assert b'id="board"' in r.read()
        assert cli.main(["serve", "--no-browser", "--port", str(port)]) == 2  # port taken
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=15)
    assert f"http://127.0.0.1:{port}/" in out


_option = st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=8)
_option |= st.sampled_from(["kings", "any", "suit", "alternate", "bakers", "cells", "freecell"])
_options = st.dictionaries(
    st.sampled_from(
        ["preset", "cells", "empty_column", "build", "layout", "group_moves", "take_back"]
    ),
    _option | st.lists(st.integers(), max_size=2),
    max_size=4,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rules=_options)
def test_no_rule_options_give_a_server_error(client: TestClient, rules: dict[str, Any]) -> None:
    response = client.post("/api/new", json={"rules": rules, "winnable": False})
    assert response.status_code in (200, 400, 422), response.text
    if response.status_code == 200:
        assert GameCode.parse(response.json()["code"]).rules.to_json() == response.json()["rules"]


def test_state_finish_is_null_mid_game_and_every_offered_finish_wins(
    client: TestClient, line: list[Move]
) -> None:
    moves = as_json(line, start())
    game = Game(GameCode.parse(CODE))
    offered = 0
    for n in range(len(line) + 1):
        if n:
            game.play(line[n - 1])
        if n % 4 and n < len(line) - 12:
            continue
        data = post(client, "/api/state", {"code": CODE, "moves": moves[:n]})
        finish = data["finish"]
        cards_left = 52 - sum(game.position.foundations)
        if finish is None:
            continue
        offered += 1
        assert 0 < len(finish) == cards_left  # one move home per card left
        won = post(client, "/api/state", {"code": CODE, "moves": moves[:n] + finish})
        assert won["status"] == "won"
    assert offered >= 1
    assert post(client, "/api/state", {"code": CODE, "moves": moves[:10]})["finish"] is None


def test_state_targets_are_where_each_piles_legal_moves_land(
    client: TestClient, line: list[Move]
) -> None:
    data = post(client, "/api/state", {"code": CODE, "moves": as_json(line[:20], start())})
    here = Game(GameCode.parse(CODE))
    here.replay(line[:20])
    pos = here.position
    assert set(data["targets"]) == set(data["taps"])
    for label, targets in data["targets"].items():
        kind, number = label.split("-")
        place = cell(int(number) - 1) if kind == "cell" else column(int(number) - 1)
        landing = {target_pile(pos, m).label() for m in pos.legal_moves() if m.source == place}
        assert set(targets) == landing and len(targets) == len(landing)


def test_state_autoplay_does_not_follow_a_take_back(client: TestClient) -> None:
    code = GameCode(PRESETS["app"], 0)
    game = Game(code)
    line = solve(code.position(), limit=Limit(nodes=300_000, seconds=None)).moves
    for move in line:
        game.play(move)
        if any(game.position.foundations) and None in game.position.cells:
            break
    suit = next(s for s, top in enumerate(game.position.foundations) if top)
    game.play(Move(foundation(suit), cell(game.position.cells.index(None))))
    assert autoplay_moves(game.position)  # the card could go straight back home
    body = {"code": str(code), "moves": as_json(game.moves, code.position()), "autoplay": True}
    data = post(client, "/api/state", body)
    assert data["autoplayed"] == [] and data["position"] == position_to_json(game.position)
    # After the player's next move (not a take-back) autoplay sends the card home again.
    taken = game.moves[-1].target
    card = game.position.top(taken)
    nxt = next(
        m
        for m in game.legal_moves()
        if m.source != taken and m.source.kind is not PlaceKind.FOUNDATION
    )
    body["moves"] = as_json([*game.moves, nxt], code.position())
    after = post(client, "/api/state", body)["autoplayed"]
    assert card is not None and answered(Move(taken, FOUNDATION), game.position) in after


def test_new_is_honest_when_the_solver_runs_out_of_budget() -> None:
    # Outside the pool, with a node limit no deal can be won in: never "winnable: true".
    rules = STANDARD.with_options(build="alternate")
    starved = TestClient(create_app(seed=3, limits=Limits(solver_nodes=1, new_seconds=0.5)))
    data = post(starved, "/api/new", {"rules": rules.to_json()})
    code = GameCode.parse(data["code"])
    assert code.rules == rules and data["winnable"] is None
    NewAnswer.model_validate(data)
    # With room to search, a deal it calls winnable is one the solver wins.
    roomy = TestClient(create_app(seed=3, limits=Limits(solver_nodes=20_000, new_seconds=2)))
    data = post(roomy, "/api/new", {"rules": rules.to_json()})
    if data["winnable"] is not None:
        verdict = solve(GameCode.parse(data["code"]).position(), limit=Limit(nodes=500_000))
        assert data["winnable"] is verdict.solved


def test_solvers_run_in_separate_processes_at_a_lower_priority(client: TestClient) -> None:
    assert post(client, "/api/hint", {"code": CODE, "moves": []})["move"] is not None
    processes = client.app.state.api.processes  # type: ignore[attr-defined]
    assert processes.run(os.getpid) != os.getpid()
    assert processes.run(os.nice, 0) >= min(os.nice(0) + SOLVER_NICENESS, 19)


def test_a_solver_process_that_dies_gives_a_503_then_a_fresh_one_answers() -> None:
    processes = SolverProcesses(1)
    try:
        first = processes.run(os.getpid)
        with pytest.raises(ZeroDivisionError):  # a job's own error comes back as it is
            processes.run(divmod, 1, 0)
        assert processes.run(os.getpid) == first  # the process is kept between calls
        with pytest.raises(BrokenExecutor):
            processes.run(os.kill, first, signal.SIGKILL)
        assert processes.run(os.getpid) not in (first, os.getpid())
    finally:
        processes.close()
    # Through the API: a 503 that says to retry, then the next hint is answered.
    app = create_app(seed=7, limits=Limits(max_solvers=1))
    with TestClient(app) as client:
        os.kill(app.state.api.processes.run(os.getpid), signal.SIGKILL)
        gone = error(client, "/api/hint", 503, json={"code": CODE, "moves": []})
        assert "try again" in gone["error"] and gone["retry_after"] == 1
        assert post(client, "/api/hint", {"code": CODE, "moves": []})["move"] is not None


# -- eightoff serve against hostile clients -------------------------------------------


@contextmanager
def served(*args: str) -> Iterator[int]:
    """A real ``eightoff serve`` on a free loopback port, with ``args``; yields the port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff", "serve", "--no-browser", "--port", str(port), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while get(port, "/api/rules")[0] != 200:
            assert time.monotonic() < deadline and proc.poll() is None, "server not up"
            time.sleep(0.2)
        yield port
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
    assert "Traceback" not in err


def get(port: int, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` (with a Host header naming ``host``): status, headers, body; 0 if the
    server is not up."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={} if host is None else {"Host": host})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except OSError:
        return 0, {}, b""
    finally:
        conn.close()


def stalled(port: int) -> socket.socket:
    """A connection that sent a POST's headers and 1 of the 1000 body bytes it announced."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        b"POST /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    return sock


def test_serve_times_out_stalled_bodies_and_bounds_connections() -> None:
    with served("--body-timeout", "1", "--max-connections", "4") as port:
        waiting = [stalled(port) for _ in range(4)]
        assert get(port, "/api/rules")[0] == 503  # the process holds no more connections
        for sock in waiting:
            answer = b""
            while chunk := sock.recv(4096):  # the server answers, then closes
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408 ")
            assert b"did not arrive within 1 s" in answer
            sock.close()
        assert get(port, "/api/rules")[0] == 200


def test_serve_answers_only_its_own_host_names() -> None:
    with served("--allowed-host", "Game.Example") as port:
        for host in ("localhost", f"localhost:{port}", "127.0.0.1", f"[::1]:{port}"):
            status, headers, _ = get(port, "/api/rules", host)
            assert status == 200, host
            assert "server" not in headers
        assert get(port, "/api/rules", f"game.example:{port}")[0] == 200
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
            status, headers, body = get(port, "/", host)
            assert status == 400, host
            assert "does not answer for the host" in json.loads(body)["error"]
            assert "server" not in headers


def test_serve_says_a_bad_host_is_a_bad_host(capsys: pytest.CaptureFixture[str]) -> None:
    for host, words in (
        ("999.1.1.1", "--host 999.1.1.1 is not a valid IPv4 address"),
        ("192.0.2.1", "--host 192.0.2.1 is not an address of this machine"),
    ):
        assert cli.main(["serve", "--no-browser", "--host", host, "--port", "8123"]) == 2
        err = capsys.readouterr().err
        assert words in err and "--port" not in err and len(err.splitlines()) == 1


def test_405_answers_say_which_methods_are_allowed(client: TestClient) -> None:
    for method, path, allowed in (
        ("get", "/api/state", {"POST"}),
        ("post", "/api/rules", {"GET"}),
        ("delete", "/", {"GET", "HEAD"}),
        ("post", "/static/index.html", {"GET", "HEAD"}),
    ):
        response = client.request(method, path)
        assert response.status_code == 405
        assert set(response.headers["allow"].replace(" ", "").split(",")) == allowed
        assert response.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"rules": {"\\ud800": 1}}',
        b'{"rules": {"preset": "standard", "\\udfff": true}}',
    ],
)
def test_a_lone_surrogate_is_not_valid_text(client: TestClient, body: bytes) -> None:
    response = client.post("/api/new", content=body, headers={"content-type": "application/json"})
    assert 400 <= response.status_code < 500
    message = response.json()["error"]
    assert message.startswith("not valid text") and "codec" not in message


def long_game(line: list[Move], length: int) -> tuple[list[str], Position]:
    """``length`` legal moves from CODE's deal as text: the winning line until a column's
    top card lies on its suit's next card, then that card to a cell and back, again and
    again; and the position they reach."""
    pos = start()
    for n, move in enumerate(line):
        i = next((i for i in range(8) if pos.run_length(i) >= 2), None)
        if i is not None and None in pos.cells:
            here, there = str(i + 1), "abcdefgh"[pos.cells.index(None)]
            shuttle = [here + there, there + here] * length
            moves = [m.text() for m in line[:n]] + shuttle[: length - n]
            for text in moves[n:]:
                pos = pos.apply(Move.from_text(text))
            return moves, pos
        pos = pos.apply(move)
    raise AssertionError("no run on the line")


def test_state_takes_compact_notation_and_long_games(client: TestClient, line: list[Move]) -> None:
    objects = as_json(line[:40], start())
    texts = [m.text() for m in line[:40]]
    mixed = [t if i % 2 else o for i, (o, t) in enumerate(zip(objects, texts, strict=True))]
    data = post(client, "/api/state", {"code": CODE, "moves": objects})
    for moves in (texts, mixed):
        assert post(client, "/api/state", {"code": CODE, "moves": moves}) == data
    bad = error(client, "/api/state", 422, json={"code": CODE, "moves": [*texts[:3], "9z"]})
    assert bad["index"] == 3 and "9z" in bad["error"] and "'9' is not a column" in bad["reason"]
    # 10,000 moves in compact notation: a game that goes on and on.
    walk, pos = long_game(line, 10_000)
    long = post(client, "/api/state", {"code": CODE, "moves": walk})
    assert long["moves_applied"] == 10_000 and long["position"] == position_to_json(pos)
    again = error(client, "/api/state", 422, json={"code": CODE, "moves": [*walk, walk[0]]})
    assert "too many moves" in again["error"] and "10000" in again["error"]


def test_every_answered_move_carries_its_compact_notation(
    client: TestClient, line: list[Move]
) -> None:
    # What the page sends back: each move's "text" (a long game stays small and replays
    # fastest), the whole object (text included), or both mixed: the same answer.
    data = post(client, "/api/state", {"code": CODE, "moves": [], "autoplay": True})
    played: list[dict[str, Any]] = []
    for move in line[:25]:
        answered_moves = [
            *data["legal_moves"],
            *data["autoplayed"],
            *(m for tap in data["taps"].values() for m in tap.values() if m is not None),
            *(data["finish"] or []),
        ]
        for m in answered_moves:
            assert Move.from_text(m["text"]) == move_from_json(m)
        mine = next(m for m in data["legal_moves"] if Move.from_text(m["text"]) == move)
        played.append(mine)
        data = post(client, "/api/state", {"code": CODE, "moves": played})
    texts = [m["text"] for m in played]
    mixed = [m["text"] if i % 3 else m for i, m in enumerate(played)]
    for moves in (texts, mixed):
        assert post(client, "/api/state", {"code": CODE, "moves": moves}) == data
    # A "text" that is not the object's move is refused, as a wrong "card" is.
    wrong = [*played[:5], {**played[5], "text": played[6]["text"]}]
    bad = error(client, "/api/state", 422, json={"code": CODE, "moves": wrong})
    assert bad["index"] == 5 and "text" in bad["reason"]


def test_moves_read_once_are_not_confused_with_lookalikes(client: TestClient) -> None:
    good = {"card": None, "from": ["column", 1], "to": ["cell", 5]}
    assert post(client, "/api/state", {"code": CODE, "moves": [good]})["moves_applied"] == 1
    for lookalike in (
        {"card": None, "from": ["column", True], "to": ["cell", 5]},
        {"card": None, "from": ["column", 1.0], "to": ["cell", 5]},
        {"card": None, "from": ["column", 1], "to": ["cell", 5], "count": True},
    ):
        error(client, "/api/state", 422, json={"code": CODE, "moves": [lookalike]})


def test_each_moves_card_is_checked_where_it_was_played(
    client: TestClient, line: list[Move]
) -> None:
    moves = as_json(line[:60], start())
    data = post(client, "/api/state", {"code": CODE, "moves": moves})
    # A card written another way ("th" for "TH", "10H") names the same card.
    other = [{**m, "card": m["card"].lower()} for m in moves]
    ten = next(i for i, m in enumerate(moves) if m["card"][0] == "T")
    other[ten]["card"] = "10" + moves[ten]["card"][1]
    assert post(client, "/api/state", {"code": CODE, "moves": other}) == data
    # Another card than the one that moves there: refused at that move, in its words.
    k = 47
    wrong = next(m["card"] for m in moves if m["card"] != moves[k]["card"])
    bad = error(
        client,
        "/api/state",
        422,
        json={"code": CODE, "moves": [*moves[:k], {**moves[k], "card": wrong}, *moves[k + 1 :]]},
    )
    assert bad["index"] == k
    assert f"the card that moves is {moves[k]['card']}, not {wrong}" in bad["reason"]
    # An illegal move before it is reported first; a wrong card before an illegal move too.
    illegal = {"from": ["column", 1], "to": ["column", 1]}
    early = [*moves[:10], illegal, *moves[10:k], {**moves[k], "card": wrong}]
    assert error(client, "/api/state", 422, json={"code": CODE, "moves": early})["index"] == 10
    late = [*moves[:k], {**moves[k], "card": wrong}, *moves[k + 1 :], illegal]
    assert error(client, "/api/state", 422, json={"code": CODE, "moves": late})["index"] == k


def test_start_up_objects_are_kept_out_of_full_garbage_collections() -> None:
    gc.unfreeze()
    try:
        with TestClient(create_app()) as started:  # runs the start-up (lifespan)
            assert gc.get_freeze_count() > 10_000
            assert started.get("/api/rules").status_code == 200
    finally:
        gc.unfreeze()
