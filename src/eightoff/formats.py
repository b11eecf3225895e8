"""Positions and moves as Freecell Solver board text and as JSON.

Freecell Solver's board text (read and written)::

    Foundations: H-0 C-0 D-0 S-0
    Freecells: 6S 9C 2H 6H - - - -
    JD KD 2S 4C 3S 6D
    ...                              one line per column, covered card first

* ``Foundations:`` gives each suit's top rank (``0``/``A``/``2``…``T``/``10``…``K``);
  a missing suit or a missing line means an empty foundation.
* ``Freecells:`` has one entry per cell, ``-`` for an empty cell; every card
  keeps the cell position the text gives, so fc-solve's freecell numbers
  (0-based) name the same cells after reading. fc-solve's own state printouts
  (one 4-character field per cell, an empty cell left blank) are read too.
* Cards are written ``TH`` and read as ``TH`` or ``10H`` (any case).
* An empty column is a lone ``:`` (as written) or an empty line; a column line
  may start with ``:``. Blank lines after the last column are ignored, and
  missing trailing columns are empty.

JSON forms:

* a position: ``{"columns": [["JD", …], …], "cells": ["6S", null, …],
  "foundations": {"S": 0, "H": 0, "D": 0, "C": 0}, "rules": {…}}``
  (foundations give each suit's top rank; a list in S, H, D, C order is read too);
* a move: ``{"card": "7H", "from": ["column", 3], "to": ["cell", 2], "count": 1}``,
  kinds ``column``/``cell``/``foundation``, 1-based indexes; a foundation's
  index is its suit's place in S, H, D, C order (1–4) and may be omitted on
  input (the card's suit decides). ``card`` and ``count`` are optional on input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from eightoff.cards import CARDS, SUIT_LETTERS, Card, InvalidCardError, Suit, parse_rank
from eightoff.errors import EightOffError
from eightoff.moves import InvalidMoveError, Move, Place, PlaceKind, cell, column, foundation
from eightoff.numbers import InvalidNumberError, excerpt, whole_number
from eightoff.position import COLUMNS, InvalidPositionError, Position
from eightoff.rules import CELL_COUNTS, STANDARD, InvalidRulesError, Rules

if TYPE_CHECKING:
    from eightoff.view import GameView

FCS_FOUNDATION_ORDER: Final = "HCDS"
"""The suit order fc-solve writes on its ``Foundations:`` line."""


class InvalidBoardError(EightOffError):
    """Board text or a JSON position that cannot be read; the message names the place."""


# -- Freecell Solver board text ------------------------------------------------------


def position_to_fcs(pos: Position) -> str:
    """The position as fc-solve board text (``Foundations:``, ``Freecells:``, 8 columns)."""
    found = " ".join(
        f"{letter}-{'0A23456789TJQK'[pos.foundations[SUIT_LETTERS.index(letter)]]}"
        for letter in FCS_FOUNDATION_ORDER
    )
    cells = " ".join("-" if c is None else str(c) for c in pos.cells)
    lines = [f"Foundations: {found}", f"Freecells: {cells}"]
    lines += [" ".join(str(c) for c in col) if col else ":" for col in pos.columns]
    return "\n".join(lines) + "\n"


def position_from_fcs(text: str, rules: Rules | None = None) -> Position:
    """Read fc-solve board text; raises :class:`InvalidBoardError` naming the line.

    A ``Freecells:`` line of 2, 4 or 8 entries fixes the cell count: the rules
    (standard when not given) are read with that many cells. Otherwise the
    rules' cells hold the entries (surplus empty ones are dropped).
    """
    foundations = [0, 0, 0, 0]
    cells: list[Card | None] | None = None
    cells_line = 0
    columns: list[tuple[int, list[Card]]] = []  # (line number, cards)
    where: dict[Card, int] = {}
    started = False

    def card_at(token: str, number: int) -> Card:
        try:
            card = Card.from_text(token)
        except InvalidCardError as exc:
            raise InvalidBoardError(f"line {number}: {exc}") from None
        if card in where:
            raise InvalidBoardError(
                f"line {number}: {card} appears twice (also on line {where[card]})"
            )
        where[card] = number
        return card

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line and not started:
            continue  # blank lines before the board
        started = True
        head, colon, rest = line.partition(":")
        key = head.strip().lower()
        if colon and key in ("foundations", "founds"):
            for token in rest.split():
                suit_text, dash, rank_text = token.partition("-")
                try:
                    suit = Suit.from_text(suit_text)
                    rank = 0 if rank_text.strip() == "0" else parse_rank(rank_text)
                except InvalidCardError:
                    raise InvalidBoardError(
                        f"line {number}: cannot read foundation {excerpt(token)}: expected like H-5"
                    ) from None
                if not dash:
                    raise InvalidBoardError(
                        f"line {number}: cannot read foundation {excerpt(token)}: expected like H-5"
                    )
                foundations[suit] = rank
                for r in range(1, rank + 1):
                    card = CARDS[suit * 13 + r - 1]
                    if card in where:
                        raise InvalidBoardError(
                            f"line {number}: {card} is on its foundation and also on line "
                            f"{where[card]}"
                        )
                    where[card] = number
            continue
        if colon and key in ("freecells", "fc"):
            cells_line = number
            tokens = _cell_tokens(raw.partition(":")[2])
            cells = [None if t in ("", "-", "--") else card_at(t, number) for t in tokens]
            continue
        if colon and head.strip():
            raise InvalidBoardError(
                f"line {number}: unknown line {excerpt(head.strip())}: expected Foundations:, "
                "Freecells: or a column of cards"
            )
        tokens = rest.split() if colon else line.split()
        columns.append((number, [card_at(t, number) for t in tokens]))
    while columns and not columns[-1][1] and len(columns) > COLUMNS:
        columns.pop()  # blank lines after the last column
    if len(columns) > COLUMNS:
        raise InvalidBoardError(
            f"line {columns[COLUMNS][0]}: a ninth column; the board has 8 columns"
        )
    cols = [cards for _, cards in columns] + [[] for _ in range(COLUMNS - len(columns))]
    cell_list: list[Card | None] = cells or []
    rules = rules or STANDARD
    if len(cell_list) in CELL_COUNTS:
        rules = rules.with_options(cells=len(cell_list))
    while len(cell_list) > rules.cells and cell_list[-1] is None:
        cell_list.pop()  # surplus empty cells
    if len(cell_list) > rules.cells:
        raise InvalidBoardError(
            f"line {cells_line}: {len(cell_list)} freecells given, these rules have {rules.cells}"
        )
    if len(where) != 52:
        missing = " ".join(str(c) for c in CARDS if c not in where)
        raise InvalidBoardError(f"the board lacks {52 - len(where)} card(s): {missing}")
    try:
        return Position(cols, cell_list, foundations, rules)
    except InvalidPositionError as exc:
        raise InvalidBoardError(str(exc)) from None


def _cell_tokens(rest: str) -> list[str]:
    """The entries of a ``Freecells:`` line, ``""`` for a blank (empty) cell.

    fc-solve prints its states with one 4-character field per cell and leaves
    an empty cell blank (``Freecells:  6S      2H``); such a line is read field
    by field so every card keeps its cell. Otherwise entries are split on spaces.
    """
    body = rest.rstrip("\r\n")
    fields = [body[i : i + 4] for i in range(0, len(body), 4)]
    if (
        body
        and len(body) % 4 == 0
        and "-" not in body
        and all(f[0] == " " and len(f.split()) <= 1 for f in fields)
    ):
        return [f.strip() for f in fields]
    return rest.split()


# -- JSON -------------------------------------------------------------------------------


def position_to_json(pos: Position) -> dict[str, Any]:
    """The position as plain JSON data (see the module docstring)."""
    return {
        "columns": [[str(c) for c in col] for col in pos.columns],
        "cells": [None if c is None else str(c) for c in pos.cells],
        "foundations": {SUIT_LETTERS[s]: pos.foundations[s] for s in range(4)},
        "rules": pos.rules.to_json(),
    }


def position_from_json(obj: Any, rules: Rules | None = None) -> Position:
    """Read a JSON position; ``rules`` overrides the object's ``"rules"`` (default standard)."""
    if not isinstance(obj, dict):
        raise InvalidBoardError("a position must be a JSON object with columns, cells, foundations")
    try:
        if rules is None:
            rules = Rules.from_json(obj["rules"]) if "rules" in obj else STANDARD
    except InvalidRulesError as exc:
        raise InvalidBoardError(f"rules: {exc}") from None
    columns = obj.get("columns")
    if not isinstance(columns, list) or len(columns) != COLUMNS:
        raise InvalidBoardError("columns: expected a list of 8 columns")
    cols = []
    for i, col in enumerate(columns):
        if not isinstance(col, list):
            raise InvalidBoardError(f"columns[{i}]: expected a list of cards")
        cols.append([_json_card(c, f"columns[{i}]") for c in col])
    raw_cells = obj.get("cells", [])
    if not isinstance(raw_cells, list):
        raise InvalidBoardError("cells: expected a list of cards or null")
    cells = [None if c is None else _json_card(c, "cells") for c in raw_cells]
    raw_found = obj.get("foundations", [0, 0, 0, 0])
    if isinstance(raw_found, dict):
        unknown = set(raw_found) - set(SUIT_LETTERS)
        if unknown:
            raise InvalidBoardError(
                f"foundations: unknown suit {sorted(unknown)[0]!r}: expected S, H, D, C"
            )
        raw_found = [raw_found.get(s, 0) for s in SUIT_LETTERS]
    if not isinstance(raw_found, list) or len(raw_found) != 4:
        raise InvalidBoardError("foundations: expected {S, H, D, C: top rank} or 4 ranks")
    if not all(isinstance(f, int) and not isinstance(f, bool) for f in raw_found):
        raise InvalidBoardError("foundations: each top rank is a number 0-13")
    try:
        return Position(cols, cells, raw_found, rules)
    except InvalidPositionError as exc:
        raise InvalidBoardError(str(exc)) from None


def _json_card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise InvalidBoardError(f'{where}: a card is text like "7H", not {value!r}')
    try:
        return Card.from_text(value)
    except InvalidCardError as exc:
        raise InvalidBoardError(f"{where}: {exc}") from None


_KINDS: Final = {k.value: k for k in PlaceKind}


def move_to_json(move: Move, pos: Position | None = None, *, text: bool = False) -> dict[str, Any]:
    """The move as JSON; ``card`` (the moving card, the deepest of a run) needs ``pos``;
    ``text`` adds the compact notation (``"text": "3a"``), which reads back as the move."""
    data: dict[str, Any] = {}
    card: Card | None = None
    if pos is not None:
        cards = pos.moving_cards(move)
        if cards:
            card = cards[0]
            data["card"] = str(card)
    data["from"] = _place_json(move.source, card)
    data["to"] = _place_json(move.target, card)
    data["count"] = move.count
    if text:
        data["text"] = move.text()
    return data


def _place_json(place: Place, card: Card | None) -> list[Any]:
    index = place.index
    if place == foundation():
        if card is None:
            return ["foundation"]
        index = card.suit
    return [place.kind.value, index + 1]


def move_from_json(obj: Any, pos: Position | None = None) -> Move:
    """Read a JSON move; with ``pos``, a given ``card`` must be the card that moves.

    Raises :class:`InvalidMoveError` naming what is wrong. Legality is not
    checked here: apply the move to a position for that.
    """
    if not isinstance(obj, dict):
        raise InvalidMoveError(
            'a move is a JSON object like {"card": "7H", "from": ["column", 3], '
            '"to": ["cell", 2], "count": 1}'
        )
    unknown = set(obj) - {"card", "from", "to", "count", "text"}
    if unknown:
        raise InvalidMoveError(f"unknown key {excerpt(sorted(unknown)[0])} in move {excerpt(obj)}")
    card: Card | None = None
    if obj.get("card") is not None:
        if not isinstance(obj["card"], str):
            raise InvalidMoveError(f'"card" must be text like "7H", not {excerpt(obj["card"])}')
        try:
            card = Card.from_text(obj["card"])
        except InvalidCardError as exc:
            raise InvalidMoveError(f"move {excerpt(obj)}: {exc}") from None
    for key in ("from", "to"):
        if key not in obj:
            raise InvalidMoveError(f'move {excerpt(obj)} lacks "{key}"')
    count = obj.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InvalidMoveError(f'"count" must be a whole number ≥ 1, not {excerpt(count)}')
    source = _place_from_json(obj["from"], "from", card, as_source=True)
    target = _place_from_json(obj["to"], "to", card, as_source=False)
    move = Move(source, target, count)
    if "text" in obj:  # the compact notation, as move_to_json adds it: the same move
        written = obj["text"]
        if not isinstance(written, str) or len(written) > 20:
            raise InvalidMoveError('"text" must be a move in the compact notation, like "3a"')
        if Move.from_text(written) != move:
            raise InvalidMoveError(f'"text" {excerpt(written)} is not the move {move}')
    if card is not None and pos is not None:
        moving = pos.moving_cards(move)
        if not moving:
            raise InvalidMoveError(f"{move}: {card} is not there, {source.name()} is empty")
        if moving[0] != card:
            raise InvalidMoveError(
                f"{move}: the card that moves is {moving[0]}, not {card}"
                + (f" ({len(moving)} cards from {source.name()})" if count > 1 else "")
            )
    return move


def _place_from_json(value: Any, key: str, card: Card | None, *, as_source: bool) -> Place:
    shape = f'"{key}" must be like ["column", 3], ["cell", 2] or ["foundation", 1]'
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise InvalidMoveError(f"{shape}, not {excerpt(value)}")
    kind_text = value[0]
    if not isinstance(kind_text, str) or kind_text.lower() not in _KINDS:
        raise InvalidMoveError(
            f'"{key}": unknown kind {excerpt(kind_text)}: expected column, cell or foundation'
        )
    kind = _KINDS[kind_text.lower()]
    index = value[1] if len(value) == 2 else None
    if kind is PlaceKind.FOUNDATION:
        if isinstance(index, str):
            try:
                suit = int(Suit.from_text(index))
            except InvalidCardError:
                raise InvalidMoveError(f'"{key}": unknown foundation {excerpt(index)}') from None
        elif index is None:
            if not as_source:
                return foundation()
            if card is None:
                raise InvalidMoveError(
                    f'"{key}": a move from a foundation needs its index (1-4, S H D C) or a "card"'
                )
            suit = card.suit
        elif isinstance(index, int) and not isinstance(index, bool) and 1 <= index <= 4:
            suit = index - 1
        else:
            raise InvalidMoveError(
                f'"{key}": a foundation index is 1-4 (S, H, D, C), not {excerpt(index)}'
            )
        if card is not None and card.suit != suit:
            raise InvalidMoveError(
                f'"{key}": {card} does not belong on the {SUIT_LETTERS[suit]} foundation'
            )
        return foundation(suit) if as_source else foundation()
    if isinstance(index, bool) or not isinstance(index, int):
        raise InvalidMoveError(f'"{key}": the {kind.value} needs a number, not {excerpt(index)}')
    limit = COLUMNS if kind is PlaceKind.COLUMN else 8
    if not 1 <= index <= limit:
        raise InvalidMoveError(f'"{key}": there is no {kind.value} {index} (1-{limit})')
    return column(index - 1) if kind is PlaceKind.COLUMN else cell(index - 1)


# -- fc-solve solutions -----------------------------------------------------------------

_FCS_MOVES: Final = (
    (re.compile(r"move (?:a|1) cards? from stack (\d+) to the foundations?"), "s^"),
    (re.compile(r"move (?:a|1) cards? from freecell (\d+) to the foundations?"), "f^"),
    (re.compile(r"move (?:a|1) cards? from freecell (\d+) to stack (\d+)"), "fs"),
    (re.compile(r"move (?:a|1) cards? from stack (\d+) to freecell (\d+)"), "sf"),
    (re.compile(r"move (?:a|1) cards? from freecell (\d+) to freecell (\d+)"), "ff"),
    (re.compile(r"move (a|\d+) cards? from stack (\d+) to stack (\d+)"), "ss"),
)


def moves_from_fcs_solution(text: str) -> list[Move]:
    """The moves of fc-solve's printed solution (``-m``, with or without ``-p -t -sam``).

    fc-solve counts stacks and freecells from 0. Lines that are not moves
    (separators, boards, the verdict) are skipped; a ``Move`` line we cannot
    read raises :class:`InvalidMoveError` naming it.
    """
    moves: list[Move] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = " ".join(raw.split()).lower().rstrip(".")
        if not line.startswith("move "):
            continue
        for pattern, kind in _FCS_MOVES:
            m = pattern.fullmatch(line)
            if m is None:
                continue
            try:
                g = [1 if x == "a" else whole_number(x, 4) for x in m.groups()]
            except InvalidNumberError as exc:
                raise InvalidMoveError(f"line {number}: {exc}") from None
            if kind == "s^":
                moves.append(Move(column(g[0]), foundation()))
            elif kind == "f^":
                moves.append(Move(cell(g[0]), foundation()))
            elif kind == "fs":
                moves.append(Move(cell(g[0]), column(g[1])))
            elif kind == "sf":
                moves.append(Move(column(g[0]), cell(g[1])))
            elif kind == "ff":
                moves.append(Move(cell(g[0]), cell(g[1])))
            else:
                if g[0] < 1:
                    raise InvalidMoveError(f"line {number}: {excerpt(raw.strip())} moves no card")
                moves.append(Move(column(g[1]), column(g[2]), g[0]))
            if any(p.index >= 8 for p in (moves[-1].source, moves[-1].target)):
                raise InvalidMoveError(
                    f"line {number}: {excerpt(raw.strip())} names a place beyond 8"
                )
            break
        else:
            raise InvalidMoveError(
                f"line {number}: cannot read fc-solve move {excerpt(raw.strip())}"
            )
    return moves


# -- a game's view --------------------------------------------------------------------


def moves_to_json(
    moves: Iterable[Move], pos: Position, *, text: bool = False
) -> list[dict[str, Any]]:
    """Moves played in turn from ``pos``, each as :func:`move_to_json` reads it there."""
    out = []
    for move in moves:
        out.append(move_to_json(move, pos, text=text))
        pos = pos.apply_unchecked(move)
    return out


def view_to_json(view: GameView) -> dict[str, Any]:
    """A game's view as the web API answers it.

    ``{"position", "legal_moves", "status", "score", "taps", "targets", "finish"}``, each
    move with its compact notation (``"text"``: what a client sends back). ``taps`` maps
    each pile holding a card (``"column-3"``, ``"cell-2"``) to its single tap (home) and
    double tap (smart) move, ``targets`` to the piles its legal moves go to (a move home
    as its suit's foundation, ``"foundation-H"``).
    """
    pos = view.position
    taps: dict[str, dict[str, Any]] = {}
    targets: dict[str, list[str]] = {}
    for place, pile in view.piles.items():
        label = place.label()
        taps[label] = {
            "tap": None if pile.home is None else move_to_json(pile.home, pos, text=True),
            "smart": None if pile.smart is None else move_to_json(pile.smart, pos, text=True),
        }
        targets[label] = [t.label() for t in pile.targets]
    return {
        "position": position_to_json(pos),
        "legal_moves": [move_to_json(m, pos, text=True) for m in view.legal_moves],
        "status": str(view.status),
        "score": view.score,
        "taps": taps,
        "targets": targets,
        "finish": None if view.finish is None else moves_to_json(view.finish, pos, text=True),
    }


__all__ = [
    "InvalidBoardError",
    "move_from_json",
    "move_to_json",
    "moves_from_fcs_solution",
    "moves_to_json",
    "position_from_fcs",
    "position_from_json",
    "position_to_fcs",
    "position_to_json",
    "view_to_json",
]
