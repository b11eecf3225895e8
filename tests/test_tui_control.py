"""The terminal game's control without the app: picks, moves, undo and the record of a
win, told to a face that only keeps what it is shown."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from eightoff.game import Game
from eightoff.moves import FOUNDATION, Move, column
from eightoff.tui.control import GameControl
from eightoff.tui.userdata import Stats, UserData
from support.tui import CODE


class Shown:
    """A face that keeps the messages, wins and questions the control sends it."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.wins: list[Stats] = []
        self.asked: list[str] = []

    def show(self, text: str) -> None:
        self.said.append(text)

    def won(self, stats: Stats) -> None:
        self.wins.append(stats)

    def confirm(self, question: str, yes: str, then: Callable[[], None]) -> None:
        self.asked.append(question)


def control(data: UserData, game: Game | None = None) -> tuple[GameControl, Shown]:
    face = Shown()
    game = game if game is not None else Game.from_text(CODE)
    return GameControl(face, game, data, lambda: 0.0, random.Random(7)), face


def test_a_pick_then_a_target_plays_the_engines_move_and_undo_takes_it_back() -> None:
    ctl, face = control(UserData(None))
    ctl.pick(column(5))
    assert ctl.selected == column(5)
    ctl.pick(FOUNDATION)
    assert ctl.selected is None
    assert [a.move for a in ctl.game.actions] == [Move.from_text("6^")]
    assert face.said[-1] == "Played A♥ from column 6 to the ♥ foundation"
    ctl.undo()
    assert ctl.game.actions == []
    assert face.said[-1] == "Undid: A♥ back to column 6"


def test_an_illegal_target_is_refused_in_the_engines_words() -> None:
    ctl, face = control(UserData(None))
    ctl.pick(column(2))
    ctl.pick(FOUNDATION)
    assert ctl.game.actions == []
    assert face.said[-1] == "8♣ cannot go to the foundation: needs A♣ first"


def test_a_new_deal_over_a_started_game_asks_first(tmp_path: Path) -> None:
    ctl, face = control(UserData(tmp_path))
    ctl.new_game_like(difficulty="easy")
    assert face.asked == []  # nothing played yet: dealt at once
    first = ctl.game.code
    ctl.play(ctl.game.legal_moves()[0])
    ctl.new_game_like(difficulty="easy")
    assert face.asked == ["Give up this game for a new deal? It counts as lost."]
    assert ctl.game.code == first


def test_the_solution_played_to_the_end_is_a_win_recorded_as_helped(tmp_path: Path) -> None:
    from eightoff.solver import Limit, Verdict, solve

    data = UserData(tmp_path)
    ctl, face = control(data)
    result = solve(ctl.game.position, limit=Limit(nodes=None, seconds=10))
    assert result.verdict is Verdict.SOLVED
    ctl.show_solution(ctl.game.position, tuple(result.moves))
    assert ctl.solution is not None
    ctl.solution_go(-1)
    ctl.keep_solution()
    assert ctl.game.position.is_won()
    assert len(face.wins) == 1 and face.wins[0].helped == 1
    assert face.said[-1].startswith("You won in ")
