"""The C rules (``native/rules.h``) against the engine's ``Position.legal_moves``.

    .venv/bin/python benchmarks/native_legal_moves.py              # 100,000 positions a preset
    .venv/bin/python benchmarks/native_legal_moves.py --count 1000

For each rule book of ``tests/test_native.py`` (every preset, and every value of
every option somewhere), positions are reached by random legal moves from random
PySolFC deals; ``_native.legal_moves`` must list exactly the engine's moves, in the
engine's order. Prints positions and moves compared per rule book; exits 1 on the
first difference (printing the position).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_native import LEGAL_RULES, as_tuple, c_legal_moves, random_positions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="positions per rule book")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'rules':<36} {'positions':>10} {'moves':>10} {'s':>7}")
    for name, rules in sorted(LEGAL_RULES.items()):
        rng = random.Random(f"{args.seed} {name}")
        start = time.perf_counter()
        positions = moves = 0
        for position in random_positions(rules, rng, args.count):
            engine = [as_tuple(m) for m in position.legal_moves()]
            if c_legal_moves(position) != engine:
                print(f"{name}: the C rules differ here:\n{position}")
                return 1
            positions += 1
            moves += len(engine)
        seconds = time.perf_counter() - start
        print(f"{name:<36} {positions:>10,} {moves:>10,} {seconds:>7.1f}")
    print("the C rules list the engine's legal moves everywhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
