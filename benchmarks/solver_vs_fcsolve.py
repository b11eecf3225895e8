"""eightoff's solver vs Freecell Solver on PySolFC Eight Off deals, side by side in one run.

    .venv/bin/python benchmarks/solver_vs_fcsolve.py [--deals 1-2000] [--held-out 30001-31000]
        [--time-limit 10] [--workers 2] [--block 200] [--json FILE]
        [--only eightoff,toons-lib,default-lib,toons-proc,default-proc]

Every solver gets the same deals (standard rules: 8 cells, Kings only, in suit),
the same per-deal time limit and the same number of worker processes; the solvers
take turns on blocks of ``--block`` deals, so a change in the machine's load falls
on all of them alike:

* ``eightoff``      — :func:`eightoff.solver.solve` in-process;
* ``toons-proc``    — ``fc-solve -g eight_off -l toons-for-twenty-somethings`` as a
  process per deal (Debian ``freecell-solver-bin``; the time includes process start);
* ``toons-lib``     — the same preset in-process, through the PyPI ``freecell-solver``
  cffi binding over ``libfreecell-solver`` (a time limit is enforced by suspending
  the search every 2,000 iterations);
* ``default-proc`` / ``default-lib`` — plain ``-g eight_off``, both ways.

The in-process comparisons (``*-lib``) come first: they are the real race, where
neither side pays for a process start. The solver's heuristic weights were tuned on
deals 1-1000, inside the default range; the same comparison is then made on
``--held-out`` deals no tuning has seen, and both tables are printed.

Solution lengths are in single-card moves: fc-solve's move of ``n`` cards between
columns counts as the ``2n - 1`` single-card moves it stands for. Seconds are the
wall time of each deal's solve call (process: the whole ``fc-solve`` run), summed
over deals (Σ), alongside the run's wall time and deals per second.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from eightoff.deal import pysol_deal
from eightoff.formats import position_to_fcs
from eightoff.solver import Limit, solve
from results_page import write_result

TOONS = ["-g", "eight_off", "-l", "toons-for-twenty-somethings"]
DEFAULT = ["-g", "eight_off"]
SOLVERS = ("eightoff", "toons-lib", "default-lib", "toons-proc", "default-proc")

Row = tuple[int, str, float, int]  # deal, verdict, seconds, length (single-card moves)


def board(number: int) -> str:
    """PySolFC's Eight Off deal ``number`` as fc-solve board text."""
    return position_to_fcs(pysol_deal(number))


# -- eightoff ------------------------------------------------------------------------------


def run_eightoff(number: int, seconds: float) -> Row:
    pos = pysol_deal(number)
    start = time.perf_counter()
    result = solve(pos, limit=Limit(nodes=None, seconds=seconds))
    took = time.perf_counter() - start
    return number, result.verdict.value, took, result.length


# -- fc-solve as a process -------------------------------------------------------------------

_MOVE_N = re.compile(r"^Move (\d+) cards from stack")


def count_text_moves(text: str) -> int:
    n = 0
    for line in text.splitlines():
        if not line.startswith("Move "):
            continue
        m = _MOVE_N.match(line)
        if m:
            n += 2 * int(m.group(1)) - 1
        elif "sequence" in line:  # a whole run to the foundation: one move per card
            n += 13
        else:
            n += 1
    return n


def _run_process(args: list[str], number: int, seconds: float) -> Row:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(board(number))
        path = f.name
    try:
        start = time.perf_counter()
        try:
            out = subprocess.run(
                ["fc-solve", *args, "-sel", "-p", "-t", "-sam", path],
                capture_output=True,
                text=True,
                timeout=seconds,
                check=False,
            ).stdout
        except subprocess.TimeoutExpired:
            return number, "unknown", time.perf_counter() - start, 0
        took = time.perf_counter() - start
    finally:
        Path(path).unlink()
    if "This game is solveable." in out:
        return number, "solved", took, count_text_moves(out)
    if "I could not solve this game." in out:
        return number, "unsolvable", took, 0
    return number, "unknown", took, 0


def run_toons_proc(number: int, seconds: float) -> Row:
    return _run_process(TOONS, number, seconds)


def run_default_proc(number: int, seconds: float) -> Row:
    return _run_process(DEFAULT, number, seconds)


# -- fc-solve in-process (cffi binding) ------------------------------------------------------

_LIB: dict[str, Any] = {}
_SOLVED, _NOT_SOLVEABLE, _SUSPENDED = 0, 1, 5
_STEP = 2_000  # iterations between time checks


def lib_solver(args: list[str]) -> Any:
    key = " ".join(args)
    if key not in _LIB:
        import freecell_solver

        fcs = freecell_solver.FreecellSolver()
        fcs.input_cmd_line(args)
        _LIB[key] = fcs
    return _LIB[key]


def forget_lib_solvers() -> None:
    """Drop the in-process solvers :func:`lib_solver` made (freed once unreferenced)."""
    _LIB.clear()
    gc.collect()


def count_lib_moves(fcs: Any) -> int:
    n = 0
    while True:
        move = fcs.get_next_move()
        if move is None:
            return n
        kind, _, _, count = bytes(fcs.ffi.buffer(move, 4))
        if kind == 0:  # stack to stack: count cards
            n += 2 * max(count, 1) - 1
        elif kind <= 5:  # to/from freecells, to the foundations: one card
            n += 1
        elif kind == 11:  # a whole sequence to the foundation
            n += max(count, 1)


def run_lib(
    fcs: Any,
    text: str,
    number: int,
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
    max_states: int | None = None,
) -> Row:
    """Solve the board ``text`` with the in-process solver ``fcs`` within ``seconds`` of
    ``clock`` (suspended every ``_STEP`` iterations to look at the time) and, if given,
    ``max_states`` stored states, then recycle it."""
    start = clock()
    limit = _STEP
    fcs.limit_iterations(limit)
    ret = fcs.solve_board(text)
    while ret == _SUSPENDED and clock() - start < seconds:
        if max_states is not None and fcs.get_num_states_in_collection() >= max_states:
            break
        limit += _STEP
        fcs.limit_iterations(limit)
        ret = fcs.resume_solution()
    took = clock() - start
    if ret == _SOLVED:
        row: Row = (number, "solved", took, count_lib_moves(fcs))
    elif ret == _NOT_SOLVEABLE:
        row = (number, "unsolvable", took, 0)
    else:
        row = (number, "unknown", took, 0)
    fcs.recycle()
    return row


def _run_lib(args: list[str], number: int, seconds: float) -> Row:
    return run_lib(lib_solver(args), board(number), number, seconds)


def run_toons_lib(number: int, seconds: float) -> Row:
    return _run_lib(TOONS, number, seconds)


def run_default_lib(number: int, seconds: float) -> Row:
    return _run_lib(DEFAULT, number, seconds)


RUNNERS: dict[str, Callable[[int, float], Row]] = {
    "eightoff": run_eightoff,
    "toons-proc": run_toons_proc,
    "toons-lib": run_toons_lib,
    "default-proc": run_default_proc,
    "default-lib": run_default_lib,
}


# -- running and reporting ---------------------------------------------------------------------


def _warm(name: str) -> None:
    # Import and build what a worker needs before timing starts (not solver work).
    pysol_deal(1)
    if name.endswith("-lib"):
        lib_solver(TOONS if name.startswith("toons") else DEFAULT)


def run(name: str, deals: list[int], seconds: float, workers: int) -> tuple[list[Row], float]:
    """Solve ``deals`` with solver ``name`` on ``workers`` processes; rows and wall time."""
    runner = RUNNERS[name]
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_warm, [name] * workers))
        start = time.perf_counter()
        rows = list(pool.map(runner, deals, [seconds] * len(deals), chunksize=8))
        wall = time.perf_counter() - start
    return rows, wall


def summary(rows: list[Row], wall: float) -> dict[str, Any]:
    times = sorted(r[2] for r in rows)
    lengths = [r[3] for r in rows if r[1] == "solved"]
    count = {v: sum(1 for r in rows if r[1] == v) for v in ("solved", "unsolvable", "unknown")}
    return {
        **count,
        "sum_s": sum(times),
        "wall_s": wall,
        "deals_per_s": len(rows) / wall if wall else 0.0,
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))] * 1000,
        "max_s": times[-1],
        "median_len": statistics.median(lengths) if lengths else 0,
        "mean_len": statistics.mean(lengths) if lengths else 0,
    }


def table(results: dict[str, dict[str, Any]]) -> str:
    names = list(results)
    rows = [
        ("solved", "solved", "{:d}"),
        ("unsolvable", "unsolvable", "{:d}"),
        ("unknown", "unknown", "{:d}"),
        ("Σ solve s", "sum_s", "{:.2f}"),
        ("wall s", "wall_s", "{:.2f}"),
        ("deals/s", "deals_per_s", "{:.0f}"),
        ("median ms/deal", "median_ms", "{:.2f}"),
        ("p95 ms/deal", "p95_ms", "{:.1f}"),
        ("max s/deal", "max_s", "{:.3f}"),
        ("median length", "median_len", "{:.0f}"),
        ("mean length", "mean_len", "{:.1f}"),
    ]
    width = max(14, *(len(n) for n in names))
    lines = ["".ljust(16) + "".join(n.rjust(width + 2) for n in names)]
    for label, key, fmt in rows:
        lines.append(
            label.ljust(16) + "".join(fmt.format(results[n][key]).rjust(width + 2) for n in names)
        )
    if "eightoff" in results:
        me = results["eightoff"]
        lines.append("")
        lines.append("eightoff / other:")
        for n in names:
            if n == "eightoff":
                continue
            other = results[n]
            ratio_s = me["sum_s"] / other["sum_s"] if other["sum_s"] else float("nan")
            ratio_med = me["median_ms"] / other["median_ms"] if other["median_ms"] else float("nan")
            ratio_len = (
                me["median_len"] / other["median_len"] if other["median_len"] else float("nan")
            )
            lines.append(
                f"  vs {n:<13} Σ time {ratio_s:6.2f}×   median time {ratio_med:6.2f}×   "
                f"median length {ratio_len:5.2f}×"
            )
    return "\n".join(lines)


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="1-2000", help="PySolFC deal numbers (1-2000, 1,5,9-12)")
    ap.add_argument(
        "--held-out",
        default="30001-31000",
        help="deals no tuning has seen, compared the same way ('' to skip)",
    )
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--workers", type=int, default=2, help="worker processes per solver")
    ap.add_argument("--only", default=",".join(SOLVERS), help="solvers to run, comma-separated")
    ap.add_argument(
        "--block", type=int, default=200, help="deals per turn (solvers alternate by block)"
    )
    ap.add_argument("--json", metavar="FILE", help="also write per-deal rows and the summary")
    ap.add_argument("--results", metavar="FILE", help="also write the table (results_page)")
    args = ap.parse_args(argv)
    deals = parse_range(args.deals)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in RUNNERS]
    if unknown:
        ap.error(f"unknown solver(s) {', '.join(unknown)}: choose from {', '.join(SOLVERS)}")
    print(
        f"{len(deals)} PySolFC deals ({args.deals}), standard rules, "
        f"{args.time_limit:g} s per deal, {args.workers} workers each",
        file=sys.stderr,
    )
    report: dict[str, Any] = {}
    figures: list[list[object]] = []
    for title, numbers in (
        (f"deals {args.deals} (the weights were tuned on 1-1000)", deals),
        (f"held-out deals {args.held_out}", parse_range(args.held_out) if args.held_out else []),
    ):
        if not numbers:
            continue
        results, per_deal = compare(names, numbers, args)
        print(f"\n{title}\n")
        print(table(results))
        if "eightoff" in per_deal:
            mine = {r[0]: r[1] for r in per_deal["eightoff"]}
            for name, rows in per_deal.items():
                clash = [r[0] for r in rows if {r[1], mine[r[0]]} == {"solved", "unsolvable"}]
                if clash:
                    print(f"verdicts differ from {name} on deals {clash}")
            lost = sorted(d for d, v in mine.items() if v == "unsolvable")
            print(f"eightoff unsolvable: {lost}")
        report[title] = {"summary": results, "deals": per_deal}
        figures += [
            [
                f"{title.partition(' (')[0]}: {name}",
                f"{s['solved']} / {s['unsolvable']} / {s['unknown']}",
                f"{s['sum_s']:.2f}",
                f"{s['median_ms']:.2f}",
                f"{s['p95_ms']:.1f}",
                f"{s['max_s']:.3f}",
                f"{s['median_len']:.0f} / {s['mean_len']:.1f}",
            ]
            for name, s in results.items()
        ]
    if args.json:
        Path(args.json).write_text(json.dumps(report))
    if args.results:
        write_result(
            args.results,
            "The standard game against Freecell Solver",
            [
                "deals: solver",
                "solved / unsolvable / unknown",
                "Σ solve s",
                "median ms/deal",
                "p95 ms/deal",
                "max s/deal",
                "median / mean length",
            ],
            figures,
        )
    return 0


def compare(
    names: list[str], deals: list[int], args: argparse.Namespace
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Row]]]:
    """Every solver on ``deals``, taking turns by block: summaries and per-deal rows."""
    per_deal: dict[str, list[Row]] = {name: [] for name in names}
    # Solvers take turns on blocks of deals, so that a change in the machine's load
    # during the run falls on all of them alike.
    walls = dict.fromkeys(names, 0.0)
    for first in range(0, len(deals), args.block):
        block = deals[first : first + args.block]
        for name in names:
            rows, wall = run(name, block, args.time_limit, args.workers)
            per_deal[name].extend(rows)
            walls[name] += wall
        print(f"  deals {block[0]}-{block[-1]} done", file=sys.stderr)
    return {name: summary(per_deal[name], walls[name]) for name in names}, per_deal


if __name__ == "__main__":
    sys.exit(main())
