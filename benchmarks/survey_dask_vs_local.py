"""Deals per second: a survey on N local processes vs the same deals on an N-worker Dask cluster.

    .venv/bin/python benchmarks/survey_dask_vs_local.py [RANGE] [--workers N] [--dask ADDRESS]
        [--repeat K]

Without ``--dask`` a ``distributed.LocalCluster`` (N worker processes, one thread
each, on 127.0.0.1) is started first; its start-up is not timed, as a survey
runs on an existing cluster. Each run writes a fresh SQLite file; the local
run's time includes starting its process pool. With ``--repeat K`` the two
kinds of run alternate K times and the best time of each counts (a shared
machine's other load hurts both alike). The verdicts must agree, which the
script checks.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from eightoff.solver import Limit
from eightoff.store import Store
from eightoff.survey import DealRange, run_survey
from results_page import write_result


def timed(db: Path, deals: DealRange, **options: Any) -> float:
    start = time.perf_counter()
    counts = run_survey(db, deals, progress=io.StringIO(), **options)
    elapsed = time.perf_counter() - start
    assert counts.done == len(deals), counts
    return elapsed


def verdicts(db: Path) -> list[tuple[int, str]]:
    with Store(db) as store:
        return [(r.deal, r.verdict) for r in store.rows()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("range", nargs="?", default="0-599", help="deals (default 0-599)")
    parser.add_argument("--workers", type=int, default=2, help="processes / Dask workers")
    parser.add_argument("--dask", metavar="ADDRESS", help="an existing cluster instead")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S")
    parser.add_argument("--repeat", type=int, default=1, metavar="K", help="alternating runs")
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = parser.parse_args()
    deals = DealRange.parse(args.range)
    limit = Limit(nodes=None, seconds=args.time_limit)
    local_times: list[float] = []
    dask_times: list[float] = []
    same = True
    if args.dask:
        address, cluster = args.dask, None
    else:
        from distributed import LocalCluster

        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        address = cluster.scheduler_address
    try:
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as tmp:
                local_db, dask_db = Path(tmp, "local.db"), Path(tmp, "dask.db")
                local_times.append(timed(local_db, deals, workers=args.workers, limit=limit))
                dask_times.append(timed(dask_db, deals, dask=address, limit=limit))
                same = same and verdicts(local_db) == verdicts(dask_db)
    finally:
        if cluster is not None:
            cluster.close()
    local, remote = min(local_times), min(dask_times)
    n = len(deals)
    print(f"survey {deals} ({n} deals), {args.workers} workers, time limit {args.time_limit:g} s")
    print(f"  Dask scheduler {address}")
    every = ", ".join(f"{t:.2f}" for t in local_times)
    print(f"  local processes: {local:7.2f} s  {n / local:7.1f} deals/s   (runs: {every} s)")
    every = ", ".join(f"{t:.2f}" for t in dask_times)
    print(f"  Dask cluster:    {remote:7.2f} s  {n / remote:7.1f} deals/s   (runs: {every} s)")
    print(f"  Dask speed / local speed: {local / remote:.2f}   same verdicts: {same}")
    if args.results:
        write_result(
            args.results,
            f"Surveys, local processes against Dask, {args.workers} workers",
            ["deals (best of runs)", "local deals/s", "Dask deals/s", "Dask / local"],
            [
                [
                    f"{args.range} (best of {args.repeat})",
                    f"{n / local:,.0f}",
                    f"{n / remote:,.0f}",
                    f"{local / remote:.2f}",
                ]
            ],
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
