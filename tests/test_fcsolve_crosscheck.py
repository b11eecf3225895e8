"""Cross-check with the field: PySolFC's Eight Off deals 1-200 and Freecell Solver.

For each deal: ``eightoff deal pysol:N --format fcs`` must give pysol_cards' own
board (up to the cells' order: PySolFC leaves every other cell empty), fc-solve
solves that very text, and its solution replays to a win through
``eightoff replay`` (in-process via ``cli.main``; a few as real subprocesses).

fc-solve's default ``-g eight_off`` preset (runs of up to free cells + 1) is
checked too, on deals 150-170 (it takes fc-solve over a minute on all 200:
deals 37 and 192 alone take ~45 s and ~18 s): there fc-solve once moves a lone
King from its column into an empty column (deal 159), a move that changes
nothing and that our engine never allows; every other deal replays to a win.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from eightoff.cli import main
from eightoff.deal import pysol_deal
from eightoff.formats import (
    move_to_json,
    moves_from_fcs_solution,
    position_from_fcs,
    position_to_fcs,
)
from support import needs_fc_solve

FC_SOLVE = shutil.which("fc-solve")
pytestmark = needs_fc_solve
DEALS = range(1, 201)
SUBPROCESS_DEALS = (1, 100, 200)
DEFAULT_PRESET_DEALS = range(150, 171)
BOARD = ("Foundations:", "Freecells:", ":")  # the lines of a board in fc-solve's output
FCS_ARGS = ("-g", "eight_off", "-l", "toons-for-twenty-somethings", "-m", "-p", "-t", "-sel")
SRC = Path(__file__).resolve().parents[1] / "src"


def pysol_board(number: int) -> tuple[list[str], list[str]]:
    """pysol_cards' own Eight Off board: column lines, and the cards in its cells, sorted."""
    text = Game("eight_off", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    lines = text.splitlines()
    assert lines[0].startswith("Freecells:")
    return lines[1:], sorted(c for c in lines[0].split()[1:] if c != "-")


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert err == ""
    return status, out


def test_deals_1_to_200_replay_to_a_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused: list[str] = []
    for number in DEALS:
        status, board = run_main(capsys, "deal", f"pysol:{number}", "--format", "fcs")
        assert status == 0
        lines = board.splitlines()
        assert lines[0] == "Foundations: H-0 C-0 D-0 S-0"
        assert lines[1].startswith("Freecells:")
        columns, cells = pysol_board(number)
        assert lines[2:] == columns, f"deal {number}: columns differ from pysol_cards"
        ours = lines[1].split()[1:]
        assert sorted(c for c in ours if c != "-") == cells, f"deal {number}: cells differ"

        board_file = tmp_path / f"{number}.board"
        board_file.write_text(board)
        solved = subprocess.run(
            [str(FC_SOLVE), *FCS_ARGS, str(board_file)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert "This game is solveable." in solved.stdout, f"deal {number}: {solved.stdout[-300:]}"
        moves = moves_from_fcs_solution(solved.stdout)
        assert moves, f"deal {number}: no moves in fc-solve's solution"
        moves_file = tmp_path / f"{number}.json"
        moves_file.write_text(json.dumps([move_to_json(m) for m in moves]))

        if number in SUBPROCESS_DEALS:
            proc = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "eightoff",
                    "replay",
                    str(board_file),
                    "--moves",
                    str(moves_file),
                ],
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
                env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
            )
            assert proc.stderr == "", proc.stderr
            status, out = proc.returncode, proc.stdout
        else:
            status, out = run_main(capsys, "replay", str(board_file), "--moves", str(moves_file))
        result = json.loads(out)
        if status != 0:
            refused.append(f"deal {number}: {result['error']}")
            continue
        assert result["status"] == "won", f"deal {number}: {result['status']}"
        assert result["applied"] == len(moves)
        assert result["error"] is None
        assert result["position"]["foundations"] == {"S": 13, "H": 13, "D": 13, "C": 13}
    assert refused == [], "our engine refused fc-solve moves:\n" + "\n".join(refused)


def test_default_preset_runs_replay_except_a_lone_king_shuffle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused: dict[int, str] = {}
    longest = 0
    for number in DEFAULT_PRESET_DEALS:
        _, board = run_main(capsys, "deal", f"pysol:{number}", "--format", "fcs")
        board_file = tmp_path / "board"
        board_file.write_text(board)
        solved = subprocess.run(
            [str(FC_SOLVE), "-g", "eight_off", "-m", "-p", "-t", "-sel", str(board_file)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        moves = moves_from_fcs_solution(solved.stdout)
        longest = max(longest, *(m.count for m in moves))
        moves_file = tmp_path / "moves.json"
        moves_file.write_text(json.dumps([move_to_json(m) for m in moves]))
        status, out = run_main(capsys, "replay", str(board_file), "--moves", str(moves_file))
        result = json.loads(out)
        if status == 0:
            assert result["status"] == "won", f"deal {number}"
        else:
            refused[number] = result["error"]["reason"]
    assert longest > 1  # this preset does move runs, and we accept them
    assert refused == {
        159: "42: moving a whole column into an empty column changes nothing",
    }


def test_fc_solve_states_read_back_as_our_positions(tmp_path: Path) -> None:
    # fc-solve -sam prints the board after every move (empty cells left blank):
    # each must read back as exactly the position our engine reaches.
    for number in (1, 2, 3, 59, 159):
        board = position_to_fcs(pysol_deal(number))
        solved = subprocess.run(
            [str(FC_SOLVE), *FCS_ARGS, "-sam", "-"],
            input=board,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        blocks = [b for b in solved.stdout.split("====================") if "Freecells:" in b]
        states = [
            position_from_fcs("\n".join(ln for ln in b.splitlines() if ln.startswith(BOARD)))
            for b in blocks
        ]
        moves = moves_from_fcs_solution(solved.stdout)
        assert len(states) == len(moves) + 1
        position = position_from_fcs(board)
        assert states[0] == position
        for move, state in zip(moves, states[1:], strict=True):
            position = position.apply(move)
            assert state == position, f"deal {number}, after {move}"
        assert position.is_won()
