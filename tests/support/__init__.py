"""Helpers the test modules share; no test lives here, and no test module imports another.

This package holds plain functions and values: positions built by hand or by an
independent dealer, replays through the engine's checks, Hypothesis strategies.
Its submodules hold what needs more than the engine: :mod:`support.store` (survey
databases), :mod:`support.tui` (the terminal app under Textual's pilot) and
:mod:`support.browser` (the page served to a real browser). Fixtures and markers
are registered in ``tests/conftest.py``; ``tests/benchmark_scripts.py`` loads the
scripts of ``benchmarks/`` for their tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random_base import RandomBase

from eightoff.cards import CARDS, Card
from eightoff.moves import FOUNDATION, Move, Place, PlaceKind, cell, column, foundation
from eightoff.position import COLUMNS, Position
from eightoff.rules import PRESETS, STANDARD, GroupMoves, Layout, Rules, preset

needs_native = pytest.mark.native
"""Marks a test that needs the solver's C core (``tests/conftest.py`` skips it where
the core was not built)."""
needs_fc_solve = pytest.mark.fc_solve
"""Marks a test that runs Freecell Solver's ``fc-solve`` (skipped where it is not installed)."""


# -- positions -----------------------------------------------------------------------------


def board(
    columns: Sequence[str],
    cells: str = "",
    *,
    rules: Rules = STANDARD,
    rest: int | None = None,
    foundations: Sequence[int] | None = None,
) -> Position:
    """A position from text: columns covered→exposed (``"KS QS JS"``), cells (``"7H - 2C"``).

    Unless ``foundations`` gives the top ranks, each foundation holds its suit up
    to just below the lowest card of that suit named here (a suit not named is
    complete). Cards left over go, in card order, under the cards named for
    column ``rest``; with no ``rest`` there must be none.
    """
    cols = [[Card.from_text(t) for t in c.split()] for c in columns]
    cols += [[] for _ in range(COLUMNS - len(cols))]
    held = [None if t == "-" else Card.from_text(t) for t in cells.split()]
    named = {c for col in cols for c in col} | {c for c in held if c is not None}
    tops = [min((c.rank for c in named if c.suit == s), default=14) - 1 for s in range(4)]
    if foundations is not None:
        tops = list(foundations)
    left = [c for c in CARDS if c not in named and c.rank > tops[c.suit]]
    if left:
        assert rest is not None, f"cards left over: {' '.join(map(str, left))}"
        cols[rest] = left + cols[rest]
    return Position(cols, held, tops, rules)


def pysol_position(number: int, rules: Rules = STANDARD) -> Position:
    """PySolFC's deal ``number`` (Eight Off, or Baker's Game for that layout)."""
    game = "bakers_game" if rules.layout is Layout.BAKERS else "eight_off"
    text = PysolGame(game, number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    lines = text.strip().splitlines()
    cells: list[int] = []
    if lines[0].startswith("Freecells:"):
        cells = [Card.from_text(t) for t in lines.pop(0).split(":")[1].split() if t != "-"]
    cols = [[Card.from_text(t) for t in line.split()] for line in lines]
    return Position(cols, cells, rules=rules)


def cards_out(rng: random.Random, left: int) -> tuple[list[int], list[int]]:
    """Foundations with ``left`` cards taken off at random, and those cards shuffled."""
    founds = [13, 13, 13, 13]
    for _ in range(left):
        s = rng.choice([s for s in range(4) if founds[s] > 0])
        founds[s] -= 1
    cards = [s * 13 + r for s in range(4) for r in range(founds[s], 13)]
    rng.shuffle(cards)
    return founds, cards


def hard_endgame(rng: random.Random, rules: Rules, left: int) -> Position:
    """``left`` cards not home, shuffled into all 8 columns, each suit's next card at
    the bottom of one, every cell full: tight enough that many are lost."""
    founds, cards = cards_out(rng, left)
    # Buried aces: each suit's next card goes to the bottom of a column.
    cards.sort(key=lambda c: c % 13 != founds[c // 13])
    cells, rest = cards[-rules.cells :], cards[: -rules.cells]
    order = list(range(8))
    rng.shuffle(order)
    columns: list[list[int]] = [[] for _ in range(8)]
    for n, card in enumerate(rest):
        columns[order[n % 8]].append(card)
    return Position(columns, cells, founds, rules)


def wins(position: Position, moves: tuple[Move, ...] | list[Move]) -> bool:
    """Whether ``moves`` replay to a win through the engine's checks."""
    for move in moves:
        position = position.apply(move)  # checked: every step must be legal
    return position.is_won()


# -- bad game codes -----------------------------------------------------------------------

BAD_CODE_FAULTS: list[tuple[str, dict[str, str]]] = [
    ("", {"code": "empty"}),
    (" - ", {"code": "empty"}),
    ("EO1-C8-AAAAÉFA", {"code": "not-ascii", "char": "É"}),
    ("XO1-C8-AAAAAFA", {"code": "start"}),
    ("E01-C8-AAAAAFA", {"code": "start-zero"}),
    ("EO18-AAAAAFA", {"code": "no-c", "cells": "8"}),
    ("EO1-8-AAAAAFA", {"code": "no-c", "cells": "8"}),
    ("EO2-C8-AAAAAFA", {"code": "version", "got": "2"}),
    ("EO-C8-AAAAAFA", {"code": "version", "got": "nothing"}),
    ("EO1-AAAAAFA", {"code": "cells-missing"}),
    ("EO1-X8-AAAAAFA", {"code": "cells-missing"}),
    ("EO1-C9-AAAAAFA", {"code": "cells", "got": "9"}),
    ("EO1-C-AAAAAFA", {"code": "cells", "got": "nothing"}),
    ("EO1-C8-AAAA0FA", {"code": "deal-lookalike", "char": "0", "like": "O"}),
    ("EO1-C8-AAAA3FA", {"code": "deal-digit", "char": "3", "like": ""}),
    ("EO1-C8-AAAA.FA", {"code": "deal-char", "char": "."}),
    ("EO1-C8", {"code": "deal-missing"}),
    ("EO1-C8-ZZZ", {"code": "deal-short", "got": "ZZZ"}),
    ("EO1-C8-AAA-AAF-ET", {"code": "deal-short", "got": "AAA"}),
    ("EO1-C8-AAAAAFAAE", {"code": "deal-long", "got": "AAAAAFAAE"}),
    ("EO1-C8-AAAAAFA-!", {"code": "option", "char": "!"}),
    ("EO1-C8-AAAAAFA-AA", {"code": "option-twice", "char": "A"}),
    ("EO1-C8-AAAAAFA-SF", {"code": "options-exclude", "first": "S", "second": "F"}),
    ("EO1-C8-AAAAAAA-P", {"code": "deal-range", "low": "1", "high": str(26**7 - 1)}),
]
"""Bad game codes and the fault each names (``InvalidGameCodeError.json``, the API's
``fault``): what a page words in its own language."""


# -- random play (Hypothesis) --------------------------------------------------------------


def stable(examples: int) -> settings:
    """Fixed examples (derandomized, no database) so CI runs are the same every time."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )


variants = st.builds(
    lambda name, cells, group, take_back: preset(name).with_options(
        cells=cells, group_moves=group, take_back=take_back
    ),
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from([8, 4, 2]),
    st.sampled_from(list(GroupMoves)),
    st.booleans(),
)
"""Every preset with 8, 4 or 2 cells, each way of moving groups, take-backs on or off."""

deal_numbers = st.integers(min_value=0, max_value=2**32 - 1)


def pick(moves: list[Move], rng: random.Random) -> Move:
    """A random legal move, biased away from cells so games last longer."""
    home = [m for m in moves if m.target is FOUNDATION or m.target == FOUNDATION]
    if home and rng.random() < 0.5:
        return rng.choice(home)
    other = [m for m in moves if m.target.kind is not PlaceKind.CELL]
    if other and rng.random() < 0.8:
        return rng.choice(other)
    return rng.choice(moves)


def candidates(pos: Position) -> list[Move]:
    """Every source/target/count combination, including places the rules lack."""
    rules = pos.rules
    sources = [column(i) for i in range(COLUMNS + 1)]
    sources += [cell(k) for k in range(rules.cells + 1)]
    sources += [foundation(s) for s in range(4)]
    targets = [column(j) for j in range(COLUMNS)] + [cell(k) for k in range(rules.cells + 1)]
    targets += [FOUNDATION, foundation(0), Place(PlaceKind.FOUNDATION, 3)]
    moves = []
    for src in sources:
        top = (
            len(pos.columns[src.index])
            if src.kind is PlaceKind.COLUMN and src.index < COLUMNS
            else 1
        )
        for dst in targets:
            for n in range(0, top + 2):
                moves.append(Move(src, dst, n))
    return moves
