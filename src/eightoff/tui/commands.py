"""The game's commands in Textual's command palette (Ctrl+P): new games by difficulty
and rules, a game code to open or copy, restart, hint, the solution, autoplay, help and
statistics."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from eightoff.rules import PRESETS
from eightoff.tui.userdata import DIFFICULTIES

if TYPE_CHECKING:
    from eightoff.tui.control import GameActions

PRESET_TITLES = {
    "standard": "the standard game",
    "easy": "Easy (Facile)",
    "alternate": "alternating colours",
    "bakers": "Baker's Game",
    "app": "the app rules",
}


class GameCommands(Provider):
    """Commands that act on the game."""

    def _commands(self) -> Iterator[tuple[str, Callable[[], object], str]]:
        app: GameActions = self.app  # type: ignore[assignment]
        yield "New game…", app.action_new_game, "Choose difficulty and rules"
        for difficulty in DIFFICULTIES:
            name = "any difficulty" if difficulty == "any" else difficulty
            yield (
                f"New game: {name}",
                partial(app.new_game_with, difficulty=difficulty),
                "A new deal under the current rules",
            )
        for key, rules in PRESETS.items():
            yield (
                f"New game: {PRESET_TITLES[key]}",
                partial(app.new_game_with, rules=rules),
                rules.describe(),
            )
        yield "Open a game code", app.action_open_code, "Play a deal by its code"
        yield "Copy the game code", app.action_copy_code, f"{app.game.code} (key y)"
        yield "Deal of the day", app.action_daily, "Today's deal, the same for everyone"
        yield "Restart this deal", app.action_restart, "Back to the start (redo replays)"
        yield "Hint", app.action_hint, "The solver's next move on a winning line"
        yield "Show the solution", app.action_solution, "Step through the solver's line"
        on = app.game.autoplay
        yield (
            f"Autoplay: turn {'off' if on else 'on'}",
            app.action_toggle_autoplay,
            "Safe cards go to the foundations by themselves",
        )
        yield "Help: rules and keys", app.action_help, "The rules and every key"
        yield "Statistics", app.action_stats, "Games played and won under each rule set"

    async def discover(self) -> Hits:
        for title, callback, help_text in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)


__all__ = ["GameCommands"]
