"""Are Freecell Solver's wins legal here? Its winning lines replayed on the engine.

    .venv/bin/python benchmarks/fcs_lines.py --preset lg --variants C2-EAB,C4-A --deals 1-100
    .venv/bin/python benchmarks/fcs_lines.py --preset lg --lost runs.json

With ``--lost FILE`` (a ``solver_variants.py --json`` file) it takes, for each variant
there, the deals eightoff called unsolvable: a legal win among them is a verdict of
ours a peer refutes (exit status 1).

fc-solve solves each PySolFC deal under the variant's options (the same game as
``solver_variants.py`` gives it, :func:`solver_variants.fcs_options`) with the preset
``-l PRESET``; each line it calls a win is read (:func:`eightoff.formats.moves_from_fcs_solution`)
and played on :class:`eightoff.position.Position`, move by move. fc-solve may move a
whole column into an empty one, which the engine refuses as a move that changes nothing:
there it only renumbers the two columns, and the replay follows the renumbering. A line
is **legal** when every other move is one of the engine's and it ends with every card
home; else the first move refused is reported with the engine's reason. A peer's
speed on a variant counts only where its lines are legal there (benchmarks/README.md:
the looking-glass preset breaks the Kings-only rule).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from eightoff.deal import pysol_deal
from eightoff.formats import moves_from_fcs_solution, position_to_fcs
from eightoff.moves import Move, Place, PlaceKind
from eightoff.position import Position
from solver_variants import VARIANTS, fcs_options
from solver_vs_fcsolve import parse_range


def fcs_line(position: Position, preset: str, states: int) -> list[Move] | None:
    """fc-solve's winning line with ``preset`` (None: it found none within ``states``)."""
    done = subprocess.run(
        ["fc-solve", "-l", preset, *fcs_options(position.rules), "-mi", str(states), "-m", "-"],
        input=position_to_fcs(position),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if "This game is solveable." not in done.stdout:
        return None
    return moves_from_fcs_solution(done.stdout)


def refusal(position: Position, line: list[Move]) -> str | None:
    """Why the engine refuses ``line`` (its first illegal move, or no win); None if it wins."""
    order = list(range(8))  # fc-solve's column i is the engine's column order[i]

    def ours(place: Place) -> Place:
        if place.kind is PlaceKind.COLUMN:
            return Place(PlaceKind.COLUMN, order[place.index])
        return place

    for at, move in enumerate(line):
        mapped = Move(ours(move.source), ours(move.target), move.count)
        whole = (
            move.source.kind is move.target.kind is PlaceKind.COLUMN
            and mapped.count == len(position.columns[mapped.source.index])
            and not position.columns[mapped.target.index]
        )
        if whole:  # fc-solve renumbers the two columns: the cards stay where they are here
            a, b = move.source.index, move.target.index
            order[a], order[b] = order[b], order[a]
            continue
        why = position.why_illegal(mapped)
        if why is not None:
            return f"move {at + 1} ({mapped.text()}): {why}"
        position = position.apply(mapped)
    return None if position.is_won() else "the line ends before every card is home"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--preset", default="lg", help="fc-solve's preset (-l), default lg")
    ap.add_argument("--variants", default="C2-EAB", help="codes of docs/atlas.md")
    ap.add_argument("--deals", default="1-100", help="PySolFC deal numbers")
    ap.add_argument("--states", type=int, default=2_000_000, help="fc-solve's -mi per deal")
    ap.add_argument("--lost", metavar="FILE", help="the deals eightoff lost in this JSON run")
    args = ap.parse_args(argv)
    if args.lost:
        with open(args.lost) as f:
            run = json.load(f)
        todo = {
            code: [row[0] for row in per["eightoff"] if row[1] == "unsolvable"]
            for code, per in run.items()
        }
    else:
        deals = parse_range(args.deals)
        todo = {code: deals for code in args.variants.split(",")}
    failed = 0
    for code, numbers in todo.items():
        rules = VARIANTS[code].rules
        won, refused = 0, []
        for number in numbers:
            position = pysol_deal(number, rules)
            line = fcs_line(position, args.preset, args.states)
            if line is None:
                continue
            won += 1
            why = refusal(position, line)
            if why is not None:
                refused.append(f"{number}: {why}")
        if args.lost:  # every win of a deal eightoff lost is a clash, unless refused here
            failed += won - len(refused)
            what = f"{len(numbers)} deals eightoff lost"
        else:
            failed += len(refused)
            what = args.deals
        print(f"{code} {what}, -l {args.preset}: {won} won, {len(refused)} refused here")
        for item in refused[:5]:
            print(f"  {item}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
