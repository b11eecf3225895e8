"""``eightoff solve SOURCE [--json] [--time-limit S] [--nodes N] [--optimal]``."""

from __future__ import annotations

import argparse
import json

from eightoff.errors import EightOffError
from eightoff.rules import Rules
from eightoff.solver import Limit, solve
from eightoff.sources import load_source


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The solve subcommand's own options (the source and rule options are added by cli)."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds to search (default 60; 0: no limit)",
    )
    parser.add_argument(
        "--nodes", type=int, metavar="N", help="positions to expand at most (default: no limit)"
    )
    parser.add_argument(
        "--optimal", action="store_true", help="find and prove the shortest solution (slow)"
    )


def command(args: argparse.Namespace, rules: Rules | None) -> int:
    """Solve and print; exit 0 for any verdict (bad input raises EightOffError: exit 2)."""
    if args.time_limit < 0:
        raise EightOffError(f"--time-limit must be 0 (none) or positive, not {args.time_limit}")
    if args.nodes is not None and args.nodes < 1:
        raise EightOffError(f"--nodes must be at least 1, not {args.nodes}")
    position, _ = load_source(args.source, rules)
    limit = Limit(nodes=args.nodes, seconds=args.time_limit or None)
    result = solve(position, limit=limit, optimal=args.optimal)
    if args.json:
        print(json.dumps(result.to_json(position)))
        return 0
    proven = " (proven optimal)" if result.optimal else ""
    print(f"{result.verdict.value}: {result.nodes} positions expanded in {result.seconds:.3f} s")
    if result.moves:
        print(f"{len(result.moves)} moves, {result.length} single-card moves{proven}:")
        notation = [str(m) for m in result.moves]
        for i in range(0, len(notation), 16):
            print(" ".join(notation[i : i + 16]))
    return 0
