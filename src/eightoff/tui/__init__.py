"""The terminal face: ``run()`` starts a game of Eight Off in a Textual app.

The app (:class:`eightoff.tui.app.EightOffApp`) only draws the engine's positions
and sends it moves; it holds no rule.
"""

from __future__ import annotations

from eightoff.codes import GameCode
from eightoff.game import Game
from eightoff.rules import STANDARD, Rules
from eightoff.tui.app import EightOffApp


def make_game(code: GameCode | None = None, rules: Rules | None = None) -> Game:
    """The game ``run`` plays: ``code``'s deal, else a random deal under ``rules``; autoplay on."""
    if code is None:
        code = GameCode.random(STANDARD if rules is None else rules)
    elif rules is not None and rules != code.rules:
        raise ValueError("the game code's rules differ from the rules given")
    return Game(code, autoplay=True)


def run(code: GameCode | None = None, rules: Rules | None = None) -> None:
    """Play ``code`` (or a random deal under ``rules``, standard by default) in the terminal."""
    EightOffApp(make_game(code, rules)).run()


__all__ = ["EightOffApp", "make_game", "run"]
