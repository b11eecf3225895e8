"""The terminal face: ``run()`` starts a game of Eight Off in a Textual app.

The app (:class:`eightoff.tui.app.EightOffApp`) only draws the engine's positions
and sends it moves; it holds no rule. Settings, statistics and the game in
progress live in the user's data directory (:mod:`eightoff.tui.userdata`).
"""

from __future__ import annotations

import gc
import random
from pathlib import Path

from eightoff.codes import GameCode
from eightoff.game import Game
from eightoff.rules import Rules
from eightoff.tui.app import EightOffApp
from eightoff.tui.userdata import NewGameChoice, UserData, default_directory


def make_game(
    code: GameCode | None = None, rules: Rules | None = None, *, data: UserData | None = None
) -> Game | None:
    """The game ``run`` plays: ``code``'s deal, else a new deal under ``rules`` as the
    settings ask (winnable, difficulty), else ``None``: the app resumes the saved game
    or deals as the settings say. Autoplay is as the settings say (off by default)."""
    settings = (data if data is not None else UserData(None)).settings
    if code is not None:
        if rules is not None and rules != code.rules:
            raise ValueError("the game code's rules differ from the rules given")
        return Game(code, autoplay=settings.autoplay)
    if rules is None:
        return None
    from eightoff.tui.deals import pick_deal

    choice = NewGameChoice(rules, settings.winnable, settings.difficulty)
    return Game(pick_deal(choice, random.Random()), autoplay=settings.autoplay)


def run(
    code: GameCode | None = None, rules: Rules | None = None, *, data_dir: Path | None = None
) -> None:
    """Play ``code``, or a new deal under ``rules``, or resume the game left last time
    (else a new deal as the settings say) in the terminal."""
    data = UserData(data_dir if data_dir is not None else default_directory())
    start(EightOffApp(make_game(code, rules, data=data), data=data))


def start(app: EightOffApp) -> None:
    """Run ``app`` in the terminal until the player quits."""
    # What the imports made lives as long as the app: the collector need not rescan it
    # (about 0.04 s less CPU to the first drawn board, benchmarks/tui_startup.py).
    gc.freeze()
    app.run()


__all__ = ["EightOffApp", "make_game", "run", "start"]
