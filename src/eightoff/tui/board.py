"""The board's widgets: a :class:`Pile` draws one column, cell or foundation pile.

A pile draws its reactives (cards, how many are lit, whether the cursor is on it, the
:class:`CardShape` the terminal's size allows) in the theme's colours (component
classes styled in ``eightoff.tcss``), and posts :class:`Pile.Picked` when clicked; it
knows no rule.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from typing import ClassVar, Final

from rich.color import Color as RichColor
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


CONTRAST: Final = 4.5
"""The least contrast of the red suits on a card and of an empty pile's mark on the
table (WCAG's for text), reached by darkening or lightening the theme's colour."""


def luminance(color: RichColor) -> float:
    """WCAG relative luminance of ``color`` (its truecolor)."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(one: RichColor, two: RichColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    a, b = sorted((luminance(one), luminance(two)))
    return (b + 0.05) / (a + 0.05)


def readable(
    ink: RichColor | None, back: RichColor | None, lightest: float = 0.0
) -> RichColor | None:
    """``ink``, darker or lighter (away from ``back``; its hue and saturation kept) until
    it reaches :data:`CONTRAST` on ``back``, or its lightness ``lightest`` when darkened.
    Colours a theme leaves to the terminal (ANSI, default) are kept as they are."""
    if ink is None or back is None or ink.triplet is None or back.triplet is None:
        return ink
    hue, light, saturation = colorsys.rgb_to_hls(*(c / 255 for c in ink.triplet))
    step = -0.02 if luminance(back) > luminance(ink) else 0.02
    mixed = ink
    while contrast(mixed, back) < CONTRAST and (
        light + step >= lightest if step < 0 else light < 1
    ):
        light = min(1.0, light + step)
        r, g, b = colorsys.hls_to_rgb(hue, light, saturation)
        mixed = RichColor.from_rgb(r * 255, g * 255, b * 255)
    return mixed


def card_colours(
    face: RichColor | None, red: RichColor | None
) -> tuple[RichColor | None, RichColor | None]:
    """A card's face and its red ink, :data:`CONTRAST` apart: the red darkened while it
    stays a red (also in 16 colours, apart from the black suits), then the face
    lightened, then the red darkened further if it must."""
    red = readable(red, face, lightest=RED_LIGHTEST)
    face = readable(face, red)
    return face, readable(red, face)


RED_LIGHTEST: Final = 0.3
"""How dark a red suit may be made before the card's face is lightened instead."""


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

    @classmethod
    def smallest_board(cls, across: int) -> Size:
        """The board's size with the smallest cards: the least room it needs (the
        layout :meth:`fitting` describes, columns of :data:`MIN_CARDS` cards)."""
        shape = cls()
        width = across * (shape.width + shape.gutter) + 2 * shape.gutter
        return Size(width, 1 + shape.pile_height(1) + shape.pile_height(MIN_CARDS))

    def card_at(self, row: int, cards: int) -> int:
        """Which of a pile's ``cards`` (0: the deepest) shows on ``row`` (0: the key
        line; rows past the last card's top are that card's)."""
        return max(0, min((row - 1) // self.step, cards - 1))

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
        """The player clicked a pile: on its top card or ``depth`` cards from the top."""

        def __init__(self, place: Place, depth: int = 1) -> None:
            super().__init__()
            self.place = place
            self.depth = depth

    class Grabbed(Message):
        """The mouse button went down on a pile, ``depth`` cards from the top (a drag
        may start here)."""

        def __init__(self, place: Place, depth: int) -> None:
            super().__init__()
            self.place = place
            self.depth = depth

    class Dropped(Message):
        """The mouse button came up on a pile (a drag may end here)."""

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
        face_colour, red_colour = card_colours(face_style.bgcolor, style("pile--red").color)
        face_style += Style(bgcolor=face_colour)
        red = Style(color=red_colour)
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
            back = self.background_colors[1].rich_color
            mark = Style(color=readable(style("pile--empty").color, back))
            for row in empty:
                lines.append("\n" + pad)
                lines.append(row, style=style("pile--empty") + mark)
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

    def _depth(self, row: int) -> int:
        # How many cards from the top the card drawn on ``row`` is (1: the top card).
        cards = len(self.cards)
        return cards - self.shape.card_at(row, cards) if cards else 1

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.place, self._depth(event.y)))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.post_message(self.Grabbed(self.place, self._depth(event.y)))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.post_message(self.Dropped(self.place))


__all__ = ["CardShape", "Pile", "contrast", "pile_cards", "pile_key", "readable"]
