"""kernel.js, the page's loader of kernel.wasm, under Node: its answers in the API's JSON
are the API's own (``POST /api/state``: legal moves, the position after a move, the
autoplay, the reason a move is refused) and the C core's (``POST /api/solve``'s verdict
and line), on positions reached by random play under every rule book. One Node process
answers every call (``tests/support/kernel_cases.mjs``); ``tests/test_wasm.py`` holds
the module itself to the engine."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.codes import GameCode
from eightoff.formats import position_to_json
from eightoff.moverules import why_not
from eightoff.moves import FOUNDATION, Move, Place, PlaceKind
from eightoff.position import Position
from eightoff.rules import OPTIONS, Rules
from eightoff.solver import Limit, solve
from eightoff.web.app import create_app
from support import candidates, needs_native
from support.wasm import WASM, needs_wasm

pytestmark = [needs_wasm, needs_native, pytest.mark.node]

KERNEL_JS = WASM.parent / "kernel.js"
DRIVER = Path(__file__).resolve().parent / "support" / "kernel_cases.mjs"


def run_node(calls: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """Each call's answer from kernel.js under Node (``{"ok": ...}`` or ``{"error": ...}``)."""
    node = shutil.which("node")
    assert node is not None
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(calls), encoding="utf-8")
    done = subprocess.run(
        [node, str(DRIVER), str(KERNEL_JS), str(WASM), str(cases)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(answers) == len(calls)
    return answers


def rule_books() -> list[Rules]:
    """Every value of every rule option, each beside others (24 rule books)."""
    rng = random.Random(3)
    books = []
    for option in OPTIONS:
        for value in option.values:
            for _ in range(4 if option.name == "cells" else 2):
                picked = {o.name: rng.choice(o.values) for o in OPTIONS}
                books.append(Rules(**{**picked, option.name: value}))
    return books


def walk(code: GameCode, rng: random.Random) -> tuple[list[str], Position]:
    """Random legal moves from the deal of ``code``: their compact texts, and where they lead."""
    position = code.position()
    texts: list[str] = []
    for _ in range(rng.randrange(0, 70)):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        texts.append(move.text())
        position = position.apply(move)
    return texts, position


def has(place: Place, rules: Rules) -> bool:
    """Whether the rules have ``place`` (a foundation target: the one the card decides)."""
    if place.kind is PlaceKind.FOUNDATION:
        return place.index < 4 or place == FOUNDATION
    return place.index < (8 if place.kind is PlaceKind.COLUMN else rules.cells)


def state(client: TestClient, code: GameCode, moves: list[Any], autoplay: bool) -> Any:
    response = client.post(
        "/api/state", json={"code": str(code), "moves": moves, "autoplay": autoplay}
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_kernel_js_answers_as_the_api(tmp_path: Path) -> None:
    client = TestClient(create_app(seed=7))
    rng = random.Random(11)
    calls: list[dict[str, Any]] = []
    expected: list[Any] = []
    books = rule_books()
    for n in range(300):
        rules = books[n % len(books)]
        code = GameCode(rules, rng.randrange(1_000_000))
        texts, position = walk(code, rng)
        here = state(client, code, texts, autoplay=False)
        shown = here["position"]
        assert shown == position_to_json(position)
        calls.append({"op": "legalMoves", "position": shown})
        expected.append({"ok": here["legal_moves"]})
        if here["legal_moves"]:
            move = rng.choice(here["legal_moves"])
            after = state(client, code, [*texts, move["text"]], autoplay=False)
            given = move["text"] if n % 2 else {k: v for k, v in move.items() if k != "text"}
            calls.append({"op": "play", "rules": shown["rules"], "position": shown, "move": given})
            expected.append({"ok": {"position": after["position"], "move": move}})
            calls.append({"op": "whyNot", "position": shown, "move": given})
            expected.append({"ok": None})
            wrong = dict(move, card="KS" if move["card"] != "KS" else "KH")
            calls.append({"op": "play", "position": shown, "move": wrong})
            expected.append({"ok": {"refused": "unreadable"}})
        illegal = [
            m
            for m in candidates(position)
            if m.count >= 1 and has(m.source, rules) and has(m.target, rules)
            and not position.is_legal(m)
        ]  # fmt: skip
        refused = rng.choice(illegal)
        calls.append({"op": "play", "position": shown, "move": refused.text()})
        expected.append({"ok": {"refused": "illegal"}})
        sent = Move.from_text(refused.text())  # a foundation target's suit is not written
        reason = why_not(rules, position.columns, position.cells, position.foundations, sent)
        assert reason is not None
        calls.append({"op": "whyNot", "position": shown, "move": refused.text()})
        expected.append({"ok": {"reason": str(reason[0])}})
        if not texts or not texts[-1].startswith("^"):  # a take-back is not sent home again
            settled = state(client, code, texts, autoplay=True)
            calls.append({"op": "autoplayMoves", "position": shown})
            expected.append({"ok": settled["autoplayed"]})
        if n % 3 == 0:
            nodes = rng.choice([300, 2000, 10_000])
            result = solve(position, limit=Limit(nodes=nodes))
            line = result.to_json(position)
            for move_json, played in zip(line["moves"], result.moves, strict=True):
                move_json["text"] = played.text()
            calls.append(
                {"op": "solve", "position": shown, "options": {"maxNodes": nodes, "seconds": 60}}
            )
            expected.append({"ok": {k: line[k] for k in ("verdict", "moves", "length", "optimal")}})
    bad = dict(shown, columns=[["AS", "AS"], *shown["columns"][1:]])
    calls.append({"op": "legalMoves", "position": bad})
    expected.append({"error": "RangeError"})

    answers = run_node(calls, tmp_path)
    verdicts = set()
    for call, want, got in zip(calls, expected, answers, strict=True):
        assert ("ok" in got) == ("ok" in want), (call, got)
        if "error" in want:
            assert got["error"] == want["error"], got
            continue
        answer = got["ok"]
        if call["op"] == "play" and "refused" in want["ok"]:
            assert answer["refused"] == want["ok"]["refused"], (call, answer)
            assert answer["reason"]
        elif call["op"] == "whyNot" and want["ok"] is not None:
            assert answer["reason"] == want["ok"]["reason"], (call, answer)
        elif call["op"] == "solve":
            assert {k: answer[k] for k in want["ok"]} == want["ok"], call
            verdicts.add(answer["verdict"])
        else:
            assert answer == want["ok"], call
    assert verdicts == {"solved", "unsolvable", "unknown"}
    assert len(calls) > 1000
