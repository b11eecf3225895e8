"""Game codes: one short text that recreates a deal and its rules exactly.

Format (canonical form, as :func:`str` writes it)::

    EO1-C8-AAAAAFA            the standard game, eightoff deal 130
    EO1-C4-AAAAAFA            the same deal with 4 cells
    EO1-C8-AAAAAFA-FT         ... with FreeCell-formula runs and take-back (preset "app")
    EO1-C4-AAAAAFA-EB         ... Baker's Game (4 cells, any card to an empty column)
    EO1-C8-AAAAAAB-P          PySolFC's Eight Off deal 1

* ``EO1`` — the code format, version 1.
* ``C8`` / ``C4`` / ``C2`` — the number of cells.
* seven letters — the deal number in base 26, big-endian, ``A`` = 0 … ``Z`` = 25
  (``AAAAAFA`` = 5 × 26 = 130); deal numbers run from 0 to 26**7 − 1.
* an optional last segment, present only when some option differs from the
  standard game: one letter per non-default option, written in this order
  (the letters are declared with the options, in :mod:`eightoff.rules`):

  ====  =========================================================
  E     empty columns take any card (the French "Facile"; standard: Kings only)
  A     build in alternating colours (standard: in suit)
  B     Baker's Game layout (standard: Eight Off layout)
  S     single-card moves only (standard: runs of free cells + 1)
  F     runs by the FreeCell formula (standard: free cells + 1; implied by E)
  T     take-back from the foundations allowed (standard: not allowed)
  P     the deal number is PySolFC's (standard: eightoff's own deals)
  ====  =========================================================

  A letter is left out where the other options imply its value: with ``E``, runs
  count empty columns anyway, so ``EF`` is read and written as ``E``.

Reading is forgiving: any case, spaces anywhere, and missing or extra dashes
where that is unambiguous (``eo1c8aaaaafa``, ``EO1 - C8 - AAAA AFA``,
``EO1--C8-AAAAAFA-tf``). The option letters must be set apart from the deal by a
dash, so a mistyped eighth deal letter is reported rather than read as an option.
Every mistake raises :class:`InvalidGameCodeError` saying what is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any, Final

from eightoff.deal import DEALS, PYSOL_MAX, deal, pysol_deal
from eightoff.errors import EightOffError
from eightoff.numbers import clipped, excerpt
from eightoff.position import Position
from eightoff.rules import CELL_COUNTS, OPTIONS, STANDARD, RuleOption, Rules

VERSION: Final = 1
DEAL_LETTERS: Final = 7
SOURCES: Final = ("eightoff", "pysol")
_BY_LETTER: Final[dict[str, tuple[RuleOption, Any]]] = {
    letter: (option, value)
    for option in OPTIONS
    for value, letter in zip(option.values, option.letters, strict=True)
    if letter
}
_PYSOL_LETTER: Final = "P"
OPTION_LETTERS: Final = "".join(_BY_LETTER) + _PYSOL_LETTER
"""Every option letter, in canonical order (see the module docstring): ``EABSFTP``."""

_OPTION_NAMES: Final = {
    **{letter: option.word(value) for letter, (option, value) in _BY_LETTER.items()},
    _PYSOL_LETTER: "PySolFC deal",
}
_LOOKALIKES: Final = {"0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G"}


class InvalidGameCodeError(EightOffError):
    """A game code that cannot be read or names no valid game.

    ``fault`` names what is wrong (``"cells"``, ``"deal-length"``…) and ``values`` the
    parts of the code the message quotes, so a page can say it in its own language.
    """

    def __init__(self, message: str, fault: str = "bad", **values: str) -> None:
        super().__init__(message)
        self.fault = fault
        self.values = values

    def json(self) -> dict[str, str]:
        """The fault and its values: ``{"code": "cells", "got": "9"}``."""
        return {"code": self.fault, **self.values}


@dataclass(frozen=True, slots=True)
class GameCode:
    """A deal number, the deal source and every rule option."""

    rules: Rules
    deal: int
    source: str = "eightoff"

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InvalidGameCodeError(f"rules must be a Rules value, not {self.rules!r}")
        if self.source not in SOURCES:
            raise InvalidGameCodeError(
                f"deal source must be 'eightoff' or 'pysol', not {self.source!r}"
            )
        if isinstance(self.deal, bool) or not isinstance(self.deal, int):
            raise InvalidGameCodeError(f"the deal number must be an integer, not {self.deal!r}")
        low = 1 if self.source == "pysol" else 0
        high = PYSOL_MAX if self.source == "pysol" else DEALS
        if not low <= self.deal < high:
            raise InvalidGameCodeError(
                f"deal number {self.deal} is out of range {low}-{high - 1}"
                + (" for PySolFC deals" if self.source == "pysol" else ""),
                "deal-range",
                low=str(low),
                high=str(high - 1),
            )

    @property
    def options(self) -> str:
        """The option letters of the last segment ("" for the standard options)."""
        letters = "".join(_letter(self.rules, option) for option in OPTIONS)
        return letters + (_PYSOL_LETTER if self.source == "pysol" else "")

    def __str__(self) -> str:
        n = self.deal
        letters = []
        for _ in range(DEAL_LETTERS):
            n, digit = divmod(n, 26)
            letters.append(chr(ord("A") + digit))
        text = f"EO{VERSION}-C{self.rules.cells}-{''.join(reversed(letters))}"
        options = self.options
        return f"{text}-{options}" if options else text

    def __repr__(self) -> str:
        return f"GameCode.parse({str(self)!r})"

    def position(self) -> Position:
        """The initial position of this game."""
        if self.source == "pysol":
            return pysol_deal(self.deal, self.rules)
        return deal(self.deal, self.rules)

    @classmethod
    def random(cls, rules: Rules = STANDARD, rng: random.Random | None = None) -> GameCode:
        """A uniformly random eightoff deal under ``rules``."""
        return cls(rules, (rng or random.SystemRandom()).randrange(DEALS))

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code (see the module docstring); raises :class:`InvalidGameCodeError`."""
        if not isinstance(text, str):
            raise InvalidGameCodeError(f"a game code is text, not {type(text).__name__}")
        shown = text.strip()
        if not shown.isascii():
            bad = next(ch for ch in shown if not ch.isascii())
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: {bad!r} is not an ASCII letter or digit "
                "(codes use A-Z, 0-9 and dashes)",
                "not-ascii",
                char=bad,
            )
        compact = re.sub(r"\s+", "", text).upper()
        if not compact:
            raise InvalidGameCodeError("empty game code: expected one like EO1-C8-AAAAAFA", "empty")
        # Positions in the dash-free text where the writer put a dash.
        breaks: set[int] = set()
        flat = ""
        for part in compact.split("-"):
            if part:
                breaks.add(len(flat))
                flat += part
        if not flat:
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: expected one like EO1-C8-AAAAAFA", "empty"
            )
        m = re.match(r"EO(\d*)", flat)
        if not m:
            hint = " (the letter O, not zero)" if flat.startswith("E0") else ""
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: it must start with EO1{hint}",
                "start-zero" if hint else "start",
            )
        version, cells_text = m.group(1)[:1], m.group(1)[1:]
        if version == str(VERSION) and cells_text in (str(n) for n in CELL_COUNTS):
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: the C is missing before the cell count "
                f"(EO1-C{cells_text}-…)",
                "no-c",
                cells=cells_text,
            )
        if m.group(1) != str(VERSION):
            got = clipped(m.group(1)) if m.group(1) else "nothing"
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: unknown version {got} after EO "
                "(this program reads EO1)",
                "version",
                got=got,
            )
        at = m.end()
        m = re.compile(r"C(\d*)").match(flat, at)
        if not m:
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: expected the cell count C8, C4 or C2 after EO1",
                "cells-missing",
            )
        if m.group(1) not in [str(n) for n in CELL_COUNTS]:
            got = clipped(m.group(1)) if m.group(1) else "nothing"
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: the cell count after C must be 8, 4 or 2, "
                f"not {got}",
                "cells",
                got=got,
            )
        cells = int(m.group(1))
        at = m.end()
        rest = flat[at:]
        # The deal is 7 letters; options follow only after a dash right there.
        later = sorted(b - at for b in breaks if b > at)
        if len(rest) == DEAL_LETTERS or DEAL_LETTERS in later:
            deal_text, options = rest[:DEAL_LETTERS], rest[DEAL_LETTERS:]
        else:
            # No dash where the deal ends: report the first segment as the deal.
            deal_text = rest[: later[0]] if later else rest
            options = ""
        _check_deal_letters(shown, deal_text)
        number = 0
        for ch in deal_text:
            number = number * 26 + ord(ch) - ord("A")
        rules = _rules_from(shown, cells, options)
        try:
            return cls(rules, number, _source_from(options))
        except InvalidGameCodeError as exc:
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: {exc}", exc.fault, **exc.values
            ) from None


def _check_deal_letters(shown: str, deal_text: str) -> None:
    for ch in deal_text:
        if "A" <= ch <= "Z":
            continue
        if ch.isdigit():
            like = _LOOKALIKES.get(ch)
            hint = f" (did you mean {like}?)" if like else ""
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: a digit {ch!r} where a letter A-Z belongs "
                f"in the deal number{hint}",
                "deal-lookalike" if like else "deal-digit",
                char=ch,
                like=like or "",
            )
        raise InvalidGameCodeError(
            f"bad game code {excerpt(shown)}: {ch!r} where a letter A-Z belongs in the deal number",
            "deal-char",
            char=ch,
        )
    if not deal_text:
        raise InvalidGameCodeError(
            f"bad game code {excerpt(shown)}: the deal number ({DEAL_LETTERS} letters) is missing",
            "deal-missing",
        )
    if len(deal_text) != DEAL_LETTERS:
        extra = " (rule options go after a dash)" if len(deal_text) > DEAL_LETTERS else ""
        raise InvalidGameCodeError(
            f"bad game code {excerpt(shown)}: the deal number is {DEAL_LETTERS} letters, "
            f"got {len(deal_text)} ({clipped(deal_text)}){extra}",
            "deal-long" if extra else "deal-short",
            got=clipped(deal_text),
        )


def _letter(rules: Rules, option: RuleOption) -> str:
    # The option's letter, unless the other options imply its value (E implies F).
    value = getattr(rules, option.name)
    implied = getattr(replace(rules, **{option.name: option.default}), option.name)
    return "" if value == implied else option.letter(value)


def _rules_from(shown: str, cells: int, options: str) -> Rules:
    seen: set[str] = set()
    chosen: dict[str, str] = {}  # option name -> its letter
    for ch in options:
        if ch not in OPTION_LETTERS:
            known = ", ".join(f"{k} {v}" for k, v in _OPTION_NAMES.items())
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: unknown option letter {ch!r} (known: {known})",
                "option",
                char=ch,
            )
        if ch in seen:
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: option {ch} given twice", "option-twice", char=ch
            )
        seen.add(ch)
        if ch == _PYSOL_LETTER:
            continue
        option = _BY_LETTER[ch][0]
        if option.name in chosen:
            other = chosen[option.name]
            raise InvalidGameCodeError(
                f"bad game code {excerpt(shown)}: options {other} ({_OPTION_NAMES[other]}) and "
                f"{ch} ({_OPTION_NAMES[ch]}) exclude each other",
                "options-exclude",
                first=other,
                second=ch,
            )
        chosen[option.name] = ch
    values = {name: _BY_LETTER[ch][1] for name, ch in chosen.items()}
    return Rules(cells=cells, **values)


def _source_from(options: str) -> str:
    return "pysol" if _PYSOL_LETTER in options else "eightoff"


__all__ = ["OPTION_LETTERS", "GameCode", "InvalidGameCodeError"]
