"""The WebAssembly build (``web/static/kernel.wasm``, ``make wasm``) driven from Python
by wasmtime: the calls ``kernel.js`` makes, over the same buffer, on engine positions.

Moves come back as the kernel's tuples ``(source kind, source, target kind, target,
count)`` (``eightoff.solver.core.MOVES`` turns them into engine moves); see
``src/eightoff/wasm/exports.c`` for the buffer's layout.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

import pytest
import wasmtime

from eightoff import _kernel as kernel
from eightoff.position import Position
from eightoff.solver import DEFAULT_SCHEDULE, Schedule
from eightoff.solver.schedule import FIELDS

WASM: Final = Path(__file__).resolve().parents[2] / "src/eightoff/web/static/kernel.wasm"
"""Where ``make wasm`` writes the module (beside the page's scripts)."""

needs_wasm = pytest.mark.wasm
"""Marks a test that runs kernel.wasm (``tests/conftest.py`` skips it where it was not built)."""

IN_POSITION: Final = 5
IN_MOVE: Final = 80
OUT_HEAD: Final = 128
OUT_POSITION: Final = 128
OUT_MOVES: Final = 256
EMPTY_CELL: Final = 255
NO_SUCH_MOVE: Final = -3  # exports.c EO_BAD_MOVE

Compact = tuple[int, int, int, int, int]


class WasmError(Exception):
    """A call the module refused (its error code, < 0)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"kernel.wasm refused the call: error {code}")
        self.code = code


@dataclass(frozen=True, slots=True)
class WasmSolve:
    """A solve's answer: status (0 solved, 1 proven unsolvable, 2 a limit), the line's
    moves, its single-card length, the positions expanded."""

    status: int
    moves: list[Compact]
    length: int
    nodes: int


class WasmKernel:
    """One instance of kernel.wasm (its memory kept between calls, as a page keeps it)."""

    def __init__(self, path: Path = WASM) -> None:
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        self.store.set_wasi(wasmtime.WasiConfig())
        instance = linker.instantiate(self.store, wasmtime.Module.from_file(engine, str(path)))
        exports = instance.exports(self.store)
        self.memory = cast(wasmtime.Memory, exports["memory"])
        self._fn: dict[str, Callable[..., Any]] = {}
        for name in ("_initialize", "eo_init", "eo_io", "eo_legal_moves", "eo_play", "eo_autoplay"):
            self._fn[name] = self._bind(exports, name)
        for name in ("eo_why_not",):
            self._fn[name] = self._bind(exports, name)
        for name in ("eo_solve", "eo_schedule_fields", "eo_schedule_name", "eo_schedule_reset"):
            self._fn[name] = self._bind(exports, name)
        self._fn["eo_schedule_set"] = self._bind(exports, "eo_schedule_set")
        self.call("_initialize")
        self.call("eo_init")
        self.io = int(self.call("eo_io"))
        self.fields = {
            self._text(self.call("eo_schedule_name", k)): k
            for k in range(self.call("eo_schedule_fields"))
        }

    def _bind(self, exports: Any, name: str) -> Callable[..., Any]:
        func = cast(wasmtime.Func, exports[name])
        return lambda *args: func(self.store, *args)

    def call(self, name: str, *args: Any) -> Any:
        """An export called by name."""
        return self._fn[name](*args)

    def _text(self, at: int) -> str:
        raw = self.memory.read(self.store, at, at + 64)
        return bytes(raw[: raw.index(0)]).decode()

    def _write(self, position: Position, move: Compact | None = None) -> None:
        rules = kernel.engine_rules(position.rules)
        assert rules is not None
        cells = [EMPTY_CELL if c is None else int(c) for c in position.cells]
        data = bytearray(IN_MOVE + 5)
        data[0:5] = bytes(int(v) for v in rules)
        data[IN_POSITION : IN_POSITION + 4] = bytes(position.foundations)
        data[IN_POSITION + 4 : IN_POSITION + 4 + len(cells)] = bytes(cells)
        data[IN_POSITION + 4 + len(cells) : IN_POSITION + 12] = bytes(
            [EMPTY_CELL] * (8 - len(cells))
        )
        data[IN_POSITION + 12 : IN_POSITION + 20] = bytes(len(c) for c in position.columns)
        cards = bytes(int(c) for col in position.columns for c in col)
        data[IN_POSITION + 20 : IN_POSITION + 20 + len(cards)] = cards
        if move is not None:
            data[IN_MOVE:] = struct.pack("5b", *move)
        self.memory.write(self.store, bytes(data), self.io)

    def _checked(self, n: int) -> int:
        if n < 0:
            raise WasmError(n)
        return n

    def _moves(self, n: int) -> list[Compact]:
        raw = self._read(OUT_MOVES, 6 * n)
        return [cast(Compact, struct.unpack_from("5b", raw, 6 * k)) for k in range(n)]

    def cards(self, n: int) -> list[int]:
        """The cards the last call's ``n`` moves carry (the deepest of a run)."""
        raw = self._read(OUT_MOVES, 6 * n)
        return [raw[6 * k + 5] for k in range(n)]

    def _read(self, at: int, size: int) -> bytes:
        return bytes(self.memory.read(self.store, self.io + at, self.io + at + size))

    def _position(self, like: Position) -> Position:
        raw = self._read(OUT_POSITION, 72)
        lens, at, cols = raw[12:20], 20, []
        for n in lens:
            cols.append(list(raw[at : at + n]))
            at += n
        cells = [None if c == EMPTY_CELL else c for c in raw[4 : 4 + like.rules.cells]]
        return Position(cols, cells, list(raw[0:4]), like.rules)

    def legal_moves(self, position: Position) -> list[Compact]:
        """Position.legal_moves as the module lists them."""
        self._write(position)
        return self._moves(self._checked(self.call("eo_legal_moves")))

    def play(self, position: Position, move: Compact) -> Position | None:
        """The position after ``move``; None where the module refuses it as illegal."""
        self._write(position, move)
        played = self.call("eo_play")
        if played in (0, NO_SUCH_MOVE):
            return None
        self._checked(played)
        return self._position(position)

    def why_not(self, position: Position, move: Compact) -> tuple[int, ...]:
        """Why ``move`` may not be played: the code (0: it may) and the values after it
        (variant, place, card, other, lower, need, number, most; exports.c eo_why_not)."""
        self._write(position, move)
        code = self._checked(self.call("eo_why_not"))
        values = struct.unpack("<9i", self._read(OUT_HEAD, 36))
        assert values[0] == code
        return values

    def autoplay_moves(self, position: Position) -> list[Compact]:
        """The moves the game's safe autoplay makes from ``position``."""
        self._write(position)
        return self._moves(self._checked(self.call("eo_autoplay")))

    def solve(
        self,
        position: Position,
        nodes: int | None,
        seconds: float | None = None,
        max_bytes: int = 1 << 30,
        schedule: Schedule = DEFAULT_SCHEDULE,
    ) -> WasmSolve:
        """eightoff.solver.solve's search in the module, run by ``schedule``."""
        self._write(position)
        self.call("eo_schedule_reset")
        for name, value in _changed(schedule).items():
            values = value if isinstance(value, tuple) else (value,)
            for i, v in enumerate(values):
                assert self.call("eo_schedule_set", self.fields[name], i, float(v)), name
        status = self._checked(
            self.call(
                "eo_solve",
                float(-1 if nodes is None else nodes),
                -1.0 if seconds is None else float(seconds),
                float(max_bytes),
            )
        )
        head = struct.unpack(
            "<4i", self.memory.read(self.store, self.io + OUT_HEAD, self.io + OUT_HEAD + 16)
        )
        assert head[0] == status
        return WasmSolve(status, self._moves(head[1]), head[2], head[3])

    def raw(self, name: str, data: bytes, *args: Any) -> int:
        """Export ``name`` called on ``data`` written at the buffer's start (bad input)."""
        self.memory.write(self.store, data, self.io)
        return int(self.call(name, *args))


def _changed(schedule: Schedule) -> Mapping[str, Any]:
    """The fields ``schedule`` sets off the default."""
    default = DEFAULT_SCHEDULE.values
    return {
        name: value
        for name, value, was in zip(FIELDS, schedule.values, default, strict=True)
        if value != was
    }
