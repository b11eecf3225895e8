"""What a face shows of a game in progress, answered once by the engine: :class:`GameView`.

``Game.view()`` returns one immutable value holding everything the web page and the
terminal game ask about the current state: the position, status, score, legal moves,
for each pile holding a card its single-tap (home) move, smart move and legal targets,
the finishing line when one exists and the autoplay moves that would follow. It is
computed from one listing of the legal moves; a face reads it and keeps no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from eightoff.moves import Move, Place, PlaceKind, foundation
from eightoff.position import Position

if TYPE_CHECKING:
    from collections.abc import Mapping


class Status(StrEnum):
    """Where a game stands (:class:`eightoff.game.Game` re-exports it)."""

    PLAYING = "playing"
    WON = "won"
    STUCK = "stuck"  # no legal move left (undo is still possible)


@dataclass(frozen=True, slots=True)
class PileView:
    """One pile holding a card that may be picked up: what each gesture on it plays."""

    place: Place
    home: Move | None
    """The single tap: its card to the foundation, when allowed."""
    smart: Move | None
    """The double tap: the smart move (see :func:`eightoff.game.smart_move`)."""
    moves: tuple[Move, ...]
    """Every legal move from this pile, in ``legal_moves`` order."""
    targets: tuple[Place, ...]
    """The piles those moves go to (a foundation as its suit's pile), without repeats."""


@dataclass(frozen=True, slots=True)
class GameView:
    """Everything a face shows about one state of a game (see the module docstring)."""

    position: Position
    status: Status
    score: int
    legal_moves: tuple[Move, ...]
    piles: Mapping[Place, PileView]
    """Per pile holding a card (columns left to right, then cells): its gestures."""
    finish: tuple[Move, ...] | None
    """Foundation moves that take every remaining card home from here, if there are
    (``None`` when some card must first move elsewhere, and once the game is won)."""
    autoplay: tuple[Move, ...]
    """The safe foundation moves autoplay would play now (none right after a take-back)."""

    def pile(self, place: Place) -> PileView | None:
        """The gestures of the pile at ``place``; ``None`` when it holds no card."""
        return self.piles.get(place)

    def targets(self, source: Place) -> tuple[Place, ...]:
        """The piles a card (or run) from ``source`` may go to now."""
        pile = self.piles.get(source)
        return () if pile is None else pile.targets

    def move_to(self, source: Place, target: Place) -> Move | None:
        """The legal move from ``source`` to ``target`` (the longest run when several may
        go, as a drag of the run would), or ``None``. ``target`` may be the foundation
        (:data:`~eightoff.moves.FOUNDATION`) or its suit's pile."""
        pile = self.piles.get(source)
        if pile is None:
            return None
        fitting = [m for m in pile.moves if m.target == target or self.target_pile(m) == target]
        return max(fitting, key=lambda m: m.count) if fitting else None

    def target_pile(self, move: Move) -> Place:
        """Where ``move`` lands in this position: a foundation target as its suit's pile."""
        return target_pile(self.position, move)


def target_pile(position: Position, move: Move) -> Place:
    """Where ``move`` lands in ``position``: the foundation of the moving card's suit for a
    move home, else its target."""
    if move.target.kind is PlaceKind.FOUNDATION:
        cards = position.moving_cards(move)
        if cards:
            return foundation(cards[0] // 13)
    return move.target


__all__ = ["GameView", "PileView", "Status", "target_pile"]
