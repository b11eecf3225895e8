"""SQLite storage of survey results: one row per (rules, source, deal).

The database runs in WAL mode and every batch of results is written in one
transaction, so a process killed at any moment leaves whole batches or
nothing; the primary key makes a repeated write of the same deal harmless.

A row that ended ``unknown`` (the solver ran out of budget) may later be
replaced by a new attempt; a decisive row (``solved`` / ``unsolvable``) is
never overwritten.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from eightoff.errors import EightOffError
from eightoff.movepack import PackError, pack_line, unpack_line
from eightoff.numbers import excerpt
from eightoff.rules import Rules
from eightoff.schema import (
    CHECKS,
    COLUMNS,
    RATINGS,
    REFERENCES,
    SCHEMA_V1,
    SCHEMA_VERSION,
    SOURCES,
    STORED_SOURCES,
    TABLES,
    UPSERT,
    V2_COLUMNS,
    V3_COLUMNS,
    VERDICTS,
    VIEW,
    DamagedStoreError,
    StoreError,
    connect,
    database_error,
    rules_from_key,
    rules_key,
)


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
    memory_limit: int | None = None  # bytes of search tables; None: the solver's default

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise StoreError(f"source must be one of {', '.join(SOURCES)}, not {self.source!r}")
        if self.verdict not in VERDICTS:
            raise StoreError(f"verdict must be one of {', '.join(VERDICTS)}, not {self.verdict!r}")
        if self.rating is not None and self.rating not in RATINGS:
            raise StoreError(f"rating must be one of {', '.join(RATINGS)}, not {self.rating!r}")


class Store:
    """A survey database; use as a context manager or call :meth:`close`.

    Opened to write, a database of schema version 1 or 2 is brought to version 3 at once
    (in one transaction: it stays as it was if anything fails); opened read-only, it is
    read as it is.
    """

    def __init__(self, path: str | Path, *, create: bool = True, readonly: bool = False) -> None:
        """Open (``create``: or make) the database at ``path``; ``readonly`` for commands
        that only read (a report, a pool): they then work on read-only storage too."""
        self.path = Path(path)
        self.version = SCHEMA_VERSION
        self._rulesets: dict[str, int] = {}  # rules key -> rulesets.id, as met
        self._solvers: dict[tuple[str, float | None, int | None, int | None], int] = {}
        if (readonly or not create) and not self.path.exists():
            raise StoreError(f"no survey database at {self.path}")
        if self.path.exists() and not self.path.is_file():  # a fifo would hang SQLite
            raise StoreError(f"{self.path} is not a regular file: a survey database is one")
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
        if self._names():
            self._check_shape()
        elif not create:
            raise StoreError(f"{self.path} is not a survey database (it is empty)")
        problems = [r[0] for r in self._db.execute("PRAGMA quick_check(1)")]
        if problems != ["ok"]:
            why = "; ".join(p.removeprefix("*** in database main *** ") for p in problems)
            raise DamagedStoreError(f"{self.path} is damaged ({why})")
        if not readonly:
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is safe against process crashes in WAL mode (only power loss can drop
            # the last commits, never corrupt); FULL would fsync every batch.
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self._transaction():  # the schema is read again under the write lock
                if not self._names():
                    self._db.execute(
                        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) "
                        "WITHOUT ROWID"
                    )
                    self._db.execute(
                        "INSERT INTO meta (key, value) VALUES ('schema', ?)",
                        (str(SCHEMA_VERSION),),
                    )
                    for statement in TABLES:
                        self._db.execute(statement)
                self._check_shape()
                if self.version == 1:
                    self._migrate()
                elif self.version == 2:
                    self._upgrade()

    def _names(self) -> dict[str, str]:
        """The tables, views and indexes of the file: name -> type."""
        return {r[0]: r[1] for r in self._db.execute("SELECT name, type FROM sqlite_master")}

    def _check_shape(self) -> None:
        """Read the schema version and check the tables are those of that version."""
        names = self._names()
        if not {"results", "meta"} <= names.keys():
            raise StoreError(f"{self.path} is an SQLite file but not a survey database")
        found_version = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        text = "" if found_version is None else str(found_version[0])
        version = int(text) if text.isascii() and text.isdigit() else None
        if version is not None and version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}; this eightoff reads up to "
                f"{SCHEMA_VERSION}"
            )
        v1 = names["results"] == "table"
        if v1:
            tables = {"results": COLUMNS.replace(",", "")}
        else:
            tables = V3_COLUMNS if version == SCHEMA_VERSION else V2_COLUMNS
        for table, columns in tables.items():
            found = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            missing = [c for c in columns.split() if c not in found]
            if missing:
                raise StoreError(
                    f"{self.path} has a {table} table of another shape (no column "
                    f"{missing[0]}): it is not a survey database"
                )
        if version not in (1, 2, SCHEMA_VERSION) or (version == 1) != v1:
            raise StoreError(f"{self.path} has no valid schema version: not a survey database")
        self.version = version

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT), rolled back on any error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            self._rulesets.clear()  # ids handed out in the transaction are gone
            self._solvers.clear()
            raise
        self._db.execute("COMMIT")

    def _upgrade(self) -> None:
        """Version 2 to 3, inside the caller's transaction: the solvers' memory limit."""
        self._db.execute("ALTER TABLE solvers ADD COLUMN memory_limit INTEGER")
        self._db.execute("DROP VIEW results")
        self._db.execute(VIEW)
        self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        self.version = SCHEMA_VERSION

    def _migrate(self) -> None:
        """Version 1 to 3, inside the caller's transaction."""
        self.check_rows()
        try:
            rows = [_row(r) for r in self._db.execute(f"SELECT {self._columns} FROM results")]
        except StoreError as exc:
            raise StoreError(
                f"{self.path} cannot be brought to schema version {SCHEMA_VERSION} "
                f"(it is left as it was): {exc}"
            ) from None
        self._db.execute("DROP TABLE results")  # its index goes with it
        for statement in TABLES:
            self._db.execute(statement)
        self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))
        self.version = SCHEMA_VERSION
        self._insert(rows)

    def check_rows(self) -> None:
        """Raise :class:`StoreError` naming the first row and column whose value cannot be
        read (wrong type, bad rules JSON): for commands that read every row."""
        try:
            if self.version == 1:
                for column, condition, expected in CHECKS:
                    where = f"FROM results WHERE NOT coalesce({condition}, 0)"
                    self._refuse_first(column, where, f"is not {expected}")
            else:  # STRICT tables hold their types; every id must name a row
                for column, table in REFERENCES:
                    where = f"FROM deals WHERE {column} NOT IN (SELECT id FROM {table})"
                    self._refuse_first(column, where, f"names no row of the {table} table")
            for key, source, deal in self._db.execute(
                "SELECT rules, min(source), min(deal) FROM results GROUP BY rules"
            ):
                try:
                    rules_from_key(key)
                except (ValueError, KeyError, TypeError, AttributeError) as exc:
                    raise StoreError(
                        f"{self.path}: {_row_name(source, deal)}, column rules: {excerpt(key)} "
                        f"is not a rule set ({exc})"
                    ) from None
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None

    def _refuse_first(self, column: str, where: str, says: str) -> None:
        # Raise naming the first row ``where`` finds, and its value in ``column``.
        bad = self._db.execute(f"SELECT source, deal, {column} {where} LIMIT 1").fetchone()
        if bad is not None:
            source = bad[0] if self.version == 1 else _source_name(bad[0])
            raise StoreError(
                f"{self.path}: {_row_name(source, bad[1])}, column {column}: {bad[2]!r} {says}"
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
        try:
            with self._transaction():
                return self._insert(rows)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc) from None

    def _insert(self, rows: Iterable[Row]) -> int:
        params = [
            (
                self._ruleset_id(rules_key(r.rules)),
                STORED_SOURCES.index(r.source),
                r.deal,
                VERDICTS.index(r.verdict),
                r.length,
                int(r.optimal),
                r.nodes,
                round(r.seconds * 1e6),
                _packed(r),
                self._solver_id(r.solver, r.time_limit, r.node_limit, r.memory_limit),
                None if r.rating is None else RATINGS.index(r.rating),
            )
            for r in rows
        ]
        return self._db.executemany(UPSERT, params).rowcount

    def _ruleset_id(self, key: str) -> int:
        found = self._rulesets.get(key)
        if found is None:
            self._db.execute("INSERT OR IGNORE INTO rulesets (rules) VALUES (?)", (key,))
            found = self._rulesets[key] = int(
                self._db.execute("SELECT id FROM rulesets WHERE rules = ?", (key,)).fetchone()[0]
            )
        return found

    def _solver_id(
        self, version: str, time_limit: float | None, node_limit: int | None, memory: int | None
    ) -> int:
        key = (version, time_limit, node_limit, memory)
        found = self._solvers.get(key)
        if found is None:
            where = "version = ? AND time_limit IS ? AND node_limit IS ? AND memory_limit IS ?"
            row = self._db.execute(f"SELECT id FROM solvers WHERE {where}", key).fetchone()
            if row is None:
                row = self._db.execute(
                    "INSERT INTO solvers (version, time_limit, node_limit, memory_limit) "
                    "VALUES (?, ?, ?, ?) RETURNING id",
                    key,
                ).fetchone()
            found = self._solvers[key] = int(row[0])
        return found

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
            f"SELECT {self._columns} FROM results WHERE rules = ? AND source = ? AND deal = ?",
            (rules_key(rules), source, deal),
        )
        found = cur.fetchone()
        return None if found is None else _row(found)

    def rows(self, rules: Rules | None = None, source: str | None = None) -> Iterator[Row]:
        """Every row (optionally of one rule set and/or source), in deal order."""
        sql = f"SELECT {self._columns} FROM results"
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

    @property
    def _columns(self) -> str:
        """The columns of a Row, as the ``results`` view of this file's version has them."""
        return COLUMNS + (", memory_limit" if self.version >= 3 else ", NULL")

    @property
    def limit_columns(self) -> str:
        """The solver's three limits as columns of ``results`` (a file older than version
        3 has no memory limit: NULL, the solver's default)."""
        return "time_limit, node_limit, " + ("memory_limit" if self.version >= 3 else "NULL")

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


def _packed(row: Row) -> bytes:
    try:
        return pack_line(row.moves)
    except EightOffError as exc:
        raise StoreError(
            f"{_row_name(row.source, row.deal)}, column moves: {row.moves!r} is not a line "
            f"of moves ({exc})"
        ) from None


def _source_name(source: object) -> object:
    # A stored source's name (version 2 and later store its index; version 1 its name).
    if isinstance(source, int) and 0 <= source < len(STORED_SOURCES):
        return STORED_SOURCES[source]
    return source


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
    # sqlite3 hands back plain Python values in COLUMNS order.
    (rules, source, deal, verdict, length, optimal, nodes, seconds, moves, solver) = found[:10]
    rating, time_limit, node_limit, memory_limit = found[10:]
    try:
        return Row(
            rules=rules_from_key(rules),
            source=source,
            deal=deal,
            verdict=verdict,
            length=length,
            optimal=bool(optimal),
            nodes=nodes,
            seconds=seconds,
            moves=unpack_line(moves) if isinstance(moves, bytes) else moves,
            solver=solver,
            rating=rating,
            time_limit=time_limit,
            node_limit=node_limit,
            memory_limit=memory_limit,
        )
    except (StoreError, PackError) as exc:
        raise StoreError(f"{_row_name(source, deal)}: {exc}") from None


__all__ = [
    "RATINGS",
    "SCHEMA_V1",
    "SCHEMA_VERSION",
    "SOURCES",
    "DamagedStoreError",
    "Row",
    "Store",
    "StoreError",
    "rules_from_key",
    "rules_key",
]
