"""The engine, the solver and the command line's engine commands need none of the faces'
packages: those are extras (``eightoff[web]``, ``[tui]``, ``[survey]``, ``[parquet]``,
``[all]``)."""

import os
import pty
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

FACES = (
    "fastapi",
    "uvicorn",
    "starlette",
    "textual",
    "distributed",
    "dask",
    "matplotlib",
    "pyarrow",
)

_BLOCKED_RUN = """
import sys

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {faces!r}:
            raise ImportError(f"{{name}} is blocked: not installed")
        return None

sys.meta_path.insert(0, Blocker())
import eightoff, eightoff.codes, eightoff.formats, eightoff.game, eightoff.sources
import eightoff.solver
from eightoff.cli import main
from eightoff.codes import GameCode
from eightoff.solver import Limit, solve

result = solve(GameCode.parse("EO1-C8-AAAAAFA").position(), limit=Limit(nodes=200_000))
status = main(["deal", "EO1-C8-AAAAAFA", "--format", "json"])
loaded = sorted({{m.partition(".")[0] for m in sys.modules}} & set({faces!r}))
print(result.verdict.value, status, loaded)
"""


def test_engine_and_solver_import_without_the_faces() -> None:
    code = _BLOCKED_RUN.format(faces=FACES)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "solved 0 []"


def test_the_faces_are_extras_and_all_gathers_them() -> None:
    project = tomllib.loads(Path(__file__).parents[1].joinpath("pyproject.toml").read_text())
    needs = " ".join(project["project"]["dependencies"])
    assert not any(face in needs for face in FACES)
    extras = project["project"]["optional-dependencies"]
    assert {"web", "tui", "survey", "parquet", "all"} <= set(extras)
    assert extras["all"] == ["eightoff[web,tui,survey,parquet]"]
    assert any(d.startswith("fastapi") for d in extras["web"])
    assert any(d.startswith("textual") for d in extras["tui"])
    assert any(d.startswith("matplotlib") for d in extras["survey"])
    assert any(d.startswith("pyarrow") for d in extras["parquet"])


_MISSING_RUN = """
import sys

class Missing:
    # As if {package} were not installed: the import fails as a missing module does.
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == {package!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from eightoff.cli import main
sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize(
    ("argv", "package", "extra"),
    [
        (["play"], "textual", "tui"),
        (["serve", "--no-browser", "--port", "1"], "uvicorn", "web"),
    ],
)
def test_a_face_without_its_extra_says_what_to_install(
    argv: list[str], package: str, extra: str
) -> None:
    # The terminal game starts only on a terminal: run on a pseudo-terminal, so `play`
    # reaches the import it would make for a player.
    code = _MISSING_RUN.format(package=package, argv=argv)
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            stdin=secondary,
            stdout=secondary,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"eightoff: error: the {'terminal' if extra == 'tui' else 'web'} game needs {package}, "
        f"which is not installed: install eightoff[{extra}] (pip install 'eightoff[{extra}]')"
    ]
