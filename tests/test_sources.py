"""load_source: game codes, pysol:N, board files, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.deal import deal, pysol_deal
from eightoff.formats import InvalidBoardError, position_to_fcs
from eightoff.rules import STANDARD, preset
from eightoff.sources import InvalidSourceError, load_source


def test_game_code() -> None:
    pos, code = load_source(" eo1-c8-aaaaafa ")
    assert code == GameCode(STANDARD, 130)
    assert pos == deal(130)


def test_game_code_fixes_the_rules() -> None:
    pos, code = load_source("EO1-C4-AAAAAFA-EB", preset("bakers"))
    assert code is not None and pos.rules == preset("bakers")
    with pytest.raises(InvalidSourceError, match="fixes its own rules"):
        load_source("EO1-C8-AAAAAFA", preset("easy"))


def test_pysol_deal_with_rules() -> None:
    pos, code = load_source("pysol:7")
    assert pos == pysol_deal(7) and code == GameCode(STANDARD, 7, "pysol")
    two = STANDARD.with_options(cells=2)
    pos, code = load_source("PySol : 7", two)
    assert pos == pysol_deal(7, two)
    assert str(code) == "EO1-C2-AAAAAAH-P"


def test_board_file(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(position_to_fcs(deal(5)))
    pos, code = load_source(str(board))
    assert pos == deal(5) and code is None
    easy = preset("easy")
    assert load_source(str(board), easy)[0].rules == easy
    four = deal(5, STANDARD.with_options(cells=4))
    board.write_text(position_to_fcs(four))
    assert load_source(str(board))[0] == four  # the cell count follows the Freecells line


@pytest.mark.parametrize(
    ("text", "error", "what"),
    [
        ("", InvalidSourceError, "no game given"),
        ("pysol:", InvalidSourceError, "pysol:N with N a number"),
        ("pysol:-3", InvalidSourceError, "pysol:N with N a number"),
        ("pysol:0", InvalidSourceError, "out of range 1-"),
        ("nosuch.txt", InvalidSourceError, "no such board file 'nosuch.txt'"),
        ("hello", InvalidSourceError, "not a game code"),
        ("E01-C8-AAAAAFA", InvalidGameCodeError, "letter O, not zero"),
        ("EO1-C8-AAAAAF", InvalidGameCodeError, "7 letters, got 6"),
    ],
)
def test_bad_sources(text: str, error: type[ValueError], what: str) -> None:
    with pytest.raises(error, match=what):
        load_source(text)


def test_bad_board_file_names_file_and_line(tmp_path: Path) -> None:
    board = tmp_path / "bad.txt"
    board.write_text("Freecells: XX\n")
    with pytest.raises(InvalidBoardError, match=r"bad\.txt: line 1: cannot read card 'XX'"):
        load_source(str(board))
    with pytest.raises(InvalidSourceError, match="not a board file"):
        load_source(str(tmp_path))
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InvalidSourceError, match="cannot read board file"):
        load_source(str(binary))
