"""Survey databases for the tests: rows, databases of either schema, a read-only mount."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterable
from pathlib import Path

from eightoff.rules import PRESETS, STANDARD, Rules
from eightoff.solver import Limit
from eightoff.store import SCHEMA_V1, Row, Store, rules_key

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
"""The environment for a subprocess that must import this tree's eightoff."""


def row(deal: int, verdict: str = "solved", rules: Rules = STANDARD, **kw: object) -> Row:
    """A survey row for ``deal``: a short solved line unless ``verdict`` says otherwise."""
    values: dict[str, object] = {
        "rules": rules,
        "source": "eightoff",
        "deal": deal,
        "verdict": verdict,
        "length": 80 if verdict == "solved" else None,
        "optimal": False,
        "nodes": 1000,
        "seconds": 0.5,
        "moves": "3a 35" if verdict == "solved" else "",
        "solver": "test",
        "rating": "easy" if verdict == "solved" else None,
        "time_limit": 10.0,
    }
    values.update(kw)
    return Row(**values)  # type: ignore[arg-type]


def v1_db(path: Path, rows: Iterable[Row]) -> Path:
    """A survey database of ``rows`` as eightoff wrote it with schema version 1."""
    con = sqlite3.connect(path)
    with con:
        con.executescript(SCHEMA_V1)
        con.executemany(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (rules_key(r.rules), r.source, r.deal, r.verdict, r.length, int(r.optimal))
                + (r.nodes, r.seconds, r.moves, r.solver, r.rating, r.time_limit, r.node_limit)
                for r in rows
            ],
        )
    con.close()
    return path


def survey_db(path: Path, deals: int = 300, *, version: int = 2) -> Path:
    """A survey database of ``deals`` rows (several pages), closed cleanly."""
    rows = [row(n, "solved" if n % 7 else "unsolvable") for n in range(deals)]
    if version == 1:
        return v1_db(path, rows)
    with Store(path) as store:
        store.add(rows)
    return path


def real_rows() -> list[Row]:
    """Rows the survey makes, under several rule books: real lines with runs and take-backs."""
    from eightoff.workers import Task, solve_task

    rows: list[Row] = []
    for name in ("standard", "app", "bakers", "alternate"):
        rows += solve_task(
            Task(PRESETS[name], "eightoff", tuple(range(1, 9)), Limit(nodes=None, seconds=10.0))
        )
    rows += solve_task(
        Task(STANDARD, "pysol", (1, 2), Limit(nodes=10**6, seconds=None), optimal=True)
    )
    rows.append(row(50, "unknown", moves="", nodes=7, seconds=10.0))
    assert any("x" in r.moves for r in rows) and any("^" in r.moves for r in rows)
    return rows


def can_mount_read_only() -> bool:
    """Whether this machine lets a test mount a directory read-only (user namespaces)."""
    try:
        probe = subprocess.run(
            ["unshare", "-rm", "true"], capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0
