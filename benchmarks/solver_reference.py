"""The reference solver against the C core on PySolFC deals, side by side.

    .venv/bin/python benchmarks/solver_reference.py                  # deals 1-300
    .venv/bin/python benchmarks/solver_reference.py --deals 1-50 --rules easy

The reference solver (``eightoff.solver.reference``: a plain best-first search on
``Position.legal_moves``) is what runs where the C core did not compile, and the
oracle the tests hold the C core to. For each deal both solve under the same
rules, taking turns deal by deal; the verdicts must agree (a deal the reference
leaves unknown within its limit is counted apart) and every line of both must
replay to a win through the engine. Prints verdicts, Σ, median and most CPU
seconds (the machine may be shared), the time ratio, median lengths and the deals
left unknown; exits 1 on a disagreement or a line that does not win.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from eightoff.deal import pysol_deal
from eightoff.rules import PRESETS
from eightoff.solver import Limit, SolveResult, core, reference
from results_page import write_result

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_solver_oracle import wins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-300", help="a range of PySolFC deals, A-B")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seconds", type=float, default=60.0, help="reference limit per deal")
    parser.add_argument("--nodes", type=int, help="reference limit per deal, in positions")
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    rules = PRESETS[args.rules]
    if core.native is None:
        print("the C core is not built: nothing to compare the reference with")
        return 1
    results: dict[str, list[SolveResult]] = {"C core": [], "reference": []}
    cpu: dict[str, list[float]] = {"C core": [], "reference": []}  # CPU seconds a deal
    bad: list[str] = []
    unknown: list[str] = []
    searches = {
        "C core": (core.solve_fast, Limit(nodes=None, seconds=60)),
        "reference": (reference.solve_any, Limit(nodes=args.nodes, seconds=args.seconds)),
    }
    for number in range(int(first), int(last or first) + 1):
        position = pysol_deal(number, rules)
        for name, (search, limit) in searches.items():
            clock = time.process_time()
            result = search(position, limit)
            cpu[name].append(time.process_time() - clock)
            results[name].append(result)
            if result.solved and not wins(position, result.moves):
                bad.append(f"deal {number}: the {name}'s line does not win")
        fast, plain = results["C core"][-1], results["reference"][-1]
        if plain.verdict == "unknown":
            unknown.append(f"{number} ({plain.nodes:,} positions)")
        if "unknown" not in (fast.verdict, plain.verdict) and fast.verdict != plain.verdict:
            bad.append(f"deal {number}: C core {fast.verdict}, reference {plain.verdict}")
    print(f"PySolFC deals {args.deals}, {args.rules} rules (seconds of CPU time)")
    print(
        f"{'':<10} {'solved':>7} {'unsolv.':>7} {'unknown':>7}"
        f" {'Σ s':>9} {'median s':>9} {'max s':>8} {'len':>5}"
    )
    table: list[list[object]] = []
    for name, rows in results.items():
        count = Counter(r.verdict.value for r in rows)
        lengths = [r.length for r in rows if r.solved]
        table.append(
            [
                f"{args.rules}, {name}",
                count["solved"],
                count["unsolvable"],
                count["unknown"],
                f"{sum(cpu[name]):.2f}",
                f"{statistics.median(cpu[name]):.4f}",
                f"{max(cpu[name]):.2f}",
                f"{statistics.median(lengths) if lengths else 0:.0f}",
            ]
        )
        print(
            f"{name:<10} {count['solved']:>7} {count['unsolvable']:>7} {count['unknown']:>7} "
            f"{sum(cpu[name]):>9.2f} {statistics.median(cpu[name]):>9.4f} "
            f"{max(cpu[name]):>8.2f} {statistics.median(lengths) if lengths else 0:>5.0f}"
        )
    ratio = sum(cpu["reference"]) / max(sum(cpu["C core"]), 1e-9)
    print(f"reference / C core: Σ CPU time {ratio:.0f}×")
    if unknown:
        print("left unknown by the reference: deals " + ", ".join(unknown))
    for line in bad:
        print(line)
    print("verdicts agree, every line wins" if not bad else f"{len(bad)} problem(s)")
    if args.results:
        write_result(
            args.results,
            f"The reference solver against the C core, PySolFC deals {args.deals}",
            [
                "rules, solver",
                "solved",
                "unsolvable",
                "unknown",
                "Σ CPU s",
                "median CPU s",
                "max CPU s",
                "median length",
            ],
            table,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
