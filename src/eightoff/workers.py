"""Where a survey's deals are solved: :func:`solve_task` solves one chunk (a :class:`Task`)
on a worker, and an executor hands the chunks out to local processes
(:func:`local_executor`, restarting a pool a crash broke) or to a Dask cluster
(:func:`dask_executor`), yielding each chunk's rows as it finishes.
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any, Final

from eightoff.errors import EightOffError
from eightoff.rules import Rules
from eightoff.solver.result import Limit
from eightoff.store import Row


class SurveyError(EightOffError):
    """A survey that cannot run: bad options, an unreachable cluster, a busy database."""


@dataclass(frozen=True, slots=True)
class Task:
    """One chunk of work, sent to a worker: solve ``deals`` under ``rules``, each within
    ``limit``."""

    rules: Rules
    source: str
    deals: tuple[int, ...]
    limit: Limit
    optimal: bool = False
    layers_dir: str | None = None  # the proof by layers' files kept there (on the worker)


# The executor side: given tasks, yield finished chunks (rows) in completion order.
Executor = Callable[[Iterator[Task]], Iterator[list[Row]]]


_PARENT: int | None = None  # set in local pool workers: the survey's pid


ORPHAN_CHECK: Final = 0.5  # seconds between a worker's looks at its parent


def _local_worker_init(parent: int) -> None:
    global _PARENT
    _PARENT = parent
    # Ctrl-C reaches every process of the terminal's group; the survey process
    # handles it and shuts the pool down, the workers just keep quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A survey killed outright (SIGKILL) cannot stop its workers: each one looks every
    # ORPHAN_CHECK seconds, even mid-solve (the solver runs without the GIL), and ends.
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(1)  # nobody is left to read what this worker would find


def solve_task(task: Task) -> list[Row]:
    """Solve every deal of ``task`` (runs on a worker; needs only eightoff installed)."""
    from eightoff.deal import deal, pysol_deal
    from eightoff.pool import rate
    from eightoff.solver import Verdict, solve

    make = deal if task.source == "eightoff" else pysol_deal
    limit = task.limit
    version = solver_version()
    rows: list[Row] = []
    for number in task.deals:
        if _PARENT is not None and os.getppid() != _PARENT:
            os._exit(1)  # the survey process died (e.g. SIGKILL): stop, nobody will read this
        position = make(number, task.rules)
        result = solve(position, limit=limit, optimal=task.optimal, layers_dir=task.layers_dir)
        solved = result.verdict is Verdict.SOLVED
        rating = rate(result.length, result.nodes) if solved else None
        if solved and task.optimal:
            # Ratings are calibrated on the fast solver's line and effort; A* expands
            # far more positions on every deal, so rate what the fast solver does.
            fast = solve(position, limit=limit)
            rating = rate(fast.length, fast.nodes) if fast.verdict is Verdict.SOLVED else "hard"
        rows.append(
            Row(
                rules=task.rules,
                source=task.source,
                deal=number,
                verdict=result.verdict.value,
                length=result.length if solved else None,
                optimal=result.optimal,
                nodes=result.nodes,
                seconds=result.seconds,
                moves=" ".join(m.text() for m in result.moves),
                solver=version,
                rating=rating,
                time_limit=limit.seconds,
                node_limit=limit.nodes,
                memory_limit=limit.memory,
            )
        )
    return rows


def solver_version() -> str:
    """The version string stored with every row."""
    import eightoff
    import eightoff.solver

    version = getattr(eightoff.solver, "__version__", None) or eightoff.__version__
    return str(version)


def local_executor(workers: int, work: Callable[[Task], list[Row]] = solve_task) -> Executor:
    """Run tasks on ``workers`` local processes (``work`` solves one task).

    If a worker process dies (a crash in native code, the OOM killer), the
    pool is restarted and the tasks that were in flight are retried one deal
    at a time; a deal whose worker dies again stops the survey with a
    :class:`SurveyError` naming the deals in flight.
    """

    def run(tasks: Iterator[Task]) -> Iterator[list[Row]]:
        retry: list[Task] = []  # deals in flight when a worker died, one per task
        while True:
            lost = yield from _run_pool(workers, work, retry or tasks)
            if lost and retry:
                deals = ", ".join(str(n) for t in lost for n in t.deals)
                raise SurveyError(
                    f"a worker process died twice, the second time solving deal(s) {deals} "
                    "(a crash in the solver?); the finished deals are saved"
                )
            if not lost and not retry:
                return  # every task done
            # After a crash: retry what was in flight, one deal per task, on a fresh pool;
            # after a clean retry: back to the rest of the tasks.
            retry = [replace(t, deals=(n,)) for t in lost for n in t.deals]

    return run


def _run_pool(
    workers: int, work: Callable[[Task], list[Row]], tasks: Iterable[Task]
) -> Generator[list[Row], None, list[Task]]:
    """Run ``tasks`` on a new process pool, yielding finished chunks, until they are
    done or a worker dies; returns the tasks lost with the broken pool."""
    lost: list[Task] = []
    running: dict[Future[list[Row]], Task] = {}

    def finish(done: set[Future[list[Row]]]) -> Iterator[list[Row]]:
        for fut in done:
            task = running.pop(fut)
            try:
                rows = fut.result()
            except BrokenProcessPool:
                lost.append(task)
                continue
            yield rows

    with ProcessPoolExecutor(
        max_workers=workers, initializer=_local_worker_init, initargs=(os.getpid(),)
    ) as pool:
        try:
            for task in tasks:
                running[pool.submit(work, task)] = task
                if len(running) >= 2 * workers:  # a small window: memory stays flat
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    yield from finish(done)
                    if lost:
                        break  # the pool is broken: every task in flight fails too
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                yield from finish(done)
        except BaseException:  # Ctrl-C, or the survey stopped reading: stop at once
            _terminate(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return lost


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now rather than after their current chunk (which may take minutes).

    ``_processes`` is private, but the only handle before Python 3.14's
    ``terminate_workers``; the rows of unfinished chunks are simply not written.
    """
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def dask_executor(address: str, *, timeout: float = 10.0) -> tuple[Executor, int]:
    """Run tasks on the Dask distributed cluster at ``address``; also its thread count."""
    _probe_scheduler(address, timeout)  # before importing distributed: that takes seconds
    try:
        # Typed as Any: distributed has no type hints for these calls.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise SurveyError("--dask needs the 'distributed' package") from None
    as_completed = distributed.as_completed
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SurveyError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    threads = max(1, sum(client.nthreads().values()))

    def result(fut: Any) -> list[Row]:
        try:
            rows: list[Row] = fut.result()
        except distributed.KilledWorker as exc:  # Dask retried the task and gave up
            raise SurveyError(
                f"Dask workers died solving a chunk of deals ({exc}); the finished deals are saved"
            ) from None
        return rows

    def run(tasks: Iterator[Task]) -> Iterator[list[Row]]:
        try:
            window = as_completed(loop=client.loop)
            in_flight = 0
            for task in tasks:
                # pure=False: never merge two submissions; the function goes by reference
                # (eightoff.workers.solve_task), so workers need eightoff installed.
                window.add(client.submit(solve_task, task, pure=False))
                in_flight += 1
                if in_flight >= 2 * threads:
                    in_flight -= 1
                    yield result(next(window))
            for fut in window:
                yield result(fut)
        finally:
            client.close()

    return run, threads


def _probe_scheduler(address: str, timeout: float) -> None:
    """Check ``address`` reads as ``[tcp://]HOST:PORT`` and answers a connection, before a
    Dask client is made: a client that cannot connect hangs, then complains at exit."""
    m = re.fullmatch(r"(?:tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})/?", address)
    if not m or not 1 <= int(m.group(2)) <= 65535:
        raise SurveyError(f"--dask needs a scheduler address like tcp://HOST:8786, not {address!r}")
    host, port = m.group(1).strip("[]"), int(m.group(2))
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise SurveyError(f"cannot reach the Dask scheduler at {address}: {reason}") from None


__all__ = [
    "Executor",
    "SurveyError",
    "Task",
    "dask_executor",
    "local_executor",
    "solve_task",
    "solver_version",
]
