"""Position: every rule option with positions built by hand, legal and illegal cases.

:func:`support.board` builds the positions from text.
"""

import pytest

from eightoff.cards import CARDS, Card
from eightoff.deal import deal, layout
from eightoff.errors import Illegal
from eightoff.moverules import builds_on
from eightoff.moves import (
    FOUNDATION,
    IllegalMoveError,
    Move,
    cell,
    column,
    foundation,
)
from eightoff.position import InvalidPositionError, Position
from eightoff.rules import PRESETS, STANDARD, Build, GroupMoves, preset
from support import board


def m(text: str) -> Move:
    return Move.from_text(text)


def reason(pos: Position, text: str) -> str | None:
    """why_illegal, checked against legal_moves (the two must agree)."""
    move = m(text)
    why = pos.why_illegal(move)
    assert (why is None) == (move in pos.legal_moves()), (text, why)
    return why


# -- building positions -------------------------------------------------------------


def test_board_helper_and_text_form() -> None:
    pos = board(["KS QS", "KH"], "QH -")
    assert pos.foundations == (11, 11, 13, 13)
    assert pos.cells == (CARDS[24], None, None, None, None, None, None, None)
    assert str(pos).splitlines()[:3] == [
        "Foundations: S-J H-J D-K C-K",
        "Cells:       QH -- -- -- -- -- -- --",
        " 1  2  3  4  5  6  7  8",
    ]
    assert pos.cards_home() == 48 and not pos.is_won()


def test_won_position() -> None:
    pos = Position([[]] * 8, [], (13, 13, 13, 13))
    assert pos.is_won() and pos.cards_home() == 52 and pos.legal_moves() == []


FOUNDATIONS_MESSAGE = "foundations need 4 top ranks from 0 (empty) to 13"


@pytest.mark.parametrize(
    ("columns", "cells", "foundations", "message"),
    [
        ([[0, 1]] + [[]] * 7, [1], (0, 0, 0, 0), "2S appears twice: in column 1 and cell a"),
        ([[]] * 8, [], (13, 13, 13, 12), "cards missing from the position: KC"),
        ([[]] * 8, [], (13, 12, 13, 10), "cards missing from the position: KH JC QC KC"),
        ([[51]] * 8, [], (13, 13, 13, 12), "KC appears twice: in column 1 and column 2"),
        ([[51]] + [[]] * 6, [], (13, 13, 13, 12), "a position has 8 columns, not 7"),
        ([[]] * 8, [], (13, 13, 13, 14), FOUNDATIONS_MESSAGE),
        ([[]] * 8, [], (13, 13, 13, -1), FOUNDATIONS_MESSAGE),
        ([[]] * 8, [], (13, 13, 13), FOUNDATIONS_MESSAGE),
        ([[12]] + [[]] * 7, [], (13, 13, 13, 13), "KS appears twice: in foundation ♠ and column 1"),
        ([[]] * 8, [None] * 9, (13, 13, 13, 13), "9 cells given, the rules have 8"),
    ],
)
def test_invalid_positions_are_refused(
    columns: list[list[int]], cells: list[int | None], foundations: tuple[int, ...], message: str
) -> None:
    with pytest.raises(InvalidPositionError) as err:
        Position(columns, cells, foundations)
    assert str(err.value) == message


def test_position_is_immutable_and_hashable() -> None:
    a = board(["KS QS"], "JS")
    b = board(["KS QS"], "JS")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != board(["KS QS"], "- JS")
    assert a != board(["", "KS QS"], "JS", rest=7)  # the same cells, the cards in other columns
    assert board(["KS", "KH"], rest=7) != board(["KH", "KS"], rest=7)
    assert a != board(["KS QS"], "JS", rules=preset("easy"))
    with pytest.raises(AttributeError):
        a.cells = ()  # type: ignore[misc]


def test_apply_moves_cards_and_keeps_the_original() -> None:
    pos = board(["KS QS JS", "KH"], "QH")
    after = pos.apply(m("a2"))
    assert after.columns[1] == (Card.from_text("KH"), Card.from_text("QH"))
    assert after.cells[0] is None
    assert pos.cells[0] == Card.from_text("QH")  # unchanged
    home = after.apply(m("1^"))
    assert home.foundations == (11, 11, 13, 13)
    assert home.columns[0] == (Card.from_text("KS"), Card.from_text("QS"))


def test_apply_refuses_an_illegal_move_saying_why() -> None:
    pos = board(["KS QS", "TS"], "JS")
    with pytest.raises(IllegalMoveError, match=r"^21: 10♠ cannot go on Q♠: needs J♠$") as err:
        pos.apply(m("21"))
    assert err.value.move == m("21")
    assert err.value.code is Illegal.DOES_NOT_BUILD
    assert err.value.reason == "10♠ cannot go on Q♠: needs J♠"
    assert pos.illegality(m("2^")) is None and pos.illegality(m("2b")) is None


# -- cells: 8 / 4 / 2 ---------------------------------------------------------------


@pytest.mark.parametrize(("cells", "last"), [(8, "h"), (4, "d"), (2, "b")])
def test_cell_count(cells: int, last: str) -> None:
    rules = STANDARD.with_options(cells=cells)
    pos = board(["KS QS", "KH"], rules=rules)
    assert len(pos.cells) == cells and pos.free_cells == cells
    assert reason(pos, f"1{last}") is None
    beyond = "abcdefghi"[cells]
    if cells < 8:
        assert reason(pos, f"1{beyond}") == (
            f"there is no cell {cells + 1}: these rules have {cells} cells"
        )
    assert sum(1 for mv in pos.legal_moves() if mv.target.kind == "cell") == 2 * cells


def test_full_cell_and_full_cells() -> None:
    rules = STANDARD.with_options(cells=2)
    pos = board(["KS", "KH QH"], "QS JH", rules=rules)
    assert reason(pos, "2a") == "cell a already holds Q♠"
    assert pos.free_cells == 0
    assert not any(mv.target.kind == "cell" for mv in pos.legal_moves())
    with pytest.raises(InvalidPositionError, match="3 cells given, the rules have 2"):
        Position(pos.columns, [None, None, None], pos.foundations, rules)


def test_cell_to_cell_is_refused() -> None:
    pos = board(["KS"], "QS")
    assert reason(pos, "ab") == "a card in a cell cannot move to another cell"
    assert reason(pos, "aa") == "source and target are the same place"


def test_cells_move_one_card() -> None:
    pos = board(["KS", "KH QH"], "QS")
    assert reason(pos, "a1") is None
    assert reason(pos, "a1x2") == "only one card at a time moves from cell a"
    assert reason(pos, "2bx2") == "a cell holds one card"
    assert reason(pos, "b1") == "cell b is empty"


# -- empty column: Kings only / any card ---------------------------------------------


def test_empty_column_takes_a_king_only() -> None:
    pos = board(["KS", "", "QH"], "KH", rest=0)
    assert reason(pos, "a2") is None
    assert reason(pos, "32") == "only a King can go to an empty column, not Q♥"
    assert pos.moving_cards(m("a2")) == (Card.from_text("KH"),)


def test_empty_column_takes_a_king_headed_run() -> None:
    pos = board(["2D KS QS JS", "", "KH QH", "4D"], "JH", rest=7)
    assert reason(pos, "12x3") is None
    assert reason(pos, "12x2") == "only a King can go to an empty column, not Q♠"
    assert reason(pos, "12") == "only a King can go to an empty column, not J♠"
    # K♥ Q♥ is the whole of column 3: moving it to an empty column changes nothing.
    assert reason(pos, "32x2") == "moving a whole column into an empty column changes nothing"


def test_lone_king_is_never_offered_an_empty_column() -> None:
    pos = board(["KS", "", "KH QH"], "QS", rest=7)
    assert not any(mv.source == column(0) and mv.target == column(1) for mv in pos.legal_moves())
    assert reason(pos, "12") == "moving a whole column into an empty column changes nothing"
    # A King in a cell may go there.
    pos = board(["KS", ""], "KH", rest=7)
    assert reason(pos, "a2") is None


def test_empty_column_takes_any_card_under_easy() -> None:
    rules = preset("easy")
    pos = board(["KS", "", "KH QH JH"], "5D", rules=rules, rest=0)
    assert reason(pos, "a2") is None
    assert reason(pos, "32") is None
    assert reason(pos, "32x2") is None
    assert reason(pos, "32x3") == "moving a whole column into an empty column changes nothing"
    assert reason(pos, "12") is None  # K♠ sits on the left-over cards: not a whole column


# -- build: in suit / alternating colours --------------------------------------------


def test_build_in_suit() -> None:
    pos = board(["TC", "9C", "8C", "9S"], rest=7)
    assert reason(pos, "32") is None
    assert reason(pos, "31") == "8♣ cannot go on 10♣: needs 9♣"
    assert reason(pos, "34") == "8♣ cannot go on 9♠: needs 9♣"
    assert builds_on(Card.from_text("8C"), Card.from_text("9C"), Build.SUIT)
    assert not builds_on(Card.from_text("8C"), Card.from_text("9H"), Build.SUIT)


def test_build_in_alternating_colours() -> None:
    pos = board(["9H", "9S", "8C", "9D 8D"], rules=preset("alternate"), rest=7)
    assert reason(pos, "31") is None
    assert reason(pos, "32") == "8♣ cannot go on 9♠: needs a red 9"
    assert reason(pos, "41") == "8♦ cannot go on 9♥: needs a black 9"
    assert reason(pos, "42") is None
    assert builds_on(Card.from_text("8C"), Card.from_text("9H"), Build.ALTERNATE)
    assert not builds_on(Card.from_text("8C"), Card.from_text("9C"), Build.ALTERNATE)


def test_nothing_goes_on_an_ace() -> None:
    pos = board(["AS", "KH"], rest=7)
    assert (
        reason(pos, "21") == "K♥ cannot go on A♠: a King goes on no card, only to an empty column"
    )


def test_run_length_follows_the_build() -> None:
    cards = ["KS", "9D", "8C", "7H", "6C"]
    suit = board([" ".join(cards)], rest=7)
    alt = board([" ".join(cards)], rules=preset("alternate"), rest=7)
    assert suit.run_length(0) == 1
    assert alt.run_length(0) == 4
    assert board(["TS 9S 8S"], rest=7).run_length(0) == 3
    assert board(["TS 9S 8S"], rest=7).run_length(1) == 0
    assert reason(suit, "18x2") == "the 2 cards from 7♥ down are not a run: 6♣ does not go on 7♥"
    assert reason(alt, "18x2") == "7♥ cannot go on K♣: needs a black 8"


def test_moving_a_broken_run_is_refused() -> None:
    pos = board(["KS", "9S 7S 6S", "8S"], "- - - -", rest=0)
    assert reason(pos, "23x2") is None
    assert reason(pos, "23x3") == "the 3 cards from 9♠ down are not a run: 7♠ does not go on 9♠"
    assert reason(pos, "23x4") == "column 2 holds only 3 cards"


# -- layouts --------------------------------------------------------------------------
# -- group moves: single card / free cells + 1 / FreeCell formula ---------------------

# Two free cells (six of eight full), one empty column (2), K♠ Q♠ J♠ [10♠] on a 2♦.
GROUP_COLUMNS = ["2D KS QS JS TS", "", "KH", "3D QH JH TH 9H", "4D JC TC 9C", "QC", "5D"]
GROUP_CELLS = "2S 3S 4S 5S 6S 7S"


def group_board(mode: str, *, king_run: int = 4) -> Position:
    columns = list(GROUP_COLUMNS)
    columns[0] = " ".join(columns[0].split()[: 1 + king_run])
    return board(columns, GROUP_CELLS, rules=STANDARD.with_options(group_moves=mode), rest=7)


def test_single_card_mode_moves_no_runs() -> None:
    pos = group_board("single")
    assert pos.capacity(to_empty_column=False) == 1
    assert reason(pos, "56x3") == "these rules move one card at a time"
    assert reason(pos, "5g") is None
    assert all(mv.count == 1 for mv in pos.legal_moves())


def test_cells_mode_moves_free_cells_plus_one() -> None:
    pos = group_board("cells")
    assert (pos.free_cells, pos.empty_columns) == (2, 1)
    assert pos.capacity(to_empty_column=False) == pos.capacity(to_empty_column=True) == 3
    assert reason(pos, "56x3") is None
    # The empty column does not help: 4 cards need 3 free cells.
    assert reason(pos, "43x4") == "a run of 4 cards needs more room: at most 3 can move now"
    assert reason(pos, "12x4") == "a run of 4 cards needs more room: at most 3 can move now"
    assert reason(group_board("cells", king_run=3), "12x3") is None


def test_freecell_formula_counts_empty_columns() -> None:
    pos = group_board("freecell")
    assert pos.capacity(to_empty_column=False) == 6  # (2 + 1) * 2**1
    assert reason(pos, "43x4") is None
    assert Move(column(3), column(2), 4) in pos.legal_moves()


def test_freecell_formula_with_an_empty_destination() -> None:
    # The app rules: two free cells, one empty column: a King run of 3 moves there, not of 4.
    three = group_board("freecell", king_run=3)
    assert three.capacity(to_empty_column=True) == 3  # the destination does not count
    assert reason(three, "12x3") is None
    four = group_board("freecell", king_run=4)
    assert reason(four, "12x4") == "a run of 4 cards needs more room: at most 3 can move now"
    assert reason(four, "12x3") == "only a King can go to an empty column, not Q♠"


RUN_ROOM = ["7S", "", "KH 6S 5S", "QH", "JH", "TH", "9H"]


@pytest.mark.parametrize("name", ["easy", "bakers"])
def test_where_any_card_fills_an_empty_column_runs_count_empty_columns(name: str) -> None:
    # No free cell, one empty column: three single moves carry 6♠ 5♠ onto 7♠, so one may.
    rules = preset(name).with_options(cells=4)
    pos = board(RUN_ROOM, "2S 3S 4S AH", rules=rules, rest=7)
    assert (pos.free_cells, pos.empty_columns) == (0, 1)
    assert rules.group_moves is GroupMoves.FREECELL
    assert reason(pos, "31x2") is None and Move(column(2), column(0), 2) in pos.legal_moves()
    by_hand = pos.apply(m("32")).apply(m("31")).apply(m("21"))
    assert pos.apply(m("31x2")) == by_hand
    # Kings only: the empty column is no room, as a card cannot go there alone.
    kings = board(RUN_ROOM, "2S 3S 4S AH", rules=STANDARD.with_options(cells=4), rest=7)
    assert reason(kings, "31x2") == "a run of 2 cards needs more room: at most 1 can move now"
    assert reason(kings, "32") == "only a King can go to an empty column, not 5♠"


def test_freecell_formula_with_two_empty_columns() -> None:
    columns = list(GROUP_COLUMNS)
    columns[6] = ""
    pos = board(columns, GROUP_CELLS, rules=preset("app"), rest=7)
    assert pos.empty_columns == 2
    assert pos.capacity(to_empty_column=False) == 12
    assert pos.capacity(to_empty_column=True) == 6
    assert reason(pos, "12x4") is None
    assert reason(pos, "17x4") is None


def test_freecell_formula_without_empty_columns() -> None:
    pos = board(["KS QS JS", "KH", "KD", "KC", "JH", "TH", "9H"], rules=preset("app"), rest=7)
    assert pos.empty_columns == 0
    assert pos.capacity(to_empty_column=True) == pos.capacity(to_empty_column=False) == 9
    assert pos.legal_moves()


# -- take back from a foundation: on / off --------------------------------------------


def test_take_back_off() -> None:
    pos = board(["KH", "KS QS"], rest=7)
    assert pos.foundations[1] == 12
    assert reason(pos, "^Ha") == "cards cannot be taken back from a foundation under these rules"
    assert reason(pos, "^H1") == "cards cannot be taken back from a foundation under these rules"
    assert not any(mv.source.kind == "foundation" for mv in pos.legal_moves())


def test_take_back_on() -> None:
    pos = board(["KH", "KS QS", ""], rules=STANDARD.with_options(take_back=True), rest=7)
    assert pos.top(foundation(1)) == Card.from_text("QH")
    assert reason(pos, "^Ha") is None
    assert reason(pos, "^H1") is None
    assert reason(pos, "^H2") == "Q♥ cannot go on Q♠: needs K♥"
    assert reason(pos, "^H3") == "only a King can go to an empty column, not Q♥"
    assert reason(pos, "^D3") is None  # a King taken back may fill an empty column
    assert reason(pos, "^H^") == "a foundation card cannot move to a foundation"
    assert reason(pos, "^Hax2") == "only one card at a time moves from the ♥ foundation"
    after = pos.apply(m("^Ha"))
    assert after.foundations[1] == 11 and after.cells[0] == Card.from_text("QH")


def test_take_back_from_an_empty_foundation() -> None:
    pos = board(["AS KS"], rules=preset("app"), rest=7)
    assert pos.foundations[0] == 0
    assert reason(pos, "^Sa") == "the ♠ foundation is empty"


# -- foundations ---------------------------------------------------------------------


def test_foundation_moves() -> None:
    pos = board(["KS 5H", "4H", "KH"], "AC", rest=7)
    assert reason(pos, "2^") is None
    assert reason(pos, "a^") is None
    assert reason(pos, "1^") == "5♥ cannot go to the foundation: needs 4♥ first"
    pos = board(["KS QS JS"], rest=7)
    assert reason(pos, "1^x2") == "one card at a time goes to a foundation"


def test_foundation_target_names_no_suit() -> None:
    pos = board(["KS QS JS"], rest=7)
    assert pos.is_legal(Move(column(0), FOUNDATION))
    assert pos.why_illegal(Move(column(0), foundation(0))) == (
        "a move to a foundation names no suit: the card's suit decides"
    )


@pytest.mark.parametrize(
    ("move", "code", "message"),
    [
        (Move(column(0), cell(0), 0), Illegal.NO_CARD, "a move carries at least one card"),
        (Move(column(8), cell(0)), Illegal.NO_SUCH_PLACE, "there is no column 9: columns are 1-8"),
        (
            Move(column(0), column(-1)),
            Illegal.NO_SUCH_PLACE,
            "there is no column 0: columns are 1-8",
        ),
        (
            Move(cell(8), column(0)),
            Illegal.NO_SUCH_PLACE,
            "there is no cell 9: these rules have 8 cells",
        ),
        (
            Move(foundation(4), cell(0)),
            Illegal.NO_SUCH_PLACE,
            "a move from a foundation must name its suit",
        ),
        (
            Move(FOUNDATION, cell(0)),
            Illegal.NO_SUCH_PLACE,
            "a move from a foundation must name its suit",
        ),
        (
            Move(column(0), foundation(0)),
            Illegal.NO_SUCH_PLACE,
            "a move to a foundation names no suit: the card's suit decides",
        ),
        (Move(column(2), cell(0)), Illegal.EMPTY_SOURCE, "column 3 is empty"),
        (Move(column(0), column(0)), Illegal.SAME_PLACE, "source and target are the same place"),
        (Move(column(1), column(0), 2), Illegal.TOO_FEW_CARDS, "column 2 holds only 1 card"),
    ],
)
def test_malformed_moves_are_refused(move: Move, code: Illegal, message: str) -> None:
    pos = board(["KS QS", "KH"], rest=7)
    assert pos.why_illegal(move) == message
    assert move not in pos.legal_moves()
    with pytest.raises(IllegalMoveError, match=message) as err:
        pos.check(move)
    assert (err.value.move, err.value.code, err.value.reason) == (move, code, message)


# -- layouts (eightoff.deal.layout) -------------------------------------------------

DECK = [CARDS[(7 * i + 3) % 52] for i in range(52)]  # a fixed, well-mixed deck


@pytest.mark.parametrize("cells", [8, 4])
def test_eight_off_layout(cells: int) -> None:
    pos = layout(DECK, STANDARD.with_options(cells=cells))
    assert [len(c) for c in pos.columns] == [6] * 8
    assert pos.columns[0][:2] == (DECK[0], DECK[8])  # dealt row by row
    assert pos.cells[:4] == tuple(DECK[48:])
    assert pos.free_cells == cells - 4


def test_two_cell_layout_puts_two_spare_cards_on_columns_3_and_4() -> None:
    pos = layout(DECK, STANDARD.with_options(cells=2))
    assert [len(c) for c in pos.columns] == [6, 6, 7, 7, 6, 6, 6, 6]
    assert pos.cells == (DECK[48], DECK[49])
    assert (pos.columns[2][-1], pos.columns[3][-1]) == (DECK[50], DECK[51])
    assert pos.free_cells == 0
    # Legal: a card from a cell goes home or onto a column; illegal: no cell is free.
    assert not any(mv.target.kind == "cell" for mv in pos.legal_moves())
    assert pos.why_illegal(Move(column(0), cell(0))) == f"cell a already holds {DECK[48].symbol()}"


def test_bakers_layout() -> None:
    pos = layout(DECK, preset("bakers"))
    assert [len(c) for c in pos.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert pos.cells == (None, None, None, None)
    assert pos.columns[0][-1] == DECK[48]
    assert Move(column(0), cell(3)) in pos.legal_moves()
    assert (
        pos.why_illegal(Move(column(0), cell(4))) == "there is no cell 5: these rules have 4 cells"
    )


def test_bakers_layout_with_eight_cells() -> None:
    pos = layout(DECK, preset("bakers").with_options(cells=8))
    assert [len(c) for c in pos.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert pos.free_cells == 8


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_under_every_preset_is_a_valid_position(name: str) -> None:
    pos = deal(1, preset(name))
    assert pos.rules == preset(name)
    cards = [c for col in pos.columns for c in col] + [c for c in pos.cells if c is not None]
    assert sorted(cards) == list(range(52))
    assert pos.legal_moves()
