"""The solver's shortcuts held to a search that takes none, on verdicts.

Every search of the C core takes shortcuts that must never lose a win: safe autoplay
(every foundation move building in suit; in alternating colours only once the other
colour's piles are high enough, basic and refined rules), Horne's rule in Freecell
Solver's pruned scans, take-back moves left out building in suit, positions in normal
form and told apart whatever their column and cell order. The reference solver takes
its own (safe autoplay, one target per kind of empty place, sorted keys).

The oracle here takes none: a depth-first search over every position reachable by
``Position.legal_moves``, each told apart exactly. On small endgames drawn from a
seeded generator (the same positions, so the same verdicts, on every run) in every
variant, each search must give the oracle's verdict. A shortcut that sends a card
home too early, or drops a needed move, turns a won endgame into "unsolvable" here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, GroupMoves, Rules
from eightoff.solver import Limit, Verdict, core, solve
from eightoff.solver.reference import solve_any
from support import wins
from support.native import search_state

UNLIMITED = Limit(nodes=None, seconds=None)
PLAIN_CAP = 5_000  # positions the oracle explores before it gives a position up
PROOF_NODES = 200_000  # the C proof's budget per endgame
AUTO_ALL = 1  # the C core's autoplay mode "every foundation move at once"

native = core.native
pytestmark = pytest.mark.skipif(native is None, reason="the C core is not built")


def plain_verdict(position: Position) -> Verdict | None:
    """Won or lost, by every legal move from every position, with no shortcut; ``None``
    when more than :data:`PLAIN_CAP` positions are reachable (too big an endgame)."""
    seen = {position}
    stack = [position]
    while stack:
        p = stack.pop()
        if p.is_won():
            return Verdict.SOLVED
        for move in reversed(p.legal_moves()):  # the first legal move is tried first
            q = p.apply_unchecked(move)
            if q not in seen:
                if len(seen) >= PLAIN_CAP:
                    return None
                seen.add(q)
                stack.append(q)
    return Verdict.UNSOLVABLE


def endgame(rng: random.Random, rules: Rules) -> Position:
    """A tight endgame: one colour's piles ahead of the other's (where autoplay in
    alternating colours must wait), every cell full, the rest over 4-6 columns (all 8
    where any card fills an empty column: empty ones give too many positions)."""
    top = rng.randint(6, 11)
    ahead = (1, 2) if rng.random() < 0.5 else (0, 3)  # red piles, or black ones
    founds = [top - rng.randint(0, 1) if s in ahead else top - rng.randint(2, 4) for s in range(4)]
    if rng.random() < 0.5:  # one pile behind catches up
        founds[rng.choice([s for s in range(4) if s not in ahead])] = top - 1
    founds = [min(13, f) for f in founds]
    cards = [s * 13 + r for s in range(4) for r in range(founds[s], 13)]
    rng.shuffle(cards)
    columns: list[list[int]] = [[] for _ in range(8)]
    used = 8 if rules.empty_column is EmptyColumn.ANY else rng.randint(4, 6)
    for card in cards[rules.cells :]:
        columns[rng.randrange(used)].append(card)
    rng.shuffle(columns)
    return Position(columns, cards[: rules.cells], founds, rules)


def endgames(rules: Rules, won: int, lost: int, seed: str) -> list[tuple[Position, Verdict]]:
    """Endgames the oracle settles, ``won`` won and ``lost`` lost, with its verdicts."""
    rng = random.Random(seed)
    wanted = {Verdict.SOLVED: won, Verdict.UNSOLVABLE: lost}
    found: list[tuple[Position, Verdict]] = []
    for _ in range(60 * (won + lost)):  # bounded: a generator that misses fails here
        position = endgame(rng, rules)
        verdict = plain_verdict(position)
        if verdict is not None and wanted[verdict] > 0:
            wanted[verdict] -= 1
            found.append((position, verdict))
            if not any(wanted.values()):
                return found
    raise AssertionError(f"{wanted} endgames short within {PLAIN_CAP} positions each")


def exhaust_verdict(position: Position, normal: bool, auto: int | None = None) -> Verdict:
    """The C core's proof (every reachable position, exact keys), with or without its
    normal forms; ``auto``: another autoplay mode than the rules' own. Within
    :data:`PROOF_NODES` positions, else ``unknown`` (a won endgame with take-back in
    alternating colours may wander far before its win: best-first finds those)."""
    assert native is not None
    config = core.config(position.rules)
    if auto is not None:
        config = replace(config, autoplay=auto)
    status = native.exhaust(
        search_state(position), config, max_nodes=PROOF_NODES, max_bytes=1 << 30, normal=normal
    )[0]
    return {core.SOLVED: Verdict.SOLVED, core.EXHAUSTED: Verdict.UNSOLVABLE}.get(
        status, Verdict.UNKNOWN
    )


def scan_wins(position: Position, prune: bool) -> bool:
    """Whether Freecell Solver's depth-first scan wins, with Horne's rule (-sp r:tf) or
    without. Its moves are fc-solve's, not every legal move, so it may miss a win."""
    assert native is not None
    config = core.config(position.rules)
    status = native.scans(
        search_state(position), config, max_nodes=200_000, tests="0123456789", prune=prune
    )[0]
    return bool(status == core.SOLVED)


VARIANTS: dict[str, Rules] = {
    "standard": Rules(cells=2),
    "any card to an empty column": Rules(cells=2, empty_column=EmptyColumn.ANY),
    "one card per move": Rules(cells=2, group_moves=GroupMoves.SINGLE),
    "take-back, FreeCell-formula runs": Rules(
        cells=2, take_back=True, group_moves=GroupMoves.FREECELL
    ),
    "alternating colours": Rules(cells=2, build=Build.ALTERNATE),
    "alternating colours, take-back": Rules(cells=2, build=Build.ALTERNATE, take_back=True),
    "alternating colours, any card to an empty column": Rules(
        cells=2, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY
    ),
    "alternating colours, one card per move": Rules(
        cells=2, build=Build.ALTERNATE, group_moves=GroupMoves.SINGLE
    ),
}

Search = Callable[[Position], Verdict]
SEARCHES: dict[str, Search] = {
    "solve": lambda p: solve(p, limit=UNLIMITED).verdict,
    "solve optimal": lambda p: solve(p, optimal=True, limit=UNLIMITED).verdict,
    "reference": lambda p: solve_any(p, UNLIMITED).verdict,
}
PROOFS: dict[str, Search] = {
    "proof in normal form": lambda p: exhaust_verdict(p, normal=True),
    "proof of every position": lambda p: exhaust_verdict(p, normal=False),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_search_gives_the_verdict_of_a_search_without_shortcuts(variant: str) -> None:
    rules = VARIANTS[variant]
    for position, expected in endgames(rules, 12, 5, variant):
        for name, search in SEARCHES.items():
            assert search(position) is expected, f"{name}: {position!r}"
        result = solve(position, limit=UNLIMITED)
        if result.solved:
            assert wins(position, result.moves)
        for name, proof in PROOFS.items():
            # A lost endgame this small is proven lost; a won one may take the proof
            # past its budget (take-back), but never to "lost".
            found = proof(position)
            assert found is expected or (found is Verdict.UNKNOWN and expected is Verdict.SOLVED), (
                f"{name}: {position!r}"
            )
        # Horne's rule prunes nothing a win needs: the scan with it wins where the same
        # scan without it does, and never where the endgame is lost.
        pruned = scan_wins(position, prune=True)
        assert pruned is scan_wins(position, prune=False), repr(position)
        assert not pruned or expected is Verdict.SOLVED


def test_alternating_colours_autoplay_waits_where_a_card_is_still_needed() -> None:
    # Endgames where a card that may go home is still needed as a base: sending every
    # card home at once (the C core's autoplay mode for building in suit) loses some
    # of them, so a safe rule that sends cards home too early loses them too.
    rules = Rules(cells=2, build=Build.ALTERNATE)
    sample = endgames(rules, 90, 10, "autoplay in alternating colours")
    too_early = [
        position
        for position, verdict in sample
        if verdict is Verdict.SOLVED
        and exhaust_verdict(position, normal=True, auto=AUTO_ALL) is Verdict.UNSOLVABLE
    ]
    assert len(too_early) >= 3  # the sample can tell a rule that sends cards home early
    for position, expected in sample:
        assert solve(position, limit=UNLIMITED).verdict is expected, repr(position)
        assert solve(position, optimal=True, limit=UNLIMITED).verdict is expected
        assert exhaust_verdict(position, normal=True) is expected, repr(position)
        assert solve_any(position, UNLIMITED).verdict is expected, repr(position)
