"""The terminal face: a Textual app that plays one :class:`~eightoff.game.Game`.

The app draws what the engine says and sends it moves; every rule lives in the
engine (:meth:`Position.legal_moves`, :meth:`Position.why_illegal`, :class:`Game`).

Keys: a source (``1``-``8`` columns, ``a``-``h`` cells), then a target (the same,
or ``^``/``0`` for the foundation); ``Enter`` or the source key again asks the
engine for its smart move. ``f`` and ``h`` are cells when the rules have that
many cells, otherwise the foundation and the hint keys (``?`` always hints).
``S``/``H``/``D``/``C`` pick a foundation pile, the source of a take-back.
The mouse does the same: click a source, then a target; a double click is the
smart move.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Static

from eightoff.cards import SUIT_LETTERS, SUIT_SYMBOLS, Card
from eightoff.codes import GameCode
from eightoff.game import Action, Game, Status
from eightoff.moves import (
    CELL_LETTERS,
    FOUNDATION,
    IllegalMoveError,
    Move,
    Place,
    PlaceKind,
    cell,
    column,
    foundation,
)
from eightoff.position import COLUMNS, Position
from eightoff.solver.hint import Hint, hint

CARD_WIDTH = 3  # "10♥" is the widest card


def card_text(card: Card, *, lit: bool = False) -> Text:
    """A card as rank + suit symbol, red for hearts and diamonds, on a card-white face
    (yellow when ``lit``: picked up)."""
    face = "#ffe066" if lit else "#f4f4ec"
    style = f"bold {'#c8102e' if card.is_red else '#000000'} on {face}"
    return Text(card.symbol().rjust(CARD_WIDTH), style=style)


def describe(move: Move, position: Position) -> str:
    """``3a (7♥ to cell a)``: a move and the cards it carries, read in ``position``."""
    cards = position.moving_cards(move)
    what = cards[0].symbol() if len(cards) == 1 else f"{len(cards)} cards from {cards[0].symbol()}"
    return f"{move} ({what} to {move.target.name()})"


@dataclass(frozen=True, slots=True)
class _Snapshot:
    # What a hint reads of the game, copied on the UI thread for the worker thread.
    position: Position
    history: tuple[Position, ...]

    def positions(self) -> list[Position]:
        return list(self.history)


class Pile(Static):
    """One pile on the board: a column, a cell or a foundation; click it to pick it."""

    def __init__(self, place: Place, *, id: str) -> None:
        super().__init__("", id=id, classes=f"pile {place.kind.value}")
        self.place = place
        self._shown: tuple[tuple[Card | None, ...], int] | None = None  # cards, lit
        if place.kind is PlaceKind.COLUMN:
            self.label = str(place.index + 1)
        elif place.kind is PlaceKind.CELL:
            self.label = CELL_LETTERS[place.index]
        else:
            self.label = SUIT_SYMBOLS[place.index]

    def show(self, position: Position, lit: int = 0) -> None:
        """Draw this pile as it stands in ``position``, its last ``lit`` cards picked up:
        its key (or suit) on top, then its cards fanned downwards.

        The pile is redrawn only when that changed: every redraw costs a layout pass.
        """
        place = self.place
        cards: tuple[Card | None, ...]
        if place.kind is PlaceKind.COLUMN:
            cards = position.columns[place.index]
        else:
            cards = (position.top(place),)
        if (cards, lit) == self._shown:
            return
        self._shown = (cards, lit)
        lines = Text(self.label.center(CARD_WIDTH + 2), style="bold")
        if not cards or cards[0] is None:
            lines.append("\n  · ", style="dim")
        for n, card in enumerate(cards):
            if card is not None:
                lines.append("\n ")
                lines.append_text(card_text(card, lit=n >= len(cards) - lit))
        self.update(lines)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        app = self.app
        if isinstance(app, EightOffApp):
            app.pick(self.place)


class EightOffApp(App[None]):
    """Eight Off in the terminal: pick a source, then a target; the engine does the rest."""

    TITLE = "Eight Off"

    CSS = """
    Screen { layout: vertical; }
    #top { height: 3; padding-top: 1; }
    #gap { width: 2; }
    .pile { width: 5; margin-right: 1; height: 2; }
    #columns { height: 1fr; margin-top: 1; }
    #board { height: auto; }
    .column { height: auto; min-height: 2; }
    .pile.-selected { background: $warning 50%; }
    .pile.-target { background: $primary 35%; }
    .pile.-hint-source { background: $success 50%; }
    .pile.-hint-target { background: $success 50%; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #message { height: 2; padding: 0 1; }
    #help { height: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i + 1), f"pick('{i + 1}')", show=False) for i in range(COLUMNS)),
        *(Binding(letter, f"pick('{letter}')", show=False) for letter in CELL_LETTERS),
        *(Binding(f"{s},shift+{s.lower()}", f"pick('{s}')", show=False) for s in SUIT_LETTERS),
        Binding("circumflex_accent,0", "pick('^')", "foundation", key_display="^"),
        Binding("enter", "smart", "smart move", key_display="⏎"),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("u,ctrl+z", "undo", "undo", key_display="u"),
        Binding("r,ctrl+y", "redo", "redo", key_display="r"),
        Binding("question_mark", "hint", "hint", key_display="?"),
        Binding("ctrl+a", "toggle_autoplay", "autoplay", key_display="ctrl+a"),
        Binding("n", "new_game", "new game"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.selected: Place | None = None
        self.hinted: Move | None = None
        self.message = ""
        self._lines: dict[str, str] = {}
        self._start_action: Action | None = None  # the deal's own autoplay, not a player move

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            for k in range(8):
                yield Pile(cell(k), id=f"cell-{k + 1}")
            yield Static("", id="gap")
            for s in range(4):
                yield Pile(foundation(s), id=f"foundation-{'SHDC'[s]}")
        with VerticalScroll(id="columns"), Horizontal(id="board"):
            for j in range(COLUMNS):
                yield Pile(column(j), id=f"column-{j + 1}")
        yield Static("", id="status")
        yield Static("", id="message")
        yield Static("", id="help")
        yield Footer()

    def on_mount(self) -> None:
        self._autoplay_start()
        self._after_change()

    def moves_played(self) -> int:
        """The player's actions so far (the deal's opening autoplay is not one)."""
        actions = self.game.actions
        return len(actions) - (1 if actions and actions[0] is self._start_action else 0)

    def _autoplay_start(self) -> None:
        # As in the web game: with autoplay on, the cards a new deal can send home safely
        # go there at once, as one action (undo takes them back).
        home = self.game.autoplay_moves() if self.game.autoplay and not self.game.actions else []
        if home:
            self._start_action = self.game.play(home[0])  # autoplay plays the rest with it
            n = len(self._start_action.moves)
            self.message = f"Autoplay sent {n} card{'s' if n != 1 else ''} home"

    # -- drawing -------------------------------------------------------------------

    def refresh_board(self) -> None:
        """Redraw every pile, the status line and the message from the game."""
        game = self.game
        position = game.position
        cells = game.rules.cells
        # Where the selection may go, as the engine's legal moves say: lit as targets.
        targets = (
            set()
            if self.selected is None
            else {
                _target_pile(m, position)
                for m in position.legal_moves()
                if m.source == self.selected
            }
        )
        for pile in self.query(Pile):
            place = pile.place
            pile.display = place.kind is not PlaceKind.CELL or (place.index) < cells
            pile.show(position, self._lit(place, position))
            pile.set_class(place == self.selected, "-selected")
            pile.set_class(place in targets, "-target")
            hinted = self.hinted
            pile.set_class(hinted is not None and hinted.source == place, "-hint-source")
            pile.set_class(
                hinted is not None and _target_pile(hinted, position) == place, "-hint-target"
            )
        status = game.status
        shown = {Status.PLAYING: "playing", Status.WON: "won", Status.STUCK: "no moves"}[status]
        code = str(game.code) if game.code is not None else "custom position"
        line = (
            f"{code}  ·  moves {self.moves_played()}  ·  score {game.score}  ·  {shown}"
            f"  ·  autoplay {'on' if game.autoplay else 'off'}"
        )
        self._set_text("#status", line)
        message = self.message
        if self.selected is not None and not message:
            top = position.top(self.selected)
            card = f" ({top.symbol()})" if top is not None else ""
            message = (
                f"Picked {self.selected.name()}{card}: now a target, or Enter for the smart move"
            )
        self._set_text("#message", message)
        self._set_text("#help", self._help_line())

    def _set_text(self, selector: str, text: str) -> None:
        # Redraw a line only when it changed: every redraw costs a layout pass.
        if self._lines.get(selector) != text:
            self._lines[selector] = text
            self.query_one(selector, Static).update(text)

    def _lit(self, place: Place, position: Position) -> int:
        # The selected pile lights the cards that may move from it: a column its run.
        if place != self.selected:
            return 0
        if place.kind is PlaceKind.COLUMN:
            return position.run_length(place.index)
        return 1

    def _help_line(self) -> str:
        cells = self.game.rules.cells
        letters = CELL_LETTERS[:cells]
        extra = ""
        if cells < 6:
            extra += " · f foundation"
        if cells < 8:
            extra += " · h hint"
        if self.game.rules.take_back:
            extra += " · S/H/D/C take back"
        return (
            f"source then target: 1-8 columns · {letters[0]}-{letters[-1]} cells · "
            f"^ or 0 foundation{extra} · a key twice: smart move"
        )

    def say(self, message: str) -> None:
        """Show ``message`` in the message line."""
        self.message = message
        self.refresh_board()

    # -- picking places ------------------------------------------------------------

    def action_pick(self, key: str) -> None:
        """A place key: ``1``-``8``, ``a``-``h``, ``^``, or ``S``/``H``/``D``/``C`` for the
        foundation of that suit (a take-back's source)."""
        if key == "^":
            self.pick(FOUNDATION)
        elif key in SUIT_LETTERS:
            self.pick(foundation(SUIT_LETTERS.index(key)))
        elif key.isdigit():
            self.pick(column(int(key) - 1))
        else:
            index = CELL_LETTERS.index(key)
            if index < self.game.rules.cells:
                self.pick(cell(index))
            elif key == "f":
                self.pick(FOUNDATION)
            elif key == "h":
                self.action_hint()
            else:
                self.say(f"There is no cell {key}: these rules have {self.game.rules.cells} cells")

    def pick(self, place: Place) -> None:
        """Select ``place`` as the source, or play from the selection to it."""
        if self.game.status is Status.WON:
            self.say(self._won_message())
            return
        source = self.selected
        if source is None:
            self._select(place)
        elif source == place:
            self.action_smart()
        else:
            self.selected = None
            self.move(source, place)

    def _select(self, place: Place) -> None:
        position = self.game.position
        if place == FOUNDATION:
            self.say("Pick a card to move first, then ^ to send it to its foundation")
            return
        if position.top(place) is None:
            self.say(f"{place.name().capitalize()} is empty")
            return
        self.selected = place
        self.message = ""
        self.refresh_board()

    def action_cancel(self) -> None:
        """Drop the selection and the hint."""
        self.selected = None
        self.hinted = None
        self.say("")

    # -- playing -------------------------------------------------------------------

    def move(self, source: Place, target: Place) -> None:
        """Play the legal move from ``source`` to ``target``, or say why there is none.

        When several run lengths could go (into an empty column), the longest one
        moves, as a drag of the run would; the engine decides which are legal.
        """
        position = self.game.position
        if target.kind is PlaceKind.FOUNDATION:
            target = FOUNDATION
        fitting = [m for m in position.legal_moves() if m.source == source and m.target == target]
        if fitting:
            self.play(max(fitting, key=lambda m: m.count))
            return
        self.play(self._explained(source, target, position))

    @staticmethod
    def _explained(source: Place, target: Place, position: Position) -> Move:
        # The illegal move whose engine reason helps most: a run too long for the free
        # room says so, rather than "its first card does not fit".
        single = Move(source, target)
        if source.kind is PlaceKind.COLUMN and target.kind is PlaceKind.COLUMN:
            run = position.run_length(source.index)
            for n in range(run, 1, -1):
                longer = Move(source, target, n)
                reason = position.why_illegal(longer)
                if reason is not None and "needs more room" in reason:
                    return longer
        return single

    def play(self, move: Move) -> None:
        """Play ``move`` through the game; an illegal one shows the engine's reason."""
        before = self.game.position
        try:
            action = self.game.play(move)
        except IllegalMoveError as exc:
            self.selected = None
            self.say(f"Illegal: {exc}")
            return
        self._played(action, before)

    def action_smart(self) -> None:
        """The engine's smart move from the selected place (Enter, or the same key twice)."""
        source = self.selected
        if source is None:
            self.say("Pick a card first (1-8, a-h), then Enter for the smart move")
            return
        self.selected = None
        before = self.game.position
        action = self.game.smart_move(source)
        if action is None:
            top = before.top(source)
            card = top.symbol() if top is not None else "nothing"
            self.say(f"No move for {card} from {source.name()}")
            return
        self._played(action, before)

    def _played(self, action: Action, before: Position) -> None:
        self.selected = None
        self.hinted = None
        text = f"Played {describe(action.move, before)}"
        if action.autoplayed:
            n = len(action.autoplayed)
            text += f"; autoplay sent {n} card{'s' if n != 1 else ''} home"
        self.message = text
        self._after_change()

    def _after_change(self) -> None:
        status = self.game.status
        if status is Status.WON:
            self.message = self._won_message()
        elif status is Status.STUCK:
            self.message = "No moves left: undo (u) or start a new game (n)"
        self.refresh_board()

    def _won_message(self) -> str:
        n = self.moves_played()
        return f"You won in {n} move{'s' if n != 1 else ''}! Press n for a new game."

    def action_undo(self) -> None:
        """Take back the last action (with what autoplay added to it)."""
        self.selected = None
        self.hinted = None
        action = self.game.undo()
        self.message = "Nothing to undo" if action is None else f"Undid {action.move}"
        self._after_change()

    def action_redo(self) -> None:
        """Play the last undone action again."""
        self.selected = None
        self.hinted = None
        action = self.game.redo()
        self.message = "Nothing to redo" if action is None else f"Redid {action.move}"
        self._after_change()

    def action_toggle_autoplay(self) -> None:
        """Turn autoplay of safe foundation moves on or off."""
        self.game.autoplay = not self.game.autoplay
        self.say(f"Autoplay {'on' if self.game.autoplay else 'off'}")

    def action_new_game(self) -> None:
        """A new random deal under the same rules."""
        self.game = Game(GameCode.random(self.game.rules), autoplay=self.game.autoplay)
        self._start_action = None
        self.selected = None
        self.hinted = None
        self.message = f"New game {self.game.code}"
        self._autoplay_start()
        self._after_change()

    # -- hints ---------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the solver (in a thread) for a move on a winning line."""
        game = self.game
        if game.status is Status.WON:
            self.say(self._won_message())
            return
        self.selected = None
        self.hinted = None
        self.say("Thinking…")
        self._find_hint(_Snapshot(game.position, tuple(game.positions())))

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, snapshot: _Snapshot) -> None:
        found = hint(snapshot)
        with contextlib.suppress(RuntimeError):  # the app quit while the solver thought
            self.call_from_thread(self.show_hint, snapshot.position, found)

    def show_hint(self, position: Position, found: Hint) -> None:
        """Show a hint found for ``position`` (dropped if the game moved on meanwhile)."""
        if self.game.position is not position:
            return
        if found.winnable and found.move is not None:
            self.hinted = found.move
            self.say(f"Hint: {describe(found.move, position)} · {found.detail}")
        elif found.winnable is False and found.undo_to is not None:
            undos = len(self.game.positions()) - 1 - found.undo_to
            self.say(
                f"Lost: undo {undos} action{'s' if undos != 1 else ''} (u) to get back "
                "to a winnable position"
            )
        elif found.winnable is False:
            self.say("Lost: this deal cannot be won from its start · n for a new game")
        else:
            self.say(f"No hint: {found.detail}")


def _target_pile(move: Move, position: Position) -> Place:
    # A foundation target (no suit) is the pile of the moving card's suit.
    target = move.target
    if target == FOUNDATION:
        cards = position.moving_cards(move)
        if cards:
            return foundation(cards[0] // 13)
    return target


__all__ = ["EightOffApp", "Pile", "card_text", "describe"]
