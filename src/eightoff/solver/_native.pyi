"""Types of the C search core (``native/*.c``); see :mod:`eightoff.solver.core`.

The searches take an optional ``max_bytes`` (default 1 GiB): a search whose tables
would grow past it stops with status LIMIT, as at a node or time limit (``solve``'s
optimal ending gets the same budget; ``finish``'s gets 1 GiB). Bad arguments raise
ValueError naming what is wrong.
"""

from eightoff.solver.config import Config

Move = tuple[int, int, int, int, int]
Step = tuple[Move, tuple[int, ...]]
SCHEDULE: tuple[tuple[str, object], ...]
"""The C ``Schedule``'s fields and default values in its order (schedule.h):
:class:`eightoff.solver.Schedule` is held to the same names and defaults."""

def best_first(
    cols: tuple[bytes, ...],
    cells: bytes,
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    max_bytes: int = ...,
) -> tuple[int, list[Step], int]: ...

exhaust = best_first  # the same arguments and answer; the search runs to the end

def exhaust_layered(
    cols: tuple[bytes, ...],
    cells: bytes,
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    max_bytes: int,
    dir: str,
    max_buffered: int = ...,
    tag: bytes = ...,
    /,
) -> tuple[int, int, int, int, int, list[tuple[tuple[int, int, int, int], int, int]], float]: ...

SearchState = tuple[tuple[bytes, ...], bytes, tuple[int, int, int, int]]

def proof_key(
    root: SearchState, position: SearchState, suit: bool, /
) -> tuple[bytes, SearchState]: ...
def astar(
    cols: tuple[bytes, ...],
    cells: bytes,
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    below: int = -1,
    max_bytes: int = ...,
) -> tuple[int, list[Step], int]: ...
def dive(
    cols: tuple[bytes, ...],
    cells: bytes,
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    seed: int = 0,
    noise: float = 2.0,
    order: str | None = None,
) -> tuple[int, list[Step], int]: ...
def scans(
    cols: tuple[bytes, ...],
    cells: bytes,
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    tests: str | None = None,
    prune: bool = False,
    seed: int = 0,
    preset: str = "toons",
) -> tuple[int, list[Step], int]: ...
def finish(
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    config: Config,
    steps: list[Step],
    endgame_home: int,
    endgame_nodes: int,
    seconds: float,
    *,
    shortcuts: bool = False,
    schedule: tuple[object, ...] | None = None,
) -> list[Move]: ...
def solve(
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    endgame_home: int,
    endgame_nodes: int,
    *,
    max_bytes: int = ...,
    tail: bool = ...,
    resolve: bool = ...,
    schedule: tuple[object, ...] | None = None,
) -> tuple[int, list[Move], int, int]: ...
def optimal(
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    config: Config,
    max_nodes: int,
    seconds: float,
    max_bytes: int = ...,
) -> tuple[int, list[Move], int, int]: ...
