"""The eightoff command: deal, replay, play; rule options; bad input → one line, exit 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


# -- holes an attack run found: each printed a traceback or took bad input ------------------


def one_line_error(status: int, out: str, err: str) -> str:
    """Assert the bad-input contract (exit 2, nothing on stdout, one line on stderr)."""
    assert status == 2, (status, out, err)
    assert out == ""
    assert err.startswith("eightoff: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def run_process(*argv: str, timeout: float = 60) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "eightoff", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )
    return proc.returncode, proc.stdout, proc.stderr


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# Bad inputs, run as real processes: each printed a traceback or exited 0 before.
@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["solve", "pysol:1", "--nodes", "9223372036854775808"], "--nodes: must be 1 to"),
        (["survey", "1-2", "--db", "{tmp}/s.db", "--node-limit", "9" * 20], "--node-limit"),
        (["replay", "pysol:1", "--moves", "{tmp}/deep.json"], "nest 5000 levels deep"),
        (["replay", "pysol:1", "--moves", "/dev/zero"], "is not a regular file"),
        (["deal", "pysol:1", "--rules", ""], "unknown preset ''"),
        (["deal", "pysol:1", "--take-back", "--no-take-back"], "--no-take-back given twice"),
        (["survey", "١-٣", "--db", "{tmp}/s.db"], "is not a number or a span"),
        (["deal", "EO1-C８-AAAAAFA"], "'８' is not an ASCII letter or digit"),
        (["replay", "pysol:1", "--moves", "{tmp}/squared.json"], "the count after 'x'"),
    ],
)
def test_real_process_holes_are_one_line(tmp_path: Path, argv: list[str], what: str) -> None:
    write(tmp_path, "deep.json", nested(5000))
    write(tmp_path, "squared.json", json.dumps(["35x²"]))
    err = one_line_error(*run_process(*(a.replace("{tmp}", str(tmp_path)) for a in argv)))
    assert what in err
    assert not (tmp_path / "s.db").exists()  # refused before a database was made


def test_dask_bogus_fails_fast_and_clean(tmp_path: Path) -> None:
    for address, what in (
        ("bogus", "--dask needs a scheduler address like tcp://HOST:8786, not 'bogus'"),
        ("tcp://127.0.0.1:1", "cannot reach the Dask scheduler at tcp://127.0.0.1:1: Connection"),
    ):
        started = time.monotonic()
        db = str(tmp_path / "s.db")
        err = one_line_error(*run_process("survey", "1-2", "--db", db, "--dask", address))
        assert time.monotonic() - started < 15  # it hung 20 s in Client.__del__ before
        assert what in err


@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["solve", "pysol:1", "--nodes", "1e3"], "--nodes: expected a whole number, not '1e3'"),
        (["solve", "pysol:1", "--nodes", "٣"], "expected a whole number"),
        (["solve", "pysol:1", "--time-limit", "inf"], "expected a number of seconds"),
        (["solve", "pysol:1", "--time-limit", "nan"], "expected a number of seconds"),
        (["solve", "pysol:1", "--time-limit", "1e999"], "must be 0 (no limit) or a positive"),
        (["solve", "pysol:1", "--time-limit", "-1"], "must be 0 (no limit) or a positive"),
        (["survey", "1-2", "--db", "x.db", "--workers", "99999999999"], "must be 1 to 1024"),
        (["survey", "1-2", "--db", "x.db", "--time-limit", "-5"], "--time-limit: must be"),
        (["survey", "1-2", "--db", "x.db", "--memory", "0"], "--memory: must be 1 to 1048576"),
        (["solve", "pysol:1", "--memory", "2GiB"], "--memory: expected a whole number"),
        (["solve", "pysol:1", "--layers-dir", ""], "--layers-dir: expected a directory"),
        (["solve", "pysol:1", "--layers-dir", "/dev/null"], "'/dev/null' is there and is not"),
        (["deal", "pysol:١"], "pysol:N with N a number"),
        (["deal", "EO1-C8-ıAAAAFA"], "'ı' is not an ASCII letter"),
        (["deal", "pysol:1", "--cells", "4", "--cells", "2"], "--cells given twice"),
        (["deal", "pysol:1", "--cell", "4"], "unrecognized arguments: --cell"),  # no abbrevs
        (["play", "--rules", ""], "unknown preset ''"),
        (["survey", "report", "--db", "x.db", "--workers", "2"], "unrecognized arguments"),
        (["survey", "report", "--db", "x.db", "--db", "y.db"], "--db given twice"),
        (["serve", "--workers", "99999999999999999999"], "--workers: must be 1 to 64"),
        (["serve", "--port", "٣"], "--port: expected a whole number, not '٣'"),
        (["serve", "--port", "70000"], "--port: must be 1 to 65535"),
        (["serve", "--max-connections", "0"], "--max-connections: must be 1 to 100000"),
        (["serve", "--body-timeout", "nan"], "--body-timeout: expected a number of seconds"),
        (["solve", "pysol:1", "\udcff"], "unrecognized arguments: \\udcff"),  # undecodable byte
    ],
)
def test_bad_numbers_text_and_repeats(
    argv: list[str], what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert what in one_line_error(*run(capsys, *argv))


@pytest.mark.parametrize(
    ("moves", "what"),
    [
        ('[{"from": ' + nested(1000) + ', "to": ["cell", 1]}]', "nest 1002 levels deep"),
        ('["3a", ["1^"]]', "move 1: a move is a JSON object"),
        ('["35x²"]', "bad move '35x²': the count after 'x' must be a number"),
        ('["35x٢"]', "the count after 'x' must be a number"),
        ('["[[[[", "3a"]', "bad move '[[[['"),  # brackets inside strings do not count
    ],
)
def test_moves_files_are_bounded(
    tmp_path: Path, moves: str, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "m.json", moves)
    assert what in one_line_error(*run(capsys, "replay", "pysol:3", "--moves", path))


def test_moves_files_too_large_or_not_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.json"
    big.write_text("[" + '"3a", ' * 2_000_000 + '"3a"]')
    err = one_line_error(*run(capsys, "replay", "pysol:3", "--moves", str(big)))
    assert "is larger than 8 MiB" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO(big.read_text()))
    err = one_line_error(*run(capsys, "replay", "pysol:3", "--moves", "-"))
    assert "moves in standard input are longer than 8 MiB" in err
    err = one_line_error(*run(capsys, "replay", "pysol:3", "--moves", str(tmp_path)))
    assert "is not a regular file" in err
    (tmp_path / "latin1.json").write_bytes(b'["3a", "\xe9"]')
    err = one_line_error(
        *run(capsys, "replay", "pysol:3", "--moves", str(tmp_path / "latin1.json"))
    )
    assert "is not UTF-8 text" in err


def test_the_memory_options_default_is_the_solvers() -> None:
    from eightoff.cli.options import DEFAULT_MEMORY_MIB, mebibytes
    from eightoff.solver.result import DEFAULT_MEMORY

    assert mebibytes(DEFAULT_MEMORY_MIB) == DEFAULT_MEMORY and mebibytes(None) is None


def test_limits_at_their_bounds_still_run(capsys: pytest.CaptureFixture[str]) -> None:
    # The largest node limit the C core takes, and a huge but finite time limit, just work.
    status, out, _ = run(
        capsys, "solve", "pysol:1", "--json", "--nodes", str(2**63 - 1), "--time-limit", "1e9"
    )
    assert status == 0 and json.loads(out)["verdict"] == "solved"
    # One MiB of tables is room for a few thousand positions: deal 1 needs fewer.
    status, out, _ = run(capsys, "solve", "pysol:1", "--json", "--memory", "1")
    assert status == 0 and json.loads(out)["verdict"] == "solved"
    status, out, _ = run(capsys, "deal", "pysol:1", "--take-back", "--format", "json")
    assert status == 0 and json.loads(out)["rules"]["take_back"] is True


def test_solve_goes_on_from_the_layers_it_left(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Fore Cell's PySolFC 136 in 1 MiB is lost by layers in 196,290 positions
    # (tests/test_native_layered.py): 80,000 a run, three runs.
    fore_cell = ["--cells", "4", "--build", "alternate", "--memory", "1", "--nodes", "80000"]
    options = ["pysol:136", "--json", *fore_cell, "--layers-dir", str(tmp_path)]
    verdicts = []
    for _ in range(3):
        status, out, _ = run(capsys, "solve", *options)
        assert status == 0
        verdicts.append((json.loads(out)["verdict"], json.loads(out)["nodes"]))
    assert verdicts[0] == ("unknown", 80_000) and verdicts[1][0] == "unknown"
    assert verdicts[2] == ("unsolvable", 196_290) and not list(tmp_path.iterdir())


# -- fuzz: every command over malformed input: exit 0/1/2, never a traceback -------------------

ODD_TEXT = ["", " ", "-", "--", "x", "١", "²", "٣-١", "\udcff", "é", "0", "-1", "9" * 25]
ODD_NUMBERS = ["0", "-1", "-0", "1e3", "1e999", "inf", "nan", "0x10", "٣", "1_000", "9" * 25]
ODD_SOURCES = [
    "EO1-C８-AAAAAFA",
    "EO1-C8-ıAAAAFA",
    "EO1-8-AAAAAFA",
    "EO1-C8-AAAAAFA-ZZ",
    "pysol:",
    "pysol:٣",
    "pysol:" + "9" * 25,
    "/dev/zero",
    "{tmp}",
    "{tmp}/missing.txt",
    "{tmp}/junk.txt",
    "pysol:1",
    "{tmp}/end.txt",
]
ODD_FILES = ["/dev/zero", "{tmp}", "{tmp}/missing", "{tmp}/junk.txt", "{tmp}/deep.json"]
ODD_FILES += ["{tmp}/moves.json", "{tmp}/end.txt", "{tmp}/empty.db", "{tmp}/damaged.db"]
RULE_OPTIONS = {
    "--rules": ["", "nope", "easy", "BAKERS", "é"],
    "--cells": ["3", "8", *ODD_NUMBERS],
    "--empty-column": ["any", "kings", "none", ""],
    "--build": ["suit", "rank", ""],
    "--layout": ["bakers", "x"],
    "--group-moves": ["single", "freecell", "all"],
    "--take-back": [],
    "--no-take-back": [],
}
# Each command: its positional values, and its options with the values to try.
COMMANDS: dict[tuple[str, ...], tuple[list[str], dict[str, list[str]]]] = {
    ("deal",): (ODD_SOURCES, {"--format": ["text", "fcs", "json", "xml", ""], **RULE_OPTIONS}),
    ("replay",): (ODD_SOURCES, {"--moves": ["-", *ODD_FILES], **RULE_OPTIONS}),
    ("play",): (["EO1-C8-AAAAAFA", *ODD_SOURCES[:8]], {"--text": [], **RULE_OPTIONS}),
    ("solve",): (
        ODD_SOURCES,
        {
            "--json": [],
            "--time-limit": ["5", *ODD_NUMBERS],
            "--nodes": ["50", *ODD_NUMBERS],
            "--memory": ["1", *ODD_NUMBERS],
            "--layers-dir": ODD_FILES,
        },
    ),
    # Never a well-formed range: a valid one would start a process pool.
    ("survey",): (
        ["5-1", "١-٣", "pysol:x", "1-" + "9" * 25, "pysol:0-3", ",", "1--2", "x:1"]
        + [t for t in ODD_TEXT if t != "0"],  # deal 0 is a range: it would be surveyed
        {
            "--db": ODD_FILES,
            "--workers": ODD_NUMBERS,
            "--dask": ["bogus", "tcp://", "tcp://x:99999"],
            "--time-limit": ODD_NUMBERS,
            "--node-limit": ODD_NUMBERS,
            "--memory": ODD_NUMBERS,
            "--layers-dir": ODD_FILES,
            "--redo-unknown": [],
            **RULE_OPTIONS,
        },
    ),
    ("survey", "report"): (
        [],
        {
            "--db": ["{tmp}/good.db", *ODD_FILES],
            "--plot": ODD_FILES,
            "--markdown": [],
            # its own file to write, and files it cannot read as an atlas
            "--atlas": [
                "{tmp}/atlas.json",
                "{tmp}",
                "{tmp}/junk.txt",
                "{tmp}/no/a.json",
                "/dev/zero",
            ],
            **RULE_OPTIONS,
        },
    ),
    # Files of its own to write: the other commands read the fuzz directory's files.
    ("survey", "export"): (
        ["{tmp}/out.csv", "{tmp}/out.parquet", "{tmp}/out", "{tmp}", "{tmp}/no/o.csv", "-", ""],
        {
            "--db": ["{tmp}/good.db", *ODD_FILES],
            "--format": ["csv", "parquet", "xlsx", ""],
            **RULE_OPTIONS,
        },
    ),
    # uvicorn.run is replaced by a no-op below: a well-formed serve line just returns.
    ("serve",): (
        [],
        {
            "--host": ["999.1.1.1", "", "::", "localhost"],
            "--port": ["0", "65536", "-1", "x", "٣", *ODD_NUMBERS],
            "--workers": ODD_NUMBERS,
            "--pool": ODD_FILES,
        },
    ),
}


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from eightoff.store import Row, Store  # the database files the survey commands meet

    tmp = tmp_path_factory.mktemp("fuzz")
    (tmp / "end.txt").write_text(ENDGAME)
    (tmp / "junk.txt").write_bytes(b"\xff\xfe junk \x00" * 50)
    (tmp / "deep.json").write_text(nested(3000))
    (tmp / "moves.json").write_text('["2^", "c^", "zz", {"from": 1}]')
    (tmp / "empty.db").write_bytes(b"")
    with Store(tmp / "good.db") as store:
        store.add(
            Row(preset("standard"), "pysol", n, "solved", 80, False, 30, 0.01, "", "t", "easy")
            for n in range(200)
        )
    data = bytearray((tmp / "good.db").read_bytes())
    data[8192:] = b"\x5a" * (len(data) - 8192)
    (tmp / "damaged.db").write_bytes(bytes(data))
    return tmp


@st.composite
def command_lines(draw: st.DrawFn, tmp: str) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    positionals, options = COMMANDS[command]
    argv = list(command)
    if positionals:
        argv.append(draw(st.sampled_from(positionals)))
    names = draw(st.lists(st.sampled_from(sorted(options)), max_size=4))
    for name in names:
        argv.append(name)
        if options[name]:
            argv.append(draw(st.sampled_from(options[name] + ODD_TEXT)))
    if command == ("serve",):
        argv.append("--no-browser")
    if draw(st.booleans()):  # shuffle: options before positionals, and so on
        argv = argv[: len(command)] + draw(st.permutations(argv[len(command) :]))
    return [a.replace("{tmp}", tmp) for a in argv]


@given(data=st.data())
@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_fuzz_every_command_over_malformed_input(
    data: st.DataObject,
    fuzz_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import uvicorn

    argv = data.draw(command_lines(str(fuzz_dir)))
    monkeypatch.chdir(fuzz_dir)  # a file named by odd text ("²") lands there, not in the repo
    monkeypatch.setattr(sys, "stdin", io.StringIO('[[["3a"]]]'))
    # Check serve's input, never serve: no server, no worker processes.
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setenv("EIGHTOFF_POOL", "")  # serve --pool sets it; restored after the test
    status, out, err = run(capsys, *argv)  # any exception but SystemExit fails the test
    assert status in (0, 1, 2), (argv, status)
    assert "Traceback" not in err, argv
    if status == 2:
        assert out == "" and err.startswith("eightoff: error: ") and err.count("\n") == 1, argv
    else:
        assert err == "", (argv, err)


def test_a_boards_cell_count_wins_over_a_presets(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    two = deal(7, preset("app").with_options(cells=2))
    path = write(tmp_path, "two.txt", position_to_fcs(two))
    status, out, _ = run(capsys, "deal", path, "--rules", "app", "--format", "json")
    assert status == 0 and position_from_json(json.loads(out)) == two
    assert len(json.loads(out)["cells"]) == 2
