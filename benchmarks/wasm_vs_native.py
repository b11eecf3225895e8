"""The page's kernel in WebAssembly against the C core in-process: solutions and hints.

    .venv/bin/python benchmarks/wasm_vs_native.py [--standard 1-200] [--fore-cell 1-100]
        [--nodes 1000000] [--hint-nodes 200000] [--repeat 5]
        [--results benchmarks/results/wasm_vs_native.json]

``kernel.wasm`` (``make wasm``) runs in Node's V8 through ``kernel.js``, as the page's
worker runs it (``benchmarks/wasm_solve.mjs``); the C core runs in this process
(``eightoff.solver.solve``). Both solve the same jobs at the same node limit (so the
same line: checked), one at a time:

* solutions: PySolFC's deals of the standard game and of Fore Cell (4 cells the deal
  fills, alternating colours, Kings only to an empty column: C4-A), from the deal;
* hints: what a hint solves, the position a quarter, half and three quarters of the
  way along the deal's winning line (lost deals give none).

A job's time is the least of ``--repeat`` runs each side (on a shared machine a run is
often stopped for milliseconds); Node's own start and the module's compiling are left
out (a warm-up of a few jobs first). Prints, per deal range, the solutions and the hints
with the median and 95th percentile of their per-job ratio wasm / native (a job under
0.05 ms native counts as 0.05 ms: timer noise), the sum of times each side, and how
many lines are the same. Exit status 1 if a line differs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from eightoff.deal import pysol_deal
from eightoff.formats import position_to_json
from eightoff.position import Position
from eightoff.rules import STANDARD, Build, Rules
from eightoff.solver import Limit, solve
from results_page import write_result

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "eightoff" / "web" / "static"
FORE_CELL = STANDARD.with_options(cells=4, build=Build.ALTERNATE)
"""Fore Cell (Solvitaire's preset, docs/atlas.md): our C4-A."""
FLOOR_MS = 0.05
TABLES = 1 << 30  # both sides' table budget (the C core's default)


@dataclass
class Job:
    """One solve: where it comes from, the position, its node limit, and each side's answer."""

    kind: str
    deal: int
    position: Position
    nodes: int
    native_ms: float = 0.0
    native_line: tuple[str, ...] = ()
    wasm_ms: float = 0.0
    wasm_line: tuple[str, ...] = ()


def deal_range(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def jobs_for(rules: Rules, deals: range, nodes: int, hint_nodes: int) -> list[Job]:
    """Each deal's solution job, then its hint jobs along the C core's winning line."""
    jobs = []
    for number in deals:
        deal = pysol_deal(number, rules)
        jobs.append(Job("solutions", number, deal, nodes))
        line = solve(deal, limit=Limit(nodes=nodes, seconds=None)).moves
        for share in (1, 2, 3):
            position = deal
            for move in line[: len(line) * share // 4]:
                position = position.apply(move)
            if line:
                jobs.append(Job("hints", number, position, hint_nodes))
    return jobs


def run_native(jobs: list[Job], repeat: int) -> None:
    limit = Limit(nodes=None, seconds=None, memory=TABLES)
    for job in jobs:
        job.native_ms = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            found = solve(job.position, limit=replace(limit, nodes=job.nodes))
            job.native_ms = min(job.native_ms, (time.perf_counter() - start) * 1000)
        job.native_line = tuple(m.text() for m in found.moves)


def run_wasm(jobs: list[Job], node: str, repeat: int) -> None:
    payload = {
        "warmup": 5,
        "repeat": repeat,
        "jobs": [
            {"position": position_to_json(j.position), "maxNodes": j.nodes, "maxBytes": TABLES}
            for j in jobs
        ],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobs.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        done = subprocess.run(
            [node, str(ROOT / "benchmarks" / "wasm_solve.mjs"), str(STATIC / "kernel.js"),
             str(STATIC / "kernel.wasm"), str(path)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    for job, answer in zip(jobs, json.loads(done.stdout), strict=True):
        job.wasm_ms = float(answer["ms"])
        job.wasm_line = tuple(answer["line"])


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def ratios(jobs: list[Job]) -> str:
    """The per-job ratios wasm / native: "median / p95"."""
    found = [j.wasm_ms / max(j.native_ms, FLOOR_MS) for j in jobs]
    return f"{statistics.median(found):.2f}× / {p95(found):.2f}×"


def row(name: str, jobs: list[Job]) -> list[str]:
    """A table row: solutions and hints, their ratios, Σ each side, the lines alike."""
    solutions = [j for j in jobs if j.kind == "solutions"]
    hints = [j for j in jobs if j.kind == "hints"]
    native = sum(j.native_ms for j in jobs)
    wasm = sum(j.wasm_ms for j in jobs)
    same = sum(j.native_line == j.wasm_line for j in jobs)
    return [
        name,
        f"{len(solutions)}",
        ratios(solutions),
        f"{len(hints)}",
        ratios(hints),
        f"{native:,.0f} / {wasm:,.0f} ms",
        f"{wasm / native:.2f}×",
        f"{same} of {len(jobs)}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--standard", default="1-200", help="PySolFC deals of the standard game")
    ap.add_argument("--fore-cell", default="1-100", help="PySolFC deals of Fore Cell (C4-A)")
    ap.add_argument("--nodes", type=int, default=1_000_000, help="a solution's node limit")
    ap.add_argument("--hint-nodes", type=int, default=200_000, help="a hint's node limit")
    ap.add_argument("--repeat", type=int, default=5, help="runs of each job, the least kept")
    ap.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = ap.parse_args(argv)
    node = shutil.which("node")
    if node is None or not (STATIC / "kernel.wasm").exists():
        print("needs node on PATH and kernel.wasm (make wasm)", file=sys.stderr)
        return 2
    ranges: list[tuple[str, list[Job]]] = []
    for name, rules, deals in (
        (f"standard {args.standard}", STANDARD, args.standard),
        (f"Fore Cell {args.fore_cell}", FORE_CELL, args.fore_cell),
    ):
        ranges.append((name, jobs_for(rules, deal_range(deals), args.nodes, args.hint_nodes)))
    every = [job for _, jobs in ranges for job in jobs]
    run_native(every, args.repeat)
    run_wasm(every, node, args.repeat)
    differ = [j for j in every if j.native_line != j.wasm_line]
    rows = [row(name, jobs) for name, jobs in ranges]
    columns = [
        "PySolFC deals",
        "solutions",
        "median / p95 ratio",
        "hints",
        "median / p95 ratio",
        "Σ native / wasm",
        "Σ ratio",
        "same lines",
    ]
    widths = [max(len(r[i]) for r in [columns, *rows]) for i in range(len(columns))]
    for r in [columns, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)))
    for job in differ[:5]:
        native, wasm = len(job.native_line), len(job.wasm_line)
        print(f"  {job.kind} deal {job.deal}: native {native} moves, wasm {wasm}")
    if args.results:
        write_result(
            args.results,
            f"kernel.wasm in Node's V8 against the C core in-process: time ratios wasm / native"
            f" a job (the least of {args.repeat} runs each), solutions at {args.nodes:,}"
            f" positions, hints at {args.hint_nodes:,} (target: median ≤ 2×)",
            columns,
            rows,
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
