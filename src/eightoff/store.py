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
from urllib.parse import quote

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


class DamagedStoreError(StoreError):
    """A survey database whose pages are damaged (its header may still be intact)."""


_SQLITE_CORRUPT: Final = 11
_SQLITE_NOTADB: Final = 26
_SQLITE_READONLY: Final = 8
_SQLITE_CANTOPEN: Final = 14


def database_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """The :class:`StoreError` to raise for SQLite's ``exc`` on the database at ``path``."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code == _SQLITE_CORRUPT:
        return DamagedStoreError(f"{path} is damaged ({exc})")
    if code == _SQLITE_NOTADB:
        return StoreError(f"{path} is not a survey database ({exc})")
    if code in (_SQLITE_READONLY, _SQLITE_CANTOPEN):
        return StoreError(f"cannot write to the survey database {path} ({exc})")
    return StoreError(f"cannot use the survey database {path}: {exc}")


def connect(path: Path, *, readonly: bool, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection to the database at ``path``; ``readonly`` never writes, so it works on
    read-only storage, leftover ``-wal``/``-shm`` files or none."""
    if not readonly:
        # isolation_level=None: we open transactions ourselves (BEGIN IMMEDIATE).
        return sqlite3.connect(
            path, timeout=60, isolation_level=None, check_same_thread=check_same_thread
        )
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    db = sqlite3.connect(uri, uri=True, timeout=60, check_same_thread=check_same_thread)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the file
    except sqlite3.OperationalError:
        # A WAL database on read-only storage with no -shm file: SQLite cannot make one.
        # Nobody can write there either, so reading it as immutable is safe; with a -wal
        # file left over (and no -shm), immutable would miss its rows: fail instead.
        db.close()
        if Path(f"{path}-wal").exists():
            raise
        db = sqlite3.connect(
            uri + "&immutable=1", uri=True, timeout=60, check_same_thread=check_same_thread
        )
    return db


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


def _one_of(values: Iterable[str]) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


# What each column must hold, as SQL (and in words): checked by Store.check_rows.
_CHECKS: Final = (
    ("rules", "typeof(rules) = 'text'", "text (rules as JSON)"),
    ("source", f"source IN {_one_of(SOURCES)}", f"one of {', '.join(SOURCES)}"),
    ("deal", "typeof(deal) = 'integer'", "a whole number"),
    ("verdict", f"verdict IN {_one_of(VERDICTS)}", f"one of {', '.join(VERDICTS)}"),
    ("length", "length IS NULL OR typeof(length) = 'integer'", "a whole number or NULL"),
    ("optimal", "typeof(optimal) = 'integer' AND optimal IN (0, 1)", "0 or 1"),
    ("nodes", "typeof(nodes) = 'integer'", "a whole number"),
    ("seconds", "typeof(seconds) IN ('real', 'integer')", "a number"),
    ("moves", "typeof(moves) = 'text'", "text"),
    ("solver", "typeof(solver) = 'text'", "text"),
    ("rating", f"rating IS NULL OR rating IN {_one_of(RATINGS)}", "easy, medium, hard or NULL"),
    (
        "time_limit",
        "time_limit IS NULL OR typeof(time_limit) IN ('real', 'integer')",
        "a number or NULL",
    ),
    ("node_limit", "node_limit IS NULL OR typeof(node_limit) = 'integer'", "a whole number"),
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

    def __init__(self, path: str | Path, *, create: bool = True, readonly: bool = False) -> None:
        """Open (``create``: or make) the database at ``path``; ``readonly`` for commands
        that only read (a report, a pool): they then work on read-only storage too."""
        self.path = Path(path)
        if (readonly or not create) and not self.path.exists():
            raise StoreError(f"no survey database at {self.path}")
        try:
            self._db = connect(self.path, readonly=readonly)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None
        try:
            self._open(create=create and not readonly, readonly=readonly)
        except sqlite3.Error as exc:
            self._db.close()
            raise database_error(self.path, exc) from None
        except StoreError:
            self._db.close()
            raise

    def _open(self, *, create: bool, readonly: bool) -> None:
        # Look before writing anything: a file that is not ours is left as it was.
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}
        if tables and not {"results", "meta"} <= tables:
            raise StoreError(f"{self.path} is an SQLite file but not a survey database")
        if not tables and not create:
            raise StoreError(f"{self.path} is not a survey database (it is empty)")
        if tables:
            found = {r[1] for r in self._db.execute("PRAGMA table_info(results)")}
            missing = [c for c in _COLUMNS.split(", ") if c not in found]
            if missing:
                raise StoreError(
                    f"{self.path} has a results table of another shape (no column "
                    f"{missing[0]}): it is not a survey database"
                )
        problems = [r[0] for r in self._db.execute("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            why = "; ".join(p.removeprefix("*** in database main *** ") for p in problems)
            raise DamagedStoreError(f"{self.path} is damaged ({why})")
        if not readonly:
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is safe against process crashes in WAL mode (only power loss can drop
            # the last commits, never corrupt); FULL would fsync every batch.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),),
            )
        found_version = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        text = "" if found_version is None else str(found_version[0])
        if not text.isascii() or not text.isdigit():
            raise StoreError(f"{self.path} has no valid schema version: not a survey database")
        version = int(text)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}; this eightoff reads up to "
                f"{SCHEMA_VERSION}"
            )

    def check_rows(self) -> None:
        """Raise :class:`StoreError` naming the first row and column whose value cannot be
        read (wrong type, bad rules JSON): for commands that read every row."""
        try:
            for column, condition, expected in _CHECKS:
                bad = self._db.execute(
                    f"SELECT source, deal, {column} FROM results "
                    f"WHERE NOT coalesce({condition}, 0) LIMIT 1"
                ).fetchone()
                if bad is not None:
                    raise StoreError(
                        f"{self.path}: {_row_name(bad[0], bad[1])}, column {column}: "
                        f"{bad[2]!r} is not {expected}"
                    )
            for key, source, deal in self._db.execute(
                "SELECT rules, min(source), min(deal) FROM results GROUP BY rules"
            ):
                try:
                    rules_from_key(key)
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise StoreError(
                        f"{self.path}: {_row_name(source, deal)}, column rules: {key!r} "
                        f"is not a rule set ({exc})"
                    ) from None
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None

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
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(_UPSERT, params)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None
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


def _row_name(source: object, deal: object) -> str:
    """How an error message names a row: ``the row of deal pysol:4``."""
    if source == "eightoff":
        return f"the row of deal {deal}"
    return (
        f"the row of deal {source}:{deal}"
        if isinstance(source, str)
        else f"the row of deal {deal!r}"
    )


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
