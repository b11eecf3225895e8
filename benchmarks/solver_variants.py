"""eightoff's solver vs Freecell Solver on every rule variant, deal by deal, in one run.

    .venv/bin/python benchmarks/solver_variants.py [--deals 2001-3000]
        [--variants standard,forecell,alternate-2] [--solvers eightoff,eightoff-bf,fcs-lib]
        [--time-limit 10] [--nodes N] [--workers 2] [--block 100] [--json FILE]
        [--schedule FIELD=VALUE,...] [--baseline COMMIT]

The variants are the 24 of docs/atlas.md (``--variants all``): 8, 4 or 2 cells × Kings
or any card to an empty column × build in suit or alternating colours × Eight Off's or
Baker's Game's deal, each with its default group moves, named as game codes name them
(``C8``, ``C4-EA``, ``C2-EAB``; ``standard``, ``forecell``, ``alternate-2``,
``alternate``, ``easy`` and ``bakers`` name six of them), each given to fc-solve
with the options of the same game (see :func:`fcs_options`).

Each solver gets the same PySolFC deals under each variant's rules, the same time
limit and the same worker processes, and the solvers take turns on blocks of
``--block`` deals, so that a change in the machine's load falls on all of them (the
order turns as well: each block starts with the next solver):

* ``eightoff``    — :func:`eightoff.solver.solve` in-process (the portfolio: best-first,
  then best-first and its helpers by turns, Freecell Solver's first scan among them,
  see ``solver/native/portfolio.c``);
* ``eightoff-default`` — the same with the default schedule, where ``--schedule
  FIELD=VALUE,...`` (fields of :class:`eightoff.solver.Schedule`) changes ``eightoff``'s:
  a schedule and the tuned one side by side, no rebuilding;
* ``eightoff-bf`` — the same with the weighted best-first search alone (the solver
  before the portfolio: ``eightoff.solver.core.PORTFOLIO = False``);
* ``fcs-lib``     — Freecell Solver's ``toons-for-twenty-somethings`` preset in-process,
  through the ``freecell-solver`` cffi binding (suspended every 2,000 iterations to
  check the time limit);
* ``fcs-proc``    — the same preset as one ``fc-solve`` process per deal (start included);
* ``fcs-lib:P``, ``fcs-proc:P`` — the same with fc-solve's preset ``P`` instead (``-l P``:
  ``lg`` looking-glass, ``as`` amateur-star, ``ct`` conspiracy-theory, ...), whose scans
  move sequences as fc-solve's meta-moves do: a peer's best preset on deals the toons
  one does not win (its "unsolvable" is no proof where the preset prunes: ``-sp r:tf``);
* ``eightoff-base`` — with ``--baseline COMMIT``: that commit's whole package (from ``git
  archive`` into a temporary directory, its C code compiled as setup.py does) through its
  public :func:`eightoff.solver.solve`, in a process of its own beside each worker
  (``benchmarks/solve_worker.py``): the solver "as it was" in the same run;
* ``eightoff-proc`` — this package the same way, in a process of its own: beside
  ``eightoff-base``, the two builds measured alike.

Times are CPU seconds of the solve (for ``fcs-proc``, of the child process), so the
figures hold up on a loaded machine better than wall time does. Lengths are in
single-card moves (fc-solve's move of n cards counts 2n - 1).

The report gives, per variant and solver, the verdicts, Σ, median, p95 and max time
and the median length; then the slow tail: among the deals where eightoff or
fc-solve (in-process) takes over 5 ms, how many eightoff takes over 10× and over 3×
fc-solve's time; then the deals named with ``--watch`` (default: the slow deals
once found, where a peer solver took a few ms) with each solver's time.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from eightoff.deal import pysol_deal
from eightoff.export import variant as variant_code
from eightoff.formats import position_to_fcs
from eightoff.rules import CELL_COUNTS, Build, EmptyColumn, GroupMoves, Layout, Rules
from eightoff.solver import DEFAULT_SCHEDULE, Limit, Schedule, core, solve
from results_page import write_result
from solve_worker import rule_texts
from solver_vs_fcsolve import count_text_moves, forget_lib_solvers, lib_solver, parse_range, run_lib

TOONS = ["-l", "toons-for-twenty-somethings"]


@dataclass(frozen=True)
class Variant:
    """A rule variant: eightoff's rules and the fc-solve options for the same game."""

    rules: Rules
    fcs: tuple[str, ...]

    @property
    def code(self) -> str:
        """The variant as game codes name it: ``C8``, ``C4-EA``, ``C2-EAB``."""
        return variant_code(self.rules)

    @property
    def label(self) -> str:
        """The rules in words."""
        return self.rules.describe()


def fcs_options(rules: Rules) -> tuple[str, ...]:
    """fc-solve's options for the game ``rules`` describe (the deal itself, Eight Off's
    or Baker's Game's layout, is in the board text, its dealt cells included).

    With ``--sequence-move limited`` fc-solve moves a run only as far as the free cells
    (and, where any card may fill one, the empty columns) let single cards carry it:
    the games of eightoff's default group moves (runs of free cells + 1 with Kings-only
    columns, the FreeCell formula with ``E``); on deals 1-500 of all 24 variants no deal
    is won by one and lost by the other (benchmarks/README.md). fc-solve has no
    take-back from the foundations and no one-card-a-move rule beside runs, so the
    ``T`` and ``S`` options are not in this table."""
    if rules.take_back or rules.group_moves is not default_group_moves(rules):
        raise ValueError(f"fc-solve has no game for {variant_code(rules)}")
    return (
        "--freecells-num", str(rules.cells),
        "--stacks-num", "8",
        "--decks-num", "1",
        "--empty-stacks-filled-by", "all" if rules.empty_column is EmptyColumn.ANY else "kings",
        "--sequences-are-built-by", "suit" if rules.build is Build.SUIT else "alternate_color",
        "--sequence-move", "limited",
    )  # fmt: skip


def default_group_moves(rules: Rules) -> GroupMoves:
    """The group moves a variant has unless told otherwise (``E`` implies the formula)."""
    return replace(rules, group_moves=GroupMoves.CELLS).group_moves


def _atlas_rules() -> list[Rules]:
    """The 24 variants of docs/atlas.md: cells × empty columns × build × layout."""
    return [
        Rules(cells=cells, empty_column=empty, build=build, layout=layout)
        for layout in (Layout.EIGHT_OFF, Layout.BAKERS)
        for build in (Build.SUIT, Build.ALTERNATE)
        for empty in (EmptyColumn.KINGS, EmptyColumn.ANY)
        for cells in CELL_COUNTS
    ]


CODES: list[str] = [variant_code(rules) for rules in _atlas_rules()]
# The rule books measured before the table had every variant, by the names players use.
ALIASES: dict[str, str] = {
    "standard": "C8",
    "forecell": "C4-A",
    "alternate-2": "C2-A",
    "alternate": "C8-A",
    "easy": "C8-E",
    "bakers": "C4-EB",
}
VARIANTS: dict[str, Variant] = {
    variant_code(rules): Variant(rules, fcs_options(rules)) for rules in _atlas_rules()
}
VARIANTS.update({alias: VARIANTS[code] for alias, code in ALIASES.items()})
TAIL_VARIANTS = "standard,forecell,alternate-2"
# Slow deals once found: a peer found a line in a few ms, eightoff took 0.04-0.8 s.
WATCH = "forecell:882,forecell:377,alternate-2:249,alternate-2:200,standard:27,standard:1780"

Row = tuple[int, str, float, int]  # deal, verdict, CPU seconds, length (single-card moves)


# -- eightoff --------------------------------------------------------------------------------


# --nodes: eightoff's limit in positions instead of wall-clock seconds (set in each
# worker by its initializer). Solve() stops on the wall clock, so on a loaded machine
# its time limit gives it less CPU than fc-solve's (stopped on CPU time) gets.
_NODES: list[int | None] = [None]
# --cpu-slack K: every solver stopped on CPU time. Solve() and the fc-solve process get
# K times the limit in wall-clock time, and a result that took more than the limit in CPU
# counts as unknown at the limit, which is what a stop on CPU time would have given.
_SLACK: list[float | None] = [None]
# --fcs-states N: fc-solve stops as "unknown" once it holds N states (about 650 bytes
# each with the toons preset), so that long limits fit in memory. The process is given
# --max-stored-states and then says "Iterations count exceeded."; the in-process solver
# is looked at between its suspensions.
_FCS_STATES: list[int | None] = [None]
# --baseline: the baseline package's src (built by build_baseline); each worker runs it
# in a process of its own (benchmarks/solve_worker.py), through its public solve().
_BASELINE: list[str | None] = [None]
_PROCESSES: dict[str, subprocess.Popen[str]] = {}  # src -> its solve_worker process
# --schedule: the schedule the solver eightoff runs (eightoff-default: the default).
_SCHEDULE: list[Schedule] = [DEFAULT_SCHEDULE]


def _set_limits(
    nodes: int | None,
    slack: float | None,
    fcs_states: int | None = None,
    baseline: str | None = None,
    schedule: Schedule = DEFAULT_SCHEDULE,
) -> None:
    _NODES[0] = nodes
    _SLACK[0] = slack
    _FCS_STATES[0] = fcs_states
    _BASELINE[0] = baseline
    _SCHEDULE[0] = schedule


def parse_schedule(text: str) -> Schedule:
    """``--schedule``: ``scan_num=2,meta_start=300`` as the default schedule with those
    fields changed (``resolve_home=3:6:12`` for the tuple)."""
    kinds = {f.name: type(getattr(DEFAULT_SCHEDULE, f.name)) for f in fields(Schedule)}
    changes: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        kind = kinds.get(name)
        if kind is None:
            raise argparse.ArgumentTypeError(f"no Schedule field {name!r}")
        try:
            if kind is tuple:
                changes[name] = tuple(int(v) for v in value.split(":"))
            elif kind is bool:
                changes[name] = value.lower() in ("1", "true", "yes")
            else:
                changes[name] = kind(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"{name}: {error}") from None
    return replace(DEFAULT_SCHEDULE, **changes)


def build_baseline(commit: str, into: Path) -> Path:
    """``commit``'s package under ``into``, its C code compiled in place with the flags
    setup.py's build gets: one unit per C file beside the kernel's where it has
    ``_kernel``, else its ``module.c`` (which included the others). Its ``src``."""
    archive = subprocess.run(
        ["git", "archive", commit, "src/eightoff"],
        capture_output=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    src = into / "src"
    compiler = str(sysconfig.get_config_var("CC") or "cc").split()
    flags = [*str(sysconfig.get_config_var("CFLAGS") or "").split(), "-fPIC", "-O2"]
    include = sysconfig.get_paths()["include"]
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    native, kernel = src / "eightoff/solver/native", src / "eightoff/_kernel"
    out = src / "eightoff/solver" / f"_native{suffix}"
    if not kernel.is_dir():
        command = [*compiler, *flags, "-I", include, "-shared", str(native / "module.c")]
        subprocess.run([*command, "-o", str(out)], check=True)
        return src
    flags += ["-fvisibility=hidden", "-flto", "-I", include, "-I", str(kernel), "-I", str(native)]
    units = [str(p) for p in sorted(kernel.glob("*.c")) if p.name != "module.c"]
    solver = [str(p) for p in sorted(native.glob("*.c"))]
    for sources, target in (
        ([str(kernel / "module.c"), *units], kernel / f"_kernel{suffix}"),
        ([*solver, *units], out),
    ):
        subprocess.run([*compiler, *flags, "-shared", *sources, "-o", str(target)], check=True)
    return src


def _solver_process(src: str) -> subprocess.Popen[str]:
    """This worker's process of the package in ``src`` (benchmarks/solve_worker.py)."""
    if src not in _PROCESSES:
        worker = Path(__file__).resolve().parent / "solve_worker.py"
        _PROCESSES[src] = subprocess.Popen(
            [sys.executable, str(worker)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": src},
        )
    return _PROCESSES[src]


def _over(row: Row, seconds: float) -> Row:
    """``row`` as a stop at ``seconds`` of CPU would have left it, under --cpu-slack."""
    if _SLACK[0] is not None and row[2] > seconds:
        return row[0], "unknown", seconds, 0
    return row


def _eightoff(
    variant: str, number: int, seconds: float, schedule: Schedule = DEFAULT_SCHEDULE
) -> Row:
    pos = pysol_deal(number, VARIANTS[variant].rules)
    nodes = _NODES[0]
    wall = seconds * (_SLACK[0] or 1)
    limit = Limit(nodes=nodes, seconds=wall if nodes is None else None)
    start = time.process_time()
    result = solve(pos, limit=limit, schedule=schedule)
    took = time.process_time() - start
    row = number, result.verdict.value, took, result.length
    return row if nodes is not None else _over(row, seconds)


def run_eightoff(variant: str, number: int, seconds: float) -> Row:
    core.PORTFOLIO = True
    return _eightoff(variant, number, seconds, _SCHEDULE[0])


def run_eightoff_default(variant: str, number: int, seconds: float) -> Row:
    core.PORTFOLIO = True
    return _eightoff(variant, number, seconds)


def run_eightoff_bf(variant: str, number: int, seconds: float) -> Row:
    core.PORTFOLIO = False
    return _eightoff(variant, number, seconds)


def run_eightoff_base(variant: str, number: int, seconds: float) -> Row:
    """The baseline's public ``solve``, in its own process: its CPU time, as ``eightoff``'s."""
    if _BASELINE[0] is None:
        raise SystemExit("eightoff-base needs --baseline COMMIT")
    return _in_process(_BASELINE[0], variant, number, seconds)


def run_eightoff_proc(variant: str, number: int, seconds: float) -> Row:
    """This package's public ``solve`` in a process of its own, as eightoff-base runs."""
    return _in_process(str(Path(core.__file__).resolve().parents[2]), variant, number, seconds)


def _in_process(src: str, variant: str, number: int, seconds: float) -> Row:
    process = _solver_process(src)
    assert process.stdin is not None and process.stdout is not None
    options = rule_texts(VARIANTS[variant].rules)
    nodes = _NODES[0]
    wall = seconds * (_SLACK[0] or 1)
    process.stdin.write(json.dumps([options, number, wall, nodes]) + "\n")
    process.stdin.flush()
    verdict, took, length = json.loads(process.stdout.readline())
    row = number, str(verdict), float(took), int(length)
    return row if nodes is not None else _over(row, seconds)


# -- fc-solve in-process ---------------------------------------------------------------------


def _lib_solver(variant: str, preset: str | None = None) -> Any:
    return lib_solver([*VARIANTS[variant].fcs, *(TOONS if preset is None else ["-l", preset])])


def _resident_gib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**30


def run_fcs_lib(variant: str, number: int, seconds: float, preset: str | None = None) -> Row:
    fcs = _lib_solver(variant, preset)
    text = position_to_fcs(pysol_deal(number, VARIANTS[variant].rules))
    row = run_lib(fcs, text, number, seconds, time.process_time, max_states=_FCS_STATES[0])
    if _resident_gib() > 1:
        # A recycled fc-solve keeps what its largest search took (about 800 bytes a state):
        # a fresh one, and the memory back to the system, before the worker runs on.
        del fcs
        forget_lib_solvers()
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return row


# -- fc-solve as a process -------------------------------------------------------------------


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_fcs_proc(variant: str, number: int, seconds: float, preset: str | None = None) -> Row:
    text = position_to_fcs(pysol_deal(number, VARIANTS[variant].rules))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
        path = f.name
    chosen = TOONS if preset is None else ["-l", preset]
    args = ["fc-solve", *VARIANTS[variant].fcs, *chosen, "-sel", "-p", "-t", "-sam", path]
    if _FCS_STATES[0] is not None:
        args[1:1] = ["--max-stored-states", str(_FCS_STATES[0])]
    slack = _SLACK[0]
    if slack is not None:  # SIGXCPU at the limit, set by util-linux's prlimit before it runs
        # fc-solve: a preexec_fn would make Python fork this worker (the in-process
        # fc-solve's memory and all) instead of spawning, and the child's share of that
        # fork would count as fc-solve's CPU time
        cap = math.ceil(seconds)
        args = ["prlimit", f"--cpu={cap}:{cap + 1}", "--", *args]
    try:
        start = _child_cpu()
        try:
            out = subprocess.run(
                args,
                capture_output=True,
                text=True,
                timeout=seconds * (slack or 1),
                check=False,
            ).stdout
        except subprocess.TimeoutExpired:
            return number, "unknown", seconds, 0
        took = _child_cpu() - start
    finally:
        Path(path).unlink()
    if "This game is solveable." in out:
        return _over((number, "solved", took, count_text_moves(out)), seconds)
    if "I could not solve this game." in out:
        return _over((number, "unsolvable", took, 0), seconds)
    return number, "unknown", took, 0


RUNNERS: dict[str, Callable[[str, int, float], Row]] = {
    "eightoff": run_eightoff,
    "eightoff-default": run_eightoff_default,
    "eightoff-bf": run_eightoff_bf,
    "eightoff-base": run_eightoff_base,
    "eightoff-proc": run_eightoff_proc,
    "fcs-lib": run_fcs_lib,
    "fcs-proc": run_fcs_proc,
}
PRESET_RUNNERS = {"fcs-lib": run_fcs_lib, "fcs-proc": run_fcs_proc}  # "fcs-lib:lg" and the like


def runner_for(name: str) -> Callable[[str, int, float], Row] | None:
    """The runner a ``--solvers`` name stands for (None: no such solver)."""
    base, _, preset = name.partition(":")
    if not preset:
        return RUNNERS.get(name)
    run = PRESET_RUNNERS.get(base)
    return None if run is None else functools.partial(run, preset=preset)


# -- running -----------------------------------------------------------------------------------


def _warm(variants: list[str]) -> None:
    # Build what a worker needs before timing starts (not solver work).
    for variant in variants:
        pysol_deal(1, VARIANTS[variant].rules)
        _lib_solver(variant)


def run_block(
    pool: ProcessPoolExecutor, name: str, variant: str, deals: list[int], seconds: float
) -> list[Row]:
    runner = runner_for(name)
    assert runner is not None
    n = len(deals)
    return list(pool.map(runner, [variant] * n, deals, [seconds] * n, chunksize=4))


# -- reporting ---------------------------------------------------------------------------------


def summary(rows: list[Row]) -> dict[str, Any]:
    times = sorted(r[2] for r in rows)
    lengths = [r[3] for r in rows if r[1] == "solved"]
    count = {v: sum(1 for r in rows if r[1] == v) for v in ("solved", "unsolvable", "unknown")}
    return {
        **count,
        "sum_s": sum(times),
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": times[min(len(times) - 1, int(0.95 * len(times)))] * 1000,
        "max_s": times[-1],
        "median_len": statistics.median(lengths) if lengths else 0,
    }


def tail_counts(mine: list[Row], peer: list[Row], floor: float = 0.005) -> dict[str, Any]:
    """Deals where either takes over ``floor`` s: how many ``mine`` takes > 10× / > 3× ``peer``."""
    theirs = {r[0]: r[2] for r in peer}
    slow = [(r[0], r[2], theirs[r[0]]) for r in mine if max(r[2], theirs[r[0]]) > floor]
    over10 = sorted((d for d, a, b in slow if a > 10 * b), key=int)
    over3 = [d for d, a, b in slow if a > 3 * b]
    worst = sorted(slow, key=lambda s: s[1] / max(s[2], 1e-6), reverse=True)[:5]
    return {"considered": len(slow), "over10": over10, "over3": len(over3), "worst": worst}


def report(per: dict[str, dict[str, list[Row]]], solvers: list[str]) -> str:
    lines: list[str] = []
    fields = [
        ("solved/unsolv./unknown", lambda s: f"{s['solved']}/{s['unsolvable']}/{s['unknown']}"),
        ("Σ CPU s", lambda s: f"{s['sum_s']:.2f}"),
        ("median ms", lambda s: f"{s['median_ms']:.2f}"),
        ("p95 ms", lambda s: f"{s['p95_ms']:.1f}"),
        ("max s", lambda s: f"{s['max_s']:.3f}"),
        ("median length", lambda s: f"{s['median_len']:.0f}"),
    ]
    for variant, by_solver in per.items():
        known = VARIANTS[variant]
        code = "" if variant == known.code else f" ({known.code})"
        lines.append(f"\n## {variant}{code}: {known.label}")
        sums = {n: summary(by_solver[n]) for n in solvers}
        lines.append("".ljust(24) + "".join(n.rjust(18) for n in solvers))
        for label, fmt in fields:
            lines.append(label.ljust(24) + "".join(fmt(sums[n]).rjust(18) for n in solvers))
        for peer in (n for n in by_solver if n.partition(":")[0] == "fcs-lib"):
            for mine in ("eightoff-base", "eightoff-bf", "eightoff"):
                if mine not in by_solver:
                    continue
                t = tail_counts(by_solver[mine], by_solver[peer])
                worst = ", ".join(
                    f"{d} ({a * 1000:.1f} vs {b * 1000:.1f} ms)" for d, a, b in t["worst"]
                )
                lines.append(
                    f"{mine} vs {peer}, {t['considered']} deals over 5 ms: "
                    f"> 10×: {len(t['over10'])} {t['over10'][:12]}, > 3×: {t['over3']}; "
                    f"worst ratios: {worst}"
                )
        for name, rows in by_solver.items():
            verdicts = {r[0]: r[1] for r in rows}
            for other, orows in by_solver.items():
                if other <= name:
                    continue
                clash = [r[0] for r in orows if {r[1], verdicts[r[0]]} == {"solved", "unsolvable"}]
                if clash:
                    lines.append(f"verdicts differ, {name} vs {other}: deals {clash}")
    return "\n".join(lines)


def results_table(
    per: dict[str, dict[str, list[Row]]], solvers: list[str], deals: str
) -> tuple[str, list[str], list[list[object]]]:
    """The run as a results page's table: per variant each solver's verdicts and Σ, then
    the median lengths."""
    columns = ["variant"]
    for name in solvers:
        columns += [f"{name} won / lost / unknown", f"{name} Σ CPU s"]
    columns.append("median length, " + " / ".join(solvers))
    rows: list[list[object]] = []
    for variant, by_solver in per.items():
        sums = {n: summary(by_solver[n]) for n in solvers}
        row: list[object] = [VARIANTS[variant].code]
        for name in solvers:
            s = sums[name]
            row += [f"{s['solved']} / {s['unsolvable']} / {s['unknown']}", f"{s['sum_s']:.2f}"]
        row.append(" / ".join(f"{sums[n]['median_len']:.0f}" for n in solvers))
        rows.append(row)
    return f"Every variant, PySolFC deals {deals}", columns, rows


def watch_table(per: dict[str, dict[str, list[Row]]], solvers: list[str], watch: list[str]) -> str:
    """Each solver's CPU ms on the ``variant:deal`` items of ``watch``."""
    lines = ["\n## watched deals (CPU ms)", "".ljust(24) + "".join(n.rjust(18) for n in solvers)]
    for item in watch:
        variant, _, number = item.partition(":")
        if variant not in per:
            continue
        cells = []
        for n in solvers:
            row = next((r for r in per[variant][n] if r[0] == int(number)), None)
            cells.append("-" if row is None else f"{row[2] * 1000:.1f}")
        lines.append(item.ljust(24) + "".join(c.rjust(18) for c in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--deals", default="2001-3000", help="PySolFC deal numbers (2001-3000, 1,5,9-12)"
    )
    ap.add_argument(
        "--variants",
        default=TAIL_VARIANTS,
        help=f"'all' (the 24 of docs/atlas.md), or of: {', '.join(CODES)}; "
        f"aliases: {', '.join(f'{a} = {c}' for a, c in ALIASES.items())}",
    )
    ap.add_argument(
        "--solvers",
        default="eightoff,eightoff-bf,fcs-lib",
        help=f"of: {', '.join(RUNNERS)}, and fcs-lib:PRESET, fcs-proc:PRESET (fc-solve -l PRESET)",
    )
    ap.add_argument("--time-limit", type=float, default=10.0, help="CPU seconds per deal")
    ap.add_argument(
        "--nodes",
        type=int,
        help="eightoff's limit in positions instead of --time-limit (load-independent)",
    )
    ap.add_argument(
        "--cpu-slack",
        type=float,
        metavar="K",
        help="stop every solver on CPU time: eightoff and the fc-solve process get K × the "
        "limit in wall time, a result over the limit in CPU counts as unknown",
    )
    ap.add_argument(
        "--fcs-states",
        type=int,
        metavar="N",
        help="fc-solve stops (unknown) once it holds N states, ~650 bytes each: a memory cap",
    )
    ap.add_argument(
        "--baseline",
        metavar="COMMIT",
        help="solver eightoff-base: that commit's package and its solve() (built for this run)",
    )
    ap.add_argument(
        "--schedule",
        metavar="FIELD=VALUE,...",
        type=parse_schedule,
        help="solver eightoff with these Schedule fields changed (eightoff-default: without)",
    )
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--block", type=int, default=100, help="deals per turn")
    ap.add_argument("--watch", default=WATCH, help="variant:deal items to list one by one")
    ap.add_argument("--json", metavar="FILE", help="also write the per-deal rows")
    ap.add_argument("--results", metavar="FILE", help="also write the table (results_page)")
    args = ap.parse_args(argv)
    deals = parse_range(args.deals)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if variants == ["all"]:
        variants = CODES
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    bad = [v for v in variants if v not in VARIANTS] + [s for s in solvers if not runner_for(s)]
    if bad:
        ap.error(f"unknown variant(s) or solver(s): {', '.join(bad)}")
    watch = [w for w in args.watch.split(",") if w.strip()]
    watched = {(v, int(d)) for v, _, d in (w.partition(":") for w in watch) if v in variants}
    print(
        f"{len(deals)} PySolFC deals ({args.deals}) × {len(variants)} variants, "
        f"{args.time_limit:g} CPU s per deal, {args.workers} workers",
        file=sys.stderr,
    )
    if ("eightoff-base" in solvers) != (args.baseline is not None):
        ap.error("--baseline COMMIT and the solver eightoff-base go together")
    per: dict[str, dict[str, list[Row]]] = {v: {s: [] for s in solvers} for v in variants}
    with (
        tempfile.TemporaryDirectory() as scratch,
        ProcessPoolExecutor(
            args.workers,
            initializer=_set_limits,
            initargs=(
                args.nodes,
                args.cpu_slack,
                args.fcs_states,
                None
                if args.baseline is None
                else str(build_baseline(args.baseline, Path(scratch))),
                args.schedule or DEFAULT_SCHEDULE,
            ),
        ) as pool,
    ):
        list(pool.map(_warm, [variants] * args.workers))
        extra = {v: sorted(d for w, d in watched if w == v and d not in deals) for v in variants}
        for turn, first in enumerate(range(0, len(deals), args.block)):
            block = deals[first : first + args.block]
            # Who goes first turns too: the first solver of a block measured 2-4% slower
            # than the same core second (C2-EAB 1-300, the two orders).
            order = solvers[turn % len(solvers) :] + solvers[: turn % len(solvers)]
            for variant in variants:
                todo = block + (extra[variant] if first == 0 else [])
                for name in order:  # by turns: each solver this block, then the next block
                    per[variant][name].extend(run_block(pool, name, variant, todo, args.time_limit))
                    if args.json:  # the rows so far: a run stopped early keeps them
                        Path(args.json).write_text(json.dumps(per))
                print(f"  {variant}: deals {block[0]}-{block[-1]} done", file=sys.stderr)
    # Watched deals outside the range are timed (in the first block) but not counted.
    inside = set(deals)
    counted = {
        v: {s: [r for r in rows if r[0] in inside] for s, rows in by.items()}
        for v, by in per.items()
    }
    print(report(counted, solvers))
    print(watch_table(per, solvers, watch))
    if args.json:
        Path(args.json).write_text(json.dumps(per))
    if args.results:
        write_result(args.results, *results_table(counted, solvers, args.deals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
