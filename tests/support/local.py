"""The page's local game service (``static/local/``) run in Node, and the server's own
answers to the same requests, for the differential tests: one Node process answers a
whole batch of requests, one a line."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from eightoff.web.errors import ApiError
from eightoff.web.limits import Limits
from eightoff.web.models import GameRequest, NewRequest, StateRequest
from eightoff.web.service import GameService

TESTS = Path(__file__).resolve().parent.parent
STATIC = TESTS.parent / "src" / "eightoff" / "web" / "static"
HARNESS = TESTS / "support" / "local_service.mjs"
KERNEL = STATIC / "kernel.js"
WASM = STATIC / "kernel.wasm"
NODE = shutil.which("node")

needs_node_and_kernel = [
    pytest.mark.node,
    pytest.mark.skipif(not WASM.exists(), reason="kernel.wasm was not built (make wasm)"),
]
"""Marks a test that runs the page's modules in Node on the WebAssembly kernel (skipped
where Node.js is not installed or kernel.wasm not built)."""

Request = tuple[str, dict[str, Any]]


def local_answers(requests: Sequence[Request]) -> list[dict[str, Any]]:
    """The local service's answers ``{"status", "body"}`` to ``requests``, in order."""
    assert NODE is not None
    lines = "".join(json.dumps({"path": p, "body": b}) + "\n" for p, b in requests)
    done = subprocess.run(
        [NODE, str(HARNESS), str(KERNEL), str(WASM)],
        input=lines,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(requests), done.stderr[-2000:]
    return answers


def server() -> GameService:
    """The server's game service, in process (no solver process is started for states)."""
    return GameService(Limits(), None, random.Random(0))


def server_answer(service: GameService, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """What the server's route ``path`` answers to ``body``: ``{"status", "body"}``."""
    try:
        if path == "/api/new":
            return {"status": 200, "body": service.new(NewRequest(**body))}
        if path == "/api/state":
            return {"status": 200, "body": service.state(StateRequest(**body))}
        if path == "/api/hint":
            return {"status": 200, "body": service.hint(GameRequest(**body))}
        return {"status": 200, "body": service.solve(GameRequest(**body))}
    except ApiError as exc:
        return {"status": exc.status, "body": {"error": exc.message, **exc.extra}}


def canonical(answer: Any) -> str:
    """``answer`` as canonical JSON (keys sorted), to compare byte for byte."""
    return json.dumps(answer, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def differences(
    requests: Iterable[Request], ours: Iterable[Any], theirs: Iterable[Any], most: int = 3
) -> list[str]:
    """The first ``most`` requests whose two answers differ, each with both answers."""
    out = []
    for (path, body), a, b in zip(requests, ours, theirs, strict=True):
        if canonical(a) != canonical(b):
            out.append(
                f"{path} {canonical(body)[:300]}\n local: {canonical(a)[:600]}\n server: "
                f"{canonical(b)[:600]}"
            )
            if len(out) >= most:
                break
    return out
