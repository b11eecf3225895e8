"""The board's widgets: a :class:`Pile` draws one column, cell or foundation pile.

A pile draws its reactives (cards, how many are lit, whether the cursor is on it, the
:class:`CardShape` the terminal's size allows) in the theme's colours (component
classes styled in ``eightoff.tcss``), and posts :class:`Pile.Picked` when clicked; it
knows no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from eightoff.cards import SUIT_SYMBOLS, Card
from eightoff.moves import CELL_LETTERS, Place, PlaceKind
from eightoff.position import Position


def pile_key(place: Place) -> str:
    """The key that picks ``place``: ``3``, ``a``, or ``0`` for a foundation."""
    if place.kind is PlaceKind.COLUMN:
        return str(place.index + 1)
    if place.kind is PlaceKind.CELL:
        return CELL_LETTERS[place.index]
    return "0"


def pile_cards(place: Place, position: Position) -> tuple[Card, ...]:
    """The cards ``place`` shows in ``position``: a column's, else its top card (if any)."""
    if place.kind is PlaceKind.COLUMN:
        return position.columns[place.index]
    top = position.top(place)
    return () if top is None else (top,)


CARD_ASPECT: Final = 0.7
"""Rows per column of a card's face: a card is 1.4 times as tall as wide, a terminal
cell about twice as tall as wide."""
EDGE: Final = "▁"
"""Draws the lower edge of a card the next one covers."""
MAX_WIDTH: Final = 11
MIN_CARDS: Final = 8
"""Columns are given room for at least this many cards, so the board keeps its size in
the first moves."""


@dataclass(frozen=True, slots=True)
class CardShape:
    """How big the board draws cards.

    ``width`` columns per pile (the face is two narrower, so a pile's cue colour shows
    around it), ``gutter`` columns between piles, ``height`` rows of a whole card and
    ``step`` rows of a card that the next one in its column covers.
    """

    width: int = 5
    gutter: int = 1
    height: int = 1
    step: int = 1

    @property
    def face(self) -> int:
        """Columns of a card's face."""
        return self.width - 2

    def pile_height(self, cards: int) -> int:
        """Rows of a pile of ``cards`` (an empty one shows a card's place), key on top."""
        return 1 + (max(cards, 1) - 1) * self.step + self.height

    @classmethod
    def fitting(cls, width: int, height: int, *, across: int, longest: int) -> CardShape:
        """The biggest cards that fit ``width`` × ``height`` cells: ``across`` piles in
        the widest row (plus a gap of two gutters), a top row of single cards and a row
        of columns as long as ``longest`` (at least :data:`MIN_CARDS`), one key line
        over each and a blank line between the rows. Cards taller than two rows are
        fanned two rows apart."""
        gutter = 2
        pile = min(MAX_WIDTH, (width - 2 * gutter) // across - gutter)
        if pile < 7:
            gutter = 1
            pile = max(5, (width - 2 * gutter) // across - gutter)
        tallest = max(1, round(CARD_ASPECT * (pile - 2)))
        cards = max(longest, MIN_CARDS)
        for tall in range(tallest, 0, -1):
            # A tall card under a fan of one-row cards looks out of place: tall cards
            # come with two-row steps.
            for step in range(min(2, tall), 0 if tall <= 2 else 1, -1):
                shape = cls(pile, gutter, tall, step)
                if 1 + shape.pile_height(1) + shape.pile_height(cards) <= height:
                    return shape
        return cls(pile, gutter)

    def card_lines(self, card: Card, covered: bool) -> list[str]:
        """The rows of ``card``'s face: its first :attr:`step` when the next card covers
        it, the last of them its lower edge. The rank and suit at the top left and the
        bottom right, the suit in the middle; one row: the rank and suit centred."""
        face = self.face
        symbol = card.symbol()
        if self.height == 1:
            return [symbol.rjust(3).center(face)]
        lines = [" " * face] * self.height
        lines[0] = symbol.ljust(face)
        if covered:
            return [*lines[: self.step - 1], EDGE * face] if self.step > 1 else lines[:1]
        lines[-1] = symbol.rjust(face)
        if self.height >= 3:
            lines[self.height // 2] = SUIT_SYMBOLS[card.suit].center(face)
        return lines


class Pile(Widget):
    """One pile: its key (or suit) on top, then its cards fanned downwards."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "pile--label",
        "pile--card",
        "pile--red",
        "pile--lit",
        "pile--empty",
        "pile--cursor",
    }

    cards: reactive[tuple[Card, ...]] = reactive((), layout=True)
    lit: reactive[int] = reactive(0)
    """How many of the last cards are picked up (lit)."""
    cursor: reactive[bool] = reactive(False)
    """Whether the keyboard cursor is on this pile."""
    shape: reactive[CardShape] = reactive(CardShape(), layout=True)
    """How big the cards are drawn (the app fits them to the terminal)."""

    class Picked(Message):
        """The player clicked a pile."""

        def __init__(self, place: Place) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: Place, *, id: str) -> None:
        super().__init__(id=id, classes=f"pile {place.kind.value}")
        self.place = place
        if place.kind is PlaceKind.FOUNDATION:
            self.label = SUIT_SYMBOLS[place.index]
        else:
            self.label = pile_key(place)

    def watch_shape(self, shape: CardShape) -> None:
        self.styles.width = shape.width
        self.styles.margin = (0, shape.gutter, 0, 0)

    def render(self) -> Text:
        shape = self.shape
        width = shape.width
        pad = " "
        style = self.get_component_rich_style
        face_style = style("pile--card")
        red = Style(color=style("pile--red").color)
        lit = Style(reverse=style("pile--lit").reverse)
        label = f"▸{self.label}◂" if self.cursor else self.label
        lines = Text(no_wrap=True, overflow="crop")
        lines.append(
            label.center(width), style=style("pile--cursor" if self.cursor else "pile--label")
        )
        cards = self.cards
        if not cards:
            empty = [" " * shape.face] * shape.height
            empty[shape.height // 2] = "·".center(shape.face)
            for row in empty:
                lines.append("\n" + pad)
                lines.append(row, style=style("pile--empty"))
        first_lit = len(cards) - self.lit
        last = len(cards) - 1
        for n, card in enumerate(cards):
            card_style = face_style + lit if n >= first_lit else face_style
            ink = card_style + red if card.is_red else card_style
            for row in shape.card_lines(card, covered=n < last):
                lines.append("\n" + pad)
                lines.append(row, style=card_style if row[0] == EDGE else ink)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.shape.pile_height(len(self.cards))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.place))


__all__ = ["CardShape", "Pile", "pile_cards", "pile_key"]
