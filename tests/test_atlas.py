"""The atlas page: its commands make the same survey again; its figures are the database's,
kept in an atlas file that a survey of a few variants updates."""

import math
import re
import shlex
from pathlib import Path

import pytest

from eightoff.atlas import AtlasError, Entry, entries, from_text, merged, to_text
from eightoff.atlaspage import PUBLISHED, Published, command, gap_sigma, markdown, rule_flags
from eightoff.cli import build_parser, main, rules_from_args
from eightoff.report import wilson
from eightoff.rules import OPTIONS, PRESETS, STANDARD, Rules
from eightoff.solver import Limit
from eightoff.store import Store
from eightoff.survey import DealRange
from eightoff.workers import Task, solve_task

FOUR_CELLS = STANDARD.with_options(cells=4)


@pytest.fixture(scope="module")
def atlas_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("atlas") / "atlas.db"
    rows = solve_task(
        Task(STANDARD, "eightoff", tuple(range(1, 41)), Limit(nodes=None, seconds=10.0))
    )
    rows += solve_task(
        Task(FOUR_CELLS, "eightoff", tuple(range(1, 31)), Limit(nodes=None, seconds=10.0))
    )
    rows += solve_task(
        Task(PRESETS["bakers"], "eightoff", (3, 4, 5, 9), Limit(nodes=None, seconds=10.0))
    )
    rows += solve_task(
        Task(STANDARD, "pysol", tuple(range(1, 9)), Limit(nodes=None, seconds=20.0), optimal=True)
    )
    with Store(db) as store:
        store.add(rows)
    return db


def test_rule_flags_name_the_rules_again() -> None:
    rules = [*PRESETS.values(), FOUR_CELLS]
    rules += [STANDARD.with_options(cells=2, build=b) for b in OPTIONS[2].values]
    rules.append(PRESETS["app"].with_options(take_back=False, cells=4))
    for r in rules:
        args = build_parser().parse_args(["survey", "1", "--db", "x", *rule_flags(r)])
        assert (rules_from_args(args) or STANDARD) == r, rule_flags(r)


def test_the_page_says_what_the_database_holds(atlas_db: Path) -> None:
    with Store(atlas_db, readonly=True) as store:
        found = entries(store)
        page = markdown(found, "atlas.db")
        solved = store.count(STANDARD, "eightoff", "solved")
        lost = store.count(STANDARD, "eightoff", "unsolvable")
    assert len(found) == 4
    low, high = wilson(solved, solved + lost)
    row = next(line for line in page.splitlines() if line.startswith("| standard (C8) | 1-40 |"))
    assert f"| {solved:,} | {lost:,} | 0 |" in row
    assert f"({100 * low:.2f}%–{100 * high:.2f}%)" in row
    # The proven-optimal lengths: one bar per 5 moves, every optimal deal counted once.
    optimal = next(e for e in found if e.optimal)
    assert optimal.source == "pysol" and optimal.optimal_mode
    head = page.index("## Proven-optimal solution lengths")
    bars = re.findall(r"^\| (\d+)–(\d+) \| ([\d,]+) \|", page[head:], re.MULTILINE)
    assert all(int(hi) - int(lo) == 4 for lo, hi, _ in bars)
    assert sum(int(n) for _, _, n in bars) == len(optimal.optimal) == 8
    # Each published figure of a rule set in the database, set against our interval.
    standard = next(e for e in found if e.rules == STANDARD and not e.optimal)
    low, high = wilson(standard.won, standard.decided)
    for p in PUBLISHED:
        if p.rules == STANDARD:
            inside = "yes" if low <= p.share <= high else "no"
            gap = f"{gap_sigma(standard, p):+.1f}σ | {inside} |"
            assert any(p.who in line and line.endswith(gap) for line in page.splitlines())
    # What was checked about the standard game's gap follows its figures.
    assert page.index("### Why our standard figure is higher") > page.index("## Published")


def test_the_pages_commands_make_the_same_survey_again(
    atlas_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(atlas_db, readonly=True) as store:
        page = markdown(entries(store), "atlas.db")
        before = {(r.rules, r.source, r.deal): (r.verdict, r.optimal) for r in store.rows()}
        optimal_lengths = {(r.source, r.deal): r.length for r in store.rows() if r.optimal}
    block = page.split("```sh\n")[1].split("```")[0].splitlines()
    surveys = [line for line in block if not line.startswith("eightoff survey report")]
    assert len(surveys) == 4
    again = tmp_path / "again.db"
    for line in surveys:
        argv = shlex.split(line)[1:]
        argv[argv.index("atlas.db")] = str(again)
        assert main([*argv, "--workers", "1"]) == 0, line
    capsys.readouterr()
    with Store(again, readonly=True) as store:
        after = {(r.rules, r.source, r.deal): (r.verdict, r.optimal) for r in store.rows()}
        assert {(r.source, r.deal): r.length for r in store.rows() if r.optimal} == optimal_lengths
    assert after == before
    # and the report line prints this page
    report = next(line for line in block if line.startswith("eightoff survey report"))
    argv = shlex.split(report.split(" > ")[0])[1:]
    argv[argv.index("atlas.db")] = str(atlas_db)
    assert main(argv) == 0
    assert capsys.readouterr().out == markdown(
        entries(Store(atlas_db, readonly=True)), str(atlas_db)
    )


def test_markdown_with_a_plot(
    atlas_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "atlas.png"
    status = main(["survey", "report", "--db", str(atlas_db), "--markdown", "--plot", str(png)])
    out = capsys.readouterr().out
    assert status == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert "![Verdicts, proven-optimal lengths and solve times](atlas.png)" in out
    assert f"--markdown --plot {png}" in out


def test_one_rule_set_and_a_group_command(atlas_db: Path) -> None:
    with Store(atlas_db, readonly=True) as store:
        (group,) = entries(store, FOUR_CELLS)
        page = markdown([group], "a.db")
    assert "| C4 | 1-30 |" in page and "standard (C8)" not in page.split("## Published")[0]
    assert command(group, "a.db") == "eightoff survey 1-30 --db a.db --time-limit 10 --cells 4"
    assert DealRange.parse("1-30") == DealRange("eightoff", group.spans)
    assert isinstance(group.rules, Rules)


def test_a_group_surveyed_at_two_limits_is_made_by_a_run_then_a_retry(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    rows = solve_task(Task(FOUR_CELLS, "eightoff", (1, 2, 3), Limit(nodes=None, seconds=10.0)))
    rows += solve_task(
        Task(FOUR_CELLS, "eightoff", (4,), Limit(nodes=None, seconds=60.0, memory=2 << 30))
    )
    with Store(db) as store:
        store.add(rows)
        (group,) = entries(store)
    assert group.limits == ((10.0, None, None), (60.0, None, 2 << 30))
    lines = command(group, "a.db").splitlines()
    assert lines == [
        "eightoff survey 1-4 --db a.db --time-limit 10 --cells 4",
        "eightoff survey 1-4 --db a.db --time-limit 60 --memory 2048 --redo-unknown --cells 4",
    ]
    args = build_parser().parse_args(shlex.split(lines[1])[1:])
    assert args.redo_unknown and args.time_limit == 60 and rules_from_args(args) == FOUR_CELLS
    assert args.memory == 2048
    # The atlas file keeps the tables' bytes where a limit gave them, and reads a line
    # of an older file (seconds and nodes alone) as the solver's default.
    line = group.to_json()
    assert line["limits"] == [[10.0, None], [60.0, None, 2 << 30]]
    assert Entry.from_json(line) == group
    with pytest.raises(AtlasError, match="table bytes at most"):
        Entry.from_json({**line, "limits": [[10.0, None, 1, 2]]})


def test_the_gap_to_a_published_figure_counts_both_samples_errors() -> None:
    ours = Entry(STANDARD, "eightoff", ((1, 10_000),), ((10.0, None, None),), 9_900, 100, (), 0.001,
                 0.01, 80.0, ())  # fmt: skip
    known = Published("a survey of 10,000", STANDARD, 0.98, 10_000, "")
    unsized = Published("a figure alone", STANDARD, 0.98, None, "")
    # 0.01 / sqrt(0.99 * 0.01 / 10,000 + 0.98 * 0.02 / 10,000)
    assert gap_sigma(ours, known) == pytest.approx(5.822, abs=1e-3)
    assert gap_sigma(ours, unsized) == pytest.approx(0.01 / math.sqrt(0.99 * 0.01 / 10_000))


def test_pysolfc_deals_have_their_own_table(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    with Store(db) as store:
        store.add(
            solve_task(
                Task(FOUR_CELLS, "eightoff", tuple(range(1, 6)), Limit(nodes=None, seconds=10.0))
            )
        )
        store.add(
            solve_task(
                Task(FOUR_CELLS, "pysol", tuple(range(1, 7)), Limit(nodes=None, seconds=10.0))
            )
        )
        page = markdown(entries(store), "two.db")
    head, _, pysol = page.partition("### PySolFC's deals")
    assert re.search(r"^\| C4 \| 1-5 \|", head, re.MULTILINE)
    assert re.search(r"^\| C4 \| pysol:1-6 \|", pysol, re.MULTILINE)
    assert "pysol:1-6 |" not in head and "| 1-5 |" not in pysol
    # and both are made again by the page's commands
    assert "eightoff survey pysol:1-6 --db two.db" in head


def test_an_entry_reads_back_as_written(atlas_db: Path) -> None:
    with Store(atlas_db, readonly=True) as store:
        found = entries(store)
    text = to_text(found)
    assert from_text(text) == found
    assert len(text.splitlines()) == len(found) + 2  # a group a line
    # the page made from the file is the page made from the database
    assert markdown(from_text(text), "atlas.db") == markdown(found, "atlas.db")
    optimal = next(e for e in found if e.optimal)
    assert sorted(optimal.optimal) == list(optimal.optimal) and len(optimal.optimal) == 8


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[]", "not an eightoff atlas file"),
        ('{"format": "eightoff-atlas", "version": 9, "groups": []}', "version 9"),
        ('{"format": "eightoff-atlas", "version": 1, "groups": [{"rules": {}}]}', "cannot be read"),
        ("{", "not a valid atlas file"),
    ],
)
def test_a_bad_atlas_file_is_named(text: str, says: str) -> None:
    with pytest.raises(AtlasError, match=f"mine.json: .*{says}"):
        from_text(text, "mine.json")


def test_a_survey_of_some_variants_updates_their_groups_alone(
    atlas_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    atlas, png = tmp_path / "atlas.json", tmp_path / "atlas.png"
    report = ["survey", "report", "--markdown", "--plot", str(png), "--atlas", str(atlas)]
    assert main([*report, "--db", str(atlas_db)]) == 0
    first = capsys.readouterr().out
    assert len(from_text(atlas.read_text())) == 4 and png.exists()
    # Four cells surveyed again on more deals, and the bakers preset with two cells, elsewhere.
    two_cells = PRESETS["bakers"].with_options(cells=2)
    other = tmp_path / "other.db"
    with Store(other) as store:
        store.add(
            solve_task(
                Task(FOUR_CELLS, "eightoff", tuple(range(1, 36)), Limit(nodes=None, seconds=10.0))
            )
        )
        store.add(
            solve_task(Task(two_cells, "eightoff", (1, 2, 3), Limit(nodes=None, seconds=10.0)))
        )
    drawn = png.read_bytes()
    assert main([*report, "--db", str(other)]) == 0
    captured = capsys.readouterr()
    page = captured.out
    found = from_text(atlas.read_text())
    assert len(found) == 5
    assert [e.spans for e in found if e.rules == FOUR_CELLS] == [((1, 35),)]
    assert "| C4 | 1-35 |" in page and "| C4 | 1-30 |" not in page
    assert "| C2-EB | 1-3 |" in page
    # the groups the second database lacks keep their rows, commands and optimal lengths
    for line in first.splitlines():
        if line.startswith(("| standard (C8) |", "| bakers (C4-EB) |", "eightoff survey pysol")):
            again = line.replace(str(atlas_db), str(other))  # commands name the database
            assert again in page.splitlines(), line
    assert "## Proven-optimal solution lengths" in page
    assert f"--atlas {atlas}" in page and "[atlas.json](atlas.json)" in page
    # it has no optimal rows: the plot the page links is left as it was
    assert png.read_bytes() == drawn and "kept" in captured.err


def test_atlas_needs_markdown_and_a_readable_file(
    atlas_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["survey", "report", "--db", str(atlas_db), "--atlas", "a.json"]) == 2
    assert "use it with --markdown" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "eightoff-verdicts"}')
    assert main(["survey", "report", "--db", str(atlas_db), "--markdown", "--atlas", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: not an eightoff atlas file" in err and "Traceback" not in err
    assert bad.read_text() == '{"format": "eightoff-verdicts"}'  # nothing lost
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (4 * 2**20 + 1))
    for path, says in [
        (tmp_path, "is a directory"),
        (Path("/dev/zero"), "is not a regular file"),  # read to the end, it never ends
        (tmp_path / "no" / "a.json", f"there is no directory {tmp_path / 'no'}"),
        (big, "over 4,194,304 bytes"),
    ]:
        argv = ["survey", "report", "--db", str(atlas_db), "--markdown", "--atlas", str(path)]
        assert main(argv) == 2, path
        assert says in capsys.readouterr().err, path


def test_merged_keeps_the_new_group_where_both_have_one() -> None:
    def entry(rules: Rules, high: int) -> Entry:
        return Entry(rules, "eightoff", ((1, high),), ((10.0, None),), high, 0, (), 0.001,
                     0.002, 80.0, ())  # fmt: skip

    old = [entry(STANDARD, 10), entry(FOUR_CELLS, 10)]
    new = [entry(FOUR_CELLS, 20), entry(PRESETS["bakers"], 5)]
    both = merged(new, old)
    assert [(e.rules, e.spans) for e in both] == [  # the atlas's order: Baker's deals first
        (PRESETS["bakers"], ((1, 5),)),
        (STANDARD, ((1, 10),)),
        (FOUR_CELLS, ((1, 20),)),
    ]


def test_a_survey_of_a_groups_unknown_deals_settles_them_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Four cells, deals 1-12 within 300 positions: some are left unknown. The atlas keeps
    # the group; a survey of those deals alone, without the limit, in a database of its
    # own, settles them in it rather than making the group those few deals.
    atlas = tmp_path / "atlas.json"
    report = ["survey", "report", "--markdown", "--atlas", str(atlas)]
    first, again = tmp_path / "first.db", tmp_path / "again.db"
    with Store(first) as store:
        store.add(
            solve_task(
                Task(FOUR_CELLS, "eightoff", tuple(range(1, 13)), Limit(nodes=300, seconds=10.0))
            )
        )
        (group,) = entries(store)
    assert group.unknown and group.decided == 12 - len(group.unknown)
    assert main([*report, "--db", str(first)]) == 0
    capsys.readouterr()
    with Store(again) as store:
        store.add(
            solve_task(Task(FOUR_CELLS, "eightoff", group.unknown, Limit(nodes=None, seconds=10.0)))
        )
        (retry,) = entries(store)
    assert retry.decided == len(group.unknown)
    assert main([*report, "--db", str(again)]) == 0
    page = capsys.readouterr().out
    (found,) = from_text(atlas.read_text())
    assert found.spans == ((1, 12),) and found.unknown == ()
    assert (found.won, found.lost) == (group.won + retry.won, group.lost + retry.lost)
    assert found.limits == ((10.0, 300, None), (10.0, None, None))
    assert command(found, "a.db").splitlines() == [
        "eightoff survey 1-12 --db a.db --time-limit 10 --node-limit 300 --cells 4",
        "eightoff survey 1-12 --db a.db --time-limit 10 --redo-unknown --cells 4",
    ]
    assert f"| C4 | 1-12 | {found.won} | {found.lost} | 0 |" in page
    # A survey of any deal the group had decided is a new group, as before.
    assert merged([retry], [found]) == [retry]
