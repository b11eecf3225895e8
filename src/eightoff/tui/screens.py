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
from textual.widgets import Button, DataTable, Footer, Input, Label, Markdown, Select, Switch

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.rules import OPTIONS, PRESETS, Build, EmptyColumn, GroupMoves, RuleOption, Rules
from eightoff.tui.userdata import DIFFICULTIES, NewGameChoice, Settings, Stats, clock
from eightoff.tui.words import capital
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
- `p` autoplay of safe cards to the foundations on or off (off by default; turned on,
  it sends the cards already safe home at once)
- `n` new game: a game code, difficulty and rules, or the deal of the day
- `y` copy the game code to the clipboard
- `Ctrl+P` command palette: new game, open a game code, restart, hint, solution,
  autoplay, statistics, theme
- `F1` this help, `q` quit (your game is kept and resumes next time)

The mouse works too: click a pile, then a target, or drag from a pile to its target;
click a card inside a run to move the run from that card; a double click is the smart
move.
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


class Choice(Dialog[bool]):
    """A dialog answered yes or no: the button whose id is :attr:`YES` says yes, any
    other no; its keys call :meth:`action_answer`."""

    YES: ClassVar[str] = "yes"

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == self.YES)

    def action_answer(self, yes: bool) -> None:
        """Answer ``yes`` (or no)."""
        self.dismiss(yes)


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
        yield Footer()

    @on(Button.Pressed, "#close")
    def _close(self) -> None:
        self.dismiss()

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss()


class ConfirmScreen(Choice):
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
        yield Footer()


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


class OnOff(Horizontal):
    """A :class:`Switch` with its state in words beside it (``on``/``off``), so it does
    not rest on colour alone; the switch has the id given."""

    def __init__(self, value: bool, *, id: str) -> None:
        super().__init__(classes="on-off")
        self.switch = Switch(value, id=id)
        self.words = Label(_on_off(value))

    def compose(self) -> ComposeResult:
        yield self.switch
        yield self.words

    @on(Switch.Changed)
    def _changed(self, event: Switch.Changed) -> None:
        self.words.update(_on_off(event.value))


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def _field(option: RuleOption, value: Any) -> Select[Any] | OnOff:
    """A rule option's widget, its id the option's name: a yes/no option is an
    :class:`OnOff` switch, any other a :class:`Select` of the option's words."""
    if isinstance(option.default, bool):
        return OnOff(value, id=option.name)
    return Select(
        list(zip(option.words, option.values, strict=True)),
        value=value,
        allow_blank=False,
        compact=True,
        id=option.name,
    )


class NewGameScreen(Dialog[NewGameChoice | None]):
    """Choose a new deal: a game code, or difficulty, winnable only and every rule
    option, starting from ``rules`` (the current game's). Deal has the focus, so Enter
    deals; Enter in the code field plays the code."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(
        self, settings: Settings, rules: Rules, *, in_progress: bool, code_first: bool = False
    ) -> None:
        super().__init__()
        self.settings = settings
        self.start_rules = rules
        self.in_progress = in_progress
        self.code_first = code_first
        self.widgets = [_field(o, getattr(rules, o.name)) for o in OPTIONS]
        self.fields = {
            o.name: w.switch if isinstance(w, OnOff) else w
            for o, w in zip(OPTIONS, self.widgets, strict=True)
        }
        """Each rule option's field by the option's name, in the order of OPTIONS."""

    def compose(self) -> ComposeResult:
        rules = self.start_rules
        with VerticalScroll(classes="dialog", id="new-game", can_focus=False):
            yield Label("New game", classes="title")
            if self.in_progress:
                yield Label(
                    "The game you started will count as given up (lost): "
                    "your streak ends. Esc keeps playing it.",
                    id="warning",
                )
            with Horizontal(id="code-row"):
                yield Label("Game code")
                yield Input(placeholder="EO1-C8-… (Enter plays it)", compact=True, id="code")
            yield Label("", id="code-error")
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
                yield OnOff(self.settings.winnable, id="winnable")
                yield Label("Rules")
                yield Select(
                    [(text, name) for name, text in _PRESET_NAMES.items()],
                    value=_preset_of(rules) or Select.NULL,
                    prompt="Custom",
                    compact=True,
                    id="preset",
                )
                for option, widget in zip(OPTIONS, self.widgets, strict=True):
                    yield Label(capital(option.help))
                    yield widget
            yield Label(odds_text(rules), id="odds")
            with Horizontal(classes="buttons"):
                yield Button("Deal", id="deal", variant="primary")
                yield Button("Deal of the day", id="daily")
                yield Button("Cancel", id="cancel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#code" if self.code_first else "#deal").focus()

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

    @on(Select.Changed, "#new-form Select")
    @on(Switch.Changed, "#new-form Switch")
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

    @on(Input.Submitted, "#code")
    def _code(self) -> None:
        text = self.query_one("#code", Input).value.strip()
        error = self.query_one("#code-error", Label)
        try:
            code = GameCode.parse(text)
        except InvalidGameCodeError as exc:
            error.update(capital(str(exc)) if text else "Type a game code, like EO1-C8-AAAAAFA")
            error.add_class("-shown")
            return
        self.dismiss(NewGameChoice(code.rules, self.settings.winnable, "any", code=code))

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


class WinScreen(Choice):
    """The deal is won: moves, score, time and the rule set's record; ``True``: a new game."""

    YES = "again"

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
        yield Footer()


STATS_COLUMNS = (
    "Played",
    "Won",
    "With help",
    "Streak",
    "Best streak",
    "Best time",
    "Fewest moves",
)


def stats_row(s: Stats) -> tuple[str, ...]:
    """One rule set's record as the statistics screen shows it (``—``: none yet)."""
    best = "—" if s.best_time is None else clock(s.best_time)
    fewest = "—" if s.fewest_moves is None else str(s.fewest_moves)
    return (
        str(s.played),
        str(s.won),
        str(s.helped),
        str(s.streak),
        str(s.best_streak),
        best,
        fewest,
    )


class StatsScreen(Dialog[None]):
    """The record of every rule set played: a table each. A game won after playing the
    solver's line counts as won with help, not as a win."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "close"),
    ]
    AUTO_FOCUS = "#close"

    def __init__(self, records: list[tuple[Rules, Stats]]) -> None:
        super().__init__()
        self.records = [(rules, s) for rules, s in records if s.played]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="stats", can_focus=False):
            yield Label("Statistics", classes="title")
            if not self.records:
                yield Label("No games played yet.")
            for n, (rules, s) in enumerate(self.records):
                yield Label(rules.describe(), id=f"stats-{n}-title", classes="stats-title")
                table: DataTable[str] = DataTable(
                    id=f"stats-{n}", show_cursor=False, zebra_stripes=False
                )
                table.add_columns(*STATS_COLUMNS)
                table.add_row(*stats_row(s))
                yield table
            with Horizontal(classes="buttons"):
                yield Button("Close (Esc)", id="close", variant="primary")
        yield Footer()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss()


__all__ = [
    "ConfirmScreen",
    "HelpScreen",
    "NewGameScreen",
    "StatsScreen",
    "WinReport",
    "WinScreen",
    "help_text",
]
