"""The eightoff command: deal, replay, play; rule options; bad input → one line, exit 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from eightoff.cli import build_parser, main
from eightoff.codes import GameCode
from eightoff.deal import deal, pysol_deal
from eightoff.formats import move_to_json, position_from_fcs, position_from_json, position_to_fcs
from eightoff.moves import Move
from eightoff.rules import preset

SRC = Path(__file__).resolve().parents[1] / "src"

# Every cell full, every ace buried: no legal move at all.
STUCK = """\
Foundations: H-0 C-0 D-0 S-0
Freecells: 7D JH 4H TH 8D 2H QD 3S
AS 9D 9H JD 3D 8H
AH 2D 4C 4D QH 6C
AD 8C 2S 6H 7S KC
AC KH 5D QC 3H 6S
5H 5S 2C 9S 9C
7H 7C KD 5C 8S
TD KS TS TC 3C
JC QS JS 4S 6D
"""

# Q♥ alone in column 2, K♥ in cell c: one move from a win.
ENDGAME = """\
Foundations: H-J C-K D-K S-K
Freecells: - - KH - - - - -
:
QH
:
:
:
:
:
:
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- deal --------------------------------------------------------------------------------


def test_deal_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "deal", "EO1-C8-AAAAAFA")
    assert status == 0 and err == ""
    assert out.splitlines()[0].startswith("Game EO1-C8-AAAAAFA — 8 cells")
    assert str(deal(130)) in out


def test_deal_fcs_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "deal", "pysol:5", "--format", "fcs")
    assert out == position_to_fcs(pysol_deal(5))
    _, out, _ = run(capsys, "deal", "pysol:5", "--format", "json")
    data = json.loads(out)
    assert data["code"] == "EO1-C8-AAAAAAF-P"
    assert position_from_json(data) == pysol_deal(5)


def test_deal_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "deal", "pysol:5", "--format", "json", "--rules", "bakers")
    data = json.loads(out)
    assert data["code"] == "EO1-C4-AAAAAAF-EBP"
    assert position_from_json(data) == pysol_deal(5, preset("bakers"))
    _, out, _ = run(
        capsys,
        "deal",
        "pysol:5",
        "--format",
        "json",
        "--rules",
        "easy",
        "--cells",
        "2",
        "--build",
        "alternate",
        "--group-moves",
        "freecell",
        "--take-back",
    )
    rules = preset("easy").with_options(
        cells=2, build="alternate", group_moves="freecell", take_back=True
    )
    assert position_from_json(json.loads(out)).rules == rules
    assert json.loads(out)["code"] == str(GameCode(rules, 5, "pysol"))
    _, out, _ = run(capsys, "deal", "pysol:5", "--format", "json", "--layout", "bakers")
    assert [len(c) for c in json.loads(out)["columns"]] == [7, 7, 7, 7, 6, 6, 6, 6]
    _, out, _ = run(
        capsys, "deal", "pysol:5", "--format", "json", "--rules", "app", "--no-take-back"
    )
    assert json.loads(out)["rules"]["take_back"] is False


def test_deal_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "end.txt", ENDGAME)
    status, out, _ = run(capsys, "deal", board, "--format", "fcs")
    assert status == 0 and out == position_to_fcs(position_from_fcs(ENDGAME))
    _, out, _ = run(capsys, "deal", board, "--empty-column", "any", "--format", "json")
    assert json.loads(out)["code"] is None
    assert json.loads(out)["rules"]["empty_column"] == "any"


# -- replay ------------------------------------------------------------------------------


def test_replay_to_a_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "end.txt", ENDGAME)
    moves = write(
        tmp_path,
        "moves.json",
        json.dumps(
            [
                {"card": "QH", "from": ["column", 2], "to": ["foundation"], "count": 1},
                {"from": ["cell", 3], "to": ["foundation", 2]},
            ]
        ),
    )
    status, out, err = run(capsys, "replay", board, "--moves", moves)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert set(result) == {"status", "applied", "position", "error"}
    assert result["status"] == "won" and result["applied"] == 2 and result["error"] is None


def test_replay_notation_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = deal(130)
    first = pos.legal_moves()[0]
    after = pos.apply(first)
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps([str(first)])))
    status, out, _ = run(capsys, "replay", "EO1-C8-AAAAAFA", "--moves", "-")
    result = json.loads(out)
    assert status == 0 and result["applied"] == 1 and result["status"] == "playing"
    assert position_from_json(result["position"]) == after


def test_replay_stops_at_the_first_illegal_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = write(tmp_path, "end.txt", ENDGAME)
    moves = write(tmp_path, "m.json", json.dumps(["c^", "2a", "a1"]))
    status, out, _ = run(capsys, "replay", board, "--moves", moves)
    result = json.loads(out)
    assert status == 1
    assert result["applied"] == 0
    assert result["error"]["index"] == 0
    assert result["error"]["move"] == "c^"
    assert "K♥ cannot go to the foundation: needs Q♥ first" in result["error"]["reason"]
    assert position_from_json(result["position"]) == position_from_fcs(ENDGAME)
    # A lone King to an empty column is refused, and says why.
    moves = write(tmp_path, "m.json", json.dumps(["2^", "c1", "12"]))
    status, out, _ = run(capsys, "replay", board, "--moves", moves)
    result = json.loads(out)
    assert status == 1 and result["applied"] == 2 and result["error"]["index"] == 2
    assert "whole column" in result["error"]["reason"]


def test_replay_card_mismatch_is_an_illegal_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = write(tmp_path, "end.txt", ENDGAME)
    moves = write(
        tmp_path, "m.json", json.dumps([{"card": "JH", "from": ["column", 2], "to": ["cell", 1]}])
    )
    status, out, _ = run(capsys, "replay", board, "--moves", moves)
    result = json.loads(out)
    assert status == 1 and result["error"]["index"] == 0
    assert result["error"]["reason"] == "2a: the card that moves is QH, not JH"


def test_replay_reports_stuck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "stuck.txt", STUCK)
    moves = write(tmp_path, "none.json", "[]")
    status, out, _ = run(capsys, "replay", board, "--moves", moves)
    assert status == 0 and json.loads(out)["status"] == "stuck"


# -- play and the parser -------------------------------------------------------------------


def test_play_prints_a_fresh_deal_and_how_to_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "play", "--rules", "easy")
    assert status == 0
    code = GameCode.parse(out.split()[1])
    assert code.rules == preset("easy")
    assert str(code.position()) in out
    assert f"eightoff replay {code} --moves" in out


def test_parser_lists_the_subcommands() -> None:
    help_text = build_parser().format_help()
    for name in ("deal", "replay", "play"):
        assert name in help_text


# -- bad input: one line, exit 2 -------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        ([], "required: COMMAND"),
        (["frob"], "invalid choice: 'frob'"),
        (["deal"], "required: source"),
        (["deal", "EO1-C8-AAAAAFA", "--format", "xml"], "invalid choice: 'xml'"),
        (["deal", "EO1-C8-AAAAAFA", "--cells", "3"], "invalid choice: 3"),
        (["deal", "EO1-C9-AAAAAFA"], "must be 8, 4 or 2, not 9"),
        (["deal", "EO1-C8-AAAAAFA", "--rules", "easy"], "fixes its own rules"),
        (["deal", "pysol:3", "--rules", "nope"], "unknown preset 'nope'"),
        (["deal", "pysol:zero"], "pysol:N with N a number"),
        (["deal", "missing.txt"], "no such board file"),
        (["replay", "pysol:3"], "required: --moves"),
        (["replay", "pysol:3", "--moves", "missing.json"], "no such moves file"),
    ],
)
def test_bad_arguments(argv: list[str], what: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("eightoff: error: ") and err.count("\n") == 1
    assert what in err


@pytest.mark.parametrize(
    ("moves", "what"),
    [
        ("{not json", "not valid JSON"),
        ('{"from": ["cell", 1]}', "must be a JSON list"),
        ('[{"from": ["cell", 1]}]', "move 0: move {'from': ['cell', 1]} lacks \"to\""),
        ('["3a", "zz"]', "move 1: bad move 'zz'"),
        ('[{"from": ["pile", 1], "to": ["cell", 1]}]', "unknown kind 'pile'"),
        ("[3]", "move 0: a move is a JSON object"),
    ],
)
def test_bad_moves_files(
    tmp_path: Path, moves: str, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "m.json", moves)
    status, out, err = run(capsys, "replay", "pysol:3", "--moves", path)
    assert status == 2 and out == ""
    assert err.startswith("eightoff: error: ") and err.count("\n") == 1
    assert what in err


def test_bad_board_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = write(tmp_path, "b.txt", ENDGAME.replace("QH", "QH QH"))
    status, _, err = run(capsys, "deal", board)
    assert status == 2
    assert err == f"eightoff: error: {board}: line 4: QH appears twice (also on line 4)\n"


def test_real_process_bad_input_has_no_traceback(tmp_path: Path) -> None:
    moves = write(tmp_path, "m.json", "[{")
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    for argv in (["deal", "EO1-C8-AAAA0FA"], ["replay", "pysol:1", "--moves", moves], ["deal"]):
        proc = subprocess.run(
            [sys.executable, "-m", "eightoff", *argv],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env=env,
        )
        assert proc.returncode == 2, argv
        assert proc.stdout == ""
        assert proc.stderr.startswith("eightoff: error: ") and proc.stderr.count("\n") == 1
        assert "Traceback" not in proc.stderr


def test_real_process_replay(tmp_path: Path) -> None:
    board = write(tmp_path, "end.txt", ENDGAME)
    moves = json.dumps([move_to_json(Move.from_text("2^")), "c^"])
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff", "replay", board, "--moves", "-"],
        input=moves,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "won"


def test_play_prints_a_new_deal_and_how_to_play(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "play", "--cells", "4")
    code = GameCode.parse(out.split()[1])
    assert status == 0 and code.rules.cells == 4
    assert str(code.position()) in out
    assert "eightoff serve" in out and f"eightoff solve {code}" in out


def test_play_a_given_code_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    # Off a terminal (as here) play prints the deal; on one it starts the terminal game.
    status, out, _ = run(capsys, "play", "EO1-C8-AAAAAFA")
    assert status == 0
    assert str(GameCode.parse("EO1-C8-AAAAAFA").position()) in out
    assert "eightoff play EO1-C8-AAAAAFA" in out
    status, _, err = run(capsys, "play", "EO1-C8-AAAAAFA", "--cells", "4")
    assert status == 2 and "fixes its rules" in err
    status, _, err = run(capsys, "play", "EO1-XX")
    assert status == 2 and err.count("\n") == 1
