"""The C core's meta-move tests (native/meta.c): Freecell Solver's tests 2-9, move for move."""

from __future__ import annotations

import shutil

import pytest

import benchmark_scripts
from eightoff.deal import pysol_deal
from eightoff.rules import STANDARD, Build, EmptyColumn, GroupMoves, Layout, Rules
from eightoff.solver import core, solve
from support import needs_native
from support.native import assert_replays_to_a_win, search_state

native = core.native
needs_fc_solve = pytest.mark.skipif(
    shutil.which("fc-solve") is None, reason="fc-solve is not installed (freecell-solver-bin)"
)
META = "0123456789"  # fc-solve's default tests order: its meta-move tests
fcs_meta = benchmark_scripts.load("fcs_meta")


def meta_checked(rules: Rules, number: int) -> tuple[int, bool]:
    """fc-solve's states checked by one soft-dfs scan of its meta-move tests, and its verdict."""
    checked, won = fcs_meta.fcs_scan(pysol_deal(number, rules), 100_000)
    return int(checked), bool(won)


def code(
    cells: int, *, any_card: bool = False, alternate: bool = False, bakers: bool = False
) -> Rules:
    """The rules of an atlas row (C4-EB: four cells, any card in an empty column, Baker's)."""
    return Rules(
        cells=cells,
        empty_column=EmptyColumn.ANY if any_card else EmptyColumn.KINGS,
        build=Build.ALTERNATE if alternate else Build.SUIT,
        layout=Layout.BAKERS if bakers else Layout.EIGHT_OFF,
    )


C4_EB = code(4, any_card=True, bakers=True)
C4_A = code(4, alternate=True)
# Won deals, every test of the eight at work, both empty-column rules and both builds:
# C4-EA 16 and C2-EA 15 park a run's cards above it and find the run is then the
# whole column (a move the engine never plays: the child is the parking alone).
WON = [
    (C4_EB, 48),
    (code(2, any_card=True, alternate=True, bakers=True), 83),
    (code(4, any_card=True, alternate=True), 16),
    (code(2, any_card=True, alternate=True), 15),
    (C4_A, 7),
    (code(2, alternate=True, bakers=True), 54),
    (code(4, alternate=True, bakers=True), 8),
    (code(4, bakers=True), 56),
    (STANDARD, 5),
    (code(8, any_card=True), 70),
]


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(("rules", "number"), WON)
def test_a_meta_scan_checks_what_freecell_solvers_checks(rules: Rules, number: int) -> None:
    assert native is not None
    position = pysol_deal(number, rules)
    checked, won = meta_checked(rules, number)
    status, steps, ours = native.scans(
        search_state(position),
        core.config(rules),
        max_nodes=100_000,
        tests=META,
    )
    assert won and status == core.SOLVED
    assert ours == checked
    assert_replays_to_a_win(position, rules, steps)


@needs_native
@needs_fc_solve
def test_a_meta_scan_runs_dry_where_freecell_solvers_does() -> None:
    assert native is not None
    rules = code(2)
    position = pysol_deal(2, rules)
    checked, won = meta_checked(rules, 2)
    status, steps, ours = native.scans(
        search_state(position),
        core.config(rules),
        max_nodes=100_000,
        tests=META,
    )
    assert not won and status == core.EXHAUSTED and steps == []
    assert ours == checked == 278


# Looking-glass's first scan begins with the tests "01j234" (j: a cell's card to an
# empty column, then at once a card or run onto it) and fc-solve's pruning "-sp r:tf"
# (cards home by Horne's rule, all at once as the only child). Won deals where j and
# the pruning each change the count, on every row where any card fills a column.
LOOKING_GLASS = "01j234"
PRUNED_WON = [
    (code(4, any_card=True), 5),
    (code(2, any_card=True), 33),
    (code(4, any_card=True, alternate=True), 3),
    (code(2, any_card=True, alternate=True), 4),
    (code(8, any_card=True, alternate=True), 1),
    (code(4, any_card=True, bakers=True), 3),
    (code(4, any_card=True, alternate=True, bakers=True), 4),
    (code(2, any_card=True, alternate=True, bakers=True), 4),
]


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(("rules", "number"), PRUNED_WON)
@pytest.mark.parametrize("prune", [False, True])
def test_a_pruned_scan_with_test_j_checks_what_freecell_solvers_checks(
    rules: Rules, number: int, prune: bool
) -> None:
    assert native is not None
    position = pysol_deal(number, rules)
    checked, won = fcs_meta.fcs_scan(position, 100_000, LOOKING_GLASS, prune)
    held = search_state(position)
    found = native.scans(
        held, core.config(rules), max_nodes=100_000, tests=LOOKING_GLASS, prune=prune
    )
    status, steps, ours = found
    assert won and status == core.SOLVED
    assert ours == checked
    assert_replays_to_a_win(position, rules, steps)
    # j and the pruning are at work here: without either the count is another
    without_j = native.scans(
        held, core.config(rules), max_nodes=100_000, tests="01234", prune=prune
    )
    other = native.scans(
        held, core.config(rules), max_nodes=100_000, tests=LOOKING_GLASS, prune=not prune
    )
    assert ours not in (without_j[2], other[2])


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(
    ("tests", "seed"),
    [
        ("01j234;33,016[234j]=asw(1)", 0),  # looking-glass's first scan: another order from 33
        ("0[1234j]=asw(0,0,0,0,1)", 0),  # children sorted by depth alone
        ("01[234j]=asw(0.5,0,0.3,0,0.2)", 0),  # by cards out, under sequences and depth
        ("0j26[34]", 6),  # meta tests shuffled: looking-glass's scan "9"
        # looking-glass's scan "new": the longest run a move can carry weighs too
        ("0123;6,01[2435]=asw(3,20,10,0,1);13,[0123456j]=asw(1)", 0),
    ],
)
@pytest.mark.parametrize("rules", [code(4, any_card=True, alternate=True), C4_EB])
def test_orders_by_depth_and_random_or_weighed_groups_check_what_freecell_solvers_checks(
    tests: str, seed: int, rules: Rules
) -> None:
    # fc-solve's -dto2 (the order a position's depth picks), a bracket's meta tests
    # shuffled by random-dfs's generator or sorted by the rating of its BeFS weights
    # (the lowest first): the counts on five deals each.
    assert native is not None
    for number in range(1, 6):
        position = pysol_deal(number, rules)
        checked, won = fcs_meta.fcs_scan(position, 20_000, tests, True, seed)
        found = native.scans(
            search_state(position),
            core.config(rules),
            max_nodes=20_000,
            tests=tests,
            prune=True,
            seed=seed,
        )
        assert (found[2], found[0] == core.SOLVED) == (checked, won)
        if won:
            assert_replays_to_a_win(position, rules, found[1])


@needs_native
@needs_fc_solve
def test_a_pruned_scan_runs_dry_where_freecell_solvers_does() -> None:
    assert native is not None
    rules = code(2, any_card=True)
    position = pysol_deal(2, rules)
    checked, won = fcs_meta.fcs_scan(position, 100_000, LOOKING_GLASS, True)
    found = native.scans(
        search_state(position),
        core.config(rules),
        max_nodes=100_000,
        tests=LOOKING_GLASS,
        prune=True,
    )
    assert not won and found[0] == core.EXHAUSTED and found[1] == []
    assert found[2] == checked == 158


@needs_native
def test_the_meta_moves_win_where_single_cards_wander() -> None:
    # fc-solve's counts: 246 positions by its meta-move tests, 13,630 by its
    # single-card ones (an atomic dive leaves out its root's second check).
    assert native is not None
    position = pysol_deal(48, C4_EB)
    config = core.config(C4_EB)
    status, _, meta = native.scans(search_state(position), config, max_nodes=100_000, tests=META)
    assert status == core.SOLVED and meta == 246
    status, _, atomic = native.dive(
        search_state(position),
        config,
        max_nodes=100_000,
        order="atomic:01ABCDE",
    )
    assert status == core.SOLVED and atomic + 1 == 13_630


@needs_native
@pytest.mark.parametrize(
    "tests",
    ["01X", "", "[]01", "01;0,2", "01;x,2", "0[12]=asw(1,0,0,1)", "[01]=asw(", "0;1,0;2,0;3,0;4,0"],
)
def test_a_scan_rejects_a_tests_order_it_cannot_follow(tests: str) -> None:
    assert native is not None
    position = pysol_deal(48, C4_EB)
    with pytest.raises(ValueError, match="tests"):
        native.scans(search_state(position), core.config(C4_EB), max_nodes=100, tests=tests)


@needs_native
@pytest.mark.parametrize("tests", ["0123", "01j"])
def test_an_atomic_dive_refuses_the_meta_tests(tests: str) -> None:
    assert native is not None
    position = pysol_deal(48, C4_EB)
    with pytest.raises(ValueError, match="atomic tests"):
        native.dive(
            search_state(position),
            core.config(C4_EB),
            max_nodes=100,
            order=f"atomic:{tests}",
        )


def assert_solved_within(rules: Rules, number: int, positions: int) -> None:
    """``solve()`` wins PySolFC deal ``number`` in fewer than ``positions``, legally."""
    position = pysol_deal(number, rules)
    result = solve(position)
    assert result.solved and result.nodes < positions
    for move in result.moves:
        position = position.apply(move)
    assert position.is_won()


@needs_native
@pytest.mark.parametrize(("rules", "number", "before"), [(C4_EB, 48, 28_052), (C4_A, 7, 110_585)])
def test_the_portfolio_runs_the_meta_scan_beside_best_first(
    rules: Rules, number: int, before: int
) -> None:
    # ``before``: the portfolio's positions without the meta scan. It wins these in
    # 246 and 216 of its own, taking turns with best-first from its meta_start-th
    # expansion.
    assert_solved_within(rules, number, before // 20)


@needs_native
@pytest.mark.parametrize(
    ("rules", "number", "before"),
    [
        # building in suit (C4-E, C4-EB): the meta scan is looking-glass's preset
        # whole, its first scan first (test j, its order from depth 33, its pruning),
        # not fc-solve's default order; its other scans win 21 and 73 (``before``:
        # with its first scan alone)
        (code(4, any_card=True), 5, 3_933),
        (code(4, any_card=True, bakers=True), 3009, 10_361),
        (code(4, any_card=True, bakers=True), 21, 6_096),
        (code(4, any_card=True, bakers=True), 73, 16_719),
        # under FreeCell's own rules (C2-EAB, C2-EA): the scans are looking-glass's
        # sixteen, the preset fc-solve made for them, not toons' seventeen
        (code(2, any_card=True, alternate=True, bakers=True), 3031, 120_330),
        (code(2, any_card=True, alternate=True), 3032, 41_072),
    ],
)
def test_where_any_card_fills_a_column_looking_glasss_scans_win_early(
    rules: Rules, number: int, before: int
) -> None:
    # ``before``: the portfolio's positions with the helpers these rules had before.
    # Under FreeCell's rules toons' scans run beside looking-glass's, on as many
    # positions (schedule.toons_beside_nodes).
    assert_solved_within(rules, number, before // 3)


@needs_native
@pytest.mark.parametrize(
    ("rules", "number", "before"),
    [
        (code(2, any_card=True, alternate=True), 120, 28_551),
        (code(2, any_card=True, alternate=True, bakers=True), 489, 56_234),
    ],
)
def test_under_freecells_rules_toons_scans_run_beside_looking_glasss(
    rules: Rules, number: int, before: int
) -> None:
    # ``before``: the portfolio's positions with looking-glass's scans alone. Toons'
    # first scans win these at 2,445 and 4,890 of their positions, looking-glass's
    # at 13,547 and 41,461: toons' run beside them on as many positions.
    assert_solved_within(rules, number, before // 2)


@needs_native
def test_toons_scans_beside_looking_glasss_go_on_where_the_deal_looks_won() -> None:
    # C2-EAB PySolFC 1785: toons' scans win it at 18,647 positions, looking-glass's at
    # 182,921. Held at 5,000, toons' left it to the others: 171,232 positions in all.
    # Past 5,000 they go on while best-first's open list is a won deal's.
    assert_solved_within(code(2, any_card=True, alternate=True, bakers=True), 1785, 171_232 // 2)


@needs_native
@pytest.mark.parametrize("group_moves", list(GroupMoves))
def test_under_freecells_rules_the_scans_lines_are_legal_under_any_group_moves(
    group_moves: GroupMoves,
) -> None:
    # Looking-glass's scans run only under the group moves fc-solve plays (toons'
    # elsewhere): either way the portfolio's line replays on the engine.
    rules = code(2, any_card=True, alternate=True).with_options(group_moves=group_moves)
    position = pysol_deal(3032, rules)
    result = solve(position)
    assert result.solved
    for move in result.moves:
        position = position.apply(move)
    assert position.is_won()


@needs_native
def test_other_group_moves_keep_the_meta_scan_out() -> None:
    # One card a move: fc-solve's run moves are not this game's, so the portfolio
    # plays without the meta scan (and wins the deal all the same, legally).
    rules = Rules(
        cells=4, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS, group_moves=GroupMoves.SINGLE
    )
    position = pysol_deal(48, rules)
    result = solve(position)
    with_meta = solve(pysol_deal(48, C4_EB))
    assert result.solved and with_meta.solved
    assert result.nodes > 10 * with_meta.nodes
    for move in result.moves:
        position = position.apply(move)
    assert position.is_won()


@needs_native
@pytest.mark.parametrize("group_moves", list(GroupMoves))
@pytest.mark.parametrize("take_back", [False, True])
@pytest.mark.parametrize(("tests", "prune"), [(META, False), (LOOKING_GLASS, True)])
def test_a_meta_scans_lines_are_the_engines_under_any_rules(
    group_moves: GroupMoves, take_back: bool, tests: str, prune: bool
) -> None:
    # Each step is checked against the rules before a child is kept (meta.c
    # meta_step): under group moves fc-solve does not play (one card a move, or the
    # formula with Kings-only columns) the scan drops what they refuse, and its wins
    # replay all the same. So does test j's parking in empty columns with Kings-only
    # columns, which fc-solve counts as free there.
    assert native is not None
    won = 0
    for cells in (8, 4, 2):
        for any_card in (False, True):
            for alternate in (False, True):
                rules = code(cells, any_card=any_card, alternate=alternate).with_options(
                    group_moves=group_moves, take_back=take_back
                )
                for number in (1, 2):
                    position = pysol_deal(number, rules)
                    status, steps, _ = native.scans(
                        search_state(position),
                        core.config(rules),
                        max_nodes=20_000,
                        tests=tests,
                        prune=prune,
                    )
                    if status == core.SOLVED:
                        assert_replays_to_a_win(position, rules, steps)
                        won += 1
    assert won >= 12
