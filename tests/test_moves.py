"""Moves: places, the frozen Move value and its compact notation."""

import pytest

from eightoff.cards import Suit
from eightoff.moves import (
    ANY_SUIT,
    FOUNDATION,
    InvalidMoveError,
    Move,
    Place,
    PlaceKind,
    cell,
    column,
    foundation,
)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3a", Move(column(2), cell(0))),
        ("a5", Move(cell(0), column(4))),
        ("35", Move(column(2), column(4))),
        ("3^", Move(column(2), FOUNDATION)),
        ("h^", Move(cell(7), FOUNDATION)),
        ("^H3", Move(foundation(Suit.HEARTS), column(2))),
        ("^Ca", Move(foundation(Suit.CLUBS), cell(0))),
        ("35x3", Move(column(2), column(4), 3)),
        ("81x12", Move(column(7), column(0), 12)),
    ],
)
def test_notation(text: str, move: Move) -> None:
    assert Move.from_text(text) == move
    assert str(move) == text
    assert Move.from_text(str(move)) == move


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3A", "3a"),
        (" 3 a ", "3a"),
        ("35X3", "35x3"),
        ("^h3", "^H3"),
        ("3^H", "3^"),
        ("35x1", "35"),
    ],
)
def test_reading_is_forgiving(text: str, canonical: str) -> None:
    assert str(Move.from_text(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a source and a target"),
        ("3", "expected a source and a target"),
        ("345", "expected a source and a target"),
        ("39", "'9' is not a column 1-8, a cell a-h or \\^"),
        ("3 z", "'z' is not a column 1-8"),
        ("ai", "'i' is not a column 1-8"),
        ("03", "'0' is not a column"),
        ("35x", "the count after 'x' must be a number ≥ 1"),
        ("35x0", "the count after 'x' must be a number ≥ 1"),
        ("35x-2", "the count after 'x'"),
        ("^3", "a foundation source needs its suit"),
        ("^Z3", "a foundation source needs its suit"),
        ("^", "expected a source and a target"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Move.from_text(text)


def test_invalid_move_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="bad move"):
        Move.from_text("zz")


def test_places() -> None:
    assert column(0) == Place(PlaceKind.COLUMN, 0)
    assert FOUNDATION == foundation() == Place(PlaceKind.FOUNDATION, ANY_SUIT)
    assert foundation(Suit.DIAMONDS).index == 2
    assert [column(7).text(), cell(1).text(), FOUNDATION.text(), foundation(3).text()] == [
        "8",
        "b",
        "^",
        "^C",
    ]
    assert [column(2).label(), cell(0).label(), FOUNDATION.label(), foundation(1).label()] == [
        "column-3",
        "cell-1",
        "foundation",
        "foundation-H",
    ]
    assert [column(2).name(), cell(0).name(), FOUNDATION.name(), foundation(1).name()] == [
        "column 3",
        "cell a",
        "the foundation",
        "the ♥ foundation",
    ]


def test_moves_are_frozen_hashable_values() -> None:
    a = Move(column(0), cell(1))
    assert a == Move.from_text("1b") and hash(a) == hash(Move.from_text("1b"))
    assert a.count == 1
    assert repr(a) == "Move.from_text('1b')"
    with pytest.raises(AttributeError):
        a.count = 2  # type: ignore[misc]
