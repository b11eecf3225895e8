"""Game: history, undo/redo, smart moves, autoplay, status, score and replay."""

import itertools

import pytest

from eightoff.cards import CARDS, Card
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.errors import Illegal
from eightoff.game import (
    Action,
    Game,
    ReplayError,
    Status,
    autoplay_moves,
    finish_moves,
    home_move,
    is_safe_home,
    smart_move,
)
from eightoff.moves import FOUNDATION, IllegalMoveError, Move, cell, column, foundation
from eightoff.position import Position
from eightoff.rules import STANDARD, Build, Rules, preset
from eightoff.solver import solve
from support import board


def m(text: str) -> Move:
    return Move.from_text(text)


def suit_columns(*, rules: Rules = STANDARD) -> Position:
    """Each suit in its own column, King deepest: everything can go home in order."""
    cols = [" ".join(f"{r}{s}" for r in "KQJT98765432A") for s in "SHDC"]
    return board(cols, rules=rules)


# -- starting ---------------------------------------------------------------------


def test_game_from_a_code() -> None:
    code = GameCode(STANDARD, 42)
    game = Game(code)
    assert game.code == code and game.rules == STANDARD
    assert game.position == code.position() == game.start
    assert game.actions == [] and game.moves == [] and game.score == 0
    assert game.status is Status.PLAYING and game.status == "playing"
    assert game.positions() == [game.position]
    assert not game.can_undo and not game.can_redo
    again = Game.from_text(str(code).lower().replace("-", " - "))
    assert again.position == game.position and again.code == code


def test_a_game_shows_its_code_actions_score_and_status() -> None:
    code = GameCode(STANDARD, 7)
    assert repr(Game(code)) == f"<Game {code} 0 actions, score 0, playing>"
    last = Game(position=board(["KS"], foundations=(12, 13, 13, 13)))
    last.play(Move(column(0), FOUNDATION))
    assert repr(last) == "<Game 1 actions, score 10, won>"


def test_game_from_text_refuses_a_bad_code() -> None:
    with pytest.raises(InvalidGameCodeError):
        Game.from_text("EO1-C9-XYZ")


def test_game_needs_a_code_or_a_position() -> None:
    with pytest.raises(ValueError, match=r"^a game needs a game code or a start position$"):
        Game()
    pos = board(["KS QS"], rest=7)
    with pytest.raises(
        ValueError, match=r"^the start position's rules differ from the game code's rules$"
    ):
        Game(GameCode(preset("easy"), 1), position=pos)
    game = Game(GameCode(STANDARD, 1), position=pos)
    assert game.position == pos and game.code == GameCode(STANDARD, 1)


# -- play, undo, redo --------------------------------------------------------------


def test_play_undo_redo_restore_exact_positions() -> None:
    game = Game(GameCode(STANDARD, 7))
    start = game.position
    actions = []
    for _ in range(6):
        move = game.legal_moves()[0]
        action = game.play(move)
        assert action.moves == (move,)
        actions.append(action)
    history = game.positions()
    assert len(history) == 7 and history[0] == start and history[-1] == game.position
    assert game.moves == [a.move for a in actions] and game.actions == actions
    for k in range(6, 0, -1):
        assert game.undo() == actions[k - 1]
        assert game.position == history[k - 1] and game.positions() == history[:k]
    assert game.undo() is None and game.position == start and game.can_redo
    for k in range(1, 7):
        assert game.redo() == actions[k - 1]
        assert game.position == history[k]
    assert game.redo() is None and not game.can_redo and game.can_undo


def test_the_view_follows_play_undo_and_redo() -> None:
    game = Game(position=board(["KS QS", "KH", "JS"], "QH", rest=7))
    start = game.view()
    assert start.position == game.position
    game.play(m("31"))
    assert game.view().position == game.position != start.position
    game.undo()
    assert game.view().position == start.position
    assert game.view().legal_moves == start.legal_moves
    game.redo()
    assert game.view().position == game.position != start.position
    assert game.positions() == [start.position, game.position]


def test_a_new_move_after_undo_drops_the_redo_line() -> None:
    pos = board(["KS QS", "KH", "JS"], "QH", rest=7)
    game = Game(position=pos)
    game.play(m("31"))
    game.play(m("a2"))
    game.undo()
    game.undo()
    assert game.can_redo
    game.play(m("a2"))
    assert not game.can_redo and game.redo() is None
    assert game.moves == [m("a2")]


def test_illegal_play_raises_and_changes_nothing() -> None:
    pos = board(["KS QS", "TS"], "JS", rest=7)
    game = Game(position=pos)
    with pytest.raises(IllegalMoveError, match="10♠ cannot go on Q♠: needs J♠"):
        game.play(m("21"))
    assert game.position == pos and game.actions == []


def test_a_group_move_is_one_action() -> None:
    pos = board(["KH", "2D KS QS JS TS", "", "JH"], "QH", rest=7)
    game = Game(position=pos)
    game.play(m("a1"))
    action = game.play(m("23x4"))
    assert action.moves == (m("23x4"),) and len(game.actions) == 2
    assert game.position.columns[2] == tuple(Card.from_text(t) for t in ["KS", "QS", "JS", "TS"])
    game.undo()
    assert game.position.columns[1][-1] == Card.from_text("TS") and len(game.actions) == 1


# -- home move and smart move (the app rules' order) ---------------------------------


def test_tap_sends_a_card_home_when_allowed() -> None:
    pos = board(["KS 3H", "2H"], "AH", rest=7)
    game = Game(position=pos)
    assert game.home_move(column(0)) is None and game.actions == []
    assert game.home_move(column(1)) is None  # 2♥ needs A♥ home first
    assert game.home_move(cell(0)) == Action((m("a^"),), 10)
    assert game.home_move(column(1)) == Action((m("2^"),), 10)
    assert game.home_move(foundation(1)) is None
    assert home_move(game.position, column(0)) == m("1^")


def test_smart_move_tries_the_foundation_first() -> None:
    pos = board(["KS 5H", "6H", "4H"], rest=7)
    assert smart_move(pos, column(2)) == m("3^")
    assert smart_move(pos, column(0)) == m("12")


def test_smart_move_prefers_the_longest_accepting_column() -> None:
    rules = preset("alternate")
    pos = board(["9H", "5C 9D", "8C"], rules=rules, rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(pos, column(2)) == m("32")  # 9♦ heads the longer column
    tie = board(["5C 9H", "6C 9D", "8C"], rules=rules, rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(tie, column(2)) == m("31")  # equal lengths: the leftmost


def test_smart_move_moves_the_longest_run_from_a_column() -> None:
    pos = board(["KS TS", "2D 9S 8S 7S"], rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(pos, column(1)) == m("21x3")


def test_smart_move_to_an_empty_column_kings_only() -> None:
    pos = board(["2D KS QS JS", "", "5H", "KH"], "QC", rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(pos, column(0)) == m("12x3")  # the King-headed run
    assert smart_move(pos, column(2)) == m("3b")  # 5♥ may not: a free cell instead
    # A lone King stays: moving its whole column changes nothing.
    assert smart_move(pos, column(3)) == m("4b")
    # The first column empty: a King from a cell goes there, not to another cell.
    first = board(["", "2D KS QS JS", "5H"], "KH", rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(first, cell(0)) == m("a1")


def test_smart_move_to_an_empty_column_any_card() -> None:
    pos = board(
        ["2D QS JS", "", "3D 5H", "KH QH", "4C"],
        "JD",
        rules=preset("easy"),
        rest=7,
        foundations=(0,) * 4,
    )
    assert smart_move(pos, column(0)) == m("12x2")
    assert smart_move(pos, column(2)) == m("32")
    assert smart_move(pos, column(4)) == m("5b")  # 4♣ alone: a cell, not the empty column
    assert smart_move(pos, cell(0)) == m("a2")
    assert smart_move(pos, column(3)) == m("42")  # Q♥ alone, never the whole column


def test_smart_move_falls_back_to_the_leftmost_free_cell() -> None:
    pos = board(["KS 5H", "KH"], "QD - QC", rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(pos, column(0)) == m("1b")


def test_smart_move_gives_none_when_nothing_fits() -> None:
    pos = board(["KS 5H", "KH"], "QD", rest=7, foundations=(0, 0, 0, 0))
    assert smart_move(pos, cell(0)) is None  # cell to cell is refused
    assert smart_move(pos, column(5)) is None  # empty column: nothing to move
    game = Game(position=pos)
    assert game.smart_move(cell(0)) is None and game.actions == []
    assert game.smart_move(column(0)) == Action((m("1b"),), 0)


def test_smart_move_from_a_foundation_takes_a_card_back() -> None:
    pos = board(["KH", "KS QS", ""], rules=preset("app"), rest=7)
    assert smart_move(pos, foundation(1)) == m("^H1")  # Q♥ onto K♥, never "home" again
    assert smart_move(pos, foundation(3)) == m("^C3")  # K♣ fills the empty column
    assert smart_move(board(["KH", "KS QS", ""], rest=7), foundation(1)) is None  # no take-back


# -- autoplay ----------------------------------------------------------------------


def test_autoplay_plays_every_foundation_move_in_suit_and_undoes_with_the_move() -> None:
    game = Game(position=suit_columns(), autoplay=True)
    action = game.play(m("1^"))
    assert action.move == m("1^") and len(action.moves) == 52
    assert action.autoplayed == tuple(action.moves[1:])
    assert game.status is Status.WON and game.score == 520 and action.points == 520
    assert game.undo() == action
    assert game.position == game.start and game.score == 0


def test_autoplay_is_off_by_default_and_can_be_switched() -> None:
    game = Game(position=suit_columns())
    assert not game.autoplay
    assert game.play(m("1^")).moves == (m("1^"),)
    assert game.autoplay_moves()[:2] == [m("1^"), m("1^")]
    game.autoplay = True
    assert len(game.play(m("2^")).moves) == 51 and game.status is Status.WON


def test_autoplay_under_alternating_colours_plays_only_safe_moves() -> None:
    rules = preset("alternate")
    # ♠ and ♣ home to 2, 3♥ and 4♥ and 3♦ exposed.
    pos = board(["KS 3S", "KC 3C", "KH 4H", "KD 3H", "3D"], rules=rules, rest=7)
    assert pos.foundations == (2, 2, 2, 2)
    assert is_safe_home(pos, Card.from_text("3H"))  # both black foundations hold 2
    assert not is_safe_home(pos, Card.from_text("4H"))
    # Each round scans from the left: 4♥ goes once 3♥ is home and both blacks hold 3.
    assert autoplay_moves(pos) == [m("1^"), m("2^"), m("4^"), m("3^"), m("5^")]


def test_autoplay_leaves_an_unsafe_card_in_its_cell() -> None:
    # K♥ may go home from cell a, but ♠ is at J: not safe in alternating colours.
    pos = board(["KS QS"], "KH", rules=preset("alternate"), foundations=(11, 12, 13, 13))
    assert autoplay_moves(pos) == [m("1^"), m("1^"), m("a^")]
    stuck = board(["QS KS"], "KH", rules=preset("alternate"), foundations=(11, 12, 13, 13))
    assert autoplay_moves(stuck) == []


def test_autoplay_under_alternating_colours_waits_for_the_other_colour() -> None:
    cols = ["KS 3H", "KC 2S", "KH 2C"]
    pos = board(cols, rules=preset("alternate"), rest=7, foundations=(1, 2, 2, 1))
    assert not is_safe_home(pos, Card.from_text("3H"))  # ♠ and ♣ hold only the ace
    assert autoplay_moves(pos) == [m("2^"), m("3^"), m("1^")]
    # In a game: the player's 2♠ goes home, 3♥ stays (♣ holds only the ace).
    cols[2] = "KH"
    pos = board(cols, rules=preset("alternate"), rest=7, foundations=(1, 2, 2, 1))
    game = Game(position=pos, autoplay=True)
    assert game.play(m("2^")).moves == (m("2^"),)
    assert game.position.columns[0][-1] == Card.from_text("3H")
    # Building in suit every foundation move is safe.
    game = Game(position=board(cols, rest=7, foundations=(1, 2, 2, 1)), autoplay=True)
    assert game.play(m("2^")).moves == (m("2^"), m("1^"))


def test_alternate_safety_rule() -> None:
    rules = preset("alternate")
    pos = board(["KS 2S", "KC 5C", "KH 6H", "KD 4D", "AH"], rules=rules, rest=7)
    # Foundations: ♠ A, ♥ 0, ♦ 3, ♣ 4.
    assert pos.foundations == (1, 0, 3, 4)
    assert is_safe_home(pos, Card.from_text("AH"))
    assert is_safe_home(pos, Card.from_text("2S"))  # rank 2 is always safe
    assert not is_safe_home(pos, Card.from_text("4D"))  # needs both blacks at 3; ♠ is at 1
    assert not is_safe_home(pos, Card.from_text("5C"))  # needs both reds at 4
    assert autoplay_moves(pos) == [m("1^"), m("5^")]


RANKS = "A23456789TJQK"
OTHER_COLOUR = {"S": "HD", "C": "HD", "H": "SC", "D": "SC"}


def with_foundations(founds: list[int], rules: Rules) -> Position:
    """Every card not home over the columns, in card order."""
    left = [c for c in CARDS if c.rank > founds[c.suit]]
    return Position([left[i::8] for i in range(8)], foundations=founds, rules=rules)


def test_safe_home_table_over_every_card_and_foundation_heights() -> None:
    # The web game's FAQ: building in suit every foundation move is safe. In alternating
    # colours (the usual FreeCell rule): an Ace or a 2, or once both foundations of the
    # other colour hold at least the rank below.
    for text, build in itertools.product([r + s for s in "SHDC" for r in RANKS], Build):
        rank, suit = RANKS.index(text[0]) + 1, text[1]
        for heights in itertools.product(range(rank - 3, rank + 1), repeat=3):
            founds = [min(13, max(0, h)) for h in heights]
            founds.insert("SHDC".index(suit), rank - 1)  # the card may go home
            pos = with_foundations(founds, Rules(build=build))
            other = [founds["SHDC".index(o)] for o in OTHER_COLOUR[suit]]
            expected = build is Build.SUIT or rank <= 2 or min(other) >= rank - 1
            assert is_safe_home(pos, Card.from_text(text)) is expected, (text, founds, build)


def test_finish_moves_sends_every_card_home_safe_or_not() -> None:
    rules = preset("alternate")
    # K♥ may go home now but is not safe to (♠ is at J): finishing sends it too.
    pos = board(["KH", "KS QS"], rules=rules, foundations=(11, 12, 13, 13))
    assert not is_safe_home(pos, Card.from_text("KH"))
    assert finish_moves(pos) == [m("1^"), m("2^"), m("2^")]
    for move in [m("1^"), m("2^"), m("2^")]:
        pos = pos.apply(move)
    assert pos.is_won()
    assert finish_moves(pos) is None  # nothing left to finish
    blocked = board(["QS KS"], foundations=(11, 13, 13, 13))
    assert finish_moves(blocked) is None  # K♠ must move off Q♠ first
    cell_last = board(["KS"], "QS", foundations=(11, 13, 13, 13))
    assert finish_moves(cell_last) == [m("a^"), m("1^")]


def test_settle_plays_the_safe_moves_as_one_action() -> None:
    game = Game(position=suit_columns())
    assert game.settle() == [m("1^")] * 13 + [m("2^")] * 13 + [m("3^")] * 13 + [m("4^")] * 13
    assert game.status is Status.WON and len(game.actions) == 1
    action = game.actions[0]
    assert action.cards[:2] == (Card.from_text("AS"), Card.from_text("2S"))
    assert action.points == 520 and game.settle() == []
    game.undo()
    assert game.position == suit_columns() and game.settle() != []


def test_an_action_names_the_cards_it_carried() -> None:
    game = Game(position=board(["KD QS JS", "KS"], rest=7))
    assert game.play(m("1a")).cards == (Card.from_text("JS"),)
    assert game.play(m("a1")).cards == (Card.from_text("JS"),)
    assert game.play(Move(column(0), column(1), 2)).cards == (Card.from_text("QS"),)
    assert [a.cards for a in game.actions] == [
        (Card.from_text("JS"),),
        (Card.from_text("JS"),),
        (Card.from_text("QS"),),
    ]


def test_positions_are_each_actions_position() -> None:
    game = Game(GameCode(STANDARD, 3))
    expected = [game.position]
    for _ in range(12):
        move = game.legal_moves()[-1]
        expected.append(expected[-1].apply(move))
        game.play(move)
    assert game.positions() == expected
    for _ in range(5):
        game.undo()
    assert game.positions() == expected[:8] and game.position == expected[7]
    game.redo()
    assert game.positions() == expected[:9]


def test_from_text_plays_without_autoplay_unless_asked() -> None:
    assert Game.from_text("EO1-C8-AAAAAFA").autoplay is False
    assert Game.from_text("EO1-C8-AAAAAFA", autoplay=True).autoplay is True


def test_no_autoplay_after_a_take_back() -> None:
    game = Game(position=suit_columns(rules=preset("app")), autoplay=True)
    game.play(m("1^"))
    assert game.status is Status.WON
    action = game.play(m("^Sa"))
    assert action.moves == (m("^Sa"),) and game.position.cells[0] == Card.from_text("KS")
    assert game.status is Status.PLAYING and game.score == 520
    game.play(m("a^"))
    assert game.score == 520


# -- status ------------------------------------------------------------------------


def test_stuck_when_no_legal_move_is_left() -> None:
    rules = STANDARD.with_options(cells=2)
    pos = board(
        ["AS 5H", "AH 5D", "AD 5C", "AC 5S", "7S", "7H", "7D"], "9S 9H", rules=rules, rest=7
    )
    assert pos.legal_moves() == []
    game = Game(position=pos)
    assert game.view().status is Status.STUCK and game.status is Status.STUCK


def test_status_follows_undo() -> None:
    game = Game(position=suit_columns(), autoplay=True)
    game.play(m("1^"))
    assert game.status is Status.WON
    game.undo()
    assert game.status is Status.PLAYING
    game.redo()
    assert game.status is Status.WON


@pytest.mark.parametrize("where", ["1", "a"])
def test_fifty_one_cards_home_is_not_won_and_the_fifty_second_wins(where: str) -> None:
    # The K♥ alone in column 1 or in cell a: 51 cards home, one move to go.
    pos = board(["KH"] if where == "1" else [], "KH" if where == "a" else "")
    assert pos.cards_home() == 51 and not pos.is_won()
    game = Game(position=pos)
    assert game.status is Status.PLAYING and game.view().status is Status.PLAYING
    assert m(f"{where}^") in game.legal_moves()
    game.play(m(f"{where}^"))
    assert game.position.cards_home() == 52 and game.position.is_won()
    assert game.status is Status.WON and game.view().status is Status.WON


def test_the_view_answers_per_pile() -> None:
    # Q♥ alone in column 1, K♥ in cell a: 51 cards home.
    view = Game(position=board(["QH"], "KH")).view()
    pile = view.pile(column(0))
    assert pile is not None and pile.home == m("1^") and pile.smart == m("1^")
    assert pile.place == column(0) and pile.moves == (m("1^"), *(m(f"1{k}") for k in "bcdefgh"))
    assert view.targets(column(0)) == (foundation(1), *(cell(k) for k in range(1, 8)))
    assert [p.label() for p in view.targets(column(0))][:2] == ["foundation-H", "cell-2"]
    assert view.targets(cell(0)) == tuple(column(j) for j in range(1, 8))
    assert view.pile(column(1)) is None and view.targets(column(1)) == ()
    assert view.target_pile(m("1^")) == foundation(1)


def test_a_king_taken_back_from_a_won_game_leaves_it_playing() -> None:
    won = Position([()] * 8, foundations=(13, 13, 13, 13), rules=preset("app"))
    game = Game(position=won)
    assert game.status is Status.WON and game.view().status is Status.WON
    game.play(m("^Sa"))
    assert game.position.cards_home() == 51
    assert game.status is Status.PLAYING and game.view().status is Status.PLAYING
    game.undo()
    assert game.status is Status.WON


# -- score -------------------------------------------------------------------------


def test_score_counts_first_arrivals_and_undo_removes_them() -> None:
    pos = board(["KH QH", "KS QS", "KD QD JD"], rules=preset("app"), rest=7)
    assert pos.foundations == (11, 11, 10, 13)
    game = Game(position=pos)
    assert game.play(m("1^")).points == 10  # Q♥
    assert game.play(m("^Ha")).points == 0  # take-back: neither earns nor deducts
    assert game.score == 10
    assert game.play(m("a^")).points == 0  # put back up: earns nothing
    assert game.play(m("1^")).points == 10  # K♥
    assert game.score == 20
    game.undo()
    assert game.score == 10
    game.undo()
    game.undo()
    assert game.score == 10
    game.undo()
    assert game.score == 0 and game.undo() is None and game.score == 0
    game.redo()
    assert game.score == 10
    # Q♥ was undone out of the history, so the same card earns again on a new line.
    game.undo()
    assert game.play(m("1^")).points == 10


def test_cards_home_at_the_start_earn_nothing() -> None:
    pos = board(["KH", "KS QS"], rules=preset("app"), rest=7)
    game = Game(position=pos)
    game.play(m("^Ha"))
    assert game.play(m("a^")).points == 0
    assert game.play(m("1^")).points == 10
    assert game.score == 10


def test_a_won_game_scores_520() -> None:
    game = Game(position=suit_columns())
    for k in range(52):
        game.home_move(column(k // 13))
    assert game.status is Status.WON and game.score == 520
    assert len(game.actions) == 52 and all(a.points == 10 for a in game.actions)


# -- replay -------------------------------------------------------------------------


def test_replay_applies_each_move_as_an_action() -> None:
    code = GameCode(STANDARD, 3)
    game = Game(code)
    for _ in range(5):
        game.play(game.legal_moves()[-1])
    server = Game(code, autoplay=True)
    assert server.replay(game.moves) == 5
    assert server.position == game.position and server.moves == game.moves
    assert len(server.actions) == 5 and server.score == game.score


def test_a_long_replay_makes_each_action_once_when_asked() -> None:
    code = GameCode(STANDARD, 3)
    game = Game(code)
    for move in solve(code.position()).moves[:40]:  # a winning line: cards go home
        game.play(move)
    server = Game(code)
    assert server.replay(game.moves) == 40
    assert server.score == game.score > 0 and server.actions == game.actions
    assert server.action(7) is server.actions[7]  # made once, then the same value
    last = server.action(39)
    assert server.undo() is last and server.score == sum(a.points for a in server.actions)
    assert server.redo() is last and server.score == game.score
    server.undo()
    server.play(server.legal_moves()[0])  # drops the undone action: a new one in its place
    assert len(server.actions) == 40 and server.action(39) is not last
    assert server.score == sum(a.points for a in server.actions)


def test_replay_keeps_grouped_actions() -> None:
    game = Game(position=suit_columns(), autoplay=True)
    game.play(m("1^"))
    game.undo()
    game.play(m("2^"))
    other = Game(position=suit_columns(), autoplay=True)
    assert other.replay([a.moves for a in game.actions]) == 52
    assert len(other.actions) == 1 and other.status is Status.WON
    assert other.undo() is not None and other.position == other.start


def test_replay_names_the_first_illegal_move() -> None:
    game = Game(position=board(["KS QS", "TS", "JS"], rest=7))
    with pytest.raises(ReplayError, match=r"^move 2 \(12\) is illegal: J♠ cannot go on 10♠"):
        game.replay([m("31"), m("12"), m("1a")])
    with pytest.raises(ReplayError) as err:
        game.replay([m("1a"), m("aa")])
    assert (err.value.index, err.value.move) == (1, m("aa"))
    assert err.value.reason == "source and target are the same place"
    assert isinstance(err.value, IllegalMoveError)
    assert err.value.code == IllegalMoveError(m("aa"), Illegal.SAME_PLACE, "").code
    assert game.moves == [m("31"), m("1a")]  # the moves before it stay played


def test_replay_takes_moves_not_text() -> None:
    game = Game(position=board(["KS QS", "TS", "JS"], rest=7))
    with pytest.raises(TypeError, match="replay takes Move values, not '3'"):
        game.replay(["31"])  # type: ignore[list-item]
    assert game.actions == []


def test_replay_takes_any_iterable_of_moves() -> None:
    moves = [m("31"), m("1a"), m("a1")]
    listed = Game(position=board(["KS QS", "TS", "JS"], rest=7))
    listed.replay(moves)
    streamed = Game(position=board(["KS QS", "TS", "JS"], rest=7))
    streamed.replay(iter(moves))
    assert streamed.moves == listed.moves == moves
    assert streamed.position == listed.position


def test_positions_are_shared_not_copied() -> None:
    game = Game(position=suit_columns())
    game.play(m("1^"))
    first = game.positions()
    assert first[1] is game.position
    assert game.actions[0].moves == (Move(column(0), FOUNDATION),)
