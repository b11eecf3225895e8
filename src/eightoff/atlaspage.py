"""The atlas page: the entries of :mod:`eightoff.atlas` drawn as Markdown (``docs/atlas.md``):
the commands that make every group again, the variants' winnability, the deals left
unknown, the proven-optimal lengths and the published figures set beside ours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from eightoff.atlas import Entry, limit_order
from eightoff.export import variant
from eightoff.report import quantile, wilson
from eightoff.rules import OPTIONS, PRESETS, STANDARD, Rules

SHOW_UNKNOWN: Final = 20  # unknown deals listed by number, at most, per variant
BUCKET: Final = 5  # moves a bar of the optimal-length table spans


@dataclass(frozen=True, slots=True)
class Published:
    """A winnability figure someone published for a rule set we can play."""

    who: str
    rules: Rules
    share: float
    deals: int | None  # how many deals it was measured on, if known
    note: str  # how their rules and deals compare with ours


PUBLISHED: Final = (
    Published(
        "Solvitaire (Blake & Gent), Eight Off, 10,000,000 random deals",
        STANDARD,
        0.998805,
        10_000_000,
        "Same rules: 8 cells of which the deal fills 4, build in suit, Kings only to an "
        "empty column. Solvitaire moves one card at a time; our runs are shortcuts for "
        "single moves through free cells, so they win exactly the same deals. Their deals "
        "are random shuffles, ours the program's numbered deals: only sampling differs "
        "(see below).",
    ),
    Published(
        "Masten, Eight Off, 50,000,000 deals",
        STANDARD,
        0.998801,
        50_000_000,
        "The same game as Solvitaire's, on its own random deals.",
    ),
    Published(
        "Solvitaire, 'Fore Cell same suit'",
        STANDARD.with_options(cells=4),
        0.10564,
        None,
        "Solvitaire's preset: 8 columns of 6, 4 cells that the deal fills, build in suit, "
        "Kings only to an empty column, one card a move: our 4-cell game with the standard "
        "runs (cells + 1 cards, shortcuts for single moves, so the same deals are won). "
        "Solvitaire's 'Fore Cell' is the same with alternating colours: our C4-A.",
    ),
)


# What was checked to explain the gap between our standard figure and the published ones.
# Its figures come from the commands it names, not from the database.
STANDARD_GAP: Final = """\
### Why our standard figure is higher

Solvitaire's and Masten's figures agree with each other; ours lies above both by the
standard errors in the table. What was checked:

- **The rules are the same.** Solvitaire's `eight-off` preset (`sol_preset_types.cpp`
  in its repository): 8 tableau piles, build in suit, empty piles take Kings only, no
  moves of built groups (one card at a time), 8 cells of which the deal fills 4,
  foundations not removable. Ours is the same game: a run of up to free cells + 1 cards
  stands for the same single moves through the free cells, and there is no take-back.
  (Its `eight-off-any-card-spaces` is our C8-E.)
- **Both shuffles are uniform.** Solvitaire: Fisher–Yates over `std::mt19937(seed)` with
  Boost's `uniform_int_distribution`, dealt row by row, the last four cards to the cells.
  Ours: Fisher–Yates over SplitMix64 seeded with the deal number, with rejection sampling.
  Over our deals 1–1,000,000 the 52 × 52 table of card by position gives chi-square
  2,743.9 on 2,601 degrees of freedom (z = 1.96), and consecutive deals share a card in
  0, 1, 2, 3, 4+ positions as often as independent deals do (chi-square 1.44 on 4,
  p = 0.84); `tests/test_deal_uniform.py` runs both tests on deals 1–10,000.
- **Our wins stand up to an independent referee.** `python benchmarks/referee.py --db
  atlas.db` replays the winning lines under rules written again from the rule books,
  sharing no code with the engine: of the 998,881 won deals, the 50,000 that searched
  the most positions and every 20th deal, 97,397 lines, 0 refused (the same on the
  survey's earlier build: 97,389 lines). A move the engine allowed wrongly would turn a
  lost deal into a won one, and its line would be refused.
- **Our losses cannot raise our figure**, and the 3 deals the first pass left unknown
  at 10 s came out 1 won and 2 lost with 60 s: no unknown is left to move it.

So the gap is neither a rule difference nor, as far as these checks reach, a wrong win
of ours. What is left is chance (gaps of 2.2σ and 2.4σ come up 3 and 2 times in 100) or
deals the published surveys count as lost that can be won, for instance searches
stopped by a limit and counted as not won, which their summaries do not let us tell.
A second million deals surveyed would tell the two apart."""


def name(rules: Rules) -> str:
    """``standard (C8)``, or the variant's code alone."""
    for preset, known in PRESETS.items():
        if known == rules:
            return f"{preset} ({variant(rules)})"
    return variant(rules)


def rule_flags(rules: Rules) -> list[str]:
    """The command line's rule options for ``rules``: ``--rules PRESET`` if one is,
    else one flag per option that differs from the standard game."""
    for preset, known in PRESETS.items():
        if known == rules:
            return [] if preset == "standard" else ["--rules", preset]
    flags: list[str] = []
    for option in OPTIONS:
        value = getattr(rules, option.name)
        if value == getattr(STANDARD, option.name):
            continue
        if isinstance(value, bool):
            flags.append(option.flag if value else "--no-" + option.flag[2:])
        else:
            flags += [option.flag, str(option.to_json(value))]
    return flags


def spans(source: str, found: Sequence[tuple[int, int]]) -> str:
    """The deal range's text form (``1-2000``, ``pysol:1-500,600``)."""
    body = ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in found)
    return body if source == "eightoff" else f"{source}:{body}"


def command(entry: Entry, db: str) -> str:
    """The ``eightoff survey`` commands that make ``entry``'s rows (limits as stored): one
    run at its shortest limit, then, for each longer one, its unknown deals retried."""
    head = ["eightoff", "survey", spans(entry.source, entry.spans), "--db", db]
    rest = (["--optimal"] if entry.optimal_mode else []) + rule_flags(entry.rules)
    lines = []
    for i, (seconds, nodes, memory) in enumerate(sorted(entry.limits, key=limit_order)):
        words = [*head, "--time-limit", "0" if seconds is None else f"{seconds:g}"]
        if nodes is not None:
            words += ["--node-limit", str(nodes)]
        if memory is not None:
            words += ["--memory", str(memory >> 20)]
        lines.append(" ".join(words + (["--redo-unknown"] if i else []) + rest))
    return "\n".join(lines) if lines else " ".join(head + rest)


def _percent(x: float, digits: int = 2) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def _time(x: float) -> str:
    if math.isnan(x):
        return "–"
    if x < 0.001:
        return f"{x * 1e6:.0f} µs"
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.2f} s"


def _winnable(e: Entry) -> str:
    low, high = wilson(e.won, e.decided)
    return f"{_percent(e.winnability)} ({_percent(low)}–{_percent(high)})"


def variants_table(found: list[Entry]) -> list[str]:
    """The table of every group: deals, verdicts, winnability, times, lengths."""
    lines = [
        "| variant | deals | won | lost | unknown | winnable (95% CI) "
        "| time median / p99 | median length |",
        "|---|---|--:|--:|--:|---|--:|--:|",
    ]
    for e in found:
        mode = " (optimal mode)" if e.optimal_mode else ""
        median = e.length_median
        lines.append(
            f"| {name(e.rules)} | {spans(e.source, e.spans)}{mode} "
            f"| {e.won:,} | {e.lost:,} | {len(e.unknown):,} | {_winnable(e)} "
            f"| {_time(e.time_median)} / {_time(e.time_p99)} "
            f"| {'–' if math.isnan(median) else f'{median:.0f}'} |"
        )
    return lines


def optimal_section(e: Entry, plot: str | None) -> list[str]:
    """The distribution of one group's proven-optimal lengths."""
    lengths = e.optimal
    lines = [
        f"### {name(e.rules)}, deals {spans(e.source, e.spans)}",
        "",
        f"{len(lengths):,} solutions proven shortest (of {e.won:,} won deals); "
        "lengths in single-card moves: "
        + ", ".join(
            f"{label} {quantile(lengths, q):.0f}"
            for q, label in ((0.0, "min"), (0.1, "p10"), (0.5, "median"), (0.9, "p90"))
        )
        + f", max {lengths[-1]}, mean {sum(lengths) / len(lengths):.1f}.",
        "",
        "| optimal length | deals | share |",
        "|---|--:|--:|",
    ]
    low = lengths[0] // BUCKET * BUCKET
    for start in range(low, lengths[-1] + 1, BUCKET):
        n = sum(1 for x in lengths if start <= x < start + BUCKET)
        bar = "█" * round(40 * n / len(lengths))
        share = _percent(n / len(lengths), 1)
        lines.append(f"| {start}–{start + BUCKET - 1} | {n:,} | {share} {bar} |")
    if plot is not None:
        lines += ["", f"![Verdicts, proven-optimal lengths and solve times]({plot})"]
    return lines


def gap_sigma(ours: Entry, theirs: Published) -> float:
    """Our share minus theirs in standard errors of the difference (binomial errors of
    both samples; theirs only when its size is known)."""
    q, p = ours.winnability, theirs.share
    variance = q * (1 - q) / ours.decided
    if theirs.deals:
        variance += p * (1 - p) / theirs.deals
    if variance == 0:
        return math.copysign(math.inf, q - p) if q != p else 0.0
    return (q - p) / math.sqrt(variance)


def published_section(found: list[Entry]) -> list[str]:
    """The published figures beside ours, where the database has their rules."""
    lines = [
        "| published | their figure | ours | deals | ours − theirs | theirs inside our 95% CI? |",
        "|---|--:|--:|---|--:|---|",
    ]
    notes = []
    shown: list[Entry] = []
    for i, p in enumerate(PUBLISHED, 1):
        mine = [e for e in found if e.rules == p.rules and e.decided]
        if not mine:
            continue
        s = max(mine, key=lambda x: x.decided)
        shown.append(s)
        low, high = wilson(s.won, s.decided)
        inside = "yes" if low <= p.share <= high else "no"
        over = "" if p.deals is None else f" over {p.deals:,} deals"
        lines.append(
            f"| {p.who} [{i}] | {_percent(p.share, 4)}{over} | {_winnable(s)} "
            f"| {spans(s.source, s.spans)} ({name(s.rules)}) "
            f"| {100 * (s.winnability - p.share):+.4f} points, {gap_sigma(s, p):+.1f}σ | {inside} |"
        )
        notes.append(f"{i}. {p.note}")
    if not notes:
        return []
    gap = [""] + STANDARD_GAP.splitlines() if any(s.rules == STANDARD for s in shown) else []
    return [*lines, "", *notes, *gap]


def markdown(
    found: list[Entry], db: str, *, plot: str | None = None, atlas: str | None = None
) -> str:
    """The atlas page of ``found`` (the database named ``db`` in the commands it shows);
    ``plot``: the PNG file ``--plot`` writes, linked by its name (the page is saved beside
    it); ``atlas``: the atlas file ``--atlas`` keeps the entries in."""
    if not found:
        return f"No survey results in {db}."
    make = [command(e, db) for e in found]
    report = f"eightoff survey report --db {db} --markdown"
    if plot is not None:
        report += f" --plot {plot}"
    if atlas is not None:
        report += f" --atlas {atlas}"
    out = [
        "# The Eight Off atlas",
        "",
        "How often each variant of Eight Off can be won, from a survey that solved every deal",
        "of the ranges below (a win is the solver's winning line, its move rules held to the",
        "engine's legal moves by the tests; a loss, an exhaustive search that found none).",
        "This page is generated: to make it again from nothing, run",
        "",
        "```sh",
        *make,
        report + " > atlas.md",
        "```",
        "",
        "A survey run again resumes where it stopped; `--workers N` chooses the processes.",
        "Variants are named as game codes name them: `C8`, `C4`, `C2` cells; `E` any card to an",
        "empty column (else Kings only); `A` build in alternating colours (else in suit);",
        "`B` Baker's Game deal (else Eight Off's); `F`/`S` FreeCell-formula or one-card",
        "runs; `T` take-back (the options are described in [rules.md](rules.md)). Lengths",
        "count single-card moves; times are the solver's on one core of the machine the",
        "survey ran on.",
        "",
        *_atlas_note(atlas, db),
        *_variants_section(
            "## Winnability by variant",
            """\
Winnable: the share of won deals among the decided ones, with its 95% Wilson interval;
where deals are left unknown, the true share over every deal lies between won / all
and (won + unknown) / all.""",
            [e for e in found if not _pysol_only(e)],
        ),
    ]
    unknown = [e for e in found if e.unknown]
    if unknown:
        out += [
            "",
            "Deals left unknown (the time limit, or the search tables, 1 GiB unless the commands",
            "say `--memory`, ran out before a win or a proof):",
            "",
        ]
        for s in unknown:
            shown = ", ".join(str(d) for d in s.unknown[:SHOW_UNKNOWN])
            rest = len(s.unknown) - SHOW_UNKNOWN
            more = f" and {rest} more" if rest > 0 else ""
            out.append(f"- {name(s.rules)}, {s.source}: {shown}{more}")
    pysol = [e for e in found if _pysol_only(e)]
    if pysol:
        out += [
            "",
            *_variants_section(
                "### PySolFC's deals",
                """\
The deals other solvers are measured on: PySolFC's numbered Eight Off deals
(`pysol:` ranges, the same boards PySolFC shows for those numbers), dealt under
each variant's rules: each verdict can be checked against another solver's, deal
by deal.""",
                pysol,
            ),
        ]
    optimal = [e for e in found if e.optimal]
    if optimal:
        out += ["", "## Proven-optimal solution lengths", ""]
        for i, e in enumerate(optimal):
            out += optimal_section(e, plot_name(plot) if i == 0 else None) + [""]
    comparison = published_section(found)
    if comparison:
        out += ["", "## Published figures", "", *comparison]
    return "\n".join(out).rstrip() + "\n"


def _variants_section(heading: str, prose: str, found: list[Entry]) -> list[str]:
    # A section of the page: its heading, its prose and the table of ``found``.
    return [heading, "", *prose.splitlines(), "", *variants_table(found)]


def _atlas_note(atlas: str | None, db: str) -> list[str]:
    # How the page grows a few variants at a time.
    if atlas is None:
        return []
    return [
        f"Each group's figures are kept in [{Path(atlas).name}]({Path(atlas).name}) too. Some",
        "variants may be surveyed into a database of their own: the report line, given",
        f"that database as --db {db}, replaces their groups in the file, keeps the others",
        "and makes the page from them all, so the rows of one page may come from",
        "different days and machines.",
        "",
    ]


def _pysol_only(e: Entry) -> bool:
    # A survey of PySolFC's numbering, not of the atlas's own sample (optimal mode aside).
    return e.source == "pysol" and not e.optimal_mode


def plot_name(plot: str | Path | None) -> str | None:
    """How the page links the plot: the file's name (the page is saved beside it)."""
    return None if plot is None else Path(plot).name
