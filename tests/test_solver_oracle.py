"""Every verdict of the solver held to oracles that share no code with its C core.

* The reference solver (``eightoff.solver.reference``: a plain search on
  ``Position.legal_moves``), run to the end on small positions built to be lost
  about as often as won under every preset: the solver must give the very verdict.
* Freecell Solver on full deals of every variant it plays (4 and 2 cells, building
  in alternating colours, any card to an empty column, Baker's Game): where it wins
  with moves our engine accepts, the solver must not say "unsolvable".
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections import Counter

import pytest

from eightoff.deal import pysol_deal
from eightoff.formats import moves_from_fcs_solution, position_to_fcs
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import PRESETS, Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import Limit, Verdict, solve
from eightoff.solver.reference import solve_any, solve_shortest
from support import hard_endgame, needs_fc_solve, wins

UNLIMITED = Limit(nodes=None, seconds=None)
ORACLE = Limit(nodes=1_500, seconds=None)  # the reference's budget per position


def two_cells(name: str) -> Rules:
    """The preset with two cells (fewer cells: more lost positions)."""
    return PRESETS[name].with_options(cells=2)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_verdicts_equal_the_reference_search(name: str) -> None:
    rules = two_cells(name)
    rng = random.Random(name)
    verdicts: Counter[Verdict] = Counter()
    for _ in range(60):  # until both verdicts are well represented
        pos = hard_endgame(rng, rules, rng.randint(26, 44))
        expected = solve_any(pos, ORACLE)
        if expected.verdict is Verdict.UNKNOWN:
            continue  # too big for the plain search's budget: not an oracle here
        result = solve(pos, limit=UNLIMITED)
        assert result.verdict is expected.verdict, pos
        if result.solved:
            assert wins(pos, result.moves) and wins(pos, expected.moves)
        verdicts[expected.verdict] += 1
        if min(verdicts[Verdict.SOLVED], verdicts[Verdict.UNSOLVABLE]) >= 8:
            break
    # Both verdicts, so a wrong "unsolvable" and a wrong win would both show.
    assert verdicts[Verdict.SOLVED] >= 8 and verdicts[Verdict.UNSOLVABLE] >= 8, verdicts


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_optimal_lengths_equal_the_reference_a_star(name: str) -> None:
    rules = two_cells(name)
    rng = random.Random(f"optimal {name}")
    lengths: list[int] = []
    for _ in range(6):
        pos = hard_endgame(rng, rules, rng.randint(10, 14))
        expected = solve_shortest(pos, Limit(nodes=10_000, seconds=None))
        if expected.verdict is Verdict.UNKNOWN:
            continue
        result = solve(pos, optimal=True, limit=UNLIMITED)
        assert result.verdict is expected.verdict, pos
        if result.solved:
            assert result.optimal and result.length == expected.length, pos
            assert wins(pos, result.moves) and wins(pos, expected.moves)
            lengths.append(result.length)
    assert len(lengths) >= 3


def test_the_reference_proves_a_lost_endgame_and_replays_its_wins() -> None:
    rules = two_cells("standard")
    rng = random.Random(5)
    seen: set[Verdict] = set()
    while len(seen) < 2:
        pos = hard_endgame(rng, rules, 32)
        result = solve_any(pos, ORACLE)
        if result.solved:
            assert wins(pos, result.moves)
            assert result.length == sum(2 * m.count - 1 for m in result.moves)
        elif result.verdict is Verdict.UNSOLVABLE:
            assert result.moves == () and result.nodes >= 1
        seen.add(result.verdict)
    assert solve_any(pos, Limit(nodes=1, seconds=None)).verdict in (Verdict.UNKNOWN, *seen)


# -- Freecell Solver on full deals ------------------------------------------------------

FC_SOLVE = shutil.which("fc-solve")

# Each variant fc-solve plays: our rules, and its flags for them. Its Eight Off moves
# runs of free cells + 1 (our default); elsewhere it counts empty columns as room
# (our FreeCell formula).
FREECELL = {"group_moves": GroupMoves.FREECELL}
VARIANTS: dict[str, tuple[Rules, tuple[str, ...]]] = {
    "4 cells": (Rules(cells=4), ("-g", "eight_off", "--freecells-num", "4")),
    "2 cells": (Rules(cells=2), ("-g", "eight_off", "--freecells-num", "2")),
    "alternating, 4 cells": (
        Rules(cells=4, build=Build.ALTERNATE),
        ("-g", "eight_off", "--freecells-num", "4", "--sequences-are-built-by", "alternate_color"),
    ),
    "any card to empty columns, 2 cells": (
        Rules(cells=2, empty_column=EmptyColumn.ANY, **FREECELL),
        ("-g", "eight_off", "--freecells-num", "2", "--empty-stacks-filled-by", "all"),
    ),
    "Baker's Game": (PRESETS["bakers"].with_options(**FREECELL), ("-g", "bakers_game")),
    "Baker's Game, 2 cells": (
        PRESETS["bakers"].with_options(cells=2, **FREECELL),
        ("-g", "bakers_game", "--freecells-num", "2"),
    ),
}


def fc_solve_wins(position: Position, flags: tuple[str, ...]) -> list[Move] | None:
    """fc-solve's winning line, when it finds one our engine replays; else None."""
    assert FC_SOLVE is not None
    board = position_to_fcs(position)
    done = subprocess.run(
        [FC_SOLVE, *flags, "-mi", "300000", "-m", "-p", "-t", "-sel", "-"],
        input=board,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if "This game is solveable." not in done.stdout:
        return None
    moves = moves_from_fcs_solution(done.stdout)
    try:
        return moves if wins(position, moves) else None
    except ValueError:  # a move our rules do not allow: no witness
        return None


@needs_fc_solve
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_unsolvable_where_fc_solve_wins(variant: str) -> None:
    rules, flags = VARIANTS[variant]
    checked = 0
    for number in range(1, 41):
        pos = pysol_deal(number, rules)
        result = solve(pos, limit=Limit(nodes=200_000, seconds=20))
        assert result.verdict is not Verdict.UNKNOWN, number
        if result.solved:
            assert wins(pos, result.moves)
        else:
            line = fc_solve_wins(pos, flags)
            assert line is None, f"deal {number}: fc-solve wins where we say unsolvable"
            checked += 1
    assert checked >= 5  # so many "unsolvable" verdicts held to fc-solve here
