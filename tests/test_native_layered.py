"""The proof by layers (native/layered.c: foundations, then dealt cards frozen in
place) against the whole proof and the reference search."""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest

from eightoff.deal import pysol_deal
from eightoff.export import variant
from eightoff.position import Position
from eightoff.rules import Build, EmptyColumn, Layout, Rules
from eightoff.solver import Limit, Verdict, core, reference, solve
from support import hard_endgame

native = core.native
pytestmark = pytest.mark.skipif(native is None, reason="the C core was not built")
LIMIT = 2  # the C searches' status for "a limit was hit"
C2_A = Rules(cells=2, build=Build.ALTERNATE)
C2_EA = Rules(cells=2, build=Build.ALTERNATE, empty_column=EmptyColumn.ANY)
C4_EB = Rules(cells=4, empty_column=EmptyColumn.ANY, layout=Layout.BAKERS)
# Lost PySolFC deals with a thousand to 60,000 positions in the proof.
LOST = {C2_A: (11, 12, 36, 56), C2_EA: (25, 36), C4_EB: (10, 14, 23)}


def search_state(position: Position) -> tuple[tuple[bytes, ...], bytes, tuple[int, int, int, int]]:
    cols, cells, founds = core.state(position)
    return cols, bytes(sorted(c for c in cells if c >= 0)), founds


Runs = list[tuple[tuple[int, int, int, int], int, int]]  # foundations, frozen, positions


def layered_runs(
    position: Position, spill: Path, max_buffered: int = 1 << 20, nodes: int = -1
) -> tuple[tuple[int, int, int, int, int], Runs]:
    """(status, nodes, layers, largest, spilled), and each layer as run."""
    assert native is not None
    state = search_state(position)
    config = core.config(position.rules)
    status, count, layers, largest, spilled, runs, _ = native.exhaust_layered(
        state,
        config,
        str(spill),
        max_nodes=nodes,
        max_bytes=1 << 30,
        max_buffered=max_buffered,
    )
    return (status, count, layers, largest, spilled), runs


def layered(
    position: Position, spill: Path, max_buffered: int = 1 << 20, nodes: int = -1
) -> tuple[int, int, int, int, int]:
    return layered_runs(position, spill, max_buffered, nodes)[0]


@pytest.mark.parametrize("rules", list(LOST), ids=variant)
def test_a_lost_deal_takes_the_same_positions_layer_by_layer(rules: Rules, tmp_path: Path) -> None:
    # Layer by layer, the proof expands every position the whole proof does, each
    # once (a position lost or doubled across layers would change the count), and
    # no table holds them all.
    assert native is not None
    for number in LOST[rules]:
        position = pysol_deal(number, rules)
        whole = native.exhaust(search_state(position), core.config(rules), max_bytes=1 << 30)
        (status, nodes, layers, largest, _), runs = layered_runs(position, tmp_path)
        assert whole[0] == status == core.EXHAUSTED, number
        assert nodes == whole[2] > 1_000, number
        assert layers > 1 and largest < nodes, number
        # Each layer once, fewest cards home first and of those the most cards frozen
        # in place first, their positions the whole count.
        assert len(runs) == layers == len({(founds, frozen) for founds, frozen, _ in runs}), number
        order = [(sum(f), -frozen) for f, frozen, _ in runs]
        assert order == sorted(order), number
        # The dealt cards frozen in place split the sets of foundations.
        assert len({founds for founds, *_ in runs}) < layers, number
        assert sum(n for *_, n in runs) == nodes and max(n for *_, n in runs) == largest


@pytest.mark.parametrize("rules", [C2_A, C2_EA])
def test_layer_by_layer_verdicts_are_the_reference_searchs(rules: Rules, tmp_path: Path) -> None:
    # Lost endgames are lost layer by layer; won ones are never called lost (a win
    # comes once every layer with fewer cards home ran dry: won, or the node limit).
    rng = random.Random(13)
    seen: set[Verdict] = set()
    for _ in range(16):
        position = hard_endgame(rng, rules, rng.randint(26, 34))
        plain = reference.solve_any(position, Limit(nodes=50_000, seconds=60))
        if plain.verdict is Verdict.UNKNOWN:
            continue  # too big for the plain search: not an oracle here
        status = layered(position, tmp_path, nodes=60_000)[0]
        if plain.solved:
            assert status in (core.SOLVED, LIMIT), position
        else:
            assert status == core.EXHAUSTED, position
        seen.add(plain.verdict)
    assert seen == {Verdict.SOLVED, Verdict.UNSOLVABLE}


@pytest.mark.parametrize("rules", [C2_A, C2_EA])
def test_small_won_endgames_are_won_layer_by_layer(rules: Rules, tmp_path: Path) -> None:
    rng = random.Random(5)
    won = 0
    while won < 6:
        position = hard_endgame(rng, rules, 16)
        if reference.solve_any(position, Limit(nodes=50_000, seconds=60)).solved:
            assert layered(position, tmp_path)[0] == core.SOLVED, position
            won += 1


def test_pending_positions_go_to_disk_and_are_read_back(tmp_path: Path) -> None:
    position = pysol_deal(56, C2_A)
    in_memory = layered(position, tmp_path)
    for n in range(40):  # another search's files, with the names the layers' take
        (tmp_path / f"layer-{n}").write_bytes(bytes([3, 1, 2, 3]) * 50)
    on_disk = layered(position, tmp_path, max_buffered=0)
    assert in_memory[4] == 0 < on_disk[4]
    assert on_disk[:4] == in_memory[:4]
    # Each layer's file goes once the layer is read; the root's layer has none.
    layers = on_disk[2]
    assert set(os.listdir(tmp_path)) == {f"layer-{n}" for n in range(layers - 1, 40)}


def test_a_node_limit_is_unknown_not_a_proof(tmp_path: Path) -> None:
    status, nodes, _, _, _ = layered(pysol_deal(56, C2_A), tmp_path, nodes=500)
    assert status == LIMIT and nodes == 500


def test_bad_places_and_rules_are_refused(tmp_path: Path) -> None:
    assert native is not None
    position = pysol_deal(56, C2_A)
    with pytest.raises(OSError, match="could not be kept"):
        layered(position, tmp_path / "missing", max_buffered=0)
    take_back = Rules(cells=2, build=Build.ALTERNATE, take_back=True)
    config = core.config(take_back)
    with pytest.raises(ValueError, match="take-back"):
        native.exhaust_layered(search_state(position), config, str(tmp_path), max_bytes=1 << 30)


def test_a_layer_whose_slots_cannot_double_side_by_side_rebuilds_them(tmp_path: Path) -> None:
    # 2-cell alternating PySolFC 43 is lost in 26,418 positions, 2,257 in its largest
    # layer. In 96 kB a layer's slots cannot double beside the old ones: they are
    # placed again from the records' keys, and the proof ends (it used to stop at
    # 11,599 positions, "unknown").
    assert native is not None
    position = pysol_deal(43, C2_A)
    status, count, _, largest, _, _, _ = native.exhaust_layered(
        search_state(position),
        core.config(C2_A),
        str(tmp_path),
        max_bytes=96 << 10,
        max_buffered=1 << 20,
    )
    assert (status, count, largest) == (core.EXHAUSTED, 26_418, 2_257)


def test_solve_settles_by_layers_what_its_tables_cannot_hold() -> None:
    # Fore Cell's PySolFC 136 is lost in 196,290 positions, 20,992 in its largest
    # layer: 1 MiB of tables hold that layer but not the whole proof, 512 kB neither.
    assert native is not None
    position = pysol_deal(136, Rules(cells=4, build=Build.ALTERNATE))
    alone = native.solve(
        core.state(position),
        core.config(position.rules),
        endgame_home=20,
        endgame_nodes=300,
        max_bytes=1 << 20,
    )
    assert alone[0] == LIMIT  # the search alone fills 1 MiB: the layers settle it
    assert solve(position, limit=Limit(nodes=None, seconds=None, memory=1 << 20)).verdict is (
        Verdict.UNSOLVABLE
    )
    assert solve(position, limit=Limit(nodes=None, seconds=None, memory=512 << 10)).verdict is (
        Verdict.UNKNOWN
    )
    capped = solve(position, limit=Limit(nodes=20_000, seconds=None, memory=1 << 20))
    assert capped.verdict is Verdict.UNKNOWN and capped.nodes <= 20_000


def test_no_room_on_disk_leaves_the_deal_unknown(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The pending positions' directory cannot be made: unknown, as before the layers.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    position = pysol_deal(136, Rules(cells=4, build=Build.ALTERNATE))
    result = solve(position, limit=Limit(nodes=None, seconds=None, memory=4 << 20))
    assert result.verdict is Verdict.UNKNOWN


TAG = bytes(range(32))


def tagged(
    position: Position, spill: Path, tag: bytes = TAG, nodes: int = -1
) -> tuple[int, int, int, int, int, Runs, float]:
    """The proof by layers with a tag: a manifest in ``spill`` before each layer."""
    assert native is not None
    state = search_state(position)
    config = core.config(position.rules)
    return native.exhaust_layered(
        state, config, str(spill), max_nodes=nodes, max_bytes=1 << 30, max_buffered=0, tag=tag
    )


def test_a_tagged_proof_stopped_by_its_limit_goes_on_to_the_same_proof(tmp_path: Path) -> None:
    # Stopped every 3,000 positions, the proof goes on from its last finished layer
    # each time: the same layers in the same order, the same positions (the
    # stopped layer's counted again, not kept), the same bytes written; the
    # verdict takes the files and the manifest away.
    position = pysol_deal(56, C2_A)
    (status, nodes, layers, largest, spilled), runs = layered_runs(position, tmp_path, 0)
    counts = [0]
    while (done := tagged(position, tmp_path, nodes=3_000))[0] == LIMIT:
        assert (tmp_path / "manifest").exists()
        # Each stop further on (the finished layers' positions and this call's),
        # and past the first, the seconds of the calls before carried over.
        assert done[1] > counts[-1] and (done[6] > 0.0) == (len(counts) > 1)
        counts.append(done[1])
    assert len(counts) > 3
    assert done[:6] == (status, nodes, layers, largest, spilled, runs)
    assert status == core.EXHAUSTED and not list(tmp_path.iterdir())


def test_what_a_killed_proof_wrote_after_its_manifest_is_not_read(tmp_path: Path) -> None:
    # A kill leaves bytes past what the manifest names in the layers' files, and
    # files of layers made after it: they are cut off and removed, not read.
    position = pysol_deal(56, C2_A)
    whole = layered_runs(position, tmp_path, 0)
    assert tagged(position, tmp_path, nodes=4_000)[0] == LIMIT
    files = sorted(tmp_path.glob("layer-*"))
    for path in files:
        with path.open("ab") as f:
            f.write(bytes([3, 9, 9, 9]) * 100)  # records of positions never reached
    stray = tmp_path / "layer-100000"
    stray.write_bytes(bytes([3, 9, 9, 9]))
    done = tagged(position, tmp_path)
    assert (done[:5], done[5]) == whole
    assert not stray.exists() and not list(tmp_path.iterdir())


def test_a_manifest_that_is_not_this_proofs_is_not_read(tmp_path: Path) -> None:
    # Another tag (another deal, rules or build), or a layer file shorter than the
    # manifest names: the proof starts again from the root.
    position = pysol_deal(56, C2_A)
    whole = layered_runs(position, tmp_path, 0)
    assert tagged(position, tmp_path, nodes=4_000)[0] == LIMIT
    fresh = tagged(position, tmp_path, tag=b"another deal")
    assert (fresh[:5], fresh[5], fresh[6]) == (*whole, 0.0)
    assert tagged(position, tmp_path, nodes=4_000)[0] == LIMIT
    largest = max(tmp_path.glob("layer-*"), key=lambda p: p.stat().st_size)
    largest.write_bytes(largest.read_bytes()[:-1])
    fresh = tagged(position, tmp_path)
    assert (fresh[:5], fresh[5], fresh[6]) == (*whole, 0.0)
    assert not list(tmp_path.iterdir())


def test_solve_goes_on_with_the_layers_a_limit_left(tmp_path: Path) -> None:
    # Fore Cell's PySolFC 136 in 1 MiB (above): stopped at 80,000 positions a call,
    # the second call goes straight to the layers the first one left, and the third
    # ends the proof: the whole proof's 196,290 positions of the layers.
    position = pysol_deal(136, Rules(cells=4, build=Build.ALTERNATE))
    limit = Limit(nodes=80_000, seconds=None, memory=1 << 20)
    first = solve(position, limit=limit, layers_dir=tmp_path)
    home = core.layers_home(position, tmp_path)
    assert first.verdict is Verdict.UNKNOWN and first.nodes == 80_000
    assert [p.name for p in tmp_path.iterdir()] == [home.name] and (home / "manifest").exists()
    second = solve(position, limit=limit, layers_dir=tmp_path)
    assert second.verdict is Verdict.UNKNOWN and 80_000 < second.nodes < 196_290
    third = solve(position, limit=limit, layers_dir=tmp_path)
    assert third.verdict is Verdict.UNSOLVABLE and third.nodes == 196_290
    assert not list(tmp_path.iterdir())
    # Each deal, rules and build its own directory.
    other = pysol_deal(136, Rules(cells=4, build=Build.ALTERNATE, layout=Layout.BAKERS))
    assert core.layers_home(other, tmp_path) != home


def test_a_stop_before_the_first_manifest_leaves_nothing_behind(tmp_path: Path) -> None:
    # No layer ran dry yet: nothing to go on from, so no file stays (the C side), nor
    # the deal's directory (solve()).
    assert native is not None
    position = pysol_deal(56, C2_A)
    assert tagged(position, tmp_path, nodes=1)[0] == LIMIT  # its first layer holds two
    assert not list(tmp_path.iterdir())
    fore_cell = pysol_deal(136, Rules(cells=4, build=Build.ALTERNATE))
    alone = native.solve(
        core.state(fore_cell),
        core.config(fore_cell.rules),
        endgame_home=20,
        endgame_nodes=300,
        max_bytes=1 << 20,
    )
    assert alone[0] == LIMIT  # its tables full at alone[3] positions: the layers next
    limit = Limit(nodes=alone[3] + 1, seconds=None, memory=1 << 20)
    assert solve(fore_cell, limit=limit, layers_dir=tmp_path).verdict is Verdict.UNKNOWN
    assert not list(tmp_path.iterdir())
