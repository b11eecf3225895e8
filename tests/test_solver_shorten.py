"""Shortening a found line: detours merged, the line still wins through the engine."""

from __future__ import annotations

import pytest

from eightoff.deal import pysol_deal
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import PRESETS
from eightoff.solver import Limit, solve
from eightoff.solver.convert import config_for, engine_moves, state_of
from eightoff.solver.search import SOLVED, Searcher
from eightoff.solver.shorten import position_after, shorten


def length(moves: list[Move]) -> int:
    return sum(2 * m.count - 1 for m in moves)


def wins(position: Position, moves: list[Move]) -> bool:
    for move in moves:
        position = position.apply(move)
    return position.is_won()


def raw_line(position: Position) -> list[Move]:
    """The search's line before shortening."""
    searcher = Searcher(config_for(position.rules))
    status, steps, _ = searcher.best_first_fast(
        *state_of(position), max_nodes=300_000, deadline=None
    )
    assert status == SOLVED
    return engine_moves(position, steps)


def test_a_round_trip_through_a_cell_is_dropped() -> None:
    # A pointless detour at the start: a card lying on its successor to a cell and back
    # (deal 17: 9D on TD in column 2).
    position = pysol_deal(17)
    park = Move.from_text("2e")
    padded = [park, Move.from_text("e2"), *raw_line(position)]
    assert wins(position, padded)
    out = shorten(position, padded)
    assert length(out) <= length(padded) - 2
    assert wins(position, out)


@pytest.mark.parametrize("number", [1, 4, 5, 6, 37])
def test_a_shortened_deal_is_no_longer_and_still_wins(number: int) -> None:
    position = pysol_deal(number)
    line = raw_line(position)
    out = shorten(position, line)
    assert length(out) <= length(line)
    assert wins(position, out)


def test_some_standard_deal_gets_shorter() -> None:
    gains = []
    for number in range(1, 21):
        position = pysol_deal(number)
        line = raw_line(position)
        gains.append(length(line) - length(shorten(position, line)))
    assert min(gains) >= 0 and sum(gains) > 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_solutions_under_every_preset_replay(name: str) -> None:
    rules = PRESETS[name]
    for number in (3, 8):
        position = pysol_deal(number, rules)
        result = solve(position, limit=Limit(nodes=200_000, seconds=30))
        assert result.verdict == "solved", number
        assert wins(position, list(result.moves))


def test_position_after_stops_at_the_first_position_with_enough_cards_home() -> None:
    position = pysol_deal(6)
    line = raw_line(position)
    found = position_after(position, line, 15)
    assert found is not None
    i, middle = found
    before = position
    for move in line[: i - 1]:
        before = before.apply(move)
    assert before.apply(line[i - 1]) == middle
    assert middle.cards_home() >= 15 > before.cards_home()
    assert position_after(position, line, 53) is None


def test_solve_lines_are_shorter_than_the_raw_search_lines() -> None:
    # solve() swaps in an optimal ending and merges detours; both keep a winning line.
    total_raw = total = 0
    for number in range(1, 16):
        position = pysol_deal(number)
        line = raw_line(position)
        result = solve(position, limit=Limit(nodes=300_000, seconds=30))
        assert result.length <= length(line)
        assert wins(position, list(result.moves))
        total_raw += length(line)
        total += result.length
    assert total < total_raw
