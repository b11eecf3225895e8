"""The game as an installable app, on the server's side: the manifest and its icons, the
service worker and the shell it keeps, compression, and the deals a page keeps to play
offline (``/api/pool``, ``/api/daily/ahead``)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import struct
from datetime import date, timedelta
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.responses import Response

from eightoff.codes import GameCode
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, solve
from eightoff.web.app import create_app
from eightoff.web.delivery import HEAD_PART, STATIC, Gzip
from eightoff.web.routes.pages import SHELL
from eightoff.web.shell import SERVICE_WORKER, VERSION_HEADER, ShellOf

PAGES = ("/", "/privacy", "/rules?lang=en", "/rules?lang=fr")
SHIPPED_POOL = json.loads(
    resources.files("eightoff").joinpath("data", "pool-standard.json").read_text("utf-8")
)["pools"][0]["deals"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(seed=11))


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def css_colour(name: str) -> str:
    """The value of style.css's custom property ``--name`` in the page's (light) theme."""
    found = re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}});", (STATIC / "style.css").read_text())
    assert found is not None, name
    return found.group(1).lower()


class _Refs(HTMLParser):
    """Every address a page's tags name (href, src), and its links by ``rel``."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.links: dict[str, list[dict[str, str | None]]] = {}
        self.metas: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.refs += [v for k, v in attrs if k in ("href", "src") and v]
        if tag == "link":
            self.links.setdefault(named.get("rel") or "", []).append(named)
        if tag == "meta":
            self.metas.append(named)


def refs_of(html: str) -> _Refs:
    parser = _Refs()
    parser.feed(html)
    return parser


# -- the manifest and the icons ---------------------------------------------------------------


def test_the_manifest_names_the_app_its_colours_and_icons(client: TestClient) -> None:
    response = client.get("/static/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Eight Off" and manifest["short_name"] == "Eight Off"
    assert manifest["description"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == css_colour("bar")  # the page's top bar
    assert manifest["background_color"] == css_colour("felt")  # the table
    sizes: dict[tuple[str, str], set[str]] = {}
    for icon in manifest["icons"]:
        fetched = client.get(icon["src"])
        assert fetched.status_code == 200, icon["src"]
        assert fetched.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            width, height = png_size(fetched.content)
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
        for purpose in icon["purpose"].split():
            sizes.setdefault((icon["type"], purpose), set()).add(icon["sizes"])
    for purpose in ("any", "maskable"):
        assert {"192x192", "512x512"} <= sizes[("image/png", purpose)], purpose


@pytest.mark.parametrize("path", [*PAGES, "/static/notfound.html"])
def test_every_page_links_the_manifest_and_the_icons(client: TestClient, path: str) -> None:
    page = refs_of(client.get(path).text)
    assert [link["href"] for link in page.links["manifest"]] == ["/static/manifest.webmanifest"]
    (touch,) = page.links["apple-touch-icon"]
    assert png_size(client.get(str(touch["href"])).content) == (180, 180)
    assert [link["href"] for link in page.links["icon"]] == ["/static/icon.svg"]
    themes = {
        meta.get("media"): meta["content"]
        for meta in page.metas
        if meta.get("name") == "theme-color"
    }
    assert themes[None] == css_colour("bar")


# -- the service worker and its shell --------------------------------------------------------


def shell_of(client: TestClient) -> dict[str, Any]:
    """The shell the service worker at /sw.js was written with."""
    script = client.get("/sw.js").text
    found = re.match(r"const SHELL = (\{.*?\n\});\n", script, re.S)
    assert found is not None
    shell: dict[str, Any] = json.loads(found.group(1))
    return shell


def test_the_service_worker_is_served_at_the_root_never_cached_stale(client: TestClient) -> None:
    response = client.get("/sw.js", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["service-worker-allowed"] == "/"
    assert response.headers["content-encoding"] == "gzip"
    assert (STATIC / SERVICE_WORKER).read_text("utf-8") in response.text
    shell = shell_of(client)
    assert shell["version"] == SHELL().version
    for path in PAGES:  # each page names the version it belongs to
        assert client.get(path).headers[VERSION_HEADER] == shell["version"]


def test_the_shell_is_every_page_and_static_file_and_each_answers(client: TestClient) -> None:
    shell = shell_of(client)
    urls = shell["urls"]
    assert len(urls) == len(set(urls))
    routed = {
        "index.html",
        "privacy.html",
        "rules.html",
        "rules.fr.html",
        SERVICE_WORKER,
        HEAD_PART,
    }
    files = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    files = {f for f in files if "__pycache__" not in f}
    assert set(urls) == set(PAGES) | {f"/static/{f}" for f in files if f not in routed}
    assert shell["pages"] == {"/": "/", "/privacy": "/privacy", "/rules": "/rules?lang=en"}
    assert shell["languages"] == ["en", "fr"]
    assert shell["missing"] in urls
    for url in urls:
        assert client.get(url).status_code == 200, url


_SPECIFIER = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*|new URL\(\s*|new (?:Shared)?Worker\(\s*|fetch\(\s*)"""
    r"""["'](\.{1,2}/[^"']+|/static/[^"']+)["']"""
)
"""A module's static and dynamic imports, the files it makes an address of or fetches,
and the workers it starts (relative to itself, or under /static/)."""
_STATIC_TEXT = re.compile(r"""["'`](/static/[\w./-]+)""")
"""Any address under /static/ a module writes (``/static/court.svg#court-K``)."""


def imported(client: TestClient, url: str) -> set[str]:
    """What loading ``url`` fetches from the server, followed through pages, modules,
    styles and the manifest: every ``/static/`` address."""
    found: set[str] = set()
    todo = [url]
    while todo:
        now = todo.pop()
        body = client.get(now).text
        path = now.partition("?")[0]
        if path.endswith(".js"):
            names = _SPECIFIER.findall(body) + _STATIC_TEXT.findall(body)
        elif path.endswith(".css"):
            names = re.findall(r"url\(\s*[\"']?([^)\"'#]+)", body)
        elif path.endswith(".webmanifest"):
            names = [icon["src"] for icon in json.loads(body)["icons"]]
        elif path.endswith(".html") or not path.startswith("/static/"):
            names = refs_of(body).refs
        else:
            names = []
        for name in names:
            address = urljoin(f"http://testserver{now}", name).removeprefix("http://testserver")
            if address.startswith("/static/") and address not in found:
                found.add(address)
                todo.append(address)
    return found


def test_every_file_a_page_loads_is_kept(client: TestClient) -> None:
    urls = set(shell_of(client)["urls"])
    for page in (*PAGES, "/static/notfound.html"):
        loaded = imported(client, page)
        assert loaded, page
        assert loaded <= urls, (page, sorted(loaded - urls))
    game = imported(client, "/")
    assert {
        "/static/main.js",
        "/static/state.js",
        "/static/install.js",
        "/static/style.css",
    } <= game


def test_the_version_changes_with_any_file_and_only_then(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    pages = {"/": "index.html", "/rules?lang=en": "rules.html"}
    shell = ShellOf(static, pages, "notfound.html")
    first = shell()
    assert shell() is first  # nothing changed: the same shell
    assert "/static/index.html" not in first.urls and "/static/sw.js" not in first.urls
    template = (static / SERVICE_WORKER).read_text("utf-8")
    (static / "board.js").write_text((static / "board.js").read_text("utf-8") + "\n// changed\n")
    second = shell()
    assert second.version != first.version
    assert second.script(template) != first.script(template)
    (static / "kernel.wasm").write_bytes(b"\0asm\1\0\0\0")  # a new file is kept at once
    third = shell()
    assert "/static/kernel.wasm" in third.urls and third.version != second.version
    (static / "kernel.wasm").unlink()
    assert "/static/kernel.wasm" not in shell().urls
    (static / "local").mkdir(exist_ok=True)  # and so is a file in a folder
    (static / "local" / "extra.js").write_text("export const x = 1;\n")
    assert "/static/local/extra.js" in shell().urls


# -- compression --------------------------------------------------------------------------------


def test_text_and_webassembly_are_gzipped_pictures_are_not(client: TestClient) -> None:
    for url in shell_of(client)["urls"]:
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        kind = response.headers["content-type"]
        compressed = response.headers.get("content-encoding") == "gzip"
        if kind.startswith("image/png"):
            assert not compressed, url
        elif len(response.content) > 1024:
            assert compressed, url


def test_webassembly_is_gzipped() -> None:
    body = bytes(range(256)) * 64  # 16 KiB, as a .wasm is served (StaticFiles' type)

    async def wasm(scope: Any, receive: Any, send: Any) -> None:
        await Response(body, media_type="application/wasm")(scope, receive, send)

    response = TestClient(Gzip(wasm)).get("/", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.content == body  # the client took the gzip off
    assert len(gzip.compress(body)) < len(body)


# -- /api/pool ----------------------------------------------------------------------------------


def test_pool_answers_distinct_shipped_deals_of_the_difficulty(client: TestClient) -> None:
    for difficulty in ("easy", "medium", "hard"):
        answer = client.get(f"/api/pool?difficulty={difficulty}&count=30").json()
        assert answer["rules"] == STANDARD.to_json() and answer["difficulty"] == difficulty
        codes = [GameCode.parse(c) for c in answer["codes"]]
        assert len(codes) == 30 and len({c.deal for c in codes}) == 30
        assert all(c.rules == STANDARD and c.deal in SHIPPED_POOL[difficulty] for c in codes)
    every = {d for deals in SHIPPED_POOL.values() for d in deals}
    answer = client.get("/api/pool").json()  # any difficulty, 20 codes
    assert len(answer["codes"]) == 20 and answer["difficulty"] == "any"
    assert {GameCode.parse(c).deal for c in answer["codes"]} <= every


def test_pool_for_rules_the_pool_lacks_answers_won_deals(client: TestClient) -> None:
    # Four cells: the survey's won deals; the easy game: random deals solved there and then.
    four = STANDARD.with_options(cells=4)
    for rules, query in ((four, json.dumps({"cells": 4})), (PRESETS["easy"], "easy")):
        answer = client.get("/api/pool", params={"rules": query, "count": 3}).json()
        assert answer["rules"] == rules.to_json()
        codes = [GameCode.parse(c) for c in answer["codes"]]
        assert 1 <= len(codes) <= 3 and len(set(codes)) == len(codes)
        for code in codes:
            assert code.rules == rules
            assert solve(code.position(), limit=Limit(nodes=500_000, seconds=None)).solved


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("rules=nope", 400, "unknown preset 'nope'"),
        ("rules={bad", 400, "rules must be a preset name or a JSON object"),
        ("rules=[1]", 400, "unknown preset"),
        ('rules={"cells": 9}', 400, "cells must be 8, 4 or 2"),
        ('rules={"preset": 3}', 400, "rules.preset must be a preset name"),
        ("difficulty=brutal", 400, "difficulty must be one of any, easy, medium, hard"),
        ("count=0", 422, "count"),
        ("count=101", 422, "count"),
        ("count=many", 422, "count"),
    ],
)
def test_pool_refuses_bad_queries(client: TestClient, query: str, status: int, words: str) -> None:
    response = client.get(f"/api/pool?{query}")
    assert response.status_code == status
    assert words in response.json()["error"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rules=st.text(max_size=30)
    | st.builds(
        json.dumps,
        st.dictionaries(
            st.text(max_size=8), st.integers() | st.text(max_size=4) | st.booleans(), max_size=3
        ),
    )
)
def test_no_pool_query_gives_a_server_error(client: TestClient, rules: str) -> None:
    response = client.get("/api/pool", params={"rules": rules, "count": 1})
    assert response.status_code < 500, response.text


# -- /api/daily/ahead ---------------------------------------------------------------------------


def test_daily_ahead_answers_the_deals_of_the_day_to_come(client: TestClient) -> None:
    first = date(2026, 12, 30)
    answer = client.get("/api/daily/ahead?date=2026-12-30&days=4").json()
    assert answer["rules"] == STANDARD.to_json()
    days = answer["days"]
    assert [d["date"] for d in days] == [(first + timedelta(k)).isoformat() for k in range(4)]
    for day in days:  # each the very deal /api/daily answers for its date
        daily = client.get(f"/api/daily?date={day['date']}").json()
        assert (day["code"], day["solver_moves"]) == (daily["code"], daily["solver_moves"])
    today = client.get("/api/daily/ahead").json()["days"]
    assert len(today) == 14 and today[0]["code"] == client.get("/api/daily").json()["code"]
    alternate = client.get("/api/daily/ahead?days=1&rules=alternate").json()
    assert GameCode.parse(alternate["days"][0]["code"]).rules == PRESETS["alternate"]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("date=2026-13-01", 400, "no such date"),
        ("date=tomorrow", 400, "YYYY-MM-DD"),
        ("days=0", 422, "days"),
        ("days=32", 422, "days"),
        ("rules=nope", 400, "unknown preset"),
        ("date=9999-12-30&days=3", 400, "run past 9999-12-31"),
    ],
)
def test_daily_ahead_refuses_bad_queries(
    client: TestClient, query: str, status: int, words: str
) -> None:
    response = client.get(f"/api/daily/ahead?{query}")
    assert response.status_code == status
    assert words in response.json()["error"]


def test_the_api_schema_documents_the_offline_routes(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    pool = doc["paths"]["/api/pool"]["get"]
    assert {p["name"] for p in pool["parameters"]} == {"rules", "difficulty", "count"}
    assert {"200", "400", "422"} <= set(pool["responses"])
    ahead = doc["paths"]["/api/daily/ahead"]["get"]
    assert {p["name"] for p in ahead["parameters"]} == {"date", "days", "rules"}
    assert "PoolAnswer" in doc["components"]["schemas"]
    assert "DailyAheadAnswer" in doc["components"]["schemas"]
