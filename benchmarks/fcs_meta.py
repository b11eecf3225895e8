"""Freecell Solver's meta-move scan, move for move: our count of positions against its own.

    .venv/bin/python benchmarks/fcs_meta.py --variants all --deals 1-40

For each PySolFC deal of each variant, one depth-first scan of fc-solve's default tests
order ``0123456789`` (its meta-move tests, native/meta.c) runs here
(``searches.fcs_scan(..., tests=...)``) and in fc-solve (``-to 0123456789 --method soft-dfs``,
the variant's options: :func:`solver_variants.fcs_options`), both within ``--states``
positions. A deal matches when both check as many positions and agree whether the scan
won; each win here is replayed on the engine too. Prints the mismatches and refused
lines, a row per variant, and exits 1 if there was any. Reports the scans' time too:
ours in CPU s in-process, fc-solve's in wall s as a process (its start-up included).

``--tests`` scans another tests order (test ``j`` among them) and ``--prune`` adds
fc-solve's pruning (``-sp r:tf``), as looking-glass's first scan begins:

    .venv/bin/python benchmarks/fcs_meta.py --tests 01j234 --prune --deals 1-40

(its test ``j`` parks cards in empty columns that Kings-only columns refuse: the rows
where any card fills a column match, the others need not). ``--preset`` compares a
whole preset's scans instead (``fc-solve -l NAME``), looking-glass's sixteen:

    .venv/bin/python benchmarks/fcs_meta.py --preset looking-glass --variants C2-EAB --deals 1-100

A deal both stop at the ``--states`` limit unwon counts as a match.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time

from eightoff.deal import pysol_deal
from eightoff.formats import position_to_fcs
from eightoff.position import Position
from eightoff.solver import core, searches
from solver_variants import CODES, VARIANTS, fcs_options
from solver_vs_fcsolve import parse_range

META = "0123456789"


def fcs_checked(position: Position, args: list[str]) -> tuple[int, bool]:
    """fc-solve's count of states checked on ``position`` with ``args``, and whether it won."""
    done = subprocess.run(
        ["fc-solve", *args, "-"],
        input=position_to_fcs(position),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    checked = re.search(r"Total number of states checked is (\d+)", done.stdout)
    if checked is None:
        raise RuntimeError(f"fc-solve gave no count: {done.stdout[-200:]}{done.stderr[-200:]}")
    return int(checked.group(1)), "This game is solveable." in done.stdout


def scan_args(tests: str, prune: bool, seed: int) -> list[str]:
    """fc-solve's options for one depth-first scan of ``tests`` (our notation: an order,
    then ";DEPTH,ORDER" for each of its -dto2), random-dfs with ``seed`` where a group
    is in brackets, with ``prune`` its -sp r:tf."""
    first, *deeper = tests.split(";")
    # "-to" before "--method": fc-solve reads a tests order for the scan it names next
    args = ["-to", first]
    for order in deeper:
        args += ["-dto2", order]
    if "[" in tests:
        args += ["--method", "random-dfs", "-seed", str(seed)]
    else:
        args += ["--method", "soft-dfs"]
    return [*args, "-sp", "r:tf"] if prune else args


def fcs_scan(
    position: Position,
    states: int,
    tests: str = META,
    prune: bool = False,
    seed: int = 0,
    preset: str | None = None,
) -> tuple[int, bool]:
    """fc-solve's states checked by a depth-first scan of ``tests`` on ``position``
    (:func:`scan_args`), or by its ``preset``'s scans, and whether it won."""
    scan = ["-l", preset] if preset else scan_args(tests, prune, seed)
    return fcs_checked(position, [*fcs_options(position.rules), *scan, "-mi", str(states)])


def our_scan(
    position: Position,
    states: int,
    tests: str = META,
    prune: bool = False,
    seed: int = 0,
    preset: str | None = None,
) -> tuple[int, bool, bool]:
    """Our scan of ``tests`` (or ``preset``'s scans): positions checked, whether it won,
    whether its line wins here."""
    if preset:
        status, checked, line = searches.fcs_scan(position, states, preset=preset)
    else:
        status, checked, line = searches.fcs_scan(
            position, states, tests=tests, prune=prune, seed=seed
        )
    if status != core.SOLVED:
        return checked, False, False
    for move in line:
        position = position.apply(move)
    return checked, True, position.is_won()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variants", default="all", help="codes of docs/atlas.md, or all")
    ap.add_argument("--deals", default="1-40", help="PySolFC deal numbers")
    ap.add_argument("--states", type=int, default=200_000, help="positions per scan, at most")
    ap.add_argument(
        "--tests", default=META, help='the tests order (0-9, A-E, j), ";DEPTH,ORDER" for each -dto2'
    )
    ap.add_argument("--prune", action="store_true", help="with fc-solve's pruning, -sp r:tf")
    ap.add_argument("--seed", type=int, default=0, help="random-dfs's seed (a random group)")
    ap.add_argument(
        "--preset",
        choices=["toons", "looking-glass"],
        help="a whole preset's scans instead (fc-solve -l NAME): toons or looking-glass",
    )
    args = ap.parse_args(argv)
    if core.native is None:
        print("the C core is not built", file=sys.stderr)
        return 2
    codes = CODES if args.variants == "all" else args.variants.split(",")
    deals = parse_range(args.deals)
    bad = 0
    for code in codes:
        rules = VARIANTS[code].rules
        matched = won = 0
        ours_s = theirs_s = 0.0
        for number in deals:
            position = pysol_deal(number, rules)
            t = time.process_time()
            scan = (args.states, args.tests, args.prune, args.seed, args.preset)
            checked, solved, replayed = our_scan(position, *scan)
            ours_s += time.process_time() - t
            t = time.perf_counter()
            fcs_checked, fcs_solved = fcs_scan(position, *scan)
            theirs_s += time.perf_counter() - t
            won += solved
            # both stopped by the limit (ours counts the positions it stored, a few more)
            stopped = not (solved or fcs_solved) and min(checked, fcs_checked) >= args.states
            if ((checked, solved) == (fcs_checked, fcs_solved) or stopped) and replayed == solved:
                matched += 1
                continue
            bad += 1
            print(
                f"  {code} {number}: ours {checked} ({'won' if solved else 'not won'}"
                f"{', line refused' if solved and not replayed else ''}), fc-solve {fcs_checked}"
                f" ({'won' if fcs_solved else 'not won'})"
            )
        print(
            f"{code}: {matched} / {len(deals)} match, {won} won; "
            f"ours {ours_s:.2f} s, fc-solve {theirs_s:.2f} s wall"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
