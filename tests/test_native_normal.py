"""The proof's normal form (native/normal.c): cell cards put back on the tops they
build on (and, where any card fills an empty column, cards alone in a column), and
lifts to make the moves that loses. It must never call a winnable
position lost: its verdicts are those of the proof over every position and the
reference's, on every rule set, and a win it finds replays through the engine."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

from eightoff.deal import pysol_deal
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, GroupMoves, Layout, Rules
from eightoff.solver import Limit, Verdict, core, reference
from support import hard_endgame, wins

native = core.native
pytestmark = pytest.mark.skipif(native is None, reason="the C core was not built")
LIMIT = 2  # the C searches' status for "a limit was hit"
REFINED_AUTOPLAY = 3  # the C core's autoplay mode 3: rules.h proven_safe_home


def variants() -> list[Rules]:
    """Every cells x empty columns x build x layout, each with its default group moves
    (the FreeCell formula where any card fills an empty column), as docs/atlas.md."""
    return [
        Rules(
            cells=cells,
            empty_column=empty,
            build=build,
            layout=layout,
            group_moves=GroupMoves.FREECELL if empty is EmptyColumn.ANY else GroupMoves.CELLS,
        )
        for cells, empty, build, layout in itertools.product((8, 4, 2), EmptyColumn, Build, Layout)
    ]


def name(rules: Rules) -> str:
    return "-".join(
        [
            str(rules.cells),
            rules.empty_column.value,
            rules.build.value,
            rules.layout.value,
            rules.group_moves.value,
            *(["take-back"] if rules.take_back else []),
        ]
    )


def exhaust(
    position: Position, normal: int, nodes: int = -1, config: core.Config | None = None
) -> tuple[int, list[object], int]:
    """The exact proof from ``position``: (status, steps, positions); ``normal``: 0
    every position, 1 normal forms, EVERY_MOVE normal forms with no move dropped."""
    assert native is not None
    cols, cells, founds = core.state(position)
    held = bytes(sorted(c for c in cells if c >= 0))
    cfg = core.config(position.rules) if config is None else config
    status, steps, count = native.exhaust(
        (cols, held, founds), cfg, max_nodes=nodes, max_bytes=1 << 30, normal=normal
    )
    return int(status), list(steps), int(count)


TAKE_BACK = Rules(cells=2, group_moves=GroupMoves.FREECELL, take_back=True)


@pytest.mark.parametrize("rules", [*variants(), TAKE_BACK], ids=name)
def test_normal_forms_settle_deals_as_every_position_does(rules: Rules) -> None:
    # PySolFC deals 1-10 of every variant (and with take-back, where nothing goes home
    # by itself): where both proofs end within 30,000 positions, the same verdict; a
    # lost deal in no more positions.
    settled = 0
    for number in range(1, 11):
        position = pysol_deal(number, rules)
        plain, _, plain_count = exhaust(position, False, 30_000)
        normal, _, normal_count = exhaust(position, True, 30_000)
        if LIMIT not in (plain, normal):
            assert normal == plain, number
            settled += 1
        if plain == normal == core.EXHAUSTED:
            assert normal_count <= plain_count, number
    assert settled >= 3


# Any card to an empty column: cards alone in a column go onto the tops they build
# on too (lone_normalize), and the lone lifts (ex_lone_lifts) make up for it.
ANY_CARD = [
    Rules(
        cells=2,
        build=Build.ALTERNATE,
        empty_column=EmptyColumn.ANY,
        group_moves=GroupMoves.FREECELL,
    ),
    Rules(
        cells=2,
        build=Build.ALTERNATE,
        empty_column=EmptyColumn.ANY,
        group_moves=GroupMoves.FREECELL,
        layout=Layout.BAKERS,
    ),
    Rules(
        cells=2, empty_column=EmptyColumn.ANY, group_moves=GroupMoves.FREECELL, layout=Layout.BAKERS
    ),
]

# The lifts take three ways (ex_lifts): runs move and autoplay is safe (the few moves
# of lift_moves); one card a move (lifts of one and two columns); autoplay sending
# any card home at once in alternating colours (every lift: the test after this).
SMALL_RULES = [
    Rules(cells=2, build=Build.ALTERNATE),
    *ANY_CARD,
    Rules(cells=2, group_moves=GroupMoves.SINGLE, build=Build.ALTERNATE),
    Rules(cells=2, group_moves=GroupMoves.SINGLE),
    Rules(cells=2, layout=Layout.BAKERS),
]


@pytest.mark.parametrize("rules", SMALL_RULES, ids=name)
def test_normal_forms_agree_with_the_reference_on_small_positions(rules: Rules) -> None:
    # Endgames the plain reference search settles: the proof over normal forms
    # settles them the same way (a win, or a proof), until each verdict came twice.
    rng = random.Random(f"normal {name(rules)}")
    verdicts: Counter[Verdict] = Counter()
    for _ in range(200):
        position = hard_endgame(rng, rules, rng.randint(18, 28))
        plain = reference.solve_any(position, Limit(nodes=20_000, seconds=60))
        status, _, _ = exhaust(position, True, 300_000)
        if plain.verdict is Verdict.UNKNOWN or status == LIMIT:
            continue
        assert status == (core.SOLVED if plain.solved else core.EXHAUSTED), position
        verdicts[plain.verdict] += 1
        if min(verdicts[Verdict.SOLVED], verdicts[Verdict.UNSOLVABLE]) >= 2:
            break
    assert verdicts[Verdict.SOLVED] >= 2 and verdicts[Verdict.UNSOLVABLE] >= 2, verdicts


def test_normal_forms_agree_where_autoplay_sends_any_card_home() -> None:
    # Alternating colours with autoplay sending every card it can home (mode 1), which
    # the rules never ask for: a lifted card may then stay in its cell while the card
    # it lay on goes home, and every lift is tried (lift_homes_together).
    rules = Rules(cells=2, build=Build.ALTERNATE)
    cfg = replace(core.config(rules), autoplay=core.AUTO_ALL)
    settled = lost = 0
    for number in range(1, 13):
        position = pysol_deal(number, rules)
        plain = exhaust(position, False, 60_000, cfg)[0]
        normal = exhaust(position, True, 60_000, cfg)[0]
        if LIMIT not in (plain, normal):
            assert normal == plain, number
            settled += 1
            lost += plain == core.EXHAUSTED
    assert settled >= 6 and lost >= 2


EVERY_MOVE = 2  # native.exhaust's normal forms with no move dropped (drop_returns)


@pytest.mark.parametrize("auto", [None, core.AUTO_ALL], ids=["rules' autoplay", "any card home"])
def test_dropped_moves_only_make_positions_the_proof_has(auto: int | None) -> None:
    # The moves the proof never makes (a column's top to a cell where it builds on
    # the card under it: its child is the position or a sibling) leave the search as
    # it was: the same positions, in the same order (so the same count at a limit),
    # the same verdict and line. Where autoplay sends any card home, the card under
    # such a top may go home once it is uncovered: that move must stay.
    ended = 0
    for rules in (Rules(cells=2, build=Build.ALTERNATE), Rules(cells=2, layout=Layout.BAKERS)):
        cfg = core.config(rules)
        if auto is not None:
            cfg = replace(cfg, autoplay=auto)
        for number in range(1, 13):
            position = pysol_deal(number, rules)
            dropped = exhaust(position, True, 60_000, cfg)
            every = exhaust(position, EVERY_MOVE, 60_000, cfg)
            assert dropped == every, (name(rules), number)
            ended += dropped[0] != LIMIT
    assert ended >= 12


@pytest.mark.parametrize("rules", ANY_CARD, ids=name)
def test_lone_lifts_skip_only_moves_whose_child_the_proof_has(rules: Rules) -> None:
    # Where any card fills an empty column, a card alone in a column goes onto a top
    # it builds on (lone_normalize), and the proof makes the moves of its lone lifts
    # that use them (lone_uses): over a lost deal the same positions as with every
    # move of every lone lift, and the verdicts of the proof over every position, in
    # fewer positions.
    lost = 0
    for number in range(1, 41):
        position = pysol_deal(number, rules)
        used = exhaust(position, True, 40_000)
        every = exhaust(position, EVERY_MOVE, 40_000)
        plain = exhaust(position, False, 80_000)
        if used[0] == every[0] == core.EXHAUSTED:
            assert used[2] == every[2], number
            lost += 1
        if LIMIT not in (used[0], plain[0]):
            assert used[0] == plain[0], number
            if used[0] == core.EXHAUSTED:
                assert used[2] <= plain[2], number
    assert lost >= 5


def test_a_win_over_normal_forms_replays_with_its_lifts() -> None:
    # The proof alone wins these 2-cell endgames; its lines take their lifts (cards
    # put in cells) and normal forms (cards put back) as engine moves.
    rng = random.Random(5)
    won = 0
    for rules in (
        Rules(cells=2, build=Build.ALTERNATE),
        Rules(cells=2, group_moves=GroupMoves.SINGLE),
        *ANY_CARD[:2],
    ):
        for _ in range(25):
            position = hard_endgame(rng, rules, 24)
            status, steps, _ = exhaust(position, True, 200_000)
            if status == core.SOLVED:
                assert replays(position, steps), position
                won += 1
    assert won >= 40


NEEDS_A_LIFT = [
    # 2-cell Baker's Game (suit, runs by free cells): won in 289 positions.
    (
        Rules(cells=2, layout=Layout.BAKERS),
        [[19, 45, 22], [35, 37, 47], [9, 48, 51], [11, 49, 36]]
        + [[25, 44, 21], [12, 38, 50], [42, 20, 24], [10, 46]],
        [23, 43],
        [9, 6, 9, 3],
    ),
    # 2-cell alternating colours: won in 109 positions.
    (
        Rules(cells=2, build=Build.ALTERNATE),
        [[48, 9], [20, 23], [7, 24, 10], [44, 21, 8], [25, 50], [12, 47], [46, 51], [45, 11]],
        [49, 22],
        [7, 7, 13, 5],
    ),
]


NEEDS_A_ROOT_LIFT = [
    # 2-cell alternating colours, one card a move: the root is a normal form, so a
    # child that normalizes back to it is found in the table, and the moves that child
    # would make come only from the root's own lifts: won in 17 positions.
    (
        Rules(cells=2, build=Build.ALTERNATE, group_moves=GroupMoves.SINGLE),
        [[36, 18, 46, 19], [22, 25, 24, 23, 21], [20, 48, 47], [38, 51, 50, 49], [], [], [], []],
        [37],
        [13, 5, 10, 7],
    ),
]


NEEDS_A_LONE_LIFT = [
    # 2-cell Baker's Game with any card to an empty column: won in 76 positions.
    (
        ANY_CARD[2],
        [[16, 48, 36, 10], [22, 17, 20], [46, 24, 50, 38], [19, 37, 30]]
        + [[33, 47, 51], [29, 49, 21, 18], [9, 34, 23, 31], [11, 35, 32]],
        [12, 25],
        [9, 3, 3, 7],
    ),
]


@pytest.mark.parametrize(
    ("rules", "columns", "cells", "founds"), NEEDS_A_LIFT + NEEDS_A_ROOT_LIFT + NEEDS_A_LONE_LIFT
)
def test_a_position_won_only_through_a_lift(
    rules: Rules, columns: list[list[int]], cells: list[int], founds: list[int]
) -> None:
    # Endgames the proof over every position wins, which over normal forms without
    # the lifts' moves (the uncovered card home or to a cell, a card onto it) would be
    # lost (without the lone lifts, for the last: a card alone in a column kept there):
    # with them they are won, and the line replays.
    position = Position(columns, cells, founds, rules)
    assert exhaust(position, False)[0] == core.SOLVED
    status, steps, _ = exhaust(position, True)
    assert status == core.SOLVED and replays(position, steps)


def replays(position: Position, steps: list[object]) -> bool:
    """Whether the exact proof's ``steps`` (its moves, then autoplay's) from
    ``position`` make a line that wins through the engine's checks."""
    assert native is not None
    cfg = core.config(position.rules)
    if cfg.autoplay == core.AUTO_SAFE:  # the proof plays alternating colours' refined rule
        cfg = replace(cfg, autoplay=REFINED_AUTOPLAY)
    line = native.finish(core.state(position), cfg, steps, endgame_home=20, endgame_nodes=300)
    return wins(position, [core.MOVES[m] for m in line])
