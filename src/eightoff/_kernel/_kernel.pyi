"""Types of the kernel's CPython binding (``_kernel/module.c``); see :mod:`eightoff._kernel`."""

from collections.abc import Sequence

Move = tuple[int, int, int, int, int]
EngineRules = tuple[int, int, int, int, bool]

def legal_moves(
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    rules: EngineRules,
) -> list[Move]: ...
def replay(
    cols: tuple[bytes, ...],
    cells: tuple[int, ...],
    founds: tuple[int, int, int, int],
    rules: EngineRules,
    moves: Sequence[object],
    kinds: tuple[object, object, object],
) -> tuple[int, bytes, tuple[bytes, ...], tuple[int, ...], tuple[int, int, int, int]]: ...
