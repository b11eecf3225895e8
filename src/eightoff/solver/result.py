"""The solver's value types: search limits, verdicts and results."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from eightoff.errors import EightOffError
from eightoff.formats import move_to_json
from eightoff.moves import Move
from eightoff.position import Position

DEFAULT_MEMORY = 1 << 30  # the C core's table budget per search unless told otherwise
MIN_MEMORY = 1 << 16


class Verdict(StrEnum):
    """What a search established about a position."""

    SOLVED = "solved"  # a winning line was found (``SolveResult.moves``)
    UNSOLVABLE = "unsolvable"  # the search was complete and found none: a proof
    UNKNOWN = "unknown"  # a limit was hit first


@dataclass(frozen=True, slots=True)
class Limit:
    """How much a search may spend: expanded positions, wall-clock seconds, and the
    bytes of search tables the C core may allocate.

    ``None`` means no limit of that kind (for ``memory``: the C core's 1 GiB). A node
    limit alone gives the same answer on every run; a time limit depends on the
    machine. The Python searches (no C core) do not count bytes: bound them by nodes.
    """

    nodes: int | None = 1_000_000  # about 0.9 GB of search tables at most
    seconds: float | None = 60.0
    memory: int | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 1:
            raise EightOffError(f"a node limit must be at least 1, not {self.nodes}")
        if self.seconds is not None and not self.seconds > 0:
            raise EightOffError(f"a time limit must be positive, not {self.seconds}")
        if self.memory is not None and self.memory < MIN_MEMORY:
            raise EightOffError(
                f"a memory limit must be at least {MIN_MEMORY} bytes, not {self.memory}"
            )

    @property
    def table_bytes(self) -> int:
        """The C core's table budget for this limit."""
        return DEFAULT_MEMORY if self.memory is None else self.memory


DEFAULT_LIMIT = Limit()

COMMAND_LIMIT = Limit(nodes=None)
"""The solving commands' limit unless told otherwise (``eightoff solve``, a survey's per
deal): 60 seconds, any number of nodes, the C core's default tables."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The outcome of :func:`eightoff.solver.solve`.

    ``moves`` are legal actions under the position's rules that replay to a win
    (empty unless solved); ``length`` counts them in single-card moves (a run of
    ``n`` cards counts ``2n - 1``); ``optimal`` is true only when no shorter
    solution exists (proven by optimal mode).
    """

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    length: int = 0
    optimal: bool = False
    nodes: int = 0
    seconds: float = 0.0

    @property
    def solved(self) -> bool:
        """A winning line was found."""
        return self.verdict is Verdict.SOLVED

    def to_json(self, position: Position) -> dict[str, Any]:
        """``{"verdict", "moves", "length", "optimal", "nodes", "seconds"}``; moves as
        engine move JSON, read against ``position`` (the position that was solved)."""
        moves: list[dict[str, Any]] = []
        pos = position
        for move in self.moves:
            moves.append(move_to_json(move, pos))
            pos = pos.apply_unchecked(move)
        return {
            "verdict": self.verdict.value,
            "moves": moves,
            "length": self.length,
            "optimal": self.optimal,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def single_card_length(moves: tuple[Move, ...] | list[Move]) -> int:
    """Moves counted as single-card moves: a run of ``n`` cards is ``2n - 1``."""
    return sum(2 * m.count - 1 for m in moves)
