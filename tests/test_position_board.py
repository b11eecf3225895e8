"""Board, the mutable copy that checks and plays a list of moves: it must end where
Position.apply's move-by-move play ends, and refuse what Position.illegality refuses.

Board.play_all hands a long list to the C core where it is built and plays a short one
in Python; the lists here are of both lengths, from a position whose foundations all
stand at other heights, with A♠ (card 0) in a cell, so that a suit or a cell mixed up
on the way shows.
"""

from __future__ import annotations

import pytest

from eightoff.cards import Card
from eightoff.errors import Illegal
from eightoff.moves import IllegalMoveError, Move
from eightoff.position import Board, Position
from support import board

START = board(
    [
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
        "KH QH JH TH 9H 8H 7H 6H 5H 4H",
        "KD QD JD TD 9D 8D 7D 6D",
        "KC QC JC TC 9C 8C",
    ],
    "AS",
    foundations=(0, 3, 5, 7),
)


def moves(text: str) -> list[Move]:
    return [Move.from_text(t) for t in text.split()]


def cards(text: str) -> list[Card]:
    return [Card.from_text(t) for t in text.split()]


MOVES = moves("2^ 2^ 2^ 3^ 3^ 4^ 4^ 1b 1c c1 2^")
CARRIED = cards("4H 5H 6H 6D 7D 8C 9C 2S 3S 3S 7H")
BAD = Move.from_text("1^")  # 2♠ home while A♠ is in a cell
BAD_REASON = "2♠ cannot go to the foundation: needs A♠ first"


def card(text: str) -> Card:
    return Card.from_text(text)


def played(these: list[Move]) -> Position:
    """START after ``these`` moves, each checked and played by Position.apply."""
    pos = START
    for move in these:
        pos = pos.apply(move)
    return pos


def test_a_board_shows_the_position_it_copies() -> None:
    assert Board(START).position() == START


@pytest.mark.parametrize("count", [1, 3, len(MOVES)])
def test_play_all_ends_where_the_moves_lead(count: int) -> None:
    on = Board(START)
    carried, error = on.play_all(MOVES[:count])
    assert error is None
    assert carried == CARRIED[:count]
    assert on.position() == played(MOVES[:count])


def test_play_all_keeps_each_foundation_and_the_cells() -> None:
    on = Board(START)
    on.play_all(MOVES)
    end = on.position()
    assert end.foundations == (0, 7, 7, 9)
    assert end.cells == (card("AS"), card("2S")) + (None,) * 6
    assert end.columns[0][-2:] == (card("4S"), card("3S"))
    assert end.is_legal(Move.from_text("a^"))


@pytest.mark.parametrize(("before", "after"), [(2, 0), (7, 4)])
def test_play_all_stops_at_the_first_illegal_move_showing_the_board_before_it(
    before: int, after: int
) -> None:
    on = Board(START)
    carried, error = on.play_all([*MOVES[:before], BAD, *MOVES[before : before + after]])
    assert carried == CARRIED[:before]
    assert error is not None
    assert (error.move, error.code, error.reason) == (BAD, Illegal.NOT_NEXT, BAD_REASON)
    assert on.position() == played(MOVES[:before])


def test_illegality_names_the_move_and_says_why() -> None:
    on = Board(START)
    error = on.illegality(BAD)
    assert error is not None
    assert (error.move, error.code, error.reason) == (BAD, Illegal.NOT_NEXT, BAD_REASON)
    assert str(error) == f"1^: {BAD_REASON}"
    assert on.illegality(MOVES[0]) is None
    assert on.position() == START  # asking changes nothing


def test_play_moves_the_cards_and_an_illegal_move_changes_nothing() -> None:
    on = Board(START)
    assert on.play(MOVES[0]) == card("4H")
    with pytest.raises(IllegalMoveError) as err:
        on.play(BAD)
    assert (err.value.move, err.value.reason) == (BAD, BAD_REASON)
    assert on.position() == played(MOVES[:1])
