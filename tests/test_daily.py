"""The deal of the day: one winnable deal per date, from the date alone; its API route."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from fastapi.testclient import TestClient

from eightoff import daily
from eightoff.codes import GameCode
from eightoff.daily import NODES, Daily, DailyError, parse_date, share_text, start_number
from eightoff.deal import DEALS
from eightoff.game import Game
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, Verdict, solve
from eightoff.web.app import DailyAnswer, create_app

LIMIT = Limit(nodes=NODES, seconds=None)
DAY = date(2026, 11, 30)


def test_the_same_date_gives_the_same_deal_and_dates_differ() -> None:
    days = [DAY + timedelta(days=i) for i in range(30)]
    codes = [Daily.of(d).code for d in days]
    daily._daily.cache_clear()  # computed again from the date alone
    assert codes == [Daily.of(d).code for d in days]
    assert len(set(codes)) == 30
    assert all(c.rules == STANDARD and c.source == "eightoff" for c in codes)


def test_the_deal_is_winnable_and_the_par_is_the_solver_line() -> None:
    for i in range(5):
        day = Daily.of(DAY + timedelta(days=i))
        result = solve(day.code.position(), limit=LIMIT)
        assert result.verdict is Verdict.SOLVED
        assert day.solver_moves == result.length > 0
        game = Game(day.code)
        game.replay(list(result.moves))
        assert game.position.is_won()


def test_losing_candidates_are_stepped_over() -> None:
    # Baker's Game has lost deals: find days whose first candidate was skipped.
    bakers = PRESETS["bakers"]
    stepped = 0
    for i in range(40):
        d = DAY + timedelta(days=i)
        day = Daily.of(d, bakers)
        start = start_number(d, bakers)
        assert day.code.rules == bakers
        skipped = (day.code.deal - start) % DEALS
        for k in range(skipped):
            lost = solve(GameCode(bakers, (start + k) % DEALS).position(), limit=LIMIT)
            assert lost.verdict is not Verdict.SOLVED
        stepped += skipped > 0
    assert stepped >= 3  # about one day in six starts on a lost deal
    # Other rules hash to other deals than the standard game on the same date.
    assert start_number(DAY, bakers) != start_number(DAY)


def test_dates_are_read_strictly() -> None:
    assert parse_date("2026-11-30") == DAY
    for bad in ("30/11/2026", "2026-11-31", "2026-1-5", "", "20261130", "2026-11-30T00:00"):
        with pytest.raises(DailyError):
            parse_date(bad)


def test_share_text() -> None:
    assert share_text(DAY, 84, 0) == "Eight Off — 30 Nov 2026 — won in 84 moves, no hints"
    assert share_text(date(2027, 1, 2), 90, 1) == "Eight Off — 2 Jan 2027 — won in 90 moves, 1 hint"
    assert share_text(DAY, 101, 3).endswith("won in 101 moves, 3 hints")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=1))


def test_api_daily_answers_the_deal_of_the_date(client: TestClient) -> None:
    answer = client.get("/api/daily", params={"date": "2026-11-30"})
    assert answer.status_code == 200
    data = answer.json()
    DailyAnswer.model_validate(data)
    day = Daily.of(DAY)
    assert data["code"] == str(day.code)
    assert data["date"] == "2026-11-30"
    assert data["winnable"] is True
    assert data["solver_moves"] == day.solver_moves
    started = client.post("/api/new", json={"code": data["code"]}).json()
    assert data["position"] == started["position"]
    assert data["legal_moves"] == started["legal_moves"]
    other = client.get("/api/daily", params={"date": "2026-12-01", "rules": "alternate"}).json()
    assert other["code"] == str(Daily.of(date(2026, 12, 1), PRESETS["alternate"]).code)
    assert other["rules"] == PRESETS["alternate"].to_json()


def test_api_daily_without_a_date_is_today_in_utc(client: TestClient) -> None:
    data = client.get("/api/daily").json()
    assert data["date"] in {(date.today() + timedelta(days=k)).isoformat() for k in (-1, 0, 1)}
    assert data["code"] == str(Daily.of(parse_date(data["date"])).code)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"date": "2026-02-30"}, "no such date 2026-02-30"),
        ({"date": "30/11/2026"}, "YYYY-MM-DD"),
        ({"rules": "klondike"}, "unknown preset 'klondike'"),
    ],
)
def test_api_daily_refuses_bad_input(
    client: TestClient, params: dict[str, str], words: str
) -> None:
    answer = client.get("/api/daily", params=params)
    assert answer.status_code == 400
    assert words in answer.json()["error"]
