"""The game as an installable app that plays offline, in a real browser: Debian's chromium
driven by Playwright against uvicorn, with the real service worker.

Figures (the cold load's weight) go to ``artifacts/offline.json``.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from datetime import date, timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from eightoff.cards import Card
from eightoff.codes import GameCode
from eightoff.daily import Daily
from eightoff.game import home_move
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import STANDARD
from support.browser import (
    CHROMIUM_ARGS,
    drag,
    label,
    moves_played,
    pile_of,
    serve_app,
    wait_moves,
    winning_line,
)

sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.chromium  # skipped where chromium is missing (tests/conftest.py)
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
COLD_LOAD_MOST = 400 * 1024
"""What a first visit may download in all, in bytes (compressed, as sent)."""
SHIPPED_POOL = json.loads(
    resources.files("eightoff").joinpath("data", "pool-standard.json").read_text("utf-8")
)["pools"][0]["deals"]


class _Counted:
    """The app, adding up what each answer sends (its body, after gzip): the bytes a
    browser downloads, the service worker's included. With ``newer`` set, the pages say
    they belong to another shell than the one served (as after the static files changed)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sent: list[tuple[str, int]] = []
        self.newer = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = 0

        async def counted(message: Any) -> None:
            nonlocal size
            if message["type"] == "http.response.start" and self.newer:
                message["headers"] = [
                    (k, b"a-newer-one" if k == b"x-eightoff-shell" else v)
                    for k, v in message["headers"]
                ]
            if message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, counted)
        self.sent.append((scope["path"], size))


@pytest.fixture(scope="module")
def counted() -> _Counted:
    from eightoff.web.app import create_app

    return _Counted(create_app(seed=9))


@pytest.fixture(scope="module")
def server(counted: _Counted) -> Iterator[str]:
    yield from serve_app(counted)


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Any) -> Iterator[Any]:
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile: nothing cached, no service worker yet."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    ctx.on("weberror", lambda e: errors.append(str(e.error)))
    yield ctx
    ctx.close()
    assert not errors, errors


def ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready='1'][data-busy='0']")


def kept(page: Any) -> dict[str, Any]:
    """What the page keeps for offline play (localStorage ``eightoff.offline``)."""
    found: dict[str, Any] = json.loads(page.evaluate("localStorage.getItem('eightoff.offline')"))
    return found


def first_visit(page: Any, server: str, path: str = "/") -> None:
    """Open ``path`` and wait until the service worker controls the page and the deals for
    offline play are kept."""
    page.goto(f"{server}{path}")
    ready(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function(
        """() => {
          const k = JSON.parse(localStorage.getItem('eightoff.offline') || 'null');
          return k !== null && k.rules !== null && Object.keys(k.days).length >= 14
            && Object.values(k.pools).some((codes) => codes.length > 0);
        }"""
    )


def shell_urls(page: Any, server: str) -> list[str]:
    script = page.request.get(f"{server}/sw.js").text()
    shell: dict[str, Any] = json.loads(script.partition("const SHELL = ")[2].partition(";\n")[0])
    return [f"{server}{url}" for url in shell["urls"]]


# -- installable ----------------------------------------------------------------------------------


def test_chromium_finds_the_game_installable(playwright: Any, server: str, tmp_path: Path) -> None:
    # A profile on disk: an incognito window (a plain new context) installs nothing.
    ctx = playwright.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        first_visit(page, server)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{server}/static/manifest.webmanifest"
        assert manifest["errors"] == []
        # The maskable icon keeps its drawing inside the safe zone (the middle 80 % circle):
        # outside it, every pixel is the felt.
        for size in (192, 512):
            outside = page.evaluate(
                """async (size) => {
                  const img = new Image();
                  img.src = `/static/icon-maskable-${size}.png`;
                  await img.decode();
                  const canvas = document.createElement('canvas');
                  canvas.width = canvas.height = size;
                  const g = canvas.getContext('2d');
                  g.drawImage(img, 0, 0);
                  const px = g.getImageData(0, 0, size, size).data;
                  const felt = [0x1d, 0x6b, 0x43];
                  let off = 0, inside = 0;
                  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
                    const i = 4 * (y * size + x);
                    const far = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) > 0.4 * size;
                    const isFelt = px[i + 3] === 255
                      && felt.every((c, k) => Math.abs(px[i + k] - c) <= 6);
                    if (far && !isFelt) off++;
                    if (!far && !isFelt) inside++;
                  }
                  return [off, inside];
                }""",
                size,
            )
            assert outside[0] == 0 and outside[1] > size * size // 20, (size, outside)
    finally:
        ctx.close()


# -- the service worker ----------------------------------------------------------------------------


def test_the_service_worker_installs_keeps_the_shell_and_controls_the_page(
    context: Any, server: str
) -> None:
    page = context.new_page()
    page.goto(server)
    ready(page)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    ready(page)
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == f"{server}/sw.js"
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == f"{server}/"
    urls = shell_urls(page, server)
    version = page.request.get(server).headers["x-eightoff-shell"]
    assert page.evaluate("() => caches.keys()") == [f"eightoff-{version}"]
    cached = page.evaluate(
        "async (name) => (await (await caches.open(name)).keys()).map((r) => r.url)",
        f"eightoff-{version}",
    )
    assert sorted(cached) == sorted(urls)
    assert f"{server}/" in cached and f"{server}/static/main.js" in cached
    # Every module the page runs came from the kept shell.
    loaded = page.evaluate(
        "() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'))"
        ".map((e) => [e.name, e.workerStart > 0])"
    )
    assert loaded and all(by_worker for _, by_worker in loaded), loaded


def test_a_worker_taking_over_drops_the_shells_of_other_versions(context: Any, server: str) -> None:
    page = context.new_page()
    page.goto(f"{server}/rules")  # a page without script: no worker yet
    page.evaluate(
        """async () => {
          await (await caches.open('eightoff-0ld')).put('/static/main.js', new Response('old'));
          await (await caches.open('another-app')).put('/x', new Response('x'));
        }"""
    )
    page.goto(server)
    ready(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    version = page.request.get(server).headers["x-eightoff-shell"]
    names = page.evaluate("() => caches.keys()")
    assert sorted(names) == ["another-app", f"eightoff-{version}"]


def test_files_come_from_the_shell_unless_the_page_is_newer(
    context: Any, server: str, counted: _Counted
) -> None:
    page = context.new_page()
    first_visit(page, server)
    start = len(counted.sent)
    page.reload()
    ready(page)
    asked = [path for path, _ in counted.sent[start:]]
    assert "/" in asked  # the page itself: the network first
    assert not [p for p in asked if p.startswith("/static/")], asked  # its files: the shell
    # A page of a newer shell (the server's files changed): its files from the network.
    counted.newer = True
    try:
        start = len(counted.sent)
        page.reload()
        ready(page)
        asked = [path for path, _ in counted.sent[start:]]
    finally:
        counted.newer = False
    assert {"/static/main.js", "/static/style.css", "/static/state.js"} <= set(asked), asked


# -- offline after one visit ----------------------------------------------------------------------


def test_offline_after_one_visit_every_page_opens(context: Any, server: str) -> None:
    page = context.new_page()
    first_visit(page, server)
    context.set_offline(True)
    page.reload()
    ready(page)
    assert page.title() == "Eight Off"
    assert page.locator("#btn-new").is_visible()
    # The New game form is drawn from the rule declaration kept.
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    presets = page.eval_on_selector_all("#new-preset option", "els => els.map(e => e.value)")
    assert presets[:2] == ["standard", "easy"] and presets[-1] == "custom"
    page.keyboard.press("Escape")
    page.goto(f"{server}/rules?lang=fr")
    assert page.title().startswith("Eight Off : règles")
    page.goto(f"{server}/rules")
    assert page.title() == "Eight Off: rules, tips and keys"
    page.goto(f"{server}/privacy")
    page.wait_for_selector("html[lang='en']")
    assert "eightoff.offline" in page.locator("main").inner_text()
    page.goto(f"{server}/no/such/page")
    assert page.title() == "Eight Off: page not found"
    page.goto(f"{server}/?code=EO1-C8-AAAAAFA")  # a share link: the game's page
    ready(page)


def test_the_deals_for_offline_play_are_kept_ahead(context: Any, server: str) -> None:
    page = context.new_page()
    first_visit(page, server)
    offline = kept(page)
    first = page.locator("#code").inner_text()
    ((key, codes),) = offline["pools"].items()
    assert json.loads(key) == [[[k, v] for k, v in STANDARD.to_json().items()], "any"]
    assert len(codes) >= 20 and len(set(codes)) == len(codes) and first not in codes
    every = {d for deals in SHIPPED_POOL.values() for d in deals}
    assert all(
        GameCode.parse(c).rules == STANDARD and GameCode.parse(c).deal in every for c in codes
    )
    assert offline["seen"] == [first]
    today = date.fromisoformat(page.evaluate("() => new Date().toLocaleDateString('sv')"))
    for k in range(14):  # the very deals of the day the server answers
        day = today + timedelta(days=k)
        assert offline["days"][day.isoformat()]["code"] == str(Daily.of(day).code)
    # A harder level asked for: its own codes, all of that level.
    page.click("#btn-new")
    page.select_option("#form-new select[name='difficulty']", "hard")
    page.click("#new-deal")
    page.wait_for_function(f"() => document.getElementById('code').textContent !== {first!r}")
    page.wait_for_function(
        "() => Object.keys(JSON.parse(localStorage.getItem('eightoff.offline')).pools).length > 1"
    )
    pools = kept(page)["pools"]
    hard = pools[json.dumps(json.loads(key)[:1] + ["hard"], separators=(",", ":"))]
    assert hard and all(GameCode.parse(c).deal in SHIPPED_POOL["hard"] for c in hard)


def test_the_service_worker_keeps_the_deals_answers_for_offline(context: Any, server: str) -> None:
    page = context.new_page()
    first_visit(page, server)
    ask = """async (path) => {
      const answer = await fetch(path);
      return {status: answer.status, body: answer.ok ? await answer.json() : null};
    }"""
    pool = "/api/pool?rules=standard&difficulty=hard&count=5"
    ahead = f"/api/daily/ahead?date={date.today().isoformat()}&days=3"
    online = {path: page.evaluate(ask, path) for path in (pool, ahead)}
    assert online[pool]["status"] == 200 and len(online[pool]["body"]["codes"]) == 5
    assert online[ahead]["status"] == 200 and len(online[ahead]["body"]["days"]) == 3
    context.set_offline(True)
    for path, answer in online.items():  # the worker's kept answers, word for word
        assert page.evaluate(ask, path) == answer, path
    assert all(
        GameCode.parse(c).deal in SHIPPED_POOL["hard"] for c in online[pool]["body"]["codes"]
    )
    # Never asked online: offline it fails, as a network error (no made-up deals).
    never = "/api/pool?rules=standard&difficulty=easy&count=5"
    assert (
        page.evaluate(f"() => fetch({never!r}).then(() => 'answered', () => 'failed')") == "failed"
    )


def test_offline_the_kept_codes_are_dealt_once_each(context: Any, server: str) -> None:
    page = context.new_page()
    first_visit(page, server)
    before = kept(page)
    (codes,) = before["pools"].values()
    played = before["seen"][0]
    context.set_offline(True)
    page.reload()
    ready(page)
    dealt = page.evaluate(
        """async (n) => {
          const { keptDeal, noteSeen } = await import('/static/offline.js');
          const out = [];
          for (let k = 0; k < n; k++) {
            const found = keptDeal({ rules: 'standard', winnable: true });
            out.push(found && found.code);
            if (found) noteSeen(found.code);  // its game started
          }
          return out;
        }""",
        len(codes) + 1,
    )
    assert dealt[:-1] == codes and dealt[-1] is None  # each once, then none left
    assert played not in dealt
    assert kept(page)["seen"] == [played, *codes]
    today = page.evaluate("() => new Date().toLocaleDateString('sv')")
    daily = page.evaluate(
        """async (date) => (await import('/static/offline.js')).keptDeal({ daily: date })""",
        today,
    )
    assert daily["code"] == str(Daily.of(date.fromisoformat(today)).code)
    assert daily["fields"]["date"] == today and daily["fields"]["winnable"] is True


class Hand:
    """A player on a touch screen with a mouse: drags with the mouse, taps with a finger."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.last_tap = 0.0

    def tap(self, selector: str, strip: bool) -> None:
        """Tap ``selector`` (a card by its visible strip, or a pile's middle), never within
        the double-tap time of the last tap (two taps there make a double tap)."""
        wait = self.last_tap + 0.5 - time.monotonic()
        if wait > 0:
            self.page.wait_for_timeout(wait * 1000)
        box = self.page.locator(selector).bounding_box()
        y = box["y"] + (6 if strip else box["height"] / 2)
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, y)
        self.last_tap = time.monotonic()

    def play(self, pos: Position, move: Move, by_tap: bool) -> Position:
        """Play ``move`` by a drag, or by taps: the card, then where it goes (a single tap
        when it goes home)."""
        page = self.page
        card = pos.moving_cards(move)[0]
        before = moves_played(page)
        home = home_move(pos, move.source) if move.count == 1 else None
        if not by_tap or (home is not None and home != move):  # a tap would send it home
            drag(page, str(card), label(move.target, card))
        else:
            self.tap(f'[data-card="{card}"]', strip=True)
            if home is None:
                target = label(move.target, card)
                if page.locator(f'[data-pile="{target}"] .card').count():
                    self.tap(f'[data-pile="{target}"] .card >> nth=-1', strip=False)
                else:
                    self.tap(f'[data-pile="{target}"]', strip=False)
        wait_moves(page, before + 1)
        return pos.apply(move)


def test_offline_after_one_visit_the_game_plays_on_to_a_win(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True)
    errors: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    try:
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        first_visit(page, server)
        first = page.locator("#code").inner_text()
        (codes,) = kept(page)["pools"].values()
        context.set_offline(True)

        page.reload()  # the game in progress opens offline
        ready(page)
        assert page.locator("#code").inner_text() == first
        assert page.locator("[data-card]").count() == 52
        # New games: the kept codes in turn, each a winnable deal, none played before.
        dealt = []
        for _ in range(2):
            page.click("#btn-new")
            page.click("#new-deal")
            page.wait_for_function(
                "seen => !seen.includes(document.getElementById('code').textContent)",
                arg=[first, *dealt],
            )
            ready(page)
            dealt.append(page.locator("#code").inner_text())
        assert dealt == codes[:2]
        assert page.locator("#notice").is_hidden()  # no "could not start", no "not winnable"
        code = GameCode.parse(dealt[-1])
        pos = code.position()
        for i, col in enumerate(pos.columns):
            assert pile_of(page, str(col[-1])) == f"column-{i + 1}"

        # Twenty moves of the solver's line, by drag and by tap in turn.
        line = winning_line(str(code))
        hand = Hand(page)
        for k, move in enumerate(line[:20]):
            pos = hand.play(pos, move, by_tap=k % 2 == 1)
        assert moves_played(page) == 20
        # A hint: a legal move, shown on the board, from the solver in the page.
        page.click("#btn-hint")
        page.wait_for_selector(".card.hint")
        lit = page.eval_on_selector_all(".card.hint", "els => els.map(e => e.dataset.card)")
        (target,) = page.eval_on_selector_all(
            ".pile.hint-target", "els => els.map(e => e.dataset.pile)"
        )
        assert any(
            [str(c) for c in pos.moving_cards(m)] == lit
            and label(m.target, Card.from_text(lit[0])) == target
            for m in pos.legal_moves()
        )
        # Undo and redo.
        page.keyboard.press("Control+z")
        wait_moves(page, 19)
        page.keyboard.press("Control+z")
        wait_moves(page, 18)
        page.click("#btn-redo")
        wait_moves(page, 19)
        page.keyboard.press("Control+y")
        wait_moves(page, 20)
        # On along the line until Finish is offered; Finish wins.
        for move in line[20:]:
            if page.locator("#btn-finish").is_visible():
                break
            pos = hand.play(pos, move, by_tap=False)
        page.click("#btn-finish")
        page.wait_for_selector("#celebrate:not([hidden])")
        assert page.evaluate("() => document.body.dataset.status") == "won"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-offline-won.png"))
        page.keyboard.press("Escape")

        # The deal of the day, offline: the day's very deal.
        page.click("#btn-new")
        page.click("#new-daily")
        today = page.evaluate("() => new Date().toLocaleDateString('sv')")
        daily = str(Daily.of(date.fromisoformat(today)).code)
        page.wait_for_function(
            "code => document.getElementById('code').textContent === code", arg=daily
        )
        ready(page)
        assert json.loads(page.evaluate("localStorage.getItem('eightoff.game')"))["daily"] == today
        # Still no code dealt twice.
        page.click("#btn-new")
        page.click("#new-deal")
        page.wait_for_function(
            "code => document.getElementById('code').textContent === code", arg=codes[2]
        )
        assert kept(page)["seen"][-4:] == [*dealt, daily, codes[2]]
    finally:
        context.close()
    assert not errors, errors


# -- weight ----------------------------------------------------------------------------------------


def test_a_cold_load_downloads_at_most_400_kb(browser: Any, server: str, counted: _Counted) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": False})
        sizes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]),
        )
        cdp.on(
            "Network.loadingFinished",
            lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
        )
        start = len(counted.sent)
        first_visit(page, server)
        page.wait_for_load_state("networkidle")
        page_bytes = sum(sizes.values())
        sent = counted.sent[start:]
        server_bytes = sum(size for _, size in sent)
        wasm = sum(size for path, size in sent if path.endswith(".wasm"))
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "offline.json").write_text(
            json.dumps(
                {
                    "page_kb": round(page_bytes / 1024, 1),
                    "all_kb": round(server_bytes / 1024, 1),
                    "wasm_kb": round(wasm / 1024, 1),
                    "answers": len(sent),
                    "largest": sorted(sent, key=lambda s: -s[1])[:8],
                },
                indent=1,
            )
        )
        assert page_bytes <= COLD_LOAD_MOST, page_bytes  # what the page fetched (CDP)
        assert server_bytes <= COLD_LOAD_MOST, sorted(sent, key=lambda s: -s[1])[:10]
    finally:
        context.close()
