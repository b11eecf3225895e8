"""The ``eightoff`` command (also ``python -m eightoff``).

::

    eightoff deal SOURCE [--format text|fcs|json] [rule options]
    eightoff replay SOURCE --moves FILE|- [rule options]
    eightoff play [rule options]
    eightoff solve SOURCE [--json] [--time-limit S] [--nodes N] [--memory MIB]
                   [--layers-dir DIR] [--optimal] [rule options]
    eightoff serve [--host H] [--port P] [--no-browser] [--pool FILE] [--workers N]
                   [--allowed-host NAME] [--body-timeout S] [--max-connections N]
    eightoff survey RANGE --db FILE [--workers N | --dask ADDRESS] [--time-limit S]
                    [--node-limit N] [--memory MIB] [--layers-dir DIR] [--optimal]
                    [--redo-unknown] [rule options]
    eightoff survey report --db FILE [--plot FILE.png] [--markdown [--atlas FILE.json]]
                           [rule options]
    eightoff survey export --db FILE [--format csv|parquet] OUT|- [rule options]
    eightoff survey verdicts --db FILE [--merge] OUT.json

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

Adding a subcommand (one block in :func:`build_parser` plus a handler; SOURCE and the
rule options come with :func:`~eightoff.cli.options.add_command` unless it is told not,
and the handler's docstring gives its help line and description)::

    p = add_command(sub, "solve", _cmd_solve)
    p.add_argument("--json", action="store_true", help="print one JSON object")

    def _cmd_solve(args: argparse.Namespace) -> int:
        '''solve a deal or position (the list of commands' help)

        Solve SOURCE under its rules. … (its --help's description)'''
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
from typing import Any

from eightoff.argtypes import Parser, error_line
from eightoff.cli.moves import parse_move, read_moves
from eightoff.cli.options import (
    CliError,
    add_command,
    add_rule_options,
    add_search_options,
    check_repeats,
    needs_extra,
    rules_from_args,
    search_limits,
)
from eightoff.cli.survey import SUBCOMMANDS, add_survey_command, build_subparser
from eightoff.codes import GameCode
from eightoff.errors import EightOffError
from eightoff.formats import move_from_json, position_to_fcs, position_to_json
from eightoff.game import Game
from eightoff.moves import IllegalMoveError, InvalidMoveError
from eightoff.position import Position
from eightoff.rules import preset
from eightoff.sources import load_source

# -- the parser ------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``eightoff`` argument parser with every subcommand."""
    parser = Parser(prog="eightoff", description="Eight Off solitaire.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = add_command(sub, "deal", _cmd_deal)
    p.add_argument(
        "--format",
        choices=("text", "fcs", "json"),
        default="text",
    )
    p = add_command(sub, "replay", _cmd_replay)
    p.add_argument(
        "--moves",
        required=True,
        metavar="FILE",
        help="a JSON list of moves ({card, from, to, count} objects or notation like "
        '"3a"); - reads standard input',
    )
    p = add_command(sub, "play", _cmd_play, source=False)
    p.add_argument("code", nargs="?", help="a game code to play (default: a new random deal)")
    p.add_argument(
        "--text", action="store_true", help="print the deal instead of starting the terminal game"
    )
    p = add_command(sub, "serve", _cmd_serve, source=False, rules=False)
    from eightoff.web.serve import add_arguments as add_serve_arguments

    add_serve_arguments(p)
    p = add_command(sub, "solve", _cmd_solve)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_search_options(p, nodes_flag="--nodes", each="")
    add_survey_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        check_repeats(argv)
        if argv[:1] == ["survey"] and argv[1:2] and argv[1] in SUBCOMMANDS:
            parser, argv = build_subparser(argv[1]), argv[2:]
        else:
            parser = build_parser()
        args = parser.parse_args(argv)
    except CliError as exc:
        print(error_line(str(exc)), file=sys.stderr)
        return 2
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
        print(error_line(str(exc) or type(exc).__name__), file=sys.stderr)
        return 2
    return status


# -- handlers ----------------------------------------------------------------------------


def _cmd_deal(args: argparse.Namespace) -> int:
    """print a deal or position

    Print a deal."""
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
    """apply a JSON list of moves and print the result as JSON

    Apply moves in order; print {status, applied, position, error}. Exit 0 when every
    move was legal, 1 at the first illegal move, 2 on bad input."""
    start, code = load_source(args.source, rules_from_args(args))
    items = read_moves(args.moves)
    moves = [parse_move(i, item) for i, item in enumerate(items)]
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
    """play in the terminal

    Play Eight Off in the terminal (keys 1-8 and a-h pick a source, then a target; 0
    the foundations; arrows and Enter too; F1 lists every key). Without a code the game
    left last time resumes, else a winnable deal is dealt; with a code, the game left
    last time is kept until you move in the new one. Off a terminal, or with --text,
    print the deal and how to play it move by move."""
    rules = rules_from_args(args)
    if args.code is None:
        code = GameCode.random(rules or preset("standard"))
    else:
        code = GameCode.parse(args.code)
        if rules is not None and rules != code.rules:
            raise CliError("a game code fixes its rules: leave out the rule options")
    if not args.text and sys.stdin.isatty() and sys.stdout.isatty():
        with needs_extra("tui", "the terminal game"):
            from eightoff.tui import run  # import lazily: Textual is only needed here

            # No code: the game left last time resumes, or a winnable deal as the settings say.
            run(code if args.code is not None else None, rules)
        return 0
    position = code.position()
    print(_heading(position, code))
    print(position)
    print(
        f"""
Play it in the terminal with `eightoff play {code}`, in the browser with
`eightoff serve` (in either game you can also enter the code under New game), or move by
move from the command line:

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
    """solve a deal or position: a winning line, or a proof there is none

    Solve SOURCE under its rules. Verdicts: solved, unsolvable (a complete search
    found no win: a proof), unknown (a limit was hit). --json prints one object
    {"verdict", "moves", "length", "optimal", "nodes", "seconds"}. Exit 0 for any
    verdict, 2 on bad input."""
    from eightoff.solver.cli import command  # import lazily: keeps start-up fast

    return command(args.source, rules_from_args(args), as_json=args.json, **search_limits(args))


def _cmd_serve(args: argparse.Namespace) -> int:
    """play in the browser: run the web game and open it

    Run the web game (a stateless JSON API and the page) with uvicorn and open it in
    the browser."""
    from eightoff.web.serve import serve  # imports uvicorn and FastAPI only when serving

    with needs_extra("web", "the web game"):
        return serve(
            args.host,
            args.port,
            open_browser=not args.no_browser,
            pool=args.pool,
            workers=args.workers,
            allowed_hosts=args.allowed_host,
            body_timeout=args.body_timeout,
            max_connections=args.max_connections,
        )


def _heading(position: Position, code: GameCode | None) -> str:
    name = f"Game {code}" if code is not None else "Position"
    return f"{name} — {position.rules.describe()}"


__all__ = ["CliError", "add_rule_options", "build_parser", "main", "rules_from_args"]
