"""What a position holds at each place: the card that would move, the cards a move
carries, and the board as text, at every place including ones the rules lack."""

from __future__ import annotations

import pytest

from eightoff.cards import Card
from eightoff.moves import FOUNDATION, Move, Place, cell, column, foundation
from eightoff.position import Position
from eightoff.rules import Rules
from support import board


def c(text: str) -> Card:
    return Card.from_text(text)


def sample() -> Position:
    """K♠ Q♥ in column 1, J♣ in column 3, 5♦ in cell a; ♠ empty, ♥ to 2, ♦ to 4, ♣ to 9."""
    return board(["KS QH", "", "JC"], "5D -", foundations=(0, 2, 4, 9), rest=7)


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        (column(0), "QH"),
        (column(1), None),  # empty
        (column(2), "JC"),
        (column(7), "KC"),
        (column(8), None),  # no such column
        (column(-1), None),
        (cell(0), "5D"),
        (cell(1), None),  # empty
        (cell(7), None),
        (cell(8), None),  # no such cell
        (cell(-1), None),
        (foundation(0), None),  # empty
        (foundation(1), "2H"),
        (foundation(2), "4D"),
        (foundation(3), "9C"),
        (foundation(4), None),  # no such suit
        (foundation(-1), None),
    ],
)
def test_top(place: Place, expected: str | None) -> None:
    assert sample().top(place) == (None if expected is None else c(expected))


@pytest.mark.parametrize(
    ("move", "expected"),
    [
        (Move(column(0), cell(1), 1), ["QH"]),
        (Move(column(0), cell(1), 2), ["KS", "QH"]),
        (Move(column(0), cell(1), 0), []),
        (Move(column(1), cell(1), 1), []),
        (Move(column(8), cell(1), 1), []),
        (Move(cell(0), column(1), 1), ["5D"]),
        (Move(cell(1), column(1), 1), []),
        (Move(foundation(1), column(1), 1), ["2H"]),
        (Move(foundation(0), column(1), 1), []),
        (Move(column(2), FOUNDATION, 1), ["JC"]),
    ],
)
def test_moving_cards(move: Move, expected: list[str]) -> None:
    assert sample().moving_cards(move) == tuple(c(t) for t in expected)


def test_the_board_as_text() -> None:
    pos = Position(
        [[c("KS"), c("QH")], [], [c("KH")]] + [[]] * 5,
        [c("KD")],
        (12, 11, 12, 13),
        Rules(cells=2),
    )
    assert str(pos) == (
        "Foundations: S-Q H-J D-Q C-K\nCells:       KD --\n 1  2  3  4  5  6  7  8\nKS    KH\nQH"
    )
    won = Position([[]] * 8, foundations=(13, 13, 13, 13))
    assert str(won).splitlines() == [
        "Foundations: S-K H-K D-K C-K",
        "Cells:       -- -- -- -- -- -- -- --",
        " 1  2  3  4  5  6  7  8",
    ]


def test_a_card_into_and_out_of_each_cell() -> None:
    pos = sample()
    for k in range(1, 8):
        into = pos.apply(Move(column(2), cell(k)))
        assert into.cells == (c("5D"),) + (None,) * (k - 1) + (c("JC"),) + (None,) * (7 - k)
        assert into.apply_unchecked(Move(cell(k), column(2))) == pos  # and back
    out = pos.apply(Move(cell(0), FOUNDATION))
    assert out.cells == (None,) * 8 and out.foundations == (0, 2, 5, 9)


def test_each_suit_goes_to_its_own_foundation() -> None:
    pos = board(["AS", "AH", "AD", "AC"], foundations=(0, 0, 0, 0), rest=7)
    for i, expected in enumerate([(1, 0, 0, 0), (1, 1, 0, 0), (1, 1, 1, 0), (1, 1, 1, 1)]):
        pos = pos.apply(Move(column(i), FOUNDATION))
        assert pos.foundations == expected


def test_equal_positions_hash_alike_whatever_the_way_there() -> None:
    pos = sample()
    one = pos.apply(Move(column(2), cell(1))).apply(Move(column(0), cell(2)))
    two = pos.apply(Move(column(0), cell(2))).apply(Move(column(2), cell(1)))
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1
    rebuilt = Position(one.columns, one.cells, one.foundations, one.rules)
    assert rebuilt == one and hash(rebuilt) == hash(one)
    # Same columns, other cells; same cells, other columns: not equal.
    assert one != pos.apply(Move(column(2), cell(1))).apply(Move(column(0), cell(3)))
    assert pos.apply(Move(column(2), cell(1))) != pos.apply(Move(column(0), cell(1)))
