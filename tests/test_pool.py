"""The winnable-deal pool: ratings, drawing from a survey database, the shipped pool."""

import json
import random
from pathlib import Path

import pytest

from eightoff.deal import deal
from eightoff.pool import Pool, PoolError, export, main, rate
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, Verdict, solve
from eightoff.store import RATINGS, Row, Store


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
