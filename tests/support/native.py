"""Helpers the C core's tests share: its search state, its scans and searches called
alone, fc-solve's counts on the same positions, the kernel's legal moves, and
positions reached by random play."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from dataclasses import replace

import benchmark_scripts
from eightoff import _kernel as kernel
from eightoff.deal import pysol_deal
from eightoff.moves import Move, PlaceKind
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, Rules
from eightoff.solver import Schedule, core
from eightoff.solver.searches import search_state as search_state
from support import wins

native = core.native
FC_SOLVE = shutil.which("fc-solve")
fcs_meta = benchmark_scripts.load("fcs_meta")


def scans_win_at(position: Position) -> int:
    """How many positions Freecell Solver's preset scans alone take to win the deal."""
    assert native is not None
    scans = native.scans(search_state(position), core.config(position.rules), max_nodes=300_000)
    assert scans[0] == core.SOLVED
    return int(scans[2])


def assert_replays_to_a_win(position: Position, rules: Rules, steps: object) -> None:
    """An atomic dive's line, with no foundation move of its own, replays and wins."""
    assert native is not None
    no_autoplay = replace(core.config(rules), autoplay=core.AUTO_NONE)
    line = native.finish(
        core.state(position), no_autoplay, steps, endgame_home=20, endgame_nodes=300, shortcuts=True
    )
    for move in map(core.MOVES.__getitem__, line):
        position = position.apply(move)
    assert position.is_won()


def fc_solve_checked(position: Position, args: list[str]) -> tuple[int, bool]:
    """fc-solve's count of states checked on ``position`` with ``args`` (over its eight_off
    game), and whether it won."""
    assert FC_SOLVE is not None
    checked, won = fcs_meta.fcs_checked(position, ["-g", "eight_off", *args])
    return int(checked), bool(won)


def exact(position: Position, max_bytes: int = 1 << 30) -> int:
    """The exact search's status alone."""
    assert native is not None
    cols, cells, founds = core.state(position)
    held = bytes(sorted(c for c in cells if c >= 0))
    return int(
        native.exhaust((cols, held, founds), core.config(position.rules), max_bytes=max_bytes)[0]
    )


def c_solve(
    position: Position,
    *,
    nodes: int = -1,
    schedule: tuple[object, ...] | None = None,
    tail: bool = True,
    resolve: bool = True,
    max_bytes: int = 1 << 30,
) -> tuple[int, list[core.Compact], int, int]:
    """The C core's ``solve`` on ``position`` under its rules' config, its ending
    re-solved as core.solve_fast's (``schedule``: Schedule.values)."""
    assert native is not None
    return native.solve(
        core.state(position),
        core.config(position.rules),
        max_nodes=nodes,
        endgame_home=core.ENDGAME_HOME,
        endgame_nodes=core.ENDGAME_NODES,
        tail=tail,
        resolve=resolve,
        max_bytes=max_bytes,
        schedule=schedule,
    )


def solve_first(
    position: Position, first: int, max_bytes: int = 1 << 30, nodes: int = -1
) -> tuple[int, bool]:
    """solve's status from ``position`` with its first stretch ``first`` expansions
    long, and whether its line wins there."""
    schedule = Schedule(first=first).values
    status, line, _, _ = c_solve(position, nodes=nodes, max_bytes=max_bytes, schedule=schedule)
    return status, wins(position, [core.MOVES[m] for m in line]) if line else False


_KIND = {PlaceKind.COLUMN: 0, PlaceKind.CELL: 1, PlaceKind.FOUNDATION: 2}


def c_legal_moves(position: Position) -> list[tuple[int, int, int, int, int]]:
    """The kernel's ``legal_moves`` for ``position``: engine moves as plain tuples."""
    assert kernel.native is not None
    rules = position.rules
    return list(
        kernel.native.legal_moves(
            *core.state(position),
            (
                rules.cells,
                int(rules.build is Build.SUIT),
                int(rules.empty_column is EmptyColumn.KINGS),
                core.GROUP[rules.group_moves],
                rules.take_back,  # as the rules say (core.config leaves out needless ones)
            ),
        )
    )


def as_tuple(move: Move) -> tuple[int, int, int, int, int]:
    """An engine move in the kernel's ``legal_moves``' form."""
    source, target = move.source, move.target
    to_found = target.kind is PlaceKind.FOUNDATION
    return (
        _KIND[source.kind],
        source.index if source.index is not None else -1,
        _KIND[target.kind],
        -1 if to_found or target.index is None else target.index,
        move.count,
    )


def random_positions(
    rules: Rules, rng: random.Random, count: int
) -> Iterator[tuple[Position, list[Move]]]:
    """Positions reached by random legal moves from random deals (runs, empty columns,
    full cells, take-backs all turn up), with a new deal every 60 moves; each with its
    ``legal_moves()``, listed once (the walk takes its next step from them)."""
    position = pysol_deal(rng.randrange(1, 32_000), rules)
    for made in range(1, count + 1):
        moves = position.legal_moves()
        yield position, moves
        if made % 60 == 0 or not moves:
            position = pysol_deal(rng.randrange(1, 32_000), rules)
            continue
        # Favour moves into columns, so runs grow and columns empty.
        into = [m for m in moves if m.target.kind is PlaceKind.COLUMN]
        position = position.apply_unchecked(
            rng.choice(into if into and rng.random() < 0.7 else moves)
        )
