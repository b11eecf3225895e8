"""The C core's portfolio (native/portfolio.c): best-first and greedy dives by turns."""

from __future__ import annotations

import pytest

from eightoff.deal import pysol_deal
from eightoff.formats import position_from_fcs
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import STANDARD, Build, Rules
from eightoff.solver import Limit, SolveResult, Verdict, core, solve
from test_native import search_state

native = core.native
needs_native = pytest.mark.skipif(native is None, reason="the C core was not built")

FORE_CELL = Rules(cells=4, build=Build.ALTERNATE)
TWO_CELLS_ALTERNATE = Rules(cells=2, build=Build.ALTERNATE)
# Deals where best-first alone expands 37,000-570,000 positions while a depth-first
# solver finds a line in a few milliseconds (issue 15's table).
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


def wins(position: Position, result: SolveResult) -> bool:
    """The line replays through the engine's checks to a won game, its length counted right."""
    for move in result.moves:
        position = position.apply(move)
    return position.is_won() and result.length == sum(2 * m.count - 1 for m in result.moves)


def solve_with(position: Position, portfolio: bool, limit: Limit = NO_LIMIT) -> SolveResult:
    saved = core.PORTFOLIO
    core.PORTFOLIO = portfolio
    try:
        return solve(position, limit=limit)
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
def test_the_portfolio_expands_fewer_positions_on_a_tail_deal() -> None:
    position = pysol_deal(27)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert wins(position, alone) and wins(position, both)
    assert both.nodes * 3 < alone.nodes


@needs_native
@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_deal_best_first_settles_early_gets_the_same_line(number: int) -> None:
    position = pysol_deal(number)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert alone.nodes < 1000  # within the stretch best-first runs alone
    assert both.moves == alone.moves and both.nodes == alone.nodes


@needs_native
@pytest.mark.parametrize(("rules", "number"), [(STANDARD, 3182), (FORE_CELL, 3058)])
def test_a_short_dive_ends_a_deal_before_the_solo_stretch(rules: Rules, number: int) -> None:
    # Best-first alone needs 5,700 and 18,000 positions; the short dives that take
    # turns with it from its 1,000th expansion find a line within 2,200 in all.
    position = pysol_deal(number, rules)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert wins(position, alone) and wins(position, both)
    assert both.nodes < 2_200 < alone.nodes


@needs_native
@pytest.mark.parametrize("number", [3003, 3026, 3120])
def test_best_first_about_to_end_keeps_its_shorter_line(number: int) -> None:
    # Fore Cell deals best-first alone ends in 1,350-1,450 positions: the first short
    # dive (h weighing a card in a cell 1.0) finds a line in 64-109 expansions once
    # the helpers start, at best-first's 1,000th; best-first goes on (up to twice
    # its expansions) and its line, shorter than the dive's even after the finish,
    # is the one returned.
    assert native is not None
    position = pysol_deal(number, FORE_CELL)
    cfg = core.config(FORE_CELL)
    heavy_cells = (*cfg[:9], 1.0, cfg[10])
    status, steps, dive_nodes = native.dive(*search_state(position), heavy_cells, 300, -1.0)
    assert status == core.SOLVED and dive_nodes <= 110
    dive_line = native.finish(*core.state(position), cfg, steps, 20, 300, -1.0, True)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert 1_000 < alone.nodes < both.nodes  # the helpers ran: their expansions count
    assert both.moves == alone.moves
    assert sum(2 * m.count - 1 for m in map(core.MOVES.__getitem__, dive_line)) > both.length


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
def test_a_lost_deal_whose_open_list_stays_small_pays_no_helper(rules: Rules, number: int) -> None:
    # Lost deals that best-first needs 6,000-14,000 positions to exhaust, its open
    # list below one position per two expanded all along: no helper ever starts.
    position = pysol_deal(number, rules)
    alone = solve_with(position, portfolio=False)
    both = solve_with(position, portfolio=True)
    assert alone.verdict is both.verdict is Verdict.UNSOLVABLE
    assert both.nodes == alone.nodes


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
    streamlined = list(core.config(position.rules))
    streamlined[5] = core.AUTO_ALL  # every card that can go home goes
    status, _, _ = native.dive(*search_state(position), tuple(streamlined), -1, -1.0)
    assert status == core.EXHAUSTED
    result = solve(position, limit=NO_LIMIT)
    assert result.verdict is Verdict.SOLVED and wins(position, result)


@needs_native
@pytest.mark.parametrize(("seed", "noise"), [(0, 0.0), (7, 0.5), (9, 3.0)])
def test_a_dive_alone_finds_a_line_finish_accepts(seed: int, noise: float) -> None:
    assert native is not None
    position = pysol_deal(27)
    cfg = core.config(position.rules)
    status, steps, nodes = native.dive(*search_state(position), cfg, 200_000, -1.0, seed, noise)
    assert status == core.SOLVED and 0 < nodes <= 200_000
    # finish replays the steps under the same rules first (else ValueError).
    line = native.finish(*core.state(position), cfg, steps, 20, 300, -1.0)
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
        native.dive(cols, cells, founds, cfg, 100, -1.0, 1, -0.5)
    with pytest.raises(ValueError, match="each of the 52 cards"):
        native.dive((cols[0] + cols[0][:1], *cols[1:]), cells, founds, cfg, 100, -1.0)


@needs_native
@pytest.mark.parametrize(
    ("order", "seed"), [("01ABCDE", 0), ("[01][ABD][CE]", 2), ("[01ABCDE]", 5)]
)
def test_a_dive_by_kind_of_move_finds_a_line_finish_accepts(order: str, seed: int) -> None:
    # Freecell Solver's test order: home first, then onto columns, cells last.
    assert native is not None
    position = pysol_deal(27)
    cfg = core.config(position.rules)
    status, steps, _ = native.dive(*search_state(position), cfg, 200_000, -1.0, seed, 0.999, order)
    assert status == core.SOLVED
    line = native.finish(*core.state(position), cfg, steps, 20, 300, -1.0)
    for move in map(core.MOVES.__getitem__, line):
        position = position.apply(move)
    assert position.is_won()


@needs_native
def test_the_kind_order_decides_the_dive() -> None:
    assert native is not None
    state = search_state(pysol_deal(882, FORE_CELL))
    cfg = core.config(FORE_CELL)
    by_kind = {
        order: native.dive(*state, cfg, 50_000, -1.0, 0, 0.0, order)
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
        native.dive(cols, cells, founds, core.config(STANDARD), 100, -1.0, 0, 0.0, order)


@needs_native
def test_shortcuts_cut_a_dive_lines_detours() -> None:
    # A dive's line on Fore Cell deal 377 (h weighing a card in a cell 1.0, the dive
    # that finds it in the portfolio) wanders: one legal move replaces many stretches.
    assert native is not None
    position = pysol_deal(377, FORE_CELL)
    cfg = core.config(FORE_CELL)
    heavy_cells = (*cfg[:9], 1.0, cfg[10])
    status, steps, _ = native.dive(*search_state(position), heavy_cells, 200_000, -1.0)
    assert status == core.SOLVED
    plain = native.finish(*core.state(position), cfg, steps, 20, 300, -1.0)
    cut = native.finish(*core.state(position), cfg, steps, 20, 300, -1.0, True)
    lines = []
    for line in (plain, cut):
        moves = tuple(map(core.MOVES.__getitem__, line))
        end = position
        for move in moves:
            end = end.apply(move)
        assert end.is_won()
        lines.append(sum(2 * m.count - 1 for m in moves))
    assert lines[1] < lines[0]
