"""What the terminal game keeps between runs: settings, statistics per rule set, and the
game in progress, as small JSON files in the user's data directory.

``UserData(None)`` keeps everything in memory only (tests, ``--no-save`` runs); a file
that cannot be read is treated as absent, never as an error the player sees.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from eightoff.codes import GameCode
from eightoff.difficulty import DIFFICULTIES as DIFFICULTIES
from eightoff.game import Game, ReplayError
from eightoff.moves import Move
from eightoff.rules import STANDARD, InvalidRulesError, Rules


def rules_key(rules: Rules) -> str:
    """The key a rule set's record is kept under (the survey store's, so they agree)."""
    from eightoff.store import rules_key as key  # sqlite3 is not needed to start the game

    return key(rules)


def default_directory() -> Path:
    """The user's data directory for eightoff (platformdirs: XDG on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("eightoff", appauthor=False))


@dataclass(frozen=True, slots=True)
class Settings:
    """The player's choices: autoplay (off by default, as in every face) and new deals."""

    autoplay: bool = False
    winnable: bool = True
    difficulty: str = "any"
    rules: Rules = STANDARD
    theme: str | None = None
    """The Textual theme chosen last (``None``: Textual's default)."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {**asdict(self), "rules": self.rules.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Read :meth:`to_json`'s output; unknown or bad values fall back to the defaults."""
        if not isinstance(data, dict):
            return cls()
        out = cls()
        for name in ("autoplay", "winnable"):
            if isinstance(data.get(name), bool):
                out = replace(out, **{name: data[name]})
        if data.get("difficulty") in DIFFICULTIES:
            out = replace(out, difficulty=data["difficulty"])
        if isinstance(data.get("theme"), str):
            out = replace(out, theme=data["theme"])
        with contextlib.suppress(InvalidRulesError, TypeError):
            out = replace(out, rules=Rules.from_json(data.get("rules", "standard")))
        return out


@dataclass(frozen=True, slots=True)
class NewGameChoice:
    """What a new game asks for: rules, and how to pick the deal (or the deal itself)."""

    rules: Rules
    winnable: bool
    difficulty: str
    daily: bool = False
    code: GameCode | None = None
    """The game code typed in: this deal."""


def clock(seconds: float) -> str:
    """``4:07`` or ``1:02:03``."""
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02}:{sec:02}" if h else f"{m}:{sec:02}"


@dataclass(slots=True)
class Stats:
    """One rule set's record: games played and won (alone, or with the solver's help),
    streaks, best time and fewest moves."""

    played: int = 0
    won: int = 0
    helped: int = 0
    streak: int = 0
    best_streak: int = 0
    best_time: float | None = None
    fewest_moves: int | None = None

    @classmethod
    def from_json(cls, data: Any) -> Stats:
        """Read a stored record (bad fields become their defaults)."""
        out = cls()
        if isinstance(data, dict):
            for name in ("played", "won", "helped", "streak", "best_streak", "fewest_moves"):
                value = data.get(name)
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    setattr(out, name, value)
            value = data.get("best_time")
            if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
                out.best_time = float(value)
        return out


@dataclass(slots=True)
class SavedGame:
    """A game in progress as kept on disk: its code, its actions, the time played,
    whether its first action is the deal's own autoplay (not a move of the player), and
    whether the player played on from the solver's line."""

    game: Game
    seconds: float = 0.0
    opening_autoplay: bool = False
    assisted: bool = False

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (a game without a code is not kept)."""
        assert self.game.code is not None
        return {
            "code": str(self.game.code),
            "autoplay": self.game.autoplay,
            "actions": [[m.text() for m in a.moves] for a in self.game.actions],
            "seconds": round(self.seconds, 1),
            "opening_autoplay": self.opening_autoplay,
            "assisted": self.assisted,
        }

    @classmethod
    def from_json(cls, data: Any) -> SavedGame | None:
        """The saved game, or ``None`` when the data is not a playable saved game."""
        if not isinstance(data, dict):
            return None
        try:
            code = GameCode.parse(str(data["code"]))
            game = Game(code, autoplay=bool(data.get("autoplay", False)))
            game.replay([[Move.from_text(str(t)) for t in group] for group in data["actions"]])
            seconds = float(data.get("seconds", 0.0))
        except (KeyError, TypeError, ValueError, ReplayError):
            return None
        return cls(
            game,
            max(0.0, seconds),
            bool(data.get("opening_autoplay", False)),
            bool(data.get("assisted", False)),
        )


class UserData:
    """Settings, statistics and the saved game in ``directory`` (``None``: memory only)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._files: dict[str, Any] = {}

    def _read(self, name: str) -> Any:
        if name not in self._files:
            data: Any = None
            if self.directory is not None:
                try:
                    data = json.loads((self.directory / name).read_text("utf-8"))
                except (OSError, ValueError):
                    data = None
            self._files[name] = data
        return self._files[name]

    def _write(self, name: str, data: Any) -> None:
        self._files[name] = data
        if self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / name
            temp = path.with_suffix(".tmp")
            temp.write_text(json.dumps(data, indent=1), "utf-8")
            os.replace(temp, path)
        except OSError:
            pass  # a read-only home: the game still plays, it just forgets

    # -- settings ------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The stored settings (defaults when none)."""
        return Settings.from_json(self._read("settings.json"))

    @settings.setter
    def settings(self, value: Settings) -> None:
        self._write("settings.json", value.to_json())

    # -- statistics ----------------------------------------------------------------

    def stats(self, rules: Rules) -> Stats:
        """The record of ``rules`` (zeros when never played)."""
        data = self._read("stats.json")
        entry = data.get(rules_key(rules)) if isinstance(data, dict) else None
        return Stats.from_json(entry)

    def _put_stats(self, rules: Rules, stats: Stats) -> None:
        data = self._read("stats.json")
        data = dict(data) if isinstance(data, dict) else {}
        data[rules_key(rules)] = asdict(stats)
        self._write("stats.json", data)

    def record_start(self, rules: Rules) -> Stats:
        """A game under ``rules`` was started (its first move played)."""
        stats = self.stats(rules)
        stats.played += 1
        self._put_stats(rules, stats)
        return stats

    def record_win(self, rules: Rules, moves: int, seconds: float) -> Stats:
        """A game under ``rules`` was won in ``moves`` moves and ``seconds``."""
        stats = self.stats(rules)
        stats.won += 1
        stats.streak += 1
        stats.best_streak = max(stats.best_streak, stats.streak)
        stats.best_time = seconds if stats.best_time is None else min(stats.best_time, seconds)
        stats.fewest_moves = moves if stats.fewest_moves is None else min(stats.fewest_moves, moves)
        self._put_stats(rules, stats)
        return stats

    def record_helped(self, rules: Rules) -> Stats:
        """A game under ``rules`` was won after playing the solver's line: solved with
        help, not a win; the streak ends."""
        stats = self.stats(rules)
        stats.helped += 1
        stats.streak = 0
        self._put_stats(rules, stats)
        return stats

    def all_stats(self) -> list[tuple[Rules, Stats]]:
        """Every rule set's record, in the order first played."""
        from eightoff.store import rules_from_key

        data = self._read("stats.json")
        out = []
        for key, entry in data.items() if isinstance(data, dict) else ():
            with contextlib.suppress(InvalidRulesError, TypeError, ValueError):
                out.append((rules_from_key(key), Stats.from_json(entry)))
        return out

    def record_abandon(self, rules: Rules) -> Stats:
        """A started game under ``rules`` was given up: the streak ends."""
        stats = self.stats(rules)
        stats.streak = 0
        self._put_stats(rules, stats)
        return stats

    # -- the game in progress ------------------------------------------------------

    def saved_game(self) -> SavedGame | None:
        """The game left in progress last time, if any."""
        return SavedGame.from_json(self._read("game.json"))

    def save_game(self, saved: SavedGame) -> None:
        """Keep ``saved`` to resume it next time (a game without a code is not kept)."""
        if saved.game.code is not None:
            self._write("game.json", saved.to_json())

    def clear_game(self) -> None:
        """Forget the saved game (it was won or given up)."""
        self._files["game.json"] = None
        if self.directory is not None:
            with contextlib.suppress(OSError):
                (self.directory / "game.json").unlink(missing_ok=True)


__all__ = [
    "DIFFICULTIES",
    "NewGameChoice",
    "SavedGame",
    "Settings",
    "Stats",
    "UserData",
    "clock",
    "default_directory",
]
