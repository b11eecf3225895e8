"""The C core's portfolio (native/portfolio.c): best-first and greedy dives by turns."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

import benchmark_scripts
from eightoff.deal import deal, pysol_deal
from eightoff.formats import position_from_fcs
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import STANDARD, Build, EmptyColumn, Layout, Rules
from eightoff.solver import DEFAULT_SCHEDULE, Limit, Schedule, SolveResult, Verdict, core, solve
from support import needs_native
from support.native import (
    assert_replays_to_a_win,
    c_solve,
    fc_solve_checked,
    scans_win_at,
    search_state,
)

native = core.native

FORE_CELL = Rules(cells=4, build=Build.ALTERNATE)
TWO_CELLS_ALTERNATE = Rules(cells=2, build=Build.ALTERNATE)
TWO_CELLS_ALTERNATE_BAKERS = Rules(cells=2, build=Build.ALTERNATE, layout=Layout.BAKERS)
# Deals where best-first alone expands 37,000-570,000 positions while a depth-first
# solver finds a line in a few milliseconds.
TAIL_DEALS = [
    (STANDARD, 27),
    (STANDARD, 1780),
    (FORE_CELL, 882),
    (FORE_CELL, 377),
    (TWO_CELLS_ALTERNATE, 200),
    (TWO_CELLS_ALTERNATE, 249),
]
# Won under 2 cells, alternating colours, yet a streamlined dive (every card that can
# go home goes) runs dry on it: that dive's failure is no proof.
STREAMLINED_DEAD_END = (
    "Foundations: H-0 C-6 D-7 S-8\nFreecells: 6H JD\nJC 9D 3H QH\n7C JH 9C 4H\nKH QD TD\n"
    "8D TH 8C QS\nTS 7H KD\nKS 5H KC\n9S 9H TC QC\nAH 8H JS 2H\n"
)
NO_LIMIT = Limit(nodes=None, seconds=None)
SCAN = "atomic:01ABCDE"  # Freecell Solver's first scan (dive.c atomic_moves)


def wins(position: Position, result: SolveResult) -> bool:
    """The line replays through the engine's checks to a won game, its length counted right."""
    return replays_to_a_win(position, list(result.moves), result.length)


def replays_to_a_win(position: Position, line: list[Move], length: int) -> bool:
    for move in line:
        position = position.apply(move)
    return position.is_won() and length == sum(2 * m.count - 1 for m in line)


def solve_with(
    position: Position,
    portfolio: bool,
    limit: Limit = NO_LIMIT,
    schedule: Schedule = DEFAULT_SCHEDULE,
) -> SolveResult:
    saved = core.PORTFOLIO
    core.PORTFOLIO = portfolio
    try:
        return solve(position, limit=limit, schedule=schedule)
    finally:
        core.PORTFOLIO = saved


@needs_native
@pytest.mark.parametrize(("rules", "number"), TAIL_DEALS)
def test_tail_deals_get_legal_winning_lines(rules: Rules, number: int) -> None:
    position = pysol_deal(number, rules)
    result = solve(position, limit=Limit(nodes=300_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert wins(position, result)


@needs_native
@pytest.mark.parametrize(("number", "factor"), [(27, 3), (3182, 2)])
def test_the_portfolio_expands_fewer_positions_on_a_tail_deal(number: int, factor: int) -> None:
    # Best-first alone: 37,609 and 5,683 positions; with its helpers (with eight cells,
    # from its schedule.solo-th expansion) under a third and under a half of that.
    position = pysol_deal(number)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert wins(position, alone) and wins(position, both)
    assert both.nodes * factor < alone.nodes


@needs_native
@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_deal_best_first_settles_early_gets_the_same_line(number: int) -> None:
    position = pysol_deal(number)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    # before any helper's first turn could come (the meta scan's or the others')
    assert alone.nodes < min(DEFAULT_SCHEDULE.early_start, DEFAULT_SCHEDULE.meta_start)
    assert both.moves == alone.moves and both.nodes == alone.nodes


@needs_native
def test_a_helper_ends_a_deal_before_the_solo_stretch() -> None:
    # Best-first alone needs 5,839 positions; the helpers that take turns with it
    # (the meta-move scan from its meta_start-th expansion, the others from its
    # early_start-th) find a line within 2,200 in all, before the solo stretch.
    # (Best-first then goes on a little for a line of its own: resolve=False counts
    # the positions up to the helper's win alone.)
    position = pysol_deal(3068, FORE_CELL)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert wins(position, alone) and wins(position, both)
    status, _, _, nodes = solve_native(position, resolve=False)
    assert status == core.SOLVED and nodes < 2_200 < alone.nodes < both.nodes * 6


@needs_native
@pytest.mark.parametrize("number", [3070, 3100])
def test_with_eight_cells_the_helpers_wait_for_the_solo_stretch(number: int) -> None:
    # Best-first alone ends these between the helpers' first turn with four or two
    # cells (schedule.early_start) and with eight (schedule.solo): with eight cells
    # they get best-first's own line. Were eight cells not "wide" (wide_cells 9), the
    # helpers would join it from early_start and end the deal another way.
    position = pysol_deal(number)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert DEFAULT_SCHEDULE.early_start < alone.nodes < DEFAULT_SCHEDULE.solo
    assert both.moves == alone.moves and both.nodes == alone.nodes
    narrow = solve_with(position, portfolio=True, schedule=Schedule(wide_cells=9))
    assert narrow.nodes != alone.nodes


def solve_native(
    position: Position, *, resolve: bool, first: int = 100_000, max_nodes: int = -1
) -> tuple[int, list[Move], int, int]:
    """native.solve on ``position``, a helper's line tried again by best-first or not."""
    schedule = Schedule(first=first, late_bf_max=2_000_000).values
    status, line, length, nodes = c_solve(
        position, nodes=max_nodes, resolve=resolve, schedule=schedule
    )
    return status, [core.MOVES[m] for m in line], length, nodes


@needs_native
@pytest.mark.parametrize(("number", "spent"), [(3003, 3_334), (3136, 2_323), (3065, 1_635)])
def test_best_first_goes_on_after_a_helpers_win(number: int, spent: int) -> None:
    # Fore Cell deals a helper wins at these counts of positions, with lines of 138, 142
    # and 123 single-card moves; best-first, the very search that took turns with it,
    # is a few hundred expansions from its own line: it goes on to it (at most half
    # the positions spent again), and that line is best-first alone's, move for move.
    position = pysol_deal(number, FORE_CELL)
    status, line, length, nodes = solve_native(position, resolve=False)
    again_status, again, again_length, again_nodes = solve_native(position, resolve=True)
    alone = solve_with(position, portfolio=False)
    assert status == again_status == core.SOLVED and nodes == spent
    assert replays_to_a_win(position, line, length)
    assert again == list(alone.moves) and again_length == alone.length < length
    assert nodes < again_nodes <= nodes + nodes // 2


@needs_native
def test_best_first_again_from_a_helpers_line_shortens_it() -> None:
    # Fore Cell deal 3211: a helper wins at 5,118 positions in all with 262 single-card
    # moves; best-first again from where that line has sent 3, 6 or 12 cards home ends
    # it in 113.
    position = pysol_deal(3211, FORE_CELL)
    status, line, length, nodes = solve_native(position, resolve=False)
    again_status, again, again_length, again_nodes = solve_native(position, resolve=True)
    assert status == again_status == core.SOLVED and nodes < again_nodes
    assert replays_to_a_win(position, line, length)
    assert replays_to_a_win(position, again, again_length)
    assert again_length <= 120 < 250 < length


@needs_native
def test_the_second_search_keeps_to_the_node_limit() -> None:
    # Deal 3105 is won at 4,269 positions (112 moves; best-first goes on 1,067 more to
    # its own line, 92 once its ending is re-solved): with no positions left of the
    # limit, the line is the helper's own; with 2,000 more, best-first's.
    position = pysol_deal(3105, FORE_CELL)
    _, plain, length, nodes = solve_native(position, resolve=False)
    status, line, _, _ = solve_native(position, resolve=True, max_nodes=nodes)
    assert status == core.SOLVED and line == plain
    assert solve_native(position, resolve=True, max_nodes=nodes + 1_000)[2] == length
    assert solve_native(position, resolve=True, max_nodes=nodes + 2_000)[2] == 92


@needs_native
@pytest.mark.parametrize(("number", "shorter"), [(2, True), (13, True), (15, False), (18, True)])
def test_best_first_again_after_the_proofs_line(number: int, shorter: bool) -> None:
    # With the proof's turns from the first expansion, a depth-first line wins deals 2,
    # 13 and 18 (146, 177 and 102 single-card moves; 107, 92 and 101 once best-first
    # went on to its own); best-first's own line wins deal 15, and is kept.
    position = pysol_deal(number, TWO_CELLS_ALTERNATE)
    status, line, length, _ = solve_native(position, resolve=False, first=1)
    _, again, again_length, _ = solve_native(position, resolve=True, first=1)
    assert status == core.SOLVED
    assert replays_to_a_win(position, again, again_length)
    assert again_length < length if shorter else again == line


@needs_native
def test_with_eight_cells_a_helpers_line_is_kept() -> None:
    position = pysol_deal(3182)  # won by a helper (best-first alone: 5,683 positions)
    assert solve_native(position, resolve=True) == solve_native(position, resolve=False)


@needs_native
@pytest.mark.parametrize(
    ("rules", "number"), [(FORE_CELL, 3483), (FORE_CELL, 3027), (FORE_CELL, 3200)]
)
def test_freecell_solvers_first_scan_ends_a_deal_before_the_solo_stretch(
    rules: Rules, number: int
) -> None:
    # Best-first alone needs 2,300-9,900 positions; Freecell Solver's first scan
    # finds a line within 350, and takes the helpers' turns from best-first's
    # early_start-th expansion: the deal ends before the solo stretch.
    assert native is not None
    position = pysol_deal(number, rules)
    status, _, scan_nodes = native.dive(
        search_state(position),
        core.config(rules),
        max_nodes=5_000,
        order=SCAN,
    )
    assert status == core.SOLVED and scan_nodes < 400
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert wins(position, alone) and wins(position, both)
    assert both.nodes < DEFAULT_SCHEDULE.solo < alone.nodes


# Solves those slow deals under tight memory limits, in a process of its own: a
# helper that fills its share of the tables is dropped, and dropping it twice freed
# its heap twice (glibc aborted the process).
SMALL_MEMORY_SCRIPT = """
from eightoff.deal import deal, pysol_deal
from eightoff.rules import Build, Rules
from eightoff.solver import Limit, solve
for memory in (1_000_000, 2_000_000, 4_000_000):
    for cells, number in ((2, 249), (2, 200), (4, 377), (4, 882)):
        position = pysol_deal(number, Rules(cells=cells, build=Build.ALTERNATE))
        result = solve(position, limit=Limit(nodes=600_000, memory=memory))
        assert result.verdict.value in ("solved", "unknown"), result.verdict
        for move in result.moves:
            position = position.apply(move)
        assert position.is_won() == result.solved
        print(memory, cells, number, result.verdict.value)
"""


@needs_native
def test_a_small_memory_limit_ends_in_a_verdict_not_a_crash() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SMALL_MEMORY_SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    verdicts = done.stdout.split()[3::4]
    assert len(verdicts) == 12 and "solved" in verdicts and "unknown" in verdicts


@needs_native
def test_only_best_first_settles_no_solution() -> None:
    position = pysol_deal(465)  # unsolvable: the dives run dry or stop, proving nothing
    assert solve_with(position, portfolio=True).verdict is Verdict.UNSOLVABLE
    # Past best-first's stretch alone, every search's expansions count toward the limit.
    stopped = solve_with(position, portfolio=True, limit=Limit(nodes=5_000, seconds=None))
    assert stopped.verdict is Verdict.UNKNOWN
    assert stopped.nodes == 5_000


@needs_native
@pytest.mark.parametrize("number", [3257, 3147, 3066])
def test_no_solution_past_the_solo_stretch_is_still_proven(number: int) -> None:
    # Lost under 2 cells, alternating colours; best-first and its proof need 7,000-
    # 11,000 positions, its open list stays large for a while: the helpers take
    # their turns (and run dry or stop) before the proof, which stays best-first's.
    position = pysol_deal(number, TWO_CELLS_ALTERNATE)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert alone.verdict is both.verdict is Verdict.UNSOLVABLE
    assert both.nodes > alone.nodes  # the helpers' expansions are counted


@needs_native
@pytest.mark.parametrize(
    ("rules", "number"),
    [(FORE_CELL, 254), (FORE_CELL, 3484), (TWO_CELLS_ALTERNATE, 12), (TWO_CELLS_ALTERNATE, 11)],
)
def test_a_lost_deal_whose_open_list_stays_small_pays_little(rules: Rules, number: int) -> None:
    # Lost deals that best-first needs 5,000-14,000 positions to exhaust, its open
    # list below one position per two expanded all along: no helper starts but
    # Freecell Solver's scans (their first 1,500 positions on the others' turns too:
    # schedule.scan_first), and they stop while the list holds one per four. The
    # exact proof takes turns beside best-first instead (past its pf_proof_min-th
    # expansion), and its running dry ends the search, where best-first alone runs dry
    # first and the proof runs after it (``alone``).
    position = pysol_deal(number, rules)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert alone.verdict is both.verdict is Verdict.UNSOLVABLE
    assert both.nodes <= alone.nodes + 2_500


@needs_native
def test_the_scans_keep_pace_with_the_proofs_turns_in_the_first_stretch() -> None:
    # 2-cell alternating Baker's PySolFC 3427: Freecell Solver's preset scans win it at
    # 4,292 of their positions. Its open list small, the proof takes turns beside
    # best-first, four positions per one of best-first's; with the scans' share counted
    # on best-first's alone, the proof won it at 21,640 (36,075 positions in all) while
    # the scans stood at 4,291. Their share counts the proof's positions too.
    position = pysol_deal(3427, TWO_CELLS_ALTERNATE_BAKERS)
    assert scans_win_at(position) == 4_292
    result = solve_with(position, portfolio=True)
    assert result.verdict is Verdict.SOLVED and wins(position, result)
    assert result.nodes < 15_000


@needs_native
@pytest.mark.parametrize(
    ("rules", "number", "scans_at", "before", "within"),
    [
        (TWO_CELLS_ALTERNATE, 98, 5_022, 54_862, 40_000),
        (TWO_CELLS_ALTERNATE_BAKERS, 873, 34_614, 681_176, 250_000),
    ],
)
def test_the_scans_go_on_at_a_quarter_of_their_share_while_the_gate_holds_them(
    rules: Rules, number: int, scans_at: int, before: int, within: int
) -> None:
    # Freecell Solver's preset scans win these deals at ``scans_at`` positions, but
    # best-first's open list stays under a quarter of its expansions, so the gate held
    # the scans and the proof won them at ``before`` positions in all (2-cell
    # alternating 98: 9 times Freecell Solver's time, Baker's 873: 18 times). A quarter
    # of their share goes on meanwhile, up to 40,000 of their positions.
    position = pysol_deal(number, rules)
    assert scans_win_at(position) == scans_at
    result = solve_with(position, portfolio=True)
    assert result.verdict is Verdict.SOLVED and wins(position, result)
    assert result.nodes < within < before


@needs_native
def test_a_streamlined_dives_line_replays_from_the_deal() -> None:
    # Fore Cell deal 1853 is won by a streamlined dive (every card that can go home
    # goes) whose root, as best-first hands it over, still holds a card only that
    # autoplay sends home: the line must be replayed from the dive's own root (it was
    # replayed from the deal with the wrong autoplay, and the C core crashed).
    position = pysol_deal(1853, FORE_CELL)
    result = solve(position, limit=Limit(nodes=600_000))
    assert result.verdict is Verdict.SOLVED and wins(position, result)


@needs_native
def test_a_streamlined_dive_that_runs_dry_proves_nothing() -> None:
    assert native is not None
    position = position_from_fcs(STREAMLINED_DEAD_END, TWO_CELLS_ALTERNATE)
    # every card that can go home goes
    streamlined = replace(core.config(position.rules), autoplay=core.AUTO_ALL)
    status, _, _ = native.dive(search_state(position), streamlined)
    assert status == core.EXHAUSTED
    result = solve(position, limit=NO_LIMIT)
    assert result.verdict is Verdict.SOLVED and wins(position, result)


@needs_native
@pytest.mark.parametrize(("seed", "noise"), [(0, 0.0), (7, 0.5), (9, 3.0)])
def test_a_dive_alone_finds_a_line_finish_accepts(seed: int, noise: float) -> None:
    assert native is not None
    position = pysol_deal(27)
    cfg = core.config(position.rules)
    status, steps, nodes = native.dive(
        search_state(position), cfg, max_nodes=200_000, seed=seed, noise=noise
    )
    assert status == core.SOLVED and 0 < nodes <= 200_000
    # finish replays the steps under the same rules first (else ValueError).
    line = native.finish(core.state(position), cfg, steps, endgame_home=20, endgame_nodes=300)
    moves: tuple[Move, ...] = tuple(map(core.MOVES.__getitem__, line))
    for move in moves:
        position = position.apply(move)
    assert position.is_won()


@needs_native
def test_dive_rejects_bad_arguments() -> None:
    assert native is not None
    cols, cells, founds = search_state(pysol_deal(27))
    cfg = core.config(STANDARD)
    with pytest.raises(ValueError, match="noise"):
        native.dive((cols, cells, founds), cfg, max_nodes=100, seed=1, noise=-0.5)
    with pytest.raises(ValueError, match="each of the 52 cards"):
        native.dive(((cols[0] + cols[0][:1], *cols[1:]), cells, founds), cfg, max_nodes=100)


@needs_native
@pytest.mark.parametrize(
    ("order", "seed"), [("01ABCDE", 0), ("[01][ABD][CE]", 2), ("[01ABCDE]", 5)]
)
def test_a_dive_by_kind_of_move_finds_a_line_finish_accepts(order: str, seed: int) -> None:
    # Freecell Solver's test order: home first, then onto columns, cells last.
    assert native is not None
    position = pysol_deal(27)
    cfg = core.config(position.rules)
    status, steps, _ = native.dive(
        search_state(position), cfg, max_nodes=200_000, seed=seed, noise=0.999, order=order
    )
    assert status == core.SOLVED
    line = native.finish(core.state(position), cfg, steps, endgame_home=20, endgame_nodes=300)
    for move in map(core.MOVES.__getitem__, line):
        position = position.apply(move)
    assert position.is_won()


@needs_native
def test_the_kind_order_decides_the_dive() -> None:
    assert native is not None
    state = search_state(pysol_deal(882, FORE_CELL))
    cfg = core.config(FORE_CELL)
    by_kind = {
        order: native.dive(state, cfg, max_nodes=50_000, order=order)
        for order in ("01ABCDE", "01BDAEC", "01DECAB")
    }
    # Each finds a line, along different paths: the order is what tells them apart.
    assert all(status == core.SOLVED for status, _, _ in by_kind.values())
    assert len({nodes for _, _, nodes in by_kind.values()}) == 3
    assert len({tuple(steps) for _, steps, _ in by_kind.values()}) == 3


@needs_native
@pytest.mark.parametrize("order", ["01X", "01ABCDEz", "0 1", "0" * 70])
def test_dive_rejects_an_unknown_test_in_the_order(order: str) -> None:
    assert native is not None
    cols, cells, founds = search_state(pysol_deal(27))
    with pytest.raises(ValueError, match="order"):
        native.dive(
            (cols, cells, founds),
            core.config(STANDARD),
            max_nodes=100,
            order=order,
        )


# Variants, a deal where Freecell Solver's first scan wins in a few hundred positions,
# and its flags for the variant's rules.
FCS_SCAN_CASES = [
    (STANDARD, 8, ()),
    (FORE_CELL, 2, ("--freecells-num", "4", "--sequences-are-built-by", "alternate_color")),
    (
        TWO_CELLS_ALTERNATE,
        2,
        ("--freecells-num", "2", "--sequences-are-built-by", "alternate_color"),
    ),
    (
        Rules(cells=4, empty_column=EmptyColumn.ANY),
        5,
        ("--freecells-num", "4", "--empty-stacks-filled-by", "all"),
    ),
    (
        Rules(cells=4, layout=Layout.BAKERS),
        3,
        (
            "--freecells-num",
            "4",
        ),
    ),
    (
        Rules(cells=2, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS),
        8,
        (
            "--freecells-num",
            "2",
            "--sequences-are-built-by",
            "alternate_color",
            "--empty-stacks-filled-by",
            "all",
        ),
    ),
]
FC_SOLVE = shutil.which("fc-solve")
fcs_meta = benchmark_scripts.load("fcs_meta")


def fcs_states_checked(
    position: Position, flags: tuple[str, ...], method: str, tests: str, seed: int
) -> int:
    """How many positions fc-solve checks to win ``position`` by one scan."""
    checked, won = fc_solve_checked(
        position, [*flags, "--method", method, "-to", tests, "-seed", str(seed), "-mi", "20000"]
    )
    assert won
    return checked


@needs_native
@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve is not installed (freecell-solver-bin)")
@pytest.mark.parametrize(("rules", "number", "flags"), FCS_SCAN_CASES)
def test_an_atomic_dive_is_freecell_solvers_depth_first_scan(
    rules: Rules, number: int, flags: tuple[str, ...]
) -> None:
    # fc-solve's soft-dfs with tests 01ABCDE checks its root, the positions it visits
    # and its root once more (a line comes back to it): one more than we expand.
    assert native is not None
    position = pysol_deal(number, rules)
    checked = fcs_states_checked(position, flags, "soft-dfs", "01ABCDE", 0)
    status, steps, nodes = native.dive(
        search_state(position),
        core.config(rules),
        max_nodes=20_000,
        order=SCAN,
    )
    assert status == core.SOLVED
    assert nodes == checked - 1
    assert_replays_to_a_win(position, rules, steps)


# Random scans of Freecell Solver's "toons-for-twenty-somethings" preset, its seeds.
RANDOM_SCANS = [
    ("[01][ABCDE]", 3),
    ("01[ABCDE]", 268),
    ("[01][ABD][CE]", 1900),
    ("[01ABCDE]", 1977),
    ("[01][ABCDE]", 71),
    ("[01][ABD][CE]", 8),
]


@needs_native
@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve is not installed (freecell-solver-bin)")
@pytest.mark.parametrize(
    ("rules", "number", "flags", "tests", "seed"),
    [(*case, *scan) for case, scan in zip(FCS_SCAN_CASES, RANDOM_SCANS, strict=True)],
)
def test_an_atomic_dive_with_random_groups_is_freecell_solvers_random_scan(
    rules: Rules, number: int, flags: tuple[str, ...], tests: str, seed: int
) -> None:
    # A bracket's moves are shuffled by fc-solve's own generator and seed: the same
    # positions in the same order, so the same count.
    assert native is not None
    position = pysol_deal(number, rules)
    checked = fcs_states_checked(position, flags, "random-dfs", tests, seed)
    state, config, order = search_state(position), core.config(rules), "atomic:" + tests
    status, steps, nodes = native.dive(state, config, max_nodes=20_000, seed=seed, order=order)
    assert status == core.SOLVED
    assert nodes == checked - 1
    # Another seed shuffles otherwise.
    _, _, other = native.dive(state, config, max_nodes=20_000, seed=seed + 1, order=order)
    assert other != nodes
    assert_replays_to_a_win(position, rules, steps)


@needs_native
def test_an_atomic_dive_plays_single_cards_and_no_autoplay() -> None:
    assert native is not None
    position = pysol_deal(8)
    status, steps, _ = native.dive(
        search_state(position),
        core.config(STANDARD),
        max_nodes=20_000,
        order=SCAN,
    )
    assert status == core.SOLVED and steps
    assert all(move[4] == 1 and autos == () for move, autos in steps)
    assert (
        sum(1 for move, _ in steps if move[2] == core.FOUND) == 52
    )  # every card sent home by a move


@needs_native
@pytest.mark.parametrize(
    "order",
    [
        "atomic:01X",
        "atomic:[01",
        "atomic:01]",
        "atomic:[]01",
        "atomic:[0[1]]",
        "atomic:" + "0" * 70,
        "atomic:" + "0[1]" * 5,
    ],
)
def test_an_atomic_dive_rejects_an_unknown_test(order: str) -> None:
    assert native is not None
    cols, cells, founds = search_state(pysol_deal(27))
    with pytest.raises(ValueError, match="atomic tests"):
        native.dive(
            (cols, cells, founds),
            core.config(STANDARD),
            max_nodes=100,
            order=order,
        )


def _dive_lines(position: Position) -> tuple[list[list[Position]], list[int]]:
    """A dive's line (h weighing a card in a cell 1.0) finished plainly and with the
    shortcuts: the positions of each, the start first, and its single-card moves."""
    assert native is not None
    cfg = core.config(position.rules)
    heavy_cells = replace(cfg, cell_weight=1.0)
    status, steps, _ = native.dive(search_state(position), heavy_cells, max_nodes=200_000)
    assert status == core.SOLVED
    plain = native.finish(core.state(position), cfg, steps, endgame_home=20, endgame_nodes=300)
    cut = native.finish(
        core.state(position), cfg, steps, endgame_home=20, endgame_nodes=300, shortcuts=True
    )
    walks, lengths = [], []
    for line in (plain, cut):
        moves = tuple(map(core.MOVES.__getitem__, line))
        walk = [position]
        for move in moves:
            walk.append(walk[-1].apply(move))
        assert walk[-1].is_won()
        walks.append(walk)
        lengths.append(sum(2 * m.count - 1 for m in moves))
    return walks, lengths


@needs_native
def test_shortcuts_cut_a_dive_lines_detours() -> None:
    # A dive's line on Fore Cell deal 377 (the dive that finds it in the portfolio)
    # wanders: one legal move replaces many stretches.
    _, (plain, cut) = _dive_lines(pysol_deal(377, FORE_CELL))
    assert cut < plain


def _as_placed(position: Position) -> tuple[object, ...]:
    """``position`` whatever the order of its columns and of its cells."""
    cells = sorted(int(c) for c in position.cells if c is not None)
    return tuple(sorted(position.columns)), tuple(cells), position.foundations


@needs_native
@pytest.mark.parametrize(
    ("rules", "number"),
    [
        (Rules(cells=2, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE), 26),
        (Rules(cells=4, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE), 23),
        (Rules(cells=4, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS), 1),
    ],
)
def test_shortcuts_see_a_position_again_with_its_columns_in_another_order(
    rules: Rules, number: int
) -> None:
    # A dive's line where any card fills an empty column comes back to positions it
    # was in with its columns (or cells) in another order: a lone card moved from one
    # column to an empty one, runs parked and put back elsewhere. The shortcuts match
    # positions whatever that order, so the finished line never comes back to one (on
    # these three, matching columns in place left one such return each).
    (_, walk), (plain, cut) = _dive_lines(pysol_deal(number, rules))
    placed = [_as_placed(p) for p in walk]
    assert len(set(placed)) == len(placed)  # the cut line's positions, each once
    assert cut < plain


def _bridges_left(walk: list[Position], two: bool) -> list[tuple[int, int, int]]:
    """Where one legal move (or, with ``two``, two) from a position of ``walk`` reaches
    a later one, whatever the order of its columns and cells, for fewer single-card
    moves than the walk takes there: (from, to, their cost), by the engine's moves."""
    later: dict[tuple[object, ...], list[int]] = {}
    for j, p in enumerate(walk):
        later.setdefault(_as_placed(p), []).append(j)
    cost = [0]
    for a, b in itertools.pairwise(walk):
        cost.append(cost[-1] + next(2 * m.count - 1 for m in a.legal_moves() if a.apply(m) == b))

    def shorter(i: int, reached: Position, c: int) -> list[tuple[int, int, int]]:
        later_ones = later.get(_as_placed(reached), [])
        return [(i, j, c) for j in later_ones if j > i and cost[j] - cost[i] > c]

    left = []
    for i, p in enumerate(walk):
        for first in p.legal_moves():
            mid, c = p.apply(first), 2 * first.count - 1
            left += shorter(i, mid, c)
            for second in mid.legal_moves() if two else []:
                left += shorter(i, mid.apply(second), c + 2 * second.count - 1)
    return left


@needs_native
@pytest.mark.parametrize(("number", "two"), [(402, False), (23, True)])
def test_a_finished_line_has_no_shortcut_left(number: int, two: bool) -> None:
    # The shortcuts look for bridges only where a later position is a move or two
    # away (what lies under each card: legal.c's bridge_cards); what they leave out
    # must be what trying every move finds nothing in. Freecell Solver's preset scans
    # win these two deals (four cells, alternating colours, any card to an empty
    # column, Baker's layout) on lines of 849 and 1,524 moves. Finished, no legal
    # move from any position of the line reaches a later one for less; on 23, still
    # 370 single-card moves after that (schedule.long_line), no two moves do either.
    rules = Rules(
        cells=4, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE, layout=Layout.BAKERS
    )
    position = pysol_deal(number, rules)
    assert native is not None
    cfg = core.config(rules)
    status, steps, _ = native.scans(search_state(position), cfg, max_nodes=100_000)
    assert status == core.SOLVED
    as_played = replace(cfg, autoplay=core.AUTO_NONE)  # the scans' lines have no autoplay
    line = native.finish(
        core.state(position), as_played, steps, endgame_home=-1, endgame_nodes=0, shortcuts=True
    )
    walk = [position]
    for move in map(core.MOVES.__getitem__, line):
        walk.append(walk[-1].apply(move))
    assert walk[-1].is_won()
    assert len(steps) > 800 > 3 * len(walk)
    assert _bridges_left(walk, two) == []


@needs_native
@pytest.mark.parametrize(
    ("cells", "layout", "number"),
    [
        (4, Layout.EIGHT_OFF, 2),
        (2, Layout.EIGHT_OFF, 4),
        (4, Layout.EIGHT_OFF, 76),
        (4, Layout.BAKERS, 3099),
    ],
)
def test_a_solved_line_ends_as_short_as_a_star_finds(
    cells: int, layout: Layout, number: int
) -> None:
    # The ending from ENDGAME_HOME cards home is re-solved by A* once, on the line
    # solve() keeps (line.c finish_ending), whichever search found it: without it
    # these lines end 4-6 single-card moves longer than the shortest ending, which
    # A* (optimal mode) finds within ENDGAME_NODES positions. 76 and 3099 are won by
    # a helper, their lines resolved by best-first (line.c resolve_line).
    assert native is not None
    rules = Rules(cells=cells, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE, layout=layout)
    position = pysol_deal(number, rules)
    result = solve(position)
    assert result.verdict is Verdict.SOLVED
    at, k = position, 0
    while at.cards_home() < core.ENDGAME_HOME:
        at, k = at.apply(result.moves[k]), k + 1
    status, _, shortest, _ = native.optimal(
        core.state(at),
        core.config(rules),
        max_nodes=core.ENDGAME_NODES,
    )
    assert status == core.SOLVED
    assert sum(2 * m.count - 1 for m in result.moves[k:]) == shortest


@needs_native
def test_a_long_line_gets_two_move_shortcuts_too() -> None:
    # The exact proof wins this deal (2 cells, alternating colours, any card to an
    # empty column) on a depth-first line: finished with one-move shortcuts matching
    # columns in place it took 1,327 single-card moves, matching them in any order
    # 593, and with two-move shortcuts on lines still that long, 307.
    rules = Rules(cells=2, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE)
    position = deal(65345, rules)
    result = solve(position, limit=Limit(nodes=1_000_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    end = position
    for move in result.moves:
        end = end.apply(move)
    assert end.is_won()
    assert result.length < 400
