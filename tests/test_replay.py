"""Game.replay's fast path (a Board, no Position per move) against the slow one.

The slow path lists the legal moves at every step: a move is played when it is in
``legal_moves``, else the engine's ``illegality`` says why not. Random games under
random rule variants, with an illegal move slipped in at a random step, must replay
the same way through both: same positions, score, cards, and the same error (index,
reason code and words) at the same move.
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eightoff.cards import Card
from eightoff.deal import deal
from eightoff.errors import IllegalMoveError
from eightoff.game import Game, ReplayError
from eightoff.moves import Move, PlaceKind
from eightoff.position import Board, Position
from eightoff.rules import Rules
from test_properties import candidates, deal_numbers, pick, stable, variants


def random_walk(start: Position, rng: random.Random, steps: int) -> list[Move]:
    """Up to ``steps`` random legal moves from ``start``."""
    moves: list[Move] = []
    pos = start
    for _ in range(steps):
        legal = pos.legal_moves()
        if not legal:
            break
        move = pick(legal, rng)
        moves.append(move)
        pos = pos.apply_unchecked(move)
    return moves


def slow_replay(
    start: Position, moves: list[Move]
) -> tuple[list[Position], list[Card], IllegalMoveError | None]:
    """Positions, moving cards and the first error, listing the legal moves at each step."""
    positions: list[Position] = [start]
    cards: list[Card] = []
    pos = start
    for move in moves:
        if move not in pos.legal_moves():
            error = pos.illegality(move)
            assert error is not None, (str(pos), str(move))
            return positions, cards, error
        cards.append(pos.moving_cards(move)[0])
        pos = pos.apply_unchecked(move)
        positions.append(pos)
    return positions, cards, None


def spoil(moves: list[Move], start: Position, rng: random.Random) -> list[Move]:
    """``moves`` with an illegal move put in at a random step (a random place, card count)."""
    at = rng.randrange(len(moves) + 1)
    pos = start
    for move in moves[:at]:
        pos = pos.apply_unchecked(move)
    legal = set(pos.legal_moves())
    bad = [m for m in candidates(pos) if m not in legal]
    return [*moves[:at], rng.choice(bad), *moves[at:]]


@stable(60)
@given(rules=variants, number=deal_numbers, seed=st.integers(0, 2**32), spoiled=st.booleans())
def test_fast_replay_agrees_with_listing_legal_moves(
    rules: Rules, number: int, seed: int, spoiled: bool
) -> None:
    rng = random.Random(seed)
    start = deal(number, rules)
    moves = random_walk(start, rng, rng.randint(0, 120))
    if spoiled:
        moves = spoil(moves, start, rng)
    positions, cards, error = slow_replay(start, moves)

    game = Game(position=start)
    if error is None:
        assert game.replay(moves) == len(moves)
    else:
        with pytest.raises(ReplayError) as caught:
            game.replay(moves)
        assert caught.value.index == len(positions) - 1
        assert (caught.value.move, caught.value.code, caught.value.reason) == (
            error.move,
            error.code,
            error.reason,
        )
    assert game.position == positions[-1]
    assert [c for a in game.actions for c in a.cards] == cards
    # One move at a time through Game.play (Position.apply): the same score and actions.
    played = Game(position=start)
    for move in moves[: len(positions) - 1]:
        played.play(move)
    assert game.score == played.score
    assert game.actions == played.actions
    assert [a.cards for a in game.actions] == [a.cards for a in played.actions]
    # The positions not built during the replay are built when asked for.
    assert game.positions() == positions
    while game.undo() is not None:
        assert game.position == positions[len(game.actions)]


def test_replay_of_grouped_actions_builds_the_skipped_positions_on_undo() -> None:
    start = deal(7, Rules())
    autoplayed = Game(position=start, autoplay=True)
    for move in random_walk(start, random.Random(3), 60):
        if autoplayed.position.is_legal(move):
            autoplayed.play(move)
    groups = [list(a.moves) for a in autoplayed.actions]
    assert any(len(g) > 1 for g in groups), "the walk should set off autoplay"

    game = Game(position=start)
    assert game.replay(groups) == sum(len(g) for g in groups)
    assert game.actions == autoplayed.actions and game.score == autoplayed.score
    assert game.position == autoplayed.position
    # Undo walks back through positions the replay never built.
    expected = autoplayed.positions()
    while game.undo() is not None:
        assert game.position == expected[len(game.actions)]
    assert game.redo() is not None and game.position == expected[1]


def test_replay_stopped_inside_a_group_keeps_the_actions_before_it() -> None:
    start = deal(11, Rules())
    moves = random_walk(start, random.Random(5), 10)
    positions, _, _ = slow_replay(start, moves)
    bad = Move.from_text("11")
    game = Game(position=start)
    with pytest.raises(ReplayError) as caught:
        game.replay([[m] for m in moves[:6]] + [[moves[6], moves[7], bad]])
    assert caught.value.index == 8
    assert caught.value.reason == "source and target are the same place"
    assert len(game.actions) == 6 and game.position == positions[6]
    assert game.positions() == positions[:7]


@stable(20)
@given(rules=variants, number=deal_numbers, seed=st.integers(0, 2**32))
def test_board_checks_and_plays_as_position_does(rules: Rules, number: int, seed: int) -> None:
    rng = random.Random(seed)
    pos = deal(number, rules)
    for move in random_walk(pos, rng, rng.randint(0, 60)):
        pos = pos.apply_unchecked(move)
    board = Board(pos)
    assert board.position() == pos
    for move in candidates(pos):
        ours, theirs = board.illegality(move), pos.illegality(move)
        assert (ours is None) == (theirs is None)
        if ours is not None and theirs is not None:
            assert (ours.code, ours.reason) == (theirs.code, theirs.reason)
    for move in pos.legal_moves():
        board = Board(pos)
        card = board.play(move)
        assert card == pos.moving_cards(move)[0]
        assert board.position() == pos.apply_unchecked(move)
        if move.target.kind is PlaceKind.FOUNDATION:
            assert board.foundations[card // 13] == pos.foundations[card // 13] + 1
