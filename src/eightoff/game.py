"""A game: a code, its rules and a history of actions, with undo/redo, score and smart moves.

An *action* is what the player does in one gesture: one move (a run moved as a
group is one move) plus the foundation moves autoplay made right after it. Undo
and redo work on whole actions, without limit.

Score: 10 points the first time a card reaches a foundation in the current
history, so a win is worth 520. Undo removes what the undone action earned, a
take-back (a move from a foundation) neither earns nor deducts, and a card put
back up again earns nothing. The score is derived from the history, so undo and
redo keep it exact and it can never go below zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, cast

from eightoff.cards import CARDS, Card
from eightoff.moves import FOUNDATION, IllegalMoveError, Move, Place, PlaceKind, cell, column
from eightoff.position import COLUMNS, Board, Position, goes_home
from eightoff.rules import Build, Rules
from eightoff.view import GameView, PileView, Status, target_pile

if TYPE_CHECKING:
    from eightoff.codes import GameCode

POINTS_PER_CARD: Final = 10


@dataclass(frozen=True, slots=True)
class Action:
    """One player action: the player's move, then the foundation moves autoplay added.

    ``cards`` names the card each move carried (the deepest of a run), as the JSON
    form of a move does; it follows from the moves and the position they were played in.
    """

    moves: tuple[Move, ...]
    points: int = 0
    cards: tuple[Card, ...] = field(default=(), compare=False)

    @property
    def move(self) -> Move:
        """The player's own move."""
        return self.moves[0]

    @property
    def autoplayed(self) -> tuple[Move, ...]:
        """The foundation moves autoplay made after the player's move."""
        return self.moves[1:]


class ReplayError(IllegalMoveError):
    """A move in :meth:`Game.replay` is not legal; ``index`` is its 0-based place in the list."""

    def __init__(self, index: int, error: IllegalMoveError) -> None:
        super().__init__(error.move, error.code, error.reason)
        self.args = (f"move {index + 1} ({error.move}) is illegal: {error.reason}",)
        self.index = index


def is_safe_home(position: Position, card: Card) -> bool:
    """Whether sending ``card`` (which may go home now) to its foundation can never hurt.

    Building in suit, every foundation move is safe: a card is only needed on a
    column as a base for the card of its suit just below it, which is already home.
    In alternating colours the usual FreeCell rule applies: an ace or a two, or
    both foundations of the other colour hold at least rank - 1.
    """
    if position.rules.build is Build.SUIT:
        return True
    rank = card % 13 + 1
    if rank <= 2:
        return True
    f = position.foundations
    # Suits are S, H, D, C: black ones are 0 and 3, red ones 1 and 2.
    other = (f[1], f[2]) if card // 13 in (0, 3) else (f[0], f[3])
    return min(other) >= rank - 1


def autoplay_moves(position: Position) -> list[Move]:
    """The safe foundation moves autoplay makes from ``position``, in order, until none is left.

    Each round plays the first safe one found scanning columns left to right,
    then cells left to right.
    """
    moves: list[Move] = []
    pos = position
    while True:
        found = _next_home(pos, safe=True)
        if found is None:
            return moves
        moves.append(found)
        pos = pos.apply_unchecked(found)


def finish_moves(position: Position) -> list[Move] | None:
    """Foundation moves that take every remaining card home from ``position``, if there are.

    Each step sends home the first card that may go, scanning columns then cells (the
    order of ``legal_moves``), without listing the legal moves. ``None`` when some card
    must first move elsewhere, and when the game is already won.
    """
    moves: list[Move] = []
    pos = position
    while not pos.is_won():
        found = _next_home(pos, safe=False)
        if found is None:
            return None
        moves.append(found)
        pos = pos.apply_unchecked(found)
    return moves or None


def _next_home(pos: Position, *, safe: bool) -> Move | None:
    # The first card that may go home (and, with ``safe``, may go safely): columns, then cells.
    founds = pos.foundations
    for i, col in enumerate(pos.columns):
        if col:
            card = col[-1]
            if goes_home(card, founds) and (not safe or is_safe_home(pos, card)):
                return Move(column(i), FOUNDATION)
    for k, held in enumerate(pos.cells):
        if held is not None and goes_home(held, founds) and (not safe or is_safe_home(pos, held)):
            return Move(cell(k), FOUNDATION)
    return None


def home_move(position: Position, place: Place) -> Move | None:
    """The move sending the card at ``place`` to its foundation, when allowed (a single tap)."""
    if place.kind is PlaceKind.FOUNDATION:
        return None
    move = Move(place, FOUNDATION)
    return move if position.is_legal(move) else None


def smart_move(position: Position, place: Place, legal: list[Move] | None = None) -> Move | None:
    """The double-tap move from ``place`` (the app rules' order), or ``None`` if nothing fits.

    ``legal`` may pass ``position.legal_moves()`` already computed (the web API asks
    this for every pile of one position).

    1. the foundation;
    2. the longest non-empty column that accepts the card (from a column, the
       longest run the rules let move there; ties go to the leftmost column);
    3. the leftmost empty column, for a King (or any card when the rules allow),
       again with the longest run that may move (never a whole column);
    4. the leftmost empty cell.
    """
    if legal is None:
        legal = position.legal_moves()
    legal = [m for m in legal if m.source == place]
    if not legal:
        return None
    for m in legal:
        if m.target.kind is PlaceKind.FOUNDATION:
            return m
    columns = position.columns
    onto = [m for m in legal if m.target.kind is PlaceKind.COLUMN and columns[m.target.index]]
    if onto:
        # max() keeps the first of equals: longest column, then leftmost, then longest run.
        return max(onto, key=lambda m: (len(columns[m.target.index]), -m.target.index, m.count))
    for j in range(COLUMNS):
        into = [m for m in legal if m.target == column(j)]
        if into:
            return max(into, key=lambda m: m.count)
    for m in legal:
        if m.target.kind is PlaceKind.CELL:
            # legal_moves lists cells left to right, so this is the leftmost empty one.
            return m
    return None


class Game:
    """A game in progress: start position, history of actions, undo/redo, score and status.

    ``Game(code)`` starts the deal a game code describes; ``Game(position=p)``
    starts from any position (the code is then ``None`` unless given too).
    """

    def __init__(
        self,
        code: GameCode | None = None,
        *,
        position: Position | None = None,
        autoplay: bool = False,
    ) -> None:
        if position is None:
            if code is None:
                raise ValueError("a game needs a game code or a start position")
            position = code.position()
        elif code is not None and code.rules != position.rules:
            raise ValueError("the start position's rules differ from the game code's rules")
        self._code = code
        self._autoplay = autoplay
        # _positions[k] is the position after the first k actions, None until asked for
        # (see _at: a long replay builds only the last one). _history holds each action
        # as (moves, cards, the cards it brought home first) and _built its Action once
        # asked for (a long replay makes none); both may run past the cursor: those are
        # the actions undo took back, kept for redo.
        self._positions: list[Position | None] = [position]
        self._history: list[_Entry] = []
        self._built: list[Action | None] = []
        self._cursor = 0
        self._home_ever: set[Card] = _home_cards(position)  # already home in the history
        self._home_at_start = len(self._home_ever)
        self._status: tuple[Position, Status] | None = None
        self._view: GameView | None = None  # of the current state; dropped on every change

    @classmethod
    def from_text(cls, code_text: str, *, autoplay: bool = False) -> Game:
        """A new game from a game code's text (raises ``InvalidGameCodeError``)."""
        from eightoff.codes import GameCode

        return cls(GameCode.parse(code_text), autoplay=autoplay)

    # -- state ---------------------------------------------------------------------

    @property
    def code(self) -> GameCode | None:
        """The game code of the deal, if the game was started from one."""
        return self._code

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._at(0).rules

    @property
    def start(self) -> Position:
        """The position the game started from."""
        return self._at(0)

    @property
    def position(self) -> Position:
        """The current position."""
        return self._at(self._cursor)

    def _at(self, k: int) -> Position:
        # The position after k actions, built from the nearest one known before it.
        known = self._positions[k]
        if known is not None:
            return known
        j = k
        while (known := self._positions[j]) is None:  # the start is always known
            j -= 1
        pos = known
        for i in range(j, k):
            for move in self._history[i][0]:
                pos = pos.apply_unchecked(move)
            self._positions[i + 1] = pos
        return pos

    @property
    def actions(self) -> list[Action]:
        """The actions played so far (not those undone), oldest first."""
        return [self.action(k) for k in range(self._cursor)]

    def action(self, index: int) -> Action:
        """Action ``index`` (0-based) of the history, undone ones included."""
        built = self._built[index]
        if built is None:
            moves, cards, earned = self._history[index]
            built = self._built[index] = Action(moves, POINTS_PER_CARD * len(earned), cards)
        return built

    @property
    def moves(self) -> list[Move]:
        """Every move applied so far, autoplayed ones included, in order."""
        return [m for entry in self._history[: self._cursor] for m in entry[0]]

    @property
    def score(self) -> int:
        """10 points per card brought home for the first time in the current history."""
        # The cards home ever are those home at the start and those the actions earned.
        return POINTS_PER_CARD * (len(self._home_ever) - self._home_at_start)

    @property
    def status(self) -> Status:
        """``won``, ``stuck`` (no legal move) or ``playing``."""
        pos = self.position
        if self._status is not None and self._status[0] is pos:
            return self._status[1]
        if pos.is_won():
            status = Status.WON
        elif not pos.legal_moves():
            status = Status.STUCK
        else:
            status = Status.PLAYING
        self._status = (pos, status)
        return status

    @property
    def autoplay(self) -> bool:
        """Whether safe foundation moves are played after each action."""
        return self._autoplay

    @autoplay.setter
    def autoplay(self, on: bool) -> None:
        self._autoplay = on

    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo."""
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo."""
        return self._cursor < len(self._history)

    def positions(self) -> list[Position]:
        """The start position and the position after each action (``len(actions) + 1``)."""
        return [self._at(k) for k in range(self._cursor + 1)]

    def legal_moves(self) -> list[Move]:
        """The legal moves in the current position."""
        return self.position.legal_moves()

    def autoplay_moves(self) -> list[Move]:
        """The safe foundation moves autoplay would make now: none right after a take-back
        (a deliberate move off a foundation is not sent straight back up)."""
        if self._cursor and self._history[self._cursor - 1][0][0].source.kind is (
            PlaceKind.FOUNDATION
        ):
            return []
        return autoplay_moves(self.position)

    def view(self) -> GameView:
        """Everything a face shows about the current state, computed once per state
        (see :class:`eightoff.view.GameView`)."""
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _build_view(self) -> GameView:
        pos = self.position
        legal = pos.legal_moves()
        status = Status.WON if pos.is_won() else Status.PLAYING if legal else Status.STUCK
        self._status = (pos, status)
        by_source: dict[Place, list[Move]] = {}
        for i, col in enumerate(pos.columns):
            if col:
                by_source[column(i)] = []
        for k, held in enumerate(pos.cells):
            if held is not None:
                by_source[cell(k)] = []
        for m in legal:
            if m.source in by_source:
                by_source[m.source].append(m)
        piles = {
            place: PileView(
                place=place,
                home=next((m for m in moves if m.target.kind is PlaceKind.FOUNDATION), None),
                smart=smart_move(pos, place, moves),
                moves=tuple(moves),
                targets=tuple(dict.fromkeys(target_pile(pos, m) for m in moves)),
            )
            for place, moves in by_source.items()
        }
        done = finish_moves(pos)
        return GameView(
            position=pos,
            status=status,
            score=self.score,
            legal_moves=tuple(legal),
            piles=MappingProxyType(piles),
            finish=None if done is None else tuple(done),
            autoplay=tuple(self.autoplay_moves()),
        )

    # -- playing -------------------------------------------------------------------

    def play(self, move: Move) -> Action:
        """Play ``move`` (plus autoplay, when on) as one action; raises ``IllegalMoveError``."""
        before = self.position
        pos = before.apply(move)
        moves = [move]
        cards = [before.moving_cards(move)[0]]
        # A take-back is deliberate: autoplay must not send the card straight back up.
        if self._autoplay and move.source.kind is not PlaceKind.FOUNDATION:
            for m in autoplay_moves(pos):
                cards.append(pos.moving_cards(m)[0])
                pos = pos.apply_unchecked(m)
                moves.append(m)
        return self._push(tuple(moves), tuple(cards), pos)

    def settle(self) -> list[Move]:
        """Play the moves :meth:`autoplay_moves` lists now as one action; return them."""
        moves = self.autoplay_moves()
        if moves:
            pos = self.position
            cards = []
            for m in moves:
                cards.append(pos.moving_cards(m)[0])
                pos = pos.apply_unchecked(m)
            self._push(tuple(moves), tuple(cards), pos)
        return moves

    def home_move(self, place: Place) -> Action | None:
        """Send the card at ``place`` to its foundation if allowed (a single tap), else ``None``."""
        move = home_move(self.position, place)
        return None if move is None else self.play(move)

    def smart_move(self, place: Place) -> Action | None:
        """Double tap: play the first fitting move from ``place`` (see :func:`smart_move`)."""
        move = smart_move(self.position, place)
        return None if move is None else self.play(move)

    def undo(self) -> Action | None:
        """Take back the last action (with its autoplayed moves); ``None`` if there is none."""
        if self._cursor == 0:
            return None
        self._cursor -= 1
        self._view = None
        self._home_ever -= self._history[self._cursor][2]
        return self.action(self._cursor)

    def redo(self) -> Action | None:
        """Play again the last undone action; ``None`` if there is none."""
        if self._cursor == len(self._history):
            return None
        self._home_ever |= self._history[self._cursor][2]
        self._cursor += 1
        self._view = None
        return self.action(self._cursor - 1)

    def replay(self, moves: Iterable[Move | Sequence[Move]]) -> int:
        """Apply moves in order, each as its own action, without autoplay; return how many.

        An item may also be a sequence of moves played as one action (a move and
        the foundation moves autoplay added to it), so a client that stored
        :attr:`actions` can rebuild the same undo steps. Every move is checked;
        the first illegal one raises :class:`ReplayError` (an ``IllegalMoveError``)
        with its 0-based index in the flattened list, and the actions before the
        one holding it stay played.

        Cheap for long games: the moves are checked and played on a :class:`Board`
        (:meth:`Board.play_all`: the C core when it is built, else the rules of
        :meth:`Position.illegality`), only the last position is built (earlier ones when
        asked for: undo, positions) and each :class:`Action` when asked for.
        """
        items = moves if isinstance(moves, Sequence) else list(moves)
        board: Board | None = None
        index = 0
        half_way = False  # a group stopped after some of its moves
        try:
            k = 0
            while k < len(items):
                item = items[k]
                if board is None:
                    board = Board(self.position)
                if isinstance(item, Move):  # the usual item: one move, its own action
                    # Take the whole stretch of single moves at once (the C core's replay).
                    end = k + 1
                    while end < len(items) and isinstance(items[end], Move):
                        end += 1
                    singles = cast("Sequence[Move]", items[k:end])
                    cards, error = board.play_all(singles)
                    self._record_singles(singles, cards)
                    index += len(cards)
                    if error is not None:
                        raise error
                    k = end
                    continue
                k += 1
                if not item:
                    continue
                cards = []
                for move in item:
                    if not isinstance(move, Move):  # e.g. "3a" text: a str is a sequence too
                        raise TypeError(f"replay takes Move values, not {move!r} (Move.from_text)")
                    cards.append(board.play(move))
                    half_way = True
                    index += 1
                half_way = False
                self._record(tuple(item), tuple(cards))
        except IllegalMoveError as error:
            raise ReplayError(index, error) from None
        finally:
            # The board shows the last action's position unless a group stopped half-way
            # (that position is then built from the history when asked for).
            if board is not None and not half_way and self._positions[self._cursor] is None:
                self._positions[self._cursor] = board.position()
        return index

    def _record(self, moves: tuple[Move, ...], cards: tuple[Card, ...]) -> Action:
        # Append an action (dropping the undone ones): cards reaching a foundation for
        # the first time in this history earn points; a take-back moves a card off a
        # foundation and so never reaches one. Its position is left to the caller.
        earned = _NOTHING
        for move, card in zip(moves, cards, strict=True):
            if move.target.kind is PlaceKind.FOUNDATION and card not in self._home_ever:
                earned = earned | {card}
        self._drop_undone()
        action = Action(moves, POINTS_PER_CARD * len(earned), cards)
        self._history.append((moves, cards, earned))
        self._built.append(action)
        self._positions.append(None)
        self._home_ever |= earned
        self._cursor += 1
        self._view = None
        return action

    def _record_singles(self, moves: Sequence[Move], cards: list[Card]) -> None:
        # _record for one-move actions, many at once; their Action values are made when
        # asked for (a long replay makes none).
        self._drop_undone()
        home = self._home_ever
        add = self._history.append
        to_foundation = PlaceKind.FOUNDATION
        for move, card in zip(moves, cards, strict=False):
            if move.target.kind is to_foundation and card not in home:
                home.add(card)
                add(((move,), (card,), frozenset((card,))))
            else:
                add(((move,), (card,), _NOTHING))
        self._built += [None] * len(cards)
        self._positions += [None] * len(cards)
        self._cursor += len(cards)
        self._view = None

    def _drop_undone(self) -> None:
        if self._cursor < len(self._history):
            del self._history[self._cursor :]
            del self._built[self._cursor :]
            del self._positions[self._cursor + 1 :]

    def _push(self, moves: tuple[Move, ...], cards: tuple[Card, ...], after: Position) -> Action:
        action = self._record(moves, cards)
        self._positions[self._cursor] = after
        return action

    def __repr__(self) -> str:
        code = f" {self._code}" if self._code is not None else ""
        return f"<Game{code} {len(self.actions)} actions, score {self.score}, {self.status.value}>"


_NOTHING: Final[frozenset[Card]] = frozenset()
_Entry = tuple[tuple[Move, ...], tuple[Card, ...], frozenset[Card]]


def _home_cards(position: Position) -> set[Card]:
    return {CARDS[s * 13 + r] for s, top in enumerate(position.foundations) for r in range(top)}


__all__ = [
    "POINTS_PER_CARD",
    "Action",
    "Game",
    "ReplayError",
    "Status",
    "autoplay_moves",
    "finish_moves",
    "home_move",
    "is_safe_home",
    "smart_move",
]
