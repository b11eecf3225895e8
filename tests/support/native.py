"""Helpers the C core's tests share: its search state, its scans and searches called
alone, and fc-solve's counts on the same positions."""

from __future__ import annotations

import shutil
from dataclasses import replace

import benchmark_scripts
from eightoff.position import Position
from eightoff.rules import Rules
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
