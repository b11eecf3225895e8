"""The C core's searches one at a time, from a position: what :func:`eightoff.solver.solve`
runs together, measured alone (the benchmarks' proof side and Freecell Solver's scans).

    exact_proof(position, limit)               the exact proof (native/exhaust.c)
    proof_by_layers(position, limit, spill)    the same, a foundation layer at a time
    fcs_scan(position, max_nodes, tests=...)   Freecell Solver's scans (native/scans.c)

Each needs the C core (:data:`eightoff.solver.core.native`): without it, RuntimeError.
Statuses are the C core's: ``core.SOLVED``, ``core.EXHAUSTED``, ``core.LIMIT``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Unpack

from eightoff.moves import Move
from eightoff.position import Position
from eightoff.solver import core
from eightoff.solver.result import Limit

if TYPE_CHECKING:
    from eightoff.solver._native import Limits, ScanOptions


@dataclass(frozen=True)
class Layers:
    """What :func:`proof_by_layers` did: its status and positions, how many layers it
    ran, the positions of the largest, the bytes it spilled to files, and each layer
    as run: (foundations, dealt cards still frozen in place, positions)."""

    status: int
    positions: int
    layers: int
    largest: int
    spilled: int
    runs: tuple[tuple[tuple[int, int, int, int], int, int], ...]


def _native() -> ModuleType:
    if core.native is None:
        raise RuntimeError("the C core was not built (make setup)")
    return core.native


def search_state(position: Position) -> tuple[tuple[bytes, ...], bytes, tuple[int, int, int, int]]:
    """The searches' state: columns, the cells' cards sorted, the foundations."""
    cols, cells, founds = core.state(position)
    return (
        cols,
        bytes(sorted(c for c in cells if c >= 0)),
        (founds[0], founds[1], founds[2], founds[3]),
    )


def _limits(limit: Limit) -> Limits:
    """``limit`` as the C core's keywords."""
    return {
        "max_nodes": -1 if limit.nodes is None else limit.nodes,
        "seconds": -1.0 if limit.seconds is None else limit.seconds,
        "max_bytes": limit.table_bytes,
    }


def exact_proof(position: Position, limit: Limit) -> tuple[int, int]:
    """The exact depth-first proof alone (native/exhaust.c, normal forms): (status,
    positions); its running dry (EXHAUSTED) counts every position reachable under the
    proof side's pruning rules."""
    native, config = _native(), core.config(position.rules)
    status, _, positions = native.exhaust(search_state(position), config, **_limits(limit))
    return status, positions


def proof_by_layers(position: Position, limit: Limit, spill: str | Path) -> Layers:
    """The exact proof one foundation layer at a time (native/layered.c): the tables
    hold the largest layer, the positions waiting for later layers go to files under
    ``spill``; a win comes without its line. No take-back rules (ValueError)."""
    native, config = _native(), core.config(position.rules)
    status, positions, layers, largest, spilled, runs, _ = native.exhaust_layered(
        search_state(position), config, str(spill), **_limits(limit)
    )
    return Layers(status, positions, layers, largest, spilled, tuple(runs))


def fcs_scan(
    position: Position, max_nodes: int, **options: Unpack[ScanOptions]
) -> tuple[int, int, tuple[Move, ...]]:
    """Freecell Solver's scans move for move (native/scans.c): a preset's (toons, the
    default, or looking-glass), or one depth-first scan of fc-solve's ``-to`` tests
    order (``options``: :class:`eightoff.solver._native.ScanOptions`). (status,
    positions as fc-solve counts its states checked, the engine moves of its line when
    it won: its own moves, its detours cut, no card sent home but by a move)."""
    native = _native()
    config = core.config(position.rules)
    status, steps, checked = native.scans(
        search_state(position), config, max_nodes=max_nodes, **options
    )
    if status != core.SOLVED:
        return status, checked, ()
    no_autoplay = replace(config, autoplay=core.AUTO_NONE)  # the scans send no card home
    line = native.finish(
        core.state(position),
        no_autoplay,
        steps,
        endgame_home=core.ENDGAME_HOME,
        endgame_nodes=core.ENDGAME_NODES,
        shortcuts=True,
    )
    return status, checked, tuple(map(core.MOVES.__getitem__, line))
