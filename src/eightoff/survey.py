"""Surveys: solve ranges of deals on local processes or a Dask cluster, into SQLite.

A survey walks a :class:`DealRange`, skips the deals its database already
holds, and hands the rest out in chunks to an executor: a local process pool
(default, every core) or an existing Dask distributed cluster. Each finished
chunk comes back to the process that runs the survey and is written in one
transaction, so a survey killed at any moment and run again finishes with
exactly one row per deal.
"""

from __future__ import annotations

import fcntl
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final, TypedDict, Unpack

from eightoff.errors import EightOffError
from eightoff.numbers import InvalidNumberError, excerpt, whole_number
from eightoff.rules import STANDARD, Rules
from eightoff.solver.result import COMMAND_LIMIT, Limit
from eightoff.store import SOURCES, DamagedStoreError, Store
from eightoff.workers import (
    SurveyError,
    Task,
    dask_executor,
    local_executor,
)

MAX_DEAL: Final = 2**63 - 1  # SQLite's INTEGER; the deal modules check their own bounds
BLOCK: Final = 10_000  # deal numbers looked up in the database at a time
DASK_TIMEOUT = 10.0  # seconds to wait for a Dask scheduler to answer


class InvalidRangeError(EightOffError):
    """A deal range that cannot be read, like ``5-1`` or ``pysol:x``."""


@dataclass(frozen=True, slots=True)
class DealRange:
    """Deal numbers of one source: sorted, merged, inclusive spans.

    Text form: an optional ``pysol:`` or ``eightoff:`` prefix, then numbers and
    ``low-high`` spans separated by commas: ``1-100000``, ``pysol:1-2000``,
    ``1,5,9-12``. ``DealRange.parse(str(r)) == r``.
    """

    source: str
    spans: tuple[tuple[int, int], ...]

    @classmethod
    def parse(cls, text: str) -> DealRange:
        """Read the text form (see the class docstring)."""
        raw = text.strip()
        source = "eightoff"
        body = raw
        if ":" in raw:
            prefix, _, body = raw.partition(":")
            source = prefix.strip().lower()
            if source not in SOURCES:
                raise InvalidRangeError(
                    f"bad deal range {excerpt(raw)}: the source must be "
                    f"{' or '.join(SOURCES)}, not {prefix!r}"
                )
        spans: list[tuple[int, int]] = []
        for part in body.replace(" ", "").split(","):
            low_text, dash, high_text = part.partition("-")
            try:
                low = whole_number(low_text)
                high = whole_number(high_text) if dash else low
            except InvalidNumberError as exc:
                raise InvalidRangeError(
                    f"bad deal range {excerpt(raw)}: {excerpt(part)} is not a number or a span "
                    f"like 1-100: {exc}"
                ) from None
            if high > MAX_DEAL:
                raise InvalidRangeError(f"bad deal range {excerpt(raw)}: {high} is too large")
            if high < low:
                raise InvalidRangeError(
                    f"bad deal range {excerpt(raw)}: {excerpt(part)} runs backwards"
                )
            spans.append((low, high))
        return cls(source, _merge(spans))

    def __len__(self) -> int:
        return sum(high - low + 1 for low, high in self.spans)

    def __iter__(self) -> Iterator[int]:
        for low, high in self.spans:
            yield from range(low, high + 1)

    def __contains__(self, deal: object) -> bool:
        return isinstance(deal, int) and any(low <= deal <= high for low, high in self.spans)

    def __str__(self) -> str:
        body = ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in self.spans)
        return body if self.source == "eightoff" else f"{self.source}:{body}"

    def blocks(self, size: int = BLOCK) -> Iterator[tuple[int, int]]:
        """The spans cut into inclusive pieces of at most ``size`` numbers."""
        for low, high in self.spans:
            for start in range(low, high + 1, size):
                yield start, min(high, start + size - 1)


def _merge(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


@dataclass(slots=True)
class Counts:
    """Tallies of one survey run."""

    total: int = 0  # deals in the range
    skipped: int = 0  # already in the database when the run started
    done: int = 0  # solved by this run
    verdicts: dict[str, int] = field(
        default_factory=lambda: {"solved": 0, "unsolvable": 0, "unknown": 0}
    )

    @property
    def pending(self) -> int:
        """Deals this run still has to do."""
        return self.total - self.skipped - self.done


class Progress:
    """A one-line progress bar on a terminal (``\\r``); quiet periodic lines otherwise."""

    def __init__(
        self,
        label: str,
        counts: Counts,
        stream: IO[str] | None = None,
        *,
        tty: bool | None = None,
        every: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.counts = counts
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.every = 0.2 if self.tty else every
        self.clock = clock
        self.start = clock()
        self.last = -math.inf

    def line(self) -> str:
        """The current status text."""
        c = self.counts
        todo = c.total - c.skipped
        elapsed = max(self.clock() - self.start, 1e-9)
        rate = c.done / elapsed
        eta = _duration(c.pending / rate) if rate > 0 else "?"
        share = c.done / todo if todo else 1.0
        verdicts = " ".join(f"{k} {v}" for k, v in c.verdicts.items() if v)
        head = f"{self.label} {c.done}/{todo} {share:6.1%}"
        if self.tty:
            filled = round(20 * share)
            head = f"{self.label} [{'#' * filled}{'.' * (20 - filled)}] {c.done}/{todo}"
        return f"{head}  {rate:.2f} deals/s  ETA {eta}  {verdicts}".rstrip()

    def update(self, *, force: bool = False) -> None:
        """Redraw (terminal) or print a line (otherwise) when it is time."""
        now = self.clock()
        if not force and now - self.last < self.every:
            return
        self.last = now
        if self.tty:
            self.stream.write("\r\x1b[K" + self.line())
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Final state, ending the terminal line."""
        self.update(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    s = round(seconds)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s // 60 % 60:02d}m"


def pending_deals(
    store: Store, deals: DealRange, rules: Rules, *, redo_unknown: bool = False
) -> Iterator[int]:
    """The deals of ``deals`` with no row yet, in order, looked up a block at a time."""
    for low, high in deals.blocks():
        done = store.done(rules, deals.source, low, high, redo_unknown=redo_unknown)
        for number in range(low, high + 1):
            if number not in done:
                yield number


def chunks(numbers: Iterator[int], size: int) -> Iterator[tuple[int, ...]]:
    """``numbers`` in tuples of ``size`` (the last may be shorter)."""
    batch: list[int] = []
    for n in numbers:
        batch.append(n)
        if len(batch) == size:
            yield tuple(batch)
            batch = []
    if batch:
        yield tuple(batch)


# Most deals take well under a millisecond with the C core, so a task carries up to
# this many: a Dask task costs a few milliseconds to send and collect whatever it holds.
MAX_CHUNK = 256


def chunk_size(pending: int, workers: int) -> int:
    """Deals per task: enough tasks to keep every worker busy and the progress
    bar moving, few enough that sending them costs little; a kill loses at most
    the chunks in flight."""
    return max(1, min(MAX_CHUNK, pending // (workers * 8)))


@contextmanager
def _only_survey(db: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``db`` while a survey runs on it: a second survey on the
    same file stops at once instead of doing the same work again.

    ``flock`` locks are apart from SQLite's own (``fcntl``) locks; the descriptor stays
    open until the survey has closed the database, so closing it cannot drop those.
    """
    fd = os.open(db, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SurveyError(
                f"another survey is running on {db}; run this one when it has finished "
                "(it resumes where that one stopped)"
            ) from None
        yield
    finally:
        os.close(fd)


def run_survey(
    db: str | Path,
    deals: DealRange,
    rules: Rules = STANDARD,
    *,
    workers: int | None = None,
    dask: str | None = None,
    dask_timeout: float | None = None,
    limit: Limit = COMMAND_LIMIT,
    layers_dir: str | None = None,
    optimal: bool = False,
    redo_unknown: bool = False,
    size: int | None = None,
    progress: IO[str] | None = None,
    tty: bool | None = None,
    every: float = 30.0,
) -> Counts:
    """Solve every deal of ``deals`` not yet in ``db``; return what this run did.

    ``workers`` local processes (default: every core), or the Dask cluster at
    ``dask``. Each deal is solved within ``limit``.
    ``layers_dir`` (a path on each worker) keeps each deal's proof by layers there: a
    deal a limit, Ctrl-C or a kill stopped in its layers goes on from its last finished
    layer with ``redo_unknown`` (see :func:`eightoff.solver.solve`).
    ``redo_unknown`` retries deals whose stored verdict is ``unknown`` (for example with
    a larger time or memory limit). Progress goes to ``progress`` (default stderr).
    """
    if workers is not None and workers < 1:
        raise SurveyError(f"--workers must be at least 1, not {workers}")
    if workers is not None and dask is not None:
        raise SurveyError("--workers counts local processes; a Dask cluster has its own workers")
    if limit.memory is not None and limit.memory % (1 << 20):
        # The atlas's commands give it again as --memory MIB.
        raise SurveyError(
            f"a survey's memory limit is a whole number of MiB, not {limit.memory} bytes"
        )
    _check_deals(deals, rules)
    try:
        store = Store(db)
    except DamagedStoreError as exc:
        raise DamagedStoreError(f"{exc}; the survey wrote nothing") from None
    with _only_survey(store.path), store:
        counts = Counts(total=len(deals))
        for low, high in deals.blocks():
            counts.skipped += len(
                store.done(rules, deals.source, low, high, redo_unknown=redo_unknown)
            )
        if dask is not None:
            execute, parallel = dask_executor(dask, timeout=dask_timeout or DASK_TIMEOUT)
        else:
            parallel = workers or os.cpu_count() or 1
            execute = local_executor(parallel)
        per_task = size or chunk_size(counts.pending, parallel)
        tasks = (
            Task(rules, deals.source, chunk, limit, optimal, layers_dir)
            for chunk in chunks(
                pending_deals(store, deals, rules, redo_unknown=redo_unknown), per_task
            )
        )
        bar = Progress(f"survey {deals}", counts, progress, tty=tty, every=every)
        bar.update(force=True)
        try:
            for rows in execute(tasks):
                store.add(rows)
                counts.done += len(rows)
                for r in rows:
                    counts.verdicts[r.verdict] += 1
                bar.update()
        finally:
            bar.close()
    return counts


def _check_deals(deals: DealRange, rules: Rules) -> None:
    """Fail early (and clearly) on deal numbers the deal modules refuse."""
    from eightoff.deal import deal, pysol_deal

    make = deal if deals.source == "eightoff" else pysol_deal
    for number in {deals.spans[0][0], deals.spans[-1][1]}:
        try:
            make(number, rules)
        except ValueError as exc:
            raise SurveyError(f"deal {deals.source}:{number}: {exc}") from None


class SurveyOptions(TypedDict, total=False):
    """:func:`run_survey`'s options as the command line gives them."""

    workers: int | None
    dask: str | None
    limit: Limit
    layers_dir: str | None
    optimal: bool
    redo_unknown: bool


def command(
    db: str | Path,
    deals: str | DealRange,
    rules: Rules | None = None,
    **options: Unpack[SurveyOptions],
) -> int:
    """``eightoff survey RANGE …`` (see :mod:`eightoff.cli`): run, then print one line.

    ``rules`` is what the rule options name (``None``: the standard rules).
    """
    if isinstance(deals, str):
        deals = DealRange.parse(deals)
    try:
        counts = run_survey(db, deals, rules or STANDARD, **options)
    except KeyboardInterrupt:
        print(
            "eightoff: survey interrupted; finished deals are saved, run the same command "
            "again to go on",
            file=sys.stderr,
        )
        return 130
    verdicts = ", ".join(f"{k} {v}" for k, v in counts.verdicts.items())
    print(
        f"survey {deals}: {counts.total} deals; {counts.skipped} already in {db}, "
        f"{counts.done} solved now ({verdicts})"
    )
    return 0


def report_command(
    db: str | Path,
    rules: Rules | None = None,
    *,
    plot: str | None = None,
    markdown: bool = False,
    atlas: str | None = None,
) -> int:
    """``eightoff survey report …``: print the report (of every rule set in ``db`` when
    ``rules`` is ``None``) and, with ``plot``, write histograms to that PNG file. With
    ``markdown``, print the atlas page instead (see :mod:`eightoff.atlaspage`); its plot
    shows the groups with proven-optimal rows. With ``atlas`` (markdown only), the
    database's groups replace theirs in that atlas file, the others are kept, and the
    page shows them all; a plot is drawn only when the database has optimal rows (else
    the one the page links is left as it is)."""
    from eightoff.report import ReportError, check_plot_path, report, summaries
    from eightoff.report import plot as draw

    if atlas is not None and not markdown:
        raise ReportError("--atlas keeps the atlas page's figures: use it with --markdown")
    target = None if plot is None else check_plot_path(plot)
    from eightoff import atlas as pages
    from eightoff.atlaspage import markdown as page

    if atlas is not None:
        pages.check_path(atlas)
    with Store(db, readonly=True) as store:
        store.check_rows()
        if markdown:
            made = pages.groups(store, rules)  # read once: the page's and the plot's
            found = [pages.Entry.of(g) for g in made]
            if atlas is not None:
                found = pages.merged(found, pages.read(atlas))
                pages.write(atlas, found)
            print(page(found, str(db), plot=plot, atlas=atlas), end="")
            drawn = pages.plotted(made)
            if target is not None and (drawn or atlas is None):
                draw(drawn, target)
            elif target is not None:
                print(f"{target} kept: {db} has no --optimal rows to plot", file=sys.stderr)
            return 0
        print(report(store, rules))
        if target is not None:
            draw(summaries(store, rules), target)
            print(f"\nHistograms written to {target}")
    return 0
