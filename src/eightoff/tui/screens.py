"""The app's modal screens: help, confirm, new game and the win screen.

Each returns its answer through :meth:`~textual.screen.Screen.dismiss`; none of them
touches the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown, Select, Switch

from eightoff.rules import OPTIONS, PRESETS, Build, EmptyColumn, GroupMoves, RuleOption, Rules
from eightoff.tui.userdata import DIFFICULTIES, NewGameChoice, Settings, Stats, clock
from eightoff.verdicts import UNSURVEYED_TEXT, odds

HELP = """\
# Eight Off

Move every card to the four **foundations**, Ace up to King, one pile per suit.

- **Columns** build **down**: {build}. Only the top card of a column moves, or a run
  of cards in sequence ({groups}).
- An **empty column** takes {empty}.
- The **cells** ({cells} of them) hold one card each.
- {take_back}

## Keys

- `1`-`8` pick a column, {cell_keys} a cell; then a target
- `0` or `^` the foundation (as a target){take_back_key}
- the same key twice: the smart move (home, onto a column, an empty column, a cell)
- `← → ↑ ↓` move the cursor between piles; `Enter` or `Space` picks the pile under it,
  drops on it, or (twice) plays the smart move
- `Esc` drops what you picked
- `u` / `Ctrl+Z` undo, `r` / `Ctrl+Y` redo
- `?` hint: the solver's next move on a winning line
- `s` show the solution: `← →` step through it, `Enter` plays on from that step,
  `Esc` returns to your game
- `p` autoplay of safe cards to the foundations on or off (off by default)
- `n` new game: difficulty and rules, or the deal of the day
- `Ctrl+P` command palette: new game, restart, hint, solution, autoplay, statistics, theme
- `F1` this help, `q` quit (your game is kept and resumes next time)

The mouse works too: click a pile, then a target; a double click is the smart move.
"""


def help_text(rules: Rules) -> str:
    """The help screen's Markdown for ``rules``."""
    from eightoff.moves import CELL_LETTERS

    letters = CELL_LETTERS[: rules.cells]
    return HELP.format(
        build="same suit, one rank lower"
        if rules.build is Build.SUIT
        else "alternating colours, one rank lower",
        groups={
            GroupMoves.SINGLE: "here one card at a time",
            GroupMoves.CELLS: "as many as free cells + 1",
            GroupMoves.FREECELL: "as many as (free cells + 1) × 2 per empty column",
        }[rules.group_moves],
        empty="only a King (or a run headed by one)"
        if rules.empty_column is EmptyColumn.KINGS
        else "any card or run",
        cells=rules.cells,
        take_back="A card on a foundation may be **taken back** to a column or a cell."
        if rules.take_back
        else "Cards on the foundations stay there.",
        cell_keys=f"`{letters[0]}`-`{letters[-1]}`",
        take_back_key="; as a source, a foundation pile (`0` again: the next one)"
        if rules.take_back
        else "",
    )


Answer = TypeVar("Answer")


class Dialog(ModalScreen[Answer]):
    """A modal screen drawn as dialogs.tcss says (read when the first one opens)."""

    CSS_PATH = "dialogs.tcss"


class HelpScreen(Dialog[None]):
    """The rules and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "dismiss", "close"),
    ]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Markdown(help_text(self.rules))
            yield Button("Close", id="close", variant="primary")

    @on(Button.Pressed, "#close")
    def _close(self) -> None:
        self.dismiss()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss()


class ConfirmScreen(Dialog[bool]):
    """A yes/no question; ``True`` for yes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog confirm"):
            yield Label(self.question, id="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="warning")
                yield Button("No (n)", id="no", variant="primary")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer the question."""
        self.dismiss(yes)


_PRESET_NAMES = {
    "standard": "Standard",
    "easy": "Easy (Facile): any card to an empty column",
    "alternate": "Alternating colours",
    "bakers": "Baker's Game",
    "app": "The app rules: FreeCell runs, take-back",
}


def _preset_of(rules: Rules) -> str | None:
    return next((name for name, r in PRESETS.items() if r == rules), None)


def odds_text(rules: Rules) -> str:
    """How often a deal of ``rules`` can be won, from the survey the package ships."""
    found = odds(rules)
    return UNSURVEYED_TEXT if found is None else found.text()


def _field(option: RuleOption, value: Any) -> Select[Any] | Switch:
    """A rule option's widget, its id the option's name: a yes/no option is a
    :class:`Switch`, any other a :class:`Select` of the option's words."""
    if isinstance(option.default, bool):
        return Switch(value, id=option.name)
    return Select(
        list(zip(option.words, option.values, strict=True)),
        value=value,
        allow_blank=False,
        compact=True,
        id=option.name,
    )


class NewGameScreen(Dialog[NewGameChoice | None]):
    """Choose a new deal: difficulty, winnable only, and every rule option."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(self, settings: Settings, *, in_progress: bool) -> None:
        super().__init__()
        self.settings = settings
        self.in_progress = in_progress
        self.fields = {o.name: _field(o, getattr(settings.rules, o.name)) for o in OPTIONS}
        """Each rule option's widget by the option's name, in the order of OPTIONS."""

    def compose(self) -> ComposeResult:
        rules = self.settings.rules
        with VerticalScroll(classes="dialog", id="new-game"):
            yield Label("New game", classes="title")
            if self.in_progress:
                yield Label(
                    "The game in progress will be given up (it counts as lost).", id="warning"
                )
            with Grid(id="new-form"):
                yield Label("Difficulty")
                yield Select(
                    [(d.capitalize() if d != "any" else "Any", d) for d in DIFFICULTIES],
                    value=self.settings.difficulty,
                    allow_blank=False,
                    compact=True,
                    id="difficulty",
                )
                yield Label("Winnable deals only")
                yield Switch(self.settings.winnable, id="winnable")
                yield Label("Rules")
                yield Select(
                    [(text, name) for name, text in _PRESET_NAMES.items()],
                    value=_preset_of(rules) or Select.BLANK,
                    prompt="Custom",
                    compact=True,
                    id="preset",
                )
                for option in OPTIONS:
                    yield Label(option.help[:1].upper() + option.help[1:])
                    yield self.fields[option.name]
            yield Label(odds_text(rules), id="odds")
            with Horizontal(classes="buttons"):
                yield Button("Deal", id="deal", variant="primary")
                yield Button("Deal of the day", id="daily")
                yield Button("Cancel", id="cancel")

    def rules(self) -> Rules:
        """The rules the form shows."""
        return Rules().with_options(**{name: field.value for name, field in self.fields.items()})

    @on(Select.Changed, "#preset")
    def _preset(self, event: Select.Changed) -> None:
        if not isinstance(event.value, str):
            return
        rules = PRESETS[event.value]
        for name, field in self.fields.items():
            field.value = getattr(rules, name)

    @on(Select.Changed, "#new-form > Select")
    @on(Switch.Changed, "#new-form > Switch")
    def _option(self, event: Select.Changed | Switch.Changed) -> None:
        if event.control not in self.fields.values():
            return  # the difficulty, the preset or "winnable only"
        self.query_one("#odds", Label).update(odds_text(self.rules()))
        name = _preset_of(self.rules())
        preset = self.query_one("#preset", Select)
        if name is None:
            preset.clear()
        elif preset.value != name:
            preset.value = name

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self.dismiss(
            NewGameChoice(
                self.rules(),
                self.query_one("#winnable", Switch).value,
                str(self.query_one("#difficulty", Select).value),
                daily=event.button.id == "daily",
            )
        )

    def action_cancel(self) -> None:
        """Keep playing the current game."""
        self.dismiss(None)


@dataclass(frozen=True, slots=True)
class WinReport:
    """What the win screen shows."""

    moves: int
    score: int
    seconds: float
    stats: Stats
    rules_text: str
    helped: bool = False
    """Won after playing the solver's line: counted as solved with help, not as a win."""


class WinScreen(Dialog[bool]):
    """The deal is won: moves, score, time and the rule set's record; ``True``: a new game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "answer(True)", "new game"),
        Binding("escape", "answer(False)", "close"),
    ]

    def __init__(self, report: WinReport) -> None:
        super().__init__()
        self.report = report

    def compose(self) -> ComposeResult:
        r = self.report
        s = r.stats
        best = "—" if s.best_time is None else clock(s.best_time)
        fewest = "—" if s.fewest_moves is None else str(s.fewest_moves)
        with Vertical(classes="dialog", id="win"):
            yield Label("Solved with help" if r.helped else "You won!", classes="title")
            yield Label(
                f"{r.moves} moves · score {r.score} · time {clock(r.seconds)}", id="win-line"
            )
            yield Label(
                f"{r.rules_text}\n"
                f"Won {s.won} of {s.played}{f' (and {s.helped} with help)' if s.helped else ''}"
                f" · streak {s.streak} (best {s.best_streak})"
                f" · best time {best} · fewest moves {fewest}",
                id="win-stats",
            )
            with Horizontal(classes="buttons"):
                yield Button("New game (n)", id="again", variant="primary")
                yield Button("Close (Esc)", id="close")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "again")

    def action_answer(self, again: bool) -> None:
        """Close the screen; ``again`` asks for a new game."""
        self.dismiss(again)


__all__ = [
    "ConfirmScreen",
    "HelpScreen",
    "NewGameScreen",
    "WinReport",
    "WinScreen",
    "help_text",
]
