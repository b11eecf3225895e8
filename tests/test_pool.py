"""The winnable-deal pool: ratings, drawing from a survey database, the shipped pool."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from eightoff.deal import deal
from eightoff.pool import Pool, PoolError, export, main, rate
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, Verdict, solve
from eightoff.store import RATINGS, Row, Store
from support.store import ENV, can_mount_read_only
from support.store import survey_db as survey_db_at


def test_rate_by_length_and_effort() -> None:
    assert rate(70, 20) == "easy"
    assert rate(80, 30) == "easy"
    assert rate(95, 20) == "medium"  # a longer solution
    assert rate(70, 100) == "medium"  # a harder search
    assert rate(130, 20) == "hard"
    assert rate(70, 50_000) == "hard"


def solved_row(number: int, rating: str | None, **kw: object) -> Row:
    values: dict[str, object] = {
        "rules": STANDARD,
        "source": "eightoff",
        "deal": number,
        "verdict": "solved",
        "length": 80,
        "optimal": False,
        "nodes": 10,
        "seconds": 0.01,
        "moves": "",
        "solver": "test",
        "rating": rating,
    }
    values.update(kw)
    return Row(**values)  # type: ignore[arg-type]


@pytest.fixture
def survey_db(tmp_path: Path) -> Path:
    path = tmp_path / "survey.db"
    with Store(path) as store:
        store.add(
            [solved_row(n, "easy") for n in (10, 11, 12)]
            + [solved_row(20, "hard")]
            # Not drawable: lost, undecided, PySolFC numbering, other rules.
            + [solved_row(30, None, verdict="unsolvable", length=None)]
            + [solved_row(31, None, verdict="unknown", length=None)]
            + [solved_row(40, "easy", source="pysol")]
            + [solved_row(50, "medium", rules=PRESETS["easy"])]
        )
    return path


def test_draw_from_a_survey_database(survey_db: Path) -> None:
    pool = Pool(survey_db)
    rng = random.Random(1)
    drawn = {pool.draw(STANDARD, rng) for _ in range(200)}
    assert drawn == {10, 11, 12, 20}
    assert {pool.draw(STANDARD, rng, "hard") for _ in range(20)} == {20}
    assert pool.draw(STANDARD, rng, "medium") is None
    assert pool.draw(PRESETS["easy"], rng, "medium") == 50
    assert pool.draw(PRESETS["bakers"], rng) is None
    assert pool.count(STANDARD) == 4
    assert pool.count(STANDARD, "easy") == 3
    assert set(pool.rules()) == {STANDARD, PRESETS["easy"]}
    # The same seed draws the same deals.
    assert [pool.draw(STANDARD, random.Random(7)) for _ in range(3)] == [
        pool.draw(STANDARD, random.Random(7)) for _ in range(3)
    ]
    with pytest.raises(PoolError, match="rating must be one of easy, medium, hard"):
        pool.draw(STANDARD, rng, "brutal")
    pool.close()


def test_sample_draws_distinct_deals_from_either_kind_of_pool(
    survey_db: Path, tmp_path: Path
) -> None:
    out = tmp_path / "pool.json"
    assert main([str(survey_db), str(out)]) == 0
    for pool in (Pool(survey_db), Pool(out)):
        rng = random.Random(2)
        three = pool.sample(STANDARD, rng, 3)
        assert len(three) == len(set(three)) == 3 and set(three) <= {10, 11, 12, 20}
        assert sorted(pool.sample(STANDARD, rng, 10)) == [10, 11, 12, 20]  # all there are
        assert sorted(pool.sample(STANDARD, rng, 5, "easy")) == [10, 11, 12]
        assert pool.sample(STANDARD, rng, 5, "medium") == []
        assert pool.sample(PRESETS["bakers"], rng, 5) == []
        assert pool.sample(STANDARD, random.Random(4), 2) == pool.sample(
            STANDARD, random.Random(4), 2
        )
        with pytest.raises(PoolError, match="rating must be one of"):
            pool.sample(STANDARD, rng, 1, "brutal")
        pool.close()


def test_export_and_json_pool(survey_db: Path, tmp_path: Path) -> None:
    with Store(survey_db) as store:
        data = export(store, per_rating=2)
    standard = next(p for p in data["pools"] if p["rules"] == STANDARD.to_json())
    assert standard["deals"] == {"easy": [10, 11], "medium": [], "hard": [20]}
    out = tmp_path / "pool.json"
    assert main([str(survey_db), str(out)]) == 0
    pool = Pool(out)
    rng = random.Random(3)
    assert {pool.draw(STANDARD, rng) for _ in range(100)} == {10, 11, 12, 20}
    assert pool.draw(STANDARD, rng, "hard") == 20
    assert pool.draw(PRESETS["easy"], rng) == 50
    assert pool.draw(PRESETS["alternate"], rng) is None


def test_shipped_pool_is_winnable_and_rated() -> None:
    pool = Pool()
    rng = random.Random(5)
    for rating in RATINGS:
        assert pool.count(STANDARD, rating) >= 50
    # A few shipped deals of each rating, solved again: each is won, and rated again
    # from this solve the median deal of each group keeps its rating (the pool was
    # rated with an older solver's effort: a deal near a threshold may have moved).
    now: dict[str, list[int]] = {}
    for rating in RATINGS:
        now[rating] = []
        for _ in range(5):
            number = pool.draw(STANDARD, rng, rating)
            assert number is not None
            result = solve(deal(number), limit=Limit(nodes=None, seconds=20))
            assert result.verdict is Verdict.SOLVED, number
            now[rating].append(RATINGS.index(rate(result.length, result.nodes)))
    assert [sorted(now[r])[2] for r in RATINGS] == [0, 1, 2], now


def test_bad_pool_files(tmp_path: Path) -> None:
    with pytest.raises(PoolError, match="cannot read"):
        Pool(tmp_path / "nope.db")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(PoolError, match="not an eightoff pool"):
        Pool(bad)
    bad.write_text('{"format": "eightoff-pool", "pools": [{"rules": "nonsense"}]}')
    with pytest.raises(PoolError, match="not a valid pool"):
        Pool(bad)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00not sqlite" * 200)
    with pytest.raises(PoolError, match="not a survey database"):
        Pool(junk)


# -- the pool builder: python -m eightoff.pool, as a real process ----------------------


def build_pool(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eightoff.pool", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env=ENV,
    )


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The single ``eightoff: error: …`` line of a refused run (exit 2, nothing else)."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("eightoff: error: "), proc.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["--per-rating", "9223372036854775808"], "must be 1 to 1000000, not 9223372036854775808"),
        (["--per-rating", "99999999999999999999"], "must be 1 to 1000000"),
        (["--per-rating", "0"], "must be 1 to 1000000, not 0"),
        (["--per-rating", "-3"], "must be 1 to 1000000, not -3"),
        (["--per-rating", "١٢"], "expected a whole number, not '١٢'"),
        (["--per-rating", "2x"], "expected a whole number, not '2x'"),
        (["--per-rat", "2"], "unrecognized arguments: --per-rat"),
    ],
)
def test_pool_builder_refuses_bad_numbers(
    survey_db: Path, tmp_path: Path, args: list[str], what: str
) -> None:
    proc = build_pool(str(survey_db), "pool.json", *args, cwd=tmp_path)
    assert what in one_error_line(proc)
    assert not (tmp_path / "pool.json").exists()


def test_pool_builder_refuses_bad_files(survey_db: Path, tmp_path: Path) -> None:
    before = survey_db.read_bytes()
    cases = [
        (["missing.db", "pool.json"], "no survey database at missing.db"),
        (["/dev/zero", "pool.json"], "/dev/zero is not a regular file"),
        ([str(tmp_path), "pool.json"], "is not a regular file"),
        ([str(survey_db), str(survey_db)], "is the survey database itself"),
        ([str(survey_db), str(tmp_path)], "is a directory"),
        ([str(survey_db), "no/such/dir/pool.json"], "cannot write the pool no/such/dir/pool.json"),
    ]
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00not sqlite" * 200)
    cases.append(([str(junk), "pool.json"], "is not a survey database"))
    for args, what in cases:
        assert what in one_error_line(build_pool(*args, cwd=tmp_path)), args
    assert survey_db.read_bytes() == before
    assert not (tmp_path / "pool.json").exists()


def test_pool_builder_writes_the_whole_pool(survey_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "pool.json"
    out.write_text("an older pool")
    proc = build_pool(str(survey_db), str(out), "--per-rating", "2", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == f"wrote {out}: 2 rule set(s), {{'easy': 2, 'medium': 1, 'hard': 1}}\n"
    assert Pool(out).count(STANDARD) == 3 and Pool(out).count(STANDARD, "easy") == 2
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".pool.json")]  # no temp
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # as any file the user writes


@pytest.mark.skipif(not can_mount_read_only(), reason="needs user namespaces (unshare -rm)")
def test_pool_builder_reads_a_database_on_read_only_storage(tmp_path: Path) -> None:
    storage = tmp_path / "ro"
    storage.mkdir()
    survey_db_at(storage / "s.db", deals=30)
    before = {p.name: p.read_bytes() for p in storage.iterdir()}
    script = (
        'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 9\n'
        'touch "$1/probe" 2>/dev/null && exit 8\n'
        '"$2" -m eightoff.pool "$1/s.db" "$3" --per-rating 5\n'
    )
    out = tmp_path / "pool.json"
    proc = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(storage), sys.executable, str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and proc.stdout.startswith(f"wrote {out}: 1 rule set(s)")
    assert Pool(out).count(STANDARD) > 0
    assert {p.name: p.read_bytes() for p in storage.iterdir()} == before
