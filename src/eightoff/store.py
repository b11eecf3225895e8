"""SQLite storage of survey results: one row per (rules, source, deal).

The database runs in WAL mode and every batch of results is written in one
transaction, so a process killed at any moment leaves whole batches or
nothing; the primary key makes a repeated write of the same deal harmless.

A row that ended ``unknown`` (the solver ran out of budget) may later be
replaced by a new attempt; a decisive row (``solved`` / ``unsolvable``) is
never overwritten.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from eightoff.codes import SOURCES as SOURCES  # whose deal numbering: the game codes' sources
from eightoff.errors import EightOffError
from eightoff.rules import Rules

SCHEMA_VERSION: Final = 1
VERDICTS: Final = ("solved", "unsolvable", "unknown")
RATINGS: Final = ("easy", "medium", "hard")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    rules      TEXT    NOT NULL,  -- canonical JSON of Rules.to_json()
    source     TEXT    NOT NULL,  -- 'eightoff' or 'pysol': whose deal numbering
    deal       INTEGER NOT NULL,
    verdict    TEXT    NOT NULL CHECK (verdict IN ('solved', 'unsolvable', 'unknown')),
    length     INTEGER,           -- single-card moves of the solution; NULL unless solved
    optimal    INTEGER NOT NULL,  -- 1 if the solution is proven shortest
    nodes      INTEGER NOT NULL,  -- positions the solver expanded
    seconds    REAL    NOT NULL,  -- solver wall time on the worker
    moves      TEXT    NOT NULL,  -- the solution in compact notation, space-separated
    solver     TEXT    NOT NULL,  -- solver version that produced the row
    rating     TEXT CHECK (rating IN ('easy', 'medium', 'hard')),  -- solved deals only
    time_limit REAL,              -- the budget the solver had (NULL: none)
    node_limit INTEGER,
    PRIMARY KEY (rules, source, deal)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS results_pool ON results (rules, source, verdict, rating, deal);
"""


class StoreError(EightOffError):
    """A file that is not a survey database, or one from a newer version."""


def rules_key(rules: Rules) -> str:
    """The text a rule set is stored under: canonical (sorted, compact) JSON."""
    return json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))


def rules_from_key(key: str) -> Rules:
    """Inverse of :func:`rules_key`."""
    return Rules.from_json(json.loads(key))


@dataclass(frozen=True, slots=True)
class Row:
    """One solved (or given-up) deal."""

    rules: Rules
    source: str
    deal: int
    verdict: str
    length: int | None
    optimal: bool
    nodes: int
    seconds: float
    moves: str
    solver: str
    rating: str | None = None
    time_limit: float | None = None
    node_limit: int | None = None

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise StoreError(f"source must be one of {', '.join(SOURCES)}, not {self.source!r}")
        if self.verdict not in VERDICTS:
            raise StoreError(f"verdict must be one of {', '.join(VERDICTS)}, not {self.verdict!r}")
        if self.rating is not None and self.rating not in RATINGS:
            raise StoreError(f"rating must be one of {', '.join(RATINGS)}, not {self.rating!r}")


_COLUMNS: Final = (
    "rules, source, deal, verdict, length, optimal, nodes, seconds, moves, solver, "
    "rating, time_limit, node_limit"
)

# Insert, or replace a row that is still undecided; a decisive row is never touched.
_UPSERT: Final = f"""
INSERT INTO results ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (rules, source, deal) DO UPDATE SET
    verdict = excluded.verdict, length = excluded.length, optimal = excluded.optimal,
    nodes = excluded.nodes, seconds = excluded.seconds, moves = excluded.moves,
    solver = excluded.solver, rating = excluded.rating, time_limit = excluded.time_limit,
    node_limit = excluded.node_limit
WHERE results.verdict = 'unknown'
"""


class Store:
    """A survey database; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StoreError(f"no survey database at {self.path}")
        try:
            # isolation_level=None: we open transactions ourselves (BEGIN IMMEDIATE).
            self._db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is safe against process crashes in WAL mode (only power loss can drop
            # the last commits, never corrupt); FULL would fsync every batch.
            self._db.execute("PRAGMA synchronous=NORMAL")
            tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a survey database ({exc})") from None
        if tables and "results" not in tables:
            self._db.close()
            raise StoreError(f"{self.path} is an SQLite file but not a survey database")
        if not tables and not create:
            self._db.close()
            raise StoreError(f"{self.path} is not a survey database (it is empty)")
        self._db.executescript(_SCHEMA)
        self._db.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
        )
        version = int(self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0])
        if version > SCHEMA_VERSION:
            self._db.close()
            raise StoreError(
                f"{self.path} has schema version {version}; this eightoff reads up to "
                f"{SCHEMA_VERSION}"
            )

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def add(self, rows: Iterable[Row]) -> int:
        """Write ``rows`` in one transaction; return how many rows were new or replaced."""
        params = [
            (
                rules_key(r.rules),
                r.source,
                r.deal,
                r.verdict,
                r.length,
                int(r.optimal),
                r.nodes,
                r.seconds,
                r.moves,
                r.solver,
                r.rating,
                r.time_limit,
                r.node_limit,
            )
            for r in rows
        ]
        before = self._db.total_changes
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(_UPSERT, params)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return self._db.total_changes - before

    def done(
        self, rules: Rules, source: str, low: int, high: int, *, redo_unknown: bool = False
    ) -> set[int]:
        """Deal numbers in ``low..high`` (inclusive) that already have a row.

        With ``redo_unknown``, rows whose verdict is ``unknown`` do not count as done.
        """
        sql = "SELECT deal FROM results WHERE rules = ? AND source = ? AND deal BETWEEN ? AND ?"
        if redo_unknown:
            sql += " AND verdict != 'unknown'"
        cur = self._db.execute(sql, (rules_key(rules), source, low, high))
        return {r[0] for r in cur}

    def get(self, rules: Rules, source: str, deal: int) -> Row | None:
        """The row of one deal, if any."""
        cur = self._db.execute(
            f"SELECT {_COLUMNS} FROM results WHERE rules = ? AND source = ? AND deal = ?",
            (rules_key(rules), source, deal),
        )
        found = cur.fetchone()
        return None if found is None else _row(found)

    def rows(self, rules: Rules | None = None, source: str | None = None) -> Iterator[Row]:
        """Every row (optionally of one rule set and/or source), in deal order."""
        sql = f"SELECT {_COLUMNS} FROM results"
        where, args = _filter(rules, source)
        cur = self._db.execute(sql + where + " ORDER BY rules, source, deal", args)
        for found in cur:
            yield _row(found)

    def count(
        self, rules: Rules | None = None, source: str | None = None, verdict: str | None = None
    ) -> int:
        """How many rows match."""
        where, args = _filter(rules, source)
        if verdict is not None:
            where += (" AND" if where else " WHERE") + " verdict = ?"
            args = (*args, verdict)
        return int(self._db.execute("SELECT count(*) FROM results" + where, args).fetchone()[0])

    def groups(self) -> list[tuple[Rules, str, int]]:
        """The (rules, source, row count) groups present, largest first."""
        cur = self._db.execute(
            "SELECT rules, source, count(*) FROM results GROUP BY rules, source "
            "ORDER BY count(*) DESC, rules, source"
        )
        return [(rules_from_key(k), s, n) for k, s, n in cur]

    def execute(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        """Run a read query (for the report and the pool)."""
        return self._db.execute(sql, args)


def _filter(rules: Rules | None, source: str | None) -> tuple[str, tuple[object, ...]]:
    clauses: list[str] = []
    args: list[object] = []
    if rules is not None:
        clauses.append("rules = ?")
        args.append(rules_key(rules))
    if source is not None:
        clauses.append("source = ?")
        args.append(source)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


def _row(found: Any) -> Row:
    # sqlite3 hands back plain Python values in _COLUMNS order.
    (rules, source, deal, verdict, length, optimal, nodes, seconds, moves, solver) = found[:10]
    rating, time_limit, node_limit = found[10:]
    return Row(
        rules=rules_from_key(rules),
        source=source,
        deal=deal,
        verdict=verdict,
        length=length,
        optimal=bool(optimal),
        nodes=nodes,
        seconds=seconds,
        moves=moves,
        solver=solver,
        rating=rating,
        time_limit=time_limit,
        node_limit=node_limit,
    )
