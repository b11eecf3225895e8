"""An independent referee for the atlas's wins: replay the survey's winning lines with
rules written again from the rule books, sharing no code with the engine.

    .venv/bin/python benchmarks/referee.py --db atlas.db [--hardest 50000] [--every 20]

The referee rebuilds each deal from the documented shuffle (:func:`eightoff.deal.deal_cards`,
checked on its own by tests/test_deal_uniform.py) and layout, reads each packed line,
and plays it on its own board: a run moves only if it is a run (one rank lower each
card, in suit or in alternating colours), only onto the next rank up or into an empty
column that may take its first card (a King, or any card with ``E``), and only as
many cards as the free cells allow (free cells + 1, doubled for each other empty
column under the FreeCell formula); a card goes home only onto the next rank of its
suit; a cell holds one card; no card leaves a foundation. A line wins when all 52
cards are home. If the engine let a move through that the rules forbid, a deal the
rules lose would show up as won: the referee would catch it here.

Lines of every won deal are checked among the ``--hardest`` deals (most positions
searched, where a wrong win would hide) and every ``--every``-th other won deal.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from itertools import pairwise

from eightoff.deal import deal_cards
from eightoff.export import variant
from eightoff.movepack import unpack_line
from eightoff.moves import Move, PlaceKind
from eightoff.rules import Build, EmptyColumn, GroupMoves, Layout, Rules
from eightoff.store import Store, rules_key

RED = (False, True, True, False)  # suits in card order: spades, hearts, diamonds, clubs


def _suit(card: int) -> int:
    return card // 13


def _rank(card: int) -> int:
    return card % 13 + 1


class Board:
    """Columns, cells and foundations of one game, dealt from the shuffled deck."""

    def __init__(self, deck: Sequence[int], rules: Rules) -> None:
        self.rules = rules
        self.columns: list[list[int]] = [[] for _ in range(8)]
        self.cells: list[int | None] = [None] * rules.cells
        self.home = [0, 0, 0, 0]  # top rank per suit
        if rules.layout is Layout.BAKERS:
            for i, card in enumerate(deck):
                self.columns[i % 8].append(card)
            return
        for i, card in enumerate(deck[:48]):
            self.columns[i % 8].append(card)
        last = list(deck[48:])
        if rules.cells == 2:  # two to the cells, two to the ends of columns 3 and 4
            self.cells[:] = last[:2]
            self.columns[2].append(last[2])
            self.columns[3].append(last[3])
        else:
            self.cells[:4] = last

    def follows(self, lower: int, upper: int) -> bool:
        """May ``lower`` lie on ``upper`` in a column?"""
        if _rank(lower) != _rank(upper) - 1:
            return False
        if self.rules.build is Build.SUIT:
            return _suit(lower) == _suit(upper)
        return RED[_suit(lower)] != RED[_suit(upper)]

    def most(self, target: int) -> int:
        """The most cards one move may carry into column ``target``."""
        free = sum(c is None for c in self.cells)
        if self.rules.group_moves is GroupMoves.SINGLE:
            return 1
        if self.rules.group_moves is GroupMoves.CELLS:
            return free + 1
        empty = sum(not col for i, col in enumerate(self.columns) if i != target)
        return (free + 1) << empty

    def play(self, move: Move) -> None:
        """Make ``move`` or raise ``ValueError`` saying which rule it breaks."""
        n, src, dst = move.count, move.source, move.target
        if src.kind is PlaceKind.FOUNDATION:
            raise ValueError("a card taken back from a foundation")
        if src.kind is PlaceKind.CELL:
            card = self.cells[src.index]
            if card is None or n != 1:
                raise ValueError("not one card from an occupied cell")
            run = [card]
        else:
            column = self.columns[src.index]
            if not 1 <= n <= len(column):
                raise ValueError("more cards than the column holds")
            run = column[-n:]
            if any(not self.follows(b, a) for a, b in pairwise(run)):
                raise ValueError("cards that are not a run")
        if dst.kind is PlaceKind.FOUNDATION:
            if n != 1 or _rank(run[0]) != self.home[_suit(run[0])] + 1:
                raise ValueError("a card home out of turn")
            self.home[_suit(run[0])] += 1
        elif dst.kind is PlaceKind.CELL:
            if n != 1 or self.cells[dst.index] is not None:
                raise ValueError("not one card into an empty cell")
            self.cells[dst.index] = run[0]
        else:
            target = self.columns[dst.index]
            if dst == src:
                raise ValueError("a move to its own column")
            if target and not self.follows(run[0], target[-1]):
                raise ValueError("a card on a card it does not follow")
            kings_only = self.rules.empty_column is EmptyColumn.KINGS
            if not target and kings_only and _rank(run[0]) != 13:
                raise ValueError("a card other than a King into an empty column")
            if n > self.most(dst.index):
                raise ValueError(f"a run of {n} with room for {self.most(dst.index)}")
            target.extend(run)
        if src.kind is PlaceKind.CELL:
            self.cells[src.index] = None
        else:
            del self.columns[src.index][-n:]

    def won(self) -> bool:
        return self.home == [13, 13, 13, 13]


def referee(rules: Rules, deal: int, line: str) -> str | None:
    """``None`` if ``line`` (moves in the compact notation) wins deal ``deal`` under
    ``rules``, else what went wrong."""
    board = Board(deal_cards(deal), rules)
    for i, move in enumerate(Move.from_text(text) for text in line.split()):
        try:
            board.play(move)
        except ValueError as e:
            return f"move {i + 1} ({move.text()}): {e}"
    return None if board.won() else "the line ends before every card is home"


def picked(store: Store, rules: Rules, hardest: int, every: int) -> Iterator[tuple[int, str]]:
    """(deal, line) of the won deals to check: the ``hardest`` by positions searched, and
    every ``every``-th deal number; streamed, so a million-deal survey fits in memory."""
    key = rules_key(rules)
    won = "FROM results WHERE rules = ? AND source = 'eightoff' AND verdict = 'solved'"
    cut = store.execute(
        f"SELECT nodes {won} ORDER BY nodes DESC LIMIT 1 OFFSET ?", (key, max(hardest - 1, 0))
    ).fetchone()
    # Fewer won deals than ``hardest``: every one of them.
    floor = (cut[0] if cut else 0) if hardest else None
    cur = store.execute(
        f"SELECT deal, moves {won} AND (deal % ? = 0 OR nodes >= ?)",
        (key, every, floor if floor is not None else 2**62),
    )
    for deal, moves in cur:
        yield deal, unpack_line(moves) if isinstance(moves, bytes) else moves


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--db", required=True, help="a survey database")
    ap.add_argument("--hardest", type=int, default=50_000, help="check every won deal of these")
    ap.add_argument("--every", type=int, default=20, help="and every n-th other won deal")
    args = ap.parse_args(argv)
    with Store(args.db, readonly=True) as store:
        for rules, source, _ in store.groups():
            if source != "eightoff" or rules.take_back:
                continue
            start = time.process_time()
            won = store.count(rules, source, "solved")
            checked, bad = 0, []
            for deal, line in picked(store, rules, args.hardest, args.every):
                checked += 1
                if why := referee(rules, deal, line):
                    bad.append((deal, why))
            took = time.process_time() - start
            print(
                f"{variant(rules)}: {checked:,} of {won:,} won lines replayed, "
                f"{len(bad)} refused ({took:.0f} CPU s)",
                flush=True,
            )
            for deal, why in bad[:10]:
                print(f"  deal {deal}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
