"""Block Wars' chessboard: square names and neighbourhoods from the shared 8x8 grid, plus the game's own
rulings on space, its machine-gun sight lines (R6) and its barrage area (R10)."""

from __future__ import annotations

from engine.grid import CHESSBOARD

GRID = CHESSBOARD
FILES = GRID.files
SQUARE_NAMES: tuple[str, ...] = GRID.names
NEIGHBOURS: tuple[tuple[int, ...], ...] = GRID.neighbours
square = GRID.square
name = GRID.name
file_of = GRID.file_of
rank_of = GRID.rank_of
at = GRID.at
shift = GRID.shift
distance = GRID.distance

# The square itself and its neighbours: the area an artillery barrage covers (R10).
AREA: tuple[tuple[int, ...], ...] = tuple(tuple(sorted((i, *NEIGHBOURS[i]))) for i in range(64))


def blockers(dfile: int, drank: int) -> tuple[tuple[int, int], ...]:
    """Offsets a shot at (dfile, drank) passes over, for targets up to two squares away.

    Straight and diagonal shots pass over the middle square. A knight-like shot (one file and
    two ranks, or the reverse) passes between two squares; either of them blocks it (R6).
    """
    adf, adr = abs(dfile), abs(drank)
    if max(adf, adr) <= 1:
        return ()
    sf = (dfile > 0) - (dfile < 0)
    sr = (drank > 0) - (drank < 0)
    if adf == adr or adf == 0 or adr == 0:
        return ((sf * (adf // 2), sr * (adr // 2)),)
    if adr == 2:  # one file, two ranks: between (0, sr) and (sf, sr)
        return ((0, sr), (sf, sr))
    return ((sf, 0), (sf, sr))  # two files, one rank


def sight_lines(index: int, offsets: list[tuple[int, int]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each on-board target offset, the target index and the indices that block the shot."""
    lines = []
    for df, dr in offsets:
        target = shift(index, df, dr)
        if target is None:
            continue
        block = tuple(s for bf, br in blockers(df, dr) if (s := shift(index, bf, br)) is not None)
        lines.append((target, block))
    return tuple(lines)
