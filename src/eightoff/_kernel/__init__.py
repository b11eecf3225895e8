"""The game kernel in C, the engine's bottom layer.

The C files here (positions, legal moves, applying moves, canonical keys, search
tables, replay; the move rules in ``rules.h``) are plain C11 with no Python in them:
``make kernel-test`` builds and tests them with a C compiler alone. Their CPython
binding, :mod:`eightoff._kernel._kernel`, gives the engine its fast replay of long
move lists and the tests the C legal moves; the solver's C core
(:mod:`eightoff.solver._native`) is built on the same files. ``native`` is ``None``
when the binding was not built (``EIGHTOFF_PURE=1``, no C compiler): the engine then
plays every move in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Final

from eightoff.moves import Move, PlaceKind
from eightoff.rules import OPTIONS, Build, EmptyColumn, GroupMoves, Rules

native: ModuleType | None
try:  # built at install time when a C compiler was there (see setup.py)
    from eightoff._kernel import _kernel as native
except ImportError:  # EIGHTOFF_PURE=1, or no compiler
    native = None

READ: Final = frozenset({"cells", "build", "empty_column", "group_moves", "take_back"})
"""The rule options the C move rules read; adding one to Rules without its C move
logic fails tests/test_native.py."""
DEAL_ONLY: Final = frozenset({"layout"})
"""The rule options that only change the deal, which reaches the C code as a position."""
GROUP: Final = {GroupMoves.SINGLE: 0, GroupMoves.CELLS: 1, GroupMoves.FREECELL: 2}
"""Group moves as the C rules number them (``core.h``)."""
KINDS: Final = (PlaceKind.COLUMN, PlaceKind.CELL, PlaceKind.FOUNDATION)
"""Place kinds in the C moves' order: COL, CELL, FOUND."""

EngineRules = tuple[int, int, int, int, bool]
State = tuple[tuple[bytes, ...], tuple[int, ...], tuple[int, int, int, int]]
Replayed = tuple[int, bytes, tuple[bytes, ...], tuple[int, ...], tuple[int, int, int, int]]


def engine_rules(rules: Rules) -> EngineRules | None:
    """The rules as the C legal moves read them: (cells, suit, kings only, group,
    take-back); ``None`` when the rules set an option the C rules do not play."""
    for option in OPTIONS:
        if option.name not in READ | DEAL_ONLY and getattr(rules, option.name) != option.default:
            return None
    return (
        rules.cells,
        int(rules.build is Build.SUIT),
        int(rules.empty_column is EmptyColumn.KINGS),
        GROUP[rules.group_moves],
        rules.take_back,
    )


def replay(
    rules: Rules,
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    moves: Sequence[Move],
) -> Replayed | None:
    """``moves`` played in turn in C from a state (columns as bytes, the cells in
    place as a card or -1 each, the foundations) while each is one of the engine's
    legal moves: how many were, the card each carried, and the state reached.
    ``None`` without the binding, or for rules the C rules do not play."""
    engine = engine_rules(rules)
    if native is None or engine is None:
        return None
    found: Replayed = native.replay(cols, cells, founds, engine, moves, KINDS)
    return found
