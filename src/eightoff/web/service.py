"""The work behind the routes: replaying games, and running the solver within the
limits (at most ``max_solvers`` calls at once, each with its time budget)."""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, TypeVar

from eightoff.cards import CARDS, Card
from eightoff.codes import GameCode, InvalidGameCodeError
from eightoff.daily import Daily, parse_date
from eightoff.difficulty import ANY
from eightoff.errors import InvalidCardError
from eightoff.formats import move_from_json, move_to_json, moves_to_json, view_to_json
from eightoff.game import Game, ReplayError
from eightoff.moves import InvalidMoveError, Move
from eightoff.pool import Pool
from eightoff.position import Position
from eightoff.rules import Rules, preset
from eightoff.solver import Limit
from eightoff.verdicts import UNSURVEYED_TEXT, draw_won, shipped
from eightoff.web.errors import ApiError
from eightoff.web.limits import Limits
from eightoff.web.models import BAD_GAME_CODE, GameRequest, NewRequest, StateRequest
from eightoff.web.solving import (
    CANDIDATES,
    REPLAY_NICENESS,
    SolverProcesses,
    hint_job,
    notation,
    solve_job,
    winnable_job,
    won_codes_job,
)

_T = TypeVar("_T")


class GameService:
    """Replays games and runs the solver within the limits."""

    def __init__(
        self, limits: Limits, pool_path: str | os.PathLike[str] | None, rng: random.Random
    ):
        self.limits = limits
        self.rng = rng
        self.rng_lock = threading.Lock()
        self.solvers = threading.BoundedSemaphore(limits.max_solvers)
        self.processes = SolverProcesses(limits.max_solvers)
        self.replays = SolverProcesses(limits.heavy_replays, niceness=REPLAY_NICENESS)
        self.pool = Pool(None if pool_path is None else Path(pool_path))  # None: shipped pool

    # Routes ------------------------------------------------------------------------

    def new(self, req: NewRequest) -> dict[str, Any]:
        winnable: bool | None = None
        if req.code is not None:
            code = _parse_code(req.code)
        else:
            rules = rules_of(req.rules)
            if req.winnable:
                code, winnable = self._winnable_code(rules, req.difficulty)
            else:
                with self.rng_lock:
                    code = GameCode.random(rules, self.rng)
        return self._started(code, winnable)

    def daily(self, day_text: str | None, preset_name: str) -> dict[str, Any]:
        day = datetime.now(UTC).date() if day_text is None else parse_date(day_text)
        rules = preset(preset_name)
        with self._solver_slot():  # a few ms, then cached for the day
            found = Daily.of(day, rules)
        out = self._started(found.code, True)
        out.update(date=day.isoformat(), solver_moves=found.solver_moves)
        return out

    def daily_ahead(self, day_text: str | None, days: int, preset_name: str) -> dict[str, Any]:
        first = datetime.now(UTC).date() if day_text is None else parse_date(day_text)
        rules = preset(preset_name)
        if first > date.max - timedelta(days=days - 1):
            raise ApiError(400, f"{days} days from {first.isoformat()} run past {date.max}")
        found = []
        with self._solver_slot():  # a few ms a day, then cached
            for k in range(days):
                day = Daily.of(first + timedelta(days=k), rules)
                found.append(
                    {
                        "date": day.day.isoformat(),
                        "code": str(day.code),
                        "solver_moves": day.solver_moves,
                    }
                )
        return {"rules": rules.to_json(), "days": found}

    def pool_codes(self, rules: Rules, difficulty: str, count: int) -> dict[str, Any]:
        """Up to ``count`` distinct codes of deals the solver has won, drawn as ``/api/new``
        draws one: from the pool (of ``difficulty`` when it has some), else from the
        shipped survey's won deals, else random deals solved now."""
        rating = None if difficulty == ANY else difficulty
        with self.rng_lock:
            numbers = [] if rating is None else self.pool.sample(rules, self.rng, count, rating)
            if not numbers:
                numbers = self.pool.sample(rules, self.rng, count)
            if not numbers:  # a variant whose deals are often lost: its surveyed won deals
                drawn = (draw_won(rules, self.rng) for _ in range(4 * count))
                numbers = list(dict.fromkeys(n for n in drawn if n is not None))[:count]
        codes = [GameCode(rules, n) for n in numbers]
        if not codes:
            with self.rng_lock:
                candidates = [GameCode.random(rules, self.rng) for _ in range(CANDIDATES)]
            with self._solver_slot():
                codes = self._run(
                    won_codes_job,
                    candidates,
                    self._limit(self.limits.deal_seconds),
                    self.limits.new_seconds,
                    count,
                )
        return {
            "rules": rules.to_json(),
            "difficulty": difficulty,
            "codes": [str(code) for code in codes],
        }

    def state(self, req: StateRequest) -> dict[str, Any]:
        try:
            game = self._replay(req)
        except ApiError as exc:
            if not (req.refusal_ok and exc.status == 422 and "index" in exc.extra):
                raise
            return {"refused": {"error": exc.message, **exc.extra}}
        before = game.position
        autoplayed = game.settle() if req.autoplay else []  # one action, as the page records
        out = view_to_json(game.view())
        out["moves_applied"] = len(req.moves)
        out["autoplayed"] = moves_to_json(autoplayed, before, text=True)
        return out

    def _limit(self, seconds: float) -> Limit:
        # A solver call's budget: its seconds, and tables bounded for a shared server.
        return Limit(
            nodes=self.limits.solver_nodes, seconds=seconds, memory=self.limits.solver_memory
        )

    def hint(self, req: GameRequest) -> dict[str, Any]:
        game = self._replay(req)
        with self._solver_slot():
            found = self._run(
                hint_job, game.code, notation(game.moves), self._limit(self.limits.hint_seconds)
            )
        move = None
        if found.move is not None:
            at = game.position if found.undo_to is None else game.positions()[found.undo_to]
            move = move_to_json(found.move, at, text=True)
        return {
            "move": move,
            "winnable": found.winnable,
            "undo_to": found.undo_to,
            "detail": found.detail,
        }

    def solve(self, req: GameRequest) -> dict[str, Any]:
        game = self._replay(req)
        with self._solver_slot():
            out: dict[str, Any] = self._run(
                solve_job, game.code, notation(game.moves), self._limit(self.limits.solve_seconds)
            )
        return out

    # Helpers -----------------------------------------------------------------------

    def _replay(self, req: GameRequest) -> Game:
        """The game after ``req.moves``; unreadable or illegal move → 422 with its index.

        Fast path: read every move, replay them in one go, then check each ``card`` field
        against the position it was played in (the first problem in list order wins).
        """
        if len(req.moves) > self.limits.max_moves:
            raise ApiError(
                422,
                f"too many moves: {len(req.moves)}, at most {self.limits.max_moves} per request",
            )
        code, start = _dealt(req.code)
        game = Game(code, position=start)
        moves: list[Move] = []
        named: list[int] = []  # the moves given as objects naming their card
        unreadable: InvalidMoveError | None = None
        known = _READ.get
        for obj in req.moves:
            move = known(obj) if isinstance(obj, str) else None  # the page's usual move
            if move is None:
                try:
                    move = _read_move(obj)
                except InvalidMoveError as exc:
                    unreadable = exc
                    break
                if not isinstance(obj, str) and obj.get("card") is not None:
                    named.append(len(moves))
            moves.append(move)
        illegal: ReplayError | None = None
        played = len(moves)
        try:
            game.replay(moves)
        except ReplayError as exc:
            illegal, played = exc, exc.index
        # Each action is one move here: its card is the one move i carried.
        for i in named:
            if i >= played:
                break
            obj = req.moves[i]
            assert not isinstance(obj, str)
            card = obj["card"]
            if not _names(card, game.action(i).cards[0]):
                try:  # another card: the reader says what is wrong
                    move_from_json(obj, game.positions()[i])
                except InvalidMoveError as exc:
                    raise ApiError(
                        422, f"move {i} cannot be read: {exc}", index=i, reason=exc.reason
                    ) from None
        if illegal is not None:
            i = illegal.index
            raise ApiError(
                422,
                f"move {i} ({illegal.move}) is illegal: {illegal.reason}",
                index=i,
                reason=illegal.reason,
                reason_code=illegal.code.value,
            )
        if unreadable is not None:
            i = len(moves)
            raise ApiError(
                422, f"move {i} cannot be read: {unreadable}", index=i, reason=unreadable.reason
            )
        return game

    def _started(self, code: GameCode, winnable: bool | None) -> dict[str, Any]:
        """The answer for a game starting from the deal of ``code``."""
        out: dict[str, Any] = {"code": str(code), "winnable": winnable}
        out.update(view_to_json(Game(code).view()))
        out["rules"] = code.rules.to_json()
        out["rules_text"] = code.rules.describe()
        return out

    def _winnable_code(
        self, rules: Rules, difficulty: str | None = None
    ) -> tuple[GameCode, bool | None]:
        """A deal the solver has won: from the pool (of ``difficulty`` when it has one),
        else a won deal of the shipped survey where random deals are often lost, else
        random deals solved briefly."""
        with self.rng_lock:
            number = None if difficulty is None else self.pool.draw(rules, self.rng, difficulty)
            if number is None:
                number = self.pool.draw(rules, self.rng)
            if number is None:  # a variant whose deals are often lost: its surveyed won deals
                number = draw_won(rules, self.rng)
        if number is not None:
            return GameCode(rules, number), True
        with self.rng_lock:
            candidates = [GameCode.random(rules, self.rng) for _ in range(CANDIDATES)]
        with self._solver_slot():
            found: tuple[GameCode, bool | None] = self._run(
                winnable_job,
                candidates,
                self._limit(self.limits.deal_seconds),
                self.limits.new_seconds,
            )
        return found

    def _run(self, job: Callable[..., _T], *args: Any) -> _T:
        try:
            return self.processes.run(job, *args)
        except BrokenExecutor:  # a solver process died (e.g. killed): the next call restarts
            raise ApiError(
                503, "the solver stopped; try again in a moment", retry_after=1
            ) from None

    @contextmanager
    def _solver_slot(self) -> Iterator[None]:
        if not self.solvers.acquire(timeout=self.limits.busy_wait):
            raise ApiError(
                429,
                "the solver is busy with other requests; try again in a moment",
                retry_after=1,
            )
        try:
            yield
        finally:
            self.solvers.release()


_READ: Final[dict[str, Move]] = {}  # moves read before, by their exact JSON or text
_READ_CAP: Final = 20_000
_KEY_CAP: Final = 200  # longer texts are read afresh, not remembered


def rules_of(value: str | dict[str, Any]) -> Rules:
    """The rule set a request names (a preset, or options on an optional preset)."""
    if isinstance(value, dict) and not isinstance(value.get("preset", ""), str):
        raise ApiError(400, 'rules.preset must be a preset name, like "standard"')
    return Rules.from_json(value)


def rules_param(text: str) -> Rules:
    """The rule set a query names: a preset name, or the rule options as a JSON object
    (what ``rules`` is in a request body)."""
    if not text.lstrip().startswith("{"):
        return rules_of(text)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise ApiError(400, "rules must be a preset name or a JSON object of rule options")
    return rules_of(value)


def winnability(rules: Rules) -> dict[str, Any]:
    """The answer of ``/api/winnability`` for ``rules``."""
    out: dict[str, Any] = {"rules": rules.to_json()}
    found = shipped().find(rules)
    if found is None:
        keys = ("surveyed", "won", "lost", "unknown", "kind", "percent", "one_in")
        return out | dict.fromkeys(keys) | {"text": UNSURVEYED_TEXT}
    odds = found.odds()
    return out | {
        "surveyed": [found.low, found.high],
        "won": found.won,
        "lost": found.lost,
        "unknown": odds.unknown,
        "kind": odds.kind,
        "percent": odds.percent,
        "one_in": odds.one_in,
        "text": odds.text(),
    }


def _read_move(obj: dict[str, Any] | str) -> Move:
    """A move from its JSON object or compact text (raises ``InvalidMoveError``).

    Games repeat a few hundred distinct moves, so each one read is remembered by its
    exact content: the text itself, or the object's ``repr`` (every key and value with
    its type: ``1``, ``1.0`` and ``true`` differ).
    """
    key = obj if isinstance(obj, str) else repr(obj)
    move = _READ.get(key)
    if move is None:
        move = Move.from_text(obj) if isinstance(obj, str) else move_from_json(obj)
        if len(key) <= _KEY_CAP and len(_READ) < _READ_CAP:
            _READ[key] = move
    return move


_CARD_TEXT: Final = tuple(str(card) for card in CARDS)  # "7H": as move_to_json writes it


def _names(text: str, card: Card) -> bool:
    # Whether text (already read once as a card) names card: "7H" as written, else read.
    if text == _CARD_TEXT[card]:
        return True
    try:
        return Card.from_text(text) == card
    except InvalidCardError:
        return False


@lru_cache(maxsize=1024)
def _dealt(text: str) -> tuple[GameCode, Position]:
    """The game code ``text`` names and its deal, remembered: a page sends its code with
    every move (a bad code raises ApiError, and is not remembered)."""
    code = _parse_code(text)
    return code, code.position()


def _parse_code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InvalidGameCodeError as exc:
        said = f"unknown game code: {exc}"  # and the fault, for a page to say in its words
        raise ApiError(400, said, reason_code=BAD_GAME_CODE, fault=exc.json()) from None


__all__ = ["GameService", "rules_of", "rules_param", "winnability"]
