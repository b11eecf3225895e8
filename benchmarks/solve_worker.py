"""One solver process for the benchmarks: the public ``eightoff.solver.solve`` of
whichever package is first on ``PYTHONPATH`` (a baseline commit's, say), line by line.

    PYTHONPATH=/tmp/base/src python benchmarks/solve_worker.py

Each input line is a JSON list ``[rules, number, seconds, nodes]`` (``rules``: the
keyword arguments of ``eightoff.rules.Rules`` as option name -> value text, ``nodes``
null for a wall-clock limit of ``seconds``); each output line is the JSON list
``[verdict, CPU seconds, length]`` of ``solve`` on PySolFC's deal ``number``.
Only the public API is called, so any commit's package answers the same way.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import fields
from typing import Any

from eightoff.deal import pysol_deal
from eightoff.rules import Rules
from eightoff.solver import Limit, solve


def rule_texts(rules: Rules) -> dict[str, str]:
    """``rules`` as option name -> value text, as :func:`rules_from` reads them back."""
    values = {f.name: getattr(rules, f.name) for f in fields(Rules)}
    return {name: str(getattr(value, "value", value)) for name, value in values.items()}


def rules_from(options: dict[str, str]) -> Rules:
    """``Rules`` from option name -> value text (an enum's value, or an int or bool)."""
    values: dict[str, Any] = {}
    for name, text in options.items():
        default = getattr(Rules(), name)
        if isinstance(default, bool):
            values[name] = text == "True"
        elif isinstance(default, int):
            values[name] = int(text)
        else:  # an enum: its value text
            values[name] = type(default)(text)
    return Rules(**values)


def main() -> int:
    for line in sys.stdin:
        options, number, seconds, nodes = json.loads(line)
        position = pysol_deal(number, rules_from(options))
        limit = Limit(nodes=nodes, seconds=seconds if nodes is None else None)
        start = time.process_time()
        result = solve(position, limit=limit)
        took = time.process_time() - start
        print(json.dumps([result.verdict.value, took, result.length]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
