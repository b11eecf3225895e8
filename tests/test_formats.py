"""fc-solve board text, JSON positions and moves, fc-solve solutions: reading, writing, errors."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eightoff.cards import Card
from eightoff.deal import deal, pysol_deal
from eightoff.formats import (
    InvalidBoardError,
    move_from_json,
    move_to_json,
    moves_from_fcs_solution,
    moves_to_json,
    position_from_fcs,
    position_from_json,
    position_to_fcs,
    position_to_json,
    view_to_json,
)
from eightoff.game import Game
from eightoff.moves import FOUNDATION, InvalidMoveError, Move, cell, column, foundation
from eightoff.position import Position
from eightoff.rules import CELL_COUNTS, PRESETS, STANDARD, Rules, preset

PYSOL_1 = """\
Freecells: 6S 9C 2H 6H - - - -
JD KD 2S 4C 3S 6D
2D KC KS 5C TD 8S
9H 9S 9D TS 4S 8D
JC 5S QD QH TH QS
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
"""

# Nearly won: the K♥ waits in fc-solve's freecell 2; Q♥ alone in column 2; columns empty.
ENDGAME = """\
Foundations: H-J C-K D-K S-K
Freecells: - - KH - - - - -
:
qh

:
:
:
:
"""


def played(number: int, rules: Rules, steps: int, seed: int) -> Position:
    """A position reached by random legal play from a deal."""
    pos = deal(number, rules)
    rng = random.Random(seed)
    for _ in range(steps):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.apply(rng.choice(moves))
    return pos


positions = st.builds(
    played,
    st.integers(0, 10**6),
    st.sampled_from([r.with_options(cells=c) for r in PRESETS.values() for c in CELL_COUNTS]),
    st.integers(0, 60),
    st.integers(0, 2**32),
)


# -- board text -------------------------------------------------------------------------


def test_write_pysol_deal_1() -> None:
    assert position_to_fcs(pysol_deal(1)) == "Foundations: H-0 C-0 D-0 S-0\n" + PYSOL_1


def test_write_an_endgame_with_empty_columns() -> None:
    assert position_to_fcs(position_from_fcs(ENDGAME)) == (
        "Foundations: H-J C-K D-K S-K\nFreecells: - - KH - - - - -\n:\nQH\n" + ":\n" * 6
    )
    # Blank lines after eight columns end the board.
    assert position_from_fcs(PYSOL_1 + "\n\n") == pysol_deal(1)


def test_read_keeps_cell_places_and_empty_columns() -> None:
    pos = position_from_fcs(ENDGAME)
    assert pos.cells[2] == Card.from_text("KH") and pos.free_cells == 7
    assert pos.columns[1] == (Card.from_text("QH"),)
    assert pos.empty_columns == 7
    assert pos.foundations == (13, 11, 13, 13)
    # fc-solve's "freecell 2" names the same cell after reading.
    [move] = moves_from_fcs_solution("Move a card from freecell 2 to the foundations\n")
    assert move == Move(cell(2), FOUNDATION)
    assert position_to_fcs(pos).splitlines()[1] == "Freecells: - - KH - - - - -"


def spread_with_an_empty_column(empty: int) -> Position:
    """All 52 cards: 4 in cells, the rest over 7 columns, column ``empty`` left empty."""
    cards = list(range(52))
    random.Random(empty).shuffle(cards)
    cols: list[list[int]] = [[] for _ in range(8)]
    filled = [i for i in range(8) if i != empty]
    for n, card in enumerate(cards[4:]):
        cols[filled[n % 7]].append(card)
    return Position(cols, cards[:4])


@pytest.mark.parametrize("form", ["", ":"], ids=["blank line", "lone colon"])
@pytest.mark.parametrize("empty", [0, 3, 7], ids=["first", "middle", "last"])
def test_an_empty_column_keeps_its_place(empty: int, form: str) -> None:
    pos = spread_with_an_empty_column(empty)
    lines = position_to_fcs(pos).splitlines()
    lines[2 + empty] = form  # lines 0-1: Foundations:, Freecells:
    read = position_from_fcs("\n".join(lines) + "\n")
    assert read.columns[empty] == ()
    assert read == pos


def test_read_fc_solve_state_printout() -> None:
    # fc-solve -p -sam: one 4-character field per cell, empty cells left blank.
    freecells = "Freecells:" + "    " * 2 + "  KH" + "    " * 5
    text = "Foundations: H-J C-K D-K S-K \n" + freecells + "\n:\n: QH\n" + ":\n" * 6
    pos = position_from_fcs(text)
    assert pos == position_from_fcs(ENDGAME)
    assert pos.rules.cells == 8


def test_read_accepts_ten_forms_colons_and_missing_foundations() -> None:
    text = PYSOL_1.replace("TC", "10c").replace("JD KD", ": JD KD")
    assert position_from_fcs(text) == pysol_deal(1)


def test_cell_count_from_the_freecells_line() -> None:
    four = deal(3, STANDARD.with_options(cells=4))
    text = position_to_fcs(four)
    assert position_from_fcs(text) == four
    assert position_from_fcs(text, four.rules) == four
    # The board's cell count wins over the rules'.
    assert position_from_fcs(text, STANDARD.with_options(cells=2)) == four
    app = position_from_fcs(text, preset("app"))
    assert app.rules == preset("app").with_options(cells=4) and app.cells == four.cells
    # Other counts: surplus empty cells are dropped when the rules have fewer.
    lines = text.splitlines()
    lines[1] += " - - -"
    assert position_from_fcs("\n".join(lines), four.rules) == four


NINE_CELLS = PYSOL_1.replace("- - - -", "- - - - TC").replace("7D TC", "7D")
ALL_CARDS = (
    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH "
    "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (
            PYSOL_1.replace("TC", "1C"),
            "line 9: cannot read card '1C': unknown rank '1': expected A, 2-9, T or 10, J, Q, K",
        ),
        (PYSOL_1.replace("TC", "6S"), "line 9: 6S appears twice (also on line 1)"),
        (PYSOL_1.replace("7D TC", "7D"), "the board lacks 1 card(s): TC"),
        (PYSOL_1 + "KS\n", "line 10: KS appears twice (also on line 3)"),
        (
            PYSOL_1.replace("7D TC", "7D") + "\n\nTC\n",
            "line 10: a ninth column; the board has 8 columns",
        ),
        ("Foundations: H-X\n" + PYSOL_1, "line 1: cannot read foundation 'H-X': expected like H-5"),
        ("Foundations: HA\n" + PYSOL_1, "line 1: cannot read foundation 'HA': expected like H-5"),
        ("Foundations: S-2\n" + PYSOL_1, "line 3: 2S appears twice (also on line 1)"),
        (
            PYSOL_1.replace("2S ", "") + "Foundations: S-2\n",
            "line 10: AS is on its foundation and also on line 7",
        ),
        (
            "Talon: 5H\n" + PYSOL_1,
            "line 1: unknown line 'Talon': expected Foundations:, Freecells: or a column of cards",
        ),
        (NINE_CELLS, "line 1: 9 freecells given, these rules have 8"),
        ("", "the board lacks 52 card(s): " + ALL_CARDS),
    ],
)
def test_bad_board_text_names_the_line(text: str, what: str) -> None:
    with pytest.raises(InvalidBoardError) as error:
        position_from_fcs(text)
    assert str(error.value) == what


def test_board_text_with_comments_short_names_and_blank_lines() -> None:
    # Comments and blank lines before the board are skipped, "Founds:" and "FC:" name
    # the foundations and the cells, "--" is an empty cell, and blank lines after the
    # eighth column end the board.
    text = (
        "\n# a comment\n\nFounds: S-K H-J D-K C-K\nFC: -- -- KH --\n: \nQH\n" + ":\n" * 6 + "\n\n\n"
    )
    assert position_from_fcs(text) == Position(
        [[]] + [[Card.from_text("QH")]] + [[]] * 6,
        [None, None, Card.from_text("KH"), None],
        (13, 11, 13, 13),
        Rules(cells=4),
    )


@settings(max_examples=60, deadline=None)
@given(positions)
def test_board_text_round_trips(pos: Position) -> None:
    assert position_from_fcs(position_to_fcs(pos), pos.rules) == pos


# -- JSON ---------------------------------------------------------------------------------


def test_position_json_shape() -> None:
    data = position_to_json(deal(130))
    assert data["columns"][0] == [str(c) for c in deal(130).columns[0]]
    assert data["cells"][4:] == [None] * 4
    assert data["foundations"] == {"S": 0, "H": 0, "D": 0, "C": 0}
    assert data["rules"] == STANDARD.to_json()
    assert json.loads(json.dumps(data)) == data


@settings(max_examples=60, deadline=None)
@given(positions)
def test_position_json_round_trips(pos: Position) -> None:
    assert position_from_json(json.loads(json.dumps(position_to_json(pos)))) == pos


def test_position_json_foundations_as_list_and_rules_override() -> None:
    pos = position_from_fcs(ENDGAME)
    data = position_to_json(pos)
    data["foundations"] = [13, 11, 13, 13]
    assert position_from_json(data) == pos
    easy = PRESETS["easy"]
    assert position_from_json(data, easy).rules == easy


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ({"columns": [[]] * 7}, "columns: expected a list of 8 columns"),
        ({"columns": "x"}, "columns: expected a list of 8 columns"),
        ({"columns": [[]] * 7 + ["QH"]}, "columns[7]: expected a list of cards"),
        (
            {"columns": [[]] * 7 + [["QX"]]},
            "columns[7]: cannot read card 'QX': unknown suit 'X': expected one of S, H, D, C",
        ),
        ({"cells": "KH"}, "cells: expected a list of cards or null"),
        ({"cells": [5]}, 'cells: a card is text like "7H", not 5'),
        ({"foundations": {"X": 1}}, "foundations: unknown suit 'X': expected S, H, D, C"),
        ({"foundations": [13, 13]}, "foundations: expected {S, H, D, C: top rank} or 4 ranks"),
        ({"foundations": "x"}, "foundations: expected {S, H, D, C: top rank} or 4 ranks"),
        ({"foundations": [13, "J", 13, 13]}, "foundations: each top rank is a number 0-13"),
        ({"foundations": [13, 14, 13, 13]}, "foundations need 4 top ranks from 0 (empty) to 13"),
        ({"rules": {"cells": 6}}, "rules: cells must be 8, 4 or 2, not 6"),
        ({"cells": [None] * 8}, "cards missing from the position: KH"),
    ],
)
def test_bad_json_position(change: dict[str, object], what: str) -> None:
    data = position_to_json(position_from_fcs(ENDGAME)) | change
    with pytest.raises(InvalidBoardError) as error:
        position_from_json(data)
    assert str(error.value) == what
    with pytest.raises(InvalidBoardError) as error:
        position_from_json([1, 2])
    assert str(error.value) == "a position must be a JSON object with columns, cells, foundations"


def test_json_position_defaults() -> None:
    # Missing cells: none held; missing foundations (or suits): empty; missing rules:
    # the standard game.
    data = position_to_json(pysol_deal(1))
    del data["rules"]
    data["foundations"] = {"S": 0}
    assert position_from_json(data) == pysol_deal(1)
    won = {"columns": [[]] * 8, "foundations": {"S": 13, "H": 13, "D": 13, "C": 13}}
    assert position_from_json(won).is_won()
    del data["foundations"]
    assert position_from_json(data) == pysol_deal(1)
    data["columns"][0] += data.pop("cells")[:4]
    assert position_from_json(data).cells == (None,) * 8


def test_move_json_exact_form() -> None:
    pos = pysol_deal(1)
    assert move_to_json(Move(column(7), cell(4)), pos) == {
        "card": "TC",
        "from": ["column", 8],
        "to": ["cell", 5],
        "count": 1,
    }
    end = position_from_fcs(ENDGAME)
    assert move_to_json(Move(cell(2), FOUNDATION), end) == {
        "card": "KH",
        "from": ["cell", 3],
        "to": ["foundation", 2],
        "count": 1,
    }
    assert move_to_json(Move(cell(2), FOUNDATION)) == {
        "from": ["cell", 3],
        "to": ["foundation"],
        "count": 1,
    }


def test_move_json_inputs() -> None:
    end = position_from_fcs(ENDGAME)
    assert move_from_json({"from": ["cell", 3], "to": ["foundation"]}) == Move(cell(2), FOUNDATION)
    assert move_from_json({"card": "KH", "from": ["cell", 3], "to": ["foundation", 2]}, end) == (
        Move(cell(2), FOUNDATION)
    )
    assert move_from_json({"from": "cell", "to": ["foundation", None]} | {"from": ["cell", 3]})
    assert move_from_json({"from": ["foundation", "S"], "to": ["cell", 1]}) == Move(
        foundation(0), cell(0)
    )
    assert move_from_json({"card": "KC", "from": ["foundation"], "to": ["column", 1]}) == Move(
        foundation(3), column(0)
    )
    assert move_from_json({"from": ["COLUMN", 2], "to": ["column", 3], "count": 2}) == Move(
        column(1), column(2), 2
    )


@pytest.mark.parametrize(
    ("obj", "what"),
    [
        (
            [1],
            'a move is a JSON object like {"card": "7H", "from": ["column", 3], "to": '
            '["cell", 2], "count": 1}',
        ),
        ({"from": ["cell", 3]}, """move {'from': ['cell', 3]} lacks "to\""""),
        (
            {"from": ["cell", 3], "to": ["pile", 1]},
            "\"to\": unknown kind 'pile': expected column, cell or foundation",
        ),
        ({"from": ["cell", 3], "to": ["column", 9]}, '"to": there is no column 9 (1-8)'),
        ({"from": ["cell", 0], "to": ["column", 1]}, '"from": there is no cell 0 (1-8)'),
        ({"from": ["cell", 9], "to": ["column", 1]}, '"from": there is no cell 9 (1-8)'),
        (
            {"from": ["cell", "3"], "to": ["column", 1]},
            "\"from\": the cell needs a number, not '3'",
        ),
        (
            {"from": ["cell", 3], "to": ["foundation", 5]},
            '"to": a foundation index is 1-4 (S, H, D, C), not 5',
        ),
        ({"from": ["cell", 3], "to": ["foundation", "X"]}, "\"to\": unknown foundation 'X'"),
        (
            {"from": ["foundation"], "to": ["cell", 1]},
            '"from": a move from a foundation needs its index (1-4, S H D C) or a "card"',
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "count": 0},
            '"count" must be a whole number ≥ 1, not 0',
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "count": True},
            '"count" must be a whole number ≥ 1, not True',
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "cards": 1},
            # a move echoed back is cut to a short excerpt, its length said
            "unknown key 'cards' in move {'from': ['cell', 3], 'to': ['cell', 1],… (52 characters)",
        ),
        (
            {"card": "XX", "from": ["cell", 3], "to": ["cell", 1]},
            "move {'card': 'XX', 'from': ['cell', 3], 'to'… (54 characters): cannot read card "
            "'XX': unknown rank 'X': expected A, 2-9, T or 10, J, Q, K",
        ),
        (
            {"card": 7, "from": ["cell", 3], "to": ["cell", 1]},
            '"card" must be text like "7H", not 7',
        ),
        (
            {"card": "KH", "from": ["cell", 3], "to": ["foundation", 1]},
            '"to": KH does not belong on the S foundation',
        ),
        (
            {"card": "QH", "from": ["cell", 3], "to": ["foundation"]},
            "c^: the card that moves is KH, not QH",
        ),
        (
            {"card": "QH", "from": ["cell", 1], "to": ["foundation"]},
            "a^: QH is not there, cell a is empty",
        ),
        (
            {"from": [], "to": ["cell", 1]},
            '"from" must be like ["column", 3], ["cell", 2] or ["foundation", 1], not []',
        ),
        (
            {"from": ["column", 1, 2], "to": ["cell", 1]},
            '"from" must be like ["column", 3], ["cell", 2] or ["foundation", 1], not '
            "['column', 1, 2]",
        ),
        (
            {"from": ["column", 1, 2, 3], "to": ["cell", 1]},
            '"from" must be like ["column", 3], ["cell", 2] or ["foundation", 1], not '
            "['column', 1, 2, 3]",
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "text": "3a"},
            "\"text\" '3a' is not the move ca",
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "text": 5},
            '"text" must be a move in the compact notation, like "3a"',
        ),
        (
            {"from": ["cell", 3], "to": ["cell", 1], "text": "c" * 21},
            '"text" must be a move in the compact notation, like "3a"',
        ),
    ],
)
def test_bad_json_moves(obj: object, what: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        move_from_json(obj, position_from_fcs(ENDGAME))
    assert str(error.value) == what


def test_a_json_moves_text_is_checked_and_may_be_left_out() -> None:
    pos = position_from_fcs(ENDGAME)
    move = {"card": "KH", "from": ["cell", 3], "to": ["column", 1]}
    assert move_from_json(move | {"text": "c1"}, pos) == move_from_json(move, pos)
    assert move_from_json(move | {"text": "c1"}) == Move(cell(2), column(0))
    # A foundation target may be named by its kind alone.
    assert move_from_json({"from": ["cell", 3], "to": "foundation"}, pos) == Move(
        cell(2), FOUNDATION
    )


@settings(max_examples=40, deadline=None)
@given(positions)
def test_move_json_round_trips(pos: Position) -> None:
    for move in pos.legal_moves():
        data = json.loads(json.dumps(move_to_json(move, pos)))
        assert move_from_json(data, pos) == move
        assert move_from_json(data) == move


# -- fc-solve solutions -------------------------------------------------------------------

SOLUTION = """\
-=-=-=-=-=-=-=-=-=-=-=-

Move a card from stack 1 to freecell 4

====================

Move 1 cards from stack 3 to stack 1

====================

Move 3 cards from stack 0 to stack 7
Move a card from freecell 0 to stack 7
Move a card from stack 5 to the foundations
Move a card from freecell 7 to the foundations

This game is solveable.
Total number of states checked is 656.
"""


def test_moves_from_fcs_solution() -> None:
    assert moves_from_fcs_solution(SOLUTION) == [
        Move(column(1), cell(4)),
        Move(column(3), column(1)),
        Move(column(0), column(7), 3),
        Move(cell(0), column(7)),
        Move(column(5), FOUNDATION),
        Move(cell(7), FOUNDATION),
    ]
    assert moves_from_fcs_solution("I could not solve this game.\n") == []


def test_fcs_solution_lines_in_other_spellings() -> None:
    text = (
        "Move a card from freecell 1 to freecell 6\n"
        "  MOVE  a card from stack 2 to stack 5.\n"
        "Move 1 card from stack 0 to freecell 0.\n"
        "Move 2 cards from stack 3 to stack 4\n"
    )
    assert moves_from_fcs_solution(text) == [
        Move(cell(1), cell(6)),
        Move(column(2), column(5), 1),
        Move(column(0), cell(0)),
        Move(column(3), column(4), 2),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "Move the sequence on top of Stack 3 to the foundations",
        "Move 0 cards from stack 1 to stack 2",
        "Move a card from stack 9 to freecell 1",
        "Move something",
    ],
)
def test_bad_fcs_solution_lines(line: str) -> None:
    with pytest.raises(InvalidMoveError, match="line 2"):
        moves_from_fcs_solution("\n" + line + "\n")


# -- a game's view ----------------------------------------------------------------------


def json_move(
    card: str, source: list[object], target: list[object], text: str
) -> dict[str, object]:
    return {"card": card, "from": source, "to": target, "count": 1, "text": text}


def test_a_views_json_in_full() -> None:
    # Q♥ alone in column 1, K♥ in cell a of two, every other card home.
    cols = [[Card.from_text("QH")]] + [[]] * 7
    pos = Position(cols, [Card.from_text("KH")], (13, 11, 13, 13), Rules(cells=2))
    home = json_move("QH", ["column", 1], ["foundation", 2], "1^")
    king_to = [json_move("KH", ["cell", 1], ["column", j], f"a{j}") for j in range(2, 9)]
    assert view_to_json(Game(position=pos).view()) == {
        "position": {
            "columns": [["QH"], [], [], [], [], [], [], []],
            "cells": ["KH", None],
            "foundations": {"S": 13, "H": 11, "D": 13, "C": 13},
            "rules": {
                "cells": 2,
                "empty_column": "kings",
                "build": "suit",
                "layout": "eight-off",
                "group_moves": "cells",
                "take_back": False,
            },
        },
        "legal_moves": [home, json_move("QH", ["column", 1], ["cell", 2], "1b"), *king_to],
        "status": "playing",
        "score": 0,
        "taps": {
            "column-1": {"tap": home, "smart": home},
            "cell-1": {"tap": None, "smart": king_to[0]},
        },
        "targets": {
            "column-1": ["foundation-H", "cell-2"],
            "cell-1": [f"column-{j}" for j in range(2, 9)],
        },
        "finish": [home, json_move("KH", ["cell", 1], ["foundation", 2], "a^")],
    }


def test_a_stuck_views_json_has_no_finish_and_no_taps() -> None:
    pos = Position([[]] * 8, foundations=(13, 13, 13, 13))
    data = view_to_json(Game(position=pos).view())
    assert data["status"] == "won" and data["legal_moves"] == []
    assert data["taps"] == {} and data["targets"] == {} and data["finish"] is None


def test_moves_to_json_names_each_card_where_it_is_played() -> None:
    pos = Position([[Card.from_text("QH")]] + [[]] * 7, [Card.from_text("KH")], (13, 11, 13, 13))
    moves = [Move.from_text("1^"), Move.from_text("a^")]
    assert moves_to_json(moves, pos) == [
        {"card": "QH", "from": ["column", 1], "to": ["foundation", 2], "count": 1},
        {"card": "KH", "from": ["cell", 1], "to": ["foundation", 2], "count": 1},
    ]
    assert moves_to_json(moves, pos, text=True)[1]["text"] == "a^"
