"""The ``eightoff`` command (also ``python -m eightoff``).

::

    eightoff deal SOURCE [--format text|fcs|json] [rule options]
    eightoff replay SOURCE --moves FILE|- [rule options]
    eightoff play [rule options]
    eightoff solve SOURCE [--json] [--time-limit S] [--nodes N] [--optimal] [rule options]
    eightoff serve [--host H] [--port P] [--no-browser] [--pool FILE] [--workers N]
    eightoff survey RANGE --db FILE [--workers N | --dask ADDRESS] [--time-limit S] [rule options]
    eightoff survey report --db FILE [--plot FILE.png] [rule options]

SOURCE is a game code (``EO1-C8-AAAAAFA``), ``pysol:N`` (PySolFC's Eight Off
deal N) or the path of an fc-solve board file. Rule options (``--rules PRESET``,
``--cells``, ``--empty-column``, ``--build``, ``--layout``, ``--group-moves``,
``--take-back/--no-take-back``) choose the variant where the source does not
fix it: a game code fixes every rule itself.

``replay`` reads a JSON list of moves, each a JSON move
(``{"card": "7H", "from": ["column", 3], "to": ["cell", 2], "count": 1}``) or
a move in the compact notation (``"3a"``), applies them in order and prints one
JSON object ``{"status", "applied", "position", "error"}``: ``error`` is ``null``
or ``{"index": i, "move": …, "reason": "…"}`` for the first illegal move
(``index`` counts from 0). Exit status: 0 every move legal, 1 an illegal move,
2 bad input. Every bad input prints one line ``eightoff: error: …`` on stderr
and exits 2.

Adding a subcommand (one block in :func:`build_parser` plus a handler)::

    p = sub.add_parser("solve", help="…", description="…")
    p.add_argument("source", help=SOURCE_HELP)
    add_rule_options(p)
    p.set_defaults(handler=_cmd_solve)

    def _cmd_solve(args: argparse.Namespace) -> int:
        from eightoff.solver import solve  # import lazily: keeps start-up fast
        position, code = load_source(args.source, rules_from_args(args))
        ...
        return 0

A handler returns the exit status; raising :class:`CliError` (or any
:class:`~eightoff.errors.EightOffError` or ``OSError``) reports bad input as one
line and exits 2; any other exception is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from eightoff.codes import GameCode
from eightoff.errors import EightOffError
from eightoff.formats import (
    move_from_json,
    position_to_fcs,
    position_to_json,
)
from eightoff.game import Game
from eightoff.moves import IllegalMoveError, InvalidMoveError, Move
from eightoff.position import Position
from eightoff.rules import PRESETS, Build, EmptyColumn, GroupMoves, Layout, Rules, preset
from eightoff.sources import load_source

SOURCE_HELP = "a game code (EO1-C8-AAAAAFA), pysol:N, or the path of an fc-solve board file"


class CliError(EightOffError):
    """Bad input found by a subcommand: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line ``eightoff: error: …`` (exit 2)."""

    def error(self, message: str) -> NoReturn:
        hint = f" (see '{self.prog} --help')"
        self.exit(2, f"eightoff: error: {message}{hint}\n")


# -- rule options shared by subcommands --------------------------------------------------

_RULE_FLAGS = ("cells", "empty_column", "build", "layout", "group_moves", "take_back")


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules PRESET`` and one flag per rule option to ``parser``."""
    g = parser.add_argument_group(
        "rules", "the variant, where the source does not fix it (a game code fixes all)"
    )
    g.add_argument("--rules", metavar="PRESET", help=f"a preset: {', '.join(PRESETS)}")
    g.add_argument("--cells", type=int, choices=(8, 4, 2), help="number of cells")
    g.add_argument(
        "--empty-column", choices=[e.value for e in EmptyColumn], help="what an empty column takes"
    )
    g.add_argument("--build", choices=[b.value for b in Build], help="how columns build down")
    g.add_argument("--layout", choices=[v.value for v in Layout], help="how the cards are dealt")
    g.add_argument(
        "--group-moves", choices=[m.value for m in GroupMoves], help="how many cards move as one"
    )
    g.add_argument(
        "--take-back",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="allow taking cards back from the foundations",
    )


def rules_from_args(args: argparse.Namespace) -> Rules | None:
    """The rules the options name, or ``None`` when no rule option was given."""
    options = {k: getattr(args, k) for k in _RULE_FLAGS if getattr(args, k, None) is not None}
    name = getattr(args, "rules", None)
    if name is None and not options:
        return None
    return preset(name or "standard").with_options(**options)


# -- the parser ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``eightoff`` argument parser with every subcommand."""
    parser = _Parser(prog="eightoff", description="Eight Off solitaire.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("deal", help="print a deal or position", description="Print a deal.")
    p.add_argument("source", help=SOURCE_HELP)
    p.add_argument(
        "--format",
        choices=("text", "fcs", "json"),
        default="text",
        help="text (default), fc-solve board text, or JSON",
    )
    add_rule_options(p)
    p.set_defaults(handler=_cmd_deal)

    p = sub.add_parser(
        "replay",
        help="apply a JSON list of moves and print the result as JSON",
        description="Apply moves in order; print {status, applied, position, error}. "
        "Exit 0 when every move was legal, 1 at the first illegal move, 2 on bad input.",
    )
    p.add_argument("source", help=SOURCE_HELP)
    p.add_argument(
        "--moves",
        required=True,
        metavar="FILE",
        help="a JSON list of moves ({card, from, to, count} objects or notation like "
        '"3a"); - reads standard input',
    )
    add_rule_options(p)
    p.set_defaults(handler=_cmd_replay)

    p = sub.add_parser(
        "play",
        help="play in the terminal",
        description="Play Eight Off in the terminal (keys 1-8 and a-h pick a source, then a "
        "target; ^ the foundations; Enter the smart move; u/r undo/redo; ? a hint; q quits). "
        "Off a terminal, or with --text, print the deal and how to play it move by move.",
    )
    p.add_argument("code", nargs="?", help="a game code to play (default: a new random deal)")
    p.add_argument(
        "--text", action="store_true", help="print the deal instead of starting the terminal game"
    )
    add_rule_options(p)
    p.set_defaults(handler=_cmd_play)

    p = sub.add_parser(
        "serve",
        help="play in the browser: run the web game and open it",
        description="Run the web game (a stateless JSON API and the page) with uvicorn "
        "and open it in the browser.",
    )
    from eightoff.web.serve import add_arguments as add_serve_arguments

    add_serve_arguments(p)
    p.set_defaults(handler=_cmd_serve)

    p = sub.add_parser(
        "solve",
        help="solve a deal or position: a winning line, or a proof there is none",
        description="Solve SOURCE under its rules. Verdicts: solved, unsolvable (a complete "
        "search found no win: a proof), unknown (a limit was hit). --json prints one object "
        '{"verdict", "moves", "length", "optimal", "nodes", "seconds"}. Exit 0 for any '
        "verdict, 2 on bad input.",
    )
    p.add_argument("source", help=SOURCE_HELP)
    from eightoff.solver.cli import add_arguments as add_solve_arguments

    add_solve_arguments(p)
    add_rule_options(p)
    p.set_defaults(handler=_cmd_solve)

    p = sub.add_parser(
        "survey",
        help="solve a range of deals into an SQLite database ('survey report' summarizes it)",
        description="eightoff survey RANGE --db FILE: solve every deal of RANGE (1-100000, "
        "pysol:1-2000, 1,5,9-12) not yet in FILE, on every local core or a Dask cluster; "
        "re-running resumes. eightoff survey report --db FILE [--plot FILE.png]: verdicts, "
        "winnability with a 95% interval, distributions, the unsolvable deals.",
    )
    p.add_argument("range", metavar="RANGE|report", help="deals to solve, or 'report'")
    p.add_argument("--db", required=True, metavar="FILE", help="the survey database (SQLite)")
    p.add_argument("--workers", type=int, metavar="N", help="local processes (default: all cores)")
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask cluster at tcp://HOST:PORT")
    p.add_argument(
        "--time-limit", type=float, default=60.0, metavar="S", help="per deal (default 60; 0: none)"
    )
    p.add_argument("--node-limit", type=int, metavar="N", help="positions per deal (default: none)")
    p.add_argument("--optimal", action="store_true", help="prove the shortest solutions (slow)")
    p.add_argument("--redo-unknown", action="store_true", help="retry deals left unknown")
    p.add_argument("--plot", metavar="FILE.png", help="report: also write histograms")
    add_rule_options(p)
    p.set_defaults(handler=_cmd_survey)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already reported
        return exc.code if isinstance(exc.code, int) else 2
    try:
        status: int = args.handler(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the flush at exit cannot fail again
        return 1
    except (EightOffError, OSError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        print(f"eightoff: error: {message}", file=sys.stderr)
        return 2
    return status


# -- handlers ----------------------------------------------------------------------------


def _cmd_deal(args: argparse.Namespace) -> int:
    position, code = load_source(args.source, rules_from_args(args))
    if args.format == "fcs":
        sys.stdout.write(position_to_fcs(position))
    elif args.format == "json":
        data = {"code": None if code is None else str(code)} | position_to_json(position)
        print(json.dumps(data))
    else:
        print(_heading(position, code))
        print(position)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    start, code = load_source(args.source, rules_from_args(args))
    items = _read_moves(args.moves)
    moves = [_parse_move(i, item) for i, item in enumerate(items)]
    game = Game(code, position=start)
    error: dict[str, Any] | None = None
    for i, (item, move) in enumerate(zip(items, moves, strict=True)):
        try:
            if isinstance(item, dict):
                move_from_json(item, game.position)  # checks "card" against the position
            game.play(move)
        except (InvalidMoveError, IllegalMoveError) as exc:
            error = {"index": i, "move": item, "reason": str(exc)}
            break
    result = {
        "status": game.status.value,
        "applied": len(game.actions),
        "position": position_to_json(game.position),
        "error": error,
    }
    print(json.dumps(result))
    return 0 if error is None else 1


def _cmd_play(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.code is None:
        code = GameCode.random(rules or preset("standard"))
    else:
        code = GameCode.parse(args.code)
        if rules is not None and rules != code.rules:
            raise CliError("a game code fixes its rules: leave out the rule options")
    if not args.text and sys.stdin.isatty() and sys.stdout.isatty():
        from eightoff.tui import run  # import lazily: Textual is only needed here

        run(code)
        return 0
    position = code.position()
    print(_heading(position, code))
    print(position)
    print(
        f"""
Play it in the terminal with `eightoff play {code}`, in the browser with
`eightoff serve` (enter the code under New game), or move by move from the command line:

  eightoff deal {code}                       show this deal again
  echo '["3a", "a5", "35x2", "1^"]' > moves.json     your moves, in order
  eightoff replay {code} --moves moves.json  apply them; prints the position as JSON
  eightoff solve {code}                      the solver's winning line

Moves: columns 1-8, cells a-h, ^ the foundations; "3a" moves column 3's card to
cell a, "a5" cell a to column 5, "3^" to its foundation, "35x2" a run of 2 cards.
The same moves as JSON: {{"from": ["column", 3], "to": ["cell", 1]}}.
Win by bringing all 52 cards home, ace to king in each suit."""
    )
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from eightoff.solver.cli import command

    return command(args, rules_from_args(args))


def _cmd_survey(args: argparse.Namespace) -> int:
    from eightoff.survey import command  # import lazily: keeps start-up fast

    return command(args, rules_from_args(args))


def _cmd_serve(args: argparse.Namespace) -> int:
    from eightoff.web.serve import serve  # imports uvicorn and FastAPI only when serving

    return serve(args)


def _heading(position: Position, code: GameCode | None) -> str:
    name = f"Game {code}" if code is not None else "Position"
    return f"{name} — {position.rules.describe()}"


def _read_moves(where: str) -> list[Any]:
    if where == "-":
        text = sys.stdin.read()
        shown = "standard input"
    else:
        try:
            text = Path(where).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CliError(f"no such moves file {where!r}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CliError(f"cannot read moves file {where!r}: {exc}") from None
        shown = where
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"moves in {shown} are not valid JSON: {exc}") from None
    if not isinstance(data, list):
        raise CliError(f"moves in {shown} must be a JSON list, not {type(data).__name__}")
    return data


def _parse_move(index: int, item: Any) -> Move:
    try:
        if isinstance(item, str):
            return Move.from_text(item)
        return move_from_json(item)
    except InvalidMoveError as exc:
        raise CliError(f"move {index}: {exc}") from None


__all__ = ["SOURCE_HELP", "CliError", "add_rule_options", "build_parser", "main", "rules_from_args"]
