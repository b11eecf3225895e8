"""The solver's proof side on hard deals: verdicts, positions searched and CPU seconds.

    .venv/bin/python benchmarks/solver_proof.py --variant C2-A --deals 1-100 --nodes 3000000
    .venv/bin/python benchmarks/solver_proof.py --variant C2-EA --source eightoff \\
        --deals 533,1524,1967 --search solve --nodes 21000000
    .venv/bin/python benchmarks/solver_proof.py --variant C4-A --deals 527 --search solve \\
        --nodes 0 --seconds 60

``--search exact``: the exact depth-first search alone (``searches.exact_proof``), whose
positions counted when it runs dry are every position reachable under the proof
side's pruning rules; ``layered``: the same proof one foundation layer at a time
(``searches.proof_by_layers``: the tables hold the largest layer, not every position;
the positions waiting for later layers go to files under ``--spill``, a temporary
directory by default; the line reports the layers, the largest and the bytes
spilled, with ``--layers N`` the N largest by their foundations and the count of dealt
cards frozen in place that splits them (keys.c key_frozen), and a win comes
without its line); ``solve``: the public ``solve()`` (the portfolio, then
best-first and the exact proof by turns, the proof by layers where the tables
fill); 2 GiB of tables unless ``--memory`` says otherwise (to learn how large a
space is past 2 GiB). A node limit rather than a time limit, so that the verdicts
do not depend on the machine's load; the CPU seconds show what that limit costs.
``--nodes 0 --seconds S`` asks instead for a verdict within S seconds (wall clock, as
``solve()`` counts them) and 2 GiB a deal. The variants are those
of ``solver_variants.py`` (docs/atlas.md's codes); ``--source`` picks the deal
numbering (PySolFC's or eightoff's own).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from eightoff.deal import deal, pysol_deal
from eightoff.solver import Limit, Verdict, searches, solve
from solver_variants import VARIANTS
from solver_vs_fcsolve import parse_range

VERDICTS = ("won", "lost", "unknown", "no memory")
STATUS = {Verdict.SOLVED: 0, Verdict.UNSOLVABLE: 1, Verdict.UNKNOWN: 2}  # solve's, as the searches'


SUITS = "♠♥♦♣"  # the C core's foundations, in this order


def layer_name(founds: tuple[int, int, int, int]) -> str:
    """A layer by its foundations: ``♠2 ♥1 ♦1 ♣4``."""
    return " ".join(f"{suit}{height}" for suit, height in zip(SUITS, founds, strict=True))


def run(
    variant: str,
    source: str,
    number: int,
    search: str,
    nodes: int,
    seconds: float = -1.0,
    max_bytes: int = 2 << 30,
    spill: str | None = None,
    show_layers: int = 0,
) -> tuple[int, int, float, str]:
    """(status, positions, CPU seconds, what else to say) of one deal; ``nodes`` or
    ``seconds`` < 0: no such limit; ``max_bytes`` of tables; ``spill``: where the
    proof by layers keeps its pending positions (None: a temporary directory);
    ``show_layers``: how many of its largest layers to name."""
    rules = VARIANTS[variant].rules
    position = (pysol_deal if source == "pysol" else deal)(number, rules)
    limit = Limit(
        nodes=nodes if nodes > 0 else None,
        seconds=seconds if seconds > 0 else None,
        memory=max_bytes,
    )
    clock = time.process_time()
    extra = ""
    if search == "exact":
        status, count = searches.exact_proof(position, limit)
    elif search == "layered":
        with tempfile.TemporaryDirectory(prefix="layers-", dir=spill) as where:
            layered = searches.proof_by_layers(position, limit, where)
        status, count = layered.status, layered.positions
        extra = (
            f", {layered.layers:,} layers, the largest {layered.largest:,} positions,"
            f" {layered.spilled:,} bytes spilled"
        )
        if show_layers:
            biggest = sorted(layered.runs, key=lambda layer: -layer[2])[:show_layers]
            extra += "; the largest: " + ", ".join(
                f"{layer_name(founds)} frozen {frozen} {positions:,}"
                for founds, frozen, positions in biggest
            )
    else:
        result = solve(position, limit=limit)
        status, count = STATUS[result.verdict], result.nodes
    return status, count, time.process_time() - clock, extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variant", default="C2-A", help="a code of docs/atlas.md (C2-A, C4-EAB, ...)")
    ap.add_argument("--deals", default="1-100", help="deal numbers (1-100, 7,42,1773)")
    ap.add_argument("--source", choices=("pysol", "eightoff"), default="pysol")
    ap.add_argument("--search", choices=("exact", "layered", "solve"), default="exact")
    ap.add_argument("--spill", help="--search layered: a directory for the pending positions")
    ap.add_argument(
        "--layers", type=int, default=0, help="--search layered: name this many largest layers"
    )
    ap.add_argument(
        "--nodes", type=int, default=3_000_000, help="positions a deal at most (0: no limit)"
    )
    ap.add_argument("--seconds", type=float, help="seconds a deal at most (default: no limit)")
    ap.add_argument("--memory", type=int, default=2048, help="MiB of tables a deal (default 2048)")
    ap.add_argument("--quiet", action="store_true", help="the totals only")
    args = ap.parse_args(argv)
    if args.variant not in VARIANTS:
        ap.error(f"unknown variant {args.variant!r}")
    if args.nodes < 0 or (args.seconds is not None and not args.seconds > 0):
        ap.error("--nodes takes 0 or more positions, --seconds a positive time")
    if args.memory < 1:
        ap.error("--memory takes a positive number of MiB")
    if args.layers < 0:
        ap.error("--layers takes 0 or more layers")
    nodes = args.nodes if args.nodes > 0 else -1
    seconds = -1.0 if args.seconds is None else args.seconds
    counts = [0] * len(VERDICTS)
    positions, spent_all = 0, 0.0
    for number in parse_range(args.deals):
        status, count, spent, extra = run(
            args.variant,
            args.source,
            number,
            args.search,
            nodes,
            seconds,
            args.memory << 20,
            args.spill,
            args.layers,
        )
        counts[status] += 1
        positions += count
        spent_all += spent
        if not args.quiet:
            what = f"{VERDICTS[status]}, {count:,} positions, {spent:.1f} s CPU{extra}"
            print(f"{args.variant} {args.source} {number}: {what}")
    bounds = [f"{args.nodes:,} positions at most"] if nodes > 0 else []
    if args.seconds is not None:
        bounds.append(f"{args.seconds:g} s at most")
    limits = f"{' and '.join(bounds) or 'no limit'}, {args.memory:,} MiB"
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    verdicts = ", ".join(f"{n} {v}" for n, v in zip(counts, VERDICTS, strict=True) if n)
    print(
        f"{args.variant} {args.source} {args.deals} ({args.search}, {limits}): {verdicts};"
        f" Σ {positions:,} positions, Σ {spent_all:.1f} s CPU;"
        f" load average {load}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
