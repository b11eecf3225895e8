"""benchmarks/solver_proof.py, the proof side's measurements: each deal's verdict and
positions, a summary line naming the limits, and the tables' budget as asked."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

import benchmark_scripts
from support import needs_native

pytestmark = needs_native


def _load() -> ModuleType:
    return benchmark_scripts.load("solver_proof")


def test_each_deal_and_the_totals_under_the_limits_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # PySolFC 2-cell alternating 143 and 36: lost, 5,761 and 4,910 positions for the
    # exact search, which fit in 1 MiB of tables.
    assert _load().main(["--variant", "C2-A", "--deals", "143,36", "--memory", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("C2-A pysol 143: lost, 5,761 positions")
    assert lines[1].startswith("C2-A pysol 36: lost, 4,910 positions")
    assert lines[2].startswith(
        "C2-A pysol 143,36 (exact, 3,000,000 positions at most, 1 MiB): 2 lost; Σ 10,671 positions"
    )


def test_the_proof_by_layers_counts_the_same_positions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["--variant", "C2-A", "--deals", "143,36", "--memory", "1", "--search", "layered"]
    assert _load().main([*args, "--spill", str(tmp_path), "--layers", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("C2-A pysol 143: lost, 5,761 positions")
    assert "layers, the largest" in lines[0] and "bytes spilled" in lines[0]
    named = lines[0].split("; the largest: ")[1].split(", ")
    assert len(named) == 2
    pattern = r"♠\d+ ♥\d+ ♦\d+ ♣\d+ frozen \d+ [\d,]+"
    assert all(re.fullmatch(pattern, name) for name in named), named
    assert lines[1].startswith("C2-A pysol 36: lost, 4,910 positions")
    assert "(layered, 3,000,000 positions at most, 1 MiB): 2 lost; Σ 10,671 positions" in lines[2]
    assert list(tmp_path.iterdir()) == []  # its temporary directory went with it


def test_solve_settles_by_layers_what_its_tables_cannot_hold_and_the_seconds_are_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # solve() starts with best-first and its helpers; on deal 4 best-first's open list
    # stays large (no turns for the proof beside it), and their tables fill 1 MiB
    # before the proof is reached; the proof by layers then settles it in the same MiB.
    args = ["--variant", "C2-A", "--deals", "4", "--nodes", "0", "--seconds", "30"]
    assert _load().main([*args, "--memory", "1", "--search", "solve", "--quiet"]) == 0
    assert "(solve, 30 s at most, 1 MiB): 1 lost;" in capsys.readouterr().out
    # The node limit stops the layers too: unknown, never a guess.
    assert (
        _load().main(
            [
                "--variant",
                "C2-A",
                "--deals",
                "4",
                "--nodes",
                "50000",
                "--memory",
                "1",
                "--search",
                "solve",
                "--quiet",
            ]
        )
        == 0
    )
    assert "(solve, 50,000 positions at most, 1 MiB): 1 unknown;" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("bad", "named"),
    [(["--memory", "0"], "--memory"), (["--nodes", "-1"], "--nodes"), (["--variant", "C9"], "C9")],
)
def test_bad_arguments_are_named(
    bad: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        _load().main(bad)
    assert stop.value.code == 2
    assert f"error: {named}" in capsys.readouterr().err.replace("unknown variant '", "")
