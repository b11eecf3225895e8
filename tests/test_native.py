"""The C search core against the Python one it mirrors (search.py, optimal.py)."""

from __future__ import annotations

import math
import os
import random
import shutil
import sysconfig
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from eightoff.deal import pysol_deal
from eightoff.moves import Move, PlaceKind
from eightoff.position import Position
from eightoff.rules import PRESETS, STANDARD, Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import (
    ENDGAME_HOME,
    ENDGAME_NODES,
    Limit,
    Verdict,
    _better_ending,
    search,
    solve,
)
from eightoff.solver.convert import cell_slots, config_for, engine_moves, move_of, state_of
from eightoff.solver.optimal import solve_optimal
from eightoff.solver.shorten import shorten

native = search.native
needs_native = pytest.mark.skipif(native is None, reason="the C core was not built")


def _won_after(position: Position, moves: list[Move] | tuple[Move, ...]) -> bool:
    for move in moves:
        position = position.apply(move)  # the engine's checks, move by move
    return position.is_won()


def _deal(number: int, rules: Rules = STANDARD) -> Position:
    return pysol_deal(number, rules)


def _can_compile() -> bool:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.exists()


@pytest.mark.skipif(bool(os.environ.get("EIGHTOFF_PURE")), reason="EIGHTOFF_PURE=1 build")
@pytest.mark.skipif(not _can_compile(), reason="no C compiler or Python headers here")
def test_the_c_core_is_built() -> None:
    # make setup compiles it (make build-deps installs gcc and the headers); without
    # it the solver runs its Python searches, ~15x slower than benchmarks/ reports.
    assert native is not None


@needs_native
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_best_first_agrees_with_python(preset: str) -> None:
    rules = PRESETS[preset]
    for number in range(1, 9):
        position = _deal(number, rules)
        searcher = search.Searcher(config_for(rules))
        cols, cells, founds = state_of(position)
        fast, steps, _ = searcher.best_first_fast(
            cols, cells, founds, max_nodes=200_000, deadline=None
        )
        slow, _, _ = searcher.best_first_fast(
            cols, cells, founds, max_nodes=200_000, deadline=None, use_native=False
        )
        assert fast == slow, (preset, number)
        if fast == search.SOLVED:
            assert _won_after(position, engine_moves(position, steps)), (preset, number)


@needs_native
def test_best_first_reports_the_node_limit() -> None:
    position = pysol_deal(465)  # unsolvable: the search never ends early
    cfg = config_for(position.rules)
    status, steps, nodes = search.Searcher(cfg).best_first_fast(
        *state_of(position), max_nodes=500, deadline=None
    )
    assert (status, steps, nodes) == (search.LIMIT, [], 500)


@needs_native
def test_best_first_reports_the_time_limit() -> None:
    position = pysol_deal(465)
    cfg = config_for(position.rules)
    start = time.perf_counter()
    status, _, nodes = search.Searcher(cfg).best_first_fast(
        *state_of(position), max_nodes=None, deadline=start
    )
    assert status == search.LIMIT
    assert 0 < nodes < 1000  # the clock is read every 256 nodes


@needs_native
@pytest.mark.parametrize("number", [465, 644])
def test_exhaust_proves_the_same_space_as_python(number: int) -> None:
    position = pysol_deal(number)
    searcher = search.Searcher(config_for(position.rules))
    cols, cells, founds = state_of(position)
    fast = searcher.exhaust(cols, cells, founds, max_nodes=None, deadline=None)
    slow = searcher.exhaust(cols, cells, founds, max_nodes=None, deadline=None, keep_explored=True)
    assert fast[0] == slow[0] == search.EXHAUSTED
    assert fast[2] == slow[2] == len(list(searcher.explored))  # exact keys: one node each


@needs_native
def test_exhaust_finds_a_win_when_there_is_one() -> None:
    position = pysol_deal(7)
    cols, cells, founds = state_of(position)
    status, steps, _ = search.Searcher(config_for(position.rules)).exhaust(
        cols, cells, founds, max_nodes=None, deadline=None
    )
    assert status == search.SOLVED
    assert _won_after(position, engine_moves(position, steps))


@needs_native
@pytest.mark.parametrize(("preset", "number"), [("standard", 7), ("standard", 13), ("easy", 2)])
def test_astar_finds_the_same_optimum_as_python(preset: str, number: int) -> None:
    position = _deal(number, PRESETS[preset])
    limit = Limit(nodes=100_000, seconds=60)
    fast = solve_optimal(position, limit=limit, start=time.perf_counter())
    slow = solve_optimal(position, limit=limit, start=time.perf_counter(), use_native=False)
    assert fast.verdict is slow.verdict is Verdict.SOLVED
    assert fast.optimal and fast.length == slow.length
    assert fast.nodes == slow.nodes  # same A*, same tie-breaks, node for node
    assert _won_after(position, fast.moves)


@needs_native
def test_astar_below_the_optimum_finds_nothing() -> None:
    position = pysol_deal(7)
    limit = Limit(nodes=100_000, seconds=60)
    best = solve_optimal(position, limit=limit, start=time.perf_counter())
    none = solve_optimal(position, limit=limit, start=time.perf_counter(), below=best.length)
    assert none.verdict is Verdict.UNSOLVABLE  # "no solution shorter than the optimum"
    again = solve_optimal(position, limit=limit, start=time.perf_counter(), below=best.length + 1)
    assert again.verdict is Verdict.SOLVED and again.length == best.length


@needs_native
def test_bad_states_are_refused_with_a_reason() -> None:
    assert native is not None
    cols, cells, founds = state_of(pysol_deal(1))
    cfg = config_for(STANDARD).as_tuple()
    with pytest.raises(ValueError, match="52 cards once"):
        native.best_first((cols[0] + cols[0][:1], *cols[1:]), cells, founds, cfg, -1, -1.0)
    with pytest.raises(ValueError, match="tuple of 8"):
        native.best_first(cols[:7], cells, founds, cfg, -1, -1.0)
    with pytest.raises(ValueError, match="config"):
        native.best_first(cols, cells, founds, (9, *cfg[1:]), -1, -1.0)
    with pytest.raises(ValueError, match="foundations"):
        native.astar(cols, cells, (14, 0, 0, 0), cfg, -1, -1.0)
    held = state_of(pysol_deal(3))  # 4 cards in cells, more than 2 cells hold
    with pytest.raises(ValueError, match="more cards than"):
        native.best_first(*held, (2, *cfg[1:]), -1, -1.0)


@needs_native
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_finish_gives_the_python_line(preset: str) -> None:
    # The same steps through both finishes: engine moves, the optimal ending, the merges.
    assert native is not None
    rules = PRESETS[preset]
    for number in range(1, 13):
        position = _deal(number, rules)
        searcher = search.Searcher(config_for(rules))
        cols, cells, founds = state_of(position)
        status, steps, _ = searcher.best_first_fast(
            cols, cells, founds, max_nodes=200_000, deadline=None
        )
        if status != search.SOLVED:
            continue
        python = shorten(position, _better_ending(position, engine_moves(position, steps), None))
        line = native.finish(
            cols,
            cell_slots(position),
            founds,
            searcher.cfg.as_tuple(),
            steps,
            ENDGAME_HOME,
            ENDGAME_NODES,
            -1.0,
        )
        assert [move_of(m) for m in line] == python, (preset, number)
        assert _won_after(position, python)


@needs_native
def test_finish_refuses_steps_that_do_not_win() -> None:
    assert native is not None
    position = pysol_deal(3)
    searcher = search.Searcher(config_for(position.rules))
    cols, cells, founds = state_of(position)
    _, steps, _ = searcher.best_first_fast(cols, cells, founds, max_nodes=None, deadline=None)
    args = (cols, cell_slots(position), founds, searcher.cfg.as_tuple())
    with pytest.raises(ValueError, match="do not replay to a win"):
        native.finish(*args, steps[:-1], 15, 300, -1.0)
    with pytest.raises(ValueError, match="do not replay to a win"):
        native.finish(*args, [steps[1], steps[0], *steps[2:]], 15, 300, -1.0)
    with pytest.raises(ValueError, match="one slot per cell"):
        native.finish(cols, (-1,) * 4, founds, searcher.cfg.as_tuple(), steps, 15, 300, -1.0)
    with pytest.raises(ValueError, match="52 cards once"):
        native.finish(cols, (-1,) * 8, founds, searcher.cfg.as_tuple(), steps, 15, 300, -1.0)


@pytest.mark.parametrize("number", [1, 3, 465])
def test_solve_without_the_c_core(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # What an EIGHTOFF_PURE=1 install runs: the same verdicts, lines that win.
    position = pysol_deal(number)
    limit = Limit(nodes=300_000, seconds=60)
    with_c = solve(position, limit=limit)
    monkeypatch.setattr(search, "native", None)
    pure = solve(position, limit=limit)
    assert pure.verdict is with_c.verdict
    if pure.verdict is Verdict.SOLVED:
        assert _won_after(position, pure.moves)
    else:
        assert number == 465 and pure.verdict is Verdict.UNSOLVABLE


@needs_native
def test_a_search_stops_at_its_memory_budget() -> None:
    assert native is not None
    position = pysol_deal(465)  # unsolvable: only a complete search ends it
    cols, cells, founds = state_of(position)
    cfg = config_for(position.rules).as_tuple()
    for search_fn in (native.best_first, native.exhaust):
        status, steps, nodes = search_fn(cols, cells, founds, cfg, -1, -1.0, 64_000)
        assert (status, steps) == (search.LIMIT, [])  # "unknown", as at a node limit
        assert 0 < nodes < 2_000
    single = config_for(position.rules, single_cards=True).as_tuple()
    assert native.astar(cols, cells, founds, single, -1, -1.0, -1, 64_000)[0] == search.LIMIT
    slots = cell_slots(position)
    status, line, _, _ = native.solve(cols, slots, founds, cfg, -1, -1.0, 20, 300, 64_000)
    assert (status, line) == (search.LIMIT, [])
    with pytest.raises(ValueError, match="max_bytes"):
        native.best_first(cols, cells, founds, cfg, -1, -1.0, 100)


@needs_native
def test_malformed_arguments_raise_value_errors() -> None:
    assert native is not None
    position = pysol_deal(2)
    cols, cells, founds = state_of(position)
    searcher = search.Searcher(config_for(position.rules))
    cfg = searcher.cfg.as_tuple()
    _, steps, _ = searcher.best_first_fast(cols, cells, founds, max_nodes=None, deadline=None)
    slots = cell_slots(position)
    bad_calls: dict[str, Callable[[], object]] = {
        "4 ranks": lambda: native.best_first(cols, cells, founds[:3], cfg, -1, -1.0),
        "11 values": lambda: native.best_first(cols, cells, founds, cfg[:10], -1, -1.0),
        "take-back": lambda: native.best_first(
            cols, cells, founds, (*cfg[:4], 1, *cfg[5:]), 1, -1.0
        ),
        "finite": lambda: native.best_first(
            cols, cells, founds, (*cfg[:7], math.inf, *cfg[8:]), 1, 1
        ),
        "seconds": lambda: native.best_first(cols, cells, founds, cfg, -1, math.nan),
        "single-card": lambda: native.astar(cols, cells, founds, cfg, -1, -1.0),
        "each step": lambda: native.finish(cols, slots, founds, cfg, [1, 2], 20, 300, -1.0),
        "indices": lambda: native.finish(
            cols, slots, founds, cfg, [((0, 261, 1, -1, 1), ()), *steps[1:]], 20, 300, -1.0
        ),
    }
    for reason, call in bad_calls.items():
        with pytest.raises(ValueError, match=reason):
            call()


@needs_native
def test_steps_changed_while_read_do_not_crash() -> None:
    # Reading a step can run Python code (an __index__) that empties the list.
    assert native is not None
    position = pysol_deal(2)
    cols, cells, founds = state_of(position)
    searcher = search.Searcher(config_for(position.rules))
    _, steps, _ = searcher.best_first_fast(cols, cells, founds, max_nodes=None, deadline=None)
    moves = list(steps)

    class Sneaky:
        def __index__(self) -> int:
            moves.clear()
            return 0

    (_, si, dk, di, n), autos = moves[1]
    moves[1] = ((Sneaky(), si, dk, di, n), autos)  # type: ignore[assignment]
    line = native.finish(
        cols, cell_slots(position), founds, searcher.cfg.as_tuple(), moves, 20, 300, -1.0
    )
    assert _won_after(position, [move_of(m) for m in line])  # it read the steps as they were


# -- the C rules (rules.h) against the engine's legal moves --------------------------------

_KIND = {PlaceKind.COLUMN: 0, PlaceKind.CELL: 1, PlaceKind.FOUNDATION: 2}
_GROUP = {GroupMoves.SINGLE: 0, GroupMoves.CELLS: 1, GroupMoves.FREECELL: 2}


def c_legal_moves(position: Position) -> list[tuple[int, int, int, int, int]]:
    """``_native.legal_moves`` for ``position``: engine moves as plain tuples."""
    assert native is not None
    rules = position.rules
    return list(
        native.legal_moves(
            tuple(bytes(col) for col in position.columns),
            tuple(-1 if c is None else int(c) for c in position.cells),
            position.foundations,
            (
                rules.cells,
                int(rules.build is Build.SUIT),
                int(rules.empty_column is EmptyColumn.KINGS),
                _GROUP[rules.group_moves],
                rules.take_back,
            ),
        )
    )


def as_tuple(move: Move) -> tuple[int, int, int, int, int]:
    """An engine move in ``_native.legal_moves``' form."""
    source, target = move.source, move.target
    to_found = target.kind is PlaceKind.FOUNDATION
    return (
        _KIND[source.kind],
        source.index if source.index is not None else -1,
        _KIND[target.kind],
        -1 if to_found or target.index is None else target.index,
        move.count,
    )


def random_positions(rules: Rules, rng: random.Random, count: int) -> Iterator[Position]:
    """Positions reached by random legal moves from random deals (runs, empty columns,
    full cells, take-backs all turn up), with a new deal every 60 moves."""
    position = pysol_deal(rng.randrange(1, 32_000), rules)
    made = steps = 0
    while made < count:
        steps += 1
        moves = position.legal_moves()
        if steps % 60 == 0 or not moves:
            position = pysol_deal(rng.randrange(1, 32_000), rules)
            continue
        # Favour moves into columns, so runs grow and columns empty.
        into = [m for m in moves if m.target.kind is PlaceKind.COLUMN]
        position = position.apply_unchecked(
            rng.choice(into if into and rng.random() < 0.7 else moves)
        )
        made += 1
        yield position


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
    for position in random_positions(LEGAL_RULES[name], rng, 1_000):
        assert c_legal_moves(position) == [as_tuple(m) for m in position.legal_moves()], position
