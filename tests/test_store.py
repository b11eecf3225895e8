"""The survey database: schema, upserts, filters, bad files."""

import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from eightoff.cli import main
from eightoff.pool import Pool, PoolError
from eightoff.rules import PRESETS, STANDARD, Rules
from eightoff.schema import SCHEMA_VERSION, VIEW, StoreError, rules_from_key, rules_key
from eightoff.store import Row, Store
from support.store import ENV, can_mount_read_only, real_rows, row, survey_db, v1_db


def test_rules_key_round_trips_every_preset() -> None:
    keys = {rules_key(r) for r in PRESETS.values()}
    assert len(keys) == len(PRESETS)
    for rules in PRESETS.values():
        assert rules_from_key(rules_key(rules)) == rules
    assert rules_key(STANDARD) == rules_key(Rules())


def test_wal_mode_and_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Store(path) as store:
        assert store.add([row(1), row(2, "unsolvable"), row(3, "unknown")]) == 3
        mode = store.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
    with Store(path, create=False) as store:
        assert store.get(STANDARD, "eightoff", 1) == row(1)
        assert [r.deal for r in store.rows()] == [1, 2, 3]
        assert store.count(verdict="solved") == 1
        assert store.get(STANDARD, "pysol", 1) is None


def test_one_row_per_deal_and_decisive_rows_are_kept(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.add([row(1), row(2, "unknown")])
        # A second result for a decided deal is ignored ...
        assert store.add([row(1, "unsolvable")]) == 0
        # ... an undecided deal takes the new attempt.
        assert store.add([row(2, "solved", length=99)]) == 1
        assert store.count() == 2
        assert store.get(STANDARD, "eightoff", 1) == row(1)
        got = store.get(STANDARD, "eightoff", 2)
        assert got is not None and got.verdict == "solved" and got.length == 99


def test_done_by_range_rules_and_source(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.add([row(n) for n in (1, 5, 9)] + [row(7, "unknown")])
        store.add([row(5, rules=PRESETS["easy"]), row(6, source="pysol")])
        assert store.done(STANDARD, "eightoff", 1, 8) == {1, 5, 7}
        assert store.done(STANDARD, "eightoff", 1, 8, redo_unknown=True) == {1, 5}
        assert store.done(PRESETS["easy"], "eightoff", 1, 100) == {5}
        assert store.done(STANDARD, "pysol", 1, 100) == {6}
        groups = store.groups()
        assert groups[0] == (STANDARD, "eightoff", 4)
        assert {(g[0], g[1]) for g in groups[1:]} == {
            (PRESETS["easy"], "eightoff"),
            (STANDARD, "pysol"),
        }


def test_bad_values_and_files(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="verdict"):
        row(1, "won")
    with pytest.raises(StoreError, match="source"):
        row(1, source="ms")
    with pytest.raises(StoreError, match="no survey database"):
        Store(tmp_path / "missing.db", create=False)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a survey database"):
        Store(junk)


# -- damaged, foreign and read-only databases: one line, never a traceback ---------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run the CLI in-process; returns the exit status and the one error line, if any."""
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    if status == 2:
        assert out == "" and err.startswith("eightoff: error: ") and err.count("\n") == 1, err
    return status, err


def test_results_table_of_another_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        con.execute("CREATE TABLE results (deal INTEGER, verdict TEXT)")
        con.execute("INSERT INTO results VALUES (1, 'solved')")
    before = db.read_bytes()
    for argv in (["survey", "1-3", "--db", str(db)], ["survey", "report", "--db", str(db)]):
        status, err = cli(capsys, *argv)
        assert status == 2
        assert "has a results table of another shape (no column rules)" in err
    assert db.read_bytes() == before
    with pytest.raises(PoolError, match="another shape"):
        Pool(db)


@pytest.mark.parametrize("version", ["0", "-1", "x", ""])
def test_a_schema_version_no_eightoff_wrote_is_refused(tmp_path: Path, version: str) -> None:
    db = survey_db(tmp_path / "odd.db", 10)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (version,))
    con.close()
    for readonly in (True, False):
        with pytest.raises(StoreError, match="no valid schema version"):
            Store(db, readonly=readonly)


def test_corrupt_pages_with_an_intact_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = survey_db(tmp_path / "damaged.db")
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    data[2 * page :] = b"\x5a" * (len(data) - 2 * page)  # page 1 (header, schema) intact
    db.write_bytes(bytes(data))
    status, err = cli(capsys, "survey", "1-3", "--db", str(db))
    assert status == 2
    assert f"{db} is damaged (" in err and err.rstrip().endswith("; the survey wrote nothing")
    assert db.read_bytes() == bytes(data)
    status, err = cli(capsys, "survey", "report", "--db", str(db))
    assert status == 2 and f"{db} is damaged (" in err
    with pytest.raises(PoolError, match="is damaged"):
        Pool(db)


@pytest.mark.parametrize(
    ("version", "sql", "what"),
    [
        (2, "UPDATE rulesets SET rules = ''", "the row of deal 0, column rules: ''"),
        (
            2,
            "UPDATE deals SET solver = 7 WHERE deal = 5",
            "the row of deal 5, column solver: 7 names no row of the solvers table",
        ),
        (
            2,
            "UPDATE deals SET verdict = 3 WHERE deal = 6",
            "the row of deal 6, column verdict: 3 names no row of the verdicts table",
        ),
        (1, "UPDATE results SET rules = '' WHERE deal = 5", "the row of deal 5, column rules: ''"),
        (
            1,
            "UPDATE results SET rules = '{\"cells\": 9}' WHERE deal = 0",
            "the row of deal 0, column rules: '{\"cells\": 9}' is not a rule set",
        ),
        (
            1,
            "UPDATE results SET nodes = 'many' WHERE deal = 7",
            "the row of deal 7, column nodes: 'many' is not a whole number",
        ),
        (
            1,
            "UPDATE results SET seconds = x'00' WHERE deal = 8",
            "the row of deal 8, column seconds: b'\\x00' is not a number",
        ),
        (
            1,
            "UPDATE results SET length = 'long' WHERE deal = 9",
            "the row of deal 9, column length: 'long' is not a whole number or NULL",
        ),
    ],
)
def test_a_bad_row_is_named_by_deal_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: int, sql: str, what: str
) -> None:
    db = survey_db(tmp_path / "s.db", deals=20, version=version)
    with sqlite3.connect(db) as con:
        con.execute(sql)
    status, err = cli(capsys, "survey", "report", "--db", str(db))
    assert status == 2 and what in err
    with pytest.raises(PoolError, match="column"):
        Pool(db)


def test_plot_needs_a_png_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = survey_db(tmp_path / "s.db", deals=20)
    plots = tmp_path / "plots"
    plots.mkdir()
    status, err = cli(capsys, "survey", "report", "--db", str(db), "--plot", str(plots))
    assert status == 2 and f"--plot {plots} is a directory: give a file name, like " in err
    status, err = cli(capsys, "survey", "report", "--db", str(db), "--plot", str(tmp_path / "h"))
    assert status == 2 and "give a name ending in .png" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plots", "s.db"]  # no h.png
    png = plots / "h.png"
    status, _ = cli(capsys, "survey", "report", "--db", str(db), "--plot", str(png))
    assert status == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert capsys.readouterr().out == ""  # (cli already read it)


READ_ONLY = """
mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 9
touch "$1/probe" 2>/dev/null && exit 8  # the mount must really be read-only
"$2" -m eightoff survey report --db "$1/s.db" || exit $?
"$2" -c 'import random, sys
from eightoff.pool import Pool
from eightoff.rules import STANDARD
pool = Pool(sys.argv[1])
print("drew", pool.draw(STANDARD, random.Random(1)), "of", pool.count(STANDARD))' "$1/s.db"
"""


@pytest.mark.skipif(not can_mount_read_only(), reason="needs user namespaces (unshare -rm)")
@pytest.mark.parametrize("leftovers", ["none", "wal and shm", "wal alone"])
def test_read_only_storage_can_be_reported_and_drawn_from(tmp_path: Path, leftovers: str) -> None:
    storage = tmp_path / "ro"
    storage.mkdir()
    db = survey_db(storage / "s.db", deals=30)
    if leftovers != "none":
        # A writer killed mid-run leaves -wal and -shm files holding committed rows; the
        # -wal file may come alone (copied without its -shm): SQLite cannot read it in
        # place on read-only storage, so it is read from a copy.
        script = (
            "import os, sys\n"
            "from eightoff.store import Store\n"
            "store = Store(sys.argv[1])\n"
            "store.execute('PRAGMA wal_autocheckpoint=0')\n"
            "store.execute('DELETE FROM deals WHERE deal >= 20')\n"
            "os._exit(0)\n"
        )
        subprocess.run([sys.executable, "-c", script, str(db)], check=True, env=ENV)
        assert {p.name for p in storage.iterdir()} == {"s.db", "s.db-wal", "s.db-shm"}
        if leftovers == "wal alone":
            (storage / "s.db-shm").unlink()
    before = {p.name: p.read_bytes() for p in storage.iterdir()}
    proc = subprocess.run(
        ["unshare", "-rm", "sh", "-c", READ_ONLY, "sh", str(storage), sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    rows = 30 if leftovers == "none" else 20
    solved = sum(1 for n in range(rows) if n % 7)
    assert f"Deals:   0-{rows - 1} ({rows} deals)" in proc.stdout
    assert f" of {solved}\n" in proc.stdout and "drew None" not in proc.stdout
    assert {p.name: p.read_bytes() for p in storage.iterdir()} == before


# -- schema version 1: read as it is, migrated in place by the first write --------------------


def test_version_1_reads_as_it_is_then_migrates_on_the_first_write(tmp_path: Path) -> None:
    rows = real_rows()
    db = v1_db(tmp_path / "old.db", rows)
    before = db.read_bytes()
    with Store(db, readonly=True) as store:
        assert store.version == 1
        store.check_rows()
        assert sorted(store.rows(), key=repr) == sorted(rows, key=repr)
    assert db.read_bytes() == before  # reading changes nothing
    with Store(db) as store:  # opened to write: migrated
        assert store.version == SCHEMA_VERSION == 3
        # Versions 2 and 3 keep solve times to the microsecond.
        rows = [replace(r, seconds=round(r.seconds * 1e6) / 1e6) for r in rows]
        assert sorted(store.rows(), key=repr) == sorted(rows, key=repr)
        assert store.add([row(51)]) == 1
        assert store.add([rows[0]]) == 0  # a decided deal stays as it was
    with sqlite3.connect(db) as con:
        kinds = dict(con.execute("SELECT name, type FROM sqlite_master"))
        assert kinds["results"] == "view" and kinds["deals"] == "table"
        assert "results_pool" not in kinds
        assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("3",)
        assert con.execute("SELECT count(*) FROM rulesets").fetchone() == (4,)
        lines = [r[0] for r in con.execute("SELECT line FROM deals")]
        assert all(isinstance(line, bytes) for line in lines)
    con.close()


def v2_db(path: Path, rows: Iterable[Row]) -> Path:
    """A survey database of ``rows`` as eightoff wrote it with schema version 2 (its
    solvers had no memory limit)."""
    with Store(path) as store:
        store.add(rows)
    con = sqlite3.connect(path)
    with con:
        con.execute("DROP VIEW results")
        con.execute("ALTER TABLE solvers DROP COLUMN memory_limit")
        con.execute(VIEW.replace(", x.memory_limit AS memory_limit", ""))
        con.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    con.close()
    return path


def test_version_2_reads_as_it_is_then_gains_the_memory_limit(tmp_path: Path) -> None:
    rows = [row(n) for n in range(1, 6)] + [row(6, "unknown", moves="", nodes=7)]
    db = v2_db(tmp_path / "two.db", rows)
    before = db.read_bytes()
    with Store(db, readonly=True) as store:
        assert store.version == 2
        store.check_rows()
        assert list(store.rows()) == rows  # no memory limit: the solver's default
        assert store.execute(f"SELECT DISTINCT {store.limit_columns} FROM results").fetchall() == [
            (10.0, None, None)
        ]
    assert db.read_bytes() == before
    retried = replace(rows[-1], verdict="unsolvable", time_limit=60.0, memory_limit=2 << 30)
    with Store(db) as store:  # opened to write: one more column
        assert store.version == SCHEMA_VERSION
        assert list(store.rows()) == rows
        assert store.add([retried]) == 1
        assert store.get(STANDARD, "eightoff", 6) == retried
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("3",)
        assert con.execute("SELECT memory_limit FROM solvers ORDER BY id").fetchall() == [
            (None,),
            (2 << 30,),
        ]
    con.close()


def test_a_migration_that_fails_leaves_version_1(tmp_path: Path) -> None:
    rows = [row(n) for n in range(40)] + [row(40, moves="3a zz")]
    db = v1_db(tmp_path / "old.db", rows)
    with pytest.raises(StoreError, match=r"the row of deal 40, column moves: '3a zz'"):
        Store(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("1",)
        assert con.execute("SELECT count(*) FROM results").fetchone() == (41,)
    con.close()
    with Store(db, readonly=True) as store:  # still read as it is
        assert store.version == 1 and store.count() == 41


def test_a_row_is_small(tmp_path: Path) -> None:
    rows = real_rows()
    db = tmp_path / "s.db"
    with Store(db) as store:
        store.add(rows)
        store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with sqlite3.connect(db) as con:
        packed = sum(len(r[0]) for r in con.execute("SELECT line FROM deals"))
        text = sum(len(r.moves) for r in rows)
    con.close()
    assert packed < text / 2.5  # a move in about a byte, instead of three characters
