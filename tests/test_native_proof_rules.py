"""The proof side's pruning rules (_kernel/rules.h, native/proof.c), each held to the
reference solver (``eightoff.solver.reference``: a plain search on
``Position.legal_moves`` with the game's own basic safe autoplay), which shares no
code with the C core: a rule may merge or skip positions, never turn a winnable
position into "unsolvable".

The refined safe autoplay (alternating colours): a card that may go home goes at
once when every card that could ever lie on it, directly or not, is home or the
next card of its pile. Below, that condition is checked the long way, card by card
down the tree of cards that build on it, not by the C core's formula.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from eightoff.cards import Card
from eightoff.game import is_safe_home
from eightoff.moves import FOUNDATION, Move, cell, column
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import Limit, Verdict, core, reference
from support.native import exact, solve_first

native = core.native
pytestmark = pytest.mark.skipif(native is None, reason="the C core was not built")
ORACLE = Limit(nodes=5_000, seconds=None)

# Alternating colours, kings only or any card to an empty column, 2 or 4 cells, runs
# of free cells + 1 or by the FreeCell formula (the layout only changes the deal):
# where positions small enough for the reference are lost often enough.
ALTERNATING = [
    Rules(cells=2, build=Build.ALTERNATE),
    Rules(
        cells=2,
        build=Build.ALTERNATE,
        empty_column=EmptyColumn.ANY,
        group_moves=GroupMoves.FREECELL,
    ),
    Rules(cells=4, build=Build.ALTERNATE),
]


def red(card: int) -> bool:
    return 13 <= card < 39


def never_needed(card: int, founds: tuple[int, ...]) -> bool:
    """Whether every card that could ever lie on ``card`` (it builds on it, or on
    one of those, ...) is home or the next card of its pile."""
    todo, seen = [card], {card}
    while todo:
        onto = todo.pop()
        rank = onto % 13  # 0-based: the rank of the cards that build on it
        if rank == 0:
            continue
        for suit in range(4):
            below = suit * 13 + rank - 1
            if red(below) == red(onto) or below in seen:
                continue
            if founds[suit] > below % 13:
                continue  # home: nothing can lie on it any more
            if founds[suit] < below % 13:
                return False  # a card of its pile is missing under it
            seen.add(below)
            todo.append(below)
    return True


def refined_only(position: Position) -> list[Move]:
    """The foundation moves the refined rule plays at once and the basic one not."""
    founds = position.foundations
    places = [(column(i), col[-1]) for i, col in enumerate(position.columns) if col]
    places += [(cell(k), c) for k, c in enumerate(position.cells) if c is not None]
    return [
        Move(place, FOUNDATION)
        for place, card in places
        if founds[card // 13] == card % 13
        and never_needed(card, founds)
        and not is_safe_home(position, card)
    ]


def endgame(rng: random.Random, rules: Rules, short: int = 0) -> Position:
    """A card the refined rule sends home and the basic one keeps, on a column or in a
    cell; the other piles' next cards at the bottom of columns and every cell full
    (so that many such positions are lost), the other cards shuffled into the columns.
    ``short`` 1: the other pile of its colour one card short of the rule; 2: one
    opposite-colour pile one card short."""
    kings = rules.empty_column is EmptyColumn.KINGS
    suit, rank = rng.randrange(4), rng.randint(5, 9)  # the card's rank, 1-based
    opposite = (1, 2) if suit in (0, 3) else (0, 3)
    founds = [0, 0, 0, 0]
    founds[suit] = rank - 1
    founds[opposite[0]], founds[opposite[1]] = rank - 2, rank - 2 + rng.randint(0, 1)
    founds[3 - suit] = rank - 3 + rng.randint(0, 1)
    if short == 1:
        founds[3 - suit] = rank - 4
    elif short == 2:
        founds[opposite[0]] = rank - 3
    top = suit * 13 + rank - 1
    cards = [s * 13 + r for s in range(4) for r in range(founds[s], 13) if s * 13 + r != top]
    rng.shuffle(cards)
    cards.sort(key=lambda c: c % 13 != founds[c // 13])  # the next cards first
    held = [top] if rng.random() < 0.3 else []
    held += cards[len(cards) - rules.cells + len(held) :]
    rest = cards[: len(cards) - len(held) + (top in held)]
    # Kings only: a few deep columns; any card: no empty column at first.
    order = rng.sample(range(8), rng.randint(3, 5) if kings else 8)
    columns: list[list[int]] = [[] for _ in range(8)]
    for n, card in enumerate(rest):
        columns[order[n % len(order)]].append(card)
    if top not in held:
        columns[rng.choice(order)].append(top)
    return Position(columns, held, founds, rules)


def test_never_needed_is_the_known_rule() -> None:
    # The tree condition is the basic rule (both opposite-colour piles at rank - 1)
    # or: both opposite-colour piles at rank - 2 and the other pile of the card's
    # colour at rank - 3; a red seven (hearts) with clubs and spades at 5:
    seven = 13 + 6
    assert never_needed(seven, (5, 6, 4, 5))
    assert not never_needed(seven, (5, 6, 3, 5))  # the diamond 4 may need a black 5
    assert not never_needed(seven, (4, 6, 4, 5))  # the black 6 may need its black 5
    assert never_needed(seven, (6, 6, 0, 6))  # the basic rule
    rng = random.Random(5)
    fired = 0
    for _ in range(500):
        founds = tuple(rng.randint(0, 12) for _ in range(4))
        for suit in range(4):
            card = suit * 13 + founds[suit]  # the next card of each pile
            r = card % 13 + 1
            opposite = min(founds[1], founds[2]) if suit in (0, 3) else min(founds[0], founds[3])
            basic = r <= 2 or opposite >= r - 1
            known = basic or (opposite >= r - 2 and founds[3 - suit] >= r - 3)
            assert never_needed(card, founds) is known, (card, founds)
            fired += known and not basic
    assert fired > 50


@pytest.mark.parametrize(
    "rules", ALTERNATING, ids=lambda r: f"{r.cells}{r.empty_column.value}{r.group_moves.value}"
)
def test_the_refined_autoplay_never_loses_a_win(rules: Rules) -> None:
    # Positions where the refined rule sends a card home that the basic one keeps:
    # the reference's verdict is the same with that card home (the rule's claim,
    # checked without the C core), the C proof (which plays the refined rule all
    # through) says the same, and its line wins. (The C verdict picks which
    # positions to check, so that lost ones, the rarer, are as many as won ones.)
    rng = random.Random(f"refined {rules}")
    verdicts: Counter[Verdict] = Counter()
    for _ in range(600):
        position = endgame(rng, rules)
        moves = refined_only(position)
        if not moves or position.is_won():
            continue
        status = exact(position)
        if status == core.SOLVED and verdicts[Verdict.SOLVED] >= 6:
            continue  # enough of those: the lost ones are rarer
        before = reference.solve_any(position, ORACLE)
        if before.verdict is Verdict.UNKNOWN:
            continue
        after = reference.solve_any(position.apply(rng.choice(moves)), ORACLE)
        if after.verdict is not Verdict.UNKNOWN:  # (the other way round it may be)
            assert after.verdict is before.verdict, position
        assert status == (core.SOLVED if before.solved else core.EXHAUSTED), position
        assert solve_first(position, 1) == (status, before.solved), position
        verdicts[before.verdict] += 1
        if min(verdicts[Verdict.SOLVED], verdicts[Verdict.UNSOLVABLE]) >= 6:
            break
    assert verdicts[Verdict.SOLVED] >= 6 and verdicts[Verdict.UNSOLVABLE] >= 6, verdicts


# Positions where the heart 7 (on column 2) may go home but one pile is a card short
# of the refined rule. Spades short (they hold the 4, the rule wants the 5): the spade
# 6 in a cell needs the heart 7 to lie on, for the spade 5 is buried. Diamonds short
# (the 3; the rule wants the 4): the diamond 5 must lie on the spade 6 on the heart 7
# while the club queen goes to a cell and the diamond 4 home.
SHORT_OF_THE_RULE = {
    "spades": (
        ["6C TD KH 8D JC 7C", "TH 8C 7S KS KD QD 7H", "6D TS 8S 9D TC 8H", "JS 9H 9S 7D JH"]
        + ["", "", "5S QC JD KC QS QH", ""],
        "6S 9C",
        (4, 6, 5, 5),
    ),
    "diamonds": (
        ["8H 6C 4D QC 5D", "7S KH 8S TH 7H", "9D JD KD 6D", "7C QD QS"]
        + ["7D JS TC 9H", "JH QH 8D", "9S KC TS", "9C 8C JC TD"],
        "6S KS",
        (5, 6, 3, 5),
    ),
}


@pytest.mark.parametrize("short", sorted(SHORT_OF_THE_RULE))
def test_a_card_one_pile_short_of_the_rule_stays_on_the_table(short: str) -> None:
    # Won with the heart 7 on the table, lost with it home: a rule that sent it home
    # would call the position lost.
    def cards(text: str) -> list[int]:
        return [int(Card.from_text(t)) for t in text.split()]

    columns, cells, founds = SHORT_OF_THE_RULE[short]
    rules = Rules(cells=2, build=Build.ALTERNATE)
    position = Position([cards(c) for c in columns], cards(cells), founds, rules)
    heart_home = position.apply(Move(column(1), FOUNDATION))
    assert reference.solve_any(position, ORACLE).verdict is Verdict.SOLVED
    assert reference.solve_any(heart_home, ORACLE).verdict is Verdict.UNSOLVABLE
    assert exact(position) == core.SOLVED and exact(heart_home) == core.EXHAUSTED
    assert solve_first(position, 1) == (core.SOLVED, True)
