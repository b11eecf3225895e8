"""The solver: a winning line or a proof that none exists, an optimal mode, and hints.

    result = solve(position, limit=Limit(nodes=200_000, seconds=5))
    result.verdict, result.moves, result.length, result.to_json(position)

:func:`solve` settles a position under its own rules (every option the engine
has); ``unsolvable`` is reported only after a complete search, ``unknown`` only
when a limit was hit. The returned moves are legal engine moves.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path


def _prefer_fresh_core() -> None:
    # An editable install compiles search.py, shorten.py and optimal.py with mypyc into
    # .so files beside them (see setup.py), and Python imports a .so first. Once a .py has
    # been edited its .so is stale, so load the source instead (the same code,
    # slower) until the next `pip install -e .` rebuilds it. A stale _native .so is
    # not loaded at all: the Python search runs instead. Only in a source tree: an
    # installed wheel writes its files in any order, so there mtimes say nothing.
    here = Path(__file__).parent
    if not (here.parents[2] / "setup.py").exists():
        return
    sources = list((here / "native").glob("*.[ch]"))
    newest_c = max((p.stat().st_mtime for p in sources), default=0.0)
    if any(so.stat().st_mtime < newest_c for so in here.glob("_native.*.so")):
        sys.modules[f"{__name__}._native"] = None  # type: ignore[assignment]  # import fails
    for name in ("search", "shorten", "optimal"):
        source = here / f"{name}.py"
        if not source.exists():
            continue
        newest = source.stat().st_mtime
        if any(so.stat().st_mtime < newest for so in here.glob(f"{name}.*.so")):
            spec = importlib.util.spec_from_file_location(f"{__name__}.{name}", source)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # before running it: dataclasses look it up
            spec.loader.exec_module(module)


_prefer_fresh_core()

from eightoff.moves import Move  # noqa: E402
from eightoff.position import Position  # noqa: E402
from eightoff.rules import Rules  # noqa: E402
from eightoff.solver import search  # noqa: E402
from eightoff.solver.convert import (  # noqa: E402
    MOVES,
    cell_slots,
    config_for,
    engine_moves,
    state_of,
)
from eightoff.solver.hint import HINT_LIMIT, Hint, hint  # noqa: E402
from eightoff.solver.result import (  # noqa: E402
    DEFAULT_LIMIT,
    Limit,
    SolveResult,
    Verdict,
    single_card_length,
)
from eightoff.solver.shorten import position_after, shorten  # noqa: E402

# f = g + weight * h. The C core affords weight 4: on PySolFC deals 1-1000 it took a
# move off the median line for the same total time. The Python searches (where there
# is no C core) keep 8: at 4 they expand about twice the positions.
DEFAULT_WEIGHT = 4.0
PYTHON_WEIGHT = 8.0
# Once this many cards are home on the found line, the rest is re-solved optimally
# within ENDGAME_NODES (A*, see optimal.py); a shorter ending replaces the found one.
# From 20 cards home rather than 15 the median deal spends ~0.06 ms less for ~1 move.
ENDGAME_HOME = 20
ENDGAME_NODES = 300


def solve(
    position: Position, *, limit: Limit = DEFAULT_LIMIT, optimal: bool = False
) -> SolveResult:
    """Solve ``position`` under its rules within ``limit``.

    With ``optimal=True`` the search looks for the shortest solution in
    single-card moves and proves it (``result.optimal``); otherwise it looks for
    any short-ish solution fast.
    """
    if optimal:
        from eightoff.solver.optimal import solve_optimal

        return solve_optimal(position, limit=limit, start=time.perf_counter())
    return solve_fast(position, limit)


def solve_fast(position: Position, limit: Limit, dead: set[bytes] | None = None) -> SolveResult:
    """:func:`solve` without optimal mode.

    ``dead`` serves the Python searches only: positions whose keys are in it are known
    lost and skipped, and a complete search adds every key it saw. The C core ignores
    it: it re-proves a lost region faster than Python skips it.
    """
    start = time.perf_counter()
    deadline = None if limit.seconds is None else start + limit.seconds
    cols, cells, founds = state_of(position)
    endgame = ENDGAME_HOME if limit.nodes is None or limit.nodes >= ENDGAME_NODES else -1
    native = search.native
    if native is not None:
        # All of the below in C, in one call: search, proof, finish (the median deal
        # takes ~0.2 ms, so the Python around it is kept to a few lookups).
        status, line, length, nodes = native.solve(
            cols,
            cell_slots(position),
            founds,
            _native_config(position.rules),
            -1 if limit.nodes is None else limit.nodes,
            -1.0 if deadline is None else max(0.0, deadline - time.perf_counter()),
            endgame,
            ENDGAME_NODES,
            limit.table_bytes,
        )
        return _result(status, tuple(map(MOVES.__getitem__, line)), nodes, start, length)
    searcher = search.Searcher(config_for(position.rules, weight=PYTHON_WEIGHT))
    if dead:
        # Known-lost positions to skip (a hint's later probes): the exact best-first
        # search uses them and still finds wins fast.
        status, steps, nodes = searcher.best_first(
            cols, cells, founds, max_nodes=limit.nodes, deadline=deadline, dead=dead
        )
    else:
        status, steps, nodes = searcher.best_first_fast(
            cols, cells, founds, max_nodes=limit.nodes, deadline=deadline
        )
        if status == search.EXHAUSTED:
            # Hashes could (very rarely) have merged two positions: prove it exactly.
            more = None if limit.nodes is None else max(1, limit.nodes - nodes)
            status, steps, extra = searcher.exhaust(
                cols,
                cells,
                founds,
                max_nodes=more,
                deadline=deadline,
                keep_explored=dead is not None,
            )
            nodes += extra
    if status == search.EXHAUSTED and dead is not None:
        dead.update(searcher.explored)
    moves: tuple[Move, ...] = ()
    if status == search.SOLVED:
        found = engine_moves(position, steps)
        if endgame >= 0:
            found = _better_ending(position, found, deadline)
        # The greedy line has detours; merging a card's two moves into one where the
        # rest of the line allows it takes ~1 move off the median.
        moves = tuple(shorten(position, found))
    return _result(status, moves, nodes, start)


_NATIVE_CONFIGS: dict[Rules, search.ConfigTuple] = {}


def _native_config(rules: Rules) -> search.ConfigTuple:
    # The C core's config tuple for solve_fast, made once per rules.
    config = _NATIVE_CONFIGS.get(rules)
    if config is None:
        config = _NATIVE_CONFIGS[rules] = config_for(rules, weight=DEFAULT_WEIGHT).as_tuple()
    return config


def _result(
    status: int, moves: tuple[Move, ...], nodes: int, start: float, length: int | None = None
) -> SolveResult:
    if status == search.SOLVED:
        verdict = Verdict.SOLVED
    else:
        verdict = Verdict.UNSOLVABLE if status == search.EXHAUSTED else Verdict.UNKNOWN
    return SolveResult(
        verdict=verdict,
        moves=moves,
        length=single_card_length(moves) if length is None else length,
        optimal=False,
        nodes=nodes,
        seconds=time.perf_counter() - start,
    )


def _better_ending(position: Position, line: list[Move], deadline: float | None) -> list[Move]:
    # The greedy search plays the end of a game loosely, and an end game with few
    # cards left is cheap to solve optimally: swap in the optimal ending when shorter.
    from eightoff.solver.optimal import solve_optimal

    found = position_after(position, line, ENDGAME_HOME)
    if found is None:
        return line
    i, middle = found
    now = time.perf_counter()
    seconds = None if deadline is None else deadline - now
    if seconds is not None and seconds <= 0:
        return line
    # Only endings shorter than the found one are sought: A* then stops as soon as
    # the bound shows there is none, instead of spending its whole node budget.
    rest = single_card_length(line[i:])
    end = solve_optimal(
        middle, limit=Limit(nodes=ENDGAME_NODES, seconds=seconds), start=now, below=rest
    )
    if end.verdict is Verdict.SOLVED and end.length < rest:
        return [*line[:i], *end.moves]
    return line


__all__ = [
    "DEFAULT_LIMIT",
    "HINT_LIMIT",
    "Hint",
    "Limit",
    "SolveResult",
    "Verdict",
    "hint",
    "solve",
]
