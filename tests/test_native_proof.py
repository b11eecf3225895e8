"""The C core's proof side (native/exhaust.c, native/proof.c): past its first stretch,
solve runs best-first and the exact proof by turns; its verdicts must be the exact
search's and the reference's, and a win found on either side must replay."""

from __future__ import annotations

import random

import pytest

from eightoff.deal import pysol_deal
from eightoff.position import Position
from eightoff.rules import Build, Rules
from eightoff.solver import Limit, Verdict, core, reference
from test_solver_oracle import hard_endgame, wins

native = core.native
pytestmark = pytest.mark.skipif(native is None, reason="the C core was not built")
LIMIT = 2  # the C searches' status for "a limit was hit"
TWO_CELLS = Rules(cells=2, build=Build.ALTERNATE)
# PySolFC deals of 2-cell alternating colours with a few thousand to 60,000 positions.
LOST = (11, 12, 36, 56)
WON = (2, 13, 15, 18)


def solve(
    position: Position, first: int, max_bytes: int = 1 << 30, nodes: int = -1
) -> tuple[int, bool]:
    """solve's status from ``position`` with its first stretch ``first`` expansions
    long, and whether its line wins there."""
    assert native is not None
    status, line, _, _ = native.solve(
        *core.state(position),
        core.config(position.rules),
        nodes,
        -1.0,
        20,
        300,
        max_bytes,
        True,
        first,
    )
    return status, wins(position, [core.MOVES[m] for m in line]) if line else False


def exact(position: Position, max_bytes: int = 1 << 30) -> int:
    """The exact search's status alone."""
    assert native is not None
    cols, cells, founds = core.state(position)
    held = bytes(sorted(c for c in cells if c >= 0))
    return int(
        native.exhaust(cols, held, founds, core.config(position.rules), -1, -1.0, max_bytes)[0]
    )


@pytest.mark.parametrize("first", [1, 300, 5_000])
def test_the_turns_settle_deals_as_the_exact_search_alone(first: int) -> None:
    for number in LOST + WON:
        position = pysol_deal(number, TWO_CELLS)
        status, won = solve(position, first)
        assert status == exact(position), number
        assert won is (status == core.SOLVED), number
        assert status == (core.EXHAUSTED if number in LOST else core.SOLVED)


def test_the_proof_takes_best_firsts_room_when_it_needs_it() -> None:
    # Deal 36's proof alone needs over 1.5 MB: with 2 MB in all it ends only if
    # best-first's quarter comes back to it; with 1 MB it cannot, and says "unknown".
    position = pysol_deal(36, TWO_CELLS)
    assert exact(position, max_bytes=3 << 19) == LIMIT
    assert solve(position, 1, max_bytes=2 << 20) == (core.EXHAUSTED, False)
    assert solve(position, 1, max_bytes=1 << 20) == (LIMIT, False)


def test_a_node_limit_past_the_first_stretch_is_unknown_not_a_proof() -> None:
    position = pysol_deal(36, TWO_CELLS)
    for nodes in (1, 2_000, 7_000):
        assert solve(position, 1_000, nodes=nodes) == (LIMIT, False)


@pytest.mark.parametrize("rules", [TWO_CELLS, Rules(cells=4, build=Build.ALTERNATE)])
def test_the_turns_agree_with_the_reference_on_small_positions(rules: Rules) -> None:
    rng = random.Random(13)
    seen: set[Verdict] = set()
    for _ in range(12):
        position = hard_endgame(rng, rules, 20)
        status, won = solve(position, 1)
        plain = reference.solve_any(position, Limit(nodes=50_000, seconds=60))
        assert plain.verdict is not Verdict.UNKNOWN
        assert status == (core.SOLVED if plain.solved else core.EXHAUSTED), position
        assert won is plain.solved
        seen.add(plain.verdict)
    assert seen == {Verdict.SOLVED, Verdict.UNSOLVABLE}
