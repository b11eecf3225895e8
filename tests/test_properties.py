"""Property tests (Hypothesis): random legal play under every rule variant.

* random legal play keeps the 52 distinct cards; every listed move applies;
* ``why_illegal(m) is None`` exactly when ``m`` is in ``legal_moves``, over every
  source/target/count combination (the key check between move generation and
  validation);
* undo restores the exact previous position, redo the next;
* the move notation round-trips.
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eightoff.deal import deal
from eightoff.game import Game
from eightoff.moves import FOUNDATION, IllegalMoveError, Move, cell, column
from eightoff.moves import foundation as foundation_place
from eightoff.position import Position
from eightoff.rules import PRESETS, GroupMoves, Rules, preset
from support import candidates, deal_numbers, pick, stable, variants


def assert_valid(pos: Position) -> None:
    """52 distinct cards: the validating constructor accepts a copy of ``pos``."""
    copy = Position(pos.columns, pos.cells, pos.foundations, pos.rules)
    assert copy == pos and hash(copy) == hash(pos)
    cards = [c for col in pos.columns for c in col] + [c for c in pos.cells if c is not None]
    assert len(cards) + sum(pos.foundations) == 52


def check_consistency(pos: Position) -> None:
    legal = pos.legal_moves()
    assert len(set(legal)) == len(legal), "legal_moves lists a move twice"
    legal_set = set(legal)
    tried = candidates(pos)
    for k, move in enumerate(tried):
        why = pos.why_illegal(move)
        assert (why is None) == (move in legal_set), (str(pos), str(move), why)
        if why is not None and k % 17 == 0:  # a sample: raising is slow
            with pytest.raises(IllegalMoveError, match=why):
                pos.apply(move)
    assert legal_set <= set(tried)


def play_randomly(game: Game, rng: random.Random, steps: int, *, check_every: int) -> int:
    """Play up to ``steps`` random legal moves with undo/redo checks; return how many."""
    played = 0
    for step in range(steps):
        pos = game.position
        legal = pos.legal_moves()
        if not legal:
            assert game.status in ("won", "stuck")
            # Back up a few actions and try another line (the redo line is then dropped).
            for _ in range(rng.randint(1, 6)):
                game.undo()
            if not game.position.legal_moves():
                break
            continue
        if check_every and step % check_every == 0:
            check_consistency(pos)
        move = pick(legal, rng)
        assert Move.from_text(str(move)) == move
        after = pos.apply(move)
        assert_valid(after)
        action = game.play(move)
        assert action.move == move
        assert game.positions()[-2] is pos
        # Undo restores the exact previous position, redo the next one.
        next_pos = game.position
        assert game.undo() == action and game.position == pos
        assert game.redo() == action and game.position == next_pos
        played += 1
    return played


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_random_legal_play(name: str) -> None:
    """25 games per preset, 150 moves each at most: at least 2,000 moves per preset."""
    played: list[int] = []

    @stable(25)
    @given(
        number=deal_numbers,
        cells=st.sampled_from([8, 4, 2]),
        group=st.sampled_from(list(GroupMoves)),
        take_back=st.booleans(),
        autoplay=st.booleans(),
        seed=st.integers(0, 2**32),
    )
    def play(
        number: int, cells: int, group: GroupMoves, take_back: bool, autoplay: bool, seed: int
    ) -> None:
        rules = preset(name).with_options(cells=cells, group_moves=group, take_back=take_back)
        game = Game(position=deal(number, rules), autoplay=autoplay)
        played.append(play_randomly(game, random.Random(seed), 150, check_every=0))
        # Undo everything: back to the deal, score 0; redo everything: the same end.
        while game.redo() is not None:  # the walk may end just after backing up
            pass
        end, score = game.position, game.score
        history = game.positions()
        while game.undo() is not None:
            assert game.position == history[len(game.actions)]
        assert game.position == game.start and game.score == 0
        while game.redo() is not None:
            pass
        assert game.position == end and game.score == score
        assert 0 <= score <= 520 and score % 10 == 0

    play()
    # 5 presets x 2,000 moves: the 10,000 random moves of the acceptance criteria.
    assert sum(played) >= 2_000, played


@stable(40)
@given(rules=variants, number=deal_numbers, seed=st.integers(0, 2**32))
def test_legal_moves_and_why_illegal_agree(rules: Rules, number: int, seed: int) -> None:
    game = Game(position=deal(number, rules))
    play_randomly(game, random.Random(seed), 40, check_every=4)


places = st.one_of(
    st.builds(column, st.integers(0, 7)),
    st.builds(cell, st.integers(0, 7)),
)
moves = st.one_of(
    st.builds(Move, places, st.one_of(places, st.just(FOUNDATION)), st.integers(1, 13)),
    st.builds(
        Move,
        st.builds(foundation_place, st.integers(0, 3)),
        st.one_of(places, st.just(FOUNDATION)),
        st.just(1),
    ),
)


@stable(300)
@given(moves)
def test_move_notation_round_trips(move: Move) -> None:
    text = str(move)
    assert Move.from_text(text) == move
    assert Move.from_text(text.upper()) == move
    assert Move.from_text(f" {text} ") == move
