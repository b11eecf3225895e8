"""benchmarks/crosscheck.py, run on a survey before its verdicts are published: it passes
the solver's verdicts, and catches a lost deal Freecell Solver wins and a verdict that
changed against the shipped file."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from types import ModuleType

import pytest

import benchmark_scripts
from eightoff.rules import Rules
from eightoff.solver import Limit
from eightoff.survey import DealRange, run_survey

RULES = Rules(cells=4)  # one deal in four won: both verdicts in a dozen deals


def _load() -> ModuleType:
    return benchmark_scripts.load("crosscheck")


crosscheck = _load()


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("crosscheck") / "c4.db"
    limit = Limit(nodes=None, seconds=None)
    run_survey(db, DealRange.parse("1-12"), RULES, workers=1, limit=limit, progress=io.StringIO())
    return db


def _check(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = crosscheck.main(["--db", str(db), "--hardest", "2", "--every", "1", "--seconds", "5"])
    return code, capsys.readouterr().out


def _verdicts(db: Path) -> dict[int, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT deal, verdict FROM results").fetchall())


def test_the_solvers_verdicts_pass(survey: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lost = sum(v == "unsolvable" for v in _verdicts(survey).values())
    assert 0 < lost < 12
    code, out = _check(survey, capsys)
    assert code == 0, out
    assert "C4 eightoff: shipped verdicts: 12 the same, 0 changed" in out
    assert f"fc-solve on {lost} lost deals" in out and "WON 0" in out


def test_a_won_deal_called_lost_is_caught(
    survey: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tampered.db"
    db.write_bytes(survey.read_bytes())
    won = min(n for n, v in _verdicts(db).items() if v == "solved")
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE deals SET verdict = (SELECT id FROM verdicts WHERE name = 'unsolvable') "
            "WHERE deal = ?",
            (won,),
        )
    code, out = _check(db, capsys)
    assert code == 1
    assert f"1 changed ({won} won->lost)" in out
    assert f"WON 1 ({won})" in out
    assert "contradictions: 2" in out
