"""How often a variant can be won, on the web: ``POST /api/winnability``, the New game
dialog's line (English and French, following the rules chosen), and winnable deals of rare
variants drawn from the shipped survey."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eightoff.codes import GameCode
from eightoff.deal import deal
from eightoff.rules import PRESETS, STANDARD, Rules
from eightoff.solver import Limit, Verdict, solve
from eightoff.verdicts import shipped
from eightoff.web.app import WinnabilityAnswer, create_app
from support.browser import serve_app

C4 = Rules(cells=4)  # about 1 deal in 9 is won
C2 = Rules(cells=2)  # about 1 in 300


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=11))


def odds(client: TestClient, rules: Any) -> dict[str, Any]:
    response = client.post("/api/winnability", json={"rules": rules})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    WinnabilityAnswer.model_validate(data)
    return data


def test_the_figure_is_the_shipped_surveys(client: TestClient) -> None:
    for rules in (STANDARD, C4, C2, PRESETS["bakers"], PRESETS["alternate"]):
        found = shipped().find(rules)
        assert found is not None
        data = odds(client, rules.to_json())
        assert data["rules"] == rules.to_json()
        assert data["surveyed"] == [found.low, found.high]
        assert (data["won"], data["lost"], data["unknown"]) == (
            found.won,
            found.lost,
            len(found.unknown),
        )
        assert data["text"] == found.odds().text()
    c4 = odds(client, {"cells": 4})
    assert c4["kind"] == "one_in" and 7 <= c4["one_in"] <= 11  # published: 10.564 %
    assert c4["text"].startswith(f"About 1 in {c4['one_in']} deals of this variant can be won")
    standard = odds(client, "standard")
    assert standard["kind"] == "almost" and 99.7 < standard["percent"] < 100
    assert (
        odds(client, {"preset": "bakers", "group_moves": "single"})["won"]
        == odds(client, "bakers")["won"]
    )  # one card at a time wins the same deals


def test_rules_not_surveyed_say_so(client: TestClient) -> None:
    data = odds(client, "app")  # take-back
    assert data["kind"] is None and data["surveyed"] is None and data["won"] is None
    assert data["text"] == "How often this variant can be won has not been surveyed."


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"rules": {"cells": 3}}, 400, "cells must be 8, 4 or 2"),
        ({"rules": "klondike"}, 400, "unknown preset"),
        ({"rules": {"preset": 4}}, 400, "rules.preset must be a preset name"),
        ({"rules": 8}, 422, "rules"),
        ({"rules": "standard", "deal": 1}, 422, "deal"),
    ],
)
def test_bad_rules_are_a_json_4xx(client: TestClient, body: Any, status: int, words: str) -> None:
    response = client.post("/api/winnability", json=body)
    assert response.status_code == status
    assert words in response.json()["error"]


def test_winnable_deals_of_a_rare_variant_come_from_the_survey(client: TestClient) -> None:
    found = shipped().find(C2)
    assert found is not None and found.listed == "won"
    for _ in range(3):
        response = client.post("/api/new", json={"rules": C2.to_json()})
        data = response.json()
        code = GameCode.parse(data["code"])
        assert code.rules == C2 and data["winnable"] is True
        assert found.verdict(code.deal) == "won"
    result = solve(deal(code.deal, C2), limit=Limit(nodes=None, seconds=30))
    assert result.verdict is Verdict.SOLVED


# -- the New game dialog, in a real browser -----------------------------------------------------

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serve_app(create_app(seed=3))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def odds_line(page: Any, before: str | None = None) -> str:
    """The dialog's line once it has an answer (other than ``before``)."""
    page.wait_for_function(
        "before => { const p = document.querySelector('#new-odds');"
        " return p.dataset.kind && p.textContent && p.textContent !== before; }",
        arg=before,
    )
    return str(page.locator("#new-odds").inner_text())


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_new_game_dialog_says_how_often_the_variant_is_won(
    browser: Any, server: str, locale: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/?code=EO1-C8-AAAAAFA")
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open] #new-rules fieldset")
    first = odds_line(page)
    c4, c2 = shipped().find(C4), shipped().find(C2)
    assert c4 is not None and c2 is not None
    if locale == "en-GB":
        assert first.startswith("Almost every deal of this variant can be won: 99.")
        page.check("#form-new input[name='cells'][value='4']")
        assert odds_line(page, first) == c4.odds().text()
        page.check("#form-new input[name='cells'][value='2']")
        assert odds_line(page, c4.odds().text()) == c2.odds().text()
        page.select_option("#new-preset", "app")
        assert odds_line(page, c2.odds().text()) == (
            "How often this variant can be won has not been surveyed."
        )
    else:
        assert first.startswith("Presque toutes les donnes de cette variante peuvent être gagnées")
        assert "99," in first  # a decimal comma
        page.check("#form-new input[name='cells'][value='4']")
        second = odds_line(page, first)
        n = c4.odds().one_in
        assert second.startswith(f"Environ 1 donne sur {n} de cette variante peut être gagnée (")
        assert "étudiées" in second
    assert page.locator("#new-odds").get_attribute("aria-live") == "polite"
    context.close()
    assert not errors, errors
