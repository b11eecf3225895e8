"""``eightoff survey`` and its subcommands (``report``, ``export``, ``verdicts``): each
reads or writes a survey database (``--db FILE``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, Final

from eightoff.argtypes import Parser, int_in
from eightoff.cli.options import (
    MAX_WORKERS,
    add_command,
    add_rule_options,
    add_search_options,
    described,
    needs_extra,
    rules_from_args,
    search_limits,
)

DB_HELP = "the survey database (SQLite)"


def add_survey_command(sub: Any) -> None:
    """Add ``survey RANGE`` to the subcommands ``sub``."""
    p = add_command(sub, "survey", _cmd_survey, source=False)
    p.add_argument("range", metavar="RANGE", help="deals to solve, e.g. 1-100000 or pysol:1-2000")
    p.add_argument("--db", required=True, metavar="FILE", help=DB_HELP)
    p.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        metavar="N",
    )
    p.add_argument("--dask", metavar="ADDRESS", help="run on the Dask cluster at tcp://HOST:PORT")
    add_search_options(p, nodes_flag="--node-limit", each=" per deal")
    p.add_argument("--redo-unknown", action="store_true", help="retry deals left unknown")


def _parser(
    name: str,
    handler: Callable[[argparse.Namespace], int],
    out: tuple[str, str] | None = None,
    *,
    rules: bool = True,
) -> Parser:
    # ``eightoff survey NAME``'s parser, run by ``handler`` (its docstring: the
    # description), with ``--db FILE`` (after ``out``'s metavar and help: the file it
    # writes) and, with ``rules``, the rule options.
    p = Parser(prog=f"eightoff survey {name}", description=described(handler)[1])
    if out is not None:
        p.add_argument("out", metavar=out[0], help=out[1])
    p.add_argument("--db", required=True, metavar="FILE", help=DB_HELP)
    if rules:
        add_rule_options(p)
    p.set_defaults(handler=handler)
    return p


def build_subparser(name: str) -> argparse.ArgumentParser:
    """The parser of ``eightoff survey NAME``, one of :data:`SUBCOMMANDS` (each its own:
    ``survey`` itself takes a RANGE)."""
    if name == "report":
        p = _parser(name, _cmd_survey_report)
        p.add_argument("--plot", metavar="FILE.png", help="also write histograms to this PNG file")
        p.add_argument(
            "--markdown",
            action="store_true",
            help="print the atlas page (docs/atlas.md): the commands that make the survey "
            "again, winnability by variant, proven-optimal lengths, published figures",
        )
        p.add_argument(
            "--atlas",
            metavar="FILE.json",
            help="with --markdown: keep each group's figures in this file (docs/atlas.json); "
            "the database's groups replace theirs, the others stay, the page shows them all",
        )
    elif name == "export":
        p = _parser(
            name, _cmd_survey_export, ("OUT", "the file to write (.csv, .parquet), or - for CSV")
        )
        p.add_argument(
            "--format", choices=("csv", "parquet"), help="default: from OUT's name (.csv, .parquet)"
        )
    elif name == "verdicts":
        p = _parser(
            name, _cmd_survey_verdicts, ("OUT.json", "the verdicts file to write"), rules=False
        )
        p.add_argument(
            "--merge",
            action="store_true",
            help="keep the rule sets OUT.json holds that the database does not (the database's "
            "own replace theirs, but where it holds only deals a rule set left unknown: those "
            "are settled there)",
        )
    else:
        raise ValueError(f"no subcommand survey {name}")
    return p


def _given(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    # The options ``names`` as given, by the names the command takes them.
    return {name: getattr(args, name) for name in names}


def _cmd_survey(args: argparse.Namespace) -> int:
    """solve a range of deals into an SQLite database ('survey report' summarizes it)

    Solve every deal of RANGE (1-100000, pysol:1-2000, 1,5,9-12) not yet in FILE, on
    every local core or a Dask cluster; re-running resumes. See also: eightoff survey
    report --help, eightoff survey export --help, eightoff survey verdicts --help."""
    from eightoff.survey import command  # import lazily: keeps start-up fast

    options = _given(args, "workers", "dask", "redo_unknown")
    return command(args.db, args.range, rules_from_args(args), **options, **search_limits(args))


def _cmd_survey_report(args: argparse.Namespace) -> int:
    """summarize a survey database

    Summarize a survey database: verdicts, winnability with a 95% interval,
    distributions, the unsolvable deals; one report per rule set unless rule options
    pick one."""
    from eightoff.survey import report_command

    with needs_extra("survey", "survey report --plot"):
        options = _given(args, "plot", "markdown", "atlas")
        return report_command(args.db, rules_from_args(args), **options)


def _cmd_survey_export(args: argparse.Namespace) -> int:
    """write a survey database's rows to a CSV or Parquet file

    Write a survey database's rows to a CSV or Parquet file, one row per deal in
    readable columns (for pandas, polars or a spreadsheet); rule options pick one rule
    set. Parquet needs pyarrow: pip install 'eightoff[parquet]'."""
    from eightoff.export import command

    return command(args.db, args.out, args.format, rules_from_args(args))


def _cmd_survey_verdicts(args: argparse.Namespace) -> int:
    """write the verdicts file the package ships

    Write the verdicts file the package ships (src/eightoff/data/verdicts.json) from
    a survey database: per rule set, the surveyed eightoff deals (from the lowest up to
    the first gap), how many were won, lost and left unknown, and the numbers of the
    rarer verdict and of the unknown deals."""
    from eightoff.verdicts import build

    made = build(args.db, args.out, merge=args.merge)
    for v in made.variants.values():
        print(f"{v.rules.describe()}: deals {v.low}-{v.high}, {v.odds().text()}")
    print(f"wrote {args.out}: {len(made.variants)} rule set(s)")
    return 0


SUBCOMMANDS: Final = ("report", "export", "verdicts")
"""The subcommands of ``eightoff survey`` (:func:`build_subparser` makes their parsers)."""


__all__ = ["SUBCOMMANDS", "add_survey_command", "build_subparser"]
