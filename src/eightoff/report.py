"""Survey reports: verdict counts, winnability with a confidence interval,
distributions of solution length and solve time, the unsolvable deals; and
the same as histograms (matplotlib, Agg backend, written to a PNG file).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from eightoff.errors import EightOffError
from eightoff.rules import PRESETS, Rules
from eightoff.store import RATINGS, Store, rules_key

Z95: Final = 1.959963984540054  # the normal quantile for a two-sided 95% interval
QUANTILES: Final = ((0.0, "min"), (0.1, "p10"), (0.5, "median"), (0.9, "p90"), (0.99, "p99"))
SHOW_DEALS: Final = 50  # unsolvable / unknown deals listed by number, at most


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (good near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` (linear interpolation)."""
    if not values:
        return math.nan
    pos = q * (len(values) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (pos - low)


def rules_label(rules: Rules) -> str:
    """A preset's name, or the rules spelled out."""
    for name, known in PRESETS.items():
        if known == rules:
            return f"{name} ({rules.describe()})"
    return rules.describe()


# A survey's limits, as stored: seconds, nodes, bytes of search tables (None: no limit;
# for the tables, the solver's default).
Limits = tuple[float | None, int | None, int | None]


@dataclass(slots=True)
class Summary:
    """Everything a report says about one (rules, source) group of a survey."""

    rules: Rules
    source: str
    verdicts: dict[str, int]
    ratings: dict[str, int]
    lengths: list[int]  # sorted, solved deals
    seconds: list[float]  # sorted, every deal
    nodes: list[int]  # sorted, every deal
    spans: list[tuple[int, int]]  # the deal numbers surveyed, as inclusive spans
    unsolvable: list[int]
    unknown: list[int]
    solvers: list[str]
    limits: list[Limits] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Rows in the group."""
        return sum(self.verdicts.values())

    @property
    def decided(self) -> int:
        """Deals with a proof either way."""
        return self.verdicts["solved"] + self.verdicts["unsolvable"]

    @property
    def winnability(self) -> float:
        """Solved share of the decided deals."""
        return self.verdicts["solved"] / self.decided if self.decided else math.nan


def summarize(store: Store, rules: Rules, source: str) -> Summary:
    """Read one group of ``store``."""
    key = rules_key(rules)
    args = (key, source)
    where = " WHERE rules = ? AND source = ?"
    verdicts = {"solved": 0, "unsolvable": 0, "unknown": 0}
    for verdict, n in store.execute(
        "SELECT verdict, count(*) FROM results" + where + " GROUP BY verdict", args
    ):
        verdicts[verdict] = n
    ratings = dict.fromkeys(RATINGS, 0)
    for rating, n in store.execute(
        "SELECT rating, count(*) FROM results" + where + " AND rating IS NOT NULL GROUP BY rating",
        args,
    ):
        ratings[rating] = n

    def column(select: str, more: str = "") -> list[Any]:
        """One column of the group's rows (``more``: further conditions, ordering)."""
        return [r[0] for r in store.execute(f"SELECT {select} FROM results{where}{more}", args)]

    lengths = sorted(int(n) for n in column("length", " AND verdict = 'solved'"))
    seconds = sorted(float(s) for s in column("seconds"))
    nodes = sorted(int(n) for n in column("nodes"))
    # Gaps and islands: consecutive deal numbers share deal - row_number().
    spans = [
        (int(r[0]), int(r[1]))
        for r in store.execute(
            "SELECT min(deal), max(deal) FROM (SELECT deal, deal - row_number() OVER "
            "(ORDER BY deal) AS island FROM results" + where + ") GROUP BY island ORDER BY 1",
            args,
        )
    ]
    return Summary(
        rules=rules,
        source=source,
        verdicts=verdicts,
        ratings=ratings,
        lengths=lengths,
        seconds=seconds,
        nodes=nodes,
        spans=spans,
        unsolvable=[int(d) for d in column("deal", " AND verdict = 'unsolvable' ORDER BY deal")],
        unknown=[int(d) for d in column("deal", " AND verdict = 'unknown' ORDER BY deal")],
        solvers=[str(s) for s in column("DISTINCT solver")],
        limits=[
            (r[0], r[1], r[2])
            for r in store.execute(
                f"SELECT DISTINCT {store.limit_columns} FROM results" + where, args
            )
        ],
    )


def summaries(store: Store, rules: Rules | None = None) -> list[Summary]:
    """A summary per (rules, source) group, of one rule set if ``rules`` is given."""
    return [
        summarize(store, r, source)
        for r, source, _ in store.groups()
        if rules is None or r == rules
    ]


def _spans_text(source: str, spans: list[tuple[int, int]], most: int = 6) -> str:
    parts = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in spans[:most]]
    if len(spans) > most:
        parts.append(f"… ({len(spans) - most} more spans)")
    prefix = "" if source == "eightoff" else f"{source}:"
    return prefix + ",".join(parts)


def _number(x: float) -> str:
    if math.isnan(x):
        return "-"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def _distribution(values: Sequence[float]) -> str:
    parts = [f"{name} {_number(quantile(values, q))}" for q, name in QUANTILES]
    parts.append(f"max {_number(values[-1]) if values else '-'}")
    mean = sum(values) / len(values) if values else math.nan
    parts.append(f"mean {_number(mean)}")
    return " · ".join(parts)


def _deal_list(source: str, deals: list[int]) -> str:
    prefix = "" if source == "eightoff" else f"{source}:"
    shown = ", ".join(f"{prefix}{d}" for d in deals[:SHOW_DEALS])
    if len(deals) > SHOW_DEALS:
        shown += f", … and {len(deals) - SHOW_DEALS} more"
    return shown


def _percent(x: float) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.2f}%"


def report_text(summary: Summary) -> str:
    """The report of one group, as plain text."""
    s = summary
    lines = [
        f"Rules:   {rules_label(s.rules)}",
        f"Deals:   {_spans_text(s.source, s.spans)} ({s.total} deals)",
        f"Solver:  {', '.join(s.solvers)}; limits: "
        + "; ".join(
            f"{'no time limit' if t is None else f'{t:g} s'}, "
            f"{'no node limit' if n is None else f'{n} nodes'}"
            + ("" if m is None else f", {m >> 20} MiB of tables")
            for t, n, m in s.limits
        ),
        "",
        "Verdicts:",
    ]
    for verdict, n in s.verdicts.items():
        share = n / s.total if s.total else math.nan
        lines.append(f"  {verdict:<11} {n:>9}  {_percent(share):>7}")
    low, high = wilson(s.verdicts["solved"], s.decided)
    lines.append("")
    lines.append(
        f"Winnability: {_percent(s.winnability)} (95% CI {_percent(low)}–{_percent(high)}, "
        f"Wilson; {s.verdicts['solved']} of {s.decided} decided deals)"
    )
    if s.verdicts["unknown"] and s.total:
        lost = s.verdicts["solved"] / s.total
        won = (s.verdicts["solved"] + s.verdicts["unknown"]) / s.total
        lines.append(
            f"  counting the {s.verdicts['unknown']} unknown deals as all lost / all won: "
            f"{_percent(lost)} – {_percent(won)}"
        )
    if s.lengths:
        lines.append("Ratings (solved): " + " · ".join(f"{r} {n}" for r, n in s.ratings.items()))
    lines.append("")
    lines.append("Solution length (single-card moves, solved deals):")
    lines.append("  " + _distribution(s.lengths))
    lines.append("Solve time (seconds, every deal):")
    lines.append("  " + _distribution(s.seconds))
    lines.append("Search effort (positions expanded, every deal):")
    lines.append("  " + _distribution(s.nodes))
    lines.append("")
    shown = _deal_list(s.source, s.unsolvable) if s.unsolvable else "none"
    lines.append(f"Unsolvable deals ({len(s.unsolvable)}): {shown}")
    if s.unknown:
        lines.append(f"Unknown deals ({len(s.unknown)}): {_deal_list(s.source, s.unknown)}")
    return "\n".join(lines)


def report(store: Store, rules: Rules | None = None) -> str:
    """The report of every group of ``store`` (or of ``rules``), as plain text."""
    groups = summaries(store, rules)
    if not groups:
        what = "" if rules is None else f" for {rules_label(rules)}"
        return f"No survey results{what} in {store.path}."
    return "\n\n".join(report_text(s) for s in groups)


_COLOURS: Final = {
    "easy": "#4daf4a",
    "medium": "#ff9f1c",
    "hard": "#d1495b",
    "unsolvable": "#333333",
    "unknown": "#999999",
    "bars": "#3b6ea5",
}


_LABEL_BOX: Final = {"facecolor": "white", "alpha": 0.85, "edgecolor": "none", "pad": 1.5}


class ReportError(EightOffError):
    """A report that cannot be written where asked."""


def check_plot_path(path: str | Path) -> Path:
    """``path`` as the PNG file :func:`plot` writes, or :class:`ReportError` saying why not."""
    target = Path(path)
    if target.is_dir():
        raise ReportError(
            f"--plot {path} is a directory: give a file name, like {target / 'survey.png'}"
        )
    if target.suffix.lower() != ".png":
        raise ReportError(f"--plot writes a PNG image: give a name ending in .png, not {path!r}")
    if not target.parent.is_dir():
        raise ReportError(f"--plot {path}: there is no directory {target.parent}")
    return target


def plot(groups: Sequence[Summary], path: str | Path) -> None:
    """Histograms of ``groups`` (one row each) into a PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    rows = max(1, len(groups))
    fig, axes = plt.subplots(rows, 3, figsize=(16, 4.6 * rows + 0.6), squeeze=False)
    from matplotlib.ticker import MaxNLocator

    for row, s in zip(axes, groups, strict=False):
        _plot_verdicts(row[0], s)
        _plot_lengths(row[1], s)
        _plot_times(row[2], s)
        for ax in row:
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # deals are whole
        row[1].xaxis.set_major_locator(MaxNLocator(integer=True))  # so are moves
    if not groups:
        for ax in axes[0]:
            ax.text(0.5, 0.5, "no survey results", ha="center", va="center", fontsize=14)
            ax.set_axis_off()
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")  # exactly ``path``: no suffix added
    plt.close(fig)


def _title(s: Summary) -> str:
    label = rules_label(s.rules).split(" (")[0]
    return f"{label} · {_spans_text(s.source, s.spans, most=2)}"


def _plot_verdicts(ax: object, s: Summary) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    names = ["solved", "unsolvable", "unknown"]
    bottom = 0
    # The solved bar is stacked by rating, so the pool's shape shows too.
    for rating in RATINGS:
        n = s.ratings[rating]
        ax.bar(0, n, bottom=bottom, color=_COLOURS[rating], label=f"solved, {rating} ({n})")
        bottom += n
    unrated = s.verdicts["solved"] - bottom
    if unrated > 0:
        ax.bar(0, unrated, bottom=bottom, color=_COLOURS["bars"], label=f"solved ({unrated})")
    ax.bar(1, s.verdicts["unsolvable"], color=_COLOURS["unsolvable"])
    ax.bar(2, s.verdicts["unknown"], color=_COLOURS["unknown"])
    top = max(s.verdicts.values()) or 1
    for i, name in enumerate(names):
        ax.text(i, s.verdicts[name] + top * 0.02, str(s.verdicts[name]), ha="center", fontsize=12)
    ax.set_xticks(range(3), names, fontsize=12)
    ax.set_ylim(0, top * 1.18)
    ax.set_ylabel("deals", fontsize=12)
    low, high = wilson(s.verdicts["solved"], s.decided)
    interval = f"95% CI {_percent(low)}–{_percent(high)}"
    ax.set_title(f"{_title(s)}\nwinnable {_percent(s.winnability)} ({interval})", fontsize=12)
    ax.legend(loc="upper right", fontsize=10, frameon=False)


def _plot_lengths(ax: object, s: Summary) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    if not s.lengths:
        ax.text(0.5, 0.5, "no solved deals", ha="center", va="center", transform=ax.transAxes)
    else:
        lo, hi = s.lengths[0], s.lengths[-1]
        if hi - lo < 20:  # a handful of deals: keep some room around them
            lo, hi = lo - 10, hi + 10
        width = max(1, math.ceil((hi - lo + 1) / 40))  # about 40 bars, whole moves each
        bins = list(range(lo, hi + width + 1, width))
        ax.hist(s.lengths, bins=bins, color=_COLOURS["bars"], edgecolor="white", linewidth=0.5)
        median = quantile(s.lengths, 0.5)
        ax.axvline(median, color="black", linestyle="--", linewidth=1.2)
        ax.text(
            median,
            ax.get_ylim()[1] * 0.95,
            f" median {median:.0f}",
            va="top",
            fontsize=11,
            bbox=_LABEL_BOX,
        )
    ax.set_xlabel("solution length (single-card moves)", fontsize=12)
    ax.set_ylabel("solved deals", fontsize=12)
    ax.set_title(f"Solution length ({len(s.lengths)} solved deals)", fontsize=12)


def _plot_times(ax: object, s: Summary) -> None:
    from matplotlib.axes import Axes

    assert isinstance(ax, Axes)
    times = [max(t, 1e-4) for t in s.seconds]  # a log axis cannot show 0
    if not times:
        ax.text(0.5, 0.5, "no deals", ha="center", va="center", transform=ax.transAxes)
    else:
        # About 40 bars evenly spaced on the log axis, from the fastest deal to the slowest.
        low = math.log10(times[0])
        high = max(math.log10(times[-1]), low + 1)  # at least a decade wide
        bins = [10 ** (low + (high - low) * i / 40) for i in range(41)]
        ax.hist(times, bins=bins, color=_COLOURS["bars"], edgecolor="white", linewidth=0.5)
        ax.set_xscale("log")
        median = quantile(s.seconds, 0.5)
        ax.axvline(max(median, 1e-4), color="black", linestyle="--", linewidth=1.2)
        ax.text(
            max(median, 1e-4),
            ax.get_ylim()[1] * 0.95,
            f" median {_seconds(median)}",
            va="top",
            fontsize=11,
            bbox=_LABEL_BOX,
        )
        p99 = quantile(s.seconds, 0.99)
        ax.axvline(max(p99, 1e-4), color=_COLOURS["hard"], linestyle=":", linewidth=1.2)
        ax.text(
            max(p99, 1e-4),
            ax.get_ylim()[1] * 0.80,
            f" p99 {_seconds(p99)}",
            va="top",
            color=_COLOURS["hard"],
            fontsize=11,
            bbox=_LABEL_BOX,
        )
    ax.set_xlabel("solve time (seconds, log scale)", fontsize=12)
    ax.set_ylabel("deals", fontsize=12)
    ax.set_title(f"Solve time ({len(s.seconds)} deals)", fontsize=12)


def _seconds(x: float) -> str:
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.1f} s"
