"""The survey's verdicts shipped with the package: which deals of each variant can be won.

``src/eightoff/data/verdicts.json`` holds, per variant (rule set), the surveyed range of
eightoff-numbered deals, how many were won, lost and left unknown, the deal numbers of the
minority verdict and those of the unknown deals; every other deal of the range has the
majority verdict. Deal numbers are stored as their sorted gaps (LEB128 varints), compressed
with zlib and written as base64 text: a million surveyed deals of the standard game take a
few kilobytes. ``eightoff survey verdicts --db SURVEY.db OUT.json`` makes the file from a
survey database (:func:`build`).

:func:`shipped` reads the file once; :meth:`Shipped.find` gives a rule set's
:class:`Verdicts`, whose :meth:`Verdicts.odds` is what the New game forms say ("about 1 in
9 deals of this variant can be won") and whose won deals the web game draws from where
random deals are rarely winnable (:func:`draw_won`, for the web and terminal games).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import functools
import itertools
import json
import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from eightoff.errors import EightOffError
from eightoff.rules import GroupMoves, InvalidRulesError, Rules

if TYPE_CHECKING:
    from eightoff.store import Store

FORMAT: Final = "eightoff-verdicts"
VERSION: Final = 1
SHIPPED: Final = "verdicts.json"
VERDICTS: Final = ("won", "lost", "unknown")
ALMOST: Final = 0.99  # a share from which the forms say "almost every deal"
# A survey row's verdict (eightoff.store) as this file names it.
STORED_AS: Final = {"solved": "won", "unsolvable": "lost", "unknown": "unknown"}


class VerdictsError(EightOffError):
    """A verdicts file that cannot be read, or deal numbers that cannot be encoded."""


# -- the encoding of a sorted set of deal numbers ----------------------------------------------


def encode_deals(deals: Iterable[int], start: int = 1) -> str:
    """Increasing deal numbers, each ``>= start``, as text: the gaps between them (the
    first from ``start - 1``) as LEB128 varints, zlib-compressed, in base64."""
    out = bytearray()
    previous = start - 1
    for deal in deals:
        gap = deal - previous
        if gap < 1:
            raise VerdictsError(f"deal numbers must increase from {start}: {deal} after {previous}")
        while gap >= 0x80:
            out.append(gap & 0x7F | 0x80)
            gap >>= 7
        out.append(gap)
        previous = deal
    return base64.b64encode(zlib.compress(bytes(out), 9)).decode("ascii")


def decode_deals(text: str, start: int = 1) -> tuple[int, ...]:
    """Inverse of :func:`encode_deals`."""
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
    except (ValueError, zlib.error, binascii.Error) as exc:
        raise VerdictsError(f"deal numbers that cannot be read ({exc})") from None
    deals: list[int] = []
    previous, gap, shift = start - 1, 0, 0
    for byte in raw:
        gap |= (byte & 0x7F) << shift
        shift += 7
        if byte & 0x80:
            continue
        if gap < 1:
            raise VerdictsError("deal numbers that cannot be read (a gap of 0)")
        previous += gap
        deals.append(previous)
        gap, shift = 0, 0
    if shift:
        raise VerdictsError("deal numbers that cannot be read (the last one is cut short)")
    return tuple(deals)


# -- one variant's verdicts --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Odds:
    """How often a variant's deals can be won, as the New game forms say it.

    ``kind``: ``almost`` (at least 99 % of the decided deals won), ``percent`` (at least
    half), ``one_in`` (fewer: "about 1 in ``one_in``"), ``none`` (no deal won).
    ``percent`` is the share of won deals among the decided ones, rounded as shown: down
    to two decimals for ``almost`` (99.999 % is not "100 %"), to a whole number otherwise.
    """

    kind: str
    percent: float
    one_in: int
    surveyed: int
    unknown: int

    def text(self) -> str:
        """The line in English: ``About 1 in 9 deals of this variant can be won (2,000
        surveyed).``"""
        counted = f"{self.surveyed:,} surveyed"
        if self.unknown:
            counted += f", {self.unknown:,} undecided"
        share = f"{self.percent:g} %"
        if self.kind == "almost":
            return f"Almost every deal of this variant can be won: {share} of {counted}."
        if self.kind == "percent":
            return f"About {share} of the deals of this variant can be won ({counted})."
        if self.kind == "one_in":
            return f"About 1 in {self.one_in:,} deals of this variant can be won ({counted})."
        return f"No deal of this variant could be won ({counted})."

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON (``POST /api/winnability``)."""
        return {
            "kind": self.kind,
            "percent": self.percent,
            "one_in": self.one_in,
            "surveyed": self.surveyed,
            "unknown": self.unknown,
        }


UNSURVEYED_TEXT: Final = "How often this variant can be won has not been surveyed."


@dataclass(frozen=True, slots=True)
class Verdicts:
    """The verdicts of one variant on the eightoff deals ``low``..``high``: ``listed`` (won
    or lost, the rarer) names the verdict of ``deals``; ``unknown`` deals were left
    undecided; every other deal of the range has the other verdict."""

    rules: Rules
    low: int
    high: int
    won: int
    lost: int
    listed: str
    deals: tuple[int, ...]
    unknown: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high:
            raise VerdictsError(
                f"a surveyed range must be 1 <= low <= high, not {self.low}-{self.high}"
            )
        if self.listed not in ("won", "lost"):
            raise VerdictsError(f"the listed verdict must be won or lost, not {self.listed!r}")
        if (
            min(self.won, self.lost) < 0
            or self.won + self.lost + len(self.unknown) != self.surveyed
        ):
            raise VerdictsError(
                f"{self.won} won + {self.lost} lost + {len(self.unknown)} unknown is not the "
                f"{self.surveyed} deals of {self.low}-{self.high}"
            )
        if len(self.deals) != (self.won if self.listed == "won" else self.lost):
            raise VerdictsError(
                f"{len(self.deals)} deals listed {self.listed}, not {self.count(self.listed)}"
            )
        for name, numbers in (("listed", self.deals), ("unknown", self.unknown)):
            if numbers and not (self.low <= numbers[0] and numbers[-1] <= self.high):
                raise VerdictsError(f"{name} deals outside {self.low}-{self.high}")
            if any(a >= b for a, b in itertools.pairwise(numbers)):
                raise VerdictsError(f"{name} deals must be sorted and distinct")
        if set(self.deals) & set(self.unknown):
            raise VerdictsError("a deal both listed and unknown")

    @property
    def surveyed(self) -> int:
        """How many deals the range holds."""
        return self.high - self.low + 1

    def count(self, verdict: str) -> int:
        """How many deals of the range have ``verdict`` (won, lost or unknown)."""
        return {"won": self.won, "lost": self.lost, "unknown": len(self.unknown)}[verdict]

    def verdict(self, deal: int) -> str | None:
        """``won``, ``lost`` or ``unknown`` for a deal of the range; ``None`` outside it."""
        if not self.low <= deal <= self.high:
            return None
        if _holds(self.unknown, deal):
            return "unknown"
        if _holds(self.deals, deal):
            return self.listed
        return "lost" if self.listed == "won" else "won"

    def draw_won(self, rng: random.Random) -> int | None:
        """A won deal drawn uniformly with ``rng``; ``None`` when none was won."""
        if self.won == 0:
            return None
        if self.listed == "won":
            return rng.choice(self.deals)
        while True:  # won is the majority: a few tries at most, on average
            deal = rng.randint(self.low, self.high)
            if self.verdict(deal) == "won":
                return deal

    def odds(self) -> Odds:
        """How often a deal of this variant can be won, from the decided deals."""
        decided = self.won + self.lost
        share = self.won / decided if decided else 0.0
        one_in = round(decided / self.won) if self.won else 0
        if self.won and share >= ALMOST:
            kind, percent = "almost", int(share * 10_000) / 100
        elif share >= 0.5:
            kind, percent = "percent", float(round(share * 100))
        else:
            kind, percent = ("one_in" if self.won else "none"), float(round(share * 100))
        return Odds(kind, percent, one_in, self.surveyed, len(self.unknown))

    def to_json(self) -> dict[str, Any]:
        """The variant's entry of the verdicts file."""
        return {
            "rules": self.rules.to_json(),
            "deals": [self.low, self.high],
            "won": self.won,
            "lost": self.lost,
            "unknown": len(self.unknown),
            "listed": self.listed,
            "listed_deals": encode_deals(self.deals, self.low),
            "unknown_deals": encode_deals(self.unknown, self.low),
        }

    @classmethod
    def from_json(cls, data: Any) -> Verdicts:
        """Inverse of :meth:`to_json`."""
        try:
            low, high = (int(n) for n in data["deals"])
            unknown = decode_deals(data["unknown_deals"], low)
            if len(unknown) != data["unknown"]:
                raise VerdictsError(f"{len(unknown)} unknown deals listed, not {data['unknown']}")
            return cls(
                rules=Rules.from_json(data["rules"]),
                low=low,
                high=high,
                won=int(data["won"]),
                lost=int(data["lost"]),
                listed=str(data["listed"]),
                deals=decode_deals(data["listed_deals"], low),
                unknown=unknown,
            )
        except (KeyError, TypeError, ValueError, AttributeError, InvalidRulesError) as exc:
            raise VerdictsError(f"a variant entry that cannot be read ({exc!r})") from None


def _holds(numbers: Sequence[int], deal: int) -> bool:
    at = bisect.bisect_left(numbers, deal)
    return at < len(numbers) and numbers[at] == deal


# -- the file ----------------------------------------------------------------------------------


def surveyed_as(rules: Rules) -> Rules:
    """The rule set whose survey holds the verdicts of ``rules``.

    One card at a time wins exactly the deals the default runs win: a run of free cells
    + 1 (Kings only to empty columns) is played card by card through the free cells, a
    FreeCell-formula run (any card to empty columns) card by card through the cells and
    empty columns, every step a legal single move. So ``single`` reads as the default.
    FreeCell-formula runs where only Kings go to empty columns, and take-back, allow
    moves single cards could not make: they are surveyed on their own.
    """
    if rules.group_moves is GroupMoves.SINGLE:
        return rules.with_options(group_moves=GroupMoves.CELLS)  # reads as freecell with "any"
    return rules


class Shipped:
    """The verdicts of every surveyed variant, by rule set."""

    def __init__(self, variants: Iterable[Verdicts], solver: str = "") -> None:
        self.solver = solver
        self.variants: dict[Rules, Verdicts] = {}
        for v in variants:
            if v.rules in self.variants:
                raise VerdictsError(f"two entries for the rules {v.rules.describe()}")
            self.variants[v.rules] = v

    def find(self, rules: Rules) -> Verdicts | None:
        """The verdicts of ``rules`` (see :func:`surveyed_as`), or ``None`` if not surveyed."""
        return self.variants.get(surveyed_as(rules))

    def to_text(self) -> str:
        """The file's text: one variant a line, so diffs stay readable."""
        head = json.dumps({"format": FORMAT, "version": VERSION, "solver": self.solver})
        lines = [head[:-1] + ', "variants": [']
        entries = [json.dumps(v.to_json()) for v in self.variants.values()]
        lines += [f"  {e}," for e in entries[:-1]] + [f"  {e}" for e in entries[-1:]]
        return "\n".join(lines) + "\n]}\n"

    @classmethod
    def from_text(cls, text: str, name: str = SHIPPED) -> Shipped:
        """Read a verdicts file's text; :class:`VerdictsError` names ``name`` if it is bad."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise VerdictsError("not an eightoff verdicts file")
            if data.get("version") != VERSION:
                raise VerdictsError(
                    f"version {data.get('version')!r}; this eightoff reads {VERSION}"
                )
            return cls(
                (Verdicts.from_json(v) for v in data["variants"]), str(data.get("solver", ""))
            )
        except VerdictsError as exc:
            raise VerdictsError(f"{name}: {exc}") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise VerdictsError(f"{name}: not a valid verdicts file ({exc!r})") from None


@functools.cache
def shipped() -> Shipped:
    """The verdicts shipped with the package (read once)."""
    text = resources.files("eightoff").joinpath("data", SHIPPED).read_text("utf-8")
    return Shipped.from_text(text)


def draw_won(rules: Rules, rng: random.Random) -> int | None:
    """A deal of ``rules`` the shipped survey won, drawn with ``rng``, for variants where a
    random deal is often lost (not "almost every deal"); ``None`` otherwise or when none
    was won: there, random deals the solver wins briefly are the better draw."""
    found = shipped().find(rules)
    if found is None or found.odds().kind == "almost":
        return None
    return found.draw_won(rng)


def odds(rules: Rules) -> Odds | None:
    """How often a deal of ``rules`` can be won, from the shipped survey; ``None`` if the
    variant was not surveyed."""
    found = shipped().find(rules)
    return None if found is None else found.odds()


# -- making the file from a survey database ------------------------------------------------


def stored(store: Store) -> dict[Rules, dict[int, str]]:
    """Every eightoff deal of ``store``, by rule set: its verdict (won, lost or unknown)."""
    from eightoff.store import rules_from_key

    found: dict[Rules, dict[int, str]] = {}
    rows = store.execute(
        "SELECT rules, deal, verdict FROM results WHERE source = 'eightoff' ORDER BY rules, deal"
    )
    for key, deal, verdict in rows:
        found.setdefault(rules_from_key(key), {})[deal] = STORED_AS[verdict]
    return found


def from_store(store: Store, found: dict[Rules, dict[int, str]] | None = None) -> Shipped:
    """The verdicts of every rule set of ``store`` on eightoff deals (``found``: what
    :func:`stored` read of it, if already read): per rule set, the deals from its lowest
    surveyed one up to the first gap (a survey stopped early may leave holes past it)."""
    variants: list[Verdicts] = []
    for rules, verdicts in (stored(store) if found is None else found).items():
        by_verdict: dict[str, list[int]] = {v: [] for v in VERDICTS}
        low = high = None
        for deal, verdict in verdicts.items():  # in the order of the deals
            if high is not None and deal != high + 1:
                break
            low = deal if low is None else low
            high = deal
            by_verdict[verdict].append(deal)
        if low is None or high is None or low < 1:
            continue
        won, lost = by_verdict["won"], by_verdict["lost"]
        listed = "won" if len(won) <= len(lost) else "lost"
        variants.append(
            Verdicts(
                rules=rules,
                low=low,
                high=high,
                won=len(won),
                lost=len(lost),
                listed=listed,
                deals=tuple(won if listed == "won" else lost),
                unknown=tuple(by_verdict["unknown"]),
            )
        )
    solvers = sorted({r[0] for r in store.execute("SELECT DISTINCT solver FROM results")})
    return Shipped(_in_order(variants), ", ".join(solvers))


def _in_order(variants: list[Verdicts]) -> list[Verdicts]:
    # The order of the rule options' values (the standard game first): a stable file.
    from eightoff.rules import OPTIONS

    def rank(v: Verdicts) -> tuple[int, ...]:
        return tuple(o.values.index(getattr(v.rules, o.name)) for o in OPTIONS)

    return sorted(variants, key=rank)


def settled(old: Verdicts, found: dict[int, str]) -> Verdicts | None:
    """``old`` with the deals it left unknown that ``found`` (deal: won, lost or unknown)
    surveyed again counted as ``found`` says; None unless ``found`` holds those alone."""
    if not found or not set(found) <= set(old.unknown):
        return None
    won = old.won + sum(v == "won" for v in found.values())
    lost = old.lost + sum(v == "lost" for v in found.values())
    listed = "won" if won <= lost else "lost"
    if listed == old.listed:
        deals = sorted({*old.deals, *(d for d, v in found.items() if v == listed)})
    else:  # the rarer verdict turned: list the other one (every deal of the range, once)
        deals = [d for d in range(old.low, old.high + 1) if found.get(d, old.verdict(d)) == listed]
    unknown = tuple(d for d in old.unknown if found.get(d) in (None, "unknown"))
    return Verdicts(old.rules, old.low, old.high, won, lost, listed, tuple(deals), unknown)


def merged(new: Shipped, old: Shipped, found: dict[Rules, dict[int, str]] | None = None) -> Shipped:
    """``new`` with the rule sets of ``old`` that it lacks (its own win where both have one;
    where ``found``, the deals ``new`` was made from, are only deals ``old`` left unknown,
    ``old``'s entry settled by them: :func:`settled`)."""
    variants = dict(new.variants)
    for rules, entry in old.variants.items():
        again = settled(entry, found[rules]) if found and rules in found else None
        if again is not None or rules not in variants:
            variants[rules] = again or entry
    if variants == new.variants:
        return new
    solvers = sorted({x for x in f"{new.solver}, {old.solver}".split(", ") if x})
    return Shipped(_in_order(list(variants.values())), ", ".join(solvers))


def build(db: str | Path, out: str | Path, *, merge: bool = False) -> Shipped:
    """Write the verdicts file ``out`` from the survey database ``db``; what was written.
    ``merge``: the rule sets ``out`` holds and ``db`` does not are kept (surveys of a few
    variants, on another machine or day, update those alone), and where ``db`` holds
    nothing but deals a rule set left unknown, they are settled there."""
    from eightoff.pool import _write
    from eightoff.store import Store

    db, out = Path(db), Path(out)
    if out.is_dir():
        raise VerdictsError(f"{out} is a directory: name the verdicts file to write")
    if out.exists() and out.resolve() == db.resolve():
        raise VerdictsError(f"{out} is the survey database itself: choose another file")
    old = None
    if merge and out.exists():
        try:
            text = out.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise VerdictsError(f"{out}: cannot read it to merge ({exc})") from None
        old = Shipped.from_text(text, name=str(out))
    with Store(db, readonly=True) as store:
        store.check_rows()
        found = stored(store)
        made = from_store(store, found)
    if old is not None:
        made = merged(made, old, found)
    _write(out, made.to_text())
    return made
