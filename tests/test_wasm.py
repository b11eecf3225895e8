"""The WebAssembly build (``make wasm``: kernel.wasm, the page's kernel and solver) held
to the engine and to the C core, run by wasmtime (``support.wasm``).

* Its legal moves are ``Position.legal_moves`` (and the native kernel's), its autoplay
  is ``eightoff.game.autoplay_moves``, its play is ``Position.apply`` and its reason
  for refusing a move is ``eightoff.moverules.why_not``'s, on positions reached by
  random play under every combination of the rule options;
* its solve gives ``eightoff.solver.solve``'s verdict and line, move for move, at the
  same node limit, on endgames, midgames and deals under every rule option;
* bad input is refused with its error code, and the page serves the module.

``tests/test_wasm_node.py`` drives the same module through ``kernel.js`` under Node.
"""

from __future__ import annotations

import itertools
import math
import random
import struct
from dataclasses import replace

import pytest

from eightoff.codes import GameCode
from eightoff.deal import pysol_deal
from eightoff.errors import Illegal
from eightoff.game import autoplay_moves
from eightoff.moverules import why_not
from eightoff.moves import ANY_SUIT, Move, PlaceKind
from eightoff.position import Position
from eightoff.rules import OPTIONS, PRESETS, GroupMoves, Rules
from eightoff.solver import DEFAULT_SCHEDULE, Limit, Verdict, core, solve
from support import candidates, hard_endgame, needs_native, wins
from support.native import as_tuple, c_legal_moves, random_positions
from support.wasm import WASM, Compact, WasmKernel, needs_wasm

pytestmark = [needs_wasm, needs_native]

VERDICTS = {
    core.SOLVED: Verdict.SOLVED,
    core.EXHAUSTED: Verdict.UNSOLVABLE,
    core.LIMIT: Verdict.UNKNOWN,
}

EVERY_RULES = sorted(
    {
        Rules(**dict(zip([o.name for o in OPTIONS], values, strict=True)))
        for values in itertools.product(*(o.values for o in OPTIONS))
    },
    key=lambda r: str(GameCode(r, 0)),
)
"""Every combination of every rule option's values (120 rule books: where any card
fills an empty column, runs of free cells + 1 read as the FreeCell formula)."""


def rules_id(rules: Rules) -> str:
    """A rule book's name in the tests' ids: its game code's cells and option letters."""
    options = GameCode(rules, 0).options
    return f"C{rules.cells}-{options}" if options else f"C{rules.cells}"


@pytest.fixture(scope="module")
def wasm() -> WasmKernel:
    return WasmKernel()


# -- the kernel: legal moves, autoplay, play -----------------------------------------------


@pytest.mark.parametrize("rules", EVERY_RULES, ids=rules_id)
def test_legal_moves_autoplay_and_play_are_the_engines(wasm: WasmKernel, rules: Rules) -> None:
    # 84 positions for each of the 120 rule books: 10,080 in all.
    rng = random.Random(rules_id(rules))
    for position, moves in random_positions(rules, rng, 84):
        engine = [as_tuple(m) for m in moves]
        assert wasm.legal_moves(position) == engine == c_legal_moves(position), position
        assert wasm.cards(len(moves)) == [position.moving_cards(m)[0] for m in moves]
        assert wasm.autoplay_moves(position) == [as_tuple(m) for m in autoplay_moves(position)]
        if moves:
            move = rng.choice(moves)
            assert wasm.play(position, as_tuple(move)) == position.apply(move)
            assert wasm.cards(1) == [position.moving_cards(move)[0]]


def test_autoplay_sends_home_what_the_game_does(wasm: WasmKernel) -> None:
    # Alternating colours: the 2 of diamonds goes, then the 3s by turns as the other
    # colour's piles rise, to the last King; building in suit, at once in column order.
    position = Position(
        [[26 + r for r in range(12, 0, -1)], [r for r in range(12, 1, -1)], *[[]] * 6],
        [],
        [2, 13, 1, 13],
        PRESETS["alternate"],
    )
    found = [core.MOVES[m] for m in wasm.autoplay_moves(position)]
    assert found == autoplay_moves(position) and len(found) == 23
    assert [m.source.index for m in found[:4]] == [0, 0, 1, 0]
    suited = Position(position.columns, [], position.foundations, PRESETS["standard"])
    assert [core.MOVES[m] for m in wasm.autoplay_moves(suited)] == autoplay_moves(suited)
    assert not wasm.autoplay_moves(pysol_deal(1))


@pytest.mark.parametrize("name", ["standard", "app", "bakers"])
def test_play_refuses_what_the_engine_refuses(wasm: WasmKernel, name: str) -> None:
    rng = random.Random(name)
    for position, _ in random_positions(PRESETS[name], rng, 12):
        for move in candidates(position):
            if move.target.kind is PlaceKind.FOUNDATION and move.target.index != ANY_SUIT:
                continue  # a foundation target named by its suit: no kernel move has one
            played = wasm.play(position, as_tuple(move))
            if position.is_legal(move):
                assert played == position.apply(move), move
            else:
                assert played is None, move


def compact(move: Move) -> Compact:
    """Any move, one naming places the rules lack included, as the kernel takes it (a
    foundation target of any suit is -1, one naming a suit keeps it)."""
    kinds = list(PlaceKind)
    src, dst = move.source, move.target
    di = -1 if dst.kind is PlaceKind.FOUNDATION and dst.index == ANY_SUIT else dst.index
    return (kinds.index(src.kind), src.index, kinds.index(dst.kind), di, move.count)


@pytest.mark.parametrize("rules", EVERY_RULES, ids=rules_id)
def test_why_not_gives_the_engines_reason(wasm: WasmKernel, rules: Rules) -> None:
    # Per rule book 4 positions, each with its legal moves and 40 of every candidate
    # move (places the rules lack, counts of 0 to a column's length + 1).
    rng = random.Random(rules_id(rules))
    codes = [None, *Illegal]
    for position, moves in random_positions(rules, rng, 4):
        cols, cells, founds = position.columns, position.cells, position.foundations
        for move in moves + rng.sample(candidates(position), 40):
            engine = why_not(rules, cols, cells, founds, move)
            got = wasm.why_not(position, compact(move))
            assert codes[got[0]] == (None if engine is None else engine[0]), move


def test_why_not_gives_every_reason(wasm: WasmKernel) -> None:
    # Every candidate move in positions 25 and 50 moves into a walk under six rule
    # books, and in an ending with runs, lone Kings and an empty column (the 5 to 9 of
    # hearts in columns of their own): each of the engine's reasons turns up, and the
    # kernel gives it each time.
    ending = [[12], [11, 10], [25, 24, 23, 22], [21], [17], [18], [19, 20], []]
    single = replace(PRESETS["standard"], group_moves=GroupMoves.SINGLE)
    seen = set()
    for rules in [
        *(PRESETS[name] for name in ("standard", "easy", "alternate", "bakers", "app")),
        single,
    ]:
        rng = random.Random(rules_id(rules))
        walk = [p for n, (p, _) in enumerate(random_positions(rules, rng, 50), 1) if n % 25 == 0]
        for position in [*walk, Position(ending, [None] * rules.cells, [10, 4, 13, 13], rules)]:
            cols, cells, founds = position.columns, position.cells, position.foundations
            for move in candidates(position):
                engine = why_not(rules, cols, cells, founds, move)
                code = wasm.why_not(position, compact(move))[0]
                assert code == (0 if engine is None else list(Illegal).index(engine[0]) + 1), move
                seen.add(code)
    assert seen == set(range(len(Illegal) + 1))


# -- the solver ------------------------------------------------------------------------------


def solve_cases() -> list[tuple[str, Position, int]]:
    """Endgames (many lost), midgames from random play and whole deals, three under each
    rule book, each with a node limit: (what, position, nodes)."""
    rng = random.Random(7)
    cases: list[tuple[str, Position, int]] = []
    for n, rules in enumerate(EVERY_RULES * 3):
        kind = n % 3
        if kind == 0:
            cases.append(("endgame", hard_endgame(rng, rules, rng.randrange(8, 30)), 3000))
            continue
        if kind == 1:
            *_, (position, _) = random_positions(rules, rng, rng.randrange(2, 40))
            cases.append(("midgame", position, rng.choice([300, 2000, 10_000])))
            continue
        cases.append(("deal", pysol_deal(rng.randrange(1, 32_000), rules), 10_000))
    return cases


def test_solve_gives_the_c_cores_verdict_and_line(wasm: WasmKernel) -> None:
    verdicts: set[Verdict] = set()
    for what, position, nodes in solve_cases():
        native = solve(position, limit=Limit(nodes=nodes))
        found = wasm.solve(position, nodes)
        assert VERDICTS[found.status] is native.verdict, (what, position)
        assert tuple(core.MOVES[m] for m in found.moves) == native.moves, (what, position)
        assert found.length == native.length
        verdicts.add(native.verdict)
    assert verdicts == set(Verdict)


def test_solve_runs_by_a_schedule_and_a_time_limit(wasm: WasmKernel) -> None:
    position = pysol_deal(5, PRESETS["alternate"].with_options(cells=4))
    changed = replace(DEFAULT_SCHEDULE, early_start=100, early_quantum=16, resolve_home=(2, 5, 9))
    native = solve(position, limit=Limit(nodes=20_000), schedule=changed)
    found = wasm.solve(position, 20_000, schedule=changed)
    assert tuple(core.MOVES[m] for m in found.moves) == native.moves and native.solved
    # No node limit: the same line while the time lasts.
    timed = wasm.solve(position, None, seconds=60)
    assert (
        tuple(core.MOVES[m] for m in timed.moves) == solve(position, limit=Limit(nodes=None)).moves
    )
    assert wins(position, [core.MOVES[m] for m in timed.moves])


def test_full_tables_end_a_solve_unknown(wasm: WasmKernel) -> None:
    found = wasm.solve(pysol_deal(1, PRESETS["bakers"]), None, 30.0, max_bytes=4096)
    assert found.status == core.LIMIT and found.moves == []


# -- bad input ---------------------------------------------------------------------------------


def test_bad_input_is_refused(wasm: WasmKernel) -> None:
    deal = pysol_deal(1)
    cells = [255 if c is None else int(c) for c in deal.cells]
    cards = bytes(int(c) for col in deal.columns for c in col)

    def layout(rules: bytes, founds: bytes, held: list[int], lens: bytes, rest: bytes) -> bytes:
        return rules + founds + bytes(held) + lens + rest

    good = layout(bytes([8, 1, 1, 1, 0]), bytes(4), cells, bytes([6] * 8), cards)
    assert wasm.raw("eo_legal_moves", good) == len(deal.legal_moves())
    for rules in ([9, 1, 1, 1, 0], [8, 2, 1, 1, 0], [8, 1, 1, 3, 0], [8, 1, 1, 1, 2]):
        assert wasm.raw("eo_legal_moves", bytes(rules) + good[5:]) == -1, rules
    twice = cards[:-1] + cards[:1]
    lost = layout(bytes([4, 1, 1, 1, 0]), bytes(4), [255] * 4 + cells[:4], bytes([6] * 8), cards)
    for bad in (
        layout(good[:5], bytes(4), cells, bytes([6] * 8), twice),
        layout(good[:5], bytes([1, 0, 0, 0]), cells, bytes([6] * 8), cards),
        layout(good[:5], bytes([14, 0, 0, 0]), cells, bytes([6] * 8), cards),
        layout(good[:5], bytes(4), cells, bytes([6] * 7 + [53]), cards),
        lost,
    ):
        assert wasm.raw("eo_legal_moves", bad) == -2
        assert wasm.raw("eo_play", bad) == -2
        assert wasm.raw("eo_solve", bad, 100.0, -1.0, float(1 << 20)) == -2
    move = bytearray(good.ljust(85, b"\0"))
    for fields in (
        (3, 0, 1, 4, 1),
        (0, 8, 1, 4, 1),
        (0, 0, 1, 8, 1),
        (0, 0, 2, 0, 1),
        (0, 0, 1, 4, 0),
    ):
        move[80:85] = struct.pack("5b", *fields)
        assert wasm.raw("eo_play", bytes(move)) == -3, fields
    move[80:85] = struct.pack("5b", 0, 0, 0, 1, 1)  # a legal-looking place, an illegal move
    assert wasm.raw("eo_play", bytes(move)) == 0
    assert wasm.raw("eo_solve", good, 100.0, math.nan, float(1 << 20)) == -7
    assert wasm.raw("eo_solve", good, 100.0, -1.0, 100.0) == -7


# -- served with the page --------------------------------------------------------------------


def test_the_page_serves_the_module() -> None:
    from fastapi.testclient import TestClient

    from eightoff.web.app import create_app

    client = TestClient(create_app(seed=7))
    response = client.get("/static/kernel.wasm")
    assert response.status_code == 200 and response.headers["content-type"] == "application/wasm"
    assert response.content == WASM.read_bytes()
    for name in ("kernel.js", "kernel.wasm"):
        gzipped = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
        assert gzipped.headers["content-encoding"] == "gzip"


def test_the_module_is_built_small() -> None:
    # Stripped, with no debug sections: what the page downloads is code and data alone.
    raw = WASM.read_bytes()
    assert raw[:4] == b"\0asm"
    assert b".debug_info" not in raw and b"name" not in _custom_sections(raw)


def _custom_sections(raw: bytes) -> set[bytes]:
    """The names of a module's custom sections (id 0)."""
    names: set[bytes] = set()
    at = 8
    while at < len(raw):
        kind = raw[at]
        size, at = _leb(raw, at + 1)
        if kind == 0:
            length, start = _leb(raw, at)
            names.add(raw[start : start + length])
        at += size
    return names


def _leb(raw: bytes, at: int) -> tuple[int, int]:
    """An unsigned LEB128 number at ``at``, and where it ends."""
    value = shift = 0
    while True:
        byte = raw[at]
        value |= (byte & 0x7F) << shift
        at += 1
        shift += 7
        if byte < 0x80:
            return value, at
