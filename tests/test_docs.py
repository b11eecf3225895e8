"""The project's front pages: within their sizes, every local link pointing at a file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PENDING: set[str] = set()
"""Pages linked to that another branch adds (the solver from the inside): drop once merged."""
PAGES = [
    "README.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md"))),
]


def section(text: str, title: str) -> list[str]:
    """The lines of the ``## title`` section of a Markdown page."""
    lines = text.splitlines()
    start = lines.index(f"## {title}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def test_the_readme_is_a_front_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    assert len(section(readme, "Solver")) <= 25
    for page in ("docs/rules.md", "docs/solver.md", "docs/cli.md", "docs/api.md", "docs/atlas.md"):
        assert f"]({page})" in readme, page


def test_licence_and_notice() -> None:
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    notice = (ROOT / "NOTICE").read_text(encoding="utf-8")
    for named in ("Freecell Solver", "pysol_cards", "PySolFC", "Paul", "Helmert"):
        assert named in notice, named


@pytest.mark.parametrize("page", [p for p in PAGES if (ROOT / p).exists()])
def test_local_links_point_at_files(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        path = ((ROOT / page).parent / target).resolve()
        assert path.exists() or str(path.relative_to(ROOT)) in PENDING, f"{page}: {target}"
