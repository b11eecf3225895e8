"""The C core under AddressSanitizer: random solves at tight limits, every variant.

    python benchmarks/native_sanitizer.py [--solves 20000] [--seed 1] [--hard]

Builds a copy of the package whose two extensions (the kernel's and the solver's) are
compiled with ``-fsanitize=address`` (gcc and its libasan, as ``make build-deps`` installs them),
then solves random deals of the 24 variants of docs/atlas.md through the public
``solve()`` with node limits of 1-150,000 positions and memory limits of
64 KiB-16 MiB, one solve in five in optimal mode (``--hard``: the hardest variants,
200,000-2,000,000 positions, 256 KiB-64 MiB, where the proof's tables fill). Every
line found is replayed to a win. A memory error stops the run with AddressSanitizer's
report (exit status 1); at the end it prints the solves made and their verdicts.

This found a heap freed twice when a helper search filled its share of a small memory
limit (fixed in the C core's memory accounting). Leak reports are off: Python's own
allocations would drown them.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections import Counter
from pathlib import Path

from results_page import write_result

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
EXTENSION = "_native" + SUFFIX


def build(where: Path) -> Path:
    """Copy ``src`` to ``where`` and compile its extension with AddressSanitizer."""
    src = where / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    include = sysconfig.get_paths()["include"]
    kernel, native = src / "eightoff/_kernel", src / "eightoff/solver/native"
    units = [str(p) for p in sorted(kernel.glob("*.c")) if p.name != "module.c"]
    flags = [
        "-O1",
        "-g",
        "-fsanitize=address",
        "-fno-omit-frame-pointer",
        "-fwrapv",
        "-fno-strict-aliasing",
    ]
    flags += ["-fPIC", "-shared", f"-I{include}", f"-I{kernel}", f"-I{native}"]
    solver = [str(p) for p in sorted(native.glob("*.c"))]
    for sources, out in (
        ([str(kernel / "module.c"), *units], kernel / ("_kernel" + SUFFIX)),
        ([*solver, *units], src / "eightoff/solver" / EXTENSION),
    ):
        subprocess.run(["gcc", *flags, *sources, "-o", str(out)], check=True)
    return src


def run_solves(seed: int, solves: int, hard: bool) -> Counter[str]:
    """Solve ``solves`` random deals at random limits; the verdicts counted."""
    sys.path.insert(0, str(Path(__file__).parent))
    from eightoff.deal import pysol_deal
    from eightoff.solver import Limit, core, solve
    from solver_variants import CODES, VARIANTS

    native_file = str(getattr(core.native, "__file__", ""))
    sanitized = native_file.startswith(os.environ["PYTHONPATH"])
    assert sanitized, f"not the sanitized build: {native_file}"
    rng = random.Random(seed)
    codes = ["C2-A", "C2-AB", "C4-A", "C2-EA", "C2-EAB", "C2", "C4-B"] if hard else CODES
    memories = [1 << k for k in (range(18, 27, 2) if hard else range(16, 25))]
    limits = [200_000, 600_000, 2_000_000] if hard else [1, 10, 100, 1000, 5000, 20_000, 150_000]
    seen: Counter[str] = Counter()
    for _ in range(solves):
        code = rng.choice(codes)
        number = rng.randint(1, 3000 if hard else 32000)
        limit = Limit(nodes=rng.choice(limits), memory=rng.choice(memories), seconds=20)
        optimal = rng.random() < 0.2
        position = pysol_deal(number, VARIANTS[code].rules)
        result = solve(position, limit=limit, optimal=optimal)
        for move in result.moves:
            position = position.apply(move)
        if position.is_won() != result.solved:
            raise SystemExit(f"{code} {number} {limit} optimal={optimal}: a line that does not win")
        seen[result.verdict.value] += 1
    return seen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--solves", type=int, default=20_000, help="solves to make")
    ap.add_argument("--seed", type=int, default=1, help="the random deals' and limits' seed")
    ap.add_argument("--hard", action="store_true", help="hard variants, long limits")
    ap.add_argument("--results", metavar="FILE", help="also write the figures (results_page)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        seen = run_solves(args.seed, args.solves, args.hard)
        print(f"{sum(seen.values())} solves, no memory error: {dict(seen)}")
        return 0
    libasan = subprocess.run(
        ["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        src = build(Path(tmp))
        env = {
            **os.environ,
            "PYTHONPATH": str(src),
            "LD_PRELOAD": libasan,
            "ASAN_OPTIONS": "detect_leaks=0",
        }
        cmd = [sys.executable, __file__, "--child", "--seed", str(args.seed)]
        cmd += ["--solves", str(args.solves)] + (["--hard"] if args.hard else [])
        code = subprocess.run(cmd, env=env, check=False, stdout=subprocess.PIPE, text=True)
    print(code.stdout, end="")
    if args.results:
        found = code.stdout.strip().splitlines()[-1] if code.returncode == 0 else "stopped"
        write_result(
            args.results,
            "The C core under AddressSanitizer",
            ["run", "outcome"],
            [
                [
                    f"--seed {args.seed} --solves {args.solves}" + (" --hard" if args.hard else ""),
                    found,
                ]
            ],
        )
    return code.returncode


if __name__ == "__main__":
    sys.exit(main())
