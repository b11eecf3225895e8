"""Rules: the frozen value, its options, presets and JSON form."""

import dataclasses

import pytest

from eightoff.rules import (
    PRESETS,
    STANDARD,
    Build,
    EmptyColumn,
    GroupMoves,
    InvalidRulesError,
    Layout,
    Rules,
    preset,
)


def test_standard_is_the_standard_game() -> None:
    assert Rules() == STANDARD
    assert STANDARD.cells == 8
    assert STANDARD.empty_column is EmptyColumn.KINGS
    assert STANDARD.build is Build.SUIT
    assert STANDARD.layout is Layout.EIGHT_OFF
    assert STANDARD.group_moves is GroupMoves.CELLS
    assert STANDARD.take_back is False


def test_presets() -> None:
    assert preset("standard") is STANDARD
    assert preset("easy").empty_column is EmptyColumn.ANY
    assert preset("alternate").build is Build.ALTERNATE
    bakers = preset("bakers")
    assert (bakers.cells, bakers.layout, bakers.empty_column) == (4, Layout.BAKERS, EmptyColumn.ANY)
    app = preset("app")
    assert app.group_moves is GroupMoves.FREECELL and app.take_back


@pytest.mark.parametrize(
    ("name", "key"),
    [("Easy", "easy"), (" facile ", "easy"), ("Baker's Game", "bakers"), ("bakers_game", "bakers")],
)
def test_preset_names_are_forgiving(name: str, key: str) -> None:
    assert preset(name) is PRESETS[key]


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(InvalidRulesError, match="unknown preset 'klondike': expected one of"):
        preset("klondike")


def test_rules_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD.cells = 4  # type: ignore[misc]
    assert len({Rules(), Rules(), Rules(cells=4)}) == 2


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("cells", [8, 4, 2])
@pytest.mark.parametrize("group", list(GroupMoves))
def test_every_preset_takes_every_cell_count_and_group_mode(
    name: str, cells: int, group: GroupMoves
) -> None:
    rules = preset(name).with_options(cells=cells, group_moves=group.value)
    # Where any card fills an empty column, runs of free cells + 1 count empty columns too.
    counts_empty = group is GroupMoves.CELLS and rules.empty_column is EmptyColumn.ANY
    assert rules.cells == cells
    assert rules.group_moves is (GroupMoves.FREECELL if counts_empty else group)
    assert Rules.from_json(rules.to_json()) == rules


def test_options_accept_strings() -> None:
    rules = Rules(empty_column="any", build="alternate", layout="bakers", group_moves="freecell")  # type: ignore[arg-type]
    assert rules.empty_column is EmptyColumn.ANY
    assert rules.build is Build.ALTERNATE
    assert rules.layout is Layout.BAKERS
    assert rules.group_moves is GroupMoves.FREECELL


def test_from_json_with_preset_base() -> None:
    rules = Rules.from_json({"preset": "bakers", "cells": 8, "take_back": True})
    assert rules == preset("bakers").with_options(cells=8, take_back=True)
    assert Rules.from_json("alternate") is preset("alternate")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cells": 3}, "cells must be 8, 4 or 2, not 3"),
        ({"cells": True}, "cells must be 8, 4 or 2, not True"),
        ({"cells": "8"}, "cells must be 8, 4 or 2"),
        ({"cells": 8.0}, "cells must be 8, 4 or 2, not 8.0"),
        ({"build": "colour"}, "build must be one of suit, alternate, not 'colour'"),
        ({"empty_column": "queens"}, "empty_column must be one of kings, any"),
        ({"layout": "klondike"}, "layout must be one of eight-off, bakers"),
        ({"group_moves": "all"}, "group_moves must be one of single, cells, freecell"),
        ({"take_back": "yes"}, "take_back must be true or false"),
        ({"redeals": 3}, "unknown rule option"),
        ({"preset": "spider"}, "unknown preset"),
        (5, "preset name or an object"),
    ],
)
def test_bad_rules_say_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_json(data)


def test_describe_names_every_option() -> None:
    text = preset("bakers").with_options(group_moves="single", take_back=True).describe()
    assert text == (
        "4 cells, any card to empty columns, build in suit, Baker's Game deal, "
        "one card per move, take-back allowed"
    )


@pytest.mark.parametrize("name", [None, 3, ["standard"]])
def test_preset_name_must_be_text(name: object) -> None:
    with pytest.raises(InvalidRulesError, match="must be text"):
        Rules.from_json({"preset": name})
