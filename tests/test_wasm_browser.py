"""kernel.js and kernel.wasm in a real browser: Debian's chromium, driven by Playwright,
loads them in a module Web Worker of the game's page, under the server's own security
policy, and the worker's answers are the engine's and the C core's."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from eightoff.codes import GameCode
from eightoff.formats import move_to_json, position_to_json
from eightoff.rules import PRESETS, STANDARD
from eightoff.solver import Limit, solve
from support import needs_native
from support.browser import serve_app
from support.wasm import needs_wasm

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [needs_wasm, needs_native, pytest.mark.chromium]

WORKER = """
import { loadKernel } from "/static/kernel.js";
const kernel = loadKernel("/static/kernel.wasm");
onmessage = async ({ data: { position, nodes } }) => {
  const k = await kernel;
  postMessage({
    legal: k.legalMoves(null, position),
    solved: k.solve(null, position, { maxNodes: nodes, seconds: 60 }),
  });
};
"""
"""A worker as the page's would be: kernel.js imported, the module fetched by its URL."""
FOUR_CELLS = STANDARD.with_options(cells=4)  # its deal 1 is lost
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from eightoff.web.app import create_app

    yield from serve_app(create_app(seed=7))


def test_a_worker_of_the_page_runs_the_kernel(server: str) -> None:
    chromium = shutil.which("chromium")
    assert chromium is not None
    cases = []
    for rules, number in ((PRESETS["standard"], 3), (PRESETS["alternate"], 9), (FOUR_CELLS, 1)):
        position = GameCode(rules, number).position()
        found = solve(position, limit=Limit(nodes=20_000))
        cases.append((position, found))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        # The page's service worker would fetch the routed worker script from the server
        # itself (past page.route): this test is about the kernel in a worker, not about it.
        page = browser.new_context(service_workers="block").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        policy = page.goto(f"{server}/").headers["content-security-policy"]  # type: ignore[union-attr]

        def worker_script(route: Any) -> None:
            # Served from the page's origin with the server's policy, as a static file is.
            headers = {"content-type": "text/javascript", "content-security-policy": policy}
            route.fulfill(status=200, headers=headers, body=WORKER)

        page.route("**/static/test-worker.js", worker_script)
        for position, found in cases:
            answer = page.evaluate(
                """([position, nodes]) => new Promise((resolve, reject) => {
                  const worker = new Worker("/static/test-worker.js", { type: "module" });
                  worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
                  worker.onerror = (e) => reject(new Error(e.message || "worker error"));
                  worker.postMessage({ position, nodes });
                })""",
                [position_to_json(position), 20_000],
            )
            assert answer["legal"] == [
                move_to_json(m, position, text=True) for m in position.legal_moves()
            ]
            assert answer["solved"]["verdict"] == found.verdict.value
            assert [m["text"] for m in answer["solved"]["moves"]] == [m.text() for m in found.moves]
        browser.close()
    assert not errors, errors
    assert {found.verdict.value for _, found in cases} == {"solved", "unsolvable"}
