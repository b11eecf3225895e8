"""GameView: one engine answer per state, checked against the engine's own functions."""

from __future__ import annotations

import pytest

from eightoff.codes import GameCode
from eightoff.game import Game, Status, autoplay_moves, home_move, smart_move
from eightoff.moves import FOUNDATION, Move, PlaceKind, cell, column, foundation
from eightoff.rules import PRESETS, STANDARD, preset
from eightoff.solver import Limit, solve
from eightoff.view import target_pile
from support import board, wins


def winning_line(code: GameCode) -> list[Move]:
    result = solve(code.position(), limit=Limit(nodes=300_000, seconds=None))
    assert result.solved
    return list(result.moves)


@pytest.fixture(scope="module")
def line() -> list[Move]:
    return winning_line(GameCode(STANDARD, 0))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_view_answers_what_the_engine_answers(name: str) -> None:
    code = GameCode(preset(name), 3)
    game = Game(code)
    line = solve(code.position(), limit=Limit(nodes=300_000, seconds=None)).moves
    for step in range(0, len(line) + 1, 7):
        if step:
            game.replay(line[step - 7 : step])
        pos = game.position
        view = game.view()
        legal = pos.legal_moves()
        assert view.position is pos and view.score == game.score
        assert list(view.legal_moves) == legal
        assert view.status is game.status
        held = [column(i) for i, c in enumerate(pos.columns) if c]
        held += [cell(k) for k, c in enumerate(pos.cells) if c is not None]
        assert list(view.piles) == held
        for place, pile in view.piles.items():
            assert pile.home == home_move(pos, place)
            assert pile.smart == smart_move(pos, place)
            assert list(pile.moves) == [m for m in legal if m.source == place]
            assert set(pile.targets) == {target_pile(pos, m) for m in legal if m.source == place}
            for target in pile.targets:
                assert target.kind is not PlaceKind.FOUNDATION or target.index in range(4)
                move = view.move_to(place, target)
                assert move is not None and move in legal
        assert view.autoplay == tuple(autoplay_moves(pos))


def test_view_is_computed_once_per_state(line: list[Move]) -> None:
    game = Game(GameCode(STANDARD, 0))
    first = game.view()
    assert game.view() is first
    game.play(line[0])
    second = game.view()
    assert second is not first and second.position == game.position
    game.undo()
    assert game.view() is not second and game.view().position == first.position
    game.redo()
    assert game.view().position == second.position


def test_finish_is_none_mid_game_and_every_offered_finish_wins(line: list[Move]) -> None:
    game = Game(GameCode(STANDARD, 0))
    offered = 0
    for move in line:
        view = game.view()
        if view.finish is not None:
            offered += 1
            assert wins(view.position, view.finish)
            assert all(m.target == FOUNDATION for m in view.finish)
        game.play(move)
    assert game.status is Status.WON and game.view().finish is None
    assert offered >= 1
    # Mid-game, with cards still to sort, there is no finish.
    assert Game(GameCode(STANDARD, 0)).view().finish is None


def test_move_to_takes_the_longest_run_and_any_foundation() -> None:
    # Column 3 holds the run 9S 8S 7S 6S and column 2 is empty: with any card allowed
    # there, the longest run that leaves column 3 not empty moves (three cards).
    pos = board(["AH", "", "9S 8S 7S 6S"], rules=preset("easy"), rest=0)
    game = Game(position=pos)
    view = game.view()
    run = view.move_to(column(2), column(1))
    assert run == Move(column(2), column(1), 3)
    home = view.move_to(column(0), foundation(1))
    assert home == view.move_to(column(0), FOUNDATION) == Move(column(0), FOUNDATION)
    assert view.move_to(column(0), foundation(0)) is None  # the A♥ goes to hearts only


def test_autoplay_does_not_follow_a_take_back() -> None:
    app = preset("app")
    code = GameCode(app, 0)
    game = Game(code)
    for move in winning_line(code):
        game.play(move)
        if any(game.position.foundations) and None in game.position.cells:
            break
    suit = next(s for s, top in enumerate(game.position.foundations) if top)
    empty = game.position.cells.index(None)
    game.play(Move(foundation(suit), cell(empty)))
    assert autoplay_moves(game.position)  # the card could go straight back up ...
    assert game.autoplay_moves() == [] and game.view().autoplay == ()  # ... but does not
    assert game.settle() == [] and game.position.cells[empty] is not None
