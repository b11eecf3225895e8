"""Types of the C search core (``native/*.c``); see :mod:`eightoff.solver.core`.

Every binding takes its state and config first, then keywords: the limits
(:class:`Limits`: ``max_nodes`` and ``seconds``, < 0 for none, the default, and
``max_bytes`` of tables, 1 GiB by default: a search whose tables would grow past it
stops with status LIMIT, as at a node or time limit; ``solve``'s optimal ending gets
the same budget, ``finish``'s 1 GiB) and its own options. Bad arguments raise
ValueError naming what is wrong.
"""

from typing import TypedDict, Unpack

from eightoff.solver.config import Config

Move = tuple[int, int, int, int, int]
Step = tuple[Move, tuple[int, ...]]
Founds = tuple[int, int, int, int]
SearchState = tuple[tuple[bytes, ...], bytes, Founds]
"""A search's state: the columns, the cells' cards (in any order), the foundations."""
EngineState = tuple[tuple[bytes, ...], tuple[int, ...], Founds]
"""The engine's state: the cells in place, a card or -1 each."""
Found = tuple[int, list[Step], int]
"""A search's answer: its status, the steps of its line, the positions it expanded."""
Line = tuple[int, list[Move], int, int]
"""``solve``'s and ``optimal``'s answer: status, engine moves, their length in
single-card moves, positions expanded."""
Layers = tuple[int, int, int, int, int, list[tuple[Founds, int, int]], float]
SCHEDULE: tuple[tuple[str, object], ...]
"""The C ``Schedule``'s fields and default values in its order (schedule.h):
:class:`eightoff.solver.Schedule` is held to the same names and defaults."""

class Limits(TypedDict, total=False):
    """A search's limits, as keywords."""

    max_nodes: int
    seconds: float
    max_bytes: int

def best_first(state: SearchState, config: Config, **limits: Unpack[Limits]) -> Found: ...
def exhaust(
    state: SearchState, config: Config, *, normal: int = 1, **limits: Unpack[Limits]
) -> Found: ...
def exhaust_layered(
    state: SearchState,
    config: Config,
    dir: str,
    *,
    max_buffered: int = ...,
    tag: bytes = b"",
    **limits: Unpack[Limits],
) -> Layers: ...
def proof_key(
    root: SearchState, position: SearchState, suit: bool
) -> tuple[bytes, SearchState]: ...
def astar(
    state: SearchState, config: Config, *, below: int = -1, **limits: Unpack[Limits]
) -> Found: ...
def dive(
    state: SearchState,
    config: Config,
    *,
    seed: int = 0,
    noise: float = 2.0,
    order: str | None = None,
    **limits: Unpack[Limits],
) -> Found: ...

class ScanOptions(TypedDict, total=False):
    """Freecell Solver's scans: one depth-first scan of ``tests`` (None, the default:
    ``preset``'s scans, toons or looking-glass), with its pruning (``prune``) and its
    random-dfs ``seed``."""

    tests: str | None
    prune: bool
    seed: int
    preset: str

class ScanArgs(Limits, ScanOptions, total=False):
    """``scans``' keywords: the limits and the scans' options."""

def scans(state: SearchState, config: Config, **args: Unpack[ScanArgs]) -> Found: ...
def finish(
    state: EngineState,
    config: Config,
    steps: list[Step],
    *,
    endgame_home: int = -1,
    endgame_nodes: int = 0,
    seconds: float = -1.0,
    shortcuts: bool = False,
    schedule: tuple[object, ...] | None = None,
) -> list[Move]: ...
def solve(
    state: EngineState,
    config: Config,
    *,
    endgame_home: int = -1,
    endgame_nodes: int = 0,
    tail: bool = True,
    resolve: bool = True,
    schedule: tuple[object, ...] | None = None,
    **limits: Unpack[Limits],
) -> Line: ...
def optimal(state: EngineState, config: Config, **limits: Unpack[Limits]) -> Line: ...
