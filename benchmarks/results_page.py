"""The benchmarks' results page: tables drawn from the result files, and those files written.

Each benchmark script given ``--results FILE`` writes its figures to a JSON file under
``benchmarks/results/`` (:func:`write_result`): a title, the command that made it, the
date, the machine, the table's columns and rows, and a note. ``benchmarks/README.md``
holds, for each file, a block between ``<!-- results: NAME -->`` and
``<!-- /results -->`` that this script draws from ``results/NAME.json``::

    .venv/bin/python benchmarks/results_page.py           # rewrite the page's tables
    .venv/bin/python benchmarks/results_page.py --check   # exit 1 if the page is stale

So a new run is: the script with ``--results benchmarks/results/NAME.json``, then this.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAGE = HERE / "README.md"
RESULTS = HERE / "results"
BLOCK = re.compile(r"(<!-- results: ([\w.-]+) -->\n)(.*?)(<!-- /results -->)", re.DOTALL)
KEYS = ("title", "commands", "date", "machine", "columns", "rows")


def machine() -> str:
    """This machine in a few words: system, architecture, cores, load when asked."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    where = f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores"
    return where if load is None else f"{where}, load average {load:.1f} at the end"


def write_result(
    path: str | Path,
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    note: str = "",
    argv: Sequence[str] | None = None,
) -> None:
    """Write one benchmark's figures as a result file: the command is this process's own
    (``argv``, by default ``sys.argv``), the date today's (UTC), the machine this one.

    A file already there with the same title and columns keeps its rows that the new
    ones do not replace (rows are matched by their first cell) and its other commands:
    so runs of one script with other options (say ``--mistakes``) fill one table.
    """
    if any(len(row) != len(columns) for row in rows):
        raise ValueError("every row needs one cell per column")
    args = list(sys.argv if argv is None else argv)
    if "--results" in args:  # where the figures go is no part of what made them
        at = args.index("--results")
        del args[at : at + 2]
    args = [a for a in args if not a.startswith("--results=")]
    script = Path(args[0]).name if args else "?"
    command = shlex.join([".venv/bin/python", f"benchmarks/{script}", *args[1:]])
    new = [[str(cell) for cell in row] for row in rows]
    commands, kept = [command], []
    if Path(path).exists():
        old = load(Path(path))
        if old["title"] == title and old["columns"] == list(columns):
            commands = [c for c in old["commands"] if c != command] + commands
            kept = [r for r in old["rows"] if r[0] not in {n[0] for n in new}]
    data = {
        "title": title,
        "commands": commands,
        "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "machine": machine(),
        "columns": list(columns),
        "rows": kept + new,
        "note": note,
    }
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load(path: Path) -> dict[str, Any]:
    """A result file, checked for its keys and its table's shape."""
    data = json.loads(path.read_text(encoding="utf-8"))
    missing = [k for k in KEYS if k not in data]
    if missing:
        raise ValueError(f"{path.name}: missing {', '.join(missing)}")
    width = len(data["columns"])
    if any(len(row) != width for row in data["rows"]):
        raise ValueError(f"{path.name}: a row without one cell per column")
    return dict(data)


def render(data: dict[str, Any]) -> str:
    """A result as the page shows it: the command, when and where, the table, the note."""

    def cells(items: Sequence[str]) -> str:
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in items) + " |"

    numeric = [
        all(re.fullmatch(r"\**[-\d.,]*\d\**(%|×| ms| s| MiB)?", r[i]) for r in data["rows"])
        for i in range(len(data["columns"]))
    ]
    # The table follows the commands' code block at once: Markdown ends the block there.
    lines = [
        f"**{data['title']}** ({data['date']}; {data['machine']}):",
        "",
        *("    " + command for command in data["commands"]),
        cells(data["columns"]),
        "|" + "|".join("--:" if n else "---" for n in numeric) + "|",
        *(cells(row) for row in data["rows"]),
    ]
    if data.get("note"):
        lines += ["", data["note"]]
    return "\n".join(lines) + "\n"


def update(page: str, results: Path) -> str:
    """``page`` with every results block drawn again from its file under ``results``."""
    named = [m.group(2) for m in BLOCK.finditer(page)]
    files = sorted(p.stem for p in results.glob("*.json"))
    unused = sorted(set(files) - set(named))
    absent = sorted(set(named) - set(files))
    if unused or absent:
        raise ValueError(f"result files without a block: {unused}; blocks without a file: {absent}")
    return BLOCK.sub(
        lambda m: m.group(1) + render(load(results / f"{m.group(2)}.json")) + m.group(4), page
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is out of date")
    args = ap.parse_args(argv)
    text = PAGE.read_text(encoding="utf-8")
    fresh = update(text, RESULTS)
    if args.check:
        if fresh != text:
            print("benchmarks/README.md is out of date: run benchmarks/results_page.py")
            return 1
        return 0
    PAGE.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
