"""Cards, suits and ranks, with text forms that round-trip.

A card is an ``int`` from 0 to 51 (``suit * 13 + rank - 1``), wrapped in the
:class:`Card` subclass so it prints as ``7H``. Keeping cards ints makes
positions cheap to hash and compare, which the solver relies on.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from eightoff.errors import InvalidCardError as InvalidCardError
from eightoff.numbers import excerpt


class Suit(IntEnum):
    """The four suits in foundation order, left to right: ♠ ♥ ♦ ♣."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """One-letter form: ``S``, ``H``, ``D`` or ``C``."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """Unicode suit symbol."""
        return SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def from_text(cls, text: str) -> Suit:
        """Read ``S``/``H``/``D``/``C`` (any case) or a suit symbol."""
        t = text.strip().upper()
        if t in SUIT_LETTERS:
            return cls(SUIT_LETTERS.index(t))
        for i, symbols in enumerate(_SUIT_SYMBOL_ALIASES):
            if t in symbols:
                return cls(i)
        raise InvalidCardError(f"unknown suit {excerpt(text)}: expected one of S, H, D, C")


SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
_SUIT_SYMBOL_ALIASES: Final = ("♠♤", "♥♡", "♦♢", "♣♧")
RANK_LETTERS: Final = "A23456789TJQK"
RANK_NAMES: Final = (
    "ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "jack",
    "queen",
    "king",
)
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
ACE: Final = 1
KING: Final = 13


def parse_rank(text: str) -> int:
    """Read a rank: ``A``, ``2``–``9``, ``T`` or ``10``, ``J``, ``Q``, ``K`` (any case)."""
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_LETTERS:
        return RANK_LETTERS.index(t) + 1
    raise InvalidCardError(f"unknown rank {excerpt(text)}: expected A, 2-9, T or 10, J, Q, K")


class Card(int):
    """One of the 52 cards; an int ``suit * 13 + rank - 1``.

    Use the shared instances in :data:`CARDS` (``CARDS[n]``) or
    :meth:`Card.from_text`; ``str(card)`` gives ``7H``/``TH``.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise InvalidCardError(f"card number {value} is out of range 0-51")
        return super().__new__(cls, value)

    @classmethod
    def make(cls, rank: int, suit: Suit | int) -> Card:
        """The card of ``rank`` (1–13) and ``suit``."""
        if not ACE <= rank <= KING:
            raise InvalidCardError(f"rank {rank} is out of range 1-13")
        return CARDS[int(suit) * 13 + rank - 1]

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Read ``7H``, ``TH``, ``10h``, ``7♥`` or ``♥7``."""
        t = text.strip()
        if len(t) < 2:
            raise InvalidCardError(
                f"cannot read card {excerpt(text)}: expected rank then suit, like 7H"
            )
        try:
            if t[0] in SUIT_SYMBOLS or t[0] in "♤♡♢♧":
                return cls.make(parse_rank(t[1:]), Suit.from_text(t[0]))
            return cls.make(parse_rank(t[:-1]), Suit.from_text(t[-1]))
        except InvalidCardError as exc:
            raise InvalidCardError(f"cannot read card {excerpt(text)}: {exc}") from None

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king)."""
        return self % 13 + 1

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self // 13)

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds."""
        return 13 <= self < 39

    def text(self, *, ten: str = "T") -> str:
        """``7H``; ``ten="10"`` writes tens as ``10H``."""
        r = self % 13
        rank = ten if r == 9 else RANK_LETTERS[r]
        return rank + SUIT_LETTERS[self // 13]

    def symbol(self) -> str:
        """``7♥``, ``10♠``."""
        r = self % 13
        return ("10" if r == 9 else RANK_LETTERS[r]) + SUIT_SYMBOLS[self // 13]

    def name(self) -> str:
        """``7 of hearts``, ``king of spades``."""
        return f"{RANK_NAMES[self % 13]} of {SUIT_NAMES[self // 13]}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Card.from_text({self.text()!r})"


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
"""The 52 shared card instances, indexed by card number."""
