"""An 8x8 board as square indices 0..63 (a1 = 0, h1 = 7, a8 = 56), with precomputed neighbourhoods.

Indices keep the hot paths (legal-move generation) free of tuple arithmetic; names are only for
notation and messages.
"""

from __future__ import annotations

from engine.errors import InvalidNotation

FILES = "abcdefgh"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[i % 8]}{i // 8 + 1}" for i in range(64))
_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square(name: str) -> int:
    """Parse a square name such as 'e4' (case-insensitive)."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise InvalidNotation(f"'{name}' is not a square: use a file a-h and a rank 1-8, like e4.") from None


def name(index: int) -> str:
    return SQUARE_NAMES[index]


def file_of(index: int) -> int:
    return index % 8


def rank_of(index: int) -> int:
    """Zero-based: rank 1 is 0."""
    return index // 8


def at(file: int, rank: int) -> int | None:
    """The index of (file, rank), or None when off the board."""
    if 0 <= file < 8 and 0 <= rank < 8:
        return rank * 8 + file
    return None


def shift(index: int, dfile: int, drank: int) -> int | None:
    return at(index % 8 + dfile, index // 8 + drank)


def distance(a: int, b: int) -> int:
    """Chebyshev distance: how many king steps apart."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for dr in (-1, 0, 1) for df in (-1, 0, 1) if (df or dr) and (s := shift(i, df, dr)) is not None)
    for i in range(64)
)

# The square itself and its neighbours: the area an artillery barrage covers.
AREA: tuple[tuple[int, ...], ...] = tuple(tuple(sorted((i, *NEIGHBOURS[i]))) for i in range(64))


def blockers(dfile: int, drank: int) -> tuple[tuple[int, int], ...]:
    """Offsets a shot at (dfile, drank) passes over, for targets up to two squares away.

    Straight and diagonal shots pass over the middle square. A knight-like shot (one file and
    two ranks, or the reverse) passes between two squares; either of them blocks it (RULES.md).
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
