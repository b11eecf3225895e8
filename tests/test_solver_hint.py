"""Hints: a move on a winning line, or the way back to the last winnable position."""

from __future__ import annotations

import random

import pytest

from eightoff.game import Game
from eightoff.position import Position
from eightoff.rules import Rules
from eightoff.solver import Limit, Verdict, core, hint, solve
from test_solver import pysol_position
from test_solver_oracle import hard_endgame

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
