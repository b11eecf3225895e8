"""The survey database: schema, upserts, filters, bad files."""

from pathlib import Path

import pytest

from eightoff.rules import PRESETS, STANDARD, Rules
from eightoff.store import Row, Store, StoreError, rules_from_key, rules_key


def row(deal: int, verdict: str = "solved", rules: Rules = STANDARD, **kw: object) -> Row:
    values: dict[str, object] = {
        "rules": rules,
        "source": "eightoff",
        "deal": deal,
        "verdict": verdict,
        "length": 80 if verdict == "solved" else None,
        "optimal": False,
        "nodes": 1000,
        "seconds": 0.5,
        "moves": "3a 35" if verdict == "solved" else "",
        "solver": "test",
        "rating": "easy" if verdict == "solved" else None,
        "time_limit": 10.0,
    }
    values.update(kw)
    return Row(**values)  # type: ignore[arg-type]


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
