"""What several ``eightoff`` subcommands share: the rule options, the solver's limits,
the numbers' bounds, and how bad input is reported (:class:`CliError`)."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

from eightoff.argtypes import directory, int_in, seconds
from eightoff.errors import EightOffError
from eightoff.rules import OPTIONS, PRESETS, Rules, preset

SOURCE_HELP = "a game code (EO1-C8-AAAAAFA), pysol:N, or the path of an fc-solve board file"

MAX_COUNT: Final = 2**63 - 1  # node limits: the C core and SQLite count in 64 bits
MAX_MEMORY_MIB: Final = 1 << 20  # --memory: a TiB of search tables at most
DEFAULT_MEMORY_MIB: Final = 1024  # eightoff.solver.result.DEFAULT_MEMORY (a test holds them equal)
MAX_WORKERS: Final = 1024  # local survey processes


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
        dest="nodes",
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


def described(handler: Callable[[argparse.Namespace], int]) -> tuple[str, str]:
    """A subcommand's help and description: its handler's docstring, the first line and
    the rest."""
    summary, _, rest = inspect.cleandoc(handler.__doc__ or "").partition("\n\n")
    return summary, rest or summary


def search_limits(args: argparse.Namespace) -> dict[str, Any]:
    """The solver's limits and ``--optimal`` as :func:`add_search_options` read them, by
    the names the solving commands take them (``limit``, ``layers_dir``, ``optimal``)."""
    from eightoff.solver.result import Limit  # import lazily: keeps start-up fast

    limit = Limit(nodes=args.nodes, seconds=args.time_limit or None, memory=mebibytes(args.memory))
    return {"limit": limit, "layers_dir": args.layers_dir, "optimal": args.optimal}


def add_command(
    sub: Any,
    name: str,
    handler: Callable[[argparse.Namespace], int],
    *,
    source: bool = True,
    rules: bool = True,
) -> argparse.ArgumentParser:
    """Add the subcommand ``name``, run by ``handler``, to ``sub``: the first line of the
    handler's docstring is its help in the list of commands, the rest its description;
    with ``source`` its first argument is SOURCE, with ``rules`` it takes the rule options."""
    summary, description = described(handler)
    p: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=description)
    if source:
        p.add_argument("source", help=SOURCE_HELP)
    if rules:
        add_rule_options(p)
    p.set_defaults(handler=handler)
    return p


def mebibytes(mib: int | None) -> int | None:
    """``--memory``'s MiB as bytes (``None``: the solver's default)."""
    return None if mib is None else mib << 20


def check_repeats(argv: Sequence[str]) -> None:
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


__all__ = [
    "DEFAULT_MEMORY_MIB",
    "MAX_WORKERS",
    "SOURCE_HELP",
    "CliError",
    "add_command",
    "add_rule_options",
    "add_search_options",
    "check_repeats",
    "described",
    "mebibytes",
    "needs_extra",
    "rules_from_args",
    "search_limits",
]
