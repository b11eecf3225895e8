"""The terminal game's moves and cards in words: ``Played 9♥ 8♥ 7♥ from column 1 to
column 2``. Read from the engine's positions; no rule here."""

from __future__ import annotations

from collections.abc import Sequence

from eightoff.cards import Card
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.view import target_pile


def run_name(cards: Sequence[Card]) -> str:
    """``cards`` in words: each of up to four, else the first and the last."""
    if len(cards) <= 4:
        return " ".join(card.symbol() for card in cards)
    return f"{cards[0].symbol()}…{cards[-1].symbol()} ({len(cards)} cards)"


def cards_name(move: Move, position: Position) -> str:
    """``K♠``, ``9♥ 8♥ 7♥``, or ``9♥…4♥ (6 cards)``: what ``move`` carries in
    ``position``, the deepest card first."""
    return run_name(position.moving_cards(move))


def describe(move: Move, position: Position) -> str:
    """``7♥ from column 3 to cell a``: a move in words, read in ``position``."""
    target = target_pile(position, move)
    return f"{cards_name(move, position)} from {move.source.name()} to {target.name()}"


def counted(n: int, noun: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {noun}{'s' if n != 1 else ''}"


def capital(text: str) -> str:
    """``text`` with its first letter a capital."""
    return text[:1].upper() + text[1:]


__all__ = ["capital", "cards_name", "counted", "describe", "run_name"]
