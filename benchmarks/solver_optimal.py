"""Optimal mode on PySolFC deals: how many shortest lines are proven within a time limit.

    .venv/bin/python benchmarks/solver_optimal.py [--deals 1-100] [--seconds 60] [--workers 1]

For every deal: ``solve(position, optimal=True)`` (A* over single-card moves with
Paul & Helmert's bound) within ``--seconds``, and the fast solver's line for
comparison. Prints the deals proven optimal, the time per deal (median, p95, max,
Σ) and the optimal and fast lengths. Exits 1 when fewer than 90% are proven (the
target: at least 90 of deals 1-100 within 60 s each).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from eightoff.deal import pysol_deal
from eightoff.solver import Limit, Verdict, solve
from results_page import write_result


def _one(job: tuple[int, float]) -> tuple[int, bool, float, int, int, int]:
    number, seconds = job
    position = pysol_deal(number)
    start = time.perf_counter()
    best = solve(position, optimal=True, limit=Limit(nodes=None, seconds=seconds))
    took = time.perf_counter() - start
    fast = solve(position, limit=Limit(nodes=None, seconds=seconds))
    proven = best.verdict is Verdict.SOLVED and best.optimal
    return number, proven, took, best.length, fast.length, best.nodes


def _deals(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-100", help="PySolFC deal range, e.g. 1-100")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per deal")
    parser.add_argument("--workers", type=int, default=1, help="processes (1: one at a time)")
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = parser.parse_args(argv)
    jobs = [(n, args.seconds) for n in _deals(args.deals)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = sorted(pool.map(_one, jobs))
    proven = [r for r in rows if r[1]]
    times = sorted(r[2] for r in rows)
    slowest = max(rows, key=lambda r: r[2])
    print(f"PySolFC deals {args.deals}, optimal mode, {args.seconds:g} s each, {args.workers} proc")
    print(f"  proven optimal        {len(proven)} of {len(rows)}")
    print(
        f"  seconds per deal      median {statistics.median(times):.3f}  p95 "
        f"{times[int(0.95 * (len(times) - 1))]:.3f}  max {slowest[2]:.3f} (deal {slowest[0]})"
        f"  Σ {sum(times):.1f}"
    )
    if proven:
        best = [r[3] for r in proven]
        fast = [r[4] for r in proven]
        print(
            f"  optimal length        median {statistics.median(best):g}  mean "
            f"{statistics.mean(best):.1f}"
        )
        print(
            f"  fast solver, same deals median {statistics.median(fast):g}  mean "
            f"{statistics.mean(fast):.1f}"
        )
        print(
            f"  positions expanded    median {statistics.median(r[5] for r in proven):g}  "
            f"max {max(r[5] for r in proven)}"
        )
    if args.results:
        write_result(
            args.results,
            f"Optimal mode, PySolFC deals {args.deals}, {args.seconds:g} s a deal",
            [
                "deals",
                "proven optimal",
                "median s",
                "p95 s",
                "max s (deal)",
                "Σ s",
                "optimal length, median / mean",
                "fast solver's length, median / mean",
            ],
            [
                [
                    args.deals,
                    f"{len(proven)} of {len(rows)}",
                    f"{statistics.median(times):.3f}",
                    f"{times[int(0.95 * (len(times) - 1))]:.2f}",
                    f"{slowest[2]:.2f} ({slowest[0]})",
                    f"{sum(times):.1f}",
                    f"{statistics.median(best):g} / {statistics.mean(best):.1f}" if proven else "-",
                    f"{statistics.median(fast):g} / {statistics.mean(fast):.1f}" if proven else "-",
                ]
            ],
        )
    missing = [r[0] for r in rows if not r[1]]
    if missing:
        print(f"  not proven: {missing}")
    return 0 if len(proven) >= 0.9 * len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
