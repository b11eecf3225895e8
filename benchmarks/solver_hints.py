"""Hint latency from positions reached in normal play (target: p95 < 300 ms).

    .venv/bin/python benchmarks/solver_hints.py [--deals 1-40] [--moves 80] [--every 4]
        [--mistakes 0.25] [--seed 1]

A simulated player plays each standard deal (eightoff's own deals): most moves
follow the last hint, a share (``--mistakes``) is a random legal move instead,
so the games drift into lost positions too, where a hint must find how far
back the game was last winnable. Every ``--every`` actions the time of
``hint(game)`` is recorded. Prints p50 / p95 / max and the share of lost
positions; exit status 1 when p95 misses the target.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from eightoff.deal import deal
from eightoff.game import Game
from eightoff.moves import PlaceKind
from eightoff.solver import hint
from results_page import write_result

TARGET_P95_MS = 300.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="1-40", help="eightoff deal numbers, a-b")
    ap.add_argument("--moves", type=int, default=80, help="actions per game")
    ap.add_argument("--every", type=int, default=4, help="time a hint every N actions")
    ap.add_argument("--mistakes", type=float, default=0.25, help="share of random moves")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = ap.parse_args(argv)
    a, _, b = args.deals.partition("-")
    rng = random.Random(args.seed)
    times: list[float] = []
    lost = 0
    for number in range(int(a), int(b or a) + 1):
        game = Game(position=deal(number))
        for step in range(args.moves):
            if game.position.is_won():
                break
            start = time.perf_counter()
            found = hint(game)
            took = time.perf_counter() - start
            if step % args.every == 0:
                times.append(took)
                lost += found.winnable is False
            legal = [m for m in game.legal_moves() if m.source.kind is not PlaceKind.FOUNDATION]
            if not legal:
                break
            if found.winnable and found.move is not None and rng.random() >= args.mistakes:
                game.play(found.move)
            else:
                game.play(rng.choice(legal))
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] * 1000
    print(
        f"{len(times)} hints: p50 {statistics.median(times) * 1000:.1f} ms, "
        f"p95 {p95:.1f} ms, max {times[-1] * 1000:.0f} ms; "
        f"{lost} from lost positions ({lost / len(times):.0%})"
    )
    if args.results:
        write_result(
            args.results,
            f"Hints, eightoff deals {args.deals}, {args.moves} actions a game",
            ["mistakes", "hints timed", "from lost positions", "p50 ms", "p95 ms", "max ms"],
            [
                [
                    f"{args.mistakes:g}",
                    len(times),
                    f"{lost / len(times):.0%}",
                    f"{statistics.median(times) * 1000:.1f}",
                    f"{p95:.1f}",
                    f"{times[-1] * 1000:.0f}",
                ]
            ],
        )
    return 0 if p95 < TARGET_P95_MS else 1


if __name__ == "__main__":
    sys.exit(main())
