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
import re
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

from eightoff.argtypes import Parser as _Parser
from eightoff.argtypes import directory, int_in, seconds
from eightoff.argtypes import error_line as error_line
from eightoff.codes import GameCode
from eightoff.errors import EightOffError
from eightoff.formats import (
    move_from_json,
    position_to_fcs,
    position_to_json,
)
from eightoff.game import Game
from eightoff.moves import IllegalMoveError, InvalidMoveError, Move
from eightoff.numbers import InvalidNumberError, json_int
from eightoff.position import Position
from eightoff.rules import OPTIONS, PRESETS, Rules, preset
from eightoff.sources import load_source

SOURCE_HELP = "a game code (EO1-C8-AAAAAFA), pysol:N, or the path of an fc-solve board file"

MAX_COUNT: Final = 2**63 - 1  # node limits: the C core and SQLite count in 64 bits
MAX_MEMORY_MIB: Final = 1 << 20  # --memory: a TiB of search tables at most
DEFAULT_MEMORY_MIB: Final = 1024  # eightoff.solver.result.DEFAULT_MEMORY (a test holds them equal)
MAX_WORKERS: Final = 1024  # local survey processes
MAX_MOVES_BYTES: Final = 8 * 2**20  # a moves file: 10,000 moves as JSON objects need < 1 MiB
MAX_MOVES_DEPTH: Final = 4  # a list of moves, a move object, a place list: 3 levels


class CliError(EightOffError):
    """Bad input found by a subcommand: reported as one line, exit status 2."""


@contextmanager
def needs_extra(extra: str, face: str) -> Iterator[None]:
    """Within: a package of ``face`` that is not installed stops the command with one
    line naming the extra that installs it (``eightoff[tui]``), not a traceback."""
    try:
        yield
    except ModuleNotFoundError as exc:
        package = (exc.name or "eightoff").partition(".")[0]
        if package == "eightoff":  # a module of ours missing is a bug: let it show
            raise
        raise CliError(
            f"{face} needs {package}, which is not installed: install eightoff[{extra}] "
            f"(pip install 'eightoff[{extra}]')"
        ) from None


# -- rule options shared by subcommands --------------------------------------------------


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules PRESET`` and one flag per rule option (from :data:`OPTIONS`) to ``parser``."""
    g = parser.add_argument_group(
        "rules", "the variant, where the source does not fix it (a game code fixes all)"
    )
    g.add_argument("--rules", metavar="PRESET", help=f"a preset: {', '.join(PRESETS)}")
    for option in OPTIONS:
        if isinstance(option.default, bool):
            g.add_argument(
                option.flag, action=argparse.BooleanOptionalAction, default=None, help=option.help
            )
        else:
            values = [option.to_json(v) for v in option.values]
            kind: Any = type(values[0])
            if kind is int:  # ASCII digits only, as every number option
                kind = int_in(min(values), max(values))
            g.add_argument(option.flag, type=kind, choices=values, help=option.help)


def rules_from_args(args: argparse.Namespace) -> Rules | None:
    """The rules the options name, or ``None`` when no rule option was given."""
    options = {
        o.name: getattr(args, o.name) for o in OPTIONS if getattr(args, o.name, None) is not None
    }
    name = getattr(args, "rules", None)
    if name is None and not options:
        return None
    return preset("standard" if name is None else name).with_options(**options)


# -- numeric options ---------------------------------------------------------------------


def add_search_options(parser: argparse.ArgumentParser, *, nodes_flag: str, each: str) -> None:
    """The solver's limits and ``--optimal``, as ``solve`` and ``survey`` take them;
    ``each`` says what a limit applies to (" per deal")."""
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=60.0,
        metavar="S",
        help=f"seconds to search{each} (default 60; 0: no limit)",
    )
    parser.add_argument(
        nodes_flag,
        type=int_in(1, MAX_COUNT),
        metavar="N",
        help=f"positions to expand at most{each} (default: no limit)",
    )
    parser.add_argument(
        "--memory",
        type=int_in(1, MAX_MEMORY_MIB),
        metavar="MIB",
        help=f"MiB of search tables{each} (default {DEFAULT_MEMORY_MIB}; past it the proof "
        "goes on one foundation layer at a time, files in a temporary directory, but with "
        "--optimal; past that, unknown)",
    )
    parser.add_argument(
        "--layers-dir",
        type=directory,
        metavar="DIR",
        help=f"keep the proof by layers' files in DIR{each}: a run stopped by its time limit, "
        "Ctrl-C or a kill goes on from its last finished layer when run again with the same "
        "DIR (for proofs longer than one sitting; not with --optimal)",
    )
    parser.add_argument(
        "--optimal", action="store_true", help="find and prove the shortest solution (slow)"
    )


def mebibytes(mib: int | None) -> int | None:
    """``--memory``'s MiB as bytes (``None``: the solver's default)."""
    return None if mib is None else mib << 20


def _check_repeats(argv: Sequence[str]) -> None:
    """Refuse an option given twice (``--cells 4 --cells 2``, ``--take-back
    --no-take-back``): argparse would silently keep the last."""
    seen: dict[str, str] = {}
    for token in argv:
        if token == "--":
            break
        if not token.startswith("--") or token in ("--help",):
            continue
        flag = token.partition("=")[0]
        key = "--" + flag[2:].removeprefix("no-")
        if key in seen:
            also = "" if seen[key] == flag else f" (also as {seen[key]})"
            raise CliError(f"option {flag} given twice{also}")
        seen[key] = flag


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
        "target; 0 the foundations; arrows and Enter too; F1 lists every key). Without a code "
        "the game left last time resumes, else a winnable deal is dealt; with a code, the game "
        "left last time is kept until you move in the new one. "
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
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_search_options(p, nodes_flag="--nodes", each="")
    add_rule_options(p)
    p.set_defaults(handler=_cmd_solve)

    p = sub.add_parser(
        "survey",
        help="solve a range of deals into an SQLite database ('survey report' summarizes it)",
        description="Solve every deal of RANGE (1-100000, pysol:1-2000, 1,5,9-12) not yet in "
        "FILE, on every local core or a Dask cluster; re-running resumes. "
        "See also: eightoff survey report --help, eightoff survey export --help, "
        "eightoff survey verdicts --help.",
    )
    p.add_argument("range", metavar="RANGE", help="deals to solve, e.g. 1-100000 or pysol:1-2000")
    p.add_argument("--db", required=True, metavar="FILE", help="the survey database (SQLite)")
    p.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        metavar="N",
        help="local processes (default: all cores)",
    )
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask cluster at tcp://HOST:PORT")
    add_search_options(p, nodes_flag="--node-limit", each=" per deal")
    p.add_argument("--redo-unknown", action="store_true", help="retry deals left unknown")
    add_rule_options(p)
    p.set_defaults(handler=_cmd_survey)

    return parser


def build_report_parser() -> argparse.ArgumentParser:
    """The parser of ``eightoff survey report`` (a subcommand of ``survey``)."""
    p = _Parser(
        prog="eightoff survey report",
        description="Summarize a survey database: verdicts, winnability with a 95% interval, "
        "distributions, the unsolvable deals; one report per rule set unless rule options "
        "pick one.",
    )
    p.add_argument("--db", required=True, metavar="FILE", help="the survey database (SQLite)")
    p.add_argument("--plot", metavar="FILE.png", help="also write histograms to this PNG file")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print the atlas page (docs/atlas.md): the commands that make the survey again, "
        "winnability by variant, proven-optimal lengths, published figures",
    )
    p.add_argument(
        "--atlas",
        metavar="FILE.json",
        help="with --markdown: keep each group's figures in this file (docs/atlas.json); the "
        "database's groups replace theirs, the others stay, the page shows them all",
    )
    add_rule_options(p)
    p.set_defaults(handler=_cmd_survey_report)
    return p


def build_export_parser() -> argparse.ArgumentParser:
    """The parser of ``eightoff survey export`` (a subcommand of ``survey``)."""
    p = _Parser(
        prog="eightoff survey export",
        description="Write a survey database's rows to a CSV or Parquet file, one row per "
        "deal in readable columns (for pandas, polars or a spreadsheet); rule options pick "
        "one rule set. Parquet needs pyarrow: pip install 'eightoff[parquet]'.",
    )
    p.add_argument("out", metavar="OUT", help="the file to write (.csv, .parquet), or - for CSV")
    p.add_argument("--db", required=True, metavar="FILE", help="the survey database (SQLite)")
    p.add_argument(
        "--format", choices=("csv", "parquet"), help="default: from OUT's name (.csv, .parquet)"
    )
    add_rule_options(p)
    p.set_defaults(handler=_cmd_survey_export)
    return p


def build_verdicts_parser() -> argparse.ArgumentParser:
    """The parser of ``eightoff survey verdicts`` (a subcommand of ``survey``)."""
    p = _Parser(
        prog="eightoff survey verdicts",
        description="Write the verdicts file the package ships (src/eightoff/data/"
        "verdicts.json) from a survey database: per rule set, the surveyed eightoff deals "
        "(from the lowest up to the first gap), how many were won, lost and left unknown, "
        "and the numbers of the rarer verdict and of the unknown deals.",
    )
    p.add_argument("out", metavar="OUT.json", help="the verdicts file to write")
    p.add_argument("--db", required=True, metavar="FILE", help="the survey database (SQLite)")
    p.add_argument(
        "--merge",
        action="store_true",
        help="keep the rule sets OUT.json holds that the database does not (the database's "
        "own replace theirs, but where it holds only deals a rule set left unknown: those "
        "are settled there)",
    )
    p.set_defaults(handler=_cmd_survey_verdicts)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        _check_repeats(argv)
        if argv[:2] == ["survey", "report"]:
            parser, argv = build_report_parser(), argv[2:]
        elif argv[:2] == ["survey", "export"]:
            parser, argv = build_export_parser(), argv[2:]
        elif argv[:2] == ["survey", "verdicts"]:
            parser, argv = build_verdicts_parser(), argv[2:]
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
    from eightoff.solver.cli import command  # import lazily: keeps start-up fast

    return command(
        args.source,
        rules_from_args(args),
        seconds=args.time_limit or None,
        nodes=args.nodes,
        memory=mebibytes(args.memory),
        layers_dir=args.layers_dir,
        optimal=args.optimal,
        as_json=args.json,
    )


def _cmd_survey(args: argparse.Namespace) -> int:
    from eightoff.survey import command  # import lazily: keeps start-up fast

    return command(
        args.db,
        args.range,
        rules_from_args(args),
        workers=args.workers,
        dask=args.dask,
        seconds=args.time_limit or None,
        nodes=args.node_limit,
        memory=mebibytes(args.memory),
        layers_dir=args.layers_dir,
        optimal=args.optimal,
        redo_unknown=args.redo_unknown,
    )


def _cmd_survey_report(args: argparse.Namespace) -> int:
    from eightoff.survey import report_command

    with needs_extra("survey", "survey report --plot"):
        return report_command(
            args.db,
            rules_from_args(args),
            plot=args.plot,
            markdown=args.markdown,
            atlas=args.atlas,
        )


def _cmd_survey_export(args: argparse.Namespace) -> int:
    from eightoff.export import command

    return command(args.db, args.out, args.format, rules_from_args(args))


def _cmd_survey_verdicts(args: argparse.Namespace) -> int:
    from eightoff.verdicts import build

    made = build(args.db, args.out, merge=args.merge)
    for v in made.variants.values():
        print(f"{v.rules.describe()}: deals {v.low}-{v.high}, {v.odds().text()}")
    print(f"wrote {args.out}: {len(made.variants)} rule set(s)")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
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


def _read_moves(where: str) -> list[Any]:
    if where == "-":
        text = sys.stdin.read(MAX_MOVES_BYTES + 1)
        shown = "standard input"
    else:
        text = _read_text_file(where)
        shown = where
    if len(text) > MAX_MOVES_BYTES:
        raise CliError(f"moves in {shown} are longer than {MAX_MOVES_BYTES // 2**20} MiB")
    depth = _json_depth(text)
    if depth > MAX_MOVES_DEPTH:
        raise CliError(
            f"moves in {shown} nest {depth} levels deep; a list of moves needs at most "
            f"{MAX_MOVES_DEPTH - 1}"
        )
    try:
        data = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise CliError(f"moves in {shown} are not valid JSON: {exc}") from None
    except InvalidNumberError as exc:
        raise CliError(f"moves in {shown}: {exc}") from None
    if not isinstance(data, list):
        raise CliError(f"moves in {shown} must be a JSON list, not {type(data).__name__}")
    return data


def _read_text_file(where: str) -> str:
    """A moves file's text: a regular UTF-8 file of at most MAX_MOVES_BYTES."""
    try:
        info = os.stat(where)
        if not stat.S_ISREG(info.st_mode):
            raise CliError(f"moves file {where!r} is not a regular file")
        if info.st_size > MAX_MOVES_BYTES:
            raise CliError(f"moves file {where!r} is larger than {MAX_MOVES_BYTES // 2**20} MiB")
        with open(where, "rb") as f:
            return f.read(MAX_MOVES_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        raise CliError(f"no such moves file {where!r}") from None
    except OSError as exc:
        raise CliError(f"cannot read moves file {where!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"moves file {where!r} is not UTF-8 text ({exc.reason})") from None


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def _json_depth(text: str) -> int:
    """How deep JSON text nests lists and objects (text in strings does not count)."""
    depth = deepest = 0
    for m in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _parse_move(index: int, item: Any) -> Move:
    try:
        if isinstance(item, str):
            return Move.from_text(item)
        return move_from_json(item)
    except InvalidMoveError as exc:
        raise CliError(f"move {index}: {exc}") from None


__all__ = ["SOURCE_HELP", "CliError", "add_rule_options", "build_parser", "main", "rules_from_args"]
