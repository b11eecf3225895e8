"""The terminal face: a Textual app that plays one :class:`~eightoff.game.Game` at a time.

The app draws what the engine says and sends it moves; every rule lives in the
engine (:meth:`Position.legal_moves`, :meth:`Position.why_illegal`, :class:`Game`).

Keys (the help screen, F1, lists them): a source (``1``-``8`` columns, ``a``-``h``
cells), then a target (the same, or ``0``/``^`` for the foundation); the same key
twice is the engine's smart move. Letters only ever name cells, so the map is the
same under every rule set. Arrow keys move a cursor between piles and ``Enter``
picks and drops there. The mouse does the same: click a source, then a target, or drag
from one to the other; a click inside a run picks the run from that card; a double click
is the smart move. The clock, the statistics and the saved game are a :class:`Session`'s.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import Footer, Static

from eightoff.game import Action, Game, Status
from eightoff.moves import (
    CELL_LETTERS,
    FOUNDATION,
    Move,
    Place,
    PlaceKind,
    cell,
    column,
    foundation,
)
from eightoff.position import COLUMNS, Position
from eightoff.rules import Rules
from eightoff.tui.board import CardShape, Pile, pile_cards
from eightoff.tui.commands import GameCommands
from eightoff.tui.session import Session
from eightoff.tui.solution import Snapshot, Solution, hint_text
from eightoff.tui.userdata import NewGameChoice, Settings, Stats, UserData, clock
from eightoff.tui.words import capital, cards_name, counted, describe, run_name
from eightoff.view import target_pile

if TYPE_CHECKING:
    from textual.theme import Theme

    from eightoff.solver.hint import Hint

# The solver, the pool and the dialogs are imported when first used, so the board is
# drawn before they load (benchmarks/tui_startup.py).
SOLUTION_SECONDS = 5.0
CHROME_ROWS = 4  # the status line, two message lines and the footer (eightoff.tcss)


class EightOffApp(App[None]):
    """Eight Off in the terminal: pick a source, then a target; the engine does the rest."""

    TITLE = "Eight Off"
    CSS_PATH = "eightoff.tcss"
    COMMANDS = App.COMMANDS | {GameCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i + 1), f"pick('{i + 1}')", show=False) for i in range(COLUMNS)),
        *(Binding(letter, f"pick('{letter}')", show=False) for letter in CELL_LETTERS),
        Binding("0,circumflex_accent", "pick('0')", "foundation", show=False),
        Binding("left", "cursor(-1, 0)", "left", show=False),
        Binding("right", "cursor(1, 0)", "right", show=False),
        Binding("up", "cursor(0, -1)", "up", show=False),
        Binding("down", "cursor(0, 1)", "down", show=False),
        Binding("enter,space", "enter", "pick/drop", show=False),
        Binding("home", "solution_go(0)", show=False),
        Binding("end", "solution_go(-1)", show=False),
        Binding("escape", "cancel", "cancel", show=False),
        Binding("f1", "help", "help"),
        Binding("question_mark", "hint", "hint", key_display="?"),
        Binding("u,ctrl+z", "undo", "undo", key_display="u"),
        Binding("r,ctrl+y", "redo", "redo", key_display="r"),
        Binding("s", "solution", "solution", show=False),
        Binding("p", "toggle_autoplay", "autoplay", show=False),
        Binding("n", "new_game", "new"),
        Binding("y", "copy_code", "copy code", show=False),
        Binding("q", "quit_game", "quit"),
    ]

    message: reactive[str] = reactive("")
    status_line: reactive[str] = reactive("")
    cursor: reactive[Place] = reactive(column(0))
    shape: reactive[CardShape] = reactive(CardShape())
    """The size of the cards: the biggest the terminal holds (see :meth:`fit`)."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        data: UserData | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.data = data if data is not None else UserData(None)
        self.settings: Settings = self.data.settings
        self.rng = rng if rng is not None else random.Random()
        self._clock = clock
        self.selected: Place | None = None
        self.picked = 0
        """How many cards of the selected column the player picked up from inside its run
        (0: as many as may move, the longest run that fits)."""
        self._grabbed: tuple[Place, int] | None = None  # where a mouse drag started
        self.hinted: Move | None = None
        self.solution: Solution | None = None
        saved = self.data.saved_game()
        # The game kept from last time resumes, unless another is asked for; asked for by
        # its own code, it resumes too.
        self._resumed = saved is not None and (
            game is None or (not game.actions and game.code == saved.game.code)
        )
        self._kept = saved if saved is not None and not self._resumed else None
        if saved is not None and self._resumed:
            self.session = Session(saved.game, self.data, clock, saved=saved)
        else:
            if game is None:
                s = self.settings
                game = self._deal(NewGameChoice(s.rules, s.winnable, s.difficulty))
            self.session = Session(game, self.data, clock)

    # -- layout --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Container(id="table"), Vertical(id="board"):
            with Horizontal(id="top"):
                for k in range(8):
                    yield Pile(cell(k), id=f"cell-{k + 1}")
                yield Static("", id="gap")
                for s in range(4):
                    yield Pile(foundation(s), id=f"foundation-{'SHDC'[s]}")
            with Horizontal(id="columns"):
                for j in range(COLUMNS):
                    yield Pile(column(j), id=f"column-{j + 1}")
        yield Static("", id="too-small")
        yield Static("", id="status")
        yield Static("", id="message")
        yield Footer()

    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.session.game

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self._resumed:
            self.message = f"Welcome back: game {self.game.code} resumed"
        else:
            self._autoplay_start()
            if self._kept is not None:
                self.message = (
                    f"Your game {self._kept.game.code} is kept until you move here: "
                    "quit now and eightoff play resumes it"
                )
        self._after_change()
        self.watch_cursor(self.cursor)
        self.set_interval(1.0, self._tick)

    def on_unmount(self) -> None:
        # Quitting keeps the game with the time played up to now.
        self.session.save()

    def _theme_changed(self, theme: Theme) -> None:
        # The theme chosen is kept for the next run.
        if theme.name != self.settings.theme:
            self.settings = replace(self.settings, theme=theme.name)
            self.data.settings = self.settings

    def watch_message(self, text: str) -> None:
        with contextlib.suppress(Exception):
            self.query_one("#message", Static).update(text)

    def watch_status_line(self, text: str) -> None:
        with contextlib.suppress(Exception):
            self.query_one("#status", Static).update(text)

    def watch_cursor(self, place: Place) -> None:
        for pile in self.query(Pile):
            pile.cursor = pile.place == place

    def watch_shape(self, shape: CardShape) -> None:
        for pile in self.query(Pile):
            pile.shape = shape
        with contextlib.suppress(Exception):
            self.query_one("#gap").styles.width = 2 * shape.gutter

    # -- the game ------------------------------------------------------------------

    def moves_played(self) -> int:
        """The player's actions so far (the deal's opening autoplay is not one)."""
        return self.session.moves_played()

    def seconds(self) -> float:
        """Time played on this game (see :meth:`Session.seconds`)."""
        return self.session.seconds()

    def _autoplay_start(self) -> bool:
        # As in the web game: with autoplay on, the cards a new deal can send home safely
        # go there at once, as one action (undo takes them back).
        if self.game.autoplay and not self.game.actions and self.game.settle():
            action = self.session.start_action = self.game.actions[0]
            self.message = f"Autoplay sent {counted(len(action.moves), 'card')} home"
            return True
        return False

    def _deal(self, choice: NewGameChoice) -> Game:
        from eightoff.tui.deals import pick_deal

        code = pick_deal(choice, self.rng)
        return Game(code, autoplay=self.settings.autoplay)

    def start(self, game: Game, message: str) -> None:
        """Play ``game`` from now on (the current one is given up if started)."""
        self.session.give_up()
        self.session = Session(game, self.data, self._clock)
        self.selected = None
        self.hinted = None
        self.solution = None
        self.message = message
        self._autoplay_start()
        self._after_change()

    def in_progress(self) -> bool:
        """Whether the player has moved in a game not yet won."""
        return self.session.in_progress()

    # -- drawing -------------------------------------------------------------------

    def shown_position(self) -> Position:
        """The position on the board: the game's, or the solution's step."""
        solution = self.solution
        return self.game.position if solution is None else solution.positions[solution.step]

    def refresh_board(self) -> None:
        """Redraw every pile and the status line from the game's view (or the solution)."""
        game = self.game
        view = game.view()
        position = self.shown_position()
        cells = game.rules.cells
        selected = self.selected
        # Where the selection may go, as the engine's view says: lit as targets. (The view
        # lists columns and cells; a foundation pile, a take-back's source, from its moves.)
        targets: set[Place] = set()
        if selected is not None and selected.kind is PlaceKind.FOUNDATION:
            targets = {view.target_pile(m) for m in view.legal_moves if m.source == selected}
        elif selected is not None:
            targets = set(view.targets(selected))
        hinted = self.hinted
        hint_target = None if hinted is None else target_pile(position, hinted)
        self.fit(position)
        for pile in self.query(Pile):
            place = pile.place
            pile.display = place.kind is not PlaceKind.CELL or place.index < cells
            pile.cards = pile_cards(place, position)
            pile.lit = self._lit(place, position)
            pile.set_class(place == selected, "-selected")
            pile.set_class(place in targets, "-target")
            pile.set_class(hinted is not None and hinted.source == place, "-hint-source")
            pile.set_class(hint_target == place, "-hint-target")
        self._update_status()

    def _update_status(self) -> None:
        game = self.game
        shown = {Status.PLAYING: "playing", Status.WON: "won", Status.STUCK: "no moves"}[
            game.status
        ]
        code = str(game.code) if game.code is not None else "custom position"
        self.status_line = (
            f"{code} · moves {self.moves_played()} · score {game.score} · "
            f"{clock(self.seconds())} · {shown} · autoplay {'on' if game.autoplay else 'off'}"
        )

    def _tick(self) -> None:
        self._update_status()

    def _lit(self, place: Place, position: Position) -> int:
        # The selected pile lights the cards that may move from it: a column its run, or
        # the part of it picked up.
        if place != self.selected:
            return 0
        if place.kind is PlaceKind.COLUMN:
            return self.picked or position.run_length(place.index)
        return 1

    def say(self, message: str) -> None:
        """Show ``message`` and redraw."""
        self.message = message
        self.refresh_board()

    def fit(self, position: Position, size: Size | None = None) -> None:
        """Size the cards to the terminal (``size``, else the app's) and to
        ``position``'s longest column."""
        width, height = self.size if size is None else size
        across = max(COLUMNS, self.game.rules.cells + 4)
        self.shape = CardShape.fitting(
            width,
            height - CHROME_ROWS,
            across=across,
            longest=max(len(c) for c in position.columns),
        )
        # A terminal too small for the smallest cards shows what it needs, not a clipped
        # board.
        need = CardShape.smallest_board(across)
        need_height = need.height + CHROME_ROWS
        small = width < need.width or height < need_height
        self.set_class(small, "-too-small")
        if small:
            with contextlib.suppress(Exception):
                self.query_one("#too-small", Static).update(
                    f"The board does not fit: make the window at least "
                    f"{need.width}×{need_height} (it is {width}×{height})"
                )

    def on_resize(self, event: events.Resize) -> None:
        # Before Textual lays the screen out at the new size, so it does so once.
        self.fit(self.shown_position(), event.size)

    # -- picking places ------------------------------------------------------------

    def action_pick(self, key: str) -> None:
        """A place key: ``1``-``8``, ``a``-``h``, or ``0`` for the foundation."""
        if self._in_solution():
            return
        if key == "0":
            self._pick_foundation()
        elif key.isdigit():
            self.cursor = column(int(key) - 1)
            self.pick(column(int(key) - 1))
        else:
            index = CELL_LETTERS.index(key)
            if index >= self.game.rules.cells:
                self.say(f"There is no cell {key}: these rules have {self.game.rules.cells} cells")
                return
            self.cursor = cell(index)
            self.pick(cell(index))

    def _pick_foundation(self) -> None:
        # As a target: the foundation. As a source (take-back rules): the first foundation
        # pile holding a card, and the next one each time 0 is pressed again.
        selected = self.selected
        if selected is not None and selected.kind is not PlaceKind.FOUNDATION:
            self.pick(FOUNDATION)
            return
        if not self.game.rules.take_back:
            self.say("Pick a card to move first, then 0 sends it to its foundation")
            return
        position = self.game.position
        start = 0 if selected is None else selected.index + 1
        for k in range(4):
            pile = foundation((start + k) % 4)
            if position.top(pile) is not None:
                self.selected = None
                self.cursor = pile
                self.pick(pile)
                return
        self.say("The foundations are empty")

    def pick(self, place: Place, depth: int = 1) -> None:
        """Select ``place`` as the source (``depth`` cards from the top of a column's run:
        that part of it), or play from the selection to it."""
        if self.game.status is Status.WON:
            self.say(self._won_message())
            return
        source = self.selected
        if source is None:
            self._select(place, depth)
        elif source == place:
            self.smart(place)
        else:
            self.selected = None
            self.move(source, place, self.picked)

    def _select(self, place: Place, depth: int = 1) -> None:
        position = self.game.position
        if place.kind is PlaceKind.FOUNDATION and not self.game.rules.take_back:
            self.say("Cards stay on the foundations under these rules: pick a column or a cell")
            return
        top = position.top(place)
        if top is None:
            self.say(f"{capital(place.name())} is empty")
            return
        self.selected = place
        self.picked = self._part(place, depth)
        cards = run_name(position.columns[place.index][-self.picked :]) if self.picked else None
        self.say(
            f"Picked {cards or top.symbol()} from {place.name()}: now a target, "
            "or again for the smart move"
        )

    def _part(self, place: Place, depth: int) -> int:
        # A card inside a column's run picks the run from it; any other card the whole run.
        if place.kind is not PlaceKind.COLUMN or depth <= 1:
            return 0
        return depth if depth <= self.game.position.run_length(place.index) else 0

    @on(Pile.Picked)
    def _clicked(self, event: Pile.Picked) -> None:
        if self._in_solution():
            return
        self.cursor = event.place
        self.pick(event.place, event.depth)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # Any press forgets an earlier one; a press on a pile is kept as it arrives
        # (Pile.Grabbed, handled after this).
        self._grabbed = None

    @on(Pile.Grabbed)
    def _grab(self, event: Pile.Grabbed) -> None:
        self._grabbed = (event.place, event.depth)

    @on(Pile.Dropped)
    def _drop(self, event: Pile.Dropped) -> None:
        # A drag from one pile to another plays the move (a click is handled as one).
        grabbed, self._grabbed = self._grabbed, None
        if grabbed is None or grabbed[0] == event.place or self._in_solution():
            return
        if self.game.status is Status.WON:
            self.say(self._won_message())
            return
        source, depth = grabbed
        self.selected = None
        self.cursor = event.place
        self.move(source, event.place, self._part(source, depth))

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor between piles (in the solution: ← → step through it)."""
        if self.solution is not None:
            if dx:
                self.action_solution_go(self.solution.step + dx)
            return
        top = [cell(k) for k in range(self.game.rules.cells)] + [foundation(s) for s in range(4)]
        bottom = [column(j) for j in range(COLUMNS)]
        here = self.cursor
        row = bottom if here.kind is PlaceKind.COLUMN else top
        at = row.index(here) if here in row else 0
        if dx:
            self.cursor = row[(at + dx) % len(row)]
        elif dy > 0 and row is top:
            self.cursor = bottom[min(at, COLUMNS - 1)]
        elif dy < 0 and row is bottom:
            self.cursor = top[min(at, len(top) - 1)]

    def action_enter(self) -> None:
        """Pick the pile under the cursor, drop the picked cards on it, or (twice) the smart
        move; in the solution, play on from the step shown."""
        if self.solution is not None:
            self.keep_solution()
            return
        place = self.cursor
        if (
            self.selected is not None
            and place.kind is PlaceKind.FOUNDATION
            and (self.selected.kind is not PlaceKind.FOUNDATION)
        ):
            self.pick(FOUNDATION)
            return
        self.pick(place)

    def action_cancel(self) -> None:
        """Drop the selection and the hint; leave the solution."""
        if self.solution is not None:
            self.solution = None
            self.query_one("#message").remove_class("-solution")
            self.say("Back to your game")
            return
        self.selected = None
        self.hinted = None
        self.say("")

    # -- playing -------------------------------------------------------------------

    def move(self, source: Place, target: Place, count: int = 0) -> None:
        """Play the legal move of ``count`` cards from ``source`` to ``target``, or say
        why there is none.

        Without a ``count``, when several run lengths could go (into an empty column),
        the longest one moves, as a drag of the run would; the engine decides which are
        legal.
        """
        view = self.game.view()
        position = view.position
        if target.kind is PlaceKind.FOUNDATION:
            target = FOUNDATION
        if count > 1:
            wanted = Move(source, target, count)
            if wanted in view.legal_moves:
                self.play(wanted)
            else:
                self.say(capital(position.why_illegal(wanted) or "that move is not allowed"))
            return
        legal = view.move_to(source, target)
        if legal is None and source.kind is PlaceKind.FOUNDATION:  # a take-back
            legal = next(
                (m for m in view.legal_moves if (m.source, m.target) == (source, target)), None
            )
        if legal is not None:
            self.play(legal)
            return
        move = self._explained(source, target, position)
        self.selected = None
        self.say(capital(position.why_illegal(move) or "that move is not allowed"))

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
        """Play the legal ``move`` through the game."""
        before = self.game.position
        self._played(self.game.play(move), before)

    def smart(self, source: Place) -> None:
        """The engine's smart move from ``source``."""
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
            text += f"; autoplay sent {counted(len(action.autoplayed), 'card')} home"
        self.message = self._started(text)
        self._after_change()

    def _started(self, text: str) -> str:
        # The player moved: ``text``, and the game kept from last time if this one now
        # replaces it.
        replaced = self.session.started()
        if replaced is None:
            return text
        return f"{text} · game {replaced.game.code} given up"

    def _after_change(self) -> None:
        status = self.game.status
        if status is Status.WON:
            self.message = self._won_message()
        elif status is Status.STUCK:
            self.message = "No moves left: undo (u) or start a new game (n)"
        self.session.sync()
        self.refresh_board()
        self.session.save()
        if status is Status.WON:
            stats = self.session.win()
            if stats is not None:
                self._win(stats)

    def _win(self, stats: Stats) -> None:
        moves = self.moves_played()
        seconds = self.seconds()
        from eightoff.tui.screens import WinReport

        report = WinReport(
            moves,
            self.game.score,
            seconds,
            stats,
            self.game.rules.describe(),
            helped=self.session.assisted,
        )

        def again(yes: bool | None) -> None:
            if yes:
                self.action_new_game()

        from eightoff.tui.screens import WinScreen

        self.push_screen(WinScreen(report), again)

    def _won_message(self) -> str:
        n = self.moves_played()
        return f"You won in {n} move{'s' if n != 1 else ''}! Press n for a new game."

    def action_undo(self) -> None:
        """Take back the last action (with what autoplay added to it)."""
        if self._in_solution():
            return
        self.selected = None
        self.hinted = None
        action = self.game.undo()
        if action is None:
            self.message = "Nothing to undo"
        else:
            after = self.game.positions()[-1]
            cards = cards_name(action.move, after)
            self.message = f"Undid: {cards} back to {action.move.source.name()}"
        self._after_change()

    def action_redo(self) -> None:
        """Play the last undone action again."""
        if self._in_solution():
            return
        self.selected = None
        self.hinted = None
        before = self.game.position
        action = self.game.redo()
        self.message = (
            "Nothing to redo" if action is None else f"Redid {describe(action.move, before)}"
        )
        self._after_change()

    def action_restart(self) -> None:
        """Back to the start of this deal (undo takes the restart back step by step)."""
        if self._in_solution():
            return
        while self.game.undo() is not None:
            pass
        self.selected = None
        self.hinted = None
        self.message = "Restarted the deal: redo (r) replays your moves"
        self._after_change()

    def action_toggle_autoplay(self) -> None:
        """Turn autoplay of safe foundation moves on or off (kept as a setting)."""
        on_now = not self.game.autoplay
        self.game.autoplay = on_now
        self.settings = replace(self.settings, autoplay=on_now)
        self.data.settings = self.settings
        if not on_now or self.solution is not None:
            self.say(f"Autoplay {'on' if on_now else 'off'}")
        elif self._autoplay_start():
            self._after_change()
        elif self.game.status is not Status.WON and self.game.settle():
            # Cards already safe to send home go there at once, as one action.
            sent = self.game.actions[-1].moves
            self.message = self._started(f"Autoplay on: sent {counted(len(sent), 'card')} home")
            self._after_change()
        else:
            self.say("Autoplay on")

    def action_help(self) -> None:
        """Show the rules and the keys."""
        from eightoff.tui.screens import HelpScreen

        self.push_screen(HelpScreen(self.game.rules))

    def action_new_game(self, code_first: bool = False) -> None:
        """Ask for a new game: a game code, or difficulty and rules (starting from the
        current game's), giving up the game started."""

        def chosen(choice: NewGameChoice | None) -> None:
            if choice is not None:
                self.new_game(choice)

        from eightoff.tui.screens import NewGameScreen

        self.push_screen(
            NewGameScreen(
                self.settings,
                self.game.rules,
                in_progress=self.session.gives_up(),
                code_first=code_first,
            ),
            chosen,
        )

    def action_open_code(self) -> None:
        """Ask for a game code to play (the New game dialog, its code field first)."""
        self.action_new_game(code_first=True)

    def action_copy_code(self) -> None:
        """Copy the game's code to the clipboard (the terminal's, through OSC 52)."""
        code = self.game.code
        if code is None:
            self.say("This position has no game code")
            return
        self.copy_to_clipboard(str(code))
        self.say(f"Copied the game code {code}")

    def new_game(self, choice: NewGameChoice) -> None:
        """Deal a new game as ``choice`` says; its rules and how to deal become the
        setting for the next one (a game code leaves them as they were)."""
        if choice.code is None:
            s = replace(self.settings, winnable=choice.winnable, difficulty=choice.difficulty)
            self.settings = replace(s, rules=choice.rules)
            self.data.settings = self.settings
        from eightoff.daily import DailyError

        try:
            game = self._deal(choice)
        except DailyError as exc:
            self.say(f"No deal of the day: {exc}")
            return
        what = "The deal of the day" if choice.daily else "Game" if choice.code else "New game"
        self.start(game, f"{what}: {game.code}")

    def new_game_with(self, rules: Rules | None = None, difficulty: str | None = None) -> None:
        """A new deal like the last, with other ``rules`` or ``difficulty`` (the palette);
        asks first when a game is in progress."""
        s = self.settings
        choice = NewGameChoice(
            rules if rules is not None else s.rules,
            s.winnable,
            difficulty if difficulty is not None else s.difficulty,
        )
        self._unless_in_progress(lambda: self.new_game(choice))

    def action_daily(self) -> None:
        """Play the deal of the day under the current rules (as in the web game)."""
        s = self.settings
        choice = NewGameChoice(s.rules, s.winnable, s.difficulty, daily=True)
        self._unless_in_progress(lambda: self.new_game(choice))

    def _unless_in_progress(self, then: Callable[[], None]) -> None:
        # Giving up a started game counts as a loss (even undone to its deal): ask first.
        if self.session.gives_up():
            self._confirm("Give up this game for a new deal? It counts as lost.", "New deal", then)
        else:
            then()

    def action_quit_game(self) -> None:
        """Quit, asking first when a game is in progress (it is kept and resumes)."""
        if self.in_progress():
            self._confirm("Quit? This game is kept: eightoff play resumes it.", "Quit", self.exit)
        else:
            self.exit()

    def _confirm(self, question: str, yes: str, then: Callable[[], None]) -> None:
        # Ask ``question``; ``then`` runs when the player answers ``yes``.
        from eightoff.tui.screens import ConfirmScreen

        def answer(confirmed: bool | None) -> None:
            if confirmed:
                then()

        self.push_screen(ConfirmScreen(question, yes), answer)

    def action_stats(self) -> None:
        """Show the record of every rule set played."""
        from eightoff.tui.screens import StatsScreen

        self.push_screen(StatsScreen(self.data.all_stats()))

    # -- hints ---------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the solver (in a thread) for a move on a winning line."""
        if self._in_solution():
            return
        game = self.game
        if game.status is Status.WON:
            self.say(self._won_message())
            return
        self.selected = None
        self.hinted = None
        self.say("Thinking…")
        self._find_hint(Snapshot(game.position, tuple(game.positions())))

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, snapshot: Snapshot) -> None:
        from eightoff.solver.hint import hint

        found = hint(snapshot)
        with contextlib.suppress(RuntimeError):  # the app quit while the solver thought
            self.call_from_thread(self.show_hint, snapshot, found)

    def show_hint(self, snapshot: Snapshot, found: Hint) -> None:
        """Show a hint found for ``snapshot`` (dropped if the game moved on meanwhile)."""
        if self.game.position is not snapshot.position:
            return
        if found.winnable and found.move is not None:
            self.hinted = found.move
        self.say(hint_text(found, snapshot))

    # -- the solution --------------------------------------------------------------

    def _in_solution(self) -> bool:
        if self.solution is None:
            return False
        self.say(self.solution.text() + " · Enter: play on from here · Esc: back to your game")
        return True

    def action_solution(self) -> None:
        """Ask the solver (in a thread) for a winning line from the current position."""
        if self.solution is not None:
            return
        if self.game.status is Status.WON:
            self.say(self._won_message())
            return
        self.selected = None
        self.hinted = None
        self.say("Solving…")
        self._find_solution(self.game.position)

    @work(thread=True, exclusive=True, group="hint")
    def _find_solution(self, position: Position) -> None:
        from eightoff.solver import Limit, Verdict, solve

        result = solve(position, limit=Limit(nodes=None, seconds=SOLUTION_SECONDS))
        moves = result.moves if result.verdict is Verdict.SOLVED else None
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(self.show_solution, position, moves)

    def show_solution(self, position: Position, moves: tuple[Move, ...] | None) -> None:
        """Enter the solution mode on ``moves`` from ``position`` (``None``: not found)."""
        if self.game.position is not position:
            return
        if moves is None:
            self.say("The solver found no winning line from here: undo (u) or ask a hint (?)")
            return
        self.solution = Solution.of(position, tuple(moves))
        self.query_one("#message").add_class("-solution")
        self.action_solution_go(0)

    def action_solution_go(self, step: int) -> None:
        """Show step ``step`` of the solution (-1: the last)."""
        sol = self.solution
        if sol is None:
            return
        self.hinted = sol.go(step)
        self.say(f"{sol.text()} · ← → step · Enter: play on from here · Esc: back")

    def keep_solution(self) -> None:
        """Leave the solution, playing its moves up to the step shown."""
        sol = self.solution
        assert sol is not None
        self.solution = None
        self.hinted = None
        self.query_one("#message").remove_class("-solution")
        if sol.step:
            # As played, each its own action; the line already holds the foundation moves.
            self.game.replay(sol.moves[: sol.step])
            self.session.assisted = True
            text = f"Played {counted(sol.step, 'move')} of the solution"
            self.message = self._started(text)
        else:
            self.message = "Played no move of the solution"
        self._after_change()


__all__ = ["EightOffApp", "Solution", "cards_name", "describe"]
