"""The rule options every seed describes, as one frozen value, plus named presets."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any, Final

from eightoff.errors import InvalidRulesError as InvalidRulesError


class EmptyColumn(StrEnum):
    """What an empty column accepts."""

    KINGS = "kings"  # a King, alone or heading a run (standard)
    ANY = "any"  # any card or run ("Easy" / "Facile", Baker's Game)


class Build(StrEnum):
    """How columns build down."""

    SUIT = "suit"  # same suit, one rank lower (standard)
    ALTERNATE = "alternate"  # alternating colours, one rank lower (FreeCell style)


class Layout(StrEnum):
    """How the 52 cards are dealt."""

    EIGHT_OFF = "eight-off"  # 8 columns of 6, the last 4 cards to the first cells
    BAKERS = "bakers"  # columns of 7,7,7,7,6,6,6,6; all cells empty


class GroupMoves(StrEnum):
    """How many cards of a run move as one action."""

    SINGLE = "single"  # one card per move
    CELLS = "cells"  # up to free cells + 1 (seeds 000, 004)
    FREECELL = "freecell"  # (free cells + 1) * 2**empty columns, destination not counted (seed 002)


CELL_COUNTS: Final = (8, 4, 2)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of the game; the defaults are the standard game (seed 000)."""

    cells: int = 8
    empty_column: EmptyColumn = EmptyColumn.KINGS
    build: Build = Build.SUIT
    layout: Layout = Layout.EIGHT_OFF
    group_moves: GroupMoves = GroupMoves.CELLS
    take_back: bool = False

    def __post_init__(self) -> None:
        if type(self.cells) is not int or self.cells not in CELL_COUNTS:  # not 8.0, not True
            raise InvalidRulesError(f"cells must be 8, 4 or 2, not {self.cells!r}")
        for f in fields(self):
            if f.name in ("cells", "take_back"):
                continue
            kind = _ENUM_FIELDS[f.name]
            value = getattr(self, f.name)
            if not isinstance(value, kind):
                object.__setattr__(self, f.name, _coerce(kind, f.name, value))
        if not isinstance(self.take_back, bool):
            raise InvalidRulesError(f"take_back must be true or false, not {self.take_back!r}")

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed (values may be enum members or their strings)."""
        unknown = set(options) - {f.name for f in fields(self)}
        if unknown:
            raise InvalidRulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return replace(self, **options)

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON dict of every option."""
        return {
            "cells": self.cells,
            "empty_column": self.empty_column.value,
            "build": self.build.value,
            "layout": self.layout.value,
            "group_moves": self.group_moves.value,
            "take_back": self.take_back,
        }

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Read a preset name, or a dict of options (an optional ``"preset"`` key as the base)."""
        if isinstance(data, str):
            return preset(data)
        if not isinstance(data, dict):
            raise InvalidRulesError("rules must be a preset name or an object of options")
        options = dict(data)
        base = preset(options.pop("preset")) if "preset" in options else STANDARD
        if "cells" in options and not (
            isinstance(options["cells"], int) and not isinstance(options["cells"], bool)
        ):
            raise InvalidRulesError(f"cells must be 8, 4 or 2, not {options['cells']!r}")
        return base.with_options(**options)

    def describe(self) -> str:
        """One line a person can read."""
        parts = [
            f"{self.cells} cells",
            "Kings only to empty columns"
            if self.empty_column is EmptyColumn.KINGS
            else "any card to empty columns",
            "build in suit" if self.build is Build.SUIT else "build in alternating colours",
            "Eight Off deal" if self.layout is Layout.EIGHT_OFF else "Baker's Game deal",
            {
                GroupMoves.SINGLE: "one card per move",
                GroupMoves.CELLS: "runs of free cells + 1",
                GroupMoves.FREECELL: "runs by the FreeCell formula",
            }[self.group_moves],
            "take-back allowed" if self.take_back else "no take-back",
        ]
        return ", ".join(parts)


_ENUM_FIELDS: Final[dict[str, type[Enum]]] = {
    "empty_column": EmptyColumn,
    "build": Build,
    "layout": Layout,
    "group_moves": GroupMoves,
}


def _coerce(kind: type[Enum], name: str, value: object) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise InvalidRulesError(f"{name} must be one of {allowed}, not {value!r}") from None


STANDARD: Final = Rules()
"""Seed 000's full rules: 8 cells, Kings only, in suit, runs of free cells + 1."""

PRESETS: Final[dict[str, Rules]] = {
    "standard": STANDARD,
    "easy": Rules(empty_column=EmptyColumn.ANY),
    "alternate": Rules(build=Build.ALTERNATE),
    "bakers": Rules(cells=4, layout=Layout.BAKERS, empty_column=EmptyColumn.ANY),
    "app": Rules(group_moves=GroupMoves.FREECELL, take_back=True),
}
"""Named presets; any of them takes other cell counts and group-move modes via
:meth:`Rules.with_options`. ``app`` is seed 002's app: FreeCell-formula runs and take-back."""


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
