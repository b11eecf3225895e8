"""benchmarks/fcs_lines.py: Freecell Solver's winning lines replayed on the engine. Its
looking-glass preset wins fast where any card fills an empty column: a witness no
"unsolvable" of ours may meet there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import benchmark_scripts
from eightoff.deal import pysol_deal
from eightoff.rules import Build, EmptyColumn, GroupMoves, Layout, Rules
from eightoff.solver import Limit, Verdict, solve
from support import needs_fc_solve

pytestmark = needs_fc_solve
fcs_lines = benchmark_scripts.load("fcs_lines")

C2_EAB = Rules(
    cells=2,
    empty_column=EmptyColumn.ANY,
    build=Build.ALTERNATE,
    layout=Layout.BAKERS,
    group_moves=GroupMoves.FREECELL,
)
C2_EA = C2_EAB.with_options(layout=Layout.EIGHT_OFF)


@pytest.mark.parametrize("rules", [C2_EA, C2_EAB], ids=["C2-EA", "C2-EAB"])
def test_no_unsolvable_where_looking_glass_wins(rules: Rules) -> None:
    lost = won = 0
    for number in range(1, 41):
        position = pysol_deal(number, rules)
        result = solve(position, limit=Limit(nodes=2_000_000, seconds=None))
        line = fcs_lines.fcs_line(position, "lg", 300_000)
        if result.verdict is Verdict.UNSOLVABLE:
            lost += 1
            assert line is None or fcs_lines.refusal(position, line) is not None, number
        elif result.solved and line is not None:
            won += 1
            assert fcs_lines.refusal(position, line) is None, number  # its lines are read
    assert lost >= 5 and won >= 10


def test_a_whole_column_moved_to_an_empty_one_renumbers_them() -> None:
    # fc-solve moves a whole column into an empty one; the engine refuses that (it
    # changes nothing), and the line's later moves name the columns by fc-solve's
    # numbers: the replay renumbers them and the line wins.
    position = pysol_deal(2, C2_EAB)
    line = fcs_lines.fcs_line(position, "lg", 300_000)
    assert line is not None and fcs_lines.refusal(position, line) is None
    played, why = position, None
    for move in line:
        why = played.why_illegal(move)
        if why is not None:
            break
        played = played.apply(move)
    assert why is not None and "changes nothing" in why


def test_a_move_the_rules_forbid_is_refused_with_the_engines_reason() -> None:
    kings = Rules(cells=4, layout=Layout.BAKERS)  # Kings only to an empty column
    position = pysol_deal(57, kings)
    line = fcs_lines.fcs_line(position, "lg", 300_000)
    assert line is not None  # looking-glass "wins" a deal these rules lose
    why = fcs_lines.refusal(position, line)
    assert why is not None and "only a King can go to an empty column" in why
    assert solve(position).verdict is Verdict.UNSOLVABLE
    # A line cut short is refused too.
    won = pysol_deal(2, C2_EAB)
    line = fcs_lines.fcs_line(won, "lg", 300_000)
    assert line is not None
    assert fcs_lines.refusal(won, line[:-1]) == "the line ends before every card is home"


def test_a_legal_win_of_a_deal_we_lost_is_a_clash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --lost reads a solver_variants.py --json run: C4-B 57, lost here, is "won" by
    # looking-glass through a Kings-only breach (refused: no clash); C2-EAB 2, said to
    # be lost in this made-up run, has a legal win (a clash: exit status 1).
    run = {"C4-B": {"eightoff": [[57, "unsolvable", 0.1, 0]]}}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    assert fcs_lines.main(["--lost", str(path), "--states", "300000"]) == 0
    assert "C4-B 1 deals eightoff lost, -l lg: 1 won, 1 refused here" in capsys.readouterr().out
    run["C2-EAB"] = {"eightoff": [[2, "unsolvable", 0.1, 0]]}
    path.write_text(json.dumps(run))
    assert fcs_lines.main(["--lost", str(path), "--states", "300000"]) == 1
