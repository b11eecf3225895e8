"""Game codes: the standard shape, every option, forgiving reading, clear errors, round-trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eightoff.codes import OPTION_LETTERS, GameCode, InvalidGameCodeError
from eightoff.deal import DEALS, deal, pysol_deal
from eightoff.rules import (
    CELL_COUNTS,
    OPTIONS,
    PRESETS,
    STANDARD,
    Build,
    EmptyColumn,
    GroupMoves,
    Layout,
    Rules,
    preset,
)
from support import BAD_CODE_FAULTS

rules_st = st.builds(
    Rules,
    cells=st.sampled_from(CELL_COUNTS),
    empty_column=st.sampled_from(list(EmptyColumn)),
    build=st.sampled_from(list(Build)),
    layout=st.sampled_from(list(Layout)),
    group_moves=st.sampled_from(list(GroupMoves)),
    take_back=st.booleans(),
)


@st.composite
def codes(draw: st.DrawFn) -> GameCode:
    source = draw(st.sampled_from(["eightoff", "pysol"]))
    number = draw(st.integers(1 if source == "pysol" else 0, DEALS - 1))
    return GameCode(draw(rules_st), number, source)


def test_standard_code_is_the_apps_shape() -> None:
    code = GameCode(STANDARD, 130)
    assert str(code) == "EO1-C8-AAAAAFA"
    assert GameCode.parse("EO1-C8-AAAAAFA") == code
    assert str(GameCode(STANDARD, 0)) == "EO1-C8-AAAAAAA"
    assert str(GameCode(STANDARD, DEALS - 1)) == "EO1-C8-ZZZZZZZ"
    assert GameCode.parse("EO1-C8-AAAABAA").deal == 26**2


def test_cell_counts_change_the_c_segment_only() -> None:
    assert str(GameCode(STANDARD.with_options(cells=4), 130)) == "EO1-C4-AAAAAFA"
    assert str(GameCode(STANDARD.with_options(cells=2), 130)) == "EO1-C2-AAAAAFA"


@pytest.mark.parametrize(
    ("rules", "source", "suffix"),
    [
        (preset("easy"), "eightoff", "-E"),
        (preset("alternate"), "eightoff", "-A"),
        (STANDARD.with_options(layout="bakers"), "eightoff", "-B"),
        (STANDARD.with_options(group_moves="single"), "eightoff", "-S"),
        (STANDARD.with_options(group_moves="freecell"), "eightoff", "-F"),
        (STANDARD.with_options(take_back=True), "eightoff", "-T"),
        (STANDARD, "pysol", "-P"),
        (preset("app"), "eightoff", "-FT"),
    ],
)
def test_each_option_has_its_letter(rules: Rules, source: str, suffix: str) -> None:
    code = GameCode(rules, 130, source)
    assert str(code) == f"EO1-C8-AAAAAFA{suffix}"
    assert GameCode.parse(str(code)) == code


def test_bakers_preset_code() -> None:
    assert str(GameCode(preset("bakers"), 130)) == "EO1-C4-AAAAAFA-EB"


def test_any_card_to_an_empty_column_implies_freecell_runs() -> None:
    easy = GameCode.parse("EO1-C8-AAAAAFA-E")
    assert easy.rules == preset("easy") and easy.rules.group_moves is GroupMoves.FREECELL
    assert GameCode.parse("EO1-C8-AAAAAFA-EF") == easy  # F adds nothing to E: written as E
    assert str(GameCode.parse("eo1-c8-aaaaafa-ef")) == "EO1-C8-AAAAAFA-E"
    single = GameCode.parse("EO1-C8-AAAAAFA-ES")
    assert single.rules.group_moves is GroupMoves.SINGLE and str(single) == "EO1-C8-AAAAAFA-ES"


def test_option_letters_come_from_the_rule_table() -> None:
    table = [(o.name, letter) for o in OPTIONS for letter in o.letters if letter]
    assert "".join(letter for _, letter in table) + "P" == OPTION_LETTERS == "EABSFTP"
    with pytest.raises(InvalidGameCodeError, match=r"options S \(one card per move\) and F"):
        GameCode.parse("EO1-C8-AAAAAFA-SF")


def test_every_preset_round_trips() -> None:
    for rules in PRESETS.values():
        code = GameCode(rules, 4242)
        assert GameCode.parse(str(code)) == code


@pytest.mark.parametrize(
    "text",
    [
        "eo1-c8-aaaaafa",
        "  EO1 C8 AAAAAFA ",
        "EO1C8AAAAAFA",
        "EO1--C8--AAAAAFA-",
        "e o 1 - c 8 - a a a a a f a",
        "EO1-C8-AAAA-AFA",
    ],
)
def test_forgiving_reading(text: str) -> None:
    assert str(GameCode.parse(text)) == "EO1-C8-AAAAAFA"


def test_option_letters_in_any_order_and_case() -> None:
    code = GameCode.parse("eo1-c4-aaaaafa-tpbe")
    assert str(code) == "EO1-C4-AAAAAFA-EBTP"
    assert code.source == "pysol"
    assert code.rules.take_back and code.rules.layout is Layout.BAKERS


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("XO1-C8-AAAAAFA", "it must start with EO1"),
        ("E01-C8-AAAAAFA", "it must start with EO1 (the letter O, not zero)"),
        ("EO2-C8-AAAAAFA", "unknown version 2 after EO (this program reads EO1)"),
        ("EO-C8-AAAAAFA", "unknown version nothing after EO (this program reads EO1)"),
        ("EO1-X8-AAAAAFA", "expected the cell count C8, C4 or C2 after EO1"),
        ("EO1-8-AAAAAFA", "the C is missing before the cell count (EO1-C8-…)"),
        ("EO1-C6-AAAAAFA", "the cell count after C must be 8, 4 or 2, not 6"),
        ("EO1-C-AAAAAFA", "the cell count after C must be 8, 4 or 2, not nothing"),
        (
            "EO1-C8-AAAA0FA",
            "a digit '0' where a letter A-Z belongs in the deal number (did you mean O?)",
        ),
        (
            "EO1-C8-AAAA1FA",
            "a digit '1' where a letter A-Z belongs in the deal number (did you mean I?)",
        ),
        ("EO1-C8-AAAA3FA", "a digit '3' where a letter A-Z belongs in the deal number"),
        ("EO1-C8-AAA*AFA", "'*' where a letter A-Z belongs in the deal number"),
        ("EO1-C8-AAA^AFA", "'^' where a letter A-Z belongs in the deal number"),
        ("EO1-C8-AAAAAF", "the deal number is 7 letters, got 6 (AAAAAF)"),
        (
            "EO1-C8-AAAAAFAB",
            "the deal number is 7 letters, got 8 (AAAAAFAB) (rule options go after a dash)",
        ),
        (
            "EO1-C8-AAAAAFAB-E",
            "the deal number is 7 letters, got 8 (AAAAAFAB) (rule options go after a dash)",
        ),
        ("EO1-C8-AAAAAF-ET", "the deal number is 7 letters, got 6 (AAAAAF)"),
        ("EO1-C8-AAA-AAF-ET", "the deal number is 7 letters, got 3 (AAA)"),
        ("EO1-C8", "the deal number (7 letters) is missing"),
        (
            "EO1-C8-AAAAAFA-X",
            "unknown option letter 'X' (known: E any card to empty columns, A build in "
            "alternating colours, B Baker's Game deal, S one card per move, F runs by the "
            "FreeCell formula, T take-back allowed, P PySolFC deal)",
        ),
        ("EO1-C8-AAAAAFA-TT", "option T given twice"),
        (
            "EO1-C8-AAAAAFA-SF",
            "options S (one card per move) and F (runs by the FreeCell formula) exclude each other",
        ),
        ("EO1-C8-AAAAAAA-P", "deal number 0 is out of range 1-8031810175 for PySolFC deals"),
        (
            "EO1-C8-AAAAAFÉ",
            "'É' is not an ASCII letter or digit (codes use A-Z, 0-9 and dashes)",
        ),
    ],
)
def test_bad_codes_say_what_is_wrong(text: str, what: str) -> None:
    with pytest.raises(InvalidGameCodeError) as error:
        GameCode.parse(text)
    assert str(error.value) == f"bad game code {text!r}: {what}"


@pytest.mark.parametrize(("text", "fault"), BAD_CODE_FAULTS)
def test_bad_codes_name_their_fault_for_a_page_to_word(text: str, fault: dict[str, str]) -> None:
    # The page says what is wrong in its own language from the fault and its values.
    with pytest.raises(InvalidGameCodeError) as error:
        GameCode.parse(text)
    assert error.value.json() == fault


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("", "empty game code: expected one like EO1-C8-AAAAAFA"),
        (" - ", "bad game code '-': expected one like EO1-C8-AAAAAFA"),
        (5, "a game code is text, not int"),
    ],
)
def test_an_empty_or_unreadable_code(value: object, what: str) -> None:
    with pytest.raises(InvalidGameCodeError) as error:
        GameCode.parse(value)  # type: ignore[arg-type]
    assert str(error.value) == what


def test_bad_values() -> None:
    cases: list[tuple[tuple[object, ...], str]] = [
        ((STANDARD, DEALS), f"deal number {DEALS} is out of range 0-{DEALS - 1}"),
        ((STANDARD, -1), f"deal number -1 is out of range 0-{DEALS - 1}"),
        ((STANDARD, 0, "pysol"), f"deal number 0 is out of range 1-{DEALS - 1} for PySolFC deals"),
        ((STANDARD, 1, "ms"), "deal source must be 'eightoff' or 'pysol', not 'ms'"),
        ((STANDARD, True), "the deal number must be an integer, not True"),
        (("standard", 1), "rules must be a Rules value, not 'standard'"),
    ]
    for args, what in cases:
        with pytest.raises(InvalidGameCodeError) as error:
            GameCode(*args)  # type: ignore[arg-type]
        assert str(error.value) == what, args
        low = "1" if args[2:] == ("pysol",) else "0"
        wanted = {"code": "deal-range", "low": low, "high": str(DEALS - 1)}
        assert error.value.json() == (wanted if "out of range" in what else {"code": "bad"})


def test_position() -> None:
    assert GameCode(STANDARD, 130).position() == deal(130)
    assert GameCode(preset("easy"), 130).position() == deal(130, preset("easy"))
    bakers = preset("bakers")
    assert GameCode(bakers, 7, "pysol").position() == pysol_deal(7, bakers)


def test_repr_reads_back() -> None:
    code = GameCode.parse("eo1-c4-aaaaafa-p")
    assert repr(code) == "GameCode.parse('EO1-C4-AAAAAFA-P')"
    assert eval(repr(code)) == code


def test_random() -> None:
    rng = random.Random(5)
    code = GameCode.random(preset("easy"), rng)
    assert code.rules == preset("easy") and code.source == "eightoff"
    assert 0 <= code.deal < DEALS
    assert GameCode.random(preset("easy"), random.Random(5)) == code


@settings(deadline=None)  # a loaded CI machine must not fail a correct parse
@given(codes())
def test_round_trip(code: GameCode) -> None:
    text = str(code)
    assert GameCode.parse(text) == code
    assert str(GameCode.parse(text)) == text
    options = text.split("-")[3] if text.count("-") == 3 else ""
    assert options == "".join(ch for ch in OPTION_LETTERS if ch in options)


@settings(deadline=None)
@given(codes(), st.data())
def test_noisy_spelling_parses_to_canonical(code: GameCode, data: st.DataObject) -> None:
    text = str(code)
    noisy = ""
    for ch in text:
        ch = ch.lower() if data.draw(st.booleans()) else ch
        if ch == "-":
            ch = data.draw(st.sampled_from(["-", "--", " - ", "-  "]))
        noisy += ch + data.draw(st.sampled_from(["", "", " "]))
    parsed = GameCode.parse(noisy)
    assert str(parsed) == text
    assert parsed == code
