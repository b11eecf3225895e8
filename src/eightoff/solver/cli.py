"""``eightoff solve SOURCE [--json] [--time-limit S] [--nodes N] [--memory MIB]
[--layers-dir DIR] [--optimal]``.

The options are read by :mod:`eightoff.cli`; :func:`command` takes them typed.
"""

from __future__ import annotations

import json

from eightoff.rules import Rules
from eightoff.solver import Limit, solve
from eightoff.solver.result import COMMAND_LIMIT
from eightoff.sources import load_source


def command(
    source: str,
    rules: Rules | None,
    *,
    limit: Limit = COMMAND_LIMIT,
    layers_dir: str | None = None,
    optimal: bool = False,
    as_json: bool = False,
) -> int:
    """Solve ``source`` within ``limit`` and print the outcome. ``layers_dir``: see
    :func:`eightoff.solver.solve`.

    Returns 0 for any verdict; bad input raises an ``EightOffError`` (the CLI: exit 2).
    """
    position, _ = load_source(source, rules)
    result = solve(position, limit=limit, optimal=optimal, layers_dir=layers_dir)
    if as_json:
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
