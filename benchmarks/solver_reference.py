"""The reference solver against the C core on PySolFC deals, side by side.

    .venv/bin/python benchmarks/solver_reference.py                  # deals 1-300
    .venv/bin/python benchmarks/solver_reference.py --deals 1-50 --rules easy

The reference solver (``eightoff.solver.reference``: a plain best-first search on
``Position.legal_moves``) is what runs where the C core did not compile, and the
oracle the tests hold the C core to. For each deal both solve under the same
rules, taking turns deal by deal; the verdicts must agree (a deal the reference
leaves unknown within its limit is counted apart) and every line of both must
replay to a win through the engine. Prints verdicts, Σ and median seconds, the
time ratio and median lengths; exits 1 on a disagreement or a line that does not win.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

from eightoff.deal import pysol_deal
from eightoff.rules import PRESETS
from eightoff.solver import Limit, SolveResult, core, reference

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_solver_oracle import wins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-300", help="a range of PySolFC deals, A-B")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--seconds", type=float, default=60.0, help="reference limit per deal")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    rules = PRESETS[args.rules]
    if core.native is None:
        print("the C core is not built: nothing to compare the reference with")
        return 1
    results: dict[str, list[SolveResult]] = {"C core": [], "reference": []}
    bad: list[str] = []
    for number in range(int(first), int(last or first) + 1):
        position = pysol_deal(number, rules)
        fast = core.solve_fast(position, Limit(nodes=None, seconds=60))
        plain = reference.solve_any(position, Limit(nodes=None, seconds=args.seconds))
        results["C core"].append(fast)
        results["reference"].append(plain)
        if "unknown" not in (fast.verdict, plain.verdict) and fast.verdict != plain.verdict:
            bad.append(f"deal {number}: C core {fast.verdict}, reference {plain.verdict}")
        for name, result in (("C core", fast), ("reference", plain)):
            if result.solved and not wins(position, result.moves):
                bad.append(f"deal {number}: the {name}'s line does not win")
    print(f"PySolFC deals {args.deals}, {args.rules} rules")
    print(
        f"{'':<10} {'solved':>7}"
        f" {'unsolv.':>7} {'unknown':>7} {'Σ s':>9} {'median s':>9} {'len':>5}"
    )
    for name, rows in results.items():
        count = Counter(r.verdict.value for r in rows)
        lengths = [r.length for r in rows if r.solved]
        total = sum(r.seconds for r in rows)
        median = statistics.median(r.seconds for r in rows)
        print(
            f"{name:<10} {count['solved']:>7} {count['unsolvable']:>7} {count['unknown']:>7} "
            f"{total:>9.2f} {median:>9.4f} {statistics.median(lengths) if lengths else 0:>5.0f}"
        )
    c_sum = sum(r.seconds for r in results["C core"])
    ref_sum = sum(r.seconds for r in results["reference"])
    print(f"reference / C core: Σ time {ref_sum / c_sum:.0f}×")
    for line in bad:
        print(line)
    print("verdicts agree, every line wins" if not bad else f"{len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
