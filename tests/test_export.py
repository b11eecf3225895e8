"""eightoff survey export: CSV and Parquet read back and compared with the database."""

import csv
import os
import sys
from pathlib import Path

import pytest

from eightoff.cli import main
from eightoff.codes import GameCode
from eightoff.export import COLUMNS, variant
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit
from eightoff.store import Row, Store
from eightoff.workers import Task, solve_task
from support.store import real_rows, v1_db


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of real rows: three rule books, both deal sources, every verdict."""
    db = tmp_path_factory.mktemp("export") / "s.db"
    rows = solve_task(Task(STANDARD, "eightoff", (1, 2, 3), Limit(nodes=None, seconds=10.0)))
    rows += solve_task(Task(PRESETS["app"], "eightoff", (4, 5), Limit(nodes=None, seconds=10.0)))
    rows += solve_task(
        Task(
            PRESETS["alternate"].with_options(cells=2),
            "pysol",
            (1, 2),
            Limit(nodes=10, seconds=10.0),
        )
    )
    rows += solve_task(Task(STANDARD, "pysol", (1,), Limit(nodes=None, seconds=None), optimal=True))
    with Store(db) as store:
        store.add(rows)
    verdicts = {r.verdict for r in rows}
    assert verdicts == {"solved", "unknown"} or len(verdicts) >= 2, verdicts
    return db


def db_rows(db: Path) -> list[Row]:
    with Store(db, readonly=True) as store:
        return list(store.rows())


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    if status == 2:
        assert out == "" and err.startswith("eightoff: error: ") and err.count("\n") == 1, err
    return status, out, err


def check_record(item: dict[str, object], row: Row) -> None:
    """One exported row (values as read back, CSV text made typed) against the database's."""
    assert item["variant"] == variant(row.rules)
    assert item["rules"] == row.rules.describe()
    assert (item["source"], item["deal"], item["verdict"]) == (row.source, row.deal, row.verdict)
    code = GameCode.parse(str(item["code"]))
    assert (code.rules, code.deal, code.source) == (row.rules, row.deal, row.source)
    assert item["length"] == row.length and item["optimal"] == row.optimal
    assert item["nodes"] == row.nodes and item["seconds"] == row.seconds
    assert item["moves"] == row.moves
    assert item["rating"] == row.rating and item["solver"] == row.solver
    assert (item["time_limit"], item["node_limit"]) == (row.time_limit, row.node_limit)


def typed(item: dict[str, str]) -> dict[str, object]:
    """A CSV row's text as the values it stands for (empty: none)."""

    def number(text: str, kind: type) -> object:
        return None if text == "" else kind(text)

    return item | {
        "deal": int(item["deal"]),
        "length": number(item["length"], int),
        "optimal": {"True": True, "False": False}[item["optimal"]],
        "nodes": int(item["nodes"]),
        "seconds": float(item["seconds"]),
        "rating": item["rating"] or None,
        "time_limit": number(item["time_limit"], float),
        "node_limit": number(item["node_limit"], int),
    }


def test_csv_reads_back_as_the_database_rows(
    survey: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.csv"
    status, said, _ = run(
        capsys, "survey", "export", "--db", str(survey), "--format", "csv", str(out)
    )
    rows = db_rows(survey)
    assert status == 0 and said == f"{len(rows)} rows of {survey} written to {out} (csv)\n"
    with out.open(newline="", encoding="utf-8") as stream:
        reader = csv.DictReader(stream)
        assert tuple(reader.fieldnames or ()) == COLUMNS
        items = [typed(item) for item in reader]
    assert len(items) == len(rows) == 8
    for item, row in zip(items, rows, strict=True):
        check_record(item, row)
    assert {item["variant"] for item in items} == {"C8", "C8-FT", "C2-A"}
    assert any("x" in str(i["moves"]) for i in items)  # runs, in the compact notation


def test_csv_of_one_rule_set_to_standard_output(
    survey: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "survey", "export", "--db", str(survey), "-", "--rules", "app")
    assert status == 0 and err == ""  # the CSV alone
    items = [typed(i) for i in csv.DictReader(out.splitlines())]
    with Store(survey, readonly=True) as store:
        rows = list(store.rows(PRESETS["app"]))
    for item, row in zip(items, rows, strict=True):
        check_record(item, row)


def test_parquet_reads_back_as_the_database_rows(
    survey: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "rows.parquet"  # the format from the name
    status, said, _ = run(capsys, "survey", "export", "--db", str(survey), str(out))
    assert status == 0 and said.endswith("(parquet)\n")
    table = pq.read_table(out)
    assert tuple(table.column_names) == COLUMNS
    items = table.to_pylist()
    rows = db_rows(survey)
    assert len(items) == len(rows)
    for item, row in zip(items, rows, strict=True):
        check_record(item, row)
    assert [p.name for p in tmp_path.iterdir()] == ["rows.parquet"]  # no temporary left
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # as any new file


def test_parquet_without_pyarrow_says_what_to_install(
    survey: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if it were not installed
    out = tmp_path / "rows.parquet"
    status, _, err = run(
        capsys, "survey", "export", "--db", str(survey), "--format", "parquet", str(out)
    )
    assert status == 2 and "needs pyarrow: install eightoff[parquet]" in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["{tmp}"], "is a directory: give a file name"),
        (["{tmp}/no/such/dir/rows.csv"], "there is no directory"),
        (["{tmp}/rows.xlsx"], "say --format csv or --format parquet"),
        (["{tmp}/rows.csv", "--format", "xlsx"], "argument --format: invalid choice: 'xlsx'"),
        (["-", "--format", "parquet"], "Parquet is written to a file"),
        (["{tmp}/rows.csv", "--db", "{tmp}/missing.db"], "no survey database at"),
        (["{tmp}/rows.csv", "--rules", "nope"], "nope"),
    ],
)
def test_bad_paths_and_formats_are_one_line(
    survey: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], why: str
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if "--db" not in args:
        args += ["--db", str(survey)]
    status, _, err = run(capsys, "survey", "export", *args)
    assert status == 2 and why in err, err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_old_database_exports_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = real_rows()
    db = v1_db(tmp_path / "old.db", rows)
    before = db.read_bytes()
    out = tmp_path / "rows.csv"
    status, _, _ = run(capsys, "survey", "export", "--db", str(db), str(out))
    assert status == 0 and db.read_bytes() == before  # read, not migrated
    with out.open(newline="", encoding="utf-8") as stream:
        items = [typed(item) for item in csv.DictReader(stream)]
    with Store(db, readonly=True) as store:
        for item, row in zip(items, store.rows(), strict=True):
            check_record(item, row)
    assert len(items) == len(rows)
