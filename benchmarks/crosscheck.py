"""Cross-check a survey's verdicts before they are published: against the verdicts the
package ships, and the lost deals against Freecell Solver.

    .venv/bin/python benchmarks/crosscheck.py --db c2eab.db [--hardest 200] [--every 100] \
        [--seconds 5] [--workers 2]

1. **Shipped verdicts** (``src/eightoff/data/verdicts.json``): on every deal both the
   database and the shipped file settle, the verdicts must agree; deals the file left
   unknown and the database settles, and deals the database leaves unknown that the file
   settles, are listed.
2. **fc-solve on the lost deals**: a deal eightoff calls unsolvable must never be won by
   Freecell Solver (the ``toons-for-twenty-somethings`` preset in-process, the same game
   by :func:`solver_variants.fcs_options`). Checked: the ``--hardest`` lost deals (most
   positions searched, where an unsafe pruning would hide) and every ``--every``-th other
   lost deal. fc-solve proves many of them lost too, and gives up on the hardest.

Exit status 1 if a verdict changed (won against lost) or fc-solve won a lost deal; the
referee (``benchmarks/referee.py``) checks the won deals' lines on its own rules.
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from eightoff.deal import deal, pysol_deal
from eightoff.export import variant as variant_code
from eightoff.formats import position_to_fcs
from eightoff.rules import Rules
from eightoff.store import Store, rules_from_key, rules_key
from eightoff.verdicts import STORED_AS, shipped
from solver_variants import TOONS, fcs_options
from solver_vs_fcsolve import forget_lib_solvers, lib_solver, run_lib


@dataclass(frozen=True)
class Group:
    """One rule set and deal source of the database."""

    rules: Rules
    source: str

    @property
    def name(self) -> str:
        return f"{variant_code(self.rules)} {self.source}"


def against_shipped(store: Store, group: Group) -> tuple[int, list[str], list[str]]:
    """(agreeing, changed, newly settled or unsettled) deals against the shipped file."""
    found = shipped().find(group.rules) if group.source == "eightoff" else None
    if found is None:
        return 0, [], []
    same, changed, moved = 0, [], []
    for row in store.rows(group.rules, group.source):
        old = found.verdict(row.deal)
        new = STORED_AS[row.verdict]
        if old is None or old == new:
            same += old is not None
        elif "unknown" in (old, new):
            moved.append(f"{row.deal} {old}->{new}")
        else:
            changed.append(f"{row.deal} {old}->{new}")
    return same, changed, moved


def lost_sample(store: Store, group: Group, hardest: int, every: int) -> list[int]:
    """The lost deals to give fc-solve: the ``hardest`` by positions, every ``every``-th."""
    rows = store.execute(
        "SELECT deal, nodes FROM results WHERE rules = ? AND source = ? "
        "AND verdict = 'unsolvable' ORDER BY deal",
        (rules_key(group.rules), group.source),
    ).fetchall()
    by_nodes = sorted(rows, key=lambda r: -r[1])
    chosen = {deal for deal, _ in by_nodes[:hardest]}
    if every:
        chosen |= {deal for i, (deal, _) in enumerate(rows) if i % every == 0}
    return sorted(chosen)


def fcs_verdict(key: str, source: str, number: int, seconds: float, states: int) -> str:
    """fc-solve's verdict on one deal (solved, unsolvable or unknown), CPU-time bound."""
    rules = rules_from_key(key)
    position = (deal if source == "eightoff" else pysol_deal)(number, rules)
    fcs = lib_solver([*fcs_options(rules), *TOONS])
    verdict = run_lib(
        fcs, position_to_fcs(position), number, seconds, time.process_time, max_states=states
    )[1]
    # A recycled fc-solve keeps its largest search's memory: give it back between deals.
    forget_lib_solvers()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    return verdict


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="the survey database")
    ap.add_argument("--hardest", type=int, default=200, help="lost deals with most positions")
    ap.add_argument("--every", type=int, default=100, help="and every N-th lost deal (0: none)")
    ap.add_argument("--seconds", type=float, default=5.0, help="fc-solve's CPU seconds a deal")
    ap.add_argument("--states", type=int, default=2_000_000, help="fc-solve's stored states")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)

    bad = 0
    with Store(args.db, readonly=True) as store:
        groups = [Group(rules, source) for rules, source, _ in store.groups()]
        for group in groups:
            same, changed, moved = against_shipped(store, group)
            print(
                f"{group.name}: shipped verdicts: {same} the same, {len(changed)} changed"
                + (f" ({', '.join(changed)})" if changed else "")
                + (f"; settled or unsettled: {', '.join(moved)}" if moved else "")
            )
            bad += len(changed)
            try:
                fcs_options(group.rules)
            except ValueError as err:
                print(f"  fc-solve: {err}")
                continue
            sample = lost_sample(store, group, args.hardest, args.every)
            key = rules_key(group.rules)
            start = time.perf_counter()
            with ProcessPoolExecutor(args.workers) as pool:
                verdicts = list(
                    pool.map(
                        fcs_verdict,
                        [key] * len(sample),
                        [group.source] * len(sample),
                        sample,
                        [args.seconds] * len(sample),
                        [args.states] * len(sample),
                    )
                )
            tally = Counter(verdicts)
            won = [n for n, v in zip(sample, verdicts, strict=True) if v == "solved"]
            print(
                f"  fc-solve on {len(sample)} lost deals ({time.perf_counter() - start:.0f} s):"
                f" lost {tally['unsolvable']}, unknown {tally['unknown']},"
                f" WON {len(won)}" + (f" ({', '.join(map(str, won))})" if won else "")
            )
            bad += len(won)
    print("contradictions:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
