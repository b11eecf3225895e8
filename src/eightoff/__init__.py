"""Eight Off solitaire: rules engine, solver, web game and surveys."""

from eightoff.cards import CARDS, Card, InvalidCardError, Suit
from eightoff.moves import IllegalMoveError, InvalidMoveError, Move, Place, PlaceKind
from eightoff.position import InvalidPositionError, Position
from eightoff.rules import PRESETS, STANDARD, InvalidRulesError, Rules, preset

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "PRESETS",
    "STANDARD",
    "Card",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "Move",
    "Place",
    "PlaceKind",
    "Position",
    "Rules",
    "Suit",
    "preset",
]
