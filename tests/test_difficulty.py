"""The difficulty levels: one list, served to the page and read by the terminal game."""

from __future__ import annotations

import json
from importlib import resources

from fastapi.testclient import TestClient

from eightoff.codes import GameCode
from eightoff.tui.userdata import Settings
from eightoff.web.app import create_app


def test_the_page_gets_the_levels_from_the_server_and_each_deals() -> None:
    client = TestClient(create_app(seed=3))
    levels = client.get("/api/rules").json()["difficulties"]
    assert levels == ["any", "easy", "medium", "hard"]
    shipped = json.loads(
        resources.files("eightoff").joinpath("data", "pool-standard.json").read_text("utf-8")
    )
    for level in levels[1:]:
        answer = client.post("/api/new", json={"difficulty": level})
        assert answer.status_code == 200
        assert GameCode.parse(answer.json()["code"]).deal in shipped["pools"][0]["deals"][level]


def test_the_terminal_game_keeps_a_served_level_and_drops_another() -> None:
    assert Settings.from_json({"difficulty": "hard"}).difficulty == "hard"
    assert Settings.from_json({"difficulty": "brutal"}).difficulty == "any"
