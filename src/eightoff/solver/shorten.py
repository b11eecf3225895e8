"""Shorten a found winning line by merging a card's two moves into one.

The fast search is greedy, so its lines hold detours: a card parked in a cell and
later moved on, or even put back where it was. For two consecutive moves of one
card, ``a: X -> Y`` and later ``b: Y -> Z``, try ``X -> Z`` once, either at ``a``'s
time or at ``b``'s (or drop both when ``Z`` is ``X``). An edit is kept only if the
moves from ``a`` to ``b`` all stay legal and the position after ``b`` is exactly
the original one, so the rest of the line is untouched and still wins.
"""

from __future__ import annotations

from eightoff.moves import FOUNDATION, Move, Place, PlaceKind
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, GroupMoves

# A compact state: columns (covered -> exposed), cells (-1 = empty), foundation ranks.
State = tuple[list[list[int]], list[int], list[int]]
# Source kind, index, target kind, index (-1: foundation), cards carried.
Compact = tuple[int, int, int, int, int]

_KIND = {PlaceKind.COLUMN: 0, PlaceKind.CELL: 1, PlaceKind.FOUNDATION: 2}
COL, CELL, FOUND = 0, 1, 2


def _compact(move: Move) -> Compact:
    s, t = move.source, move.target
    return (
        _KIND[s.kind],
        s.index,
        _KIND[t.kind],
        -1 if t == FOUNDATION else t.index,
        move.count,
    )


def _copy(state: State) -> State:
    cols, cells, founds = state
    return [c[:] for c in cols], cells[:], founds[:]


class _Checker:
    """Plays moves on a :data:`State`, refusing the ones the engine would refuse."""

    def __init__(self, position: Position) -> None:
        rules = position.rules
        self.suit = rules.build is Build.SUIT
        self.kings_only = rules.empty_column is EmptyColumn.KINGS
        self.group = rules.group_moves

    def builds(self, card: int, onto: int) -> bool:
        if onto % 13 != card % 13 + 1:
            return False
        if self.suit:
            return onto // 13 == card // 13
        return (13 <= onto < 39) != (13 <= card < 39)

    def play(self, state: State, move: Compact) -> bool:
        """Play ``move`` on ``state`` (mutated) if legal; False when it is not."""
        cols, cells, founds = state
        sk, si, dk, di, n = move
        if n > 1:
            return self.play_run(state, si, di, n)
        if sk == COL:
            col = cols[si]
            if not col:
                return False
            card = col[-1]
        elif sk == CELL:
            card = cells[si]
            if card < 0:
                return False
        else:  # a take-back from the foundation of suit si (the rules allow it)
            if founds[si] == 0:
                return False
            card = si * 13 + founds[si] - 1
        if dk == FOUND:
            if sk == FOUND or founds[card // 13] != card % 13:
                return False
            founds[card // 13] += 1
        elif dk == CELL:
            if sk == CELL or cells[di] >= 0:  # the engine has no cell-to-cell moves
                return False
            cells[di] = card
        else:
            target = cols[di]
            if sk == COL and si == di:
                return False
            if target:
                if not self.builds(card, target[-1]):
                    return False
            elif (self.kings_only and card % 13 != 12) or (sk == COL and len(cols[si]) == 1):
                return False  # the engine never moves a whole column into an empty one
            target.append(card)
        if sk == COL:
            cols[si].pop()
        elif sk == CELL:
            cells[si] = -1
        else:
            founds[si] -= 1
        return True

    def play_run(self, state: State, si: int, di: int, n: int) -> bool:
        """A run of ``n`` cards from column ``si`` to column ``di`` (group moves)."""
        cols, cells, _ = state
        col, target = cols[si], cols[di]
        if si == di or len(col) < n or self.group is GroupMoves.SINGLE:
            return False
        run = col[-n:]
        if not all(self.builds(run[k + 1], run[k]) for k in range(n - 1)):
            return False
        free = cells.count(-1)
        if self.group is GroupMoves.CELLS:
            cap = free + 1
        else:  # FREECELL: empty columns double it, the target excluded
            empty = sum(1 for c in cols if not c) - (0 if target else 1)
            cap = (free + 1) << empty
        if n > cap:
            return False
        if target:
            if not self.builds(run[0], target[-1]):
                return False
        elif (self.kings_only and run[0] % 13 != 12) or n == len(col):
            return False
        del col[-n:]
        target.extend(run)
        return True


def _places(move: Compact) -> tuple[Place, Place]:
    sk, si, dk, di, _ = move
    kinds = (PlaceKind.COLUMN, PlaceKind.CELL, PlaceKind.FOUNDATION)
    src = Place(kinds[sk], si)
    dst = FOUNDATION if dk == FOUND else Place(kinds[dk], di)
    return src, dst


def shorten(position: Position, moves: list[Move]) -> list[Move]:
    """A line no longer than ``moves`` (in single-card moves) that still wins."""
    checker = _Checker(position)
    start: State = (
        [list(c) for c in position.columns],
        [-1 if c is None else int(c) for c in position.cells],
        list(position.foundations),
    )
    line = [_compact(m) for m in moves]
    out = list(moves)
    while True:
        edit = _first_edit(checker, start, line)
        if edit is None:
            return out
        a, b, merged, at_a = edit
        # Both variants put the card straight from a's source to b's target.
        if merged is None:  # back where it came from: both moves go
            new_line = line[:a] + line[a + 1 : b] + line[b + 1 :]
            new_out = out[:a] + out[a + 1 : b] + out[b + 1 :]
        else:
            src, dst = _places(merged)
            m = Move(src, dst)  # the card moves alone
            if at_a:
                new_line = [*line[:a], merged, *line[a + 1 : b], *line[b + 1 :]]
                new_out = [*out[:a], m, *out[a + 1 : b], *out[b + 1 :]]
            else:
                new_line = [*line[:a], *line[a + 1 : b], merged, *line[b + 1 :]]
                new_out = [*out[:a], *out[a + 1 : b], m, *out[b + 1 :]]
        line, out = new_line, new_out


def _first_edit(
    checker: _Checker, start: State, line: list[Compact]
) -> tuple[int, int, Compact | None, bool] | None:
    """The first (by ``a``) merge that keeps the line winning, or None."""
    # The state before every move, and which cards each move carries.
    states: list[State] = []
    carried: list[list[int]] = []
    state = _copy(start)
    for move in line:
        states.append(_copy(state))
        sk, si, n = move[0], move[1], move[4]
        cols, cells, founds = state
        if sk == COL:
            carried.append(cols[si][-n:])
        elif sk == CELL:
            carried.append([cells[si]])
        else:
            carried.append([si * 13 + founds[si] - 1])
        if not checker.play(state, move):
            raise AssertionError("shorten: the found line does not replay")  # pragma: no cover
    states.append(state)
    last: dict[int, int] = {}  # card -> index of its latest move so far
    for b, cards in enumerate(carried):
        a = last.get(cards[0])
        for card in cards:
            last[card] = b
        if a is None:
            continue
        ma, mb = line[a], line[b]
        # Only a lone card's two moves merge; take-backs and runs stay as they are.
        if ma[4] > 1 or mb[4] > 1 or ma[2] == FOUND or ma[0] == FOUND or mb[0] == FOUND:
            continue
        after = states[b + 1]
        if (ma[0], ma[1]) == (mb[2], mb[3]):
            # A round trip: does the line work with the card never leaving?
            trial = _copy(states[a])
            if _replays(checker, trial, line, a + 1, b) and trial == after:
                return a, b, None, True
            continue
        merged = (ma[0], ma[1], mb[2], mb[3], 1)
        # Late: the card waits at its source until b's time.
        trial = _copy(states[a])
        late = _replays(checker, trial, line, a + 1, b) and checker.play(trial, merged)
        if late and trial == after:
            return a, b, merged, False
        # Early: the card goes straight to its later target at a's time.
        trial = _copy(states[a])
        early = checker.play(trial, merged) and _replays(checker, trial, line, a + 1, b)
        if early and trial == after:
            return a, b, merged, True
    return None


def _replays(checker: _Checker, state: State, line: list[Compact], lo: int, hi: int) -> bool:
    play = checker.play
    return all(play(state, line[k]) for k in range(lo, hi))


def position_after(position: Position, moves: list[Move], home: int) -> tuple[int, Position] | None:
    """The first position on the line with at least ``home`` cards home, and how many
    of ``moves`` lead there; None when the line never gets that far."""
    checker = _Checker(position)
    state: State = (
        [list(c) for c in position.columns],
        [-1 if c is None else int(c) for c in position.cells],
        list(position.foundations),
    )
    for i, move in enumerate(moves):
        if sum(state[2]) >= home:
            cols, cells, founds = state
            at = Position(cols, [None if c < 0 else c for c in cells], founds, position.rules)
            return i, at
        if not checker.play(state, _compact(move)):
            raise AssertionError("shorten: the found line does not replay")  # pragma: no cover
    return None
