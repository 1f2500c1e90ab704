"""Square grids of any size, as square indices (a1 = 0, along the first rank, then up).

Indices keep the hot paths (legal-move generation) free of tuple arithmetic; names ("e4", "k12")
are only for notation and messages. Files are letters a..z, ranks 1..height. Every table is
built once per grid, so a game keeps its grid as a module constant.
"""

from __future__ import annotations

import string
from functools import cached_property

from engine.errors import InvalidNotation

KING_STEPS: tuple[tuple[int, int], ...] = tuple(
    (df, dr) for dr in (-1, 0, 1) for df in (-1, 0, 1) if df or dr
)
ROOK_STEPS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
KNIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)  # fmt: skip


class Grid:
    """A `width` x `height` board of squares 0 .. width*height-1; rank 1 is the bottom row."""

    def __init__(self, width: int, height: int) -> None:
        if not (1 <= width <= 26 and 1 <= height <= 99):
            raise ValueError("a grid has 1-26 files and 1-99 ranks")
        self.width = width
        self.height = height
        self.size = width * height
        self.files = string.ascii_lowercase[:width]
        self.names: tuple[str, ...] = tuple(
            f"{self.files[i % width]}{i // width + 1}" for i in range(self.size)
        )
        self._by_name = {n: i for i, n in enumerate(self.names)}

    def __repr__(self) -> str:
        return f"Grid({self.width}, {self.height})"

    # -- names

    def square(self, name: str) -> int:
        """Parse a square name such as 'e4' (case-insensitive); InvalidNotation if off this board."""
        try:
            return self._by_name[name.strip().lower()]
        except KeyError:
            last = f"{self.files[-1]}{self.height}"
            raise InvalidNotation(
                f"'{name.strip()[:12]}' is not a square: use a file a-{self.files[-1]} and a rank "
                f"1-{self.height}, like a1 or {last}."
            ) from None

    def name(self, index: int) -> str:
        return self.names[index]

    @property
    def pattern(self) -> str:
        """A regular expression (one group) matching this grid's square names, for notation parsers."""
        ranks = "|".join(str(r) for r in range(self.height, 0, -1))  # longest first: "12" before "1"
        return rf"([a-{self.files[-1]}](?:{ranks}))"

    # -- coordinates

    def file_of(self, index: int) -> int:
        return index % self.width

    def rank_of(self, index: int) -> int:
        """Zero-based: rank 1 is 0."""
        return index // self.width

    def at(self, file: int, rank: int) -> int | None:
        """The index of (file, rank), or None when off the board."""
        if 0 <= file < self.width and 0 <= rank < self.height:
            return rank * self.width + file
        return None

    def shift(self, index: int, dfile: int, drank: int) -> int | None:
        return self.at(index % self.width + dfile, index // self.width + drank)

    def distance(self, a: int, b: int) -> int:
        """Chebyshev distance: how many king steps apart (diagonal steps count as one)."""
        w = self.width
        return max(abs(a % w - b % w), abs(a // w - b // w))

    def offsets(self, index: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        """The on-board squares one of `steps` away from `index`, in `steps` order."""
        return tuple(s for df, dr in steps if (s := self.shift(index, df, dr)) is not None)

    # -- precomputed neighbourhoods

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """The up to eight squares a king step away, in a fixed order."""
        return tuple(self.offsets(i, KING_STEPS) for i in range(self.size))

    @cached_property
    def orthogonal(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.offsets(i, ROOK_STEPS) for i in range(self.size))

    @cached_property
    def knight(self) -> tuple[tuple[int, ...], ...]:
        return tuple(self.offsets(i, KNIGHT_STEPS) for i in range(self.size))

    def within(self, index: int, reach: int) -> tuple[int, ...]:
        """Every other square at Chebyshev distance 1..`reach`, in board order."""
        f, r = index % self.width, index // self.width
        out = []
        for rr in range(max(0, r - reach), min(self.height, r + reach + 1)):
            for ff in range(max(0, f - reach), min(self.width, f + reach + 1)):
                if ff != f or rr != r:
                    out.append(rr * self.width + ff)
        return tuple(out)

    def line(self, a: int, b: int) -> tuple[int, ...] | None:
        """The squares strictly between `a` and `b` on a straight (orthogonal or diagonal) line, or
        None when they are not on one."""
        w = self.width
        df, dr = b % w - a % w, b // w - a // w
        if df == 0 and dr == 0:
            return ()
        if df and dr and abs(df) != abs(dr):
            return None
        n = max(abs(df), abs(dr))
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        return tuple(a + k * (sf + sr * w) for k in range(1, n))


CHESSBOARD = Grid(8, 8)

__all__ = ["CHESSBOARD", "KING_STEPS", "KNIGHT_STEPS", "ROOK_STEPS", "Grid"]
