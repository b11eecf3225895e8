"""What the terminal game shows of the solver: a hint in words, and the solver's line
stepped through (:class:`Solution`). The app runs the solver in a thread and shows these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from eightoff.moves import Move
from eightoff.position import Position
from eightoff.tui.words import counted, describe

if TYPE_CHECKING:
    from eightoff.solver.hint import Hint


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a hint reads of the game, copied on the UI thread for the worker thread."""

    position: Position
    history: tuple[Position, ...]

    def positions(self) -> list[Position]:
        """The positions from the deal to now."""
        return list(self.history)


def hint_text(found: Hint, snapshot: Snapshot) -> str:
    """The hint ``found`` for ``snapshot``'s position, in words."""
    if found.winnable and found.move is not None:
        return f"Hint: {describe(found.move, snapshot.position)}"
    if found.winnable is False and found.undo_to is not None:
        undos = len(snapshot.history) - 1 - found.undo_to
        return f"Lost: undo {counted(undos, 'action')} (u) to get back to a winnable position"
    if found.winnable is False:
        return "Lost: this deal cannot be won from its start · n for a new game"
    return f"No hint: {found.detail}"


@dataclass(slots=True)
class Solution:
    """The solver's line from a position, stepped through: ``positions[step]`` is shown."""

    moves: tuple[Move, ...]
    positions: list[Position]
    step: int = 0

    @classmethod
    def of(cls, start: Position, moves: tuple[Move, ...]) -> Solution:
        """The line ``moves`` from ``start``."""
        positions = [start]
        for move in moves:
            positions.append(positions[-1].apply(move))
        return cls(moves, positions)

    def go(self, step: int) -> Move | None:
        """Show step ``step`` (-1: the last); the move that comes next, if any."""
        total = len(self.moves)
        self.step = total if step < 0 else max(0, min(step, total))
        return self.moves[self.step] if self.step < total else None

    def text(self) -> str:
        """``Solution: step 3 of 80, next 7♥ from column 3 to cell a``."""
        total = len(self.moves)
        if self.step == total:
            return f"Solution: step {total} of {total}, won"
        nxt = describe(self.moves[self.step], self.positions[self.step])
        return f"Solution: step {self.step} of {total}, next {nxt}"


__all__ = ["Snapshot", "Solution", "hint_text"]
