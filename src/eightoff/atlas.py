"""The atlas's figures: a survey database's groups, kept as :class:`Entry` values in a
small JSON file and merged there; :mod:`eightoff.atlaspage` draws them as one Markdown
page (``docs/atlas.md``).

``eightoff survey report --db FILE --markdown [--plot FILE.png]`` prints it: the commands
that reproduce every group of the database (read from the rows: deals, limits, optimal
mode, rule options), a table of the variants with winnability and its 95% Wilson
interval, unknown deals, solve times and solution lengths, the distribution of the
proven-optimal lengths where ``--optimal`` rows exist, and the published figures set
beside ours.

Each group's figures are also kept as an :class:`Entry` in a small JSON file
(``docs/atlas.json``, ``--atlas FILE``): a survey of a few variants, in a database of their
own on another machine or day, replaces theirs there and the page is made from the whole
file (:func:`merged`), so the atlas grows without one database holding every survey. A
survey of nothing but deals a group left unknown (``eightoff survey 7755,83731 ...`` at
larger limits) settles them in that group instead of replacing it.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from eightoff.errors import EightOffError
from eightoff.report import Limits, Summary, quantile, summaries
from eightoff.rules import InvalidRulesError, Rules
from eightoff.store import Store, rules_key

FORMAT: Final = "eightoff-atlas"
VERSION: Final = 1
MAX_BYTES: Final = 4 * 2**20  # an atlas file: a few hundred groups take a few hundred KiB


@dataclass(slots=True)
class Group:
    """One (rules, source) group of the database, with what the atlas adds."""

    summary: Summary
    optimal: list[int]  # sorted lengths of the proven-optimal solutions


class AtlasError(EightOffError):
    """An atlas file that cannot be read or written."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One group of the atlas, with the figures the page shows: what ``docs/atlas.json``
    keeps of a (rules, source) group once its database is gone."""

    rules: Rules
    source: str
    spans: tuple[tuple[int, int], ...]  # the deal numbers surveyed, as inclusive spans
    limits: tuple[Limits, ...]  # as stored
    won: int
    lost: int
    unknown: tuple[int, ...]  # the deals left unknown
    time_median: float  # seconds a deal, every deal of the group
    time_p99: float
    length_median: float  # moves, the won deals (nan: none)
    optimal: tuple[int, ...]  # sorted lengths of the proven-optimal solutions

    @property
    def key(self) -> tuple[Rules, str]:
        """What the entry is the group of."""
        return (self.rules, self.source)

    @property
    def decided(self) -> int:
        """Deals with a proof either way."""
        return self.won + self.lost

    @property
    def winnability(self) -> float:
        """Won share of the decided deals."""
        return self.won / self.decided if self.decided else math.nan

    @property
    def optimal_mode(self) -> bool:
        """Whether the group was surveyed with ``--optimal`` (most wins proven shortest)."""
        return bool(self.optimal) and 2 * len(self.optimal) >= self.won

    @classmethod
    def of(cls, group: Group) -> Entry:
        """The figures of a database's group."""
        s = group.summary
        return cls(
            rules=s.rules,
            source=s.source,
            spans=tuple(s.spans),
            limits=tuple(sorted(s.limits, key=limit_order)),
            won=s.verdicts["solved"],
            lost=s.verdicts["unsolvable"],
            unknown=tuple(s.unknown),
            time_median=_digits(quantile(s.seconds, 0.5)),
            time_p99=_digits(quantile(s.seconds, 0.99)),
            length_median=quantile(s.lengths, 0.5),
            optimal=tuple(group.optimal),
        )

    def to_json(self) -> dict[str, Any]:
        """The entry's line of the atlas file (optimal lengths as counts by length)."""
        return {
            "rules": self.rules.to_json(),
            "source": self.source,
            "spans": [list(span) for span in self.spans],
            "limits": [list(limit if limit[2] is not None else limit[:2]) for limit in self.limits],
            "won": self.won,
            "lost": self.lost,
            "unknown": list(self.unknown),
            "time_median": _finite(self.time_median),
            "time_p99": _finite(self.time_p99),
            "length_median": _finite(self.length_median),
            "optimal": {str(n): c for n, c in sorted(Counter(self.optimal).items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        """Inverse of :meth:`to_json`."""
        try:
            spans = tuple((int(lo), int(hi)) for lo, hi in data["spans"])
            if not spans or any(lo < 1 or hi < lo for lo, hi in spans):
                raise AtlasError(f"deal spans {data['spans']!r}: not increasing from 1 up")
            limits = tuple(_limits(limit) for limit in data["limits"])
            optimal = sorted(
                int(n) for n, count in data["optimal"].items() for _ in range(int(count))
            )
            return cls(
                rules=Rules.from_json(data["rules"]),
                source=str(data["source"]),
                spans=spans,
                limits=limits,
                won=int(data["won"]),
                lost=int(data["lost"]),
                unknown=tuple(int(d) for d in data["unknown"]),
                time_median=_number_or_nan(data["time_median"]),
                time_p99=_number_or_nan(data["time_p99"]),
                length_median=_number_or_nan(data["length_median"]),
                optimal=tuple(optimal),
            )
        except AtlasError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, InvalidRulesError) as exc:
            raise AtlasError(f"a group that cannot be read ({exc!r})") from None


def _digits(x: float) -> float:
    # Six significant digits, more than the page shows; rounded once, when the entry is
    # made, so the page from the file and from the database show the same digits.
    return x if math.isnan(x) else float(f"{x:.6g}")


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x  # JSON has no NaN


def _number_or_nan(x: Any) -> float:
    return math.nan if x is None else float(x)


def entries(store: Store, rules: Rules | None = None) -> list[Entry]:
    """The entries of ``store``'s groups, in atlas order."""
    return [Entry.of(g) for g in groups(store, rules)]


def plotted(found: list[Group]) -> list[Summary]:
    """The summaries the atlas plots: the groups with proven-optimal rows."""
    return [g.summary for g in found if g.optimal]


def _order(rules: Rules, source: str) -> tuple[object, ...]:
    # Atlas order: layout, build, empty columns, cells (most first), source.
    return (rules.layout.value, rules.build.value, rules.empty_column.value, -rules.cells, source)


def _deals(found: Sequence[tuple[int, int]], most: int) -> set[int] | None:
    """The deal numbers of ``found``, or None where they are more than ``most``."""
    if sum(hi - lo + 1 for lo, hi in found) > most:
        return None
    return {deal for lo, hi in found for deal in range(lo, hi + 1)}


def settled(old: Entry, new: Entry) -> Entry | None:
    """``old`` with the deals it left unknown that ``new`` surveyed again counted as
    ``new`` found them, and ``new``'s limits among its own (so its commands retry them);
    None unless ``new`` is of the same group and surveyed nothing else. Its times and
    lengths stay: a few of its deals, already past its 99th percentile of time, move
    neither its median nor that percentile."""
    again = _deals(new.spans, len(old.unknown)) if new.key == old.key else None
    if again is None or not again <= set(old.unknown):
        return None
    unknown = sorted((set(old.unknown) - again) | set(new.unknown))
    limits = tuple(sorted(set(old.limits) | set(new.limits), key=limit_order))
    return dataclasses.replace(
        old, limits=limits, won=old.won + new.won, lost=old.lost + new.lost, unknown=tuple(unknown)
    )


def merged(new: list[Entry], old: list[Entry]) -> list[Entry]:
    """``new`` with the groups of ``old`` it lacks (its own where both have one; where
    ``new``'s only surveyed deals ``old``'s left unknown, ``old``'s settled by it), in
    atlas order."""
    before = {e.key: e for e in old}
    mine = [(settled(before[e.key], e) if e.key in before else None) or e for e in new]
    keys = {e.key for e in mine}
    both = [*mine, *(e for e in old if e.key not in keys)]
    return sorted(both, key=lambda e: _order(*e.key))


def to_text(found: list[Entry]) -> str:
    """The atlas file's text: one group a line, so diffs stay readable."""
    head = json.dumps({"format": FORMAT, "version": VERSION})
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in found]
    body = ",\n".join(f"  {line}" for line in lines)
    return head[:-1] + ', "groups": [\n' + body + "\n]}\n"


def from_text(text: str, name: str = "atlas.json") -> list[Entry]:
    """Read an atlas file's text; :class:`AtlasError` names ``name`` if it is bad."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise AtlasError("not an eightoff atlas file")
        if data.get("version") != VERSION:
            raise AtlasError(f"version {data.get('version')!r}; this eightoff reads {VERSION}")
        found = [Entry.from_json(e) for e in data["groups"]]
    except AtlasError as exc:
        raise AtlasError(f"{name}: {exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise AtlasError(f"{name}: not a valid atlas file ({exc!r})") from None
    keys = [e.key for e in found]
    if len(set(keys)) != len(keys):
        raise AtlasError(f"{name}: a group is there twice")
    return found


def check_path(path: str | Path) -> Path:
    """``path`` as an atlas file to read and write, or :class:`AtlasError` saying why not."""
    path = Path(path)
    if path.is_dir():
        raise AtlasError(f"--atlas {path} is a directory: name the atlas file (atlas.json)")
    if path.exists() and not path.is_file():
        raise AtlasError(f"--atlas {path} is not a regular file")
    if not path.parent.is_dir():
        raise AtlasError(f"--atlas {path}: there is no directory {path.parent}")
    return path


def read(path: str | Path) -> list[Entry]:
    """The entries of the atlas file ``path`` (none if there is no such file yet)."""
    path = check_path(path)
    if not path.exists():
        return []
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise AtlasError(f"{path}: over {MAX_BYTES:,} bytes, not an atlas file")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AtlasError(f"{path}: cannot read it ({exc})") from None
    return from_text(text, str(path))


def write(path: str | Path, found: list[Entry]) -> None:
    """Write the atlas file ``path``."""
    from eightoff.pool import _write

    _write(Path(path), to_text(found))


def groups(store: Store, rules: Rules | None = None) -> list[Group]:
    """The groups of ``store`` in atlas order: layout, build, empty columns, cells."""
    found = []
    for s in summaries(store, rules):
        where = " WHERE rules = ? AND source = ? AND optimal = 1"
        args = (rules_key(s.rules), s.source)
        lengths = [
            int(r[0])
            for r in store.execute(
                "SELECT length FROM results" + where + " AND verdict = 'solved'", args
            )
        ]
        found.append(Group(s, sorted(lengths)))
    return sorted(found, key=lambda g: _order(g.summary.rules, g.summary.source))


def _limits(found: Any) -> Limits:
    """A stored limit: [seconds, nodes] or [seconds, nodes, table bytes]."""
    seconds, nodes, *rest = found
    if len(rest) > 1:
        raise AtlasError(f"limits {found!r}: seconds, nodes and table bytes at most")
    memory = rest[0] if rest else None
    return (
        None if seconds is None else float(seconds),
        None if nodes is None else int(nodes),
        None if memory is None else int(memory),
    )


def limit_order(limit: Limits) -> tuple[float, float, float]:
    """How limits sort, lowest first (``None`` is no limit; for the tables, the solver's
    default, 1 GiB)."""
    seconds, nodes, memory = limit
    return (
        math.inf if seconds is None else seconds,
        math.inf if nodes is None else nodes,
        1 << 30 if memory is None else memory,
    )
