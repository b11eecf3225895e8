"""Requests per second and p50/p95 latency of the web API under load.

    .venv/bin/python benchmarks/api_load.py [--state N] [--hint N] [--clients C] [--workers W]
                                            [--solvers S] [--seconds T]
                                            [--only saturated|idle|heavy] [--json FILE]

Starts ``eightoff serve --workers W`` (default 2 uvicorn worker processes) on a
free loopback port, then C client threads (keep-alive connections) send a
bounded number of requests:

* ``/api/state`` with a 150-move game (a random walk of legal moves from a
  standard deal, as the page sends it: the server replays all 150 and describes
  the position);
* ``/api/state`` with long games, one client (the idle cost of a replay): 2,000
  moves as the page sends them (each move's compact notation, "3a", which every
  move the API answers carries), the same as JSON objects (what a game saved
  before moves carried their notation sends), and 10,000 moves in the compact
  notation (the most a request takes; as objects they would not fit the body limit);
* ``/api/hint`` from positions on the solver's winning line and from lost
  positions (the solver proves them lost, then looks for the move to undo to);
* saturated: S solve and S hint clients (default 8 + 8) loop for T seconds
  while C clients measure ``/api/state`` (150 moves): moves must stay snappy
  while the solvers run. A 429 (solver busy) is an answer there, not a failure.
  The solve and hint clients run in a process of their own, so the measuring
  clients' timings are not held up by their threads.

* heavy replays: a 10-move ``/api/state`` request, one client, alone and then while
  3 clients post legal 10,000-move games in a loop: the p99 under that load over the
  p99 alone, in one run (long replays run in a replay process of their own, so short
  requests keep the server: target ratio < 2).

Targets: state p95 < 20 ms idle and < 25 ms saturated, the 2,000-move state
call as the page sends it p95 < 20 ms (as objects < 40 ms; 10,000 moves: < 100 ms),
hint p95 < 300 ms. Exit status 1 if one is missed.
It first prints the CPU cost of one state request (the ASGI app called in
process, no sockets), so a busy machine's contention can be told apart, and
the machine's load average before and after (figures taken at a load above the
2 cores are contention, not the server).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import MutableMapping
from typing import Any

from eightoff.codes import GameCode
from eightoff.formats import move_to_json
from eightoff.moves import Move
from eightoff.position import Position
from eightoff.rules import STANDARD
from eightoff.solver import Limit, solve
from results_page import write_result

STATE_P95_MS = 20.0
SATURATED_STATE_P95_MS = 25.0
LONG_STATE_P95_MS = 20.0  # 2,000 moves, as the page sends them (compact)
LONG_OBJECTS_P95_MS = 40.0  # 2,000 moves as objects (a game saved before moves had texts)
LONGEST_STATE_P95_MS = 100.0  # 10,000 moves: five times the moves, five times the time
HINT_P95_MS = 300.0
HEAVY_RATIO = 2.0  # short requests' p99 under 3 long-replay clients, over their p99 alone
HEAVY_CLIENTS = 3
HEAVY_ROUNDS = 4  # short requests alone, then under load, this many times in turn
SHORT_GAME_MOVES = 10
GAME_MOVES = 150
LONG_GAME_MOVES = 2000
LONGEST_GAME_MOVES = 10_000
# Lost positions (the solver proves them lost, then searches back for a winnable one):
# a winnable 4-cell deal spoiled by these moves, and a 4-cell deal lost from the start.
LOST_GAMES: list[tuple[str, list[str]]] = [
    ("EO1-C4-AAAAABH", ["65", "6^", "1^", "d^", "a8", "8d", "7a"]),
    ("EO1-C4-AAAAAAA", []),
]


def long_game(moves: int, *, compact: bool = False) -> tuple[str, list[Any]]:
    """A standard deal and ``moves`` legal moves (a seeded random walk that never stalls),
    as JSON objects or, ``compact``, in the move notation ("3a")."""
    for seed in range(100):
        rng = random.Random(seed)
        code = GameCode(STANDARD, seed)
        pos = code.position()
        played: list[Any] = []
        while len(played) < moves:
            legal = pos.legal_moves()
            if not legal or pos.is_won():
                break
            move = rng.choice(legal)
            played.append(move.text() if compact else move_to_json(move, pos))
            pos = pos.apply_unchecked(move)
        if len(played) == moves:
            return str(code), played
    raise RuntimeError("no random walk of that length")


def hint_games(count: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """Positions along solver lines of a few deals: (code, moves so far)."""
    games = []
    for deal in range(count):
        code = GameCode(STANDARD, deal)
        pos: Position = code.position()
        line: list[Move] = list(solve(pos, limit=Limit(nodes=500_000, seconds=None)).moves)
        keep = random.Random(deal).randrange(len(line) // 2)
        moves = []
        for move in line[:keep]:
            moves.append(move_to_json(move, pos))
            pos = pos.apply(move)
        games.append((str(code), moves))
    return games


def lost_games() -> list[tuple[str, list[dict[str, Any]]]]:
    """The lost positions of :data:`LOST_GAMES`, moves in JSON form."""
    games = []
    for text, notation in LOST_GAMES:
        pos = GameCode.parse(text).position()
        moves = []
        for move in map(Move.from_text, notation):
            moves.append(move_to_json(move, pos))
            pos = pos.apply(move)
        games.append((text, moves))
    return games


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "eightoff", "serve", "--no-browser"]
        + ["--port", str(port), "--workers", str(workers)],
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/rules")
            if conn.getresponse().status == 200:
                conn.close()
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def load(
    port: int,
    path: str,
    bodies: list[bytes],
    total: int,
    clients: int,
    answers: list[Any] | None = None,
) -> tuple[float, list[float]]:
    """Send ``total`` requests from ``clients`` threads; (seconds, latencies in ms).
    ``answers`` gets each answer's JSON."""
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(total))
    errors: list[str] = []

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Content-Type": "application/json"}
        mine = []
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            body = bodies[i % len(bodies)]
            t0 = time.perf_counter()
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            mine.append((time.perf_counter() - t0) * 1000)
            if answers is not None:
                answers.append(json.loads(data))
            if response.status != 200:
                errors.append(f"{path}: HTTP {response.status}")
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"{len(errors)} failed requests, e.g. {errors[0]}")
    return elapsed, latencies


def background(
    port: int, path: str, bodies: list[bytes], clients: int, stop: threading.Event
) -> tuple[list[threading.Thread], dict[int, int]]:
    """``clients`` threads posting ``bodies`` to ``path`` in a loop until ``stop``;
    the count of each HTTP status they got (429 "solver busy" is an answer too)."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json"}
        i = k
        while not stop.is_set():
            conn.request("POST", path, body=bodies[i % len(bodies)], headers=headers)
            response = conn.getresponse()
            response.read()
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1
            if response.status == 429:
                time.sleep(float(response.getheader("Retry-After") or 1) / 10)
            i += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    return threads, statuses


def solver_clients(
    port: int,
    solve_bodies: list[bytes],
    hint_bodies: list[bytes],
    solvers: int,
    stop: Any,
    answers: Any,
) -> None:
    """``solvers`` solve and ``solvers`` hint clients looping until ``stop`` is set; the
    count of each HTTP status they got goes to the ``answers`` queue (run as a process)."""
    halt = threading.Event()
    solving, solve_status = background(port, "/api/solve", solve_bodies, solvers, halt)
    hinting, hint_status = background(port, "/api/hint", hint_bodies, solvers, halt)
    stop.wait()
    halt.set()
    for t in solving + hinting:
        t.join()
    statuses = dict(solve_status)
    for status, n in hint_status.items():
        statuses[status] = statuses.get(status, 0) + n
    answers.put(statuses)


def saturated(
    port: int,
    state_body: bytes,
    solve_bodies: list[bytes],
    hint_bodies: list[bytes],
    *,
    solvers: int,
    seconds: float,
    clients: int,
) -> tuple[float, list[float], dict[int, int]]:
    """``/api/state`` latencies while ``solvers`` solve and ``solvers`` hint clients loop
    (in a process of their own)."""
    context = multiprocessing.get_context("spawn")
    stop, answers = context.Event(), context.Queue()
    loaders = context.Process(
        target=solver_clients, args=(port, solve_bodies, hint_bodies, solvers, stop, answers)
    )
    loaders.start()
    time.sleep(2.0)  # let the solvers fill up
    elapsed = 0.0
    latencies: list[float] = []
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            took, more = load(port, "/api/state", [state_body], 20 * clients, clients)
            elapsed += took
            latencies += more
    finally:
        stop.set()
        statuses: dict[int, int] = answers.get(timeout=120)
        loaders.join(timeout=30)
    return elapsed, latencies, statuses


def in_process(body: bytes, path: str, count: int) -> tuple[list[float], list[float]]:
    """Latencies and CPU times (ms) of ``count`` calls of the ASGI app itself: no sockets,
    one at a time. The CPU cost of one request, which the loopback figures add contention
    and HTTP to; on a busy machine the CPU time holds better than the latency."""
    import asyncio

    from eightoff.web.app import Limits, create_app
    from eightoff.web.middleware import post_scope

    app = create_app(limits=Limits(heavy_body=0))  # the whole cost: the replay here too
    scope = post_scope(path, [(b"content-type", b"application/json")])

    async def one() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        status: list[int] = []

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])

        await app(dict(scope), receive, send)
        assert status == [200], status

    async def run() -> tuple[list[float], list[float]]:
        wall, cpu = [], []
        for _ in range(count):
            t0, c0 = time.perf_counter(), time.process_time()
            await one()
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        return wall, cpu

    return asyncio.run(run())


REPORTED: list[list[object]] = []
"""Each figure :func:`report` printed, as a results page's row."""

HEAVY_REPORTED: list[list[object]] = []
"""The heavy-replay figures :func:`heavy` printed, as the rows of a table of their own."""


def report(name: str, elapsed: float, latencies: list[float], target: float) -> bool:
    cuts = statistics.quantiles(latencies, n=100)
    p50, p95 = cuts[49], cuts[94]
    ok = p95 < target
    REPORTED.append(
        [name, f"{len(latencies) / elapsed:.0f}", f"{p50:.1f}", f"{p95:.1f}", f"{target:.0f}"]
    )
    print(
        f"{name:<34} {len(latencies):5d} requests  {len(latencies) / elapsed:7.1f} req/s  "
        f"p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  (target p95 < {target:.0f} ms: "
        f"{'met' if ok else 'MISSED'})"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--state", type=int, default=600, help="state requests (600)")
    parser.add_argument("--hint", type=int, default=120, help="hint requests (120)")
    parser.add_argument("--clients", type=int, default=2, help="client threads (2)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (2)")
    parser.add_argument(
        "--solvers", type=int, default=8, help="solve and hint clients when saturated (8 + 8)"
    )
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="length of the saturated run (20 s)"
    )
    parser.add_argument(
        "--only",
        choices=["saturated", "idle", "heavy"],
        help="run this scenario only (idle: in process, then loopback without solvers)",
    )
    parser.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    parser.add_argument(
        "--short",
        type=int,
        default=2000,
        help="short requests alone, and as many under load (2000)",
    )
    args = parser.parse_args(argv)
    print(f"load average before: {loadavg()}")

    code, moves = long_game(GAME_MOVES, compact=True)  # as the page sends them
    state_body = json.dumps({"code": code, "moves": moves}).encode()
    long = [
        (f"/api/state ({name})", json.dumps({"code": c, "moves": m}).encode(), target)
        for name, (c, m), target in (
            (
                f"{LONG_GAME_MOVES:,} moves as the page sends them",
                long_game(LONG_GAME_MOVES, compact=True),
                LONG_STATE_P95_MS,
            ),
            (
                f"{LONG_GAME_MOVES:,} moves as objects",
                long_game(LONG_GAME_MOVES),
                LONG_OBJECTS_P95_MS,
            ),
            (
                f"{LONGEST_GAME_MOVES:,} moves, compact",
                long_game(LONGEST_GAME_MOVES, compact=True),
                LONGEST_STATE_P95_MS,
            ),
        )
    ]
    on_line = [json.dumps({"code": c, "moves": m}).encode() for c, m in hint_games(12)]
    lost = [json.dumps({"code": c, "moves": m}).encode() for c, m in lost_games()]
    hint_bodies = on_line + lost
    if args.only not in ("saturated", "heavy"):
        for name, body, count in [
            (f"/api/state ({GAME_MOVES} moves)", state_body, 200),
            *((name, body, 40) for name, body, _ in long),
        ]:
            wall, cpu = in_process(body, "/api/state", count)
            cuts = statistics.quantiles(wall[count // 10 :], n=100)
            print(
                f"in process, one at a time: {name} p50 {cuts[49]:.1f} ms  "
                f"p95 {cuts[94]:.1f} ms, CPU median {statistics.median(cpu[count // 10 :]):.1f} "
                f"ms ({len(body):,} bytes)"
            )
    port = free_port()
    proc = start_server(port, args.workers)
    ok = True
    try:
        load(port, "/api/state", [state_body], 20, args.clients)  # warm up both workers
        load(port, "/api/hint", hint_bodies, 6, args.clients)
        print(
            f"eightoff serve --workers {args.workers}; {args.clients} keep-alive clients "
            f"on loopback; state body {len(state_body)} bytes ({GAME_MOVES} moves)"
        )
        if args.only in (None, "idle"):
            ok &= idle(port, args, state_body, long, on_line, lost)
        if args.only in (None, "heavy"):
            ok &= heavy(port, args, long[-1][1])
        if args.only in (None, "saturated"):
            ok &= saturation(port, args, state_body, hint_bodies)
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    print(f"load average after: {loadavg()}")
    if args.results:
        write_result(
            args.results,
            f"Web API over loopback, eightoff serve --workers {args.workers}",
            ["requests", "req/s", "p50 ms", "p95 ms", "target p95 ms"],
            REPORTED,
        )
        if HEAVY_REPORTED:
            write_result(
                os.path.join(os.path.dirname(os.path.abspath(args.results)), "api_heavy.json"),
                "Short requests beside heavy replays, eightoff serve",
                ["requests", "alone + beside", "p50 ms alone / beside", "p99 ms alone / beside"]
                + ["p99 ratio", "target"],
                HEAVY_REPORTED,
            )
    return 0 if ok else 1


def saturation(
    port: int, args: argparse.Namespace, state_body: bytes, hint_bodies: list[bytes]
) -> bool:
    """The saturated scenario, and the same clients just before; whether it met its target."""
    # Taking turns: the same clients without the solvers just before, so a busy
    # machine's share of the figure can be told from the solvers'.
    calm = load(port, "/api/state", [state_body], args.state, args.clients)
    elapsed, latencies, statuses = saturated(
        port,
        state_body,
        hint_bodies,
        hint_bodies,
        solvers=args.solvers,
        seconds=args.seconds,
        clients=args.clients,
    )
    report(f"/api/state ({GAME_MOVES} moves), just before", *calm, STATE_P95_MS)
    ok = report(
        f"/api/state, {args.solvers}+{args.solvers} solvers",
        elapsed,
        latencies,
        SATURATED_STATE_P95_MS,
    )
    answers = ", ".join(f"{n} × {status}" for status, n in sorted(statuses.items()))
    print(f"  meanwhile /api/solve and /api/hint answered: {answers}")
    return ok


def idle(
    port: int,
    args: argparse.Namespace,
    state_body: bytes,
    long: list[tuple[str, bytes, float]],
    on_line: list[bytes],
    lost: list[bytes],
) -> bool:
    """The idle scenarios: short and long games, hints; whether every target was met."""
    ok = report(
        f"/api/state ({GAME_MOVES} moves)",
        *load(port, "/api/state", [state_body], args.state, args.clients),
        STATE_P95_MS,
    )
    for name, body, target in long:
        ok &= report(name, *load(port, "/api/state", [body], 100, 1), target)
    hints: list[Any] = []
    ok &= report(
        "/api/hint (winning line)",
        *load(port, "/api/hint", on_line, args.hint, args.clients, hints),
        HINT_P95_MS,
    )
    unknown = sum(1 for h in hints if h["winnable"] is None)
    print(f"  {unknown} of {len(hints)} hints undecided in their time budget")
    ok &= report(
        "/api/hint (lost positions)",
        *load(port, "/api/hint", lost, max(args.hint // 4, 10), args.clients),
        HINT_P95_MS,
    )
    return ok


def replay_clients(port: int, body: bytes, clients: int, stop: Any, answers: Any) -> None:
    """``clients`` clients posting ``body`` to ``/api/state`` until ``stop`` is set; the
    count of each HTTP status they got goes to the ``answers`` queue (run as a process)."""
    halt = threading.Event()
    threads, statuses = background(port, "/api/state", [body], clients, halt)
    stop.wait()
    halt.set()
    for t in threads:
        t.join()
    answers.put(statuses)


def heavy(port: int, args: argparse.Namespace, longest: bytes) -> bool:
    """Short requests alone, then under :data:`HEAVY_CLIENTS` clients replaying the
    longest games (in a process of their own), :data:`HEAVY_ROUNDS` times in turn;
    whether the p99 ratio met its target (the figures also go to --results' folder,
    api_heavy.json)."""
    code, moves = long_game(SHORT_GAME_MOVES, compact=True)
    short = json.dumps({"code": code, "moves": moves}).encode()
    load(port, "/api/state", [longest], 8, 4)  # start each server process's replay process
    context = multiprocessing.get_context("spawn")
    alone: list[float] = []
    loaded: list[float] = []
    statuses: dict[int, int] = {}
    for _ in range(HEAVY_ROUNDS):  # in turn, so a change in the machine's load touches both
        alone += load(port, "/api/state", [short], args.short // HEAVY_ROUNDS, 1)[1]
        stop, answers = context.Event(), context.Queue()
        loaders = context.Process(
            target=replay_clients, args=(port, longest, HEAVY_CLIENTS, stop, answers)
        )
        loaders.start()
        try:
            time.sleep(2.0)  # the long replays under way
            loaded += load(port, "/api/state", [short], args.short // HEAVY_ROUNDS, 1)[1]
        finally:
            stop.set()
            for status, n in answers.get(timeout=120).items():
                statuses[status] = statuses.get(status, 0) + n
            loaders.join(timeout=30)
    figures: dict[str, dict[str, float]] = {}
    for name, latencies in (("alone", alone), ("under_load", loaded)):
        cuts = statistics.quantiles(latencies, n=100)
        figures[name] = {"requests": len(latencies), "p50": cuts[49], "p99": cuts[98]}
    a, u = figures["alone"], figures["under_load"]
    ratio = u["p99"] / a["p99"]
    ok = ratio < HEAVY_RATIO
    answered = ", ".join(f"{n} × {k}" for k, n in sorted(statuses.items()))
    HEAVY_REPORTED.append(
        [
            f"/api/state ({SHORT_GAME_MOVES} moves) beside {HEAVY_CLIENTS} clients replaying "
            f"{LONGEST_GAME_MOVES:,} moves",
            f"{a['requests']:.0f} + {u['requests']:.0f}",
            f"{a['p50']:.1f} / {u['p50']:.1f}",
            f"{a['p99']:.1f} / {u['p99']:.1f}",
            f"{ratio:.2f}",
            f"< {HEAVY_RATIO:g}",
        ]
    )
    print(
        f"/api/state ({SHORT_GAME_MOVES} moves) alone: p50 {a['p50']:.1f} ms  p99 "
        f"{a['p99']:.1f} ms; under {HEAVY_CLIENTS} clients replaying {LONGEST_GAME_MOVES:,} "
        f"moves: p50 {u['p50']:.1f} ms  p99 {u['p99']:.1f} ms; p99 ratio {ratio:.2f} "
        f"(target < {HEAVY_RATIO:g}: {'met' if ok else 'MISSED'}); long replays answered: "
        + answered
    )
    return ok


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages, and the cores they share."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


if __name__ == "__main__":
    sys.exit(main())
