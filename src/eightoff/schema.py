"""The survey database's schema: its tables at each version, what each column must hold,
how a rule set is stored, and how the file is opened (:func:`connect`) and its errors
named (:class:`StoreError`). :mod:`eightoff.store` reads and writes the rows.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Final
from urllib.parse import quote

from eightoff.codes import SOURCES
from eightoff.difficulty import RATINGS  # stored as their index (version 2)
from eightoff.errors import EightOffError
from eightoff.rules import InvalidRulesError, Rules

SCHEMA_VERSION: Final = 3
VERDICTS: Final = ("solved", "unsolvable", "unknown")  # stored as their index (version 2)
STORED_SOURCES: Final = ("eightoff", "pysol")  # stored as their index: append only
assert set(SOURCES) <= set(STORED_SOURCES)

# Version 2: a row is a few small integers and the packed line (eightoff.movepack); the rule
# set and the solver (version and limits) are stored once each and named by their id, the
# words of source, verdict and rating once each in small tables. The `results` view shows
# the rows as version 1 stored them (text columns, seconds, moves as the packed bytes), so
# readers (report, pool) query either version alike. About 110 bytes a row, line included
# (benchmarks/survey_size.py). No index besides the key: queries through the view go by the
# key (rules, source, deal) anyway, and an index cost 12 bytes a row. Version 3 adds the
# solver's third limit, the bytes of search tables it had (solvers.memory_limit, NULL: the
# C core's default); a version 2 file is brought to it by one ALTER TABLE when written to.
VIEW: Final = """CREATE VIEW results AS SELECT
    r.rules AS rules, s.name AS source, d.deal AS deal, v.name AS verdict,
    d.length AS length, d.optimal AS optimal, d.nodes AS nodes, d.micros / 1e6 AS seconds,
    d.line AS moves, x.version AS solver, g.name AS rating, x.time_limit AS time_limit,
    x.node_limit AS node_limit, x.memory_limit AS memory_limit
FROM deals AS d
JOIN rulesets AS r ON r.id = d.ruleset
JOIN sources AS s ON s.id = d.source
JOIN verdicts AS v ON v.id = d.verdict
JOIN solvers AS x ON x.id = d.solver
LEFT JOIN ratings AS g ON g.id = d.rating"""
TABLES: Final = (
    """CREATE TABLE rulesets (
    id    INTEGER PRIMARY KEY,
    rules TEXT NOT NULL UNIQUE  -- canonical JSON of Rules.to_json()
) STRICT""",
    """CREATE TABLE solvers (
    id         INTEGER PRIMARY KEY,
    version    TEXT NOT NULL,  -- solver version that produced the rows
    time_limit REAL,           -- the budget each deal had (NULL: none)
    node_limit INTEGER,
    memory_limit INTEGER       -- bytes of search tables (NULL: the solver's default)
) STRICT""",
    "CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE) STRICT",
    "CREATE TABLE verdicts (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE) STRICT",
    "CREATE TABLE ratings (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE) STRICT",
    """CREATE TABLE deals (
    ruleset INTEGER NOT NULL REFERENCES rulesets (id),
    source  INTEGER NOT NULL REFERENCES sources (id),  -- whose deal numbering
    deal    INTEGER NOT NULL,
    verdict INTEGER NOT NULL REFERENCES verdicts (id),
    length  INTEGER,           -- single-card moves of the solution; NULL unless solved
    optimal INTEGER NOT NULL CHECK (optimal IN (0, 1)),  -- 1: the solution is proven shortest
    nodes   INTEGER NOT NULL,  -- positions the solver expanded
    micros  INTEGER NOT NULL,  -- solver wall time on the worker, in microseconds
    line    BLOB NOT NULL,     -- the solution, packed (eightoff.movepack)
    solver  INTEGER NOT NULL REFERENCES solvers (id),
    rating  INTEGER REFERENCES ratings (id),  -- solved deals only
    PRIMARY KEY (ruleset, source, deal)
) STRICT, WITHOUT ROWID""",
    VIEW,
    *(
        f"INSERT INTO {table} (id, name) VALUES "
        + ", ".join(f"({i}, '{w}')" for i, w in enumerate(words))
        for table, words in (
            ("sources", STORED_SOURCES),
            ("verdicts", VERDICTS),
            ("ratings", RATINGS),
        )
    ),
)
REFERENCES: Final = (  # (column of deals, the table its ids name)
    ("ruleset", "rulesets"),
    ("source", "sources"),
    ("verdict", "verdicts"),
    ("solver", "solvers"),
    ("rating", "ratings"),  # NULL is never NOT IN: an unrated row passes
)
V2_COLUMNS: Final = {
    "deals": "ruleset source deal verdict length optimal nodes micros line solver rating",
    "rulesets": "id rules",
    "solvers": "id version time_limit node_limit",
    "sources": "id name",
    "verdicts": "id name",
    "ratings": "id name",
}
V3_COLUMNS: Final = {**V2_COLUMNS, "solvers": "id version time_limit node_limit memory_limit"}

# Version 1 stored every column as the `results` view shows it (570 bytes a row, the moves
# as text); such files are still read as they are, and a survey that writes to one migrates
# it to version 2 first, in one transaction. Its schema, as older eightoff wrote it (the
# tests and benchmarks/survey_size.py make such files):
SCHEMA_V1: Final = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE results (
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
CREATE INDEX results_pool ON results (rules, source, verdict, rating, deal);
INSERT INTO meta (key, value) VALUES ('schema', '1');
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
            return _copied(path, check_same_thread=check_same_thread)
        db = sqlite3.connect(
            uri + "&immutable=1", uri=True, timeout=60, check_same_thread=check_same_thread
        )
    return db


def _copied(path: Path, *, check_same_thread: bool) -> sqlite3.Connection:
    """The database at ``path`` with the rows of its leftover ``-wal`` file, read from a
    copy into memory: on read-only storage with no ``-shm`` file SQLite cannot read the
    ``-wal`` in place, and reading the file alone (immutable) would miss its rows."""
    with tempfile.TemporaryDirectory(prefix="eightoff-") as where:
        copy = Path(where) / "survey.db"
        shutil.copyfile(path, copy)
        shutil.copyfile(f"{path}-wal", f"{copy}-wal")
        source = sqlite3.connect(copy)
        try:
            memory = sqlite3.connect(":memory:", check_same_thread=check_same_thread)
            source.backup(memory)
        finally:
            source.close()
    return memory


_KEY_BRACKETS: Final = 8
"""Brackets a stored rule set holds at most (it holds one: a flat object)."""


def rules_key(rules: Rules) -> str:
    """The text a rule set is stored under: canonical (sorted, compact) JSON."""
    return json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))


def rules_from_key(key: str) -> Rules:
    """Inverse of :func:`rules_key`; text that is no rule set raises a ``ValueError``
    (``InvalidRulesError``), JSON nested deeper than a rule set's included."""
    if not isinstance(key, str):
        raise InvalidRulesError(f"a rule set is stored as JSON text, not {type(key).__name__}")
    if key.count("{") + key.count("[") > _KEY_BRACKETS:  # read unread: nesting 5,000 deep
        raise InvalidRulesError("not a flat JSON object of rule options (nested too deep)")
    return Rules.from_json(json.loads(key))


COLUMNS: Final = (
    "rules, source, deal, verdict, length, optimal, nodes, seconds, moves, solver, "
    "rating, time_limit, node_limit"
)


def _one_of(values: Iterable[str]) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


# What each column must hold, as SQL (and in words): checked by Store.check_rows.
CHECKS: Final = (
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
UPSERT: Final = """
INSERT INTO deals (ruleset, source, deal, verdict, length, optimal, nodes, micros, line,
    solver, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (ruleset, source, deal) DO UPDATE SET
    verdict = excluded.verdict, length = excluded.length, optimal = excluded.optimal,
    nodes = excluded.nodes, micros = excluded.micros, line = excluded.line,
    solver = excluded.solver, rating = excluded.rating
WHERE deals.verdict = 2
"""


__all__ = [
    "RATINGS",
    "SCHEMA_V1",
    "SCHEMA_VERSION",
    "SOURCES",
    "STORED_SOURCES",
    "VERDICTS",
    "DamagedStoreError",
    "StoreError",
    "connect",
    "database_error",
    "rules_from_key",
    "rules_key",
]
