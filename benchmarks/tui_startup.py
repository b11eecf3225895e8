"""Start-up time of the terminal game: from a fresh Python process to a drawn board.

    .venv/bin/python benchmarks/tui_startup.py [--runs N]

Each run starts a new interpreter that imports the app, builds it and runs it
headless at 80x24 until the board is drawn (every pile rendered), then exits; the
time is measured inside the child from interpreter start (so it includes Python's
own start-up and every import) and, as a cross-check, by the parent around the
whole process. Three starts are measured, taking turns run by run:

* ``code``: ``eightoff play CODE`` (a given deal);
* ``new``: a new winnable deal drawn from the shipped pool (first start, no saved game);
* ``resume``: the game left last time (a 60-move saved game replayed).

Beside them, as the floor no Textual app goes below, ``textual``: Textual's hello
world (one line of text and a footer) started and drawn the same way.

Target: median < 1 s for each of ours. Exit status 1 if one is missed. The CPU time
of the child and the load average are printed beside the wall time, so a busy
machine's contention shows (on 2 cores at load 4, wall time is about twice CPU time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_page import write_result

TARGET = 1.0

CHILD = r"""
import time, resource, sys
t0 = time.perf_counter()
from pathlib import Path

mode, directory = sys.argv[1], Path(sys.argv[2])
if mode == "textual":
    from textual.app import App
    from textual.widgets import Footer, Static

    class Hello(App[None]):
        def compose(self):
            yield Static("Hello")
            yield Footer()

    app = Hello()

    def drawn_now():
        return True
else:
    from eightoff.codes import GameCode
    from eightoff.game import Game
    from eightoff.tui.app import EightOffApp
    from eightoff.tui.board import Pile
    from eightoff.tui.userdata import UserData

    data = UserData(directory)
    game = Game(GameCode.parse("EO1-C8-AAAAAFA")) if mode == "code" else None
    app = EightOffApp(game, data=data)
    import gc
    gc.freeze()  # as eightoff.tui.start does before it runs the app

    def drawn_now():
        # Every pile laid out and the columns holding the deal's cards.
        piles = [p for p in app.query(Pile) if p.display]
        return all(p.size.width for p in piles) and any(p.cards for p in piles)

drawn = {}

async def auto_pilot(pilot):
    await pilot.pause()
    while not drawn_now():
        await pilot.pause()
    drawn["at"] = time.perf_counter()
    app.exit()

app.run(headless=True, size=(80, 24), auto_pilot=auto_pilot)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(drawn["at"] - t0, usage.ru_utime + usage.ru_stime)
"""


def save_game(directory: Path) -> None:
    """Leave a 60-move game in ``directory`` to resume."""
    from eightoff.codes import GameCode
    from eightoff.game import Game
    from eightoff.solver import solve
    from eightoff.tui.userdata import SavedGame, UserData

    code = GameCode.parse("EO1-C8-AAAAAFA")
    game = Game(code)
    game.replay(solve(code.position()).moves[:60])
    UserData(directory).save_game(SavedGame(game, 42.0))


def one_run(mode: str, directory: Path) -> tuple[float, float, float]:
    """(time to a drawn board inside the child, its CPU time, wall time of the process)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(directory)],
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    inside, cpu = (float(x) for x in out.stdout.split())
    return inside, cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float, float]]] = {
        "code": [],
        "new": [],
        "resume": [],
        "textual": [],
    }
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for mode in results:  # taking turns, so load spikes hit every mode alike
                directory = Path(tmp) / mode
                directory.mkdir(exist_ok=True)
                for name in ("game.json", "settings.json", "stats.json"):
                    (directory / name).unlink(missing_ok=True)
                if mode == "resume":
                    save_game(directory)
                results[mode].append(one_run(mode, directory))
    missed = False
    table: list[list[object]] = []
    print(
        f"start-up to a drawn board at 80x24, median of {args.runs} runs (target < {TARGET} s), "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    for mode, runs in results.items():
        inside = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        wall = statistics.median(r[2] for r in runs)
        verdict = "(the floor)"
        if mode != "textual":
            ok = wall < TARGET
            missed |= not ok
            verdict = "ok" if ok else "MISSED"
        table.append([mode, f"{cpu:.2f} s", f"{wall:.1f} s", verdict])
        print(
            f"  {mode:7} process {wall:.3f} s (imports to drawn board {inside:.3f} s, "
            f"CPU {cpu:.3f} s)  {verdict}"
        )
    print(json.dumps({m: [round(r[2], 3) for r in runs] for m, runs in results.items()}))
    if args.results:
        write_result(
            args.results,
            f"Terminal game start-up at 80x24, median of {args.runs} runs",
            ["start", "CPU to a drawn board", "wall", f"wall under {TARGET} s"],
            table,
        )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
