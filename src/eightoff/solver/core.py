"""The C core's Python side: rules as its config, positions as its state, its
moves back as engine moves.

The C core (``native/``, compiled by ``make setup`` as :mod:`eightoff.solver._native`)
searches on plain data: columns as ``bytes`` (covered -> exposed), the cells, four
foundation ranks, and a :class:`Config` for the rules. Its moves are tuples
``(source kind, index, target kind, index, count)`` with kinds ``COL``, ``CELL``,
``FOUND`` (a foundation source names its suit, a foundation target is -1).
``native`` is None when it was not built: :mod:`eightoff.solver` then runs the
reference solver.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Final

from eightoff._kernel import DEAL_ONLY as DEAL_ONLY
from eightoff._kernel import GROUP as GROUP
from eightoff._kernel import KINDS as _KINDS
from eightoff._kernel import READ as READ
from eightoff._kernel import engine_rules as engine_rules
from eightoff._kernel import replay as replay
from eightoff.moves import FOUNDATION, Move, Place
from eightoff.position import Position
from eightoff.rules import OPTIONS, Build, EmptyColumn, Rules
from eightoff.solver.config import Config as Config
from eightoff.solver.result import Limit, SolveResult, Verdict
from eightoff.solver.schedule import DEFAULT_SCHEDULE, FIELDS, Schedule

native: ModuleType | None
try:  # built at install time when a C compiler was there (see setup.py)
    from eightoff.solver import _native as native
except ImportError:  # EIGHTOFF_PURE=1, or no compiler
    native = None
if native is not None and tuple(name for name, _ in native.SCHEDULE) != FIELDS:
    raise ImportError(  # Schedule.values would land in the wrong fields
        "eightoff.solver._native was built with other Schedule fields than"
        " eightoff.solver.Schedule's: rebuild it (make setup)"
    )

COL: Final = 0
CELL: Final = 1
FOUND: Final = 2
SOLVED: Final = 0
EXHAUSTED: Final = 1  # the search was complete: a proof
LIMIT: Final = 2  # a node or time limit, or the tables' budget
PENDING_BUFFERS: Final = 64 << 20  # the proof by layers: bytes of buffers before its files
AUTO_NONE: Final = 0
AUTO_ALL: Final = 1  # building in suit: every foundation move is safe
AUTO_SAFE: Final = 2  # alternating colours: once both opposite-colour piles are high enough
GROUP_NONE: Final = 3  # search single-card moves only (optimal mode)

# f = g + WEIGHT * h, h = cards not home + INV per card above a lower card of its suit
# + CELL_W per card in a cell + COVER per card over a suit's next card. Weight 4 took a
# move off the median line of PySolFC deals 1-1000 (weight 8: same time, one move more).
WEIGHT: Final = 4.0
INV_W: Final = 0.5
CELL_W: Final = 0.4
COVER_W: Final = 0.25
# The C core's portfolio (native/portfolio.c), run by a Schedule: from its meta_start-th
# position (solo-th with eight cells, meta_start_any-th where any card fills a column)
# best-first takes turns with a Freecell Solver meta-move scan (native/meta.c), after
# early_start (solo) with a preset's scans (toons, or under FreeCell's own rules
# looking-glass's with toons' beside them: native/scans.c) and short depth-first dives,
# then (past solo) a greedy best-first search and longer dives (children by h under
# other weights, or by kind of move as Freecell Solver orders them); the first line
# found wins, and after a helper's win best-first goes on a little and keeps its own
# line if no longer (native/line.c bf_go_on). It cuts the slow tail (deals where a
# depth-first solver finds a line many times sooner); deals solved within those first
# positions are untouched. False: best-first alone (the benchmarks' "before").
PORTFOLIO = True


Compact = tuple[int, int, int, int, int]


def config(rules: Rules, *, weight: float = WEIGHT, single_cards: bool = False) -> Config:
    """The C core's :class:`Config` for ``rules``: its move rules, autoplay, digging
    macro, best-first's weight and the three weights of h.

    Building in suit, take-back moves are left out and every foundation move is
    played at once. Both are safe: a card on its foundation could only ever serve as
    the base for the next lower card of its suit, which is home already, so a card
    taken back only fills a cell or covers a column. In alternating colours
    take-backs are searched (a red 5 taken back can hold a black 4) and only provably
    safe foundation moves are automatic. ``single_cards``: one card a move, no
    digging macro (optimal mode).

    Raises NotImplementedError for a rule option the C core does not play (one in
    neither :data:`READ` nor :data:`DEAL_ONLY`) set off its default, rather than
    solving under other rules than the position's.
    """
    for option in OPTIONS:
        if option.name not in READ | DEAL_ONLY and getattr(rules, option.name) != option.default:
            raise NotImplementedError(
                f"the C core does not play the rule option {option.name!r}"
                f" ({option.word(getattr(rules, option.name))})"
            )
    suit = rules.build is Build.SUIT
    take_back = rules.take_back and not suit
    auto = AUTO_ALL if suit else AUTO_NONE if take_back else AUTO_SAFE
    return Config(
        cells=rules.cells,
        suit=suit,
        kings_only=rules.empty_column is EmptyColumn.KINGS,
        group=GROUP_NONE if single_cards else GROUP[rules.group_moves],
        take_back=take_back,
        autoplay=auto,
        dig=not single_cards,
        weight=weight,
        inv_weight=INV_W,
        cell_weight=CELL_W,
        cover_weight=COVER_W,
    )


@functools.lru_cache(maxsize=64)
def _rules_config(rules: Rules) -> Config:
    """:func:`config` for ``rules``, made once: a solve of a few hundred positions
    should not pay for building it."""
    return config(rules)


def state(position: Position) -> tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, ...]]:
    """Columns as bytes, the cells in place (a card or -1 each), the foundations."""
    cols = tuple(bytes(col) for col in position.columns)
    cells = tuple(-1 if c is None else int(c) for c in position.cells)
    return cols, cells, position.foundations


class MoveTable(dict[Compact, Move]):
    """Compact move -> engine :class:`Move`, each made on first use and then shared
    (moves are immutable)."""

    def __missing__(self, compact: Compact) -> Move:
        sk, si, dk, di, n = compact
        target = FOUNDATION if dk == FOUND else Place(_KINDS[dk], di)
        move = self[compact] = Move(Place(_KINDS[sk], si), target, n)
        return move


MOVES = MoveTable()

# Once this many cards are home on the found line, the rest is re-solved by A* within
# ENDGAME_NODES; a shorter ending replaces the found one.
ENDGAME_HOME: Final = 20
ENDGAME_NODES: Final = 300


def solve_fast(
    position: Position,
    limit: Limit,
    layers_dir: Path | None = None,
    schedule: Schedule = DEFAULT_SCHEDULE,
) -> SolveResult:
    """Any short-ish winning line, a proof that there is none, or ``unknown``.

    One C call: weighted best-first search with 64-bit hashes and depth-first dives by
    turns (native/portfolio.c); past its first stretch, best-first, the exact proof
    and longer dives by turns (native/proof.c), the proof's running dry being the only
    "no solution" (where its tables fill before the limits are reached, the proof
    goes on one foundation layer at a time: :func:`_by_layers`); on a win, the engine
    moves with an optimal ending and a card's two moves merged where the line allows
    (a helper's line also cut short wherever one legal move skips a stretch of it).
    With ``layers_dir``, a proof by layers that a limit stopped left its files there,
    and the same call goes on from them, straight to the layers.
    """
    assert native is not None
    start = time.perf_counter()
    if layers_dir is not None and _has_manifest(layers_home(position, layers_dir)):
        status, nodes, before = _by_layers(position, limit, 0, start, layers_dir)
        return _result(status, [], 0, nodes, start - before, optimal=False)
    endgame = ENDGAME_HOME if limit.nodes is None or limit.nodes >= ENDGAME_NODES else -1
    status, line, length, nodes = native.solve(
        state(position),
        _rules_config(position.rules),
        max_nodes=-1 if limit.nodes is None else limit.nodes,
        seconds=-1.0 if limit.seconds is None else limit.seconds,
        endgame_home=endgame,
        endgame_nodes=ENDGAME_NODES,
        max_bytes=limit.table_bytes,
        tail=PORTFOLIO,
        schedule=_late_stretched(schedule, best_first_stop(limit, schedule)).values,
    )
    if status == LIMIT:
        status, nodes, before = _by_layers(position, limit, nodes, start, layers_dir)
        start -= before
    return _result(status, line, length, nodes, start, optimal=False)


def _late_stretched(schedule: Schedule, late: int) -> Schedule:
    """``schedule`` with best-first's share past ``first`` set to ``late``."""
    return schedule if late == schedule.late_bf_max else replace(schedule, late_bf_max=late)


TUNED_SECONDS: Final = 60.0  # the time limit Schedule.late_bf_max was tuned for
NEVER: Final = 2**62  # best-first never stops by its count


def best_first_stop(limit: Limit, schedule: Schedule = DEFAULT_SCHEDULE) -> int:
    """Best-first's expansions before the proof goes on alone.

    ``schedule.late_bf_max`` is best-first's share of a minute: a longer time
    limit stretches it as much, and with no limit at all best-first stops only when it
    runs dry or the proof needs its tables. (Won deals best-first finds late: C2-EAB
    eightoff 83731 at 13 million positions, 29 s, where at late_bf_max the proof
    wandered alone for hours.) Under a node limit, the tuned count: the same answer on
    every machine.
    """
    if limit.nodes is not None:
        return schedule.late_bf_max
    if limit.seconds is None:
        return NEVER
    return int(schedule.late_bf_max * max(1.0, limit.seconds / TUNED_SECONDS))


@functools.cache
def _build_digest() -> bytes:
    """What names the C core's build: its sources where they lie beside it (an
    editable install), else its own bytes. Layer files are read back only by the
    build that wrote them: their keys are its encoding."""
    assert native is not None and native.__file__ is not None
    built = Path(native.__file__)
    kernel = built.parent.parent / "_kernel"
    sources = sorted([*(built.parent / "native").glob("*.[ch]"), *kernel.glob("*.[ch]")])
    digest = hashlib.sha256()
    for path in sources or [built]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.digest()


def layers_tag(position: Position) -> bytes:
    """What names a proof by layers on disk: the build, the rules and the deal."""
    cols, cells, founds = state(position)
    held = bytes(sorted(c for c in cells if c >= 0))
    named = repr((cols, held, founds, config(position.rules))).encode()
    return hashlib.sha256(_build_digest() + named).digest()


def layers_home(position: Position, layers_dir: Path, tag: bytes | None = None) -> Path:
    """The directory under ``layers_dir`` where ``position``'s proof by layers keeps
    its files and manifest (one a deal, rules and build; ``tag``: its
    :func:`layers_tag`, where the caller has it)."""
    return layers_dir / f"layers-{(tag or layers_tag(position)).hex()[:20]}"


def _has_manifest(home: Path) -> bool:
    """Whether a proof by layers a limit stopped left its manifest in ``home``."""
    try:
        return (home / "manifest").is_file()
    except OSError:  # not a place we may look: a proof from the root, which says so
        return False


def _by_layers(
    position: Position, limit: Limit, nodes: int, start: float, layers_dir: Path | None = None
) -> tuple[int, int, float]:
    """Where the search stopped with neither nodes nor time used up (its tables
    were full), the proof again one layer at a time (native/layered.c: a set of
    foundations and a count of dealt cards still frozen in place): each table holds
    one layer, the positions waiting for later layers go to a
    temporary directory. Its running dry is a proof; its win (which comes without
    a line) or any limit leaves the deal unknown; so do take-back rules (cards come
    back home: no layers). The pending positions' buffers take an eighth of the
    tables' budget at most (64 MiB), besides it. With ``layers_dir`` the files go to
    :func:`layers_home` instead, with a manifest before each layer: a limit (or a
    kill) leaves them for the next call, a verdict removes them. (status, nodes in
    all, seconds the searches before this one took on the layers)."""
    assert native is not None
    left = None if limit.seconds is None else limit.seconds - (time.perf_counter() - start)
    budget = None if limit.nodes is None else limit.nodes - nodes
    cfg = config(position.rules)
    take_back = cfg.take_back  # in alternating colours only: in suit a card sent home stays
    if (left is not None and left <= 0) or (budget is not None and budget <= 0) or take_back:
        return LIMIT, nodes, 0.0
    cols, cells, founds = state(position)
    held = bytes(sorted(c for c in cells if c >= 0))
    try:
        with contextlib.ExitStack() as stack:
            if layers_dir is None:
                temporary = tempfile.TemporaryDirectory(prefix="eightoff-layers-")
                spill, tag = stack.enter_context(temporary), b""
            else:
                tag = layers_tag(position)
                home = layers_home(position, layers_dir, tag)
                home.mkdir(parents=True, exist_ok=True)
                spill = str(home)
            status, more, _, _, _, _, before = native.exhaust_layered(
                (cols, held, founds),
                cfg,
                spill,
                max_nodes=-1 if budget is None else budget,
                seconds=-1.0 if left is None else left,
                max_bytes=limit.table_bytes,
                max_buffered=min(PENDING_BUFFERS, limit.table_bytes // 8),
                tag=tag,
            )
            if tag and (status != LIMIT or not _has_manifest(Path(spill))):
                # a verdict (its files and manifest are gone), or a stop before the first
                # layer ran dry (nothing to go on from): the directory goes too
                with contextlib.suppress(OSError):  # files of someone else's in it: they stay
                    Path(spill).rmdir()
    except (OSError, MemoryError):  # no room on disk or in memory for them: unknown
        return LIMIT, nodes, 0.0
    return (EXHAUSTED if status == EXHAUSTED else LIMIT), nodes + more, before


def solve_optimal(position: Position, limit: Limit) -> SolveResult:
    """A shortest line in single-card moves (A* with Paul & Helmert's bound), proven."""
    assert native is not None
    start = time.perf_counter()
    status, line, length, nodes = native.optimal(
        state(position),
        config(position.rules),
        max_nodes=-1 if limit.nodes is None else limit.nodes,
        seconds=-1.0 if limit.seconds is None else limit.seconds,
        max_bytes=limit.table_bytes,
    )
    return _result(status, line, length, nodes, start, optimal=True)


def _result(
    status: int, line: list[Compact], length: int, nodes: int, start: float, *, optimal: bool
) -> SolveResult:
    if status == SOLVED:
        verdict = Verdict.SOLVED
    else:
        verdict = Verdict.UNSOLVABLE if status == EXHAUSTED else Verdict.UNKNOWN
    return SolveResult(
        verdict=verdict,
        moves=tuple(map(MOVES.__getitem__, line)),
        length=length,
        optimal=optimal and verdict is Verdict.SOLVED,
        nodes=nodes,
        seconds=time.perf_counter() - start,
    )
