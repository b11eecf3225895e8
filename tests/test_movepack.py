"""Packed lines: every move round-trips in one or two bytes."""

import random

import pytest

from eightoff.deal import deal
from eightoff.movepack import (
    MAX_COUNT,
    PackError,
    pack_line,
    pack_move,
    pack_moves,
    unpack_line,
    unpack_moves,
)
from eightoff.moves import FOUNDATION, Move, Place, PlaceKind, cell, column, foundation
from eightoff.rules import PRESETS
from eightoff.solver import Verdict, solve

SOURCES = [column(i) for i in range(8)] + [cell(i) for i in range(8)]
SOURCES += [foundation(s) for s in range(4)]
TARGETS = [column(i) for i in range(8)] + [cell(i) for i in range(8)] + [FOUNDATION]


def test_every_move_round_trips_in_at_most_two_bytes() -> None:
    one_byte = set()
    for source in SOURCES:
        for target in TARGETS:
            for count in range(1, MAX_COUNT + 1):
                move = Move(source, target, count)
                packed = pack_move(move)
                assert unpack_moves(packed) == [move]
                assert unpack_line(packed) == move.text()
                assert len(packed) in (1, 2)
                if len(packed) == 1:
                    one_byte.add(packed)
    # The 200 one-byte codes are the plain single-card moves, each its own byte.
    assert len(one_byte) == 200
    assert len(pack_move(Move.from_text("3a"))) == 1
    assert len(pack_move(Move.from_text("a^"))) == 1
    for text in ("35x2", "^H3", "ab", "^Ca"):
        assert len(pack_move(Move.from_text(text))) == 2, text


def test_lines_of_random_games_round_trip_under_every_preset() -> None:
    rng = random.Random(13)
    kinds = {"run": 0, "take-back": 0}
    for name, rules in PRESETS.items():
        for number in range(1, 30):
            position = deal(number, rules)
            line: list[Move] = []
            for _ in range(150):
                moves = position.legal_moves()
                if not moves:
                    break
                # Prefer runs and take-backs a little, so every kind is seen.
                rare = [m for m in moves if m.count > 1 or m.source.kind is PlaceKind.FOUNDATION]
                move = rng.choice(rare if rare and rng.random() < 0.3 else moves)
                kinds["run"] += move.count > 1
                kinds["take-back"] += move.source.kind is PlaceKind.FOUNDATION
                line.append(move)
                position = position.apply(move)
            packed = pack_moves(line)
            assert unpack_moves(packed) == line, name
            text = " ".join(m.text() for m in line)
            assert pack_line(text) == packed and unpack_line(packed) == text
            assert len(packed) <= 2 * len(line)
    assert kinds["run"] > 0 and kinds["take-back"] > 0, kinds


def test_a_solution_packs_into_about_a_byte_a_move() -> None:
    result = solve(deal(1, PRESETS["standard"]))
    assert result.verdict is Verdict.SOLVED
    packed = pack_moves(result.moves)
    assert unpack_moves(packed) == list(result.moves)
    assert len(result.moves) <= len(packed) < 1.2 * len(result.moves)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (bytes([200]), "ends in the middle of a move"),
        (bytes([5, 244]), "ends in the middle of a move"),
        # Source 16 is the foundation as a target: never a source.
        (bytes([200 + (16 * 17 * 32) // 256, (16 * 17 * 32) % 256]), "not a packed move"),
        (bytes([255, 0]), "not a packed move"),
    ],
)
def test_bytes_that_are_not_a_line(data: bytes, why: str) -> None:
    with pytest.raises(PackError, match=why):
        unpack_line(data)


def test_moves_that_cannot_be_packed() -> None:
    with pytest.raises(PackError, match="33 cards"):
        pack_move(Move(column(0), column(1), 33))
    with pytest.raises(PackError, match="from the foundation"):
        pack_move(Move(FOUNDATION, column(1)))
    with pytest.raises(PackError, match="to cell 10"):
        pack_move(Move(column(0), Place(PlaceKind.CELL, 9)))
