"""``eightoff solve``: text and JSON output, limits, exit statuses."""

from __future__ import annotations

import json

import pytest

from eightoff.cli import main
from eightoff.formats import move_from_json
from eightoff.sources import load_source


def test_solve_json_is_one_object_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pysol:1", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert set(data) == {"verdict", "moves", "length", "optimal", "nodes", "seconds"}
    assert data["verdict"] == "solved"
    pos, _ = load_source("pysol:1")
    for obj in data["moves"]:
        pos = pos.apply(move_from_json(obj, pos))
    assert pos.is_won()


def test_solve_unsolvable_and_unknown_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pysol:644", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "unsolvable"
    assert main(["solve", "pysol:465", "--json", "--nodes", "5"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "unknown" and data["moves"] == []


def test_solve_text_and_optimal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pysol:2", "--rules", "easy"]) == 0
    assert capsys.readouterr().out.startswith("solved:")
    assert main(["solve", "pysol:2", "--optimal", "--json", "--time-limit", "30"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "solved" and data["optimal"] is True
    pos, _ = load_source("pysol:2")
    for obj in data["moves"]:
        pos = pos.apply(move_from_json(obj, pos))
    assert pos.is_won()


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "pysol:x"],
        ["solve", "pysol:1", "--time-limit", "-1"],
        ["solve", "pysol:1", "--nodes", "0"],
        ["solve", "/no/such/board.txt"],
        ["solve", "pysol:1", "--cells", "3"],
    ],
)
def test_bad_input_exits_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("eightoff: error:") and err.count("\n") == 1
