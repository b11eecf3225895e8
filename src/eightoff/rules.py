"""The rule options of the game, each declared once, as one frozen value; plus named presets.

Every option is one field of :class:`Rules` declared with :func:`_option`: its
default, help text and values, each value with its words and game-code letter (an
enum's are declared on its members, a :class:`Choice`). :data:`OPTIONS` reads
them back, and everything else derives from it: game codes
(:mod:`eightoff.codes`), the command line's flags, ``GET /api/rules`` (and the
page's New game form built from it) and :meth:`Rules.describe`. A new option is
one field here plus its move logic in :mod:`eightoff.moverules` and
:mod:`eightoff.position` (and the C core).
"""

from __future__ import annotations

from dataclasses import Field, dataclass, field, fields, replace
from enum import Enum, StrEnum
from typing import Any, Final, Self, TypeVar, cast

from eightoff.errors import InvalidRulesError as InvalidRulesError


class Choice(StrEnum):
    """A value of a rule option with its words (for :meth:`Rules.describe`) and its
    game-code letter ("" for none): ``NAME = "value", "words", "letter"``."""

    word: str
    letter: str

    def __new__(cls, value: str, word: str = "", letter: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.word = word
        member.letter = letter
        return member


class EmptyColumn(Choice):
    """What an empty column accepts."""

    # a King, alone or heading a run (the standard game)
    KINGS = "kings", "Kings only to empty columns"
    # any card or run (the French "Facile", Baker's Game)
    ANY = "any", "any card to empty columns", "E"


class Build(Choice):
    """How columns build down."""

    # same suit, one rank lower (the standard game)
    SUIT = "suit", "build in suit"
    # alternating colours, one rank lower (FreeCell style)
    ALTERNATE = "alternate", "build in alternating colours", "A"


class Layout(Choice):
    """How the 52 cards are dealt."""

    # 8 columns of 6, the last 4 cards to the first cells
    EIGHT_OFF = "eight-off", "Eight Off deal"
    # columns of 7,7,7,7,6,6,6,6; all cells empty
    BAKERS = "bakers", "Baker's Game deal", "B"


class GroupMoves(Choice):
    """How many cards of a run move as one action."""

    # one card per move
    SINGLE = "single", "one card per move", "S"
    # up to free cells + 1 (the standard game)
    CELLS = "cells", "runs of free cells + 1"
    # (free cells + 1) * 2**empty columns, the target not counted
    FREECELL = "freecell", "runs by the FreeCell formula", "F"


CELL_COUNTS: Final = (8, 4, 2)

T = TypeVar("T")


def _option(
    default: T,
    help: str,
    words: tuple[str, ...] = (),
    letters: tuple[str, ...] = (),
    values: tuple[T, ...] = (),
) -> T:
    # A field of Rules declaring its option (read back by RuleOption.of). A Choice's
    # values are its members, with their own words and letters.
    if isinstance(default, Choice):
        members = tuple(type(default))
        values = cast("tuple[T, ...]", members)
        words, letters = tuple(m.word for m in members), tuple(m.letter for m in members)
    option = {"values": values, "words": words, "help": help, "letters": letters}
    return field(default=default, metadata={"option": option})


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of the game; the defaults are the standard game.

    Where any card may fill an empty column, a run may use the empty columns as
    room (moving it card by card would), so ``group_moves`` "cells" counts them
    there: it reads as "freecell".
    """

    cells: int = _option(8, "number of cells", ("8 cells", "4 cells", "2 cells"), (), CELL_COUNTS)
    empty_column: EmptyColumn = _option(EmptyColumn.KINGS, "what an empty column takes")
    build: Build = _option(Build.SUIT, "how columns build down")
    layout: Layout = _option(Layout.EIGHT_OFF, "how the cards are dealt")
    group_moves: GroupMoves = _option(GroupMoves.CELLS, "how many cards move as one")
    take_back: bool = _option(
        False,
        "allow taking cards back from the foundations",
        ("no take-back", "take-back allowed"),
        ("", "T"),
        values=(False, True),
    )

    def __post_init__(self) -> None:
        for option in OPTIONS:
            object.__setattr__(self, option.name, option.coerce(getattr(self, option.name)))
        if self.empty_column is EmptyColumn.ANY and self.group_moves is GroupMoves.CELLS:
            object.__setattr__(self, "group_moves", GroupMoves.FREECELL)

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed (values may be enum members or their strings)."""
        unknown = set(options) - {option.name for option in OPTIONS}
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return replace(self, **options)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON dict of every option."""
        return {option.name: option.to_json(getattr(self, option.name)) for option in OPTIONS}

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Read a preset name, or a dict of options (an optional ``"preset"`` key as the base)."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, dict):
            raise InvalidRulesError("rules must be a preset name or an object of options")
        options = dict(data)
        base = preset(options.pop("preset")) if "preset" in options else STANDARD
        return base.with_options(**options)

    def describe(self) -> str:
        """One line a person can read."""
        return ", ".join(option.word(getattr(self, option.name)) for option in OPTIONS)

    def max_run(self, free_cells: int, empty_columns: int) -> int:
        """The most cards one move may carry with this room; an empty target is not counted
        in ``empty_columns``. The one run-size formula every part of the program uses."""
        if self.group_moves is GroupMoves.SINGLE:
            return 1
        if self.group_moves is GroupMoves.CELLS:
            return free_cells + 1
        return (free_cells + 1) << empty_columns


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule option as declared on :class:`Rules`, with the forms derived from it."""

    name: str  # the field of Rules, the JSON key
    default: Any
    values: tuple[Any, ...]
    words: tuple[str, ...]  # one per value, for Rules.describe
    letters: tuple[str, ...]  # one per value: its game-code letter ("" for none)
    help: str  # what the option chooses

    @classmethod
    def of(cls, declared: Field[Any]) -> RuleOption:
        """The option a :class:`Rules` field declares."""
        meta = declared.metadata["option"]
        values = meta["values"]
        letters = meta["letters"] or ("",) * len(values)
        if not len(meta["words"]) == len(letters) == len(values):
            raise AssertionError(f"{declared.name}: one word and one letter per value")
        return cls(declared.name, declared.default, values, meta["words"], letters, meta["help"])

    @property
    def flag(self) -> str:
        """The command line's flag: ``--empty-column``."""
        return "--" + self.name.replace("_", "-")

    def coerce(self, value: object) -> Any:
        """The declared value ``value`` names (an enum's text names its member)."""
        for v in self.values:
            if type(value) is type(v) and value == v:  # not True for 1, not 8.0 for 8
                return v
            if isinstance(v, Enum) and type(value) is str and value == v.value:
                return v
        raise InvalidRulesError(f"{self.name} must be {self.expected()}, not {value!r}")

    def expected(self) -> str:
        """The values in words: ``8, 4 or 2``, ``true or false``, ``one of suit, alternate``."""
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, Enum):
            return "one of " + ", ".join(str(v.value) for v in self.values)
        shown = [str(v) for v in self.values]
        return ", ".join(shown[:-1]) + " or " + shown[-1]

    def to_json(self, value: Any) -> Any:
        """``value`` as plain JSON."""
        return value.value if isinstance(value, Enum) else value

    def word(self, value: Any) -> str:
        """``value`` in words, as :meth:`Rules.describe` says it."""
        return self.words[self.values.index(value)]

    def letter(self, value: Any) -> str:
        """``value``'s game-code letter ("" for none)."""
        return self.letters[self.values.index(value)]

    def json(self) -> dict[str, Any]:
        """The whole declaration as plain JSON (``GET /api/rules``)."""
        return {
            "name": self.name,
            "flag": self.flag,
            "help": self.help,
            "default": self.to_json(self.default),
            "values": [
                {"value": self.to_json(v), "text": w, "letter": letter}
                for v, w, letter in zip(self.values, self.words, self.letters, strict=True)
            ],
        }


OPTIONS: Final = tuple(RuleOption.of(f) for f in fields(Rules))
"""Every rule option, in the order codes and descriptions list them."""

STANDARD: Final = Rules()
"""The standard game: 8 cells, Kings only to empty columns, in suit, runs of free cells + 1."""

PRESETS: Final[dict[str, Rules]] = {
    "standard": STANDARD,
    "easy": Rules(empty_column=EmptyColumn.ANY),
    "alternate": Rules(build=Build.ALTERNATE),
    "bakers": Rules(cells=4, layout=Layout.BAKERS, empty_column=EmptyColumn.ANY),
    "app": Rules(group_moves=GroupMoves.FREECELL, take_back=True),
}
"""Named presets (see docs/rules.md); any of them takes other cell counts and group-move
modes via :meth:`Rules.with_options`. ``easy`` is the French "Facile", ``app`` the app
rules: FreeCell-formula runs and take-back."""


def preset(name: str) -> Rules:
    """The preset called ``name`` (case-insensitive)."""
    if not isinstance(name, str):
        raise InvalidRulesError(f"a preset name must be text, not {name!r}")
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("'", "")
    key = {"baker": "bakers", "bakers-game": "bakers", "facile": "easy"}.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise InvalidRulesError(
            f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}"
        ) from None
