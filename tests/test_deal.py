"""Deals: the documented shuffle, its test vectors, both layouts, cell counts, PySolFC deals."""

from __future__ import annotations

import pytest

from eightoff.cards import CARDS, Card
from eightoff.deal import (
    DEALS,
    InvalidDealError,
    SplitMix64,
    deal,
    deal_cards,
    layout,
    pysol_cards_order,
    pysol_deal,
)
from eightoff.rules import STANDARD, Layout, preset


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_text(t) for t in text.split())


def test_splitmix64_reference_vector() -> None:
    # Published first outputs of SplitMix64 seeded with 0.
    rng = SplitMix64(0)
    assert rng.next() == 0xE220A8397B1DCDAF
    assert rng.next() == 0x6E789E6AA1B965F4


def test_below_is_in_range() -> None:
    rng = SplitMix64(7)
    assert {rng.below(3) for _ in range(200)} == {0, 1, 2}


@pytest.mark.parametrize(
    ("number", "first"),
    [
        (0, "8C JD 9S 2C 2H QH 6C TS"),
        (1, "7H 9S 4H 8D 8H 5C JH 6H"),
        (130, "6H TS 4H 9D 2D 7H QH 2S"),
        (2**32, "AD 4D KS QS 8H AC 3D QC"),
        (DEALS - 1, "6C 5C JD 4H 4C 2C AS 7H"),
    ],
)
def test_deal_vectors(number: int, first: str) -> None:
    assert deal_cards(number)[:8] == cards(first)


def test_deals_are_permutations_and_differ() -> None:
    seen = set()
    for n in range(50):
        order = deal_cards(n)
        assert sorted(order) == list(range(52))
        seen.add(order)
    assert len(seen) == 50


@pytest.mark.parametrize("number", [-1, DEALS, 2**64])
def test_deal_number_out_of_range(number: int) -> None:
    with pytest.raises(InvalidDealError, match="out of range"):
        deal_cards(number)


def test_eight_off_layout_8_cells() -> None:
    order = deal_cards(130)
    pos = deal(130)
    assert all(len(col) == 6 for col in pos.columns)
    assert pos.columns[0] == order[0:48:8]
    assert pos.columns[7][-1] == order[47]
    assert pos.cells == order[48:52] + (None,) * 4
    assert pos.foundations == (0, 0, 0, 0)


def test_eight_off_layout_4_cells() -> None:
    order = deal_cards(5)
    pos = deal(5, STANDARD.with_options(cells=4))
    assert pos.cells == order[48:52]
    assert pos.free_cells == 0


def test_eight_off_layout_2_cells() -> None:
    # The app rules: both cells full, the other two spare cards at the exposed end of columns 3, 4.
    order = deal_cards(9)
    pos = deal(9, STANDARD.with_options(cells=2))
    assert pos.cells == order[48:50]
    assert [len(c) for c in pos.columns] == [6, 6, 7, 7, 6, 6, 6, 6]
    assert pos.columns[2][-1] == order[50]
    assert pos.columns[3][-1] == order[51]
    assert pos.columns[2][:6] == order[2:48:8]


def test_bakers_layout() -> None:
    order = deal_cards(11)
    pos = deal(11, preset("bakers"))
    assert [len(c) for c in pos.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert pos.cells == (None,) * 4
    assert pos.columns[0] == order[0:52:8]
    assert pos.columns[3][-1] == order[51]


def test_layout_rejects_a_bad_deck() -> None:
    with pytest.raises(InvalidDealError, match="52 distinct"):
        layout(list(CARDS[:51]) + [CARDS[0]])


def test_pysol_deal_1_matches_pysolfc() -> None:
    # PySolFC Eight Off #1: its cells hold 6S - 9C - 2H - 6H -; we use the first four.
    pos = pysol_deal(1)
    assert pos.columns[0] == cards("JD KD 2S 4C 3S 6D")
    assert pos.columns[7] == cards("5H 3H 3C 7S 7D TC")
    assert pos.cells == cards("6S 9C 2H 6H") + (None,) * 4


def test_pysol_deal_bakers_and_two_cells() -> None:
    bakers = pysol_deal(1, preset("bakers"))
    assert bakers.rules.layout is Layout.BAKERS
    assert bakers.columns[0] == cards("JD KD 2S 4C 3S 6D 6S")
    assert bakers.columns[3] == cards("JC 5S QD QH TH QS 6H")
    two = pysol_deal(1, STANDARD.with_options(cells=2))
    assert two.cells == cards("6S 9C")
    assert two.columns[2][-1] == Card.from_text("2H")
    assert two.columns[3][-1] == Card.from_text("6H")
    assert pysol_cards_order(1)[48:] == cards("6S 9C 2H 6H")


@pytest.mark.parametrize("number", [0, -5, DEALS])
def test_pysol_deal_out_of_range(number: int) -> None:
    with pytest.raises(InvalidDealError, match="PySolFC deal number"):
        pysol_deal(number)
