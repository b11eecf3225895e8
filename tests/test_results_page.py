"""benchmarks/README.md is the results page: its tables are drawn from benchmarks/results/."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def results_page() -> ModuleType:
    spec = importlib.util.spec_from_file_location("results_page", BENCHMARKS / "results_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_in_sync_with_the_result_files() -> None:
    page = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    assert results_page().update(page, BENCHMARKS / "results") == page
    assert len(page.splitlines()) <= 300  # a short page: one table per result file


def test_a_run_writes_a_result_the_page_draws(tmp_path: Path) -> None:
    rp = results_page()
    out = tmp_path / "hints.json"
    argv = ["benchmarks/solver_hints.py", "--mistakes", "0.25"]
    rp.write_result(out, "Hints", ["mistakes", "p95 ms"], [["0.25", 0.8]], argv=argv)
    rp.write_result(out, "Hints", ["mistakes", "p95 ms"], [["0.7", 24.4]], argv=[*argv[:2], "0.7"])
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rows"] == [["0.25", "0.8"], ["0.7", "24.4"]]  # one table, two runs
    assert data["commands"] == [
        ".venv/bin/python benchmarks/solver_hints.py --mistakes 0.25",
        ".venv/bin/python benchmarks/solver_hints.py --mistakes 0.7",
    ]
    page = "# B\n\n<!-- results: hints -->\nstale\n<!-- /results -->\n"
    drawn = rp.update(page, tmp_path)
    assert "stale" not in drawn and "| 0.7 | 24.4 |" in drawn
    assert "    .venv/bin/python benchmarks/solver_hints.py --mistakes 0.7" in drawn


def test_a_result_file_without_its_block_is_an_error(tmp_path: Path) -> None:
    rp = results_page()
    rp.write_result(tmp_path / "orphan.json", "T", ["a"], [["1"]], argv=["x.py"])
    with pytest.raises(ValueError, match="orphan"):
        rp.update("# no blocks\n", tmp_path)
    with pytest.raises(ValueError, match="one cell per column"):
        rp.write_result(tmp_path / "bad.json", "T", ["a", "b"], [["1"]], argv=["x.py"])
