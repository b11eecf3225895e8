"""The winnable-deal pool: difficulty ratings, and drawing winnable deals.

A pool is either a survey database (see :mod:`eightoff.survey`) or a small
JSON file of rated deal numbers; ``Pool()`` with no path opens the pool
shipped with the package (standard rules), so a first start has winnable
deals at once. Only eightoff-numbered deals are drawn (what game codes carry).

Make a JSON pool from a survey database with
``python -m eightoff.pool SURVEY.db OUT.json [--per-rating N]``.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
from importlib import resources
from pathlib import Path
from typing import Any, Final

from eightoff.argtypes import Parser, error_line, int_in
from eightoff.errors import EightOffError
from eightoff.rules import Rules
from eightoff.schema import (
    RATINGS,
    StoreError,
    connect,
    database_error,
    rules_from_key,
    rules_key,
)
from eightoff.store import Store

FORMAT: Final = "eightoff-pool"
SHIPPED: Final = "pool-standard.json"

# Rating thresholds (single-card moves of the solution found; positions expanded).
# Calibrated on eightoff deals 0-2499 under the standard rules (the C search core,
# weight 4, of 29 Nov 2026): 35% of the winnable deals rate easy, 48% medium, 17%
# hard. Other rule sets use the same scale, so a harder variant simply has more
# hard deals.
EASY_LENGTH: Final = 80
EASY_NODES: Final = 35
HARD_LENGTH: Final = 100
HARD_NODES: Final = 400


class PoolError(EightOffError):
    """A pool file that cannot be read, or a rating we do not know."""


def rate(length: int, nodes: int) -> str:
    """``easy`` / ``medium`` / ``hard`` from a solution's length and the solver's effort.

    Easy needs both a short solution and a quick search; either a long solution
    or a search that had to work hard makes a deal hard.
    """
    if length > HARD_LENGTH or nodes > HARD_NODES:
        return "hard"
    if length <= EASY_LENGTH and nodes <= EASY_NODES:
        return "easy"
    return "medium"


class Pool:
    """Winnable deals to draw from: a survey database, a JSON pool, or the shipped one."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        # JSON pools: rules key -> rating -> sorted deal numbers.
        self._deals: dict[str, dict[str, list[int]]] = {}
        if self.path is None:
            text = resources.files("eightoff").joinpath("data", SHIPPED).read_text("utf-8")
            self._load_json(text, SHIPPED)
            return
        try:
            if self.path.exists() and not self.path.is_file():
                raise PoolError(f"cannot read the pool {self.path}: not a regular file")
            with self.path.open("rb") as f:
                head = f.read(16)
        except OSError as exc:
            raise PoolError(f"cannot read the pool {self.path}: {exc.strerror}") from None
        if head.lstrip().startswith(b"{"):
            self._load_json(self.path.read_text("utf-8"), str(self.path))
        else:
            try:
                with Store(self.path, readonly=True) as store:  # a survey database?
                    store.check_rows()
                # The web server may call draw() from several threads: one connection, a lock.
                self._db = connect(self.path, readonly=True, check_same_thread=False)
            except sqlite3.Error as exc:
                raise PoolError(str(database_error(self.path, exc))) from None
            except StoreError as exc:
                raise PoolError(str(exc)) from None

    def _load_json(self, text: str, name: str) -> None:
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT:
                raise PoolError(f"{name} is not an eightoff pool file")
            for entry in data["pools"]:
                key = rules_key(Rules.from_json(entry["rules"]))
                self._deals[key] = {
                    r: sorted(int(n) for n in entry["deals"].get(r, [])) for r in RATINGS
                }
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            if isinstance(exc, PoolError):
                raise
            raise PoolError(f"{name} is not a valid pool file ({exc})") from None

    def close(self) -> None:
        """Close the database, if any."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def count(self, rules: Rules, rating: str | None = None) -> int:
        """How many winnable deals there are to draw for ``rules`` (and ``rating``)."""
        _check_rating(rating)
        key = rules_key(rules)
        if self._db is None:
            by_rating = self._deals.get(key, {})
            return sum(len(by_rating.get(r, [])) for r in ((rating,) if rating else RATINGS))
        where, args = _where(key, rating)
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM results" + where, args).fetchone()[0])

    def draw(self, rules: Rules, rng: random.Random, rating: str | None = None) -> int | None:
        """A winnable eightoff deal number for ``rules`` (of ``rating`` if given), drawn
        uniformly with ``rng``; ``None`` when the pool has none."""
        _check_rating(rating)
        key = rules_key(rules)
        if self._db is None:
            by_rating = self._deals.get(key, {})
            choices = [n for r in ((rating,) if rating else RATINGS) for n in by_rating.get(r, [])]
            return rng.choice(choices) if choices else None
        where, args = _where(key, rating)
        with self._lock:
            total = int(
                self._db.execute("SELECT count(*) FROM results" + where, args).fetchone()[0]
            )
            if total == 0:
                return None
            found = self._db.execute(
                "SELECT deal FROM results" + where + " ORDER BY deal LIMIT 1 OFFSET ?",
                (*args, rng.randrange(total)),
            ).fetchone()
        return None if found is None else int(found[0])

    def sample(
        self, rules: Rules, rng: random.Random, count: int, rating: str | None = None
    ) -> list[int]:
        """Up to ``count`` distinct winnable eightoff deal numbers for ``rules`` (of
        ``rating`` if given), drawn uniformly with ``rng``: all of them when there are
        fewer (in a random order); none when the pool has none."""
        _check_rating(rating)
        key = rules_key(rules)
        if self._db is None:
            by_rating = self._deals.get(key, {})
            choices = [n for r in ((rating,) if rating else RATINGS) for n in by_rating.get(r, [])]
            return rng.sample(choices, min(count, len(choices)))
        where, args = _where(key, rating)
        sql = "SELECT deal FROM results" + where + " ORDER BY deal LIMIT 1 OFFSET ?"
        with self._lock:
            total = int(
                self._db.execute("SELECT count(*) FROM results" + where, args).fetchone()[0]
            )
            offsets = rng.sample(range(total), min(count, total))
            return [int(self._db.execute(sql, (*args, k)).fetchone()[0]) for k in offsets]

    def rules(self) -> list[Rules]:
        """The rule sets this pool has winnable deals for."""
        if self._db is None:
            return [rules_from_key(k) for k, v in self._deals.items() if any(v.values())]
        with self._lock:
            cur = self._db.execute(
                "SELECT DISTINCT rules FROM results"
                " WHERE source = 'eightoff' AND verdict = 'solved'"
            )
            return [rules_from_key(r[0]) for r in cur]


def _check_rating(rating: str | None) -> None:
    if rating is not None and rating not in RATINGS:
        raise PoolError(f"rating must be one of {', '.join(RATINGS)}, not {rating!r}")


def _where(key: str, rating: str | None) -> tuple[str, tuple[object, ...]]:
    where = " WHERE rules = ? AND source = 'eightoff' AND verdict = 'solved'"
    if rating is None:
        return where, (key,)
    return where + " AND rating = ?", (key, rating)


def export(store: Store, per_rating: int | None = None) -> dict[str, Any]:
    """A JSON pool of the winnable eightoff deals in ``store``: every rule set, at most
    ``per_rating`` deals (the lowest numbers) per rating."""
    pools: list[dict[str, Any]] = []
    for rules, source, _ in store.groups():
        if source != "eightoff":
            continue
        deals: dict[str, list[int]] = {}
        key = rules_key(rules)
        for rating in RATINGS:
            where, args = _where(key, rating)
            sql = "SELECT deal FROM results" + where + " ORDER BY deal"
            if per_rating is not None:
                sql += " LIMIT ?"
                args = (*args, per_rating)
            deals[rating] = [r[0] for r in store.execute(sql, args)]
        if any(deals.values()):
            pools.append({"rules": rules.to_json(), "deals": deals})
    solvers = sorted({r[0] for r in store.execute("SELECT DISTINCT solver FROM results")})
    return {"format": FORMAT, "version": 1, "solver": ", ".join(solvers), "pools": pools}


MAX_PER_RATING: Final = 1_000_000


def main(argv: list[str] | None = None) -> int:
    """``python -m eightoff.pool SURVEY.db OUT.json [--per-rating N]``.

    Reads the database only (it may be on read-only storage); bad input is one line
    ``eightoff: error: …`` and exit status 2, and ``OUT.json`` is written whole or not at all.
    """
    parser = Parser(
        prog="python -m eightoff.pool", description="Write a JSON pool from a survey database."
    )
    parser.add_argument("db", help="survey database (only read)")
    parser.add_argument("out", help="JSON pool to write")
    parser.add_argument(
        "--per-rating",
        type=int_in(1, MAX_PER_RATING),
        default=None,
        metavar="N",
        help="at most N deals per rating and rule set, the lowest numbers (default: all)",
    )
    args = parser.parse_args(argv)
    db, out = Path(args.db), Path(args.out)
    try:
        if out.exists() and out.resolve() == db.resolve():
            raise PoolError(f"{out} is the survey database itself: choose another file")
        if out.is_dir():
            raise PoolError(f"{out} is a directory: name the JSON file to write")
        if db.exists() and not db.is_file():
            raise PoolError(f"{db} is not a regular file")
        try:
            with Store(db, readonly=True) as store:
                data = export(store, args.per_rating)
        except sqlite3.Error as exc:
            raise database_error(db, exc) from None
        try:
            _write(out, _pool_text(data))
        except OSError as exc:
            raise PoolError(f"cannot write the pool {out}: {exc.strerror or exc}") from None
    except EightOffError as exc:
        print(error_line(str(exc)), file=sys.stderr)
        return 2
    except OSError as exc:  # a path the system cannot look at (too long, a loop of links…)
        print(error_line(f"{exc.filename or db}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    counts = {r: sum(len(p["deals"][r]) for p in data["pools"]) for r in RATINGS}
    print(f"wrote {out}: {len(data['pools'])} rule set(s), {counts}")
    return 0


def _pool_text(data: dict[str, Any]) -> str:
    # One deal list per line: small, and diffs stay readable.
    lines = [
        '{"format": "eightoff-pool", "version": 1,',
        f' "solver": {json.dumps(data["solver"])},',
    ]
    lines.append(' "pools": [')
    for i, entry in enumerate(data["pools"]):
        lines.append(f'  {{"rules": {json.dumps(entry["rules"])}, "deals": {{')
        for j, rating in enumerate(RATINGS):
            sep = "," if j < len(RATINGS) - 1 else ""
            lines.append(f'   "{rating}": {json.dumps(entry["deals"][rating])}{sep}')
        lines.append("  }}" + ("," if i < len(data["pools"]) - 1 else ""))
    lines.append(" ]}")
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    # Beside the target, then renamed over it: a failed write leaves no half a pool.
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as tmp:
        try:
            tmp.write(text)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp.name, 0o666 & ~umask)  # as a plain write would make it
        except BaseException:
            tmp.close()
            os.unlink(tmp.name)
            raise
    try:
        os.replace(tmp.name, path)
    except BaseException:
        os.unlink(tmp.name)
        raise


if __name__ == "__main__":
    sys.exit(main())
