"""The shuffle is uniform: where each card lands, and how alike consecutive deals are.

Chi-square tests over deals 1-10,000, numbered as the surveys number them. The deals
are fixed, so the statistics are fixed numbers and the tests deterministic; each test is
also run on a known-bad shuffle to show that it can fail. docs/atlas.md quotes the same
statistics over the million deals of the standard survey.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import pairwise

import pytest

from eightoff.deal import SplitMix64, deal_cards

N = 10_000
Z_LIMIT = 4.0  # one-sided, p ≈ 3e-5


def chi2_z(stat: float, dof: int) -> float:
    """The chi-square statistic as a standard normal deviate (Wilson-Hilferty)."""
    v = 2 / (9 * dof)
    return ((stat / dof) ** (1 / 3) - (1 - v)) / math.sqrt(v)


def position_z(decks: Sequence[Sequence[int]]) -> float:
    """Chi-square of the 52 × 52 table card × position against a uniform shuffle."""
    counts = [[0] * 52 for _ in range(52)]
    for deck in decks:
        for position, card in enumerate(deck):
            counts[card][position] += 1
    expected = len(decks) / 52
    stat = sum((o - expected) ** 2 / expected for row in counts for o in row)
    return chi2_z(stat, 51 * 51)


def matches_z(decks: Sequence[Sequence[int]]) -> float:
    """Chi-square of how many positions consecutive deals share a card in (0, 1, 2, 3, 4+):
    Poisson(1) for independent uniform deals (the fixed points of a random permutation)."""
    bins = [0] * 5
    for a, b in pairwise(decks):
        bins[min(sum(x == y for x, y in zip(a, b, strict=True)), 4)] += 1
    p = [math.exp(-1) / math.factorial(k) for k in range(4)]
    p.append(1 - sum(p))
    n = len(decks) - 1
    stat = sum((o - n * q) ** 2 / (n * q) for o, q in zip(bins, p, strict=True))
    return chi2_z(stat, 4)


def shuffled(number: int, draw: Callable[[int, int], int]) -> list[int]:
    """Fisher-Yates as :func:`deal_cards` does it, with ``draw(rng_value, i)`` picking j."""
    rng = SplitMix64(number)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = draw(rng.next(), i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.fixture(scope="module")
def decks() -> list[tuple[int, ...]]:
    return [deal_cards(n) for n in range(1, N + 1)]


def test_each_card_lands_anywhere_alike(decks: list[tuple[int, ...]]) -> None:
    assert abs(position_z(decks)) < Z_LIMIT


def test_consecutive_deals_are_independent(decks: list[tuple[int, ...]]) -> None:
    assert abs(matches_z(decks)) < Z_LIMIT


def test_the_position_test_catches_an_off_by_one_shuffle() -> None:
    # Sattolo's mistake (j below i, not up to i): no card ever stays where it was.
    decks = [shuffled(n, lambda x, i: x % i) for n in range(1, N + 1)]
    assert position_z(decks) > 10 * Z_LIMIT


def test_the_match_test_catches_a_seed_without_mixing() -> None:
    # SplitMix64's counter without its output mix: neighbouring seeds give neighbouring
    # draws, so neighbouring deals look alike.
    def raw(number: int) -> list[int]:
        deck = list(range(52))
        state = number
        for i in range(51, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) % 2**64
            j = state % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    decks = [raw(n) for n in range(1, N + 1)]
    assert matches_z(decks) > 10 * Z_LIMIT
