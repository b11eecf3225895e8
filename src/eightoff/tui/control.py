"""The terminal game's control: what the player's picks, moves, undo, hints and the
solution do to the game, its clock and its statistics.

A :class:`GameControl` holds the game being played (through its :class:`Session`), the
selection, the hint shown and the solution stepped through; the app draws them and
drives it through calls. What the control has to say goes back through the app's
:class:`Face`; the solver's answers, found in a thread, come back to the app as Textual
messages (:class:`HintFound`, :class:`SolutionFound`) that it hands on here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message

from eightoff.game import Action, Game, Status
from eightoff.moves import FOUNDATION, Move, Place, PlaceKind, foundation
from eightoff.position import Position
from eightoff.rules import Rules
from eightoff.tui.session import Session
from eightoff.tui.solution import Snapshot, Solution, hint_text
from eightoff.tui.userdata import NewGameChoice, Settings, Stats, UserData, clock
from eightoff.tui.words import capital, cards_name, counted, describe, run_name

if TYPE_CHECKING:
    from eightoff.solver.hint import Hint


class Face(Protocol):
    """What the control asks of the app that draws the game."""

    def show(self, text: str) -> None:
        """Show ``text`` on the message line and redraw the board."""

    def won(self, stats: Stats) -> None:
        """Report the win just recorded (``stats``: the rule set's record after it)."""

    def confirm(self, question: str, yes: str, then: Callable[[], None]) -> None:
        """Ask ``question``; ``then`` runs when the player answers ``yes``."""


class GameActions(Protocol):
    """The game's commands as the command palette offers them (the app's actions)."""

    @property
    def game(self) -> Game: ...

    def action_new_game(self, code_first: bool = False) -> None: ...
    def new_game_with(self, rules: Rules | None = None, difficulty: str | None = None) -> None: ...
    def action_open_code(self) -> None: ...
    def action_copy_code(self) -> None: ...
    def action_daily(self) -> None: ...
    def action_restart(self) -> None: ...
    def action_hint(self) -> None: ...
    def action_solution(self) -> None: ...
    def action_toggle_autoplay(self) -> None: ...
    def action_help(self) -> None: ...
    def action_stats(self) -> None: ...


class HintFound(Message):
    """The solver's hint for ``snapshot``, found in a thread."""

    def __init__(self, snapshot: Snapshot, found: Hint) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.found = found


class SolutionFound(Message):
    """The solver's winning line from ``position`` (``None``: none found), found in a thread."""

    def __init__(self, position: Position, moves: tuple[Move, ...] | None) -> None:
        super().__init__()
        self.position = position
        self.moves = moves


class GameControl:
    """One player's games against ``data`` (settings, statistics, the saved game): the
    game ``game`` (else the saved one, else a new deal as the settings say)."""

    def __init__(
        self,
        face: Face,
        game: Game | None,
        data: UserData,
        clock: Callable[[], float],
        rng: random.Random,
    ) -> None:
        self.face = face
        self.data = data
        self.settings: Settings = data.settings
        self.rng = rng
        self._clock = clock
        self.selected: Place | None = None
        self.picked = 0
        """How many cards of the selected column the player picked up from inside its run
        (0: as many as may move, the longest run that fits)."""
        self.hinted: Move | None = None
        self.solution: Solution | None = None
        saved = data.saved_game()
        # The game kept from last time resumes, unless another is asked for; asked for by
        # its own code, it resumes too.
        self._resumed = saved is not None and (
            game is None or (not game.actions and game.code == saved.game.code)
        )
        self._kept = saved if saved is not None and not self._resumed else None
        if saved is not None and self._resumed:
            self.session = Session(saved.game, data, clock, saved=saved)
        else:
            if game is None:
                s = self.settings
                game = self._deal(NewGameChoice(s.rules, s.winnable, s.difficulty))
            self.session = Session(game, data, clock)

    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.session.game

    def open(self) -> None:
        """Greet the player: the game resumed, or the deal's opening autoplay."""
        text = ""
        if self._resumed:
            text = f"Welcome back: game {self.game.code} resumed"
        else:
            text = self._autoplay_start() or text
            if self._kept is not None:
                text = (
                    f"Your game {self._kept.game.code} is kept until you move here: "
                    "quit now and eightoff play resumes it"
                )
        self._changed(text)

    def shown_position(self) -> Position:
        """The position on the board: the game's, or the solution's step."""
        solution = self.solution
        return self.game.position if solution is None else solution.positions[solution.step]

    def status_text(self) -> str:
        """The status line: the code, moves, score, clock, state and autoplay."""
        game = self.game
        shown = {Status.PLAYING: "playing", Status.WON: "won", Status.STUCK: "no moves"}[
            game.status
        ]
        code = str(game.code) if game.code is not None else "custom position"
        return (
            f"{code} · moves {self.session.moves_played()} · score {game.score} · "
            f"{clock(self.session.seconds())} · {shown} · "
            f"autoplay {'on' if game.autoplay else 'off'}"
        )

    def lit(self, place: Place, position: Position) -> int:
        """How many cards of ``place`` light up: the selected pile's that may move (a
        column its run, or the part of it picked up)."""
        if place != self.selected:
            return 0
        if place.kind is PlaceKind.COLUMN:
            return self.picked or position.run_length(place.index)
        return 1

    def keep_setting(self, **changes: Any) -> None:
        """Change the settings as ``changes`` say and keep them for the next run."""
        self.settings = replace(self.settings, **changes)
        self.data.settings = self.settings

    # -- games ---------------------------------------------------------------------

    def _autoplay_start(self) -> str | None:
        # As in the web game: with autoplay on, the cards a new deal can send home safely
        # go there at once, as one action (undo takes them back).
        if self.game.autoplay and not self.game.actions and self.game.settle():
            action = self.session.start_action = self.game.actions[0]
            return f"Autoplay sent {counted(len(action.moves), 'card')} home"
        return None

    def _deal(self, choice: NewGameChoice) -> Game:
        from eightoff.tui.deals import pick_deal

        return Game(pick_deal(choice, self.rng), autoplay=self.settings.autoplay)

    def start(self, game: Game, message: str) -> None:
        """Play ``game`` from now on (the current one is given up if started)."""
        self.session.give_up()
        self.session = Session(game, self.data, self._clock)
        self.selected = None
        self.hinted = None
        self.solution = None
        self._changed(self._autoplay_start() or message)

    def new_game(self, choice: NewGameChoice) -> None:
        """Deal a new game as ``choice`` says; its rules and how to deal become the
        setting for the next one (a game code leaves them as they were)."""
        if choice.code is None:
            self.keep_setting(
                winnable=choice.winnable, difficulty=choice.difficulty, rules=choice.rules
            )
        from eightoff.daily import DailyError

        try:
            game = self._deal(choice)
        except DailyError as exc:
            self.face.show(f"No deal of the day: {exc}")
            return
        what = "The deal of the day" if choice.daily else "Game" if choice.code else "New game"
        self.start(game, f"{what}: {game.code}")

    def new_game_like(
        self, rules: Rules | None = None, difficulty: str | None = None, *, daily: bool = False
    ) -> None:
        """A new deal like the last, with other ``rules`` or ``difficulty`` (or the deal of
        the day); asks first when a game is in progress."""
        s = self.settings
        choice = NewGameChoice(
            rules if rules is not None else s.rules,
            s.winnable,
            difficulty if difficulty is not None else s.difficulty,
            daily=daily,
        )
        # Giving up a started game counts as a loss (even undone to its deal): ask first.
        if self.session.gives_up():
            self.face.confirm(
                "Give up this game for a new deal? It counts as lost.",
                "New deal",
                lambda: self.new_game(choice),
            )
        else:
            self.new_game(choice)

    def won_message(self) -> str:
        """What a won game says."""
        n = self.session.moves_played()
        return f"You won in {n} move{'s' if n != 1 else ''}! Press n for a new game."

    def _changed(self, text: str) -> None:
        # After every change: the clock, the board and the saved game as the game stands.
        status = self.game.status
        if status is Status.WON:
            text = self.won_message()
        elif status is Status.STUCK:
            text = "No moves left: undo (u) or start a new game (n)"
        self.session.sync()
        self.face.show(text)
        self.session.save()
        if status is Status.WON:
            stats = self.session.win()
            if stats is not None:
                self.face.won(stats)

    def _started(self, text: str) -> str:
        # The player moved: ``text``, and the game kept from last time if this one now
        # replaces it.
        replaced = self.session.started()
        if replaced is None:
            return text
        return f"{text} · game {replaced.game.code} given up"

    def in_solution(self) -> bool:
        """Whether the solution is shown (saying so: the game waits meanwhile)."""
        if self.solution is None:
            return False
        self.face.show(
            self.solution.text() + " · Enter: play on from here · Esc: back to your game"
        )
        return True

    # -- picking places ------------------------------------------------------------

    def pick_foundation(self) -> Place | None:
        """The foundation key: as a target, the foundation; as a source (take-back rules),
        the first foundation pile holding a card, the next one each time. The pile picked
        as a source, if any."""
        selected = self.selected
        if selected is not None and selected.kind is not PlaceKind.FOUNDATION:
            self.pick(FOUNDATION)
            return None
        if not self.game.rules.take_back:
            self.face.show("Pick a card to move first, then 0 sends it to its foundation")
            return None
        position = self.game.position
        start = 0 if selected is None else selected.index + 1
        for k in range(4):
            pile = foundation((start + k) % 4)
            if position.top(pile) is not None:
                self.selected = None
                self.pick(pile)
                return pile
        self.face.show("The foundations are empty")
        return None

    def pick(self, place: Place, depth: int = 1) -> None:
        """Select ``place`` as the source (``depth`` cards from the top of a column's run:
        that part of it), or play from the selection to it."""
        if self.game.status is Status.WON:
            self.face.show(self.won_message())
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
            self.face.show(
                "Cards stay on the foundations under these rules: pick a column or a cell"
            )
            return
        top = position.top(place)
        if top is None:
            self.face.show(f"{capital(place.name())} is empty")
            return
        self.selected = place
        self.picked = self.part(place, depth)
        cards = run_name(position.columns[place.index][-self.picked :]) if self.picked else None
        self.face.show(
            f"Picked {cards or top.symbol()} from {place.name()}: now a target, "
            "or again for the smart move"
        )

    def part(self, place: Place, depth: int) -> int:
        """The cards picked by a card ``depth`` deep in ``place``: inside a column's run,
        the run from it; any other card, the whole run (0)."""
        if place.kind is not PlaceKind.COLUMN or depth <= 1:
            return 0
        return depth if depth <= self.game.position.run_length(place.index) else 0

    def drag(self, source: Place, depth: int, target: Place) -> None:
        """A drag of the card ``depth`` deep in ``source`` onto ``target``."""
        if self.game.status is Status.WON:
            self.face.show(self.won_message())
            return
        self.selected = None
        self.move(source, target, self.part(source, depth))

    def drop_selection(self) -> None:
        """Drop the selection and the hint."""
        self.selected = None
        self.hinted = None
        self.face.show("")

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
                self.face.show(capital(position.why_illegal(wanted) or "that move is not allowed"))
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
        self.face.show(capital(position.why_illegal(move) or "that move is not allowed"))

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
            self.face.show(f"No move for {card} from {source.name()}")
            return
        self._played(action, before)

    def _played(self, action: Action, before: Position) -> None:
        self.selected = None
        self.hinted = None
        text = f"Played {describe(action.move, before)}"
        if action.autoplayed:
            text += f"; autoplay sent {counted(len(action.autoplayed), 'card')} home"
        self._changed(self._started(text))

    def undo(self) -> None:
        """Take back the last action (with what autoplay added to it)."""
        self.selected = None
        self.hinted = None
        action = self.game.undo()
        if action is None:
            text = "Nothing to undo"
        else:
            after = self.game.positions()[-1]
            cards = cards_name(action.move, after)
            text = f"Undid: {cards} back to {action.move.source.name()}"
        self._changed(text)

    def redo(self) -> None:
        """Play the last undone action again."""
        self.selected = None
        self.hinted = None
        before = self.game.position
        action = self.game.redo()
        self._changed(
            "Nothing to redo" if action is None else f"Redid {describe(action.move, before)}"
        )

    def restart(self) -> None:
        """Back to the start of this deal (undo takes the restart back step by step)."""
        while self.game.undo() is not None:
            pass
        self.selected = None
        self.hinted = None
        self._changed("Restarted the deal: redo (r) replays your moves")

    def toggle_autoplay(self) -> None:
        """Turn autoplay of safe foundation moves on or off (kept as a setting)."""
        on_now = not self.game.autoplay
        self.game.autoplay = on_now
        self.keep_setting(autoplay=on_now)
        if not on_now or self.solution is not None:
            self.face.show(f"Autoplay {'on' if on_now else 'off'}")
        elif (text := self._autoplay_start()) is not None:
            self._changed(text)
        elif self.game.status is not Status.WON and self.game.settle():
            # Cards already safe to send home go there at once, as one action.
            sent = self.game.actions[-1].moves
            self._changed(self._started(f"Autoplay on: sent {counted(len(sent), 'card')} home"))
        else:
            self.face.show("Autoplay on")

    # -- hints and the solution ----------------------------------------------------

    def _ask_solver(self, thinking: str) -> bool:
        # Whether to ask the solver: not when the game is won (saying so).
        if self.game.status is Status.WON:
            self.face.show(self.won_message())
            return False
        self.selected = None
        self.hinted = None
        self.face.show(thinking)
        return True

    def ask_hint(self) -> Snapshot | None:
        """The game as the solver is to look for a hint in it, or ``None``: no hint asked."""
        if not self._ask_solver("Thinking…"):
            return None
        return Snapshot(self.game.position, tuple(self.game.positions()))

    def show_hint(self, snapshot: Snapshot, found: Hint) -> None:
        """Show a hint found for ``snapshot`` (dropped if the game moved on meanwhile)."""
        if self.game.position is not snapshot.position:
            return
        if found.winnable and found.move is not None:
            self.hinted = found.move
        self.face.show(hint_text(found, snapshot))

    def ask_solution(self) -> Position | None:
        """The position to find a winning line from, or ``None``: none asked."""
        if self.solution is not None or not self._ask_solver("Solving…"):
            return None
        return self.game.position

    def show_solution(self, position: Position, moves: tuple[Move, ...] | None) -> None:
        """Enter the solution mode on ``moves`` from ``position`` (``None``: not found)."""
        if self.game.position is not position:
            return
        if moves is None:
            self.face.show("The solver found no winning line from here: undo (u) or ask a hint (?)")
            return
        self.solution = Solution.of(position, tuple(moves))
        self.solution_go(0)

    def solution_go(self, step: int) -> None:
        """Show step ``step`` of the solution (-1: the last)."""
        sol = self.solution
        if sol is None:
            return
        self.hinted = sol.go(step)
        self.face.show(f"{sol.text()} · ← → step · Enter: play on from here · Esc: back")

    def keep_solution(self) -> None:
        """Leave the solution, playing its moves up to the step shown."""
        sol = self.solution
        assert sol is not None
        self.solution = None
        self.hinted = None
        if sol.step:
            # As played, each its own action; the line already holds the foundation moves.
            self.game.replay(sol.moves[: sol.step])
            self.session.assisted = True
            text = self._started(f"Played {counted(sol.step, 'move')} of the solution")
        else:
            text = "Played no move of the solution"
        self._changed(text)

    def leave_solution(self) -> None:
        """Back to the game from the solution, playing none of it."""
        self.solution = None
        self.face.show("Back to your game")


__all__ = ["Face", "GameActions", "GameControl", "HintFound", "SolutionFound"]
