"""Survey reports: Wilson interval, quantiles, the text, the plot."""

import math
from pathlib import Path

import pytest

from eightoff.report import plot, quantile, report, summaries, summarize, wilson
from eightoff.rules import PRESETS, STANDARD
from eightoff.store import Row, Store


def test_wilson_interval() -> None:
    # Known values: 9988 of 10000 -> about 99.79%..99.93%.
    low, high = wilson(9988, 10000)
    assert low == pytest.approx(0.99790, abs=5e-5)
    assert high == pytest.approx(0.99931, abs=5e-5)
    low, high = wilson(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_quantile() -> None:
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    assert quantile([5], 0.99) == 5
    assert math.isnan(quantile([], 0.5))


def row(number: int, verdict: str, length: int | None, seconds: float, **kw: object) -> Row:
    values: dict[str, object] = {
        "rules": STANDARD,
        "source": "pysol",
        "deal": number,
        "verdict": verdict,
        "length": length,
        "optimal": False,
        "nodes": int(seconds * 10000),
        "seconds": seconds,
        "moves": "",
        "solver": "0.1.0",
        "rating": ("easy" if length and length < 90 else "hard") if verdict == "solved" else None,
        "time_limit": 5.0,
    }
    values.update(kw)
    return Row(**values)  # type: ignore[arg-type]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "survey.db"
    rows = [row(n, "solved", 70 + n, 0.01 * n) for n in range(1, 40)]
    rows += [row(40, "unsolvable", None, 0.7), row(45, "unsolvable", None, 0.2)]
    rows += [row(46, "unknown", None, 5.0)]
    rows += [row(3, "solved", 88, 0.1, rules=PRESETS["easy"], source="eightoff")]
    with Store(path) as store:
        store.add(rows)
    return path


def test_report_text(db: Path) -> None:
    with Store(db) as store:
        text = report(store, STANDARD)
        summary = summarize(store, STANDARD, "pysol")
        both = report(store)
        assert report(store, PRESETS["bakers"]).startswith("No survey results for bakers")
    assert summary.verdicts == {"solved": 39, "unsolvable": 2, "unknown": 1}
    assert summary.spans == [(1, 40), (45, 46)]
    assert summary.unsolvable == [40, 45]
    assert "Deals:   pysol:1-40,45-46 (42 deals)" in text
    assert "solved             39   92.86%" in text
    low, high = wilson(39, 41)
    assert f"Winnability: 95.12% (95% CI {100 * low:.2f}%–{100 * high:.2f}%, Wilson" in text
    assert "counting the 1 unknown deals as all lost / all won: 92.86% – 95.24%" in text
    assert "min 71 · p10 74.8 · median 90 · p90 105 · p99 109 · max 109 · mean 90" in text
    assert "Unsolvable deals (2): pysol:40, pysol:45" in text
    assert "Unknown deals (1): pysol:46" in text
    assert "Rules:   standard (" in text and "easy (" not in text
    assert "Rules:   easy (" in both and "Deals:   3 (1 deals)" in both


def test_plot_writes_a_png(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "survey.png"
    with Store(db) as store:
        plot(summaries(store), out)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # Two groups -> two rows of panels: the picture is taller than wide/3.
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert width == 1600 and height > 900
    empty = tmp_path / "empty.png"
    plot([], empty)
    assert empty.read_bytes()[:4] == b"\x89PNG"
