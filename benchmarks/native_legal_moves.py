"""The C rules (``native/rules.h``) against the engine's ``Position.legal_moves``.

    .venv/bin/python benchmarks/native_legal_moves.py              # 100,000 positions a rule book
    .venv/bin/python benchmarks/native_legal_moves.py --count 1000 --rules bakers

For each rule book of ``tests/test_native.py`` (every preset, and every value of
every option somewhere), positions are reached by random legal moves from random
PySolFC deals; the kernel's ``legal_moves`` must list exactly the engine's moves, in the
engine's order. Each position's moves are listed once by each side (the walk steps
on from the engine's list). Prints positions, moves, positions/s and mismatches
per rule book, and the first position where the two differ; exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from results_page import write_result
from test_native import LEGAL_RULES, as_tuple, c_legal_moves, random_positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="positions per rule book")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", choices=sorted(LEGAL_RULES), help="only this rule book")
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = parser.parse_args()
    names = [args.rules] if args.rules else sorted(LEGAL_RULES)
    print(f"{'rules':<34} {'positions':>10} {'moves':>11} {'pos/s':>7} {'mismatches':>10}")
    total_bad = 0
    table: list[list[object]] = []
    for name in names:
        rng = random.Random(f"{args.seed} {name}")
        start = time.perf_counter()
        positions = moves = bad = 0
        for position, engine_moves in random_positions(LEGAL_RULES[name], rng, args.count):
            engine = [as_tuple(m) for m in engine_moves]
            if c_legal_moves(position) != engine:
                if not bad:
                    print(f"{name}: the C rules differ here:\n{position}")
                bad += 1
            positions += 1
            moves += len(engine)
        rate = positions / (time.perf_counter() - start)
        print(f"{name:<34} {positions:>10,} {moves:>11,} {rate:>7,.0f} {bad:>10}")
        total_bad += bad
        table.append([name, f"{positions:,}", f"{moves:,}", f"{rate:,.0f}", bad])
    if args.results:
        write_result(
            args.results,
            "The C rules against the engine's legal moves",
            ["rules", "positions", "moves", "positions/s", "mismatches"],
            table,
        )
    if total_bad:
        print(f"{total_bad} position(s) where the C rules and the engine differ")
        return 1
    print("the C rules list the engine's legal moves everywhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
