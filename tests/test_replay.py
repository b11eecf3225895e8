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
from eightoff.game import Game, ReplayError
from eightoff.moves import FOUNDATION, IllegalMoveError, Move, PlaceKind, cell, column
from eightoff.position import Board, Position
from eightoff.rules import Rules
from eightoff.solver import core
from support import candidates, deal_numbers, needs_native, pick, stable, variants


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


def test_replay_of_single_moves_and_groups_mixed() -> None:
    # Each move alone is its own action, each group one action, an empty group none.
    start = deal(11, Rules())
    moves = random_walk(start, random.Random(5), 12)
    m = moves
    items = [m[0], m[1], [m[2], m[3]], [], m[4], [m[5]], m[6], m[7], m[8:11], m[11]]
    game = Game(position=start)
    assert game.replay(items) == 12
    groups = [[m[0]], [m[1]], m[2:4], [m[4]], [m[5]], [m[6]], [m[7]], m[8:11], [m[11]]]
    assert [list(a.moves) for a in game.actions] == groups
    positions, cards, _ = slow_replay(start, moves)
    assert game.position == positions[-1]
    assert [c for a in game.actions for c in a.cards] == cards
    at = [sum(len(g) for g in groups[:n]) for n in range(len(groups) + 1)]
    assert game.positions() == [positions[i] for i in at]


@pytest.mark.parametrize("group_first", [True, False])
def test_replay_counts_the_moves_of_groups_and_single_moves_to_the_illegal_one(
    group_first: bool,
) -> None:
    start = deal(11, Rules())
    m = random_walk(start, random.Random(5), 4)
    positions, _, _ = slow_replay(start, m)
    bad = Move.from_text("11")
    items = [m[0:2], m[2], m[3], bad] if group_first else [m[0], m[1], m[2:4], bad]
    game = Game(position=start)
    with pytest.raises(ReplayError) as caught:
        game.replay(items)
    assert caught.value.index == 4 and caught.value.move == bad
    assert len(game.actions) == 3 and game.position == positions[4]


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
    assert game.replay([]) == 0  # nothing more, from where the group stopped
    assert len(game.actions) == 6 and game.position == positions[6]
    assert game.positions() == positions[:7]


@pytest.mark.parametrize("count", [1, 3])
def test_replay_after_an_undo_drops_the_undone_action(count: int) -> None:
    start = deal(11, Rules())
    undone, *_ = start.legal_moves()
    game = Game(position=start)
    game.play(undone)
    game.undo()
    moves = random_walk(start, random.Random(8), count)
    assert moves[0] != undone
    positions, _, _ = slow_replay(start, moves)
    assert game.replay(moves) == count
    assert game.position == positions[-1] and game.positions() == positions
    assert not game.can_redo


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


def python_play_all(board: Board, moves: list[Move]) -> tuple[list[Card], IllegalMoveError | None]:
    """Board.play_all without the C core: Board.play, one move at a time."""
    cards: list[Card] = []
    for move in moves:
        try:
            cards.append(board.play(move))
        except IllegalMoveError as error:
            return cards, error
    return cards, None


@stable(60)
@given(rules=variants, number=deal_numbers, seed=st.integers(0, 2**32), spoiled=st.booleans())
def test_the_c_cores_replay_agrees_with_the_engines(
    rules: Rules, number: int, seed: int, spoiled: bool
) -> None:
    # Board.play_all hands long lists to the C core (a move is legal there when it is
    # one of the engine's legal moves): the same cards, stop, error and board as the
    # engine's own check of each move.
    rng = random.Random(seed)
    start = deal(number, rules)
    moves = random_walk(start, rng, rng.randint(8, 150))
    if spoiled:
        moves = spoil(moves, start, rng)
    fast, slow = Board(start), Board(start)
    cards, error = fast.play_all(moves)
    expected, expected_error = python_play_all(slow, moves)
    assert cards == expected
    assert fast.position() == slow.position()
    if expected_error is None:
        assert error is None
    else:
        assert error is not None
        assert (error.move, error.code, error.reason) == (
            expected_error.move,
            expected_error.code,
            expected_error.reason,
        )


@needs_native
def test_the_c_core_plays_a_legal_walk_to_its_end_and_stops_at_an_illegal_move() -> None:
    rng = random.Random(7)
    start = deal(3, Rules())
    moves = random_walk(start, rng, 200)
    cols, cells, founds = core.state(start)
    found = core.replay(start.rules, cols, cells, founds, moves)
    assert found is not None
    played, carried, *reached = found
    assert played == len(moves)  # the C core did it all, the engine had nothing left
    end = start
    for move in moves:
        end = end.apply(move)
    assert tuple(reached) == core.state(end)
    assert list(carried) == python_play_all(Board(start), moves)[0]
    # A move no legal list holds (a run too long, a place these rules lack) stops it there.
    for bad in (Move(column(0), column(1), 40), Move(cell(9), FOUNDATION), moves[0]):
        found = core.replay(start.rules, *core.state(end), [bad])
        assert found is not None and found[0] == (0 if end.illegality(bad) else 1)
