"""The rules of one move, in the engine's words: where a card may go
(:func:`builds_on`, :func:`goes_home`, :func:`fills_empty`), and :func:`why_not`, the
one check behind :meth:`Position.illegality <eightoff.position.Position.illegality>`
and its :class:`~eightoff.position.Board` (a reason code and words, or ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eightoff.cards import CARDS, KING, SUIT_SYMBOLS, Card
from eightoff.errors import Illegal
from eightoff.moves import ANY_SUIT, Move, Place, PlaceKind
from eightoff.rules import Build, EmptyColumn, GroupMoves, Rules

COLUMNS: Final = 8


def builds_on(card: int, onto: int, build: Build) -> bool:
    """Whether ``card`` may lie on ``onto`` in a column under ``build``."""
    # Cards are ints suit*13+rank-1, so "one rank lower" is a difference of 1 within a suit.
    if onto % 13 != card % 13 + 1:
        return False
    if build is Build.SUIT:
        return onto // 13 == card // 13
    return (13 <= card < 39) != (13 <= onto < 39)  # red iff hearts or diamonds


def goes_home(card: int, foundations: Sequence[int]) -> bool:
    """Whether ``card`` is the next card its foundation takes."""
    return foundations[card // 13] == card % 13


def fills_empty(card: int, rules: Rules) -> bool:
    """Whether ``card``, alone or heading a run, may go to an empty column."""
    return rules.empty_column is EmptyColumn.ANY or card % 13 == KING - 1


def why_not(
    rules: Rules,
    columns: Sequence[Sequence[Card]],
    cells: Sequence[Card | None],
    founds: Sequence[int],
    move: Move,
) -> tuple[Illegal, str] | None:
    """The rules of one move: why ``move`` may not be played, or ``None`` when it may.

    The one check behind :meth:`Position.illegality` and :class:`Board` (plain
    sequences, so a long replay builds no position per move).
    """
    src, dst, count = move.source, move.target, move.count
    if count < 1:
        return Illegal.NO_CARD, "a move carries at least one card"
    skind, si, dkind, di = src.kind, src.index, dst.kind, dst.index
    # Places these rules have (a quick test; _place_error words the problem).
    size = COLUMNS if skind is PlaceKind.COLUMN else len(cells) if skind is PlaceKind.CELL else 4
    if dkind is PlaceKind.FOUNDATION:
        known = di == ANY_SUIT
    else:
        known = 0 <= di < (COLUMNS if dkind is PlaceKind.COLUMN else len(cells))
    if not (known and 0 <= si < size):
        where = _place_error(src, rules, as_source=True) or _place_error(
            dst, rules, as_source=False
        )
        if where:
            return Illegal.NO_SUCH_PLACE, where
    if src == dst:
        return Illegal.SAME_PLACE, "source and target are the same place"
    if skind is PlaceKind.COLUMN:
        col = columns[si]
        if not col:
            return Illegal.EMPTY_SOURCE, f"{src.name()} is empty"
        if count > len(col):
            s = "s" if len(col) != 1 else ""
            return Illegal.TOO_FEW_CARDS, f"{src.name()} holds only {len(col)} card{s}"
        head = col[-count]
        build = rules.build
        run = 1
        while run < count and builds_on(col[-run], col[-run - 1], build):
            run += 1
        if run < count:
            lower, upper = col[-run], col[-run - 1]
            return (
                Illegal.NOT_A_RUN,
                f"the {count} cards from {head.symbol()} down are not a run: "
                f"{lower.symbol()} does not go on {upper.symbol()}",
            )
    else:
        if skind is PlaceKind.FOUNDATION and not rules.take_back:
            return (
                Illegal.NO_TAKE_BACK,
                "cards cannot be taken back from a foundation under these rules",
            )
        held = cells[si] if skind is PlaceKind.CELL else _foundation_top(founds, si)
        if held is None:
            return Illegal.EMPTY_SOURCE, f"{src.name()} is empty"
        if count > 1:
            return Illegal.ONE_AT_A_TIME, f"only one card at a time moves from {src.name()}"
        head = held
    if dkind is PlaceKind.FOUNDATION:
        if count > 1:
            return Illegal.ONE_AT_A_TIME, "one card at a time goes to a foundation"
        if skind is PlaceKind.FOUNDATION:
            return Illegal.SAME_PLACE, "a foundation card cannot move to a foundation"
        if not goes_home(head, founds):
            suit = SUIT_SYMBOLS[head // 13]
            have = founds[head // 13]
            if have > head % 13:
                return Illegal.NOT_NEXT, f"{head.symbol()} is already on the {suit} foundation"
            need = CARDS[head // 13 * 13 + have]
            return (
                Illegal.NOT_NEXT,
                f"{head.symbol()} cannot go to the foundation: needs {need.symbol()} first",
            )
        return None
    if dkind is PlaceKind.CELL:
        if count > 1:
            return Illegal.ONE_AT_A_TIME, "a cell holds one card"
        if skind is PlaceKind.CELL:
            return Illegal.CELL_TO_CELL, "a card in a cell cannot move to another cell"
        taken = cells[di]
        if taken is not None:
            return Illegal.CELL_FULL, f"{dst.name()} already holds {taken.symbol()}"
        return None
    # Target is a column.
    target_col = columns[di]
    if target_col:
        onto = target_col[-1]
        if not builds_on(head, onto, rules.build):
            return (
                Illegal.DOES_NOT_BUILD,
                f"{head.symbol()} cannot go on {onto.symbol()}: {_wanted(head, rules)}",
            )
    else:
        if not fills_empty(head, rules):
            return (
                Illegal.KINGS_ONLY,
                f"only a King can go to an empty column, not {head.symbol()}",
            )
        if skind is PlaceKind.COLUMN and count == len(columns[si]):
            return (
                Illegal.WHOLE_COLUMN,
                "moving a whole column into an empty column changes nothing",
            )
    if count > 1:
        if rules.group_moves is GroupMoves.SINGLE:
            return Illegal.SINGLE_MOVES, "these rules move one card at a time"
        empty = sum(1 for c in columns if not c) - (0 if target_col else 1)
        cap = rules.max_run(cells.count(None), empty)
        if count > cap:
            return (
                Illegal.NO_ROOM,
                f"a run of {count} cards needs more room: at most {cap} can move now",
            )
    return None


def _foundation_top(founds: Sequence[int], suit: int) -> Card | None:
    return CARDS[suit * 13 + founds[suit] - 1] if founds[suit] else None


def _place_error(place: Place, rules: Rules, *, as_source: bool) -> str | None:
    kind, i = place.kind, place.index
    if kind is PlaceKind.FOUNDATION:
        if as_source and not 0 <= i < 4:
            return "a move from a foundation must name its suit"
        if not as_source and i != ANY_SUIT:
            # Targets are always FOUNDATION, as legal_moves lists them.
            return "a move to a foundation names no suit: the card's suit decides"
        return None
    if kind is PlaceKind.COLUMN and not 0 <= i < COLUMNS:
        return f"there is no column {i + 1}: columns are 1-8"
    if kind is PlaceKind.CELL and not 0 <= i < rules.cells:
        return f"there is no cell {i + 1}: these rules have {rules.cells} cells"
    return None


def _wanted(card: Card, rules: Rules) -> str:
    """What ``card`` needs to lie on, e.g. ``needs 9♣`` or ``needs a red 9``."""
    if card.rank == KING:
        return "a King goes on no card, only to an empty column"
    above = CARDS[card + 1]  # the same suit, one rank higher
    if rules.build is Build.SUIT:
        return "needs " + above.symbol()
    return f"needs a {'black' if card.is_red else 'red'} {above.symbol()[:-1]}"


__all__ = ["COLUMNS", "builds_on", "fills_empty", "goes_home", "why_not"]
