"""benchmarks/referee.py, the atlas's independent referee: it passes the solver's wins and
refuses lines that break a rule of the variant they are replayed under."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from eightoff.deal import deal
from eightoff.rules import Build, EmptyColumn, Layout, Rules
from eightoff.solver import solve


def _load() -> ModuleType:
    path = Path(__file__).parent.parent / "benchmarks" / "referee.py"
    spec = importlib.util.spec_from_file_location("referee", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["referee"] = module
    spec.loader.exec_module(module)
    return module


_referee = _load()
referee = _referee.referee

VARIANTS = [
    Rules(),
    Rules(cells=4, build=Build.ALTERNATE),
    Rules(cells=4, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS),
    Rules(cells=2, empty_column=EmptyColumn.ANY, build=Build.ALTERNATE, layout=Layout.BAKERS),
]


def line(rules: Rules, number: int) -> str | None:
    """The solver's winning line for eightoff deal ``number``, or None if it is lost."""
    result = solve(deal(number, rules))
    return " ".join(m.text() for m in result.moves) if result.moves else None


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe()[:30])
def test_the_solvers_wins_pass(rules: Rules) -> None:
    won = [(n, text) for n in range(1, 13) if (text := line(rules, n))]
    assert won
    for number, text in won:
        assert referee(rules, number, text) is None


def test_a_line_cut_short_or_with_a_move_left_out_is_refused() -> None:
    text = line(Rules(), 1)
    assert text is not None
    moves = text.split()
    assert referee(Rules(), 1, " ".join(moves[:-1])) == "the line ends before every card is home"
    refused = [referee(Rules(), 1, " ".join(moves[:i] + moves[i + 1 :])) for i in range(20)]
    assert all(refused)


@pytest.mark.parametrize(
    ("played", "checked", "broken"),
    [
        (Rules(empty_column=EmptyColumn.ANY), Rules(), "other than a King"),
        (Rules(build=Build.ALTERNATE), Rules(), "does not follow"),
        (Rules(cells=4, empty_column=EmptyColumn.ANY), Rules(cells=4), "King|run of"),
    ],
)
def test_a_line_of_a_looser_variant_is_refused(played: Rules, checked: Rules, broken: str) -> None:
    # Same layout, so the line plays on the same deal until it breaks the stricter rule.
    reasons = []
    for number in range(1, 40):
        text = line(played, number)
        if text is not None and (why := referee(checked, number, text)):
            reasons.append(why)
    assert any(re.search(broken, why) for why in reasons), reasons


def test_the_hardest_won_deals_are_picked_even_when_there_are_fewer(tmp_path: Path) -> None:
    # A database of one won deal (a row's last unknown settled) is checked too.
    import io

    from eightoff.store import Store
    from eightoff.survey import DealRange, run_survey

    db = tmp_path / "s.db"
    run_survey(db, DealRange.parse("1-3"), Rules(), workers=1, progress=io.StringIO())
    with Store(db) as store:
        every = [deal for deal, _ in _referee.picked(store, Rules(), 10, 1000)]
        hardest = [deal for deal, _ in _referee.picked(store, Rules(), 1, 1000)]
        rows = [store.get(Rules(), "eightoff", n) for n in (1, 2, 3)]
    most = max((r for r in rows if r is not None), key=lambda r: r.nodes).deal
    assert sorted(every) == [1, 2, 3] and hardest == [most]
