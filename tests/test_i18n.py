"""The page's languages on the server: the rules page in English and French."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from eightoff.web.app import STATIC, create_app, language


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=1))


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"),
        ("fr-CA", "fr"),
        ("en-GB,fr;q=0.5", "en"),
        ("de-DE, fr;q=0.3, en;q=0.2", "fr"),
        ("en;q=0.4, FR;q=0.6", "fr"),
        ("fr;q=0, en", "en"),
        ("fr;q=oops, en;q=0.1", "en"),
        ("de, es", "en"),
        ("*", "en"),
    ],
)
def test_language_from_accept_language(header: str | None, expected: str) -> None:
    assert language(header) == expected


def _lang(html: str) -> str:
    found = re.search(r'<html lang="(\w+)"', html)
    assert found is not None
    return found.group(1)


def test_rules_page_follows_the_browser_and_the_choice(client: TestClient) -> None:
    english = client.get("/rules")
    assert english.status_code == 200
    assert _lang(english.text) == "en"
    assert english.headers["content-language"] == "en"
    assert "accept-language" in english.headers["vary"].lower()
    french = client.get("/rules", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert _lang(french.text) == "fr"
    assert "Les règles" in french.text
    assert french.headers["content-language"] == "fr"
    chosen = client.get("/rules?lang=en", headers={"Accept-Language": "fr"})
    assert _lang(chosen.text) == "en"
    assert _lang(client.get("/rules?lang=fr").text) == "fr"
    assert _lang(client.get("/rules?lang=xx", headers={"Accept-Language": "fr"}).text) == "fr"
    assert "content-security-policy" in french.headers


def _shape(html: str) -> dict[str, object]:
    return {
        "ids": re.findall(r'id="([\w-]+)"', html),
        "items": html.count("<li>"),
        "rows": html.count("<tr>"),
        "keys": re.findall(r"<kbd>([^<]*)</kbd>", html),
    }


def test_the_french_rules_page_covers_every_part_of_the_english_one() -> None:
    english = _shape((STATIC / "rules.html").read_text("utf-8"))
    french = _shape((STATIC / "rules.fr.html").read_text("utf-8"))
    assert french["ids"] == english["ids"]
    assert french["items"] == english["items"]
    assert french["rows"] == english["rows"]
    names = {"Enter": "Entrée", "Space": "Espace", "Esc": "Échap", "Shift": "Maj"}
    assert french["keys"] == [names.get(k, k) for k in english["keys"]]  # type: ignore[union-attr]
