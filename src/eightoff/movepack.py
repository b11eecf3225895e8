"""Packed lines: a sequence of moves in one or two bytes a move, for survey databases.

The places a move names are numbered 0–20::

    0–7    columns 1–8
    8–15   cells a–h
    16     the foundation as a target (the card's suit decides the pile)
    17–20  a foundation as a take-back source: ♠ ♥ ♦ ♣ (``^S`` ``^H`` ``^D`` ``^C``)

**One byte** (0–199) holds a single-card move from a column or a cell (0–15) to a column,
a cell or the foundation (0–16), other than to itself and other than from a cell to a cell:
the byte is the move's index in that list taken source by source, targets in order::

    0–15     column 1 to 2, 3 … 8, a … h, ^     (16 moves from each column)
    16–31    column 2 to 1, 3 … 8, a … h, ^
    …
    112–127  column 8 to 1 … 7, a … h, ^
    128–136  cell a to 1 … 8, ^                 (9 moves from each cell)
    …
    191–199  cell h to 1 … 8, ^

**Two bytes** hold every other move: runs (``35x3``), take-backs (``^H3``), cell to cell.
With ``code = (source * 17 + target) * 32 + count - 1`` (count 1–32), the first byte is
``200 + code // 256`` (200–244) and the second ``code % 256``. A solution of 80 single-card
moves, runs counted as one move, packs into about 70 bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from eightoff.errors import EightOffError
from eightoff.moves import FOUNDATION, Move, Place, PlaceKind, cell, column, foundation

MAX_COUNT: Final = 32  # cards a packed move carries, at most (a run is at most 13)
ONE_BYTE: Final = 200  # first byte of the two-byte form
_TARGETS: Final = 17  # places 0-16
_PLACES: Final = 21  # places 0-20


class PackError(EightOffError):
    """A move that cannot be packed, or bytes that are not a packed line."""


def _place(number: int) -> Place:
    if number < 8:
        return column(number)
    if number < 16:
        return cell(number - 8)
    if number == 16:
        return FOUNDATION
    return foundation(number - 17)


def _number(place: Place, *, target: bool) -> int:
    i = place.index
    if place.kind is PlaceKind.COLUMN and 0 <= i < 8:
        return i
    if place.kind is PlaceKind.CELL and 0 <= i < 8:
        return 8 + i
    if place.kind is PlaceKind.FOUNDATION:
        if target:
            return 16
        if 0 <= i < 4:
            return 17 + i
    raise PackError(f"cannot pack a move {'to' if target else 'from'} {place.name()}")


def _one_byte_pairs() -> list[tuple[int, int]]:
    pairs = []
    for source in range(16):
        for target in range(_TARGETS):
            if source != target and not (source >= 8 and 8 <= target < 16):
                pairs.append((source, target))
    return pairs


_PAIRS: Final = _one_byte_pairs()
_ONE: Final = {pair: i for i, pair in enumerate(_PAIRS)}
assert len(_PAIRS) == ONE_BYTE


def pack_move(move: Move) -> bytes:
    """``move`` in one or two bytes (see the module docstring)."""
    source = _number(move.source, target=False)
    target = _number(move.target, target=True)
    if not 1 <= move.count <= MAX_COUNT:
        raise PackError(f"cannot pack a move of {move.count} cards (1 to {MAX_COUNT})")
    if move.count == 1 and (source, target) in _ONE:
        return bytes((_ONE[source, target],))
    code = (source * _TARGETS + target) * MAX_COUNT + move.count - 1
    return bytes((ONE_BYTE + code // 256, code % 256))


def pack_moves(moves: Iterable[Move]) -> bytes:
    """A line of moves packed."""
    return b"".join(pack_move(m) for m in moves)


def unpack_moves(data: bytes) -> list[Move]:
    """Inverse of :func:`pack_moves`; :class:`PackError` if ``data`` is not a packed line."""
    return [Move.from_text(t) for t in _texts(data)]


# The compact text of every one-byte move, and of every two-byte code: decoding a survey's
# lines is then a table look-up a move.
_TEXT1: Final = tuple(Move(_place(s), _place(t)).text() for s, t in _PAIRS)
_TEXT2: dict[int, str] = {}


def _text2(code: int) -> str:
    text = _TEXT2.get(code)
    if text is None:
        pair, count = divmod(code, MAX_COUNT)
        source, target = divmod(pair, _TARGETS)
        if source >= _PLACES or source == 16:  # 16, the foundation target, is no source
            raise PackError(f"bytes {ONE_BYTE + code // 256} {code % 256} are not a packed move")
        text = _TEXT2[code] = Move(_place(source), _place(target), count + 1).text()
    return text


def _texts(data: bytes) -> list[str]:
    texts = []
    i = 0
    while i < len(data):
        first = data[i]
        if first < ONE_BYTE:
            texts.append(_TEXT1[first])
            i += 1
            continue
        if i + 1 == len(data):
            raise PackError("a packed line ends in the middle of a move")
        texts.append(_text2((first - ONE_BYTE) * 256 + data[i + 1]))
        i += 2
    return texts


_PACKED: Final[dict[str, bytes]] = {}  # a move's text -> its bytes, as met


def pack_line(text: str) -> bytes:
    """A space-separated line in the compact notation (``"3a 35x2 a^"``), packed."""
    out = []
    for token in text.split():
        packed = _PACKED.get(token)
        if packed is None:
            packed = pack_move(Move.from_text(token))
            if len(_PACKED) < 4096:  # the moves of real lines are a few hundred texts
                _PACKED[token] = packed
        out.append(packed)
    return b"".join(out)


def unpack_line(data: bytes) -> str:
    """Inverse of :func:`pack_line`: the line in the compact notation, space-separated."""
    return " ".join(_texts(data))
