"""``eightoff replay``'s moves file: a JSON list of moves, read with bounds on its size
and depth, each move a JSON object or the compact notation."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from typing import Any, Final

from eightoff.cli.options import CliError
from eightoff.formats import move_from_json
from eightoff.moves import InvalidMoveError, Move
from eightoff.numbers import InvalidNumberError, json_int

MAX_MOVES_BYTES: Final = 8 * 2**20  # a moves file: 10,000 moves as JSON objects need < 1 MiB
MAX_MOVES_DEPTH: Final = 4  # a list of moves, a move object, a place list: 3 levels


def read_moves(where: str) -> list[Any]:
    if where == "-":
        text = sys.stdin.read(MAX_MOVES_BYTES + 1)
        shown = "standard input"
    else:
        text = _read_text_file(where)
        shown = where
    if len(text) > MAX_MOVES_BYTES:
        raise CliError(f"moves in {shown} are longer than {MAX_MOVES_BYTES // 2**20} MiB")
    depth = _json_depth(text)
    if depth > MAX_MOVES_DEPTH:
        raise CliError(
            f"moves in {shown} nest {depth} levels deep; a list of moves needs at most "
            f"{MAX_MOVES_DEPTH - 1}"
        )
    try:
        data = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise CliError(f"moves in {shown} are not valid JSON: {exc}") from None
    except InvalidNumberError as exc:
        raise CliError(f"moves in {shown}: {exc}") from None
    if not isinstance(data, list):
        raise CliError(f"moves in {shown} must be a JSON list, not {type(data).__name__}")
    return data


def _read_text_file(where: str) -> str:
    """A moves file's text: a regular UTF-8 file of at most MAX_MOVES_BYTES."""
    try:
        info = os.stat(where)
        if not stat.S_ISREG(info.st_mode):
            raise CliError(f"moves file {where!r} is not a regular file")
        if info.st_size > MAX_MOVES_BYTES:
            raise CliError(f"moves file {where!r} is larger than {MAX_MOVES_BYTES // 2**20} MiB")
        with open(where, "rb") as f:
            return f.read(MAX_MOVES_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        raise CliError(f"no such moves file {where!r}") from None
    except OSError as exc:
        raise CliError(f"cannot read moves file {where!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"moves file {where!r} is not UTF-8 text ({exc.reason})") from None


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def _json_depth(text: str) -> int:
    """How deep JSON text nests lists and objects (text in strings does not count)."""
    depth = deepest = 0
    for m in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse_move(index: int, item: Any) -> Move:
    try:
        if isinstance(item, str):
            return Move.from_text(item)
        return move_from_json(item)
    except InvalidMoveError as exc:
        raise CliError(f"move {index}: {exc}") from None


__all__ = ["MAX_MOVES_BYTES", "parse_move", "read_moves"]
