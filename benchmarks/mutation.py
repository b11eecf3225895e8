"""Mutation testing of the engine modules with mutmut (``make mutate``).

    .venv/bin/python benchmarks/mutation.py [MODULE ...] [--jobs 1]

Each module (position, game, codes, formats, view by default) is mutated in a scratch
copy of the project under ``build/mutation/MODULE`` and held to its own tests only,
one module at a time. Prints each module's score (killed / mutants tested) and its
surviving mutants with their diffs; exit status 1 when a module scores under 90%.
The mutants that survive on purpose, each with its reason, are listed in
benchmarks/results/mutation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 90.0

# Each engine module and the tests that hold it.
MODULES: dict[str, tuple[str, ...]] = {
    "position": (
        "tests/test_position.py",
        "tests/test_moves.py",
        "tests/test_rule_tables.py",
        "tests/test_position_places.py",
        "tests/test_position_board.py",
        "tests/test_replay.py",
    ),
    "game": ("tests/test_game.py", "tests/test_view.py", "tests/test_replay.py"),
    "codes": ("tests/test_codes.py",),
    "formats": ("tests/test_formats.py",),
    "view": ("tests/test_view.py", "tests/test_game.py"),
}


def scratch(module: str) -> Path:
    """A fresh copy of the sources, the tests and pyproject.toml, configured for mutmut."""
    work = ROOT / "build" / "mutation" / module
    shutil.rmtree(work, ignore_errors=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", work / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", work / "tests", ignore=ignore)
    config = {
        "source_paths": ["src"],
        "only_mutate": [f"src/eightoff/{module}.py"],
        "pytest_add_cli_args": ["-p", "no:xdist", "-p", "no:cacheprovider"],
        "pytest_add_cli_args_test_selection": list(MODULES[module]),
        # A mutant's tests get 4 times (not mutmut's 15) their clean run's CPU time, twice
        # over: a mutant that loops forever costs seconds, not minutes.
        "timeout_multiplier": 4.0,
    }
    table = "\n[tool.mutmut]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in config.items())
    (work / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text() + table)
    return work


def mutmut(work: Path, *args: str) -> str:
    """Run ``mutmut ARGS`` in ``work``; its output."""
    exe = Path(sys.executable).with_name("mutmut")
    # The property tests stop at their first failing example, unshrunk (tests/conftest.py).
    env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation"}
    done = subprocess.run(
        [str(exe), *args], cwd=work, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"mutmut {' '.join(args)} failed in {work}:\n{done.stdout}{done.stderr}")
    return done.stdout


def run(module: str, jobs: int) -> float:
    """Mutate ``module``, print its score and survivors; the score in percent."""
    work = scratch(module)
    start = time.monotonic()
    mutmut(work, "run", "--max-children", str(jobs))
    minutes = (time.monotonic() - start) / 60
    mutmut(work, "export-cicd-stats")
    stats = json.loads((work / "mutants" / "mutmut-cicd-stats.json").read_text())
    killed = stats["killed"] + stats["timeout"]
    tested = stats["total"] - stats["skipped"]
    score = 100.0 * killed / tested if tested else 0.0
    print(
        f"{module}: {score:.1f}% ({killed} of {tested} mutants killed) in {minutes:.0f} min",
        flush=True,
    )
    for line in mutmut(work, "results").splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            print(f"  {status}: {name}")
            if status == "survived":  # "no tests": the module's tests never run it
                diff = mutmut(work, "show", name).splitlines()
                changed = [d for d in diff if d[:1] in "+-" and d[:3] not in ("+++", "---")]
                print("\n".join("    " + d for d in changed))
    return score


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help=f"any of {', '.join(MODULES)} (all)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once")
    args = parser.parse_args(argv)
    unknown = set(args.modules) - set(MODULES)
    if unknown:
        parser.error(f"no such engine module: {', '.join(sorted(unknown))}")
    scores = {m: run(m, args.jobs) for m in args.modules or MODULES}
    print("\n".join(f"{m:10} {s:5.1f}%" for m, s in scores.items()))
    return 0 if all(s >= TARGET for s in scores.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
