"""The page's local game service (static/local/, run in Node on the kernel) answers every
request as the server's routes do: the same JSON, byte for byte once canonical, for random
games of every preset (random legal moves, autoplay on and off, winning lines, illegal and
unreadable moves thrown in), for thousands of game codes good and bad, and their deals."""

from __future__ import annotations

import random
import string
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from eightoff.codes import OPTION_LETTERS, GameCode
from eightoff.deal import DEALS, PYSOL_MAX
from eightoff.formats import move_to_json
from eightoff.game import autoplay_moves
from eightoff.moves import Move, PlaceKind
from eightoff.position import Position
from eightoff.rules import CELL_COUNTS, OPTIONS, PRESETS, Rules
from eightoff.solver import Limit, solve
from support.local import (
    Request,
    canonical,
    differences,
    local_answers,
    needs_node_and_kernel,
    server,
    server_answer,
)

pytestmark = needs_node_and_kernel

GAMES = 1000
"""Random games per preset."""
WON_LINES = 60
"""Of them, games that follow the solver's winning line (far enough to win, some of them)."""

NOISE = [
    "zz",
    "3",
    "",
    "9a",
    "^3",
    "35x0",
    "35x01",
    "3a5",
    "^Z3",
    "h1x2",
    "a",
    "x",
    "  3 a ",
    "3^H",
    "ab",
]
"""Unreadable (or oddly written) moves in the compact notation."""
BAD_OBJECTS: list[Any] = [
    {"from": ["column", 3]},
    {"card": "XX", "from": ["column", 1], "to": ["cell", 1]},
    {"card": 7, "from": ["column", 1], "to": ["cell", 1]},
    {"from": ["column", 9], "to": ["cell", 1]},
    {"from": ["cell", 0], "to": ["column", 1]},
    {"from": ["pile", 1], "to": ["cell", 1]},
    {"from": ["foundation"], "to": ["column", 1]},
    {"from": ["foundation", "Q"], "to": ["column", 1]},
    {"from": ["column", 1], "to": ["cell", 1], "count": 0},
    {"from": ["column", 1], "to": ["cell", 1], "count": True},
    {"from": ["column", 1], "to": ["cell", 1], "text": "1b"},
    {"from": ["column", 1], "to": ["cell", 1], "extra": 1},
    {"from": "column", "to": ["cell", 1]},
    {"from": ["column", "1"], "to": ["cell", 1]},
    {"card": "AS", "from": ["foundation", "H"], "to": ["cell", 1]},
    "not a move at all, and rather long too: it is cut in the message",
]


def _as_sent(rng: random.Random, move: Move, pos: Position) -> Any:
    """``move`` as a page or a client may send it: its notation, or JSON with or without
    its card (now and then the wrong card)."""
    roll = rng.random()
    if roll < 0.7:
        return move.text()
    data = move_to_json(move, pos, text=roll < 0.8)
    if roll > 0.998 and "card" in data:
        data["card"] = rng.choice(["7H", "TS", "10s", "ah", "K♣"])
    elif roll > 0.95:
        data["card"] = (
            data["card"].lower()
            if roll > 0.97
            else data["card"][0] + "♠♥♦♣"["SHDC".index(data["card"][1])]
        )
    elif roll > 0.9:
        data.pop("card", None)
    return data


def _illegal(rng: random.Random, pos: Position) -> Move:
    legal = set(pos.legal_moves())
    while True:
        text = rng.choice("12345678abcdefgh^") + rng.choice("12345678abcdefgh^")
        if rng.random() < 0.2:
            text += f"x{rng.randrange(2, 6)}"
        try:
            move = Move.from_text(text)
        except ValueError:
            continue
        if move not in legal:
            return move


def _game(rng: random.Random, code: GameCode, line: list[Move] | None) -> list[Request]:
    """Requests for one game: the state after a prefix of its moves and after all of them
    (the last with an unreadable or illegal move now and then, or a refusal asked for)."""
    pos = code.position()
    autoplay = rng.random() < 0.4  # a winning line plays its own moves home: none added
    adds = autoplay and line is None
    sent: list[Any] = []
    steps = len(line) if line is not None else rng.randrange(0, 70)
    if line is not None and rng.random() < 0.5:
        steps = rng.randrange(0, steps + 1)
    for k in range(steps):
        legal = pos.legal_moves()
        if not legal:
            break
        if line is not None:
            move = line[k]
        else:
            home = [m for m in legal if m.target.kind is PlaceKind.FOUNDATION]
            move = rng.choice(home if home and rng.random() < 0.5 else legal)
        sent.append(_as_sent(rng, move, pos))
        pos = pos.apply(move)
        if adds and move.source.kind is not PlaceKind.FOUNDATION:
            for m in autoplay_moves(pos):  # the page adds autoplay's moves to the action
                sent.append(m.text())
                pos = pos.apply_unchecked(m)
    text = str(code) if rng.random() < 0.8 else str(code).lower().replace("-", " ", 2)
    body: dict[str, Any] = {"code": text, "moves": sent[: rng.randrange(0, len(sent) + 1)]}
    body["autoplay"] = autoplay
    requests: list[Request] = [("/api/state", body)]
    last = {"code": text, "moves": list(sent), "autoplay": autoplay or rng.random() < 0.2}
    roll = rng.random()
    if roll < 0.15:
        last["moves"].append(_illegal(rng, pos).text())
    elif roll < 0.2:
        last["moves"].append(rng.choice(NOISE + BAD_OBJECTS))
    elif roll < 0.25 and sent:
        at = rng.randrange(len(sent))
        last["moves"][at] = _illegal(rng, code.position()).text() if at == 0 else rng.choice(NOISE)
    if rng.random() < 0.2:
        last["refusal_ok"] = True
    requests.append(("/api/state", last))
    return requests


def _winning_line(rng: random.Random, rules: Rules) -> tuple[GameCode, list[Move]]:
    while True:
        code = GameCode.random(rules, rng)
        result = solve(code.position(), limit=Limit(nodes=100_000, seconds=None))
        if result.solved:
            return code, list(result.moves)


def _compare(requests: list[Request]) -> list[dict[str, Any]]:
    """Assert the local service answers ``requests`` as the server does; the answers."""
    with ThreadPoolExecutor(1) as pool:  # Node answers while the server does
        local = pool.submit(local_answers, requests)
        service = server()
        theirs = [server_answer(service, path, body) for path, body in requests]
        ours = local.result()
    found = differences(requests, ours, theirs)
    same = sum(canonical(a) == canonical(b) for a, b in zip(ours, theirs, strict=True))
    assert not found, f"{len(requests) - same} of {len(requests)} answers differ:\n" + "\n".join(
        found
    )
    return theirs


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_games_are_answered_as_the_server_answers(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(f"games-{name}")
    requests: list[Request] = []
    for g in range(GAMES):
        if g < WON_LINES:
            code, line = _winning_line(rng, rules)
            requests += _game(rng, code, line)
        else:
            requests += _game(rng, GameCode.random(rules, rng), None)
    answers = _compare(requests)
    statuses = {(r["status"], r["body"].get("status")) for r in answers}
    assert {(200, "playing"), (200, "won"), (200, "stuck"), (422, None)} <= statuses


def test_won_games_and_their_finish_are_answered_as_the_server_answers() -> None:
    rng = random.Random("won")
    requests: list[Request] = []
    for name in sorted(PRESETS):
        for _ in range(8):
            code, line = _winning_line(rng, PRESETS[name])
            for cut in (len(line), len(line) - 1, max(0, len(line) - 8)):
                requests.append(
                    ("/api/state", {"code": str(code), "moves": [m.text() for m in line[:cut]]})
                )
                requests.append(
                    (
                        "/api/state",
                        {
                            "code": str(code),
                            "moves": [m.text() for m in line[:cut]],
                            "autoplay": True,
                        },
                    )
                )
    answers = _compare(requests)
    assert any(a["body"].get("status") == "won" for a in answers)
    assert any(a["body"].get("finish") for a in answers)


# -- game codes ------------------------------------------------------------------------------


def _random_rules(rng: random.Random) -> Rules:
    return Rules(**{o.name: rng.choice(o.values) for o in OPTIONS})


def _random_code(rng: random.Random) -> GameCode:
    rules = _random_rules(rng)
    if rng.random() < 0.2:
        return GameCode(
            rules,
            rng.randrange(1, PYSOL_MAX) if rng.random() < 0.5 else rng.randrange(1, 40_000),
            "pysol",
        )
    return GameCode(rules, rng.randrange(DEALS))


def _respelled(rng: random.Random, text: str) -> str:
    """The code as a person may type it: any case, spaces, dashes dropped or doubled."""
    out = text.lower() if rng.random() < 0.3 else text
    if rng.random() < 0.3:
        out = out.replace("-", rng.choice(["", " - ", "--", " "]), 2 if rng.random() < 0.5 else -1)
    if rng.random() < 0.2:
        out = f"  {out}\t"
    return out


def _malformed(rng: random.Random, text: str) -> str:
    """``text`` with one mistake a person makes, or a stranger one."""
    chars = list(text)
    roll = rng.randrange(12)
    at = rng.randrange(len(chars))
    if roll == 0:
        chars[at] = rng.choice("0125689")
    elif roll == 1:
        chars[at] = rng.choice("é€ñ☃\u00a0\u2003💡")
    elif roll == 2:
        del chars[at]
    elif roll == 3:
        chars.insert(at, rng.choice(string.ascii_uppercase + string.digits + "-_ '\\\""))
    elif roll == 4:
        return (
            text
            + "-"
            + "".join(rng.choice(OPTION_LETTERS + "XYZ") for _ in range(rng.randrange(1, 4)))
        )
    elif roll == 5:
        return text.replace("EO1", rng.choice(["E01", "EO2", "EO", "EO18", "OE1", "EO1C", ""]), 1)
    elif roll == 6:
        return text.replace("-C", rng.choice(["-C3", "-", "-C", "-C88", "-c 4"]), 1)
    elif roll == 7:
        return text + rng.choice(string.ascii_uppercase) * rng.randrange(1, 60)
    elif roll == 8:
        return rng.choice(
            ["", "   ", "-", "--", "EO1", "EO1-C8", "EO1-C8-", "hello", "EO1-C8-AAAAAAA-PP"]
        )
    elif roll == 9:
        return text[: rng.randrange(len(text))]
    elif roll == 10:
        return text.replace("-", "", 1) if "-" in text else text + "-"
    else:
        return "EO1-C8-AAAAAAA-" + "".join(rng.sample("EABSFTP", rng.randrange(1, 5)))
    return "".join(chars)


def test_codes_good_and_bad_read_and_deal_as_the_server_reads_them() -> None:
    rng = random.Random("codes")
    requests: list[Request] = []
    for _ in range(2500):
        code = _random_code(rng)
        requests.append(("/api/new", {"code": _respelled(rng, str(code))}))
    for _ in range(2500):
        requests.append(("/api/new", {"code": _malformed(rng, str(_random_code(rng)))}))
    requests = [(p, b) for p, b in requests if len(b["code"]) <= 100]  # longer: the schema's
    answers = _compare(requests)
    assert sum(a["status"] == 200 for a in answers) > 2500
    faults = {a["body"]["fault"]["code"] for a in answers if a["status"] == 400}
    assert {"deal-lookalike", "not-ascii", "option", "cells", "deal-long", "version"} <= faults


def test_a_code_too_long_for_the_schema_is_refused_in_the_schema_s_words() -> None:
    from fastapi.testclient import TestClient

    from eightoff.web.app import create_app

    body = {"code": "EO1-C8-" + "A" * 120}
    with TestClient(create_app()) as client:
        said = client.post("/api/new", json=body)
    (ours,) = local_answers([("/api/new", body)])
    assert ours["status"] == said.status_code == 422
    assert ours["body"]["error"] == said.json()["error"]


def test_the_rule_table_is_the_engine_s() -> None:
    # The local modules' options, presets and letters are those GET /api/rules declares.
    from eightoff.web.routes.rules import RULES_INFO

    requests: list[Request] = []
    for name, info in RULES_INFO["presets"].items():
        requests.append(("/api/new", {"code": str(GameCode(PRESETS[name], 7))}))
        for cells in CELL_COUNTS:
            rules = Rules.from_json({**info["rules"], "cells": cells})
            requests.append(("/api/new", {"code": str(GameCode(rules, 7))}))
    answers = local_answers(requests)
    for (_, body), answer in zip(requests, answers, strict=True):
        code = GameCode.parse(body["code"])
        assert answer["body"]["rules"] == code.rules.to_json()
        assert answer["body"]["rules_text"] == code.rules.describe()
        assert answer["body"]["code"] == str(code)


def test_the_page_s_rule_table_is_written_from_the_engine_s_declaration() -> None:
    # static/local/ruletable.js is generated: a rule option changed in eightoff.rules and
    # not written out again fails here, with the command that writes it.
    from eightoff.web import ruletable
    from eightoff.web.routes.rules import RULES_INFO

    written = ruletable.MODULE.read_text("utf-8")
    assert written == ruletable.module_text(), "run: python -m eightoff.web.ruletable"
    assert RULES_INFO["table"] == ruletable.table()


# -- the solver: hints and solutions -----------------------------------------------------------

LOST = ("EO1-C4-AAAAABH", ["65", "6^", "1^", "d^", "a8", "8d", "7a"])
"""A winnable Baker's-style deal made lost by its last move: the hint says undo to move 6."""


def test_hints_and_solutions_are_the_server_s() -> None:
    # The kernel's solver is the server's C core: the same verdicts, lines and words, the
    # lost position's "undo to move N" included (only the seconds it took differ).
    rng = random.Random("hints")
    requests: list[Request] = [
        ("/api/hint", {"code": LOST[0], "moves": LOST[1]}),
        ("/api/hint", {"code": LOST[0], "moves": LOST[1][:3]}),
        ("/api/hint", {"code": "EO1-C2-AAAAAAB", "moves": []}),  # lost from the deal on
        ("/api/solve", {"code": LOST[0], "moves": LOST[1]}),
        ("/api/hint", {"code": str(GameCode(PRESETS["standard"], 0)), "moves": ["zz"]}),
    ]
    for name in sorted(PRESETS):
        code, line = _winning_line(rng, PRESETS[name])
        cut = rng.randrange(len(line))
        moves = [m.text() for m in line[:cut]]
        requests.append(("/api/hint", {"code": str(code), "moves": moves}))
        requests.append(("/api/solve", {"code": str(code), "moves": moves}))
        requests.append(("/api/hint", {"code": str(code), "moves": [m.text() for m in line]}))
    service = server()
    try:
        theirs = [server_answer(service, path, body) for path, body in requests]
    finally:
        service.processes.close()
    ours = local_answers(requests)
    for answer in (*ours, *theirs):
        answer["body"].pop("seconds", None)
    assert theirs[0]["body"]["undo_to"] == 6 and theirs[2]["body"]["winnable"] is False
    found = differences(requests, ours, theirs)
    assert not found, "\n".join(found)


def test_refused_requests_are_refused_in_the_server_s_words() -> None:
    code = str(GameCode(PRESETS["standard"], 5))
    requests: list[Request] = [
        ("/api/state", {"code": code, "moves": ["1a"] * 10_001}),  # too many
        ("/api/state", {"code": code, "moves": ["1a"] * 10_001, "refusal_ok": True}),
        ("/api/state", {"code": "EO1-C9-AAAAAAA", "moves": ["1a"]}),  # a bad code
        ("/api/state", {"code": "EO1-C8-AAAAAAA", "moves": ["1a", "1a", "1a"] * 3}),
        ("/api/hint", {"code": "EO1-C8-AAAAAAA-Q", "moves": []}),
        ("/api/solve", {"code": code, "moves": ["^H1"]}),
        ("/api/state", {"code": code}),  # no moves: the deal
    ]
    _compare(requests)
