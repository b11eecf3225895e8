"""One game as the player plays it: the engine's :class:`~eightoff.game.Game`, its clock,
and what it counts in the statistics and keeps on disk.

The app draws and asks; a :class:`Session` keeps the book: the clock runs while the
player has moves on the board and the game is not won, the first move counts the game
as played, a win records its time and moves, giving up ends the streak, and the game in
progress is saved after each change. A game the player has not moved in is never saved,
so it never replaces the game kept from last time.
"""

from __future__ import annotations

from collections.abc import Callable

from eightoff.game import Action, Game, Status
from eightoff.tui.userdata import SavedGame, Stats, UserData


class Session:
    """``game`` played against ``data`` (statistics and the saved game) on ``clock``."""

    def __init__(
        self,
        game: Game,
        data: UserData,
        clock: Callable[[], float],
        *,
        saved: SavedGame | None = None,
    ) -> None:
        self.game = game
        self.data = data
        self._clock = clock
        self.start_action: Action | None = None
        """The deal's own autoplay, when it played one (not a move of the player)."""
        self._seconds = 0.0  # time played while the clock was stopped or before _since
        self._since: float | None = None  # when the clock last started; None: stopped
        self.counted = False
        """Whether the game counts in the statistics (the player moved in it)."""
        self.assisted = False
        """Whether the player played on from the solver's line (a win counts as helped)."""
        self.reported = False
        """Whether the win was recorded."""
        if saved is not None:  # only a counted game is ever saved
            self._seconds = saved.seconds
            self.counted = True
            self.assisted = saved.assisted
            if saved.opening_autoplay and game.actions:
                self.start_action = game.actions[0]
        self.sync()

    # -- what the status line shows ------------------------------------------------

    def moves_played(self) -> int:
        """The player's actions so far (the deal's opening autoplay is not one)."""
        actions = self.game.actions
        return len(actions) - (1 if actions and actions[0] is self.start_action else 0)

    def seconds(self) -> float:
        """Time played on this game: the clock runs only while there is a move of the
        player on the board and the game is not won."""
        if self._since is None:
            return self._seconds
        return self._seconds + self._clock() - self._since

    def running(self) -> bool:
        """Whether the clock runs now."""
        return self._since is not None

    def sync(self) -> None:
        """Start or stop the clock as the game now stands (after every change)."""
        run = self.counted and self.moves_played() > 0 and self.game.status is not Status.WON
        if run and self._since is None:
            self._since = self._clock()
        elif not run and self._since is not None:
            self._seconds = self.seconds()
            self._since = None

    # -- what counts ---------------------------------------------------------------

    def in_progress(self) -> bool:
        """Whether the player has moves on the board of a game not yet won."""
        return self.moves_played() > 0 and self.game.status is not Status.WON

    def gives_up(self) -> bool:
        """Whether leaving this game for another counts it as given up (lost): it was
        started and is not won, even when undone back to its deal."""
        return self.counted and self.game.status is not Status.WON

    def started(self) -> SavedGame | None:
        """The player moved: the first move counts the game as played. A game kept from
        an earlier run, which this one now replaces, is returned (given up)."""
        replaced = None
        if not self.counted:
            self.counted = True
            replaced = self.data.saved_game()
            if replaced is not None:
                self.data.record_abandon(replaced.game.rules)
            self.data.record_start(self.game.rules)
        self.sync()
        return replaced

    def give_up(self) -> None:
        """Leave this game for another: counted as lost when :meth:`gives_up`."""
        if self.gives_up():
            self.data.record_abandon(self.game.rules)
            self.data.clear_game()
        self.counted = False
        self.sync()

    def win(self) -> Stats | None:
        """Record the win once (call when the game is won); the record after it, or
        ``None`` when it was recorded already or the game never counted."""
        self.sync()
        if self.reported or not self.counted or self.game.status is not Status.WON:
            return None
        self.reported = True
        rules = self.game.rules
        if self.assisted:
            return self.data.record_helped(rules)
        return self.data.record_win(rules, self.moves_played(), self.seconds())

    def save(self) -> None:
        """Keep the game to resume it next time: a won game is forgotten; a game the
        player has not moved in leaves the kept one alone."""
        if not self.counted:
            return
        if self.game.status is Status.WON:
            self.data.clear_game()
            return
        opening = bool(self.game.actions) and self.game.actions[0] is self.start_action
        self.data.save_game(SavedGame(self.game, self.seconds(), opening, self.assisted))


__all__ = ["Session"]
