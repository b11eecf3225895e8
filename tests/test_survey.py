"""Surveys: deal ranges, the same verdicts as the solver, resuming, SIGKILL, Dask, the CLI."""

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eightoff.cli import main
from eightoff.deal import deal, pysol_deal
from eightoff.moves import Move
from eightoff.pool import rate
from eightoff.rules import PRESETS, STANDARD, Build, Rules
from eightoff.solver import Limit, solve
from eightoff.store import Row, Store
from eightoff.survey import (
    Counts,
    DealRange,
    InvalidRangeError,
    Progress,
    SurveyError,
    chunk_size,
    run_survey,
)
from eightoff.workers import Task, local_executor, solve_task

# -- ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "source", "spans", "shown"),
    [
        ("1-100000", "eightoff", ((1, 100000),), "1-100000"),
        ("pysol:1-2000", "pysol", ((1, 2000),), "pysol:1-2000"),
        ("1,5,9-12", "eightoff", ((1, 1), (5, 5), (9, 12)), "1,5,9-12"),
        (" PySol: 3, 1-2 ,7 ", "pysol", ((1, 3), (7, 7)), "pysol:1-3,7"),
        ("eightoff:0", "eightoff", ((0, 0),), "0"),
        ("5-9,1-6", "eightoff", ((1, 9),), "1-9"),
    ],
)
def test_range_parse(
    text: str, source: str, spans: tuple[tuple[int, int], ...], shown: str
) -> None:
    r = DealRange.parse(text)
    assert (r.source, r.spans, str(r)) == (source, spans, shown)
    assert DealRange.parse(str(r)) == r


def test_range_numbers_and_blocks() -> None:
    r = DealRange.parse("1,5,9-12")
    assert list(r) == [1, 5, 9, 10, 11, 12]
    assert len(r) == 6 and 10 in r and 6 not in r
    assert list(DealRange.parse("1-25").blocks(10)) == [(1, 10), (11, 20), (21, 25)]
    assert len(DealRange.parse("1-10000000")) == 10_000_000  # no list is built


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a number"),
        ("5-1", "runs backwards"),
        ("ms:1-5", "source must be eightoff or pysol"),
        ("1-x", "is not a number"),
        ("-5", "is not a number"),
        ("1,,2", "is not a number"),
    ],
)
def test_bad_ranges(text: str, message: str) -> None:
    with pytest.raises(InvalidRangeError, match=message):
        DealRange.parse(text)


def test_chunk_size() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(100, 2) == 6
    assert chunk_size(400, 2) == 25
    assert chunk_size(10_000_000, 64) == 256


# -- surveys -----------------------------------------------------------------------------

LIMIT = Limit(nodes=300_000, seconds=None)  # a node limit: the same answer on every run


def test_survey_gives_the_solver_verdicts(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    # 1275 is unsolvable under the standard rules; the rest are won.
    eightoff = DealRange.parse("1272-1276")
    pysol = DealRange.parse("pysol:1-3")
    counts = run_survey(db, eightoff, workers=2, limit=LIMIT, progress=io.StringIO())
    assert counts.done == 5 and counts.verdicts["unsolvable"] == 1
    run_survey(db, pysol, workers=1, limit=LIMIT, progress=io.StringIO())
    with Store(db) as store:
        rows = {(r.source, r.deal): r for r in store.rows()}
    assert len(rows) == 8
    cases = [("eightoff", n, deal(n)) for n in eightoff] + [
        ("pysol", n, pysol_deal(n)) for n in pysol
    ]
    for source, number, position in cases:
        direct = solve(position, limit=LIMIT)
        row = rows[(source, number)]
        assert row.verdict == direct.verdict.value
        assert row.nodes == direct.nodes
        assert row.moves == " ".join(m.text() for m in direct.moves)
        assert row.node_limit == LIMIT.nodes and row.time_limit is None
        if row.verdict == "solved":
            assert row.length == direct.length and row.rating is not None
            for text in row.moves.split():
                position = position.apply(Move.from_text(text))
            assert position.is_won()
        else:
            assert row.length is None and row.rating is None and row.moves == ""


def fake(number: int, verdict: str = "solved") -> Row:
    return Row(
        STANDARD,
        "eightoff",
        number,
        verdict,
        1 if verdict == "solved" else None,
        False,
        1,
        0.0,
        "",
        "fake",
    )


def test_resume_skips_done_deals_and_redoes_unknown_on_request(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with Store(db) as store:
        store.add([fake(2), fake(4, "unknown")])
    counts = run_survey(db, DealRange.parse("1-5"), workers=1, progress=io.StringIO())
    assert (counts.total, counts.skipped, counts.done) == (5, 2, 3)
    with Store(db) as store:
        solvers = {r.deal: r.solver for r in store.rows()}
    assert solvers[2] == solvers[4] == "fake" and solvers[1] != "fake"
    counts = run_survey(
        db, DealRange.parse("1-5"), workers=1, redo_unknown=True, progress=io.StringIO()
    )
    assert (counts.skipped, counts.done) == (4, 1)
    with Store(db) as store:
        assert store.count() == 5
        assert store.get(STANDARD, "eightoff", 4).solver != "fake"  # type: ignore[union-attr]
        assert store.get(STANDARD, "eightoff", 2).solver == "fake"  # type: ignore[union-attr]
    # Other rules are another survey.
    counts = run_survey(
        db, DealRange.parse("1-2"), PRESETS["easy"], workers=1, progress=io.StringIO()
    )
    assert counts.skipped == 0 and counts.done == 2


def test_the_memory_limit_is_each_deals_and_kept_with_its_rows(tmp_path: Path) -> None:
    # 2-cell alternating PySolFC 296 is lost: its proof needs more than 1 MiB of
    # tables (51,708 positions in its largest layer), less than 16 MiB.
    db, one = tmp_path / "s.db", DealRange.parse("pysol:296")
    two_cells = Rules(cells=2, build=Build.ALTERNATE)
    for memory, verdict in ((1 << 20, "unknown"), (16 << 20, "unsolvable")):
        limit = Limit(nodes=None, seconds=None, memory=memory)
        run_survey(
            db, one, two_cells, workers=1, limit=limit, redo_unknown=True, progress=io.StringIO()
        )
        with Store(db) as store:
            found = store.get(two_cells, "pysol", 296)
        assert found is not None and (found.verdict, found.memory_limit) == (verdict, memory)


def test_a_deal_stopped_in_its_layers_goes_on_from_them(tmp_path: Path) -> None:
    # Fore Cell's PySolFC 136 in 1 MiB of tables is proven lost by layers in
    # 196,290 positions; at 80,000 a run, the third run settles it, each going on
    # from the layers the one before left in --layers-dir.
    db, one, layers = tmp_path / "s.db", DealRange.parse("pysol:136"), tmp_path / "layers"
    fore_cell = Rules(cells=4, build=Build.ALTERNATE)
    seen = []
    for _ in range(3):
        limit = Limit(nodes=80_000, seconds=None, memory=1 << 20)
        run_survey(db, one, fore_cell, workers=1, limit=limit,
                   layers_dir=str(layers), redo_unknown=True, progress=io.StringIO())  # fmt: skip
        with Store(db) as store:
            found = store.get(fore_cell, "pysol", 136)
        assert found is not None
        seen.append((found.verdict, found.nodes))
        assert bool(list(layers.iterdir())) == (found.verdict == "unknown")
    assert seen[0] == ("unknown", 80_000) and seen[1][0] == "unknown"
    assert seen[2] == ("unsolvable", 196_290)


CRASH_FLAG = "EIGHTOFF_TEST_CRASHED"  # a file: present once a worker has crashed


def crashing_work(task: Task) -> list[Row]:
    """Solve a task like a survey worker, but die like a native crash on deal 13:
    always (no flag file given) or only the first time (with one)."""
    flag = os.environ.get(CRASH_FLAG)
    if 13 in task.deals and (flag is None or not os.path.exists(flag)):
        if flag is not None:
            Path(flag).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return solve_task(task)


def test_a_dead_worker_is_replaced_and_its_deals_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CRASH_FLAG, str(tmp_path / "crashed"))
    tasks = [
        Task(STANDARD, "eightoff", (n, n + 1), Limit(nodes=None, seconds=20.0))
        for n in range(10, 20, 2)
    ]
    done = [row for rows in local_executor(2, crashing_work)(iter(tasks)) for row in rows]
    assert (tmp_path / "crashed").exists()  # it did crash once
    assert sorted(r.deal for r in done) == list(range(10, 20))


def test_a_deal_that_kills_its_worker_twice_stops_the_survey(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(CRASH_FLAG, raising=False)
    tasks = [
        Task(STANDARD, "eightoff", (n, n + 1), Limit(nodes=None, seconds=20.0))
        for n in range(10, 20, 2)
    ]
    done: list[Row] = []
    with pytest.raises(SurveyError, match=r"died twice, the second time solving deal\(s\) .*13"):
        for rows in local_executor(2, crashing_work)(iter(tasks)):
            done.extend(rows)
    assert 13 not in {r.deal for r in done}


def test_bad_survey_options(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with pytest.raises(SurveyError, match="--workers must be at least 1"):
        run_survey(db, DealRange.parse("1"), workers=0)
    with pytest.raises(SurveyError, match="deal pysol:0: PySolFC deal number 0 is out of range"):
        run_survey(db, DealRange.parse("pysol:0-3"))
    with pytest.raises(SurveyError, match="out of range"):
        run_survey(db, DealRange.parse("1-99999999999"))
    with pytest.raises(SurveyError, match="a whole number of MiB, not 1000000 bytes"):
        run_survey(db, DealRange.parse("1"), limit=Limit(memory=1_000_000))
    assert not db.exists()


def test_progress_on_a_terminal_and_in_a_log() -> None:
    now = [0.0]
    counts = Counts(total=100, skipped=20)
    out = io.StringIO()
    bar = Progress("survey 1-100", counts, out, tty=True, clock=lambda: now[0])
    bar.update(force=True)
    now[0], counts.done = 10.0, 40
    counts.verdicts["solved"] = 40
    bar.update()
    bar.close()
    text = out.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n")
    assert "[##########..........] 40/80  4.00 deals/s  ETA 10s  solved 40" in text
    log = io.StringIO()
    now[0] = 0.0
    quiet = Progress("survey 1-100", counts, log, tty=False, every=30, clock=lambda: now[0])
    for t in range(10, 100, 5):  # every 5 s, but a line only every 30 s
        now[0] = t
        quiet.update()
    lines = log.getvalue().splitlines()
    assert len(lines) == 3 and "\r" not in log.getvalue()
    assert lines[0] == "survey 1-100 40/80  50.0%  4.00 deals/s  ETA 10s  solved 40"


# -- the command line --------------------------------------------------------------------


def test_cli_survey_then_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    args = ["survey", "pysol:1-4", "--db", str(db), "--workers", "1", "--time-limit", "20"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "survey pysol:1-4: 4 deals; 0 already in" in out and "4 solved now" in out
    assert main(args) == 0
    assert "4 already in" in capsys.readouterr().out
    png = tmp_path / "s.png"
    assert (
        main(["survey", "report", "--db", str(db), "--rules", "standard", "--plot", str(png)]) == 0
    )
    out = capsys.readouterr().out
    assert "Deals:   pysol:1-4 (4 deals)" in out and "Winnability: 100.00%" in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert main(["survey", "report", "--db", str(db), "--rules", "easy"]) == 0
    assert "No survey results for easy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["survey", "9-1", "--db", "{db}"], "runs backwards"),
        (["survey", "1-2", "--db", "{db}", "--plot", "x.png"], "unrecognized arguments: --plot"),
        (["survey", "report", "--db", "{missing}"], "no survey database"),
        (
            ["survey", "1-2", "--db", "{db}", "--workers", "0"],
            "--workers: must be 1 to 1024, not 0",
        ),
        (["survey", "1-2", "--db", "{db}", "--rules", "nonsense"], "unknown preset"),
    ],
)
def test_cli_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    filled = [a.format(db=tmp_path / "s.db", missing=tmp_path / "none.db") for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err
    assert err.startswith("eightoff: error:") and message in err and err.count("\n") == 1


def test_unreachable_dask_scheduler_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import eightoff.survey

    monkeypatch.setattr(eightoff.survey, "DASK_TIMEOUT", 1.0)
    args = ["survey", "1-2", "--db", str(tmp_path / "s.db"), "--dask", "tcp://127.0.0.1:1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("eightoff: error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert err.count("\n") == 1


def _rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_survey(cmd: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """Start a survey in a process group of its own, Ctrl-C as from a terminal: a shell
    that runs the tests in the background has it ignored, and Python keeps an ignored
    SIGINT ignored."""
    return subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )


def _start_and_signal(cmd: list[str], env: dict[str, str], db: Path, sig: int) -> int:
    """Run the survey until it has written more rows than before, then send ``sig`` to
    it and its workers; returns its exit status."""
    before = _rows(db)
    proc = _start_survey(cmd, env)
    try:
        deadline = time.monotonic() + 60
        while _rows(db) == before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _rows(db) > before, "the survey wrote nothing within 60 s"
    finally:
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=30)
    if sig == signal.SIGINT:
        assert "survey interrupted; finished deals are saved" in err.decode()
    return proc.returncode


def test_interrupt_and_sigkill_mid_run_then_resume(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    cmd = [sys.executable, "-m", "eightoff", "survey", "0-399", "--db", str(db), "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    # Ctrl-C: the survey stops its workers at once and exits 130.
    assert _start_and_signal(cmd, env, db, signal.SIGINT) == 130
    # SIGKILL at some moment of the next run: nothing to clean up, nothing half written.
    assert _start_and_signal(cmd, env, db, signal.SIGKILL) == -signal.SIGKILL
    killed_at = _rows(db)
    assert 0 < killed_at < 400
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{killed_at} already in" in done.stdout
    with sqlite3.connect(db) as con:
        deals = [r[0] for r in con.execute("SELECT deal FROM results ORDER BY deal")]
    assert deals == list(range(400))


def test_a_second_survey_on_the_same_database_stops_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    cmd = [sys.executable, "-m", "eightoff", "survey", "0-2999", "--db", str(db), "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    first = _start_survey(cmd, env)
    try:
        deadline = time.monotonic() + 60
        while _rows(db) == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _rows(db) > 0, "the first survey wrote nothing within 60 s"
        assert main(["survey", "0-2999", "--db", str(db), "--workers", "1"]) == 2
        err = capsys.readouterr().err
        assert err == (
            f"eightoff: error: another survey is running on {db}; run this one when it has "
            "finished (it resumes where that one stopped)\n"
        )
        # Reading commands are not held up.
        assert main(["survey", "report", "--db", str(db)]) == 0
        assert "Deals:   0-" in capsys.readouterr().out
    finally:
        os.killpg(first.pid, signal.SIGINT)
        first.communicate(timeout=30)
    # Once the first has stopped, the database is free again.
    assert main(["survey", "0-1", "--db", str(db), "--workers", "1"]) == 0


def test_survey_on_a_dask_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    db = tmp_path / "s.db"
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        assert main(["survey", "1270-1279", "--db", str(db), "--dask", address]) == 0
        with distributed.Client(address) as client:
            # The tasks ran on the cluster's workers (processes of their own).
            executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
            assert len(executed) == 2 and sum(executed.values()) >= 1
    assert "10 solved now" in capsys.readouterr().out
    with Store(db) as store:
        rows = list(store.rows())
    assert [r.deal for r in rows] == list(range(1270, 1280))
    local = tmp_path / "local.db"
    run_survey(local, DealRange.parse("1270-1279"), workers=1, progress=io.StringIO())
    with Store(local) as store:
        assert [r.verdict for r in store.rows()] == [r.verdict for r in rows]


def test_optimal_rows_are_rated_like_fast_ones() -> None:
    # A* expands thousands of positions on any deal: the rating comes from the fast solver.
    rows = solve_task(
        Task(STANDARD, "pysol", (2, 3, 7), Limit(nodes=None, seconds=30.0), optimal=True)
    )
    for row in rows:
        fast = solve(pysol_deal(row.deal), limit=Limit(nodes=None, seconds=30))
        assert row.optimal and row.verdict == "solved"
        assert row.rating == rate(fast.length, fast.nodes)
        assert row.length is not None and row.length <= fast.length
