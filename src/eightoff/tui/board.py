"""The board's widgets: a :class:`Pile` draws one column, cell or foundation pile.

A pile draws its reactives (cards, how many are lit, whether the cursor is on it) in
the theme's colours (component classes styled in ``eightoff.tcss``) at the width the
stylesheet gives it, and posts :class:`Pile.Picked` when clicked; it knows no rule.
"""

from __future__ import annotations

from typing import ClassVar

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

    def render(self) -> Text:
        width = max(self.size.width, 3)
        face = width - 2 if width >= 5 else width
        pad = " " * ((width - face) // 2)
        style = self.get_component_rich_style
        face_style = style("pile--card")
        red = Style(color=style("pile--red").color)
        lit = style("pile--lit")
        lit = Style(color=lit.color, bgcolor=lit.bgcolor)
        label = f"▸{self.label}◂" if self.cursor else self.label
        lines = Text(no_wrap=True, overflow="crop")
        lines.append(
            label.center(width), style=style("pile--cursor" if self.cursor else "pile--label")
        )
        cards = self.cards
        if not cards:
            lines.append("\n" + pad)
            lines.append("·".center(face), style=style("pile--empty"))
        first_lit = len(cards) - self.lit
        for n, card in enumerate(cards):
            card_style = face_style
            if n >= first_lit:
                card_style += lit
            if card.is_red:
                card_style += red
            lines.append("\n" + pad)
            lines.append(card.symbol().rjust(3).center(face), style=card_style)
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 + max(1, len(self.cards))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.place))


__all__ = ["Pile", "pile_cards", "pile_key"]
