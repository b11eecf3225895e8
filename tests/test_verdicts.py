"""The shipped verdicts: the deal-number encoding, one variant's verdicts and odds, the file
made from a survey database, and a sample of the shipped verdicts solved again."""

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eightoff.deal import deal
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
)
from eightoff.solver import Limit, Verdict, solve
from eightoff.store import Row, Store
from eightoff.verdicts import (
    Shipped,
    Verdicts,
    VerdictsError,
    decode_deals,
    draw_won,
    encode_deals,
    from_store,
    odds,
    settled,
    shipped,
    surveyed_as,
)

# -- the encoding -------------------------------------------------------------------------------


@given(st.sets(st.integers(1, 2**31)), st.integers(1, 1000))
def test_deal_numbers_round_trip(numbers: set[int], start: int) -> None:
    deals = sorted(n + start - 1 for n in numbers)
    assert decode_deals(encode_deals(deals, start), start) == tuple(deals)


def test_encoding_is_small_for_dense_and_sparse_sets() -> None:
    rng = random.Random(1)
    sparse = sorted(rng.sample(range(1, 1_000_001), 1200))  # the standard game's lost deals
    dense = sorted(rng.sample(range(1, 100_001), 25_000))  # a quarter of 100,000 deals
    assert len(encode_deals(sparse)) < 1200 * 2 * 4 / 3 + 100  # ≤ 2 bytes a deal, in base64
    assert len(encode_deals(dense)) < 100_000 / 8 * 1.1 * 4 / 3  # about a bit a deal
    assert decode_deals(encode_deals(dense)) == tuple(dense)
    assert encode_deals([]) == encode_deals([], 50)
    assert decode_deals(encode_deals([])) == ()


@pytest.mark.parametrize(
    ("deals", "start", "message"),
    [
        ([3, 3], 1, "must increase from 1: 3 after 3"),
        ([5, 4], 1, "4 after 5"),
        ([9], 10, "must increase from 10: 9 after 9"),
    ],
)
def test_encoding_refuses_unsorted_or_out_of_range(
    deals: list[int], start: int, message: str
) -> None:
    with pytest.raises(VerdictsError, match=message):
        encode_deals(deals, start)


@pytest.mark.parametrize(
    "text",
    [
        "not base64!",
        "aGVsbG8=",  # base64, not zlib
        __import__("base64").b64encode(__import__("zlib").compress(b"\x81")).decode(),  # cut short
        __import__("base64").b64encode(__import__("zlib").compress(b"\x00")).decode(),  # gap 0
    ],
)
def test_decoding_refuses_what_it_cannot_read(text: str) -> None:
    with pytest.raises(VerdictsError, match="deal numbers that cannot be read"):
        decode_deals(text)


# -- one variant --------------------------------------------------------------------------------


def variant(won: list[int], lost: list[int], unknown: list[int], low: int = 1) -> Verdicts:
    listed = "won" if len(won) <= len(lost) else "lost"
    return Verdicts(
        rules=STANDARD,
        low=low,
        high=low + len(won) + len(lost) + len(unknown) - 1,
        won=len(won),
        lost=len(lost),
        listed=listed,
        deals=tuple(won if listed == "won" else lost),
        unknown=tuple(unknown),
    )


def test_verdict_of_each_deal() -> None:
    v = variant(won=[2, 5], lost=[1, 3, 4, 7, 8], unknown=[6])
    assert v.listed == "won"
    assert [v.verdict(n) for n in range(0, 10)] == [
        None, "lost", "won", "lost", "lost", "won", "unknown", "lost", "lost", None,
    ]  # fmt: skip
    majority_won = variant(won=[10, 11, 13, 14], lost=[12], unknown=[], low=10)
    assert majority_won.listed == "lost"
    assert [majority_won.verdict(n) for n in range(10, 15)] == ["won", "won", "lost", "won", "won"]
    rng = random.Random(4)
    assert {v.draw_won(rng) for _ in range(50)} == {2, 5}
    assert {majority_won.draw_won(rng) for _ in range(100)} == {10, 11, 13, 14}
    assert variant(won=[], lost=[1, 2], unknown=[]).draw_won(rng) is None


@pytest.mark.parametrize(
    ("won", "lost", "unknown", "kind", "percent", "one_in", "text"),
    [
        (2000, 0, 0, "almost", 100, 1, "Almost every deal of this variant can be won: 100 % of"),
        (9988, 12, 0, "almost", 99.88, 1, "won: 99.88 % of 10,000 surveyed."),
        (99999, 1, 0, "almost", 99.99, 1, "won: 99.99 % of 100,000 surveyed."),  # not "100 %"
        (1515, 485, 0, "percent", 76, 1, "About 76 % of the deals of this variant can be won ("),
        (50, 50, 0, "percent", 50, 2, "About 50 % of the deals"),
        (229, 1771, 0, "one_in", 11, 9, "About 1 in 9 deals of this variant can be won (2,000"),
        (6, 1994, 0, "one_in", 0, 333, "About 1 in 333 deals"),
        (924, 995, 81, "one_in", 48, 2, "About 1 in 2 deals of this variant can be won (2,000 "
         "surveyed, 81 undecided)."),
        (0, 10, 0, "none", 0, 0, "No deal of this variant could be won (10 surveyed)."),
    ],
)  # fmt: skip
def test_odds_say_how_often_a_deal_is_won(
    won: int, lost: int, unknown: int, kind: str, percent: float, one_in: int, text: str
) -> None:
    v = Verdicts(STANDARD, 1, won + lost + unknown, won, lost, "won", tuple(range(1, won + 1)),
                 tuple(range(won + lost + 1, won + lost + unknown + 1)))  # fmt: skip
    found = v.odds()
    assert (found.kind, found.percent, found.one_in) == (kind, percent, one_in)
    assert text in found.text()


def test_entry_round_trips_and_is_checked() -> None:
    v = variant(won=[3, 9], lost=[1, 2, 4, 5, 6, 8, 10], unknown=[7])
    again = Verdicts.from_json(v.to_json())
    assert again == v
    with pytest.raises(VerdictsError, match="1 won \\+ 1 lost \\+ 0 unknown is not the 3 deals"):
        Verdicts(STANDARD, 1, 3, 1, 1, "won", (1,), ())
    with pytest.raises(VerdictsError, match="2 deals listed won, not 1"):
        Verdicts(STANDARD, 1, 3, 1, 2, "won", (1, 2), ())
    with pytest.raises(VerdictsError, match="listed deals outside 1-3"):
        Verdicts(STANDARD, 1, 3, 1, 2, "won", (4,), ())
    with pytest.raises(VerdictsError, match="both listed and unknown"):
        Verdicts(STANDARD, 1, 3, 1, 1, "won", (2,), (2,))
    with pytest.raises(VerdictsError, match="sorted and distinct"):
        Verdicts(STANDARD, 1, 4, 2, 2, "won", (3, 2), ())
    broken = v.to_json() | {"unknown": 2}
    with pytest.raises(VerdictsError, match="1 unknown deals listed, not 2"):
        Verdicts.from_json(broken)
    with pytest.raises(VerdictsError, match="cannot be read"):
        Verdicts.from_json(v.to_json() | {"rules": {"cells": 3}})


def test_single_card_moves_read_as_the_default_runs() -> None:
    kings = Rules(cells=4, group_moves=GroupMoves.SINGLE)
    assert surveyed_as(kings) == Rules(cells=4)
    anything = PRESETS["bakers"].with_options(group_moves=GroupMoves.SINGLE)
    assert surveyed_as(anything) == PRESETS["bakers"]
    assert surveyed_as(PRESETS["bakers"]).group_moves is GroupMoves.FREECELL
    # FreeCell-formula runs with Kings-only columns, and take-back, are other games.
    assert surveyed_as(PRESETS["app"]) == PRESETS["app"]


def test_file_text_round_trips_and_refuses_other_files() -> None:
    made = Shipped([variant(won=[2], lost=[1, 3], unknown=[])], solver="test")
    again = Shipped.from_text(made.to_text())
    assert again.variants == made.variants and again.solver == "test"
    assert again.find(STANDARD.with_options(group_moves=GroupMoves.SINGLE)) is not None
    assert again.find(PRESETS["easy"]) is None
    for text, message in [
        ("[]", "not an eightoff verdicts file"),
        ('{"format": "eightoff-pool"}', "not an eightoff verdicts file"),
        ('{"format": "eightoff-verdicts", "version": 9}', "version 9; this eightoff reads 1"),
        ('{"format": "eightoff-verdicts", "version": 1}', "not a valid verdicts file"),
        ("{", "not a valid verdicts file"),
    ]:
        with pytest.raises(VerdictsError, match=f"x.json: {message}"):
            Shipped.from_text(text, "x.json")
    twice = made.to_text().replace("]}", "").rstrip() + ",\n" + made.to_text().split("\n")[1]
    with pytest.raises(VerdictsError, match="two entries for the rules"):
        Shipped.from_text(twice + "\n]}")


# -- made from a survey database ------------------------------------------------------------


def row(number: int, verdict: str, rules: Rules = STANDARD, source: str = "eightoff") -> Row:
    solved = verdict == "solved"
    return Row(rules, source, number, verdict, 80 if solved else None, False, 10, 0.01, "",
               "test", "easy" if solved else None)  # fmt: skip


def test_from_a_survey_database(tmp_path: Path) -> None:
    db = tmp_path / "survey.db"
    easy = PRESETS["easy"]
    with Store(db) as store:
        store.add(
            [row(n, "unsolvable" if n in (4, 7) else "solved") for n in range(1, 11)]
            + [row(11, "unknown"), row(13, "unsolvable")]  # 12 is missing: the range ends at 11
            + [row(n, "solved" if n == 6 else "unsolvable", easy) for n in range(5, 9)]
            + [row(1, "unsolvable", PRESETS["bakers"], source="pysol")]  # not eightoff deals
        )
    with Store(db, readonly=True) as store:
        made = from_store(store)
    assert list(made.variants) == [STANDARD, easy]  # the options' order: standard first
    standard = made.variants[STANDARD]
    assert (standard.low, standard.high, standard.won, standard.lost) == (1, 11, 8, 2)
    assert (standard.listed, standard.deals, standard.unknown) == ("lost", (4, 7), (11,))
    assert made.variants[easy] == Verdicts(easy, 5, 8, 1, 3, "won", (6,), ())
    assert made.solver == "test"


def eightoff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eightoff", *args], capture_output=True, text=True, timeout=60
    )


def test_verdicts_command_writes_the_file(tmp_path: Path) -> None:
    db = tmp_path / "survey.db"
    with Store(db) as store:
        store.add([row(n, "solved" if n % 9 == 0 else "unsolvable") for n in range(1, 101)])
    out = tmp_path / "verdicts.json"
    proc = eightoff("survey", "verdicts", "--db", str(db), str(out))
    assert proc.returncode == 0, proc.stderr
    assert "About 1 in 9 deals of this variant can be won (100 surveyed)" in proc.stdout
    found = Shipped.from_text(out.read_text()).variants[STANDARD]
    assert found.deals == tuple(range(9, 101, 9))
    for args, message in [
        (["--db", str(tmp_path / "none.db"), str(out)], "no survey database at"),
        (["--db", str(db), str(tmp_path)], "is a directory: name the verdicts file"),
        (["--db", str(db), str(db)], "is the survey database itself"),
        (["--db", str(out), str(tmp_path / "x.json")], "not a survey database"),
    ]:
        proc = eightoff("survey", "verdicts", *args)
        assert proc.returncode == 2
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("eightoff: error: "), proc.stderr
        assert message in lines[0]


def test_verdicts_merge_keeps_the_rule_sets_the_database_lacks(tmp_path: Path) -> None:
    easy, bakers = PRESETS["easy"], PRESETS["bakers"]
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    with Store(first) as store:
        store.add([row(n, "solved", easy) for n in range(1, 21)])
        store.add([row(n, "solved" if n > 2 else "unsolvable") for n in range(1, 11)])
    with Store(second) as store:  # another day: the standard game again, and Baker's Game
        store.add([row(n, "solved" if n > 1 else "unsolvable") for n in range(1, 31)])
        store.add([row(n, "unsolvable" if n == 5 else "solved", bakers) for n in range(1, 41)])
    out = tmp_path / "verdicts.json"
    assert eightoff("survey", "verdicts", "--db", str(first), str(out)).returncode == 0
    proc = eightoff("survey", "verdicts", "--merge", "--db", str(second), str(out))
    assert proc.returncode == 0, proc.stderr
    found = Shipped.from_text(out.read_text()).variants
    assert list(found) == [STANDARD, easy, bakers]  # the options' order, as without --merge
    assert (found[STANDARD].high, found[STANDARD].deals) == (30, (1,))  # the database's own
    assert found[bakers].deals == (5,) and found[easy].high == 20  # kept from the file
    assert eightoff("survey", "verdicts", "--db", str(second), str(out)).returncode == 0
    assert list(Shipped.from_text(out.read_text()).variants) == [STANDARD, bakers]
    out.write_text("not json")
    proc = eightoff("survey", "verdicts", "--merge", "--db", str(second), str(out))
    assert proc.returncode == 2 and "not a valid verdicts file" in proc.stderr


def test_a_survey_of_a_rule_sets_unknown_deals_settles_them_there(tmp_path: Path) -> None:
    first, again, wider = tmp_path / "first.db", tmp_path / "again.db", tmp_path / "wider.db"
    with Store(first) as store:  # 20 deals: 3 lost, 5, 12 and 17 unknown, the rest won
        store.add([row(n, {3: "unsolvable", 5: "unknown", 12: "unknown", 17: "unknown"}
                       .get(n, "solved")) for n in range(1, 21)])  # fmt: skip
    with Store(again) as store:  # 5 and 17 with more time: 5 lost, 17 won; 12 not tried
        store.add([row(5, "unsolvable"), row(17, "solved")])
    with Store(wider) as store:  # a deal that was not unknown: a survey of its own
        store.add([row(17, "solved"), row(18, "solved")])
    out = tmp_path / "verdicts.json"
    assert eightoff("survey", "verdicts", "--db", str(first), str(out)).returncode == 0
    proc = eightoff("survey", "verdicts", "--merge", "--db", str(again), str(out))
    assert proc.returncode == 0, proc.stderr
    assert "1 undecided" in proc.stdout  # 12 alone is left
    found = Shipped.from_text(out.read_text()).variants[STANDARD]
    assert (found.low, found.high, found.won, found.lost) == (1, 20, 17, 2)
    assert (found.listed, found.deals, found.unknown) == ("lost", (3, 5), (12,))
    assert [found.verdict(n) for n in (3, 5, 12, 17)] == ["lost", "lost", "unknown", "won"]
    assert eightoff("survey", "verdicts", "--merge", "--db", str(wider), str(out)).returncode == 0
    found = Shipped.from_text(out.read_text()).variants[STANDARD]
    assert (found.low, found.high, found.won, found.unknown) == (17, 18, 2, ())


def test_settling_unknown_deals_may_turn_which_verdict_is_listed() -> None:
    old = Verdicts(STANDARD, 1, 6, won=2, lost=1, listed="lost", deals=(3,), unknown=(4, 5, 6))
    turned = settled(old, {4: "lost", 5: "lost", 6: "unknown"})
    assert turned == Verdicts(STANDARD, 1, 6, 2, 3, "won", (1, 2), (6,))
    assert settled(old, {4: "won", 5: "won", 6: "won"}) == Verdicts(
        STANDARD, 1, 6, 5, 1, "lost", (3,), ()
    )
    assert settled(old, {3: "won"}) is None  # 3 was decided: not a settling survey
    assert settled(old, {}) is None


# -- the shipped file ---------------------------------------------------------------------------

VARIANTS = [
    Rules(cells=c, empty_column=e, build=b, layout=lay)
    for c, e, b, lay in itertools.product(CELL_COUNTS, EmptyColumn, Build, Layout)
]


def test_every_variant_is_shipped_with_its_odds() -> None:
    assert len(VARIANTS) == 24
    for rules in VARIANTS:
        found = shipped().find(rules)
        assert found is not None, rules.describe()
        assert found.low == 1 and found.surveyed >= 2000, rules.describe()
        assert odds(rules) == found.odds()
    assert odds(STANDARD) is not None and odds(STANDARD).kind == "almost"  # type: ignore[union-attr]
    assert odds(PRESETS["app"]) is None  # take-back: not surveyed
    assert {o.name for o in OPTIONS} == set(STANDARD.to_json())


def test_won_deals_are_drawn_only_where_random_deals_are_often_lost() -> None:
    rng = random.Random(8)
    assert draw_won(STANDARD, rng) is None  # almost every deal: random deals do
    assert draw_won(PRESETS["app"], rng) is None  # not surveyed
    rare = Rules(cells=4, layout=Layout.BAKERS)  # about 1 deal in 3
    found = shipped().find(rare)
    assert found is not None
    drawn = {draw_won(rare, rng) for _ in range(30)}
    assert all(d is not None and found.verdict(d) == "won" for d in drawn)
    assert len(drawn) > 20


# Variants whose deals are won or proven lost in milliseconds: a sample of their shipped
# verdicts is solved again (the survey's verdicts must be the solver's).
FAST = [
    STANDARD,
    Rules(cells=4),
    Rules(cells=2),
    PRESETS["easy"].with_options(cells=4),
    PRESETS["easy"].with_options(cells=2),
    Rules(cells=4, layout=Layout.BAKERS),
    Rules(cells=2, layout=Layout.BAKERS),
    PRESETS["bakers"],
    PRESETS["bakers"].with_options(cells=2),
]


@pytest.mark.parametrize("rules", FAST, ids=lambda r: r.describe())
def test_a_sample_of_shipped_verdicts_is_the_solvers(rules: Rules) -> None:
    found = shipped().find(rules)
    assert found is not None
    rng = random.Random(rules.describe())
    lost = (
        found.deals
        if found.listed == "lost"
        else [n for n in range(found.low, found.high + 1) if found.verdict(n) == "lost"]
    )
    sample = [found.draw_won(rng) for _ in range(3)] + rng.sample(lost, min(3, len(lost)))
    for number in sample:
        assert number is not None
        result = solve(deal(number, rules), limit=Limit(nodes=None, seconds=30))
        expected = Verdict.SOLVED if found.verdict(number) == "won" else Verdict.UNSOLVABLE
        assert result.verdict is expected, (rules.describe(), number)
