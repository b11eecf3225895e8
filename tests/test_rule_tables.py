"""The move rules, as tables over every card pair and every rule option, from the rule books.

The expectations are written here from docs/rules.md, on card text alone (rank and
suit letters, which suits are red), not from the engine's helpers or its card
numbers: a column builds down by one rank, in suit (7♣ on 8♣) or, as the standard
game's easier variant, in alternating colours; an empty column takes a King (the
standard game, the app rules, the web game) or any card (the French "Facile",
Baker's Game); a foundation takes its suit's next card from the Ace up; a run moves
as free cells + 1 cards, one card, or (free cells + 1) × 2^(empty columns) with an
empty target not counted. Each table is checked on the engine's rule functions and
on ``Position.legal_moves``, with or without the C core.
"""

from __future__ import annotations

import itertools

import pytest

from eightoff.cards import Card
from eightoff.moverules import builds_on, fills_empty, goes_home
from eightoff.moves import FOUNDATION, Move, column
from eightoff.position import Position
from eightoff.rules import CELL_COUNTS, Build, EmptyColumn, GroupMoves, Rules

RANKS = "A23456789TJQK"
SUITS = "SHDC"  # the foundations' order: spades, hearts, diamonds, clubs
RED = {"H", "D"}
TEXTS = [r + s for s in SUITS for r in RANKS]


def card(text: str) -> Card:
    return Card.from_text(text)


def builds(lower: str, upper: str, build: Build) -> bool:
    """The rule books: ``lower`` lies on ``upper`` when one rank lower, and of the same
    suit (in suit) or of the other colour (alternating colours)."""
    if RANKS.index(upper[0]) != RANKS.index(lower[0]) + 1:
        return False
    if build is Build.SUIT:
        return lower[1] == upper[1]
    return (lower[1] in RED) != (upper[1] in RED)


def rest_of_deck(*placed: str) -> list[list[Card]]:
    """The cards not ``placed``, over six columns (so every card is somewhere)."""
    left = [card(t) for t in TEXTS if t not in placed]
    return [left[i::6] for i in range(6)]


# -- builds_on -----------------------------------------------------------------------


def test_written_out_rows_of_the_build_table() -> None:
    # Rows written out in full: what lies on a card, and where a card lies.
    suit, alternate = Build.SUIT, Build.ALTERNATE
    assert [t for t in TEXTS if builds_on(card(t), card("8C"), suit)] == ["7C"]
    assert [t for t in TEXTS if builds_on(card(t), card("8C"), alternate)] == ["7H", "7D"]
    assert [t for t in TEXTS if builds_on(card(t), card("2S"), alternate)] == ["AH", "AD"]
    assert [t for t in TEXTS if builds_on(card("AH"), card(t), alternate)] == ["2S", "2C"]
    assert [t for t in TEXTS if builds_on(card("AH"), card(t), suit)] == ["2H"]
    assert [t for t in TEXTS if builds_on(card("QD"), card(t), alternate)] == ["KS", "KC"]
    assert [t for t in TEXTS if builds_on(card("KH"), card(t), alternate)] == []
    assert [t for t in TEXTS if builds_on(card(t), card("AS"), alternate)] == []


@pytest.mark.parametrize("build", list(Build))
def test_builds_on_over_every_card_pair(build: Build) -> None:
    for lower, upper in itertools.product(TEXTS, TEXTS):
        assert builds_on(card(lower), card(upper), build) is builds(lower, upper, build), (
            lower,
            upper,
        )


@pytest.mark.parametrize("build", list(Build))
def test_a_card_moves_onto_a_column_exactly_where_it_builds(build: Build) -> None:
    rules = Rules(build=build)
    for lower, upper in itertools.permutations(TEXTS, 2):
        pos = Position([[card(lower)], [card(upper)], *rest_of_deck(lower, upper)], rules=rules)
        legal = Move(column(0), column(1)) in pos.legal_moves()
        assert legal is builds(lower, upper, build), (lower, upper)


# -- fills_empty ---------------------------------------------------------------------


@pytest.mark.parametrize("empty_column", list(EmptyColumn))
def test_what_an_empty_column_takes(empty_column: EmptyColumn) -> None:
    rules = Rules(empty_column=empty_column)
    takes = [t for t in TEXTS if fills_empty(card(t), rules)]
    if empty_column is EmptyColumn.KINGS:
        assert takes == ["KS", "KH", "KD", "KC"]
    else:
        assert takes == TEXTS
    for text in TEXTS:
        # The card over another one (not a whole column), one column empty.
        under = "AS" if text != "AS" else "AH"
        pos = Position([[card(under), card(text)], [], *rest_of_deck(text, under)], rules=rules)
        legal = Move(column(0), column(1)) in pos.legal_moves()
        assert legal is (text in takes), text


# -- goes_home -----------------------------------------------------------------------


def test_goes_home_over_every_card_and_foundation_height() -> None:
    for text in TEXTS:
        for suit, top in itertools.product(range(4), range(14)):
            founds = [5, 5, 5, 5]
            founds[suit] = top
            expected = RANKS.index(text[0]) == founds[SUITS.index(text[1])]
            assert goes_home(card(text), founds) is expected, (text, suit, top)


def test_a_card_moves_home_exactly_when_it_is_its_suits_next() -> None:
    for suit, top in itertools.product(range(4), range(13)):
        founds = [0, 0, 0, 0]
        founds[suit] = top
        home = [r + SUITS[suit] for r in RANKS[:top]]
        for text in TEXTS:
            if text in home:
                continue
            cols = rest_of_deck(text, *home)
            pos = Position([[card(text)], *cols, []], foundations=founds)
            legal = Move(column(0), FOUNDATION) in pos.legal_moves()
            assert legal is (RANKS.index(text[0]) == founds[SUITS.index(text[1])]), (text, founds)


# -- run capacity --------------------------------------------------------------------


def capacity(group: GroupMoves, empty: EmptyColumn, free: int, room: int) -> int:
    """The rule books: cards one move carries with ``free`` empty cells and ``room``
    empty columns besides the target. Runs of free cells + 1 count empty columns
    where any card may fill them (they are the FreeCell formula there)."""
    if group is GroupMoves.SINGLE:
        return 1
    if group is GroupMoves.CELLS and empty is EmptyColumn.KINGS:
        return free + 1
    return (free + 1) * 2**room


OPTION_GRID = list(itertools.product(CELL_COUNTS, GroupMoves, EmptyColumn))


@pytest.mark.parametrize(("cells", "group", "empty"), OPTION_GRID)
def test_run_capacity_over_every_option(cells: int, group: GroupMoves, empty: EmptyColumn) -> None:
    rules = Rules(cells=cells, group_moves=group, empty_column=empty)
    for free, room in itertools.product(range(cells + 1), range(8)):
        assert rules.max_run(free, room) == capacity(group, empty, free, room), (free, room)


@pytest.mark.parametrize(("cells", "group", "empty"), OPTION_GRID)
def test_the_longest_run_a_position_moves(
    cells: int, group: GroupMoves, empty: EmptyColumn
) -> None:
    # Column 1: Q♥, then a run K♠ down to 2♠, and nothing the run builds on elsewhere.
    # Its longest legal move goes to an empty column: as many cards as the capacity with
    # that column as target, where any card fills it; where only a King does, the whole
    # run headed by the King, or else its top card to a free cell (none if all are full).
    rules = Rules(cells=cells, group_moves=group, empty_column=empty)
    run = [card("QH")] + [card(r + "S") for r in reversed(RANKS[1:])]
    others = [card(t) for t in TEXTS if t != "QH" and (t[1] != "S" or t == "AS")]
    for free, empties in itertools.product(range(cells + 1), range(1, 4)):
        held = others[: cells - free]
        rest = others[cells - free :]
        filled = 7 - empties
        cols = [run] + [rest[i::filled] for i in range(filled)] + [[]] * empties
        pos = Position(cols, held, rules=rules)
        longest = max(
            (m.count for m in pos.legal_moves() if m.source == column(0)),
            default=0,
        )
        room = capacity(group, empty, free, empties - 1)
        if empty is EmptyColumn.KINGS:
            assert longest == (12 if room >= 12 else min(free, 1)), (free, empties)
        else:
            assert longest == min(12, room), (free, empties)
        assert pos.capacity(to_empty_column=True) == capacity(group, empty, free, empties - 1)
        assert pos.capacity(to_empty_column=False) == capacity(group, empty, free, empties)


def test_two_cells_and_an_empty_column_take_a_king_and_three() -> None:
    # docs/rules.md: "two free cells and one empty column let a King and its run of at
    # most 3 cards into it" (the FreeCell formula, the empty target not counted).
    assert capacity(GroupMoves.FREECELL, EmptyColumn.KINGS, 2, 0) == 3
    assert Rules(group_moves=GroupMoves.FREECELL).max_run(2, 0) == 3
