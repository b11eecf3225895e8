"""Bytes a survey row takes on disk, line included: the current schema vs version 1.

    .venv/bin/python benchmarks/survey_size.py [RANGE] [--workers N] [--optimal] [rule options]

Surveys RANGE (default 1-10000, the standard game) into a fresh database, then writes the
same rows into a database of schema version 1 (as eightoff wrote it before packed lines),
checkpoints and VACUUMs both, and prints each file's size divided by its rows. Also prints
the survey's deals/s and the peak resident memory of the survey process and of its workers.
Exits 1 when a row of the current schema takes more than 200 bytes.
"""

from __future__ import annotations

import argparse
import io
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from eightoff.cli import add_rule_options, rules_from_args
from eightoff.rules import STANDARD
from eightoff.solver import Limit
from eightoff.store import SCHEMA_V1, SCHEMA_VERSION, Store, rules_key
from eightoff.survey import DealRange, run_survey
from results_page import write_result

TARGET = 200  # bytes a row, at most


def compacted_size(path: Path) -> int:
    """The file's size once its WAL is checkpointed and it is VACUUMed."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("VACUUM")
    con.close()
    return path.stat().st_size


def write_v1(source: Path, target: Path) -> int:
    """Copy the rows of ``source`` into a version-1 database at ``target``; their count."""
    con = sqlite3.connect(target)
    con.executescript(SCHEMA_V1)
    with Store(source, readonly=True) as store, con:
        rows = [
            (rules_key(r.rules), r.source, r.deal, r.verdict, r.length, int(r.optimal), r.nodes)
            + (r.seconds, r.moves, r.solver, r.rating, r.time_limit, r.node_limit)
            for r in store.rows()
        ]
        con.executemany(f"INSERT INTO results VALUES ({', '.join('?' * 13)})", rows)
    con.close()
    return len(rows)


def peak_rss_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("range", nargs="?", default="1-10000", help="deals (default 1-10000)")
    parser.add_argument("--workers", type=int, default=2, help="survey processes (default 2)")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="S")
    parser.add_argument("--optimal", action="store_true", help="prove the shortest solutions")
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    add_rule_options(parser)
    args = parser.parse_args()
    deals = DealRange.parse(args.range)
    rules = rules_from_args(args) or STANDARD
    with tempfile.TemporaryDirectory() as tmp:
        now, v1 = Path(tmp) / "now.db", Path(tmp) / "v1.db"
        start = time.perf_counter()
        counts = run_survey(
            now,
            deals,
            rules,
            workers=args.workers,
            limit=Limit(nodes=None, seconds=args.time_limit),
            optimal=args.optimal,
            progress=io.StringIO(),
        )
        elapsed = time.perf_counter() - start
        rows = write_v1(now, v1)
        with sqlite3.connect(now) as con:
            line = con.execute("SELECT avg(length(line)), avg(length) FROM deals").fetchone()
        con.close()
        size2, size1 = compacted_size(now), compacted_size(v1)
    verdicts = ", ".join(f"{k} {v}" for k, v in counts.verdicts.items())
    print(f"survey {deals} ({rules.describe()}): {rows} rows; {verdicts}")
    print(
        f"  {elapsed:.1f} s wall on {args.workers} processes: {counts.done / elapsed:,.0f} deals/s;"
        f" peak RSS {peak_rss_mib(resource.RUSAGE_SELF):.0f} MiB (survey process), "
        f"{peak_rss_mib(resource.RUSAGE_CHILDREN):.0f} MiB (largest worker)"
    )
    print(f"  schema version 1: {size1:>11,} bytes  {size1 / rows:6.1f} bytes/row")
    print(f"  schema version {SCHEMA_VERSION}: {size2:>11,} bytes  {size2 / rows:6.1f} bytes/row")
    print(f"  packed line: {line[0]:.1f} bytes on average, for {line[1]:.1f} single-card moves")
    ok = size2 / rows <= TARGET
    if args.results:
        write_result(
            args.results,
            f"Bytes a survey row, deals {args.range}, winning lines included",
            ["schema", "bytes/row", "deals/s"],
            [
                [
                    f"version {SCHEMA_VERSION}",
                    f"{size2 / rows:.1f}",
                    f"{counts.done / elapsed:,.0f}",
                ],
                ["version 1", f"{size1 / rows:.1f}", "-"],
            ],
        )
    print(f"  target ≤ {TARGET} bytes/row: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
