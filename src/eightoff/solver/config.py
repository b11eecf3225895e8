"""The rules as the C core's searches play them: the :class:`Config` record its binding
reads field by field (:func:`eightoff.solver.core.config` makes one from a rule set)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Config:
    """The rules as the C core's searches play them, and its heuristic's weights
    (``native/core.h`` Config, read field by field by name): :func:`config` makes one."""

    cells: int
    """Free cells: 0 to 8."""
    suit: bool
    """Columns build down in suit (else in alternating colours)."""
    kings_only: bool
    """Only a King (or a run it heads) may fill an empty column."""
    group: int
    """Group moves: 0 single card, 1 free cells + 1, 2 the FreeCell formula, 3 single
    cards and no digging macro (optimal mode's single-card moves)."""
    take_back: bool
    """Cards may come back from a foundation."""
    autoplay: int
    """Automatic foundation moves: AUTO_NONE, AUTO_ALL, AUTO_SAFE, or 3 (the proof's
    refined safe rule)."""
    dig: bool
    """The search may dig a column's run out card by card in one step."""
    weight: float
    """Best-first's f = g + weight * h."""
    inv_weight: float
    """h: per card above a lower card of its suit."""
    cell_weight: float
    """h: per card in a cell."""
    cover_weight: float
    """h: per card over its suit's next card."""
