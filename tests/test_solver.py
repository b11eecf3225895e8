"""The solver: verdicts, proofs, legal replays under every rule option."""

from __future__ import annotations

import random

import pytest

from eightoff.cards import Card
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import PRESETS, STANDARD, Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import DEFAULT_SCHEDULE, Limit, Schedule, SolveResult, Verdict, core, solve
from eightoff.solver.reference import solve_any
from support import cards_out, pysol_position

FAST = Limit(nodes=300_000, seconds=30)
UNLIMITED = Limit(nodes=None, seconds=None)


def replay(position: Position, moves: tuple[Move, ...]) -> Position:
    """Apply every move through the engine's checks."""
    for move in moves:
        position = position.apply(move)
    return position


def assert_valid(result: SolveResult, position: Position) -> None:
    if result.verdict is Verdict.SOLVED:
        assert replay(position, result.moves).is_won()
        assert result.length == sum(2 * m.count - 1 for m in result.moves)
    else:
        assert result.moves == ()


def _won() -> Position:
    return Position([()] * 8, foundations=(13, 13, 13, 13))


def test_won_position_needs_no_moves() -> None:
    result = solve(_won())
    assert result.verdict is Verdict.SOLVED
    assert result.moves == ()
    assert result.length == 0


def test_one_move_from_won() -> None:
    ks = Card.from_text("KS")
    pos = Position([(ks,), (), (), (), (), (), (), ()], foundations=(12, 13, 13, 13))
    result = solve(pos)
    assert result.verdict is Verdict.SOLVED
    assert [str(m) for m in result.moves] == ["1^"]
    assert result.length == 1
    optimal = solve(pos, optimal=True)
    assert optimal.optimal and optimal.length == 1


def _lost_endgame() -> Position:
    # Two full cells, no empty column; KC is buried under KD, the 7S under the QS.
    c = Card.from_text
    columns = [
        (c("QD"), c("TD")),
        (c("KH"),),
        (c("JD"),),
        (c("7S"), c("QS")),
        (c("8S"),),
        (c("9D"),),
        (c("KS"), c("9S")),
        (c("KC"), c("KD")),
    ]
    return Position(columns, (c("JS"), c("TS")), (6, 12, 8, 12), Rules(cells=2))


def test_tiny_unsolvable_position_is_proven() -> None:
    pos = _lost_endgame()
    result = solve(pos, limit=Limit(nodes=None, seconds=None))
    assert result.verdict is Verdict.UNSOLVABLE
    assert result.moves == ()
    assert result.nodes > 1  # some moves exist: the proof searched them all
    assert solve(pos, optimal=True).verdict is Verdict.UNSOLVABLE


def test_bad_limit_is_rejected() -> None:
    with pytest.raises(ValueError, match="node limit"):
        Limit(nodes=0)
    with pytest.raises(ValueError, match="time limit"):
        Limit(seconds=0)
    with pytest.raises(ValueError, match="memory limit"):
        Limit(memory=100)


@pytest.mark.skipif(core.native is None, reason="only the C core counts table bytes")
def test_memory_limit_gives_unknown() -> None:
    # Fore Cell's PySolFC 136 is unsolvable: only a complete search ends it, and its
    # largest layer of positions needs more than 64 kB of tables.
    pos = pysol_position(136, Rules(cells=4, build=Build.ALTERNATE))
    small = Limit(nodes=None, seconds=None, memory=1 << 16)
    assert solve(pos, limit=small).verdict is Verdict.UNKNOWN
    assert solve(pos, limit=small, optimal=True).verdict is Verdict.UNKNOWN
    assert solve(pos, limit=Limit(nodes=None, seconds=None)).verdict is Verdict.UNSOLVABLE


@pytest.mark.skipif(core.native is None, reason="best-first's share is the C core's")
def test_best_firsts_share_follows_the_time_limit() -> None:
    # Tuned for a minute; a longer limit stretches it, none lifts it, a node limit
    # keeps the tuned count (the same answer on every machine).
    tuned = DEFAULT_SCHEDULE.late_bf_max
    assert core.best_first_stop(Limit()) == tuned
    assert core.best_first_stop(Limit(nodes=None, seconds=10)) == tuned
    assert core.best_first_stop(Limit(nodes=None, seconds=600)) == 10 * tuned
    assert core.best_first_stop(Limit(nodes=5_000, seconds=None)) == tuned
    assert core.best_first_stop(Limit(nodes=None, seconds=None)) == core.NEVER
    own = Schedule(late_bf_max=1_000)  # a schedule's own share, stretched alike
    assert core.best_first_stop(Limit(nodes=None, seconds=600), own) == 10_000


def test_node_limit_gives_unknown() -> None:
    pos = pysol_position(465)
    result = solve(pos, limit=Limit(nodes=10, seconds=None))
    assert result.verdict is Verdict.UNKNOWN
    assert result.nodes == 10


def test_pysol_644_is_proven_unsolvable() -> None:
    result = solve(pysol_position(644), limit=Limit(nodes=None, seconds=60))
    assert result.verdict is Verdict.UNSOLVABLE


def test_same_answer_for_same_input() -> None:
    pos = pysol_position(7)
    a = solve(pos, limit=Limit(nodes=100_000, seconds=None))
    b = solve(pos, limit=Limit(nodes=100_000, seconds=None))
    assert (a.verdict, a.moves, a.nodes) == (b.verdict, b.moves, b.nodes)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_solves_some_deals(name: str) -> None:
    rules = PRESETS[name]
    for number in (1, 2, 3):
        pos = pysol_position(number, rules)
        result = solve(pos, limit=FAST)
        assert_valid(result, pos)
        assert result.verdict is Verdict.SOLVED, (name, number)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"group_moves": GroupMoves.SINGLE}, Verdict.SOLVED),
        ({"group_moves": GroupMoves.FREECELL}, Verdict.SOLVED),
        ({"cells": 4}, Verdict.UNSOLVABLE),  # the four cards dealt to cells fill them
        ({"cells": 4, "group_moves": GroupMoves.SINGLE}, Verdict.UNSOLVABLE),
        ({"empty_column": EmptyColumn.ANY, "group_moves": GroupMoves.FREECELL}, Verdict.SOLVED),
        ({"build": Build.ALTERNATE, "take_back": True}, Verdict.SOLVED),
        ({"build": Build.ALTERNATE, "group_moves": GroupMoves.SINGLE}, Verdict.SOLVED),
    ],
)
def test_rule_options_give_exact_verdicts(options: dict[str, object], expected: Verdict) -> None:
    rules = STANDARD.with_options(**options)
    for number in (4, 5):
        pos = pysol_position(number, rules)
        result = solve(pos, limit=FAST)
        assert_valid(result, pos)
        assert result.verdict is expected, number
        if expected is Verdict.UNSOLVABLE:  # the plain search proves these in a second
            assert solve_any(pos, UNLIMITED).verdict is Verdict.UNSOLVABLE


def test_to_json_shape() -> None:
    pos = pysol_position(1)
    result = solve(pos, limit=FAST)
    data = result.to_json(pos)
    assert set(data) == {"verdict", "moves", "length", "optimal", "nodes", "seconds"}
    assert data["verdict"] == "solved"
    assert len(data["moves"]) == len(result.moves)
    first = data["moves"][0]
    assert set(first) == {"card", "from", "to", "count"}
    assert first["from"][0] in ("column", "cell")
    assert isinstance(first["from"][1], int) and first["from"][1] >= 1


def random_endgame(rng: random.Random, rules: Rules, left: int) -> Position:
    """A random position with ``left`` cards not yet home (some in cells)."""
    founds, cards = cards_out(rng, left)
    ncell = rng.randint(0, min(rules.cells, 2))
    cells, rest = cards[:ncell], cards[ncell:]
    columns: list[list[int]] = [[] for _ in range(8)]
    for c in rest:
        columns[rng.randrange(5)].append(c)  # crowd five columns, leave room for play
    return Position(columns, cells, founds, rules)
