"""The C core's preset scans (native/scans.c): Freecell Solver's soft threads together."""

from __future__ import annotations

import shutil

import pytest

import benchmark_scripts
from eightoff.deal import pysol_deal
from eightoff.position import Position
from eightoff.rules import STANDARD, Build, EmptyColumn, Layout, Rules
from eightoff.solver import core, solve
from support import needs_native
from support.native import assert_replays_to_a_win, fc_solve_checked, search_state

native = core.native
FC_SOLVE = shutil.which("fc-solve")
needs_fc_solve = pytest.mark.skipif(
    FC_SOLVE is None, reason="fc-solve is not installed (freecell-solver-bin)"
)
PRESET = "toons-for-twenty-somethings"
fcs_meta = benchmark_scripts.load("fcs_meta")
fcs_options = benchmark_scripts.load("solver_variants").fcs_options

TWO_CELLS_ALTERNATE = Rules(cells=2, build=Build.ALTERNATE)
FORE_CELL = Rules(cells=4, build=Build.ALTERNATE)
# Deals fc-solve's preset wins, under rules it plays as eightoff does, with the
# options that say so: six before the prelude's first A* turn (at 33,600
# positions), four after it, whose counts hold only with the A* scans' turns.
ALTERNATE = ("--sequences-are-built-by", "alternate_color")
TWO_CELLS_ALTERNATE_FLAGS = ("--freecells-num", "2", *ALTERNATE)
PRESET_CASES = [
    (TWO_CELLS_ALTERNATE, 2286, TWO_CELLS_ALTERNATE_FLAGS),
    (TWO_CELLS_ALTERNATE, 2283, TWO_CELLS_ALTERNATE_FLAGS),
    (FORE_CELL, 2126, ("--freecells-num", "4", *ALTERNATE)),
    (STANDARD, 2201, ()),
    (Rules(cells=4, layout=Layout.BAKERS), 3, ("--freecells-num", "4")),
    (
        Rules(cells=2, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE),
        2,
        ("--freecells-num", "2", *ALTERNATE, "--empty-stacks-filled-by", "all"),
    ),
    # 63,217, 78,313 and 57,520 positions; 36,352 (by an A* scan)
    (TWO_CELLS_ALTERNATE, 3464, TWO_CELLS_ALTERNATE_FLAGS),
    (TWO_CELLS_ALTERNATE, 290, TWO_CELLS_ALTERNATE_FLAGS),
    (Rules(cells=2, build=Build.ALTERNATE, layout=Layout.BAKERS), 243, TWO_CELLS_ALTERNATE_FLAGS),
    (
        Rules(cells=4, build=Build.ALTERNATE, layout=Layout.BAKERS),
        178,
        ("--freecells-num", "4", *ALTERNATE),
    ),
]


def preset_checked(position: Position, flags: tuple[str, ...], *, won: bool = True) -> int:
    """How many positions fc-solve's preset checks to win ``position`` (or to give up)."""
    checked, solved = fc_solve_checked(
        position, [*flags, "--sequence-move", "limited", "-l", PRESET, "-mi", "100000"]
    )
    assert solved == won
    return checked


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(("rules", "number", "flags"), PRESET_CASES)
def test_the_scans_check_what_freecell_solvers_preset_checks(
    rules: Rules, number: int, flags: tuple[str, ...]
) -> None:
    assert native is not None
    position = pysol_deal(number, rules)
    checked = preset_checked(position, flags)
    status, steps, ours = native.scans(
        search_state(position), core.config(rules), max_nodes=100_000
    )
    assert status == core.SOLVED
    assert ours == checked
    assert_replays_to_a_win(position, rules, steps)


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(
    ("rules", "number", "flags"),
    [
        (Rules(cells=4, layout=Layout.BAKERS), 5, ("--freecells-num", "4")),
        (TWO_CELLS_ALTERNATE, 43, TWO_CELLS_ALTERNATE_FLAGS),  # dry past the A* turns: 75,094
    ],
)
def test_the_scans_run_dry_where_the_presets_do(
    rules: Rules, number: int, flags: tuple[str, ...]
) -> None:
    # Every scan runs dry at fc-solve's count of positions, the A* scans' too.
    # Running dry proves nothing here: positions are told apart by hashes.
    assert native is not None
    position = pysol_deal(number, rules)
    checked = preset_checked(position, flags, won=False)
    status, steps, ours = native.scans(
        search_state(position), core.config(rules), max_nodes=400_000
    )
    assert status == core.EXHAUSTED and steps == []
    assert ours == checked


def any_card(cells: int, *, alternate: bool = True, bakers: bool = False) -> Rules:
    """An atlas row where any card fills an empty column (C2-EAB: two cells, alternating
    colours, Baker's layout)."""
    return Rules(
        cells=cells,
        empty_column=EmptyColumn.ANY,
        build=Build.ALTERNATE if alternate else Build.SUIT,
        layout=Layout.BAKERS if bakers else Layout.EIGHT_OFF,
    )


@needs_native
@needs_fc_solve
@pytest.mark.parametrize(
    ("rules", "number", "won"),
    [
        (any_card(4), 5, True),  # 127: the first scan's turn
        (any_card(2), 42, True),  # 3,045: scan "20" shuffles fc-solve's default order
        (any_card(2, bakers=True), 24, True),  # 11,935 and 16,063: past the A* scans' turns
        (any_card(2, bakers=True), 9, True),
        (any_card(4, alternate=False, bakers=True), 14, False),  # dry at 6,959
        (any_card(2, alternate=False), 31, False),  # dry at 12,443
    ],
)
def test_the_looking_glass_scans_check_what_its_preset_checks(
    rules: Rules, number: int, won: bool
) -> None:
    # fc-solve's preset looking-glass: fourteen depth-first scans of meta-move tests
    # and two A*, all pruned, none complete (none starts with every test another does),
    # so none marks dead ends; held to its count where any card fills a column (its
    # test j parks cards in empty columns Kings-only columns refuse).
    assert native is not None
    position = pysol_deal(number, rules)
    checked, solved = fcs_meta.fcs_checked(
        position, [*fcs_options(rules), "-l", "looking-glass", "-mi", "100000"]
    )
    found = native.scans(
        search_state(position),
        core.config(rules),
        max_nodes=100_000,
        tests=None,
        prune=False,
        seed=0,
        preset="looking-glass",
    )
    assert solved == won and (found[0] == core.SOLVED) == won
    assert found[2] == checked
    if won:
        assert_replays_to_a_win(position, rules, found[1])


@needs_native
def test_an_unknown_preset_is_refused() -> None:
    assert native is not None
    position = pysol_deal(5, any_card(4))
    with pytest.raises(ValueError, match="preset"):
        native.scans(
            search_state(position),
            core.config(any_card(4)),
            max_nodes=100,
            tests=None,
            prune=False,
            seed=0,
            preset="lg",
        )


@needs_native
def test_the_scans_share_their_dead_ends() -> None:
    # Freecell Solver's preset wins this deal at 8,961 positions, where none of its
    # scans alone would: its first scan alone needs 11,646 (one position of which is
    # its root's second check, which an atomic dive does not count).
    assert native is not None
    position = pysol_deal(2286, TWO_CELLS_ALTERNATE)
    config = core.config(TWO_CELLS_ALTERNATE)
    status, _, together = native.scans(search_state(position), config, max_nodes=100_000)
    assert status == core.SOLVED and together == 8_961
    status, _, alone = native.dive(
        search_state(position),
        config,
        max_nodes=100_000,
        order="atomic:01ABCDE",
    )
    assert status == core.SOLVED and alone + 1 == 11_646


@needs_native
def test_an_a_star_scan_wins_in_its_turn() -> None:
    # fc-solve's preset wins this deal at 36,352 positions, in its first A* turn
    # (scan 7's, from 33,600 to 39,200): the line is the A* scan's.
    assert native is not None
    rules = Rules(cells=4, build=Build.ALTERNATE, layout=Layout.BAKERS)
    position = pysol_deal(178, rules)
    status, steps, checked = native.scans(
        search_state(position),
        core.config(rules),
        max_nodes=100_000,
    )
    assert status == core.SOLVED and checked == 36_352
    assert_replays_to_a_win(position, rules, steps)


@needs_native
def test_the_scans_obey_the_node_limit() -> None:
    assert native is not None
    position = pysol_deal(2286, TWO_CELLS_ALTERNATE)
    status, steps, checked = native.scans(
        search_state(position),
        core.config(TWO_CELLS_ALTERNATE),
        max_nodes=1_000,
    )
    assert status not in (core.SOLVED, core.EXHAUSTED) and steps == [] and checked <= 1_001


@needs_native
def test_the_scans_reject_more_cards_in_cells_than_cells() -> None:
    assert native is not None
    position = pysol_deal(1)  # four cards dealt to the cells
    with pytest.raises(ValueError, match="cells"):
        native.scans(search_state(position), core.config(TWO_CELLS_ALTERNATE), max_nodes=100)


@needs_native
@pytest.mark.parametrize(
    ("rules", "number"), [(FORE_CELL, 3886), (FORE_CELL, 3914), (TWO_CELLS_ALTERNATE, 3583)]
)
def test_the_portfolio_runs_the_scans_where_best_first_wanders(rules: Rules, number: int) -> None:
    # Best-first alone needs 54,000-670,000 positions; fc-solve's preset wins within
    # 3,100-16,600, and the portfolio's scans take their turns from best-first's
    # early_start-th expansion, scan_num of theirs per scan_den of its own.
    position = pysol_deal(number, rules)
    saved = core.PORTFOLIO
    try:
        core.PORTFOLIO = False
        alone = solve(position)
        core.PORTFOLIO = True
        both = solve(position)
    finally:
        core.PORTFOLIO = saved
    assert alone.solved and both.solved
    assert both.nodes * 3 < alone.nodes
    for move in both.moves:
        position = position.apply(move)
    assert position.is_won()
