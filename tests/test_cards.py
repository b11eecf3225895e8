"""Cards: numbering, text forms and errors."""

import pytest

from eightoff.cards import CARDS, Card, InvalidCardError, Suit


def test_numbering_is_suit_then_rank() -> None:
    assert Card.make(1, Suit.SPADES) == 0
    assert Card.make(13, Suit.CLUBS) == 51
    assert Card.from_text("7H").rank == 7
    assert Card.from_text("7H").suit is Suit.HEARTS


@pytest.mark.parametrize("text", ["TH", "10H", "10h", "th", "10♥", "♥10"])
def test_ten_of_hearts_forms(text: str) -> None:
    card = Card.from_text(text)
    assert card == Card.make(10, Suit.HEARTS)
    assert str(card) == "TH"
    assert card.text(ten="10") == "10H"
    assert card.symbol() == "10♥"


def test_every_card_round_trips() -> None:
    for card in CARDS:
        assert Card.from_text(str(card)) is card
        assert Card.from_text(card.symbol()) is card


@pytest.mark.parametrize("text", ["", "7", "7X", "1H", "11H", "ZZ", "0S"])
def test_bad_cards_say_what_is_wrong(text: str) -> None:
    with pytest.raises(InvalidCardError, match="card"):
        Card.from_text(text)


def test_colours() -> None:
    assert Card.from_text("AH").is_red and Card.from_text("KD").is_red
    assert not Card.from_text("AS").is_red and not Card.from_text("KC").is_red
