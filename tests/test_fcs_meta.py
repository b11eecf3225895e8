"""benchmarks/fcs_meta.py: our meta-move scan against Freecell Solver's, count for count."""

from __future__ import annotations

import pytest

import benchmark_scripts
from support import needs_fc_solve, needs_native

pytestmark = [needs_fc_solve, needs_native]
fcs_meta = benchmark_scripts.load("fcs_meta")


def test_every_row_matches_on_its_first_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert fcs_meta.main(["--deals", "1-3"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 24 and all(": 3 / 3 match" in row for row in rows)


def test_looking_glass_first_tests_match_where_any_card_fills_a_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--variants", "C4-EA,C2-EAB", "--deals", "1-3", "--tests", "01j234", "--prune"]
    assert fcs_meta.main(args) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("C4-EA: 3 / 3 match") and rows[1].startswith("C2-EAB: 3 / 3 match")


def test_a_whole_preset_matches_where_any_card_fills_a_column(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--preset", "looking-glass", "--variants", "C2-EAB", "--deals", "1-3"]
    assert fcs_meta.main(args) == 0
    assert capsys.readouterr().out.startswith("C2-EAB: 3 / 3 match")


def test_a_count_that_differs_is_a_mismatch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = fcs_meta.fcs_scan

    def one_more(
        position: object, states: int, tests: str, prune: bool, seed: int, preset: str | None
    ) -> tuple[int, bool]:
        checked, won = real(position, states, tests, prune, seed, preset)
        return checked + 1, won

    monkeypatch.setattr(fcs_meta, "fcs_scan", one_more)
    assert fcs_meta.main(["--variants", "C4-EB", "--deals", "48"]) == 1
    out = capsys.readouterr().out
    assert "C4-EB 48: ours 246 (won), fc-solve 247 (won)" in out
