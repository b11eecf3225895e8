"""Survey rows as a table for pandas, polars or a spreadsheet: CSV, or Parquet (pyarrow).

One row per deal, in readable columns::

    variant     the rules as a game code writes them: C8, C4-EA, C8-FT …
    rules       the rules in words ("8 cells, Kings only to empty columns, …")
    source      whose deal numbering: eightoff or pysol
    deal        the deal number
    code        the game code that replays the deal (EO1-C8-AAAAAFA), empty if none
    verdict     solved, unsolvable or unknown
    length      single-card moves of the solution (empty unless solved)
    optimal     whether that solution is proven shortest
    nodes       positions the solver expanded
    seconds     solver wall time
    moves       the solution in the compact notation, space-separated ("3a 35x2 a^")
    rating      easy, medium or hard (solved deals)
    solver      the solver version; time_limit, node_limit, memory_limit (bytes of search
                tables; empty: the solver's default, 1 GiB): the budget it had

``eightoff survey export --db FILE --format parquet|csv OUT``; Parquet needs the
``parquet`` extra (``pip install 'eightoff[parquet]'``).
"""

from __future__ import annotations

import csv
import importlib
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final

from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.errors import EightOffError
from eightoff.rules import Rules
from eightoff.store import Row, Store

FORMATS: Final = ("csv", "parquet")
COLUMNS: Final = (
    "variant",
    "rules",
    "source",
    "deal",
    "code",
    "verdict",
    "length",
    "optimal",
    "nodes",
    "seconds",
    "moves",
    "rating",
    "solver",
    "time_limit",
    "node_limit",
    "memory_limit",
)
BATCH: Final = 50_000  # rows held in memory at a time for Parquet


class ExportError(EightOffError):
    """An export that cannot be written: a bad path or format, or pyarrow missing."""


def variant(rules: Rules) -> str:
    """The rules as a game code writes them: ``C8``, ``C4-EA``, ``C8-FT``."""
    letters = GameCode(rules, 0).options
    return f"C{rules.cells}-{letters}" if letters else f"C{rules.cells}"


def record(row: Row, names: dict[Rules, tuple[str, str]]) -> dict[str, Any]:
    """``row`` as the export's columns (``names`` caches each rule set's two names)."""
    if row.rules not in names:
        names[row.rules] = (variant(row.rules), row.rules.describe())
    try:
        code = str(GameCode(row.rules, row.deal, row.source))
    except InvalidGameCodeError:  # a deal number no game code can carry
        code = ""
    return {
        "variant": names[row.rules][0],
        "rules": names[row.rules][1],
        "source": row.source,
        "deal": row.deal,
        "code": code,
        "verdict": row.verdict,
        "length": row.length,
        "optimal": row.optimal,
        "nodes": row.nodes,
        "seconds": row.seconds,
        "moves": row.moves,
        "rating": row.rating,
        "solver": row.solver,
        "time_limit": row.time_limit,
        "node_limit": row.node_limit,
        "memory_limit": row.memory_limit,
    }


def records(store: Store, rules: Rules | None = None) -> Iterator[dict[str, Any]]:
    """Every row of ``store`` (of ``rules`` if given) as the export's columns."""
    names: dict[Rules, tuple[str, str]] = {}
    for row in store.rows(rules):
        yield record(row, names)


def check_target(out: str, fmt: str | None) -> tuple[Path | None, str]:
    """The file to write (``None``: CSV to standard output, for ``-``) and its format:
    ``fmt``, or the file's suffix; :class:`ExportError` saying what is wrong."""
    if fmt is not None and fmt not in FORMATS:
        raise ExportError(f"--format must be csv or parquet, not {fmt!r}")
    if out == "-":
        if fmt == "parquet":
            raise ExportError("Parquet is written to a file: give its name, not -")
        return None, "csv"
    target = Path(out)
    suffix = target.suffix.lower().lstrip(".")
    fmt = fmt or (suffix if suffix in FORMATS else None)
    if target.is_dir():
        example = target / f"survey.{fmt or 'csv'}"
        raise ExportError(f"{out} is a directory: give a file name, like {example}")
    if not target.parent.is_dir():
        raise ExportError(f"{out}: there is no directory {target.parent}")
    if not os.access(target.parent, os.W_OK):
        raise ExportError(f"{out}: the directory {target.parent} is not writable")
    if fmt is None:
        raise ExportError(f"say --format csv or --format parquet (the name {out!r} does not)")
    if fmt == "parquet":
        pyarrow()  # before any work: say at once if it is missing
    return target, fmt


def pyarrow() -> tuple[Any, Any]:
    """``pyarrow`` and ``pyarrow.parquet`` (typed as Any: pyarrow has no type hints)."""
    try:
        return importlib.import_module("pyarrow"), importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ExportError(
            "--format parquet needs pyarrow: install eightoff[parquet] "
            "(pip install 'eightoff[parquet]'), or export --format csv"
        ) from None


@contextmanager
def _replacing(target: Path) -> Iterator[Path]:
    """A temporary file beside ``target`` that replaces it once written whole."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    umask = os.umask(0)
    os.umask(umask)
    temporary.chmod(0o666 & ~umask)  # as open() would make it; mkstemp makes 0600
    try:
        yield temporary
        temporary.replace(target)
    finally:
        temporary.unlink(missing_ok=True)


def write_csv(rows: Iterator[dict[str, Any]], stream: IO[str]) -> int:
    """Write ``rows`` as CSV with a header line; return how many."""
    writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    count = 0
    for item in rows:
        writer.writerow(item)
        count += 1
    return count


def write_parquet(rows: Iterator[dict[str, Any]], path: Path) -> int:
    """Write ``rows`` to a Parquet file at ``path``; return how many."""
    pa, pq = pyarrow()
    text = pa.string()
    words = pa.dictionary(pa.int8(), pa.string())  # a handful of distinct values each
    schema = pa.schema(
        [
            ("variant", words),
            ("rules", words),
            ("source", words),
            ("deal", pa.int64()),
            ("code", text),
            ("verdict", words),
            ("length", pa.int32()),
            ("optimal", pa.bool_()),
            ("nodes", pa.int64()),
            ("seconds", pa.float64()),
            ("moves", text),
            ("rating", words),
            ("solver", words),
            ("time_limit", pa.float64()),
            ("node_limit", pa.int64()),
            ("memory_limit", pa.int64()),
        ]
    )
    count = 0
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        batch: list[dict[str, Any]] = []
        for item in rows:
            batch.append(item)
            if len(batch) == BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                count += len(batch)
                batch = []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            count += len(batch)
    return count


def command(db: str | Path, out: str, fmt: str | None, rules: Rules | None = None) -> int:
    """``eightoff survey export``: write the rows of ``db`` (of ``rules`` if given) to
    ``out`` and say how many went where (to ``-``: the CSV alone, on standard output)."""
    target, fmt = check_target(out, fmt)
    with Store(db, readonly=True) as store:
        store.check_rows()
        rows = records(store, rules)
        if target is None:
            write_csv(rows, sys.stdout)
            return 0
        with _replacing(target) as temporary:
            if fmt == "csv":
                with temporary.open("w", encoding="utf-8", newline="") as stream:
                    count = write_csv(rows, stream)
            else:
                count = write_parquet(rows, temporary)
    print(f"{count} rows of {db} written to {out} ({fmt})")
    return 0
