"""The terminal face: a Textual app that plays one :class:`~eightoff.game.Game` at a time.

The app draws what the engine says and sends it moves; every rule lives in the
engine (:meth:`Position.legal_moves`, :meth:`Position.why_illegal`, :class:`Game`).

Keys (the help screen, F1, lists them): a source (``1``-``8`` columns, ``a``-``h``
cells), then a target (the same, or ``0``/``^`` for the foundation); the same key
twice is the engine's smart move. Letters only ever name cells, so the map is the
same under every rule set. Arrow keys move a cursor between piles and ``Enter``
picks and drops there. The mouse does the same: click a source, then a target, or drag
from one to the other; a click inside a run picks the run from that card; a double click
is the smart move. The app draws and takes the keys; a :class:`GameControl` plays the game
(moves, undo, hints, the solution, the clock and the statistics).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import Footer, Static

from eightoff.game import Game, Status
from eightoff.moves import CELL_LETTERS, FOUNDATION, Place, PlaceKind, cell, column, foundation
from eightoff.position import COLUMNS, Position
from eightoff.rules import Rules
from eightoff.tui.board import CardShape, Pile, pile_cards
from eightoff.tui.commands import GameCommands
from eightoff.tui.control import GameControl, HintFound, SolutionFound
from eightoff.tui.solution import Snapshot
from eightoff.tui.userdata import NewGameChoice, Settings, Stats, UserData
from eightoff.view import target_pile

if TYPE_CHECKING:
    from textual.theme import Theme

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
        self._grabbed: tuple[Place, int] | None = None  # where a mouse drag started
        self.control = GameControl(
            self, game, self.data, clock, rng if rng is not None else random.Random()
        )

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
        return self.control.game

    @property
    def settings(self) -> Settings:
        """The player's settings, as the control keeps them."""
        return self.control.settings

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.control.open()
        self.watch_cursor(self.cursor)
        self.set_interval(1.0, self._tick)

    def on_unmount(self) -> None:
        # Quitting keeps the game with the time played up to now.
        self.control.session.save()

    def _theme_changed(self, theme: Theme) -> None:
        # The theme chosen is kept for the next run.
        if theme.name != self.settings.theme:
            self.control.keep_setting(theme=theme.name)

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

    # -- what the control asks (its Face) ------------------------------------------

    def show(self, text: str) -> None:
        """Show ``text`` and redraw."""
        self.message = text
        with contextlib.suppress(Exception):
            self.query_one("#message").set_class(self.control.solution is not None, "-solution")
        self.refresh_board()

    def won(self, stats: Stats) -> None:
        """Show the win report; its button deals a new game."""
        from eightoff.tui.screens import WinReport, WinScreen

        session = self.control.session
        report = WinReport(
            session.moves_played(),
            self.game.score,
            session.seconds(),
            stats,
            self.game.rules.describe(),
            helped=session.assisted,
        )

        def again(yes: bool | None) -> None:
            if yes:
                self.action_new_game()

        self.push_screen(WinScreen(report), again)

    def confirm(self, question: str, yes: str, then: Callable[[], None]) -> None:
        """Ask ``question``; ``then`` runs when the player answers ``yes``."""
        from eightoff.tui.screens import ConfirmScreen

        def answer(confirmed: bool | None) -> None:
            if confirmed:
                then()

        self.push_screen(ConfirmScreen(question, yes), answer)

    # -- drawing -------------------------------------------------------------------

    def refresh_board(self) -> None:
        """Redraw every pile and the status line from the game's view (or the solution)."""
        control = self.control
        game = self.game
        view = game.view()
        position = control.shown_position()
        cells = game.rules.cells
        selected = control.selected
        # Where the selection may go, as the engine's view says: lit as targets. (The view
        # lists columns and cells; a foundation pile, a take-back's source, from its moves.)
        targets: set[Place] = set()
        if selected is not None and selected.kind is PlaceKind.FOUNDATION:
            targets = {view.target_pile(m) for m in view.legal_moves if m.source == selected}
        elif selected is not None:
            targets = set(view.targets(selected))
        hinted = control.hinted
        hint_target = None if hinted is None else target_pile(position, hinted)
        self.fit(position)
        for pile in self.query(Pile):
            place = pile.place
            pile.display = place.kind is not PlaceKind.CELL or place.index < cells
            pile.cards = pile_cards(place, position)
            pile.lit = control.lit(place, position)
            pile.set_class(place == selected, "-selected")
            pile.set_class(place in targets, "-target")
            pile.set_class(hinted is not None and hinted.source == place, "-hint-source")
            pile.set_class(hint_target == place, "-hint-target")
        self._tick()

    def _tick(self) -> None:
        self.status_line = self.control.status_text()

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
        self.fit(self.control.shown_position(), event.size)

    # -- picking places ------------------------------------------------------------

    def action_pick(self, key: str) -> None:
        """A place key: ``1``-``8``, ``a``-``h``, or ``0`` for the foundation."""
        if self.control.in_solution():
            return
        if key == "0":
            picked = self.control.pick_foundation()
            if picked is not None:
                self.cursor = picked
            return
        if key.isdigit():
            place = column(int(key) - 1)
        else:
            index = CELL_LETTERS.index(key)
            if index >= self.game.rules.cells:
                self.show(f"There is no cell {key}: these rules have {self.game.rules.cells} cells")
                return
            place = cell(index)
        self.cursor = place
        self.control.pick(place)

    @on(Pile.Picked)
    def _clicked(self, event: Pile.Picked) -> None:
        if self.control.in_solution():
            return
        self.cursor = event.place
        self.control.pick(event.place, event.depth)

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
        if grabbed is None or grabbed[0] == event.place or self.control.in_solution():
            return
        if self.game.status is not Status.WON:
            self.cursor = event.place
        self.control.drag(*grabbed, event.place)

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor between piles (in the solution: ← → step through it)."""
        solution = self.control.solution
        if solution is not None:
            if dx:
                self.control.solution_go(solution.step + dx)
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
        control = self.control
        if control.solution is not None:
            control.keep_solution()
            return
        place = self.cursor
        selected = control.selected
        if (
            selected is not None
            and place.kind is PlaceKind.FOUNDATION
            and selected.kind is not PlaceKind.FOUNDATION
        ):
            place = FOUNDATION
        control.pick(place)

    def action_cancel(self) -> None:
        """Drop the selection and the hint; leave the solution."""
        if self.control.solution is not None:
            self.control.leave_solution()
        else:
            self.control.drop_selection()

    # -- the game's actions --------------------------------------------------------

    def action_undo(self) -> None:
        """Take back the last action (with what autoplay added to it)."""
        if not self.control.in_solution():
            self.control.undo()

    def action_redo(self) -> None:
        """Play the last undone action again."""
        if not self.control.in_solution():
            self.control.redo()

    def action_restart(self) -> None:
        """Back to the start of this deal (undo takes the restart back step by step)."""
        if not self.control.in_solution():
            self.control.restart()

    def action_toggle_autoplay(self) -> None:
        """Turn autoplay of safe foundation moves on or off (kept as a setting)."""
        self.control.toggle_autoplay()

    def action_help(self) -> None:
        """Show the rules and the keys."""
        from eightoff.tui.screens import HelpScreen

        self.push_screen(HelpScreen(self.game.rules))

    def action_new_game(self, code_first: bool = False) -> None:
        """Ask for a new game: a game code, or difficulty and rules (starting from the
        current game's), giving up the game started."""

        def chosen(choice: NewGameChoice | None) -> None:
            if choice is not None:
                self.control.new_game(choice)

        from eightoff.tui.screens import NewGameScreen

        self.push_screen(
            NewGameScreen(
                self.settings,
                self.game.rules,
                in_progress=self.control.session.gives_up(),
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
            self.show("This position has no game code")
            return
        self.copy_to_clipboard(str(code))
        self.show(f"Copied the game code {code}")

    def new_game_with(self, rules: Rules | None = None, difficulty: str | None = None) -> None:
        """A new deal like the last, with other ``rules`` or ``difficulty`` (the palette);
        asks first when a game is in progress."""
        self.control.new_game_like(rules, difficulty)

    def action_daily(self) -> None:
        """Play the deal of the day under the current rules (as in the web game)."""
        self.control.new_game_like(daily=True)

    def action_quit_game(self) -> None:
        """Quit, asking first when a game is in progress (it is kept and resumes)."""
        if self.control.session.in_progress():
            self.confirm("Quit? This game is kept: eightoff play resumes it.", "Quit", self.exit)
        else:
            self.exit()

    def action_stats(self) -> None:
        """Show the record of every rule set played."""
        from eightoff.tui.screens import StatsScreen

        self.push_screen(StatsScreen(self.data.all_stats()))

    # -- hints and the solution: the solver thinks in a thread ---------------------

    def action_hint(self) -> None:
        """Ask the solver (in a thread) for a move on a winning line."""
        if self.control.in_solution():
            return
        snapshot = self.control.ask_hint()
        if snapshot is not None:
            self._find_hint(snapshot)

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, snapshot: Snapshot) -> None:
        from eightoff.solver.hint import hint

        self.post_message(HintFound(snapshot, hint(snapshot)))

    @on(HintFound)
    def _hint_found(self, event: HintFound) -> None:
        self.control.show_hint(event.snapshot, event.found)

    def action_solution(self) -> None:
        """Ask the solver (in a thread) for a winning line from the current position."""
        position = self.control.ask_solution()
        if position is not None:
            self._find_solution(position)

    @work(thread=True, exclusive=True, group="hint")
    def _find_solution(self, position: Position) -> None:
        from eightoff.solver import Limit, Verdict, solve

        result = solve(position, limit=Limit(nodes=None, seconds=SOLUTION_SECONDS))
        moves = result.moves if result.verdict is Verdict.SOLVED else None
        self.post_message(SolutionFound(position, moves))

    @on(SolutionFound)
    def _solution_found(self, event: SolutionFound) -> None:
        self.control.show_solution(event.position, event.moves)

    def action_solution_go(self, step: int) -> None:
        """Show step ``step`` of the solution (-1: the last)."""
        self.control.solution_go(step)


__all__ = ["EightOffApp"]
