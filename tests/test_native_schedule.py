"""The solver's schedule (:class:`eightoff.solver.Schedule`) is read by the C core, field by field.

Each field has a deal below where changing that field alone changes what ``solve``
does within a node limit: the line it finds, its verdict, or the positions it takes.
A field the C side ignored, or read under another name, fails here. (A changed count
is the evidence that a field is read; no test repeats a field's value.) The searches
some fields steer only run under other schedules: there the deal is solved under a
schedule that brings them in (``BASES``).
"""

from __future__ import annotations

import argparse
import functools
from dataclasses import fields, replace

import pytest

import benchmark_scripts
from eightoff.deal import pysol_deal
from eightoff.rules import Build, EmptyColumn, Layout, Rules
from eightoff.solver import DEFAULT_SCHEDULE, Limit, Schedule, core, solve
from support import needs_native
from support.native import c_solve

native = core.native
pytestmark = needs_native

RULES = {
    "C8": Rules(),
    "C4-A": Rules(cells=4, build=Build.ALTERNATE),
    "C4-AB": Rules(cells=4, build=Build.ALTERNATE, layout=Layout.BAKERS),
    "C4-EA": Rules(cells=4, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY),
    "C4-EB": Rules(cells=4, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS),
    "C2-A": Rules(cells=2, build=Build.ALTERNATE),
    "C2-AB": Rules(cells=2, build=Build.ALTERNATE, layout=Layout.BAKERS),
    "C2-EA": Rules(cells=2, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY),
    "C2-EAB": Rules(
        cells=2, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS
    ),
}
BASES = {
    "default": DEFAULT_SCHEDULE,
    # the dives alone beside best-first, from its first expansion, many and short: their
    # later rounds (seeded, so their noise counts) come soon
    "dives": Schedule(
        use_greedy=False,
        use_scan=False,
        use_meta=False,
        pf_proof_num=0,
        early_start=1,
        solo=1,
        dive_nodes=500,
        helper_num=8,
    ),
    # the stretch past ``first`` (best-first, the proof, long dives, late scans) early
    "early": Schedule(first=3_000),
    # past a short first stretch, short long dives beside best-first and the proof,
    # whatever best-first's open list holds: their later rounds come soon
    "late": Schedule(
        first=1_000,
        use_scan=False,
        use_greedy=False,
        use_meta=False,
        late_gate=1_000_000,
        late_dive=300,
        proof_ratio=1,
    ),
    # two-move shortcuts on shorter lines
    "long": Schedule(long_line=75),
}
NODES = 400_000
CHANGES: dict[str, tuple[str, str, int, object]] = {
    # field: (the schedule it changes, game code, PySolFC deal, the new value)
    "early_start": ("default", "C2-A", 2, 3000),
    "solo": ("default", "C2-A", 2, 500),
    "wide_cells": ("default", "C2-A", 2, 2),
    "early_quantum": ("default", "C2-A", 2, 1),
    "quantum": ("default", "C2-A", 4, 1024),
    "early_num": ("default", "C2-A", 2, 8),
    "early_den": ("default", "C2-A", 2, 4),
    "helper_num": ("default", "C2-A", 27, 8),
    "helper_den": ("default", "C2-A", 4, 4),
    "open_share": ("default", "C2-A", 4, 8),
    "dive_max": ("default", "C2-A", 4, 80_000),
    "early_dive": ("default", "C2-A", 15, 1200),
    "dive_nodes": ("default", "C2-A", 27, 16_000),
    "dive_noise": ("dives", "C2-A", 15, 8.0),
    "order_noise": ("dives", "C2-A", 3, 0.0),
    "dive_share": ("default", "C2-A", 4, 64),
    "greedy_share": ("default", "C2-A", 27, 65_536),
    "greedy_every": ("default", "C2-A", 15, 1),
    "greedy_weight": ("default", "C4-AB", 5, 160.0),
    "use_greedy": ("default", "C2-A", 27, False),
    "use_dives": ("default", "C2-A", 15, False),
    "use_scan": ("default", "C2-A", 15, False),
    "scan_num": ("default", "C2-A", 15, 4),
    "scan_den": ("default", "C2-A", 15, 4),
    "scan_nodes": ("default", "C2-A", 15, 1),
    "wide_scan_nodes": ("default", "C8", 1780, 1),
    "scan_first": ("default", "C2-A", 15, 6000),
    "scan_open_share": ("default", "C2-A", 15, 1),
    "scan_early_floor": ("default", "C2-EAB", 1, 16),
    "scan_early_floor_cap": ("default", "C2-EAB", 1, 10_000),
    "scan_late_nodes": ("default", "C2-A", 4, 1),
    "toons_beside_nodes": ("default", "C2-EAB", 1, 20_000),
    "toons_beside_max": ("default", "C2-EAB", 9, 5000),
    "use_meta": ("default", "C2-A", 15, False),
    "meta_start": ("default", "C2-A", 15, 1600),
    "meta_start_any": ("default", "C4-EB", 21, 600),
    "meta_early": ("default", "C2-A", 15, 4000),
    "meta_late_den": ("default", "C2-A", 15, 16),
    "meta_open_share": ("default", "C2-A", 15, 1),
    "meta_nodes": ("default", "C2-A", 15, 1),
    "meta_quantum": ("default", "C2-A", 15, 1),
    "pf_proof_gate": ("default", "C2-A", 4, 16),
    "pf_proof_min": ("default", "C2-A", 3, 500),
    "pf_proof_all": ("default", "C2-A", 4, False),
    "pf_proof_num": ("default", "C2-A", 4, 4),
    "pf_proof_den": ("default", "C2-A", 4, 4),
    "first": ("default", "C2-A", 15, 1),
    "late_bf_max": ("default", "C2-A", 4, 1),
    "proof_ratio": ("default", "C2-A", 4, 16),
    "proof_ratio_lone": ("early", "C2-EAB", 9, 4),
    "proof_quantum": ("default", "C2-A", 4, 16_384),
    "late_dives_max": ("early", "C2-A", 4, 1),
    "late_num": ("early", "C2-A", 4, 4),
    "late_den": ("early", "C2-A", 4, 4),
    "late_dive": ("late", "C2-AB", 14, 600),
    "late_rounds": ("late", "C2-AB", 14, 0),
    "late_gate": ("default", "C2-A", 4, 16),
    "scan_late_num": ("default", "C2-A", 37, 4),
    "scan_late_den": ("early", "C2-A", 4, 4),
    "scan_late_gate": ("default", "C2-A", 4, 8),
    "scan_floor": ("default", "C2-A", 4, 8),
    "scan_floor_cap": ("default", "C2-A", 4, 50_000),
    "go_on_div": ("dives", "C2-A", 2, 8),
    "go_on_min": ("dives", "C2-A", 2, 400),
    "go_on_max": ("dives", "C2-A", 2, 1),
    "resolve_cells": ("default", "C2-A", 2, 2),
    "resolve_home": ("default", "C2-A", 2, (1, 2, 4)),
    "resolve_div": ("default", "C2-A", 2, 16),
    "resolve_min": ("default", "C4-EA", 5, 400),
    "resolve_max": ("default", "C2-A", 2, 500),
    "long_line": ("default", "C4-EA", 5, 75),
    "two_moves_max": ("long", "C4-EA", 5, 1),
    "merge_span": ("default", "C2-A", 15, 1),
}


@functools.cache
def outcome(code: str, number: int, schedule: Schedule) -> tuple[str, int, tuple[str, ...]]:
    """``solve``'s verdict, positions and line on PySolFC ``number`` under ``schedule``."""
    position = pysol_deal(number, RULES[code])
    result = solve(position, limit=Limit(nodes=NODES, seconds=None), schedule=schedule)
    return result.verdict.value, result.nodes, tuple(str(move) for move in result.moves)


def test_every_field_has_a_deal_that_shows_it_read() -> None:
    assert set(CHANGES) == {f.name for f in fields(Schedule)}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_changing_one_field_changes_what_the_solver_does(name: str) -> None:
    base, code, number, value = CHANGES[name]
    schedule = BASES[base]
    assert getattr(schedule, name) != value
    assert outcome(code, number, replace(schedule, **{name: value})) != outcome(
        code, number, schedule
    )


def test_the_python_schedule_is_the_c_schedule() -> None:
    # The same fields in the same order with the same defaults: the schedule the
    # solver was tuned with, whichever side it is read from; values in that order.
    assert native is not None
    assert tuple((f.name, f.default) for f in fields(Schedule)) == native.SCHEDULE
    assert DEFAULT_SCHEDULE.values == tuple(default for _, default in native.SCHEDULE)


def test_no_schedule_is_the_default_schedule() -> None:
    position = pysol_deal(15, RULES["C2-A"])
    limit = Limit(nodes=NODES, seconds=None)
    plain = solve(position, limit=limit)
    default = solve(position, limit=limit, schedule=DEFAULT_SCHEDULE)
    assert (plain.verdict, plain.nodes, plain.moves) == (
        default.verdict,
        default.nodes,
        default.moves,
    )


def test_a_schedule_the_c_core_cannot_run_is_refused() -> None:
    assert native is not None
    position = pysol_deal(1, RULES["C2-A"])
    for bad, match in [
        (Schedule(quantum=0), "at least 1"),
        (Schedule(scan_den=0), "at least 1"),
        (Schedule(dive_max=-1), "0 or more"),
        (Schedule(resolve_home=(6, 3, 12)), "rise"),
        (Schedule(first=0), "first"),
        (Schedule(greedy_weight=float("nan")), "greedy_weight"),
    ]:
        with pytest.raises(ValueError, match=match):
            c_solve(position, nodes=100, schedule=bad.values)

    # a schedule of another build, with a field fewer
    with pytest.raises(ValueError, match="values"):
        c_solve(position, nodes=100, schedule=DEFAULT_SCHEDULE.values[:-1])


def test_the_meta_scan_starts_at_the_schedules_meta_start() -> None:
    # 4-cell Baker's Game with any card to an empty column, PySolFC 48: Freecell
    # Solver's meta-move scan wins it a couple of hundred positions after its first
    # turn, which comes at best-first's meta_start_any-th expansion (any card fills a
    # column). With its start at k, the same line comes after k of best-first's
    # expansions and the meta scan's own: the count less k is the same for every k,
    # within one of best-first's turns between the meta scan's (meta_quantum).
    assert native is not None
    position = pysol_deal(48, RULES["C4-EB"])
    found = {}
    for k in (100, 150, 250, 400):
        schedule = Schedule(meta_start_any=k)
        status, line, _, nodes = c_solve(position, resolve=False, schedule=schedule.values)
        assert status == core.SOLVED
        found[k] = (tuple(line), nodes - k)
    assert len({line for line, _ in found.values()}) == 1
    rest = [extra for _, extra in found.values()]
    assert max(rest) - min(rest) <= DEFAULT_SCHEDULE.meta_quantum


def test_the_benchmarks_try_a_schedule_by_field_names() -> None:
    # benchmarks/solver_variants.py --schedule: the default schedule with fields changed.
    variants = benchmark_scripts.load("solver_variants")
    text = "scan_num=2,use_meta=0,resolve_home=2:4:8,dive_noise=1.5"
    assert variants.parse_schedule(text) == replace(
        DEFAULT_SCHEDULE, scan_num=2, use_meta=False, resolve_home=(2, 4, 8), dive_noise=1.5
    )
    with pytest.raises(argparse.ArgumentTypeError, match="no Schedule field 'nope'"):
        variants.parse_schedule("nope=1")
    with pytest.raises(argparse.ArgumentTypeError, match="scan_num"):
        variants.parse_schedule("scan_num=many")


def test_the_baseline_worker_reads_rules_back_from_their_option_texts() -> None:
    # benchmarks/solve_worker.py: a baseline commit's package gets the rules as texts.
    worker = benchmark_scripts.load("solve_worker")
    for rules in RULES.values():
        values = {f.name: getattr(rules, f.name) for f in fields(Rules)}
        texts = {name: str(getattr(value, "value", value)) for name, value in values.items()}
        assert worker.rules_from(texts) == rules
