"""Run-wide settings: the markers for what a test needs, the strict run ``make test``
asks for, and Hypothesis's profiles.

A test marked ``native``, ``fc_solve``, ``chromium``, ``wasm`` or ``node``
(``support.needs_native``...) is skipped, saying what is missing, on a machine without
the solver's C core, Freecell Solver's ``fc-solve``, Debian's chromium, the WebAssembly
build (``make wasm``, run by wasmtime) or Node.js; ``-m "not native"`` leaves such tests
out.

``pytest --strict-skips`` (what ``make test``, and so CI, runs) needs them all, and
fails on any skipped test whose reason is not on :data:`ALLOWED_SKIPS`: a run that
tested less cannot pass. A plain ``pytest`` by hand
still skips what the machine lacks (a pure-Python install stays supported).

``HYPOTHESIS_PROFILE=ci`` (or a ``CI`` variable) runs every property test on
derandomised examples: the same examples on every run. ``HYPOTHESIS_PROFILE=mutation``
(what ``benchmarks/mutation.py`` sets) runs the same examples but stops at the first
failing one, unshrunk, and runs the property tests after the others: a mutant is
killed as soon as any test fails, and shrinking its example would only cost time.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
from collections.abc import Callable, Generator
from typing import Final

import pytest
from hypothesis import Phase, settings

settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile(
    "mutation", settings.get_profile("ci"), phases=(Phase.explicit, Phase.generate)
)
PROFILE: Final = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI") else "default"
)
settings.load_profile(PROFILE)

ALLOWED_SKIPS: dict[str, str] = {
    "needs user namespaces (unshare -rm)": (
        "a read-only mount needs user namespaces, which many containers and CI runners turn "
        "off; nothing make can install provides them"
    ),
}
"""Skip reasons a strict run lets pass (the text a skip's reason contains), each with why."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--strict-skips",
        action="store_true",
        help="need the C core, chromium and fc-solve, and fail on any skip not allowed "
        "in tests/conftest.py (make test)",
    )


def _native_built() -> bool:
    from eightoff.solver import core

    return core.native is not None


def _wasm_built() -> bool:
    from support.wasm import WASM

    return WASM.exists() and importlib.util.find_spec("wasmtime") is not None


REQUIREMENTS: dict[str, tuple[Callable[[], bool], str]] = {
    "native": (_native_built, "the C core was not built"),
    "fc_solve": (
        lambda: shutil.which("fc-solve") is not None,
        "fc-solve is not installed (freecell-solver-bin)",
    ),
    "chromium": (
        lambda: shutil.which("chromium") is not None,
        "Debian's chromium is not installed (apt-get install chromium)",
    ),
    "wasm": (_wasm_built, "kernel.wasm was not built (make wasm) or wasmtime is missing"),
    "node": (
        lambda: shutil.which("node") is not None,
        "Node.js is not installed (apt-get install nodejs)",
    ),
}
"""Each marker for something a test needs: whether this machine has it, and the skip's
reason where it does not."""


@functools.cache
def lacks(marker: str) -> str | None:
    """Why this machine cannot run a test marked ``marker`` (None: it can)."""
    present, reason = REQUIREMENTS[marker]
    return None if present() else reason


def missing_requirements() -> list[str]:
    """What a strict run needs and this machine lacks, in words."""
    return [reason for marker in REQUIREMENTS if (reason := lacks(marker)) is not None]


def pytest_configure(config: pytest.Config) -> None:
    for marker, (_, reason) in REQUIREMENTS.items():
        config.addinivalue_line("markers", f"{marker}: skipped where {reason}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for marker in REQUIREMENTS:
            reason = lacks(marker) if item.get_closest_marker(marker) else None
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))
    if PROFILE == "mutation":  # the example tests first: they fail fastest
        items.sort(key=_is_property_test)


def _is_property_test(item: pytest.Item) -> bool:
    return bool(getattr(getattr(item, "obj", None), "is_hypothesis_test", False))


def pytest_sessionstart(session: pytest.Session) -> None:
    if session.config.getoption("strict_skips"):
        missing = missing_requirements()
        if missing:
            raise pytest.UsageError(
                "--strict-skips: the tests need what this machine lacks:\n  "
                + "\n  ".join(missing)
                + "\n(make test installs them; run pytest without --strict-skips to skip)"
            )


def _held_to_allow_list(report: pytest.TestReport | pytest.CollectReport, strict: bool) -> None:
    # A skip off the allow-list becomes a failure that says why.
    if not (strict and report.skipped) or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    reason = reason.removeprefix("Skipped: ")
    if not any(allowed in reason for allowed in ALLOWED_SKIPS):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped under --strict-skips ({reason}): make it run, or add its reason "
            "to ALLOWED_SKIPS in tests/conftest.py with why"
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    _held_to_allow_list(report, item.config.getoption("strict_skips"))
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    report = yield
    _held_to_allow_list(report, collector.config.getoption("strict_skips"))
    return report
