"""The page beyond the basics, in a real browser: French, the deal of the day, court cards
and the dark theme (Debian's chromium driven by Playwright against uvicorn)."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from eightoff.cards import SUIT_LETTERS
from eightoff.codes import GameCode
from eightoff.daily import Daily, parse_date, share_text
from eightoff.game import home_move
from eightoff.moves import Move, Place, PlaceKind
from eightoff.position import Position
from eightoff.solver import Limit, solve
from support.browser import drag, refused_drop, serve_app, toast_text

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.chromium  # skipped where chromium is missing (tests/conftest.py)
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
CODE = "EO1-C8-AAAAAFA"
LIMIT = Limit(nodes=200_000, seconds=None)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from eightoff.web.app import create_app

    yield from serve_app(create_app(seed=3))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")


def wait_moves(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => document.body.dataset.moves === String(n) && document.body.dataset.busy === '0'",
        arg=n,
    )


def pile_label(place: Place, card: Any) -> str:
    if place.kind is PlaceKind.FOUNDATION:
        return f"foundation-{SUIT_LETTERS[card.suit]}"
    return f"{place.kind.value}-{place.index + 1}"


def source_label(pos: Position, move: Move) -> str:
    return pile_label(move.source, pos.moving_cards(move)[0])


class Taps:
    """A finger on the phone: taps on a card's visible strip or on a pile."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.last: tuple[str, float] = ("", 0.0)

    def tap(self, selector: str, pile: str, strip: bool) -> None:
        # A second tap on the same pile within the double-tap time would be a double tap.
        if self.last[0] == pile and time.monotonic() - self.last[1] < 0.5:
            self.page.wait_for_timeout(500)
        box = self.page.locator(selector).bounding_box()
        y = box["y"] + (6 if strip else box["height"] / 2)
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, y)
        self.last = (pile, time.monotonic())

    def card(self, card: str, pile: str) -> None:
        self.tap(f'[data-card="{card}"]', pile, strip=True)

    def pile(self, pile: str) -> None:
        cards = self.page.locator(f'[data-pile="{pile}"] .card')
        if cards.count():
            self.tap(f'[data-pile="{pile}"] .card >> nth=-1', pile, strip=False)
        else:
            self.tap(f'[data-pile="{pile}"]', pile, strip=False)


def play_to_the_win_by_taps(page: Any, pos: Position) -> int:
    """Win from ``pos`` by taps, following the solver (again after any tap that sends a
    card home instead); the number of moves played."""
    fingers = Taps(page)
    played = 0
    line: list[Move] = []
    while not pos.is_won():
        if not line:
            result = solve(pos, limit=LIMIT)
            assert result.solved
            line = list(result.moves)
        move = line.pop(0)
        card = pos.moving_cards(move)[0]
        source = source_label(pos, move)
        home = home_move(pos, move.source) if move.count == 1 else None
        fingers.card(str(card), source)
        if home is not None:  # one tap sends it home, as the page says
            if home != move:
                line = []
            move = home
        else:
            fingers.pile(pile_label(move.target, card))
        played += 1
        wait_moves(page, played)
        pos = pos.apply(move)
    return played


def test_a_whole_game_in_french_on_a_phone_by_taps(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.emulate_media(reduced_motion="reduce")
        page.goto(server)
        ready(page)
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("#btn-new").inner_text() == "Nouvelle"
        assert page.locator("#st-moves").inner_text().startswith("Coups")
        page.locator("#btn-new").tap()
        page.locator("#new-daily").tap()  # "Donne du jour"
        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('eightoff.game')) || {}).daily"
        )
        ready(page)
        saved = json.loads(page.evaluate("localStorage.getItem('eightoff.game')"))
        day = Daily.of(parse_date(saved["daily"]))
        assert saved["code"] == str(day.code)
        assert page.locator("#code").inner_text() == str(day.code)
        # French card labels: the index letters and what a screen reader hears.
        pos = day.code.position()
        exposed = pos.columns[0][-1]
        label = page.locator(f'[data-card="{exposed}"]').get_attribute("aria-label")
        assert label.endswith(", la colonne 1, découverte")
        kings = page.locator('[data-card^="K"] .idx span')
        assert {kings.nth(i).inner_text() for i in range(4)} == {"R"}
        moves = play_to_the_win_by_taps(page, pos)
        page.wait_for_selector("#celebrate:not([hidden])")
        assert page.locator("#celebrate-title").inner_text() == "Gagné !"
        share = page.locator("#celebrate-share").inner_text()
        assert share.startswith("Eight Off — ")
        assert share.endswith(f" — gagnée en {moves} coups, sans indice")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-fr-phone-won.png"))
        stats = json.loads(page.evaluate("localStorage.getItem('eightoff.stats')"))
        daily = stats["daily"]
        assert daily["won"] == 1 and daily["streak"] == 1 and daily["lastWon"] == saved["daily"]
        assert daily["fewestMoves"] == moves
    finally:
        context.close()
    assert not errors, errors


def test_switch_language_and_theme_remembered(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="en-GB", color_scheme="light")
    page = context.new_page()
    try:
        page.goto(f"{server}/?code={CODE}")
        ready(page)
        assert page.locator("#btn-new").inner_text() == "New"
        assert page.locator('[data-card="KH"] .idx span').inner_text() == "K"
        assert not page.evaluate("document.documentElement.classList.contains('dark')")
        bar_colours = """() => [...document.querySelectorAll('meta[name="theme-color"]')]
            .map((meta) => meta.content)"""
        assert page.evaluate(bar_colours) == ["#0f3b24", "#0f3b24"]  # the light top bar's
        page.locator("#btn-options").click()
        page.locator("select[name=language]").select_option("fr")
        page.locator("select[name=theme]").select_option("dark")
        # The browser's bar follows the theme chosen, not the device's (which is light).
        assert page.evaluate(bar_colours) == ["#08170f", "#08170f"]
        assert page.locator("#dlg-options-title").inner_text() == "Réglages"
        page.keyboard.press("Escape")
        assert page.locator("#btn-new").inner_text() == "Nouvelle"
        assert page.locator('[data-card="KH"] .idx span').inner_text() == "R"
        assert "cœur" in page.locator('[data-card="KH"]').get_attribute("aria-label")
        assert page.locator(".foot a").first.get_attribute("href") == "/rules?lang=fr"
        assert page.evaluate("document.documentElement.classList.contains('dark')")
        page.reload()
        ready(page)
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.evaluate("document.documentElement.classList.contains('dark')")
        felt = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert felt == "rgb(15, 42, 28)"
        page.locator(".foot a").first.click()
        page.wait_for_selector("h1")
        assert page.locator("h1").inner_text().startswith("Eight Off : règles")
    finally:
        context.close()


def test_court_cards_and_themes_at_desktop_and_phone_sizes(browser: Any, server: str) -> None:
    """The court art is drawn (not a letter) in each theme and language; screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    for lang, locale in (("en", "en-GB"), ("fr", "fr-FR")):
        for scheme in ("light", "dark"):
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                context = browser.new_context(
                    viewport=viewport,
                    device_scale_factor=2 if name == "phone" else 1,
                    locale=locale,
                    color_scheme=scheme,
                )
                page = context.new_page()
                page.goto(f"{server}/?code={CODE}")
                ready(page)
                assert page.evaluate("document.documentElement.classList.contains('dark')") == (
                    scheme == "dark"
                )
                for card in ("JS", "QH", "KD"):
                    face = page.locator(f'[data-card="{card}"] .face')
                    assert face.inner_text() == ""  # a picture, not a letter
                    # The art is an external sprite (court.svg): drawn once it has loaded,
                    # which may be after the board is ready.
                    page.wait_for_function(
                        """card => {
                          const u = document.querySelector(`[data-card="${card}"] .face use`);
                          const b = u.getBBox();
                          return b.width > 50 && b.height > 50;
                        }""",
                        arg=card,
                        timeout=10_000,
                    )
                page.screenshot(path=str(ARTIFACTS / f"web-{name}-{lang}-{scheme}.png"))
                context.close()


def test_daily_streak_counts_days_in_a_row(browser: Any, server: str) -> None:
    page = browser.new_page()
    try:
        page.goto(server)
        ready(page)
        result = page.evaluate(
            """async () => {
              const d = await import('/static/daily.js');
              const s = {played: 0, won: 0, streak: 0, bestStreak: 0};
              const out = [];
              for (const day of ['2026-11-29', '2026-11-30', '2026-11-30', '2026-12-01',
                                 '2026-12-03']) {
                d.dailyStart(s, day);
                out.push([d.dailyWin(s, day), s.streak, s.won, s.played]);
              }
              out.push(d.dailyStreak(s, '2026-12-04'), d.dailyStreak(s, '2026-12-05'));
              out.push(d.dayBefore('2027-01-01'), d.dayBefore('2028-03-01'));
              return out;
            }"""
        )
        assert result == [
            [True, 1, 1, 1],
            [True, 2, 2, 2],
            [False, 2, 2, 2],  # the same day's deal won again: counted once
            [True, 3, 3, 3],
            [True, 1, 4, 4],  # a day missed: the streak starts again
            1,
            0,
            "2026-12-31",
            "2028-02-29",
        ]
        shares = page.evaluate(
            """async () => {
              const d = await import('/static/daily.js');
              const game = (n, extra) => ({daily: '2026-11-30', won: true,
                                           actions: Array(n).fill([{}]), ...extra});
              return [d.dailyShare(game(84, {hints: 0})),
                      d.dailyShare(game(90, {hints: 1})),
                      d.dailyShare(game(77, {hints: 3, solutionSeen: true})),
                      d.dailyShare(game(77, {won: false})),
                      d.dailyShare({...game(77, {}), daily: null})];
            }"""
        )
        assert shares == [
            share_text(date(2026, 11, 30), 84, 0),  # the same words as the server's
            "Eight Off — 30 Nov 2026 — won in 90 moves, 1 hint",
            "Eight Off — 30 Nov 2026 — won in 77 moves, 3 hints, solution shown",
            None,
            None,
        ]
    finally:
        page.close()


def test_every_message_and_page_word_is_in_english_and_french(browser: Any, server: str) -> None:
    page = browser.new_page()
    try:
        page.goto(server)
        ready(page)
        missing = page.evaluate(
            """async () => {
              const { MESSAGES } = await import('/static/i18n.js');
              await import('/static/lang.js');
              const en = Object.keys(MESSAGES.en), fr = Object.keys(MESSAGES.fr);
              const used = [...document.querySelectorAll('*')].flatMap((el) =>
                Object.entries(el.dataset).filter(([k]) => k.startsWith('i18n'))
                  .map(([, v]) => v));
              return {
                notFrench: en.filter((k) => !fr.includes(k)),
                // "reason.*" put the server's refusals into French; English shows its words.
                notEnglish: fr.filter((k) => !en.includes(k) && !k.startsWith('reason.')),
                unknown: used.filter((k) => !en.includes(k)),
                used: used.length,
              };
            }"""
        )
        assert missing["used"] > 80
        assert missing == {
            "notFrench": [],
            "notEnglish": [],
            "unknown": [],
            "used": missing["used"],
        }
    finally:
        page.close()


FORM_FIELDS = """() => {
    const form = document.getElementById("form-new");
    return [...form.querySelectorAll("#new-rules fieldset, #new-rules input[type=checkbox]")]
        .map((el) => el.tagName === "FIELDSET"
            ? {name: el.querySelector("input").name,
               title: el.querySelector("legend").textContent,
               values: [...el.querySelectorAll("input")].map((i) => i.value),
               words: [...el.querySelectorAll("label")].map((l) => l.textContent.trim())}
            : {name: el.name, title: el.parentElement.textContent.trim(),
               values: ["false", "true"], words: []});
}"""


def test_the_new_game_form_is_the_servers_rule_table(browser: Any, server: str) -> None:
    """One field per option of /api/rules ``table``, in its order with its values; an option
    the page has never heard of shows up too, in the table's words (French lacking them)."""
    from eightoff.rules import OPTIONS

    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server}/?code={CODE}")
        ready(page)
        table = page.evaluate("fetch('/api/rules').then((r) => r.json())")["table"]
        assert [o["name"] for o in table] == [o.name for o in OPTIONS]
        page.locator("#btn-new").click()
        page.wait_for_selector("#dlg-new[open]")
        fields = page.evaluate(FORM_FIELDS)
        assert [(f["name"], f["values"]) for f in fields] == [
            (o["name"], [json.dumps(v["value"]).strip('"') for v in o["values"]]) for o in table
        ]
        titles = {f["name"]: f["title"] for f in fields}
        assert titles["cells"] == "Cellules" and titles["take_back"].startswith("Reprendre")
        page.keyboard.press("Escape")

        # A rule option added on the server: in the form with no page edit, in its words.
        def more_rules(route: Any) -> None:
            body = route.fetch().json()
            body["table"].append(
                {
                    "name": "jokers",
                    "flag": "--jokers",
                    "help": "jokers in the deck",
                    "default": "none",
                    "values": [
                        {"value": "none", "text": "no jokers", "letter": ""},
                        {"value": "two", "text": "two jokers", "letter": "J"},
                    ],
                }
            )
            route.fulfill(json=body)

        sent: list[Any] = []

        def note_new(route: Any) -> None:
            sent.append(route.request.post_data_json)
            route.continue_()

        page.route("**/api/rules", more_rules)
        page.route("**/api/new", note_new)
        page.reload()
        ready(page)
        page.locator("#btn-new").click()
        page.wait_for_selector("#dlg-new[open]")
        jokers = page.evaluate(FORM_FIELDS)[-1]
        assert jokers == {
            "name": "jokers",
            "title": "Jokers in the deck",
            "values": ["none", "two"],
            "words": ["no jokers", "two jokers"],
        }
        assert page.locator("#form-new input[name=jokers][value=none]").is_checked()
        page.locator("#form-new input[name=jokers][value=two]").check()
        assert page.locator("#new-preset").input_value() == "custom"
        page.locator("#form-new input[name=cells][value='4']").check()
        page.locator("#new-deal").click()
        page.wait_for_function("() => document.getElementById('notice').hidden === false")
        rules = sent[-1]["rules"]
        assert rules["jokers"] == "two" and rules["cells"] == 4 and rules["take_back"] is False
    finally:
        context.close()
    assert not errors, errors


def test_the_servers_refusals_are_said_in_french(browser: Any, server: str) -> None:
    """An illegal drop and a bad game code, said by their reason codes in French."""
    pos = GameCode.parse(CODE).position()
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{server}/?code={CODE}")
        ready(page)
        i, j = refused_drop(pos)
        card = pos.columns[i][-1]
        drag(page, str(card), f"column-{j + 1}")
        text = toast_text(page, " ne peut pas aller là : ")
        assert "d’un rang au-dessus, de la même couleur" in text and "cannot" not in text
        page.locator("#btn-new").click()
        page.locator("#new-code").fill("EO1-C8-ZZZ")
        page.locator("#new-play-code").click()
        page.wait_for_selector("#new-code-error:not([hidden])")
        assert page.locator("#new-code-error").inner_text() == (  # the fault, exactly
            "ce code de partie ne se lit pas : le numéro de donne s’écrit en 7 lettres, pas « ZZZ »"
        )
    finally:
        context.close()


ENGLISH_ONLY = """async () => {
    const { MESSAGES } = await import('/static/i18n.js');
    await import('/static/lang.js');
    const words = (table) => new Set(Object.values(table).join(' ').toLowerCase()
        .match(/[a-z\u00e0-\u00ff\u0153]{3,}/g));
    const french = words(MESSAGES.fr);
    return [...words(MESSAGES.en)].filter((w) => !french.has(w));
}"""

PAGE_WORDS = """() => {
    // Every word the page shows or says: text, the names a screen reader reads, the title;
    // not what is marked as another language (the language menu's "English").
    const out = [document.title];
    const skip = (el) => el.closest('script, style, code, kbd, [lang]:not([lang="fr"])');
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!skip(node.parentElement)) out.push(node.textContent);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
        if (skip(el)) continue;
        for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
            if (el.hasAttribute(a)) out.push(el.getAttribute(a));
        }
    }
    return out.join(' ').toLowerCase().match(/[a-z\u00e0-\u00ff\u0153]{3,}/g) || [];
}"""


def test_every_page_in_french_has_no_english_word(browser: Any, server: str) -> None:
    """A French browser walks every page, every dialog and the solution bar: no word of
    the English table that French does not use too."""
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    page = context.new_page()
    seen: dict[str, set[str]] = {}

    def look(where: str) -> None:
        seen[where] = set(page.evaluate(PAGE_WORDS))

    try:
        page.goto(f"{server}/?code={CODE}")
        ready(page)
        english = set(page.evaluate(ENGLISH_ONLY))
        assert {"foundation", "undo", "hint"} <= english
        look("game")
        for button, dialog in (
            ("#btn-new", "#dlg-new"),
            ("#btn-options", "#dlg-options"),
            ("#btn-stats", "#dlg-stats"),
            ("#btn-code", "#dlg-code"),
            ("#btn-restart", "#dlg-confirm"),
        ):
            page.locator(button).click()
            page.wait_for_selector(f"{dialog}[open]")
            if dialog == "#dlg-new":
                page.wait_for_selector("#new-rules fieldset")
                page.wait_for_function("() => document.getElementById('new-odds').textContent")
            look(dialog)
            page.keyboard.press("Escape")
        page.locator("#btn-new").click()
        page.locator("#new-archive").click()
        page.wait_for_selector("#dlg-archive[open]")
        look("#dlg-archive")
        page.keyboard.press("Escape")
        page.locator("#btn-solution").click()
        page.wait_for_selector("#solution:not([hidden])")
        page.locator("#sol-fwd").click()
        page.wait_for_function(
            "() => document.getElementById('sol-text').textContent.includes(':')"
        )
        assert re.match(r"Solution, étape 1 sur \d+ : ", page.locator("#sol-text").inner_text())
        look("solution")
        # A foundation up to a queen or an ace: French articles by the rank's gender.
        up_to = page.evaluate(
            """async () => {
              const { pileName, rankName, tForm } = await import('/static/i18n.js');
              return [1, 7, 12, 13].map((r) => tForm('pile.foundationUpTo', r,
                  {pile: pileName('foundation-H'), rank: rankName(r)}));
            }"""
        )
        assert up_to == [
            "la fondation de cœur, jusqu’à l’as",
            "la fondation de cœur, jusqu’au 7",
            "la fondation de cœur, jusqu’à la dame",
            "la fondation de cœur, jusqu’au roi",
        ]
        page.goto(f"{server}/?code=EO1-C2-AAAAAAB")  # stuck at once: the banner
        ready(page)
        look("stuck")
        for path in ("/rules", "/privacy", "/no/such/page"):
            page.goto(f"{server}{path}")
            page.wait_for_function("() => document.documentElement.lang === 'fr'")
            look(path)
    finally:
        context.close()
    found = {where: sorted(words & english) for where, words in seen.items()}
    assert {where: words for where, words in found.items() if words} == {}
    assert len(found) == 12


def test_the_daily_archive_marks_days_and_plays_a_past_one(browser: Any, server: str) -> None:
    """Past days in a calendar: won and lost ones marked from the statistics, any past day
    playable (its deal is that date's deal of the day), days to come not."""
    today = date.today()
    last_month = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    won, lost, picked = (last_month + timedelta(days=k) for k in (2, 3, 9))
    stats = {
        "daily": {
            "label": "",
            "daily": True,
            "played": 2,
            "won": 1,
            "streak": 0,
            "bestStreak": 1,
            "bestTime": None,
            "fewestMoves": None,
            "days": {won.isoformat(): "won", lost.isoformat(): "played"},
        }
    }
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/privacy")
        page.evaluate("s => localStorage.setItem('eightoff.stats', JSON.stringify(s))", stats)
        page.goto(f"{server}/?code={CODE}")
        ready(page)
        page.locator("#btn-new").click()
        page.locator("#new-archive").click()
        page.wait_for_selector("#dlg-archive[open]")
        assert page.locator("#archive-next").is_disabled()  # no month to come
        page.locator("#archive-prev").click()
        day = page.locator
        assert "won" in day(f"[data-date='{won}']").get_attribute("class")
        assert "lost" in day(f"[data-date='{lost}']").get_attribute("class")
        assert (
            day(f"[data-date='{lost}']").get_attribute("aria-label").endswith(", played, not won")
        )
        assert day("#archive-days button.day").count() == (today.replace(day=1) - last_month).days
        day(f"[data-date='{picked}']").click()
        page.wait_for_function(
            "code => document.getElementById('code').textContent === code",
            arg=str(Daily.of(picked).code),
        )
        ready(page)
        saved = json.loads(page.evaluate("localStorage.getItem('eightoff.game')"))
        assert saved["daily"] == picked.isoformat()
        page.locator("#btn-new").click()  # this month: today can be played, tomorrow not
        page.locator("#new-archive").click()
        if today.day < 28:
            tomorrow = (today + timedelta(days=1)).isoformat()
            assert day(f"[data-date='{tomorrow}']").is_disabled()
        assert day(f"[data-date='{today}']").is_enabled()
    finally:
        context.close()
