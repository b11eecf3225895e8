"""The solver's schedule as data: when each helper search starts, its share of the
positions, the gates that hold it back, its floors and caps.

The C core (``native/schedule.h``) runs the searches by a ``Schedule``: the
weighted best-first search alone first, then by turns with its helpers (Freecell
Solver's preset scans and meta-move scan, a greedy best-first search, depth-first
dives), past ``first`` with the exact proof, long dives and late scans; then the
finish shortens the line found. ``Schedule()`` is the schedule the solver was tuned
with; a named schedule is a value, ``dataclasses.replace(DEFAULT_SCHEDULE, ...)``::

    fast_scans = replace(DEFAULT_SCHEDULE, scan_num=2, scan_first=3000)
    solve(position, schedule=fast_scans)

Counts are positions expanded; "a / b" shares are positions of a helper per position
of best-first's. docs/solver.md describes the searches each field steers, and how to
tune a schedule on one range of deals and judge it on another. The C core takes
:attr:`Schedule.values` in its own fields' order, which :mod:`eightoff.solver.core`
checks against this class's names when it loads the C core;
tests/test_native_schedule.py holds the two to the same names and defaults, and shows
each field changing what the solver does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields


@dataclass(frozen=True, kw_only=True)
class Schedule:
    """Every start, share, gate, floor and cap of the solver's searches."""

    early_start: int = 750
    """Best-first's expansions alone before its helpers' first turn (with fewer than
    ``wide_cells`` cells).
    """
    solo: int = 2000
    """The end of the early stretch: the helpers' first turn with ``wide_cells`` cells or
    more; before it the turns are ``early_quantum`` long, after it ``quantum``.
    """
    wide_cells: int = 8
    """With this many cells or more the helpers (and the meta scan) start at ``solo``, and
    the scans stop at ``wide_scan_nodes``.
    """
    early_quantum: int = 64
    """Best-first's turn, in expansions, until ``solo``."""
    quantum: int = 256
    """Best-first's turn, in expansions, from ``solo`` on."""
    early_num: int = 2
    """Until ``solo`` the helpers expand ``early_num`` positions per ``early_den`` of
    best-first's (0: best-first alone until ``solo``).
    """
    early_den: int = 1
    """See ``early_num``."""
    helper_num: int = 2
    """From ``solo`` on the helpers expand ``helper_num`` positions per ``helper_den`` of
    best-first's.
    """
    helper_den: int = 1
    """See ``helper_num``."""
    open_share: int = 2
    """The dives and the greedy search take turns only while best-first's open list holds
    at least one position per ``open_share`` expanded (a lost deal's list shrinks).
    """
    dive_max: int = 20000
    """The dives' and the greedy search's positions in all, at most; then best-first alone
    (the scans, the meta scan and the proof have shares of their own).
    """
    early_dive: int = 300
    """A dive started before ``solo`` stops after this many expansions, and the next kind
    starts.
    """
    dive_nodes: int = 4000
    """A dive started from ``solo`` on stops after this many expansions."""
    dive_noise: float = 2.0
    """A seeded dive by h: a child's h moves by up to this much, shuffling near-ties."""
    order_noise: float = 0.999
    """A seeded dive by kind of move: shuffles the moves within each bracket of the order,
    never across.
    """
    dive_share: int = 16
    """A dive's, a scan's or the meta scan's tables: at most the memory budget /
    ``dive_share``.
    """
    greedy_share: int = 4
    """The greedy search's tables: at most the memory budget / ``greedy_share``."""
    greedy_every: int = 4
    """One helper turn in this many is the greedy search's, the rest the dives'."""
    greedy_weight: float = 40.0
    """The greedy best-first search's weight of h."""
    use_greedy: bool = True
    """Whether the greedy best-first search takes turns."""
    use_dives: bool = True
    """Whether the depth-first dives take turns."""
    use_scan: bool = True
    """Whether Freecell Solver's preset scans (toons, or looking-glass under FreeCell's
    rules) take turns.
    """
    scan_num: int = 1
    """The scans expand ``scan_num`` positions per ``scan_den`` of best-first's past its
    first stretch and of the proof's.
    """
    scan_den: int = 1
    """See ``scan_num``."""
    scan_nodes: int = 60000
    """The scans' positions in the portfolio, at most (fewer than ``wide_cells`` cells)."""
    wide_scan_nodes: int = 4000
    """The scans' positions in the portfolio, at most, with ``wide_cells`` cells or more."""
    scan_first: int = 1500
    """The scans' first positions may take the other helpers' turns too, up to this many."""
    scan_open_share: int = 4
    """The scans' gate: they run at their full share only while best-first's open list
    holds at least one position per ``scan_open_share`` expanded.
    """
    scan_early_floor: int = 4
    """While the gate holds them, the scans still expand one position per
    ``scan_early_floor`` of their allowance ...
    """
    scan_early_floor_cap: int = 40000
    """... up to this many of theirs."""
    scan_late_nodes: int = 300000
    """The scans' positions in all, at most, past ``first`` too."""
    toons_beside_nodes: int = 5000
    """Where the scans are looking-glass's, toons' scans run in the meta scan's place up to
    this many positions ...
    """
    toons_beside_max: int = 20000
    """... and on to this many while best-first's open list is not a lost deal's
    (``scan_open_share``).
    """
    use_meta: bool = True
    """Whether Freecell Solver's meta-move scan takes turns in the first stretch."""
    meta_start: int = 400
    """The meta scan's first turn comes at best-first's ``meta_start``-th expansion
    (Kings-only columns, fewer than ``wide_cells`` cells).
    """
    meta_start_any: int = 150
    """The same where any card fills an empty column."""
    meta_early: int = 1000
    """The meta scan expands one position per best-first expansion for its first
    ``meta_early`` ...
    """
    meta_late_den: int = 4
    """... then one per ``meta_late_den``."""
    meta_open_share: int = 2
    """The meta scan runs only while best-first's open list holds at least one position per
    ``meta_open_share`` expanded.
    """
    meta_nodes: int = 20000
    """The meta scan's positions, at most."""
    meta_quantum: int = 64
    """Best-first's turn, in expansions, between the meta scan's before the helpers start."""
    pf_proof_gate: int = 4
    """The proof takes turns in the portfolio while best-first's open list holds less than
    one position per ``pf_proof_gate`` expanded ...
    """
    pf_proof_min: int = 2000
    """... once best-first has expanded this many."""
    pf_proof_all: bool = True
    """Whether the proof's turns go on once the other helpers' share is spent."""
    pf_proof_num: int = 1
    """In the portfolio the proof's turns are ``pf_proof_num`` / ``pf_proof_den`` of those
    past ``first`` (0: none).
    """
    pf_proof_den: int = 1
    """See ``pf_proof_num``."""
    first: int = 100000
    """The portfolio alone for this many expansions; then best-first and the exact proof
    take turns.
    """
    late_bf_max: int = 4000000
    """Best-first stops past this many of its own expansions and the proof goes on alone
    (``solve`` stretches it with a time limit over a minute).
    """
    proof_ratio: int = 4
    """Past ``first`` the proof expands this many positions per best-first one."""
    proof_ratio_lone: int = 1
    """The same where lone cards are put back (any card to an empty column, alternating
    colours): a proof position there costs about two.
    """
    proof_quantum: int = 4096
    """Best-first's turn past ``first``, in expansions."""
    late_dives_max: int = 2000000
    """The long dives stop once best-first has expanded this many."""
    late_num: int = 1
    """The long dives expand ``late_num`` positions per ``late_den`` of best-first's."""
    late_den: int = 1
    """See ``late_num``."""
    late_dive: int = 150000
    """A long dive of the first pass over the kinds stops after this many expansions ..."""
    late_rounds: int = 1
    """... each later pass doubles it, up to 2 ** ``late_rounds`` times."""
    late_gate: int = 4
    """The long dives run only while best-first's open list holds at least one position per
    ``late_gate`` expanded.
    """
    scan_late_num: int = 1
    """Past ``first`` the scans expand ``scan_late_num`` positions per ``scan_late_den`` of
    the others'.
    """
    scan_late_den: int = 1
    """See ``scan_late_num``."""
    scan_late_gate: int = 2
    """Past ``first`` the scans' gate: best-first running and its open list holding one
    position per ``scan_late_gate`` expanded (0: whatever it holds).
    """
    scan_floor: int = 2
    """While that gate holds them the scans still expand one position per ``scan_floor`` of
    the others' since ``first`` ...
    """
    scan_floor_cap: int = 200000
    """... up to this many of theirs in all."""
    go_on_div: int = 2
    """After a helper's win best-first goes on for 1 / ``go_on_div`` of the positions spent
    ...
    """
    go_on_min: int = 100
    """... at least this many ..."""
    go_on_max: int = 4000
    """... at most this many, and keeps its own line if no longer."""
    resolve_cells: int = 8
    """A helper's line is re-solved by best-first only with fewer cells than this."""
    resolve_home: tuple[int, int, int] = (3, 6, 12)
    """Where best-first starts again on a helper's line: once this many more cards are home
    than at the start (rising).
    """
    resolve_div: int = 4
    """Each of those searches may expand 1 / ``resolve_div`` of the positions spent ..."""
    resolve_min: int = 100
    """... at least this many ..."""
    resolve_max: int = 2000
    """... at most this many."""
    long_line: int = 300
    """A line this long (single-card moves) or longer once one-move shortcuts are made has
    its shortcuts try two moves as well ...
    """
    two_moves_max: int = 4000
    """... up to this many moves in the line."""
    merge_span: int = 1024
    """A card's two moves merge only within this many moves of each other."""

    @functools.cached_property
    def values(self) -> tuple[object, ...]:
        """The fields' values in their order: the schedule as the C core reads it
        (``native/schedule.h`` SCHEDULE_FIELDS, checked against these names on load)."""
        return tuple(getattr(self, f.name) for f in fields(self))


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Schedule))
"""The schedule's field names, in the order of :attr:`Schedule.values`."""

DEFAULT_SCHEDULE = Schedule()
"""The schedule the solver was tuned with."""
