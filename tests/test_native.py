"""The C core held to the engine and to the reference solver.

The C core is the one fast solver; nothing in Python mirrors it. It is held to
* the engine's rules: the kernel's ``legal_moves`` (built from ``_kernel/rules.h``, as the
  search's move generator and the line finisher are) lists ``Position.legal_moves``;
* the reference solver (a plain search on ``Position.legal_moves``): the same
  verdicts, and every line it gives replays to a win through the engine
  (``tests/test_solver_oracle.py`` does the same on positions built to be lost);
* its own contract: limits, memory budget, and a clear ValueError for bad input.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import sysconfig
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from eightoff import _kernel as kernel
from eightoff.deal import pysol_deal
from eightoff.position import Position
from eightoff.rules import (
    OPTIONS,
    PRESETS,
    STANDARD,
    Build,
    EmptyColumn,
    GroupMoves,
    Layout,
    Rules,
)
from eightoff.solver import Limit, Verdict, core, reference, solve
from support import hard_endgame, needs_native, wins
from support.native import as_tuple, c_legal_moves, random_positions, search_state

native = core.native
LIMIT = 2  # the C searches' status for "a limit was hit"

Steps = list[tuple[tuple[int, int, int, int, int], tuple[int, ...]]]


def best_first_steps(position: Position) -> Steps:
    """The C best-first search's steps to a win from ``position``."""
    assert native is not None
    status, steps, _ = native.best_first(
        search_state(position),
        core.config(position.rules),
    )
    assert status == core.SOLVED
    return steps


def test_config_reads_every_rule_option() -> None:
    """A rule option added to Rules without its C side fails here, not silently."""
    assert {option.name for option in OPTIONS} == core.READ | core.DEAL_ONLY
    assert not core.READ & core.DEAL_ONLY
    assert core.config(Rules(layout=Layout.BAKERS)) == core.config(STANDARD)  # deal only
    base = Rules(build=Build.ALTERNATE)  # building in suit, take-back is left out
    for name in core.READ:  # each option it reads changes the config
        option = next(o for o in OPTIONS if o.name == name)
        configs = {core.config(base.with_options(**{name: v})) for v in option.values}
        assert len(configs) > 1, name


def test_config_refuses_a_rule_option_the_c_core_does_not_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(core, "READ", core.READ - {"take_back"})  # as if newly declared
    core.config(STANDARD)  # the option at its default: the old rules hold
    with pytest.raises(NotImplementedError, match="'take_back' \\(take-back allowed\\)"):
        core.config(PRESETS["app"])


def _can_compile() -> bool:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.exists()


@pytest.mark.skipif(bool(os.environ.get("EIGHTOFF_PURE")), reason="EIGHTOFF_PURE=1 build")
@pytest.mark.skipif(not _can_compile(), reason="no C compiler or Python headers here")
def test_the_c_core_is_built() -> None:
    # make setup compiles it (make build-deps installs gcc and the headers); without
    # it the reference solver runs, far slower (see the README).
    assert native is not None


def midgame(position: Position, home: int) -> Position:
    """The position on the C core's winning line once ``home`` cards are home."""
    for move in core.solve_fast(position, Limit(nodes=200_000, seconds=30)).moves:
        if position.cards_home() >= home:
            break
        position = position.apply(move)
    return position


@needs_native
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_whole_deals_settle_as_the_reference_settles_them(preset: str) -> None:
    # benchmarks/solver_reference.py does the same on deals 1-300. Baker's Game with
    # its 4 cells loses deals 14 and 22 (the C core and the reference prove it apart).
    rules = PRESETS[preset]
    numbers = [1, 2, 3, 14, 22] if preset == "bakers" else [1, 2, 3]
    verdicts: set[Verdict] = set()
    for number in numbers:
        position = pysol_deal(number, rules)
        fast = core.solve_fast(position, Limit(nodes=None, seconds=60))
        plain = reference.solve_any(position, Limit(nodes=50_000, seconds=60))
        assert fast.verdict is plain.verdict, number
        if fast.solved:
            assert wins(position, fast.moves) and wins(position, plain.moves)
        verdicts.add(fast.verdict)
    assert Verdict.SOLVED in verdicts
    assert (Verdict.UNSOLVABLE in verdicts) is (preset == "bakers")


@needs_native
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_c_lines_replay_and_verdicts_equal_the_reference(preset: str) -> None:
    # Deals played part-way, then a move that loses, where one of the first few does.
    rules = PRESETS[preset]
    seen: set[Verdict] = set()
    for number in range(1, 4):
        won = midgame(pysol_deal(number, rules), 24)
        for position in (won, *(won.apply(m) for m in won.legal_moves()[:4])):
            fast = core.solve_fast(position, Limit(nodes=200_000, seconds=30))
            plain = reference.solve_any(position, Limit(nodes=20_000, seconds=60))
            assert fast.verdict is plain.verdict, (number, position)
            if fast.solved:
                assert wins(position, fast.moves) and wins(position, plain.moves)
                assert fast.length == sum(2 * m.count - 1 for m in fast.moves)
            seen.add(fast.verdict)
    assert Verdict.SOLVED in seen


@pytest.mark.parametrize("lost", [False, True])
def test_solve_without_the_c_core(lost: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # What an EIGHTOFF_PURE=1 install runs: the reference solver, the same verdicts.
    position = pysol_deal(3)
    if lost:  # a small lost endgame (the reference proves a lost deal slowly)
        rng = random.Random(5)
        position = next(
            p
            for p in (hard_endgame(rng, Rules(cells=2), 32) for _ in range(50))
            if solve(p, limit=Limit(nodes=None, seconds=None)).verdict is Verdict.UNSOLVABLE
        )
    limit = Limit(nodes=100_000, seconds=60)
    with_c = solve(position, limit=limit)
    monkeypatch.setattr(core, "native", None)
    pure = solve(position, limit=limit)
    assert pure.verdict is with_c.verdict
    assert pure.verdict is (Verdict.UNSOLVABLE if lost else Verdict.SOLVED)
    if not lost:
        assert wins(position, pure.moves)


@needs_native
def test_best_first_reports_the_node_limit() -> None:
    assert native is not None
    position = pysol_deal(465)  # unsolvable: the search never ends early
    found = native.best_first(search_state(position), core.config(position.rules), max_nodes=500)
    assert found == (LIMIT, [], 500)


@needs_native
def test_best_first_reports_the_time_limit() -> None:
    assert native is not None
    position = pysol_deal(465)
    status, _, nodes = native.best_first(
        search_state(position),
        core.config(position.rules),
        seconds=0.0,
    )
    assert status == LIMIT
    assert 0 < nodes < 1000  # the clock is read every 256 nodes


@needs_native
def test_exhaust_proves_what_best_first_ran_out_of() -> None:
    assert native is not None
    position = pysol_deal(644)
    state, cfg = search_state(position), core.config(position.rules)
    assert native.best_first(state, cfg)[0] == core.EXHAUSTED
    assert native.exhaust(state, cfg)[0] == core.EXHAUSTED
    won = pysol_deal(7)
    status, steps, _ = native.exhaust(search_state(won), cfg)
    assert status == core.SOLVED and steps


@needs_native
def test_optimal_below_the_optimum_finds_nothing() -> None:
    assert native is not None
    position = pysol_deal(7)
    best = core.solve_optimal(position, Limit(nodes=100_000, seconds=60))
    assert best.verdict is Verdict.SOLVED and best.optimal
    assert wins(position, best.moves)
    single = core.config(position.rules, single_cards=True)
    state = search_state(position)
    none = native.astar(state, single, max_nodes=100_000, below=best.length)
    assert none[0] == core.EXHAUSTED  # "no solution shorter than the optimum"
    again = native.astar(state, single, max_nodes=100_000, below=best.length + 1)
    assert again[0] == core.SOLVED


def round_trips(count: int) -> tuple[Position, Steps, tuple[Any, ...], Steps]:
    """PySolFC deal 17, best-first's steps to a win, native.finish's arguments, and the
    steps with ``count`` round trips of 9D (on TD at the top of column 2) to a cell
    and back, after the deal's own autoplay."""
    position = pysol_deal(17)
    steps = best_first_steps(position)
    nine = position.columns[1][-1]
    k = 1 if steps[0][0][0] < 0 else 0
    trips = [((0, 1, 1, -1, 1), ()), ((1, nine, 0, 1, 1), ())] * count
    args = (core.state(position), core.config(position.rules))
    return position, steps, args, [*steps[:k], *trips, *steps[k:]]


@needs_native
def test_finish_drops_a_round_trip_and_refuses_steps_that_do_not_win() -> None:
    assert native is not None
    position, steps, args, padded = round_trips(1)
    line = native.finish(*args, steps, endgame_home=20, endgame_nodes=300)
    assert native.finish(*args, padded, endgame_home=20, endgame_nodes=300) == line
    assert wins(position, [core.MOVES[m] for m in line])
    with pytest.raises(ValueError, match="do not replay to a win"):
        native.finish(*args, steps[:-1], endgame_home=15, endgame_nodes=300)
    with pytest.raises(ValueError, match="do not replay to a win"):
        native.finish(*args, [steps[1], steps[0], *steps[2:]], endgame_home=15, endgame_nodes=300)


@needs_native
def test_finish_shortens_a_long_line_and_stops_at_the_deadline() -> None:
    # 1,000 round trips of one card (2,000 moves): the merges take them all out, as
    # they take out one. Past the deadline (0 s) nothing is shortened: the line is the
    # steps' own moves (no ending sought, nothing merged), and still wins.
    assert native is not None
    position, steps, args, long = round_trips(1_000)
    assert native.finish(*args, long, endgame_home=-1, endgame_nodes=300) == native.finish(
        *args, steps, endgame_home=-1, endgame_nodes=300
    )
    late = native.finish(*args, long, endgame_home=20, endgame_nodes=300, seconds=0.0)
    assert (
        len(late)
        == len(native.finish(*args, steps, endgame_home=20, endgame_nodes=300, seconds=0.0)) + 2_000
    )
    assert wins(position, [core.MOVES[m] for m in late])


@needs_native
def test_bad_states_are_refused_with_a_reason() -> None:
    assert native is not None
    cols, cells, founds = search_state(pysol_deal(1))
    cfg = core.config(STANDARD)
    with pytest.raises(ValueError, match="52 cards once"):
        native.best_first(((cols[0] + cols[0][:1], *cols[1:]), cells, founds), cfg)
    with pytest.raises(ValueError, match="tuple of 8"):
        native.best_first((cols[:7], cells, founds), cfg)
    with pytest.raises(ValueError, match="config"):
        native.best_first((cols, cells, founds), replace(cfg, cells=9))
    with pytest.raises(ValueError, match="foundations"):
        native.astar((cols, cells, (14, 0, 0, 0)), cfg)
    held = search_state(pysol_deal(3))  # 4 cards in cells, more than 2 cells hold
    with pytest.raises(ValueError, match="more cards than"):
        native.best_first(held, replace(cfg, cells=2))
    slots = core.state(pysol_deal(1))[1]
    with pytest.raises(ValueError, match="one slot per cell"):
        native.optimal((cols, slots[:4], founds), cfg)
    with pytest.raises(ValueError, match="rules"):
        kernel.native.legal_moves(cols, slots, founds, (8, 1, 1, 3, False))


@needs_native
def test_a_search_stops_at_its_memory_budget() -> None:
    assert native is not None
    position = pysol_deal(465)  # unsolvable: only a complete search ends it
    cols, cells, founds = search_state(position)
    cfg = core.config(position.rules)
    for search_fn in (native.best_first, native.exhaust):
        status, steps, nodes = search_fn((cols, cells, founds), cfg, max_bytes=64_000)
        assert (status, steps) == (LIMIT, [])  # "unknown", as at a node limit
        assert 0 < nodes < 2_000
    single = core.config(position.rules, single_cards=True)
    assert native.astar((cols, cells, founds), single, below=-1, max_bytes=64_000)[0] == LIMIT
    engine_state = core.state(position)
    status, line, _, _ = native.solve(
        engine_state, cfg, endgame_home=20, endgame_nodes=300, max_bytes=64_000
    )
    assert (status, line) == (LIMIT, [])
    assert native.optimal(engine_state, cfg, max_bytes=64_000)[:2] == (LIMIT, [])
    with pytest.raises(ValueError, match="max_bytes"):
        native.best_first((cols, cells, founds), cfg, max_bytes=100)


@needs_native
def test_malformed_arguments_raise_value_errors() -> None:
    assert native is not None
    position = pysol_deal(2)
    cols, cells, founds = search_state(position)
    cfg = core.config(position.rules)
    steps = best_first_steps(position)
    slots = core.state(position)[1]
    bad_calls: dict[str, Callable[[], object]] = {
        "4 ranks": lambda: native.best_first((cols, cells, founds[:3]), cfg),
        "config.weight": lambda: native.best_first(
            (cols, cells, founds),
            replace(cfg, weight="heavy"),
        ),
        "take-back": lambda: native.best_first(
            (cols, cells, founds),
            replace(cfg, take_back=True),
            max_nodes=1,
        ),
        "finite": lambda: native.best_first(
            (cols, cells, founds),
            replace(cfg, weight=math.inf),
            max_nodes=1,
            seconds=1,
        ),
        "seconds": lambda: native.best_first((cols, cells, founds), cfg, seconds=math.nan),
        "single-card": lambda: native.astar((cols, cells, founds), cfg),
        "each step": lambda: native.finish(
            (cols, slots, founds), cfg, [1, 2], endgame_home=20, endgame_nodes=300
        ),
        "indices": lambda: native.finish(
            (cols, slots, founds),
            cfg,
            [((0, 261, 1, -1, 1), ()), *steps[1:]],
            endgame_home=20,
            endgame_nodes=300,
        ),
    }
    for reason, call in bad_calls.items():
        with pytest.raises(ValueError, match=reason):
            call()
    with pytest.raises(TypeError, match="config: no field cells"):  # not a core.Config
        native.best_first((cols, cells, founds), tuple(vars(cfg).values()))


@needs_native
def test_steps_changed_while_read_do_not_crash() -> None:
    # Reading a step can run Python code (an __index__) that empties the list.
    assert native is not None
    position = pysol_deal(2)
    moves = list(best_first_steps(position))

    class Sneaky:
        def __index__(self) -> int:
            moves.clear()
            return 0

    (_, si, dk, di, n), autos = moves[1]
    moves[1] = ((Sneaky(), si, dk, di, n), autos)  # type: ignore[assignment]
    line = native.finish(
        core.state(position), core.config(position.rules), moves, endgame_home=20, endgame_nodes=300
    )
    assert wins(position, [core.MOVES[m] for m in line])  # it read the steps as they were


# -- the C rules (rules.h) against the engine's legal moves --------------------------------

# Every preset, and every value of every option somewhere.
LEGAL_RULES = {
    **{name: rules for name, rules in PRESETS.items()},
    "2 cells, one card per move": STANDARD.with_options(cells=2, group_moves=GroupMoves.SINGLE),
    "alternating, any card, take-back": PRESETS["alternate"].with_options(
        empty_column=EmptyColumn.ANY, take_back=True, group_moves=GroupMoves.FREECELL
    ),
}


@needs_native
@pytest.mark.parametrize("name", sorted(LEGAL_RULES))
def test_c_legal_moves_are_the_engines(name: str) -> None:
    # benchmarks/native_legal_moves.py runs the same check over 10^5 positions a preset.
    rng = random.Random(name)
    for position, moves in random_positions(LEGAL_RULES[name], rng, 1_000):
        assert c_legal_moves(position) == [as_tuple(m) for m in moves], position
