"""Deterministic deals from a deal number, the two layouts, and PySolFC's deals.

The shuffle (same result on every platform and Python version: integers only,
no :mod:`random`):

1. Start from the ordered deck, card numbers 0–51 (A♠ … K♠, A♥ … K♥, A♦ … K♦, A♣ … K♣).
2. Seed a SplitMix64 generator with the deal number: ``state = number``; each
   draw does ``state = (state + 0x9E3779B97F4A7C15) mod 2**64``, then
   ``z = state; z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9 mod 2**64;
   z = (z ^ z >> 27) * 0x94D049BB133111EB mod 2**64; z ^ z >> 31``.
3. Fisher–Yates: for ``i`` from 51 down to 1, draw ``j`` uniform in ``0..i`` and
   swap cards ``i`` and ``j``. ``j`` is unbiased by rejection: redraw while the
   64-bit value ``x >= 2**64 - 2**64 % (i + 1)``, then ``j = x % (i + 1)``.

The result is the deck in dealing order (card 1 first). Deal numbers run from 0
to ``26**7 - 1`` (the seven letters of a game code; more than 2**32 deals).
Test vectors (first eight cards): deal 0 ``8C JD 9S 2C 2H QH 6C TS``, deal 1
``7H 9S 4H 8D 8H 5C JH 6H``, deal 130 ``6H TS 4H 9D 2D 7H QH 2S``.

Layouts (:func:`layout`):

* Eight Off: the first 48 cards row by row into 8 columns of 6 (card ``i`` goes to
  column ``i % 8``), the last 4 into the first 4 cells. With 4 cells those 4 fill
  every cell; with 2 cells cards 49–50 go to cells a–b and cards 51–52 to the
  exposed end of columns 3 and 4 (as the app rules deal them).
* Baker's Game: all 52 cards row by row, so the columns hold 7,7,7,7,6,6,6,6;
  every cell starts empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eightoff.cards import CARDS, Card, Suit
from eightoff.errors import EightOffError
from eightoff.position import COLUMNS, Position
from eightoff.rules import STANDARD, Layout, Rules

DEALS: Final = 26**7
"""How many deal numbers there are: 0 ≤ number < DEALS (8,031,810,176)."""

PYSOL_MAX: Final = DEALS
"""PySolFC deal numbers we accept: 1 ≤ number < PYSOL_MAX (they must fit a game code)."""

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


class InvalidDealError(EightOffError):
    """A deal number out of range, or a deck that is not 52 distinct cards."""


class SplitMix64:
    """Sebastiano Vigna's SplitMix64: 64-bit integer output, fully specified above."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit value."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def check_deal_number(number: int) -> int:
    """``number`` itself when it is a deal number; raises :class:`InvalidDealError`."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidDealError(f"a deal number is an integer, not {number!r}")
    if not 0 <= number < DEALS:
        raise InvalidDealError(f"deal number {number} is out of range 0-{DEALS - 1}")
    return number


def deal_cards(number: int) -> tuple[Card, ...]:
    """The 52 cards of deal ``number`` in dealing order (see the module docstring)."""
    check_deal_number(number)
    rng = SplitMix64(number)
    deck = list(CARDS)
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def layout(cards: Sequence[int], rules: Rules = STANDARD) -> Position:
    """Deal an ordered deck (card 1 first) under the rules' layout and cell count."""
    deck = tuple(CARDS[c] for c in cards)
    if len(deck) != 52 or len(set(deck)) != 52:
        raise InvalidDealError("a deal needs the 52 distinct cards")
    columns: list[list[Card]] = [[] for _ in range(COLUMNS)]
    if rules.layout is Layout.BAKERS:
        for i, card in enumerate(deck):
            columns[i % COLUMNS].append(card)
        return Position(columns, (), rules=rules)
    for i, card in enumerate(deck[:48]):
        columns[i % COLUMNS].append(card)
    spare = deck[48:]
    if rules.cells == 2:
        columns[2].append(spare[2])
        columns[3].append(spare[3])
        return Position(columns, spare[:2], rules=rules)
    return Position(columns, spare, rules=rules)


def deal(number: int, rules: Rules = STANDARD) -> Position:
    """The initial position of eightoff deal ``number`` under ``rules``."""
    return layout(deal_cards(number), rules)


def pysol_cards_order(number: int, rules: Rules = STANDARD) -> tuple[Card, ...]:
    """PySolFC's deal ``number`` as a deck in our dealing order.

    Uses PySolFC's Eight Off game (its Baker's Game for the Baker's layout). The
    four spare cards PySolFC puts in alternate cells come last, left to right.
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidDealError(f"a PySolFC deal number is an integer, not {number!r}")
    if not 1 <= number < PYSOL_MAX:
        raise InvalidDealError(f"PySolFC deal number {number} is out of range 1-{PYSOL_MAX - 1}")
    # Imported here: only PySolFC deals need the package.
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    game_id = "bakers_game" if rules.layout is Layout.BAKERS else "eight_off"
    game = Game(game_id, number, RandomBase.DEALS_PYSOLFC)
    game.deal()
    getattr(game, game.game_class)()  # builds game.board the way PySolFC lays it out
    cols = game.board.columns.cols
    order: list[Card] = []
    for row in range(max(len(c) for c in cols)):
        order.extend(_card(col[row]) for col in cols if row < len(col))
    if rules.layout is not Layout.BAKERS:
        order.extend(_card(c) for c in game.board.freecells if not c.empty)
    return tuple(order)


def pysol_deal(number: int, rules: Rules = STANDARD) -> Position:
    """PySolFC's deal ``number`` (1 ≤ number < 26**7) laid out under ``rules``."""
    return layout(pysol_cards_order(number, rules), rules)


_PYSOL_SUITS: Final = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)  # pysol's "CSHD"


def _card(pysol_card: object) -> Card:
    return Card.make(
        int(pysol_card.rank),  # type: ignore[attr-defined]
        _PYSOL_SUITS[pysol_card.suit],  # type: ignore[attr-defined]
    )


__all__ = [
    "DEALS",
    "PYSOL_MAX",
    "InvalidDealError",
    "SplitMix64",
    "check_deal_number",
    "deal",
    "deal_cards",
    "layout",
    "pysol_cards_order",
    "pysol_deal",
]
