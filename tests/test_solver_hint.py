"""Hints: a move on a winning line, or the way back to the last winnable position."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from eightoff.codes import GameCode
from eightoff.formats import move_from_json, move_to_json
from eightoff.game import Game
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import Rules
from eightoff.solver import Limit, Verdict, core, hint, solve
from eightoff.web.app import Limits, create_app
from support import hard_endgame, pysol_position

UNLIMITED = Limit(nodes=None, seconds=None)


def test_hint_is_on_a_winning_line() -> None:
    game = Game(position=pysol_position(1))
    for _ in range(5):
        h = hint(game)
        assert h.winnable is True and h.undo_to is None
        assert h.move is not None
        game.play(h.move)
        assert solve(game.position).verdict is Verdict.SOLVED


def test_hint_on_won_game() -> None:
    game = Game(position=Position([()] * 8, foundations=(13, 13, 13, 13)))
    h = hint(game)
    assert h.move is None and h.winnable is True


def test_unwinnable_deal_has_nowhere_to_go_back() -> None:
    game = Game(position=pysol_position(644))
    h = hint(game, limit=UNLIMITED)
    assert h.winnable is False
    assert h.undo_to is None and h.move is None


def _winnable_then_lost() -> tuple[Position, int]:
    # A small winnable endgame and the index of a legal move that loses it.
    rng = random.Random(11)
    rules = Rules(cells=2)
    for _ in range(100):  # bounded: a solver that never says "unsolvable" fails here
        pos = hard_endgame(rng, rules, 26)
        if solve(pos, limit=UNLIMITED).verdict is not Verdict.SOLVED:
            continue
        for i, move in enumerate(pos.legal_moves()):
            after = pos.apply(move)
            if solve(after, limit=UNLIMITED).verdict is Verdict.UNSOLVABLE:
                return pos, i
    raise AssertionError("no winnable endgame with a losing move among 100")


@pytest.mark.parametrize("solver", ["c", "reference"])
def test_lost_game_points_back_to_last_winnable_position(
    solver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if solver == "reference":  # what runs without the C core
        monkeypatch.setattr(core, "native", None)
    start, losing = _winnable_then_lost()
    game = Game(position=start)
    game.play(start.legal_moves()[losing])
    # Wander on a little: every later position is lost too.
    for _ in range(3):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.play(moves[0])
    h = hint(game, limit=UNLIMITED)
    assert h.winnable is False
    assert h.undo_to == 0
    assert h.move is not None
    after = game.positions()[0].apply(h.move)
    assert solve(after, limit=UNLIMITED).verdict is Verdict.SOLVED
    assert "undo" in h.detail


# A winnable deal of four cells, lost after these moves. The last one lays 6♣ on column
# 1, whose exposed card was 7♣ in the last winnable position, where the hint's move
# starts from column 1.
SPOILED_CODE = "EO1-C4-AAAAABH"
SPOILED_MOVES = ["1^", "d^", "4d", "a8", "c8", "4a", "4c", "47", "4^", "7^", "7^", "14", "51"]


def test_a_lost_hint_names_its_card_in_the_position_to_undo_to() -> None:
    game = Game(GameCode.parse(SPOILED_CODE))
    moves = []
    for text in SPOILED_MOVES:
        moves.append(move_to_json(Move.from_text(text), game.position))
        game.play(Move.from_text(text))
    client = TestClient(create_app(seed=7, limits=Limits(hint_seconds=30)))
    response = client.post("/api/hint", json={"code": SPOILED_CODE, "moves": moves})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["winnable"] is False and data["undo_to"] is not None
    there = game.positions()[data["undo_to"]]
    hinted = move_from_json({k: v for k, v in data["move"].items() if k != "card"})
    assert there.is_legal(hinted)
    # The card the hint names is the one that moves from the position to undo to...
    assert data["move"] == move_to_json(hinted, there, text=True)
    # ...which another card covers now, so the current position would name a wrong one.
    assert game.position.top(hinted.source) != there.top(hinted.source), (
        "the hinted source holds the same card in both positions: this case no longer "
        "tells them apart"
    )
